# Installs the built tree into a scratch prefix, then compiles and links
# tests/consumer/main.c against it with a plain C compiler and exactly the
# flags README.md documents ("Install / use from C"), and runs it. The static
# library is C++ inside: -lstdc++ (and -lm) are part of the documented flags.
file(REMOVE_RECURSE ${WORK_DIR})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
set(p ${WORK_DIR}/prefix)
step(${CC} -std=c11 -Wall -Wextra -Werror ${SOURCE_DIR}/tests/consumer/main.c -o ${WORK_DIR}/c_consumer
     -I${p}/include -L${p}/lib -lpgcodec -lstdc++ -lm)
step(${WORK_DIR}/c_consumer)
