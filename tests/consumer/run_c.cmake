# Installs the built tree into a scratch prefix, then compiles and links
# tests/consumer/main.c against it with a plain C compiler and exactly the
# flags README.md documents ("Install / use from C"), and runs it. The static
# library is C++ inside: -lstdc++ (and -lm) are part of the documented flags.
# BUILD_FLAGS are the build's own C compile and link flags (empty but for the
# sanitize preset, whose instrumented library needs the sanitizer runtimes).
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/step.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
install_into(${WORK_DIR}/prefix)
set(p ${WORK_DIR}/prefix)
separate_arguments(build_flags UNIX_COMMAND "${BUILD_FLAGS}")
step(${CC} -std=c11 -Wall -Wextra -Werror ${SOURCE_DIR}/tests/consumer/main.c -o ${WORK_DIR}/c_consumer
     -I${p}/include -L${p}/lib -lpgcodec -lstdc++ -lm ${build_flags})
step(${WORK_DIR}/c_consumer)
