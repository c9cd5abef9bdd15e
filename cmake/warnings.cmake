# Project-wide warning set, applied per target with pgcodec_warnings(target).
function(pgcodec_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
      -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wconversion -Wsign-conversion
      -Wnull-dereference -Wimplicit-fallthrough)
    if(PGCODEC_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
