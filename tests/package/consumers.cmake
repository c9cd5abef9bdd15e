# consume(PREFIX LIBDIR NAME [STATIC]): builds the two consumers against the
# pgcodec installed (or unpacked) at PREFIX, runs them, and for a shared
# library checks that each really loads libpgcodec.so.<SOVERSION> from
# PREFIX/LIBDIR:
#   C:   tests/consumer/main.c, cc with `pkg-config --cflags --libs pgcodec`
#        (`--static` for a static library, which adds Libs.private);
#   C++: tests/consumer, find_package(pgcodec) with CMAKE_PREFIX_PATH=PREFIX.
# pgcodec.pc's prefix is ${pcfiledir}-relative, so PKG_CONFIG_PATH alone
# finds the right tree wherever it is. Work goes in WORK_DIR/NAME.
# Needs SOURCE_DIR, WORK_DIR, GENERATOR, CC, CXX, PKG_CONFIG, READELF and
# SOVERSION (shared only); BUILD_FLAGS are extra C compile/link flags.
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/step.cmake)

# step_output(VAR COMMAND...): as step(), keeping standard output in VAR.
function(step_output var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}")
  endif()
  string(STRIP "${out}" out)
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# expect_loads(EXE LIBDIR ENV...): EXE needs libpgcodec.so.SOVERSION
# (readelf -d) and, run with ENV, the loader takes it from LIBDIR (ldd).
function(expect_loads exe libdir)
  set(soname libpgcodec.so.${SOVERSION})
  step_output(dyn ${READELF} -d ${exe})
  if(NOT dyn MATCHES "\\(NEEDED\\)[^\n]*\\[${soname}\\]")
    message(FATAL_ERROR "${exe} does not need ${soname}:\n${dyn}")
  endif()
  step_output(ldd ${CMAKE_COMMAND} -E env ${ARGN} ldd ${exe})
  file(REAL_PATH ${libdir} real_libdir)
  if(NOT ldd MATCHES "${soname} => ([^ \n]+)")
    message(FATAL_ERROR "ldd does not resolve ${soname} for ${exe}:\n${ldd}")
  endif()
  get_filename_component(loaded_dir ${CMAKE_MATCH_1} DIRECTORY)
  file(REAL_PATH ${loaded_dir} loaded_dir)
  if(NOT loaded_dir STREQUAL real_libdir)
    message(FATAL_ERROR "${exe} loads ${CMAKE_MATCH_1}, not the one in ${libdir}")
  endif()
  message(STATUS "${exe} loads ${soname} from ${libdir}")
endfunction()

function(consume prefix libdir name)
  set(static FALSE)
  if(ARGN STREQUAL "STATIC")
    set(static TRUE)
  endif()
  set(w ${WORK_DIR}/${name})
  file(REMOVE_RECURSE ${w})
  file(MAKE_DIRECTORY ${w})
  set(pcenv PKG_CONFIG_PATH=${prefix}/${libdir}/pkgconfig PKG_CONFIG_LIBDIR=${prefix}/${libdir}/pkgconfig)

  # C with pkg-config.
  set(pcflags --cflags --libs)
  if(static)
    list(PREPEND pcflags --static)
  endif()
  step_output(flags ${CMAKE_COMMAND} -E env ${pcenv} ${PKG_CONFIG} ${pcflags} pgcodec)
  message(STATUS "${name}: pkg-config ${pcflags} pgcodec: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  separate_arguments(build_flags UNIX_COMMAND "${BUILD_FLAGS}")
  step(${CC} -std=c11 -Wall -Wextra -Werror ${SOURCE_DIR}/tests/consumer/main.c -o ${w}/c_consumer
       ${flags} ${build_flags})
  set(runenv LD_LIBRARY_PATH=${prefix}/${libdir})
  step(${CMAKE_COMMAND} -E env ${runenv} ${w}/c_consumer)

  # C++ with find_package.
  step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${w}/build -G ${GENERATOR}
       -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
       -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
  step(${CMAKE_COMMAND} --build ${w}/build)
  step(${CMAKE_COMMAND} -E env ${runenv} ${w}/build/consumer)

  if(NOT static)
    expect_loads(${w}/c_consumer ${prefix}/${libdir} ${runenv})
    # The C++ consumer runs without LD_LIBRARY_PATH: CMake gave it the
    # imported library's directory as its build RPATH.
    expect_loads(${w}/build/consumer ${prefix}/${libdir})
  endif()
endfunction()
