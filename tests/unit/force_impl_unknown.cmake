# Runs UNIT_TESTS with PGCODEC_FORCE_IMPL naming no kernel: the process must
# stop (abort) with a message on stderr, never run some other kernel.
set(ENV{PGCODEC_FORCE_IMPL} "no-such-kernel")
execute_process(COMMAND ${UNIT_TESTS} --gtest_filter=Kernels.ActiveFollowsForceImpl
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(result EQUAL 0)
  message(FATAL_ERROR "PGCODEC_FORCE_IMPL=no-such-kernel was accepted:\n${out}")
endif()
if(NOT err MATCHES "PGCODEC_FORCE_IMPL=\"no-such-kernel\" names no kernel available here")
  message(FATAL_ERROR "no message naming the bad value on stderr (result ${result}):\n${err}")
endif()
