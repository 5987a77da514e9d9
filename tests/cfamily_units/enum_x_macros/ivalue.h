namespace c10 {
struct IValue {
  enum class Tag : uint32_t {
#define DEFINE_TAG(x) x,
    TORCH_FORALL_TAGS(DEFINE_TAG)
#undef DEFINE_TAG
  };
  bool isNone() const;
};
} // namespace c10
