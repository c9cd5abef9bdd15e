// The server a live test talks to: one per test process (ctest runs each
// test in its own), started on first use and removed at exit; PGCODEC_DSN
// names an existing one instead (oracle::ServerLease).
#pragma once

#include "oracle/temp_server.hpp"

namespace pgcodec::testing {

inline oracle::ServerLease& live_server() {
  static oracle::ServerLease lease;
  return lease;
}

}  // namespace pgcodec::testing
