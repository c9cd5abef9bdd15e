# `cpack -G DEB` and `-G TGZ` in the shared scratch build (SHARED_DIR/build,
# made by Build.SharedLibraryNeedsOnlyCxxRuntime: the library alone, so the
# packages hold the library, headers, pgcodec.pc, the CMake package files and
# the docs; a build with the tools adds the CLI and its man page). Checks the
# .deb's control data and file list, unpacks it with `dpkg -x` into a scratch
# root and the TGZ with `cmake -E tar`, and builds and runs the C
# (pkg-config) and C++ (find_package) consumers against each.
include(${CMAKE_CURRENT_LIST_DIR}/consumers.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(out ${WORK_DIR}/packages)
foreach(g DEB TGZ)
  step(${CPACK} --config ${SHARED_DIR}/build/CPackConfig.cmake -G ${g} -B ${out})
endforeach()

file(GLOB debs ${out}/*.deb)
file(GLOB tgzs ${out}/*.tar.gz)
list(LENGTH debs ndebs)
list(LENGTH tgzs ntgzs)
if(NOT ndebs EQUAL 1 OR NOT ntgzs EQUAL 1)
  message(FATAL_ERROR "expected one .deb and one .tar.gz in ${out}, found: ${debs} ${tgzs}")
endif()

# Control data: name, version, a Depends naming the C++ runtime.
step_output(info dpkg-deb --info ${debs})
set(bad "")
foreach(re "\n Package: pgcodec\n" "\n Version: ${VERSION}\n" "\n Depends: [^\n]*libstdc\\+\\+6"
           "\n Maintainer: [^\n]+" "\n Description: [^\n]+")
  if(NOT info MATCHES "${re}")
    string(APPEND bad "\n  dpkg-deb --info has no match for ${re}")
  endif()
endforeach()
# Files: everything under /usr, and the parts a consumer needs.
step_output(contents dpkg-deb --contents ${debs})
string(REPLACE "\n" ";" lines "${contents}")
foreach(l IN LISTS lines)
  if(l MATCHES " \\./(.*)$" AND NOT CMAKE_MATCH_1 STREQUAL "" AND NOT CMAKE_MATCH_1 MATCHES "^usr(/|$)")
    string(APPEND bad "\n  outside /usr: ${CMAKE_MATCH_1}")
  endif()
endforeach()
foreach(f usr/lib/libpgcodec.so.${SOVERSION} usr/lib/libpgcodec.so usr/include/pgcodec/pgcodec.h
          usr/include/pgcodec/version.h usr/include/pgcodec/export.h usr/lib/pkgconfig/pgcodec.pc
          usr/lib/cmake/pgcodec/pgcodecConfig.cmake usr/share/doc/pgcodec/LICENSE)
  if(NOT contents MATCHES " \\./${f}( |\n|$)")
    string(APPEND bad "\n  missing ${f}")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "${debs}:${bad}\n${info}\n${contents}")
endif()

step(dpkg -x ${debs} ${WORK_DIR}/unpacked)
consume(${WORK_DIR}/unpacked/usr lib deb-consumers)

step(${CMAKE_COMMAND} -E make_directory ${WORK_DIR}/tgz)
execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf ${tgzs} WORKING_DIRECTORY ${WORK_DIR}/tgz RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot unpack ${tgzs} (${rc})")
endif()
file(GLOB top LIST_DIRECTORIES true ${WORK_DIR}/tgz/*)
list(LENGTH top ntop)
if(NOT ntop EQUAL 1 OR NOT IS_DIRECTORY "${top}")
  message(FATAL_ERROR "${tgzs} should unpack to one directory, not: ${top}")
endif()
consume(${top} lib tgz-consumers)
message(STATUS "${debs} and ${tgzs} install and serve both consumers")
