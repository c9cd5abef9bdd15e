/* PGCODEC_API marks the declarations that make up pgcodec's public ABI.
 *
 * The library is compiled with -fvisibility=hidden and
 * -fvisibility-inlines-hidden (src/CMakeLists.txt), so a shared libpgcodec
 * exports exactly the declarations marked here: the C API (pgcodec.h) and
 * the C++ API in include/pgcodec/. Everything else (kernels, rules, tables,
 * the codec table) stays internal, and the test
 * Build.SharedLibraryExportsOnlyPublicApi checks the exported symbols. For a
 * static library the mark changes nothing. Plain C99 and C++. */
#ifndef PGCODEC_EXPORT_H
#define PGCODEC_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define PGCODEC_API __attribute__((visibility("default")))
#else
#define PGCODEC_API
#endif

#endif /* PGCODEC_EXPORT_H */
