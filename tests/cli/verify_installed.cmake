# An installed `pgcodec verify` must find the installed registry
# (share/pgcodec/divergences) from outside the source tree, and must not
# suggest writing into it.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/elsewhere)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed (${rc}):\n${err}")
endif()
if(NOT EXISTS ${WORK}/prefix/share/pgcodec/divergences/SQL_ASCII.python-ascii.tsv)
  message(FATAL_ERROR "the registry was not installed into share/pgcodec/divergences")
endif()
set(cli ${WORK}/prefix/bin/pgcodec)
execute_process(COMMAND ${cli} verify --encodings SQL_ASCII --sample 100 --strings 20
                WORKING_DIRECTORY ${WORK}/elsewhere RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "installed pgcodec verify failed (exit ${rc}):\n${err}")
endif()
# With a registry file missing, the hint must not point into the prefix.
file(REMOVE ${WORK}/prefix/share/pgcodec/divergences/SQL_ASCII.python-ascii.tsv)
execute_process(COMMAND ${cli} verify --encodings SQL_ASCII --sample 100 --strings 20
                WORKING_DIRECTORY ${WORK}/elsewhere RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "no registry file")
  message(FATAL_ERROR "a missing registry file was not reported (exit ${rc}):\n${err}")
endif()
if(NOT err MATCHES "is read-only" OR err MATCHES "--update-registry --registry [^<]")
  message(FATAL_ERROR "the hint suggests writing into the installed registry:\n${err}")
endif()
message(STATUS "the installed pgcodec verify finds its registry")
