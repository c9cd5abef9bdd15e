# `pgcodec verify` runs pgcodec-verify from beside the executable or from
# <libexecdir>/pgcodec; a copy of pgcodec alone must say that it is missing
# and where it looked, and exit 2.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/bin)
file(COPY ${CLI} DESTINATION ${WORK}/bin)
get_filename_component(name ${CLI} NAME)
foreach(command verify live)
  execute_process(COMMAND ${WORK}/bin/${name} ${command} --help RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "pgcodec-${command}, which is not installed"
     OR NOT err MATCHES "libexec/pgcodec/pgcodec-${command}")
    message(FATAL_ERROR "pgcodec ${command} without pgcodec-${command}: exit ${rc}\n${out}${err}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
