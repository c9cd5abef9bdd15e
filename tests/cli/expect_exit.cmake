# Runs ${CLI} with the ;-separated ${ARGS} and requires exit status ${STATUS}.
execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc STREQUAL STATUS)
  message(FATAL_ERROR "pgcodec ${ARGS} exited ${rc}, expected ${STATUS}: ${err}")
endif()
