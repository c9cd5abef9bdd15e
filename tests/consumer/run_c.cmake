# Installs the built tree into a scratch prefix, then compiles and links
# tests/consumer/main.c against it with a plain C compiler and runs it, twice:
# with exactly the flags README.md documents ("Install"), and with what
# `pkg-config --static --cflags --libs pgcodec` says (pgcodec.pc's
# Libs.private). The static library is C++ inside: -lstdc++ (and -lm) are
# part of both. BUILD_FLAGS are the build's own C compile and link flags
# (empty but for the sanitize preset, whose instrumented library needs the
# sanitizer runtimes).
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/step.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
install_into(${WORK_DIR}/prefix)
set(p ${WORK_DIR}/prefix)
separate_arguments(build_flags UNIX_COMMAND "${BUILD_FLAGS}")
step(${CC} -std=c11 -Wall -Wextra -Werror ${SOURCE_DIR}/tests/consumer/main.c -o ${WORK_DIR}/c_consumer
     -I${p}/include -L${p}/lib -lpgcodec -lstdc++ -lm ${build_flags})
step(${WORK_DIR}/c_consumer)

execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${p}/lib/pkgconfig
                        PKG_CONFIG_LIBDIR=${p}/lib/pkgconfig
                        ${PKG_CONFIG} --static --cflags --libs pgcodec
                RESULT_VARIABLE rc OUTPUT_VARIABLE flags)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --static --cflags --libs pgcodec failed (${rc})")
endif()
string(STRIP "${flags}" flags)
if(NOT flags MATCHES "-lstdc\\+\\+")
  message(FATAL_ERROR "pkg-config --static gives no -lstdc++: ${flags}")
endif()
message(STATUS "pkg-config --static --cflags --libs pgcodec: ${flags}")
separate_arguments(flags UNIX_COMMAND "${flags}")
step(${CC} -std=c11 -Wall -Wextra -Werror ${SOURCE_DIR}/tests/consumer/main.c -o ${WORK_DIR}/c_consumer_pc
     ${flags} ${build_flags})
step(${WORK_DIR}/c_consumer_pc)
