# pgcodec_relative_dir(OUT FROM TO): the path from install directory FROM to
# install directory TO ("." when they are the same), each either relative to
# the install prefix (as GNUInstallDirs gives them by default) or absolute.
# When both are relative the answer holds under any --prefix, so it can go
# into an $ORIGIN RPATH, a ${pcfiledir}-relative .pc or a path the programs
# resolve from their own location.
function(pgcodec_relative_dir out from to)
  foreach(d from to)
    if(NOT IS_ABSOLUTE "${${d}}")
      set(${d} "${CMAKE_INSTALL_PREFIX}/${${d}}")
    endif()
  endforeach()
  file(RELATIVE_PATH rel "${from}" "${to}")
  string(REGEX REPLACE "/$" "" rel "${rel}")
  if(rel STREQUAL "")
    set(rel ".")
  endif()
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()
