#include <catch2/catch_test_macros.hpp>

TEST_CASE("vectors can be sized", "[vector]") {
  std::vector<int> v(5);
  SECTION("resizing bigger") {
    v.resize(10);
    REQUIRE(v.size() == 10);
  }
}

TEMPLATE_TEST_CASE("sums", "[sum]", int, float) {
  CHECK(sum<TestType>() == 0);
}

struct Kept {
  int value;
};
