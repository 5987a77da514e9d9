"""The headers of the C and C++ standard libraries, so that a page can say an include
names one rather than guess at a system or third-party header."""

from __future__ import annotations

_C = (
    "assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal"
    " stdalign stdarg stdatomic stdbit stdbool stdckdint stddef stdint stdio stdlib"
    " stdnoreturn string tgmath threads time uchar wchar wctype"
)
#: the C headers C++ also has as `<cname>`
_C_IN_CPP = (
    "assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal"
    " stdalign stdarg stdbool stddef stdint stdio stdlib string tgmath time uchar wchar wctype"
)
_CPP = (
    "algorithm any array atomic barrier bit bitset charconv chrono codecvt compare complex"
    " concepts condition_variable coroutine deque exception execution expected filesystem"
    " flat_map flat_set format forward_list fstream functional future generator"
    " initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale"
    " map mdspan memory memory_resource mutex new numbers numeric optional ostream print"
    " queue random ranges ratio regex scoped_allocator semaphore set shared_mutex"
    " source_location span spanstream sstream stack stacktrace stdexcept stdfloat stop_token"
    " streambuf string string_view strstream syncstream system_error text_encoding thread"
    " tuple type_traits typeindex typeinfo unordered_map unordered_set utility valarray"
    " variant vector version"
)

#: every standard header as an include names it: `<vector>`, `<stdio.h>`, `<cstdio>`
STANDARD_HEADERS = frozenset(
    [
        *_CPP.split(),
        *(f"{name}.h" for name in _C.split()),
        *(f"c{name}" for name in _C_IN_CPP.split()),
    ]
)


def is_standard_header(target: str) -> bool:
    return target in STANDARD_HEADERS
