"""The words docgen knows before it reads a tree's `#define`s: attribute macros every
C++ tree may use, the specifiers an attribute macro's body may hold, and the CUDA
words the grammars read themselves (see `cpp_macros`, which learns the rest)."""

from __future__ import annotations

#: Macros every C++ tree may use, blanked whether or not a header defines them.
BUILTIN_MACROS: frozenset[str] = frozenset(
    {
        "__attribute__()",
        "__declspec()",
        "__launch_bounds__()",
        "__align__()",
        "__builtin_align__()",
        "TORCH_API",
        "TORCH_PYTHON_API",
        "TORCH_CUDA_CPP_API",
        "TORCH_CUDA_CU_API",
        "TORCH_HIP_API",
        "TORCH_XPU_API",
        "CAFFE2_API",
        "AOTI_TORCH_EXPORT",
        "C10_API",
        "C10_CUDA_API",
        "C10_HIP_API",
        "C10_XPU_API",
        "C10_EXPORT",
        "C10_IMPORT",
        "C10_HIDDEN",
        "C10_HOST_DEVICE",
        "C10_HOST",
        "C10_DEVICE",
        "C10_ALWAYS_INLINE",
        "C10_NOINLINE",
        "C10_NODISCARD",
        "C10_UNUSED",
        "C10_LAUNCH_BOUNDS_0",
        "C10_LAUNCH_BOUNDS_1()",
        "C10_LAUNCH_BOUNDS_2()",
        "C10_DEPRECATED",
        "C10_DEPRECATED_MESSAGE()",
        # MSVC's calling conventions: tree-sitter-cpp reads `void __stdcall f(int);` as
        # a syntax error (the C grammar knows them)
        "__cdecl",
        "__stdcall",
        "__fastcall",
        "__thiscall",
        "__vectorcall",
        "__clrcall",
        # GCC's and MSVC's spelling of C's `restrict`, which no grammar here reads
        # (`restrict` and `__restrict__` they do): `char* const __restrict data[]`
        "__restrict",
        # Windows calling conventions and import markers, defined in headers no
        # repository holds
        "WINAPI",
        "WINAPIV",
        "APIENTRY",
        "CALLBACK",
        "PASCAL",
        "NTAPI",
        "WSAAPI",
        "WINBASEAPI",
        "DECLSPEC_IMPORT",
        "STDMETHODCALLTYPE",
        "STDAPICALLTYPE",
    }
)

#: Words an attribute macro's body may hold besides attributes and other such macros.
SPECIFIER_WORDS: frozenset[str] = frozenset(
    {
        "inline",
        "__inline",
        "__inline__",
        "__forceinline",
        "__forceinline__",
        "static",
        "extern",
        "constexpr",
        "__host__",
        "__device__",
        "noexcept",
        "explicit",
        "__cdecl",
        "__stdcall",
    }
)

#: Never blanked, whatever a header does with them: the grammars know these words.
RESERVED: frozenset[str] = frozenset(
    {
        "__global__",
        "__device__",
        "__host__",
        "__shared__",
        "__constant__",
        "__managed__",
        "__forceinline__",
        "__restrict__",
        "__noinline__",
    }
)
