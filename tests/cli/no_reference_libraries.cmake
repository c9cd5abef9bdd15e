# pgcodec (list, resolve, convert, check) must not load libpq, ICU or
# libpython: those belong to pgcodec-verify and pgcodec-live. ldd lists the
# libraries the executable loads, recursively; LD_DEBUG=libs on a real
# `convert` run confirms nothing more is opened at run time.
execute_process(COMMAND ldd ${CLI} RESULT_VARIABLE rc OUTPUT_VARIABLE libs ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ldd ${CLI} failed (${rc}): ${err}")
endif()
if(libs MATCHES "(libpython[^ ]*|libpq[^ ]*|libicu[^ ]*)")
  message(FATAL_ERROR "pgcodec links ${CMAKE_MATCH_1}:\n${libs}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=libs ${CLI} convert -f LATIN1 -t UTF8 /dev/null
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE debug)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pgcodec convert failed (${rc}): ${debug}")
endif()
if(debug MATCHES "calling init: ([^\n]*(libpython|libpq|libicu)[^\n]*)")
  message(FATAL_ERROR "pgcodec convert loaded ${CMAKE_MATCH_1}")
endif()
string(REGEX MATCHALL "calling init: [^\n]*" inits "${debug}")
list(LENGTH inits n)
message(STATUS "pgcodec convert loads ${n} shared objects, none of libpq, ICU or libpython")
