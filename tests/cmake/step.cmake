# step(COMMAND...): runs one step of a test script (cmake -P); a step that
# fails fails the test with its exit status and command line.
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}")
  endif()
endfunction()

# install_into(PREFIX): installs the build tree BUILD_DIR into a fresh PREFIX.
function(install_into prefix)
  file(REMOVE_RECURSE ${prefix})
  step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
endfunction()
