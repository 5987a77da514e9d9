#pragma once
// As c10/macros/Export.h spells its own macros: behind the build's conditionals.
#if defined(_WIN32)
#define MYLIB_EXPORT __declspec(dllexport)
#define MYLIB_IMPORT __declspec(dllimport)
#else
#define MYLIB_EXPORT __attribute__((__visibility__("default")))
#define MYLIB_IMPORT MYLIB_EXPORT
#endif
#ifdef MYLIB_BUILD_MAIN_LIB
#define MYLIB_API MYLIB_EXPORT
#else
#define MYLIB_API MYLIB_IMPORT
#endif
