# Writes the man page pgcodec(1) from the built CLI (run at build time by the
# pgcodec_man target, cmake/manpages.cmake), so it never goes stale:
# help2man turns `pgcodec --help` and `--version` into NAME, SYNOPSIS,
# DESCRIPTION and OPTIONS, and one section per subcommand ("PGCODEC CONVERT",
# ...) holds that subcommand's own --help, laid out for man: its description
# as filled paragraphs, its usage line, and one tagged paragraph per option.
#   cmake -DCLI=<pgcodec> -DHELP2MAN=<help2man> -DOUT=<pgcodec.1> -P manpage.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_help.cmake)
pgcodec_subcommands(${CLI} subs)

# Text for roff: a backslash is \e, and a line must not start with a
# control character ('.' or ''').
function(roff_escape var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# CLI11's layout of `pgcodec SUB --help`: description lines, a line
# "Usage: ...", then headings ("Options:") over option lines that start at
# column 2 (spec, spaces, description) and continue at column 3 or more.
function(subcommand_section var sub help)
  string(TOUPPER "${sub}" upper)
  set(r "[PGCODEC ${upper}]\n")
  # One list item per line: a ';' in the text is kept out of the list's way.
  string(ASCII 1 semi)
  string(REPLACE ";" "${semi}" help "${help}")
  string(REPLACE "\n" ";" lines "${help}")
  set(part description)
  set(para FALSE)
  foreach(l IN LISTS lines)
    string(REGEX REPLACE "[ \t]+$" "" l "${l}")
    if(l MATCHES "^Usage: (.*)$")
      roff_escape(u "${CMAKE_MATCH_1}")
      string(APPEND r ".PP\nUsage: \\fB${u}\\fR\n")
      set(part options)
    elseif(part STREQUAL "description")
      if(l STREQUAL "")
        set(para FALSE)
      else()
        if(NOT para)
          string(APPEND r ".PP\n")
          set(para TRUE)
        endif()
        roff_escape(t "${l}")
        string(APPEND r "${t}\n")
      endif()
    elseif(l MATCHES "^([A-Za-z][^:]*):$")
      string(APPEND r ".SS \"${CMAKE_MATCH_1}\"\n")
    elseif(l MATCHES "^  ([^ ].*)$")
      # "spec<2+ spaces>description", or the spec alone; a spec as wide as
      # CLI11's column is followed by one space only, and then the
      # description starts at the first capitalised word (the spec's own
      # words are flags, upper-case types and "Excludes:"/"Needs:").
      string(REGEX MATCH "^  ([^ ]+( [^ ]+)*)(  +(.*))?$" _ "${l}")
      set(spec "${CMAKE_MATCH_1}")
      set(d "${CMAKE_MATCH_4}")
      if(d STREQUAL "" AND spec MATCHES "^([^ ]+( [^ ]+)*) ([A-Z][a-z]+( .*)?)$")
        set(spec "${CMAKE_MATCH_1}")
        set(d "${CMAKE_MATCH_3}")
      endif()
      roff_escape(spec "${spec}")
      roff_escape(d "${d}")
      string(APPEND r ".TP\n\\fB${spec}\\fR\n")
      if(NOT d STREQUAL "")
        string(APPEND r "${d}\n")
      endif()
    elseif(l MATCHES "^   +(.*)$")
      roff_escape(d "${CMAKE_MATCH_1}")
      string(APPEND r "${d}\n")
    elseif(NOT l STREQUAL "")
      roff_escape(t "${l}")
      string(APPEND r ".PP\n${t}\n")
    endif()
  endforeach()
  string(REPLACE "${semi}" ";" r "${r}")
  set(${var} "${r}" PARENT_SCOPE)
endfunction()

set(include "")
foreach(s IN LISTS subs)
  execute_process(COMMAND ${CLI} ${s} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CLI} ${s} --help failed (${rc})")
  endif()
  subcommand_section(section ${s} "${help}")
  string(APPEND include "${section}")
endforeach()
string(APPEND include "[SEE ALSO]\n.BR iconv (1),\n.BR uconv (1)\n")
set(inc ${OUT}.h2m)
file(WRITE ${inc} "${include}")

execute_process(COMMAND ${HELP2MAN} --no-info --section=1
                  "--name=convert between PostgreSQL encodings and UTF-8 as PostgreSQL does"
                  --include=${inc} --output=${OUT}.tmp ${CLI}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "help2man failed (${rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
