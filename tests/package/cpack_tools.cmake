# `cpack -G DEB` in this build (the CLI and the verifier built): two packages,
# so that linking pgcodec pulls in no libpq, ICU or libpython.
#   pgcodec: Depends names none of them; unpacked alone with `dpkg -x`, its
#     pgcodec runs (--version) and `pgcodec verify` says that pgcodec-verify
#     is not installed (exit 2);
#   pgcodec-verify: Depends on pgcodec of this version and on libpq5;
#     unpacked beside it, `pgcodec verify --help` runs pgcodec-verify.
# Needs BUILD_DIR, CPACK, WORK_DIR, VERSION.
include(${CMAKE_CURRENT_LIST_DIR}/consumers.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(out ${WORK_DIR}/packages)
step(${CPACK} --config ${BUILD_DIR}/CPackConfig.cmake -G DEB -B ${out})
file(GLOB debs ${out}/*.deb)
file(GLOB lib_deb ${out}/pgcodec_${VERSION}_*.deb)
file(GLOB verify_deb ${out}/pgcodec-verify_${VERSION}_*.deb)
list(LENGTH debs ndebs)
if(NOT ndebs EQUAL 2 OR NOT lib_deb OR NOT verify_deb)
  message(FATAL_ERROR "expected pgcodec_${VERSION}_*.deb and pgcodec-verify_${VERSION}_*.deb in ${out}, found: ${debs}")
endif()

step_output(lib_info dpkg-deb --field ${lib_deb} Depends)
if(lib_info MATCHES "libpq|libicu|libpython")
  message(FATAL_ERROR "pgcodec's Depends names a reference library: ${lib_info}")
endif()
if(NOT lib_info MATCHES "libstdc\\+\\+6")
  message(FATAL_ERROR "pgcodec's Depends lacks the C++ runtime: ${lib_info}")
endif()
step_output(verify_info dpkg-deb --field ${verify_deb} Depends)
string(REPLACE "." "\\." version_re "${VERSION}")
foreach(re "pgcodec \\(= ${version_re}\\)" "libpq5")
  if(NOT verify_info MATCHES "${re}")
    message(FATAL_ERROR "pgcodec-verify's Depends has no match for ${re}: ${verify_info}")
  endif()
endforeach()

set(root ${WORK_DIR}/unpacked)
step(dpkg -x ${lib_deb} ${root})
set(cli ${root}/usr/bin/pgcodec)
step_output(v ${cli} --version)
if(NOT v STREQUAL "pgcodec ${VERSION}")
  message(FATAL_ERROR "unpacked pgcodec --version said: ${v}")
endif()
execute_process(COMMAND ${cli} verify --help RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
if(NOT rc EQUAL 2 OR NOT e MATCHES "pgcodec-verify")
  message(FATAL_ERROR "pgcodec verify without pgcodec-verify: exit ${rc}, stderr: ${e}")
endif()
step(dpkg -x ${verify_deb} ${root})
step_output(help ${cli} verify --help)
if(NOT help MATCHES "divergence registry")
  message(FATAL_ERROR "pgcodec verify --help through the unpacked pgcodec-verify said:\n${help}")
endif()
message(STATUS "pgcodec (Depends: ${lib_info}) and pgcodec-verify (Depends: ${verify_info}) unpack and run")
