# CPack: `cpack -G DEB` and `cpack -G TGZ` in a build directory package what
# `cmake --install` installs, minus the Python module. The .deb is two
# packages, so a program that links pgcodec pulls in no libpq, ICU or
# libpython:
#   pgcodec: the library (whichever BUILD_SHARED_LIBS built; a package for
#     other systems to link against is normally configured with it ON), the
#     public headers, pgcodec.pc, the find_package(pgcodec) files, the CLI
#     (list, resolve, convert, check) and its man page, LICENSE and
#     CHANGELOG.md in share/doc/pgcodec;
#   pgcodec-verify (install component `verifier`, when PGCODEC_BUILD_TOOLS
#     built it): pgcodec-verify and pgcodec-live in libexec/pgcodec, which
#     `pgcodec verify` and `pgcodec live` run, and the divergence registry
#     they read (share/pgcodec); it depends on pgcodec of the same version.
# The TGZ is one archive of both (cmake/cpack_options.cmake).
# The Python module (install component `python`) is left out: it is built
# for one CPython (Debian's, its ABI tag in the file name) and installs into
# that interpreter's dist-packages, which is a package of its own in Debian
# terms (python3-pgcodec), not part of a C/C++ library package.
# Included at the end of the top CMakeLists.txt, once every install() rule
# (and so every component) exists.

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(PGCODEC_PACKAGE_MAINTAINER "pgcodec developers" CACHE STRING
    "The Maintainer field of the .deb (Debian wants \"Name <email>\")")

set(CPACK_PACKAGE_NAME pgcodec)
set(CPACK_PACKAGE_VENDOR "pgcodec")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
"pgcodec converts between bytes in each of PostgreSQL's 42 encodings and
UTF-8 exactly as PostgreSQL converts them, for database drivers. C and C++
API, pkg-config and CMake package files, and the pgcodec command-line tool.")
set(CPACK_PACKAGE_CONTACT "${PGCODEC_PACKAGE_MAINTAINER}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_INSTALL_DIRECTORY pgcodec)
set(CPACK_SOURCE_GENERATOR "")
set(CPACK_GENERATOR "DEB;TGZ")

# Every component but `python`, one .deb per component (the TGZ overrides
# this in cmake/cpack_options.cmake).
get_cmake_property(_components COMPONENTS)
list(REMOVE_ITEM _components python)
set(CPACK_COMPONENTS_ALL ${_components})
set(CPACK_COMPONENTS_GROUPING IGNORE)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_ARCHIVE_COMPONENT_INSTALL ON)
# Per generator (cmake/cpack_options.cmake, read when cpack runs): the .deb
# installs under /usr, the TGZ unpacks into one directory,
# pgcodec-<version>-Linux/{include,lib,...}.
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/cpack_options.cmake)
set(CPACK_ARCHIVE_FILE_NAME "pgcodec-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}")

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_NAME pgcodec)
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME pgcodec)
set(CPACK_DEBIAN_VERIFIER_PACKAGE_NAME pgcodec-verify)
set(CPACK_DEBIAN_VERIFIER_PACKAGE_SECTION devel)
set(CPACK_COMPONENT_VERIFIER_DESCRIPTION
"pgcodec verify and pgcodec live: hold pgcodec to a PostgreSQL server, map
where ICU and Python's codecs differ from it, and run round trips through a
live server. The divergence registry they check against.")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PGCODEC_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_LICENSE MIT)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)  # fast to build; the payload is small
# Depends: what dpkg-shlibdeps reads off the ELF files (the shared library's
# and the CLI's: libstdc++6, libgcc-s1, libc6, with versions). A package with
# nothing dynamic in it (a static library without the CLI), or a machine
# without dpkg-shlibdeps (package dpkg-dev), states the C++ runtime instead.
find_program(PGCODEC_DPKG_SHLIBDEPS dpkg-shlibdeps)
get_target_property(_pgcodec_type pgcodec TYPE)
if(PGCODEC_DPKG_SHLIBDEPS AND (_pgcodec_type STREQUAL "SHARED_LIBRARY" OR TARGET pgcodec-cli))
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libstdc++6")
endif()
# pgcodec-verify: the pgcodec it runs under, and (dpkg-shlibdeps) libpq5,
# ICU and libpython.
set(CPACK_DEBIAN_VERIFIER_PACKAGE_DEPENDS "pgcodec (= ${PROJECT_VERSION})")
if(PGCODEC_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_VERIFIER_PACKAGE_SHLIBDEPS ON)
endif()

include(CPack)
