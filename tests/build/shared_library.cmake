# Configures SOURCE_DIR as a shared build of the library alone in
# WORK_DIR/build, builds target pgcodec, installs it into WORK_DIR/prefix and
# fails when libpgcodec.so needs (readelf -d NEEDED) a library outside the
# C++ runtime, when its link command names any other library, or when the
# installed pgcodec::pgcodec has a link interface.
# The build directory is kept between runs (a rerun is incremental); the
# compiler flags are set here, so none come from the environment (CXXFLAGS).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/step.cmake)

find_program(READELF NAMES readelf)
if(NOT READELF)
  message(FATAL_ERROR "readelf not found (binutils)")
endif()

set(build ${WORK_DIR}/build)
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${prefix})
# No build type, no optimisation, no debug info: the generated tables compile
# fastest so.
step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -G ${GENERATOR}
     -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS=-O0
     -DCMAKE_SHARED_LINKER_FLAGS=
     -DBUILD_SHARED_LIBS=ON -DPGCODEC_BUILD_TOOLS=OFF -DPGCODEC_BUILD_TESTS=OFF
     -DPGCODEC_BUILD_BENCH=OFF -DPGCODEC_BUILD_PYTHON=OFF -DPGCODEC_INSTALL=ON)
step(${CMAKE_COMMAND} --build ${build} --target pgcodec --parallel 2)
step(${CMAKE_COMMAND} --install ${build} --prefix ${prefix})

# What the dynamic loader must find: the C++ runtime (GNU or LLVM), libm,
# libgcc_s, libc and the loader itself.
file(GLOB_RECURSE libs LIST_DIRECTORIES false ${prefix}/*libpgcodec.so)
if(NOT libs)
  message(FATAL_ERROR "no libpgcodec.so installed under ${prefix}")
endif()
list(GET libs 0 lib)
execute_process(COMMAND ${READELF} -d ${lib} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -d ${lib} failed (${rc})")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]*\\]" needed_lines "${dyn}")
set(needed "")
set(bad "")
foreach(l IN LISTS needed_lines)
  string(REGEX REPLACE ".*\\[(.*)\\]" "\\1" name "${l}")
  list(APPEND needed ${name})
  if(NOT name MATCHES "^(libstdc\\+\\+|libc\\+\\+|libc\\+\\+abi|libm|libgcc_s|libc|ld-linux[-a-z0-9_.]*)\\.so(\\.[0-9]+)*$")
    string(APPEND bad "\n  libpgcodec.so needs ${name}")
  endif()
endforeach()
if(NOT needed)
  message(FATAL_ERROR "readelf -d ${lib} listed no NEEDED entry at all; expected the C++ runtime")
endif()

# The link command itself: the linker drops a library nothing uses from
# NEEDED (as-needed), so a dependency linked but unused is found here.
if(GENERATOR STREQUAL "Ninja")
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${build} -- -t commands pgcodec
                  OUTPUT_VARIABLE commands RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ninja -t commands pgcodec failed (${rc})")
  endif()
  string(REPLACE "\n" ";" commands "${commands}")
  set(linked FALSE)
  foreach(line IN LISTS commands)
    separate_arguments(args UNIX_COMMAND "${line}")
    if(NOT "-shared" IN_LIST args)
      continue()
    endif()
    set(linked TRUE)
    set(after_o FALSE)
    foreach(a IN LISTS args)
      if(after_o)
        set(after_o FALSE)  # the output, libpgcodec.so itself
      elseif(a STREQUAL "-o")
        set(after_o TRUE)
      elseif(a MATCHES "^-l(.*)$" AND NOT CMAKE_MATCH_1 MATCHES "^(stdc\\+\\+|c\\+\\+|c\\+\\+abi|m|gcc_s|gcc|c)$")
        string(APPEND bad "\n  the link command names ${a}")
      elseif(NOT a MATCHES "^-" AND a MATCHES "\\.(so|a)(\\.[0-9]+)*$")
        string(APPEND bad "\n  the link command names ${a}")
      endif()
    endforeach()
  endforeach()
  if(NOT linked)
    message(FATAL_ERROR "no link command (-shared) found for target pgcodec")
  endif()
endif()

# The exported target: no INTERFACE_LINK_LIBRARIES / INTERFACE_LINK_OPTIONS.
file(GLOB_RECURSE targets ${prefix}/*pgcodecTargets.cmake)
if(NOT targets)
  message(FATAL_ERROR "no pgcodecTargets.cmake installed under ${prefix}")
endif()
list(GET targets 0 targets)
file(READ ${targets} exported)
if(exported MATCHES "INTERFACE_LINK_(LIBRARIES|OPTIONS) +\"([^\"]*)\"")
  string(APPEND bad "\n  the exported pgcodec::pgcodec has INTERFACE_LINK_${CMAKE_MATCH_1} \"${CMAKE_MATCH_2}\"")
endif()

if(bad)
  message(FATAL_ERROR "the library must link only the C++ runtime:${bad}")
endif()
message(STATUS "libpgcodec.so needs ${needed}; pgcodec::pgcodec has no link interface")
