# pgcodec_subcommands(CLI OUT): the subcommands `CLI --help` lists (CLI11's
# "Subcommands:" block: one "  name  description" line each), into OUT.
# Shared by the man page generator (cmake/manpage.cmake) and its test.
function(pgcodec_subcommands cli out)
  execute_process(COMMAND ${cli} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${cli} --help failed (${rc})")
  endif()
  string(REPLACE ";" "," help "${help}")  # one list item per line
  string(REPLACE "\n" ";" lines "${help}")
  set(in_block FALSE)
  set(subs "")
  foreach(l IN LISTS lines)
    if(l MATCHES "^[Ss][Uu][Bb][Cc][Oo][Mm][Mm][Aa][Nn][Dd][Ss]:")
      set(in_block TRUE)
    elseif(in_block AND l MATCHES "^  ([a-z][a-z0-9-]*)( |$)")
      list(APPEND subs ${CMAKE_MATCH_1})
    elseif(in_block AND NOT l MATCHES "^ ")
      set(in_block FALSE)  # a blank line or the next heading ends the block
    endif()
  endforeach()
  if(NOT subs)
    message(FATAL_ERROR "${cli} --help lists no subcommands:\n${help}")
  endif()
  set(${out} ${subs} PARENT_SCOPE)
endfunction()
