# The man page pgcodec(1), generated at build time by help2man (Debian
# package help2man; ci/setup installs it) from the CLI this build made, and
# installed to share/man/man1. One page, with a section per subcommand: an
# iconv user types `man pgcodec`, and the subcommands share one vocabulary
# (encoding names, error modes, exit codes), like uconv(1). Subcommands that
# run executables of their own (`pgcodec verify`) come in through
# `pgcodec verify --help` as the others do.
find_program(HELP2MAN help2man)
if(NOT HELP2MAN)
  message(WARNING "help2man not found: no man page is built or installed (Debian: apt-get install help2man)")
  return()
endif()
set(PGCODEC_MAN_PAGE ${PROJECT_BINARY_DIR}/man/pgcodec.1)
# The page runs `pgcodec <subcommand> --help`, and a subcommand may run an
# executable of its own (pgcodec verify): depend on every executable
# tools/pgcodec defines, whatever its name.
set(_man_deps pgcodec-cli)
get_property(_tool_targets DIRECTORY ${PROJECT_SOURCE_DIR}/tools/pgcodec PROPERTY BUILDSYSTEM_TARGETS)
foreach(t IN LISTS _tool_targets)
  get_target_property(_type ${t} TYPE)
  if(_type STREQUAL "EXECUTABLE")
    list(APPEND _man_deps ${t})
  endif()
endforeach()
list(REMOVE_DUPLICATES _man_deps)
add_custom_command(
  OUTPUT ${PGCODEC_MAN_PAGE}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
  # In the sanitize and coverage builds the CLI is instrumented: no leak
  # report at exit, no profile in the build's way.
  COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
          LLVM_PROFILE_FILE=${PROJECT_BINARY_DIR}/man/help2man-%p.profraw
          ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:pgcodec-cli> -DHELP2MAN=${HELP2MAN}
          -DOUT=${PGCODEC_MAN_PAGE} -P ${CMAKE_CURRENT_LIST_DIR}/manpage.cmake
  DEPENDS ${_man_deps} ${CMAKE_CURRENT_LIST_DIR}/manpage.cmake ${CMAKE_CURRENT_LIST_DIR}/cli_help.cmake
  COMMENT "Man page pgcodec(1) from pgcodec --help (help2man)"
  VERBATIM)
add_custom_target(pgcodec_man ALL DEPENDS ${PGCODEC_MAN_PAGE})
install(FILES ${PGCODEC_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
