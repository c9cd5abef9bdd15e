# ctest Python.Installed: `cmake --install` the python component into a
# scratch prefix, then import pgcodec from there alone (-I: no PYTHONPATH,
# no current directory, no user site) and decode something.
# -DBUILD_DIR -DPREFIX -DINSTALL_DIR (relative to PREFIX, or absolute) -DPYTHON
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX} --component python
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
if(IS_ABSOLUTE ${INSTALL_DIR})
  set(site ${INSTALL_DIR})
else()
  set(site ${PREFIX}/${INSTALL_DIR})
endif()
set(code "
import sys
sys.path.insert(0, sys.argv[1])
import pgcodec
assert pgcodec.__file__.startswith(sys.argv[1]), pgcodec.__file__
assert pgcodec._pgcodec.__file__.startswith(sys.argv[1]), pgcodec._pgcodec.__file__
text = pgcodec.lookup('Shift-JIS').decode(b'\\x82\\xa0\\x8a\\xbf')
assert text == '\\u3042\\u6f22', ascii(text)
print('imported', pgcodec.__file__, 'decoded', ascii(text))
")
execute_process(COMMAND ${PYTHON} -I -c "${code}" ${site} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "importing the installed pgcodec failed: ${rc}")
endif()
