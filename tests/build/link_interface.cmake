# Fails unless every link property of target pgcodec, as this configuration
# evaluates it (PROPERTIES, written by file(GENERATE)), is empty.
include(${PROPERTIES})
set(bad "")
foreach(p LINK_LIBRARIES INTERFACE_LINK_LIBRARIES LINK_OPTIONS INTERFACE_LINK_OPTIONS)
  if(NOT "${${p}}" STREQUAL "")
    string(APPEND bad "\n  ${p}: ${${p}}")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "target pgcodec must link only the C++ standard library, but has:${bad}")
endif()
message(STATUS "pgcodec: no link libraries or options, private or interface")
