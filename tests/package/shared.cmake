# The consumers against the shared library that Build.SharedLibraryNeedsOnlyCxxRuntime
# built and installed into SHARED_DIR/prefix (its fixture): C with
# `pkg-config --libs`, C++ with find_package, both loading libpgcodec.so.N
# from that prefix.
include(${CMAKE_CURRENT_LIST_DIR}/consumers.cmake)
consume(${SHARED_DIR}/prefix lib shared)
