# Atlas.RenderIsCommitted: copies the committed atlas.json into WORK, renders
# it with `pgcodec verify --render-atlas WORK`, and requires atlas.md and
# index.html (and atlas.json, rewritten) byte for byte equal to the committed ones.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(COPY "${ATLAS}/atlas.json" DESTINATION "${WORK}")
execute_process(COMMAND "${CLI}" verify --render-atlas "${WORK}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pgcodec verify --render-atlas exited ${rc}: ${err}")
endif()
foreach(f atlas.json atlas.md index.html)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${ATLAS}/${f}" "${WORK}/${f}" RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "docs/atlas/${f} is not what pgcodec verify --render-atlas writes from docs/atlas/atlas.json "
                        "(diff ${ATLAS}/${f} ${WORK}/${f}); regenerate it with the tool, never by hand")
  endif()
endforeach()
