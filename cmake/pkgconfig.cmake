# pgcodec.pc for pkg-config, installed to <libdir>/pkgconfig. Its prefix is
# ${pcfiledir}-relative (when the install directories are relative, as they
# are by default), so the same file is right under any --prefix, in the .deb
# and in the TGZ; `pkg-config --static` adds the C++ runtime (Libs.private).
function(_pgcodec_pc_path out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(PGCODEC_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  # lib/pkgconfig -> ../.., lib/x86_64-linux-gnu/pkgconfig -> ../../..
  pgcodec_relative_dir(_up "${CMAKE_INSTALL_LIBDIR}/pkgconfig" "")
  set(PGCODEC_PC_PREFIX "\${pcfiledir}/${_up}")
endif()
_pgcodec_pc_path(PGCODEC_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
_pgcodec_pc_path(PGCODEC_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/pgcodec.pc.in ${PROJECT_BINARY_DIR}/pgcodec.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pgcodec.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
