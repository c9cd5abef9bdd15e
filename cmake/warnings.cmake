# Project-wide warning set, applied per target with pgcodec_warnings(target).
function(pgcodec_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
      -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wconversion -Wsign-conversion
      -Wimplicit-fallthrough)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
      # GCC 12 at -O2/-O3 reports -Wrestrict inside libstdc++ for ordinary
      # std::string concatenation (GCC bug 105329); it is never our code.
      target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(PGCODEC_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
