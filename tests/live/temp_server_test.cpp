// The throwaway server: it starts, serves, and leaves nothing behind, also
// when the process that owns it is killed outright.
#include "oracle/temp_server.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "oracle/pq.hpp"

namespace {

using pgcodec::oracle::Connection;
using pgcodec::oracle::TempServer;

std::string socket_dir(const std::string& conninfo) {
  auto b = conninfo.find("host=") + 5;
  return conninfo.substr(b, conninfo.find(' ', b) - b);
}

TEST(TempServer, StartsUtf8OnASocketOnlyAndCleansUp) {
  std::string dir;
  {
    auto s = TempServer::start();
    dir = socket_dir(s->conninfo());
    ASSERT_TRUE(std::filesystem::exists(dir));
    Connection c(s->conninfo());
    auto r = c.exec(
        "SELECT current_setting('server_encoding'), current_setting('lc_collate'), "
        "current_setting('listen_addresses'), current_setting('is_superuser')");
    EXPECT_EQ(r.get(0, 0), "UTF8");
    EXPECT_EQ(r.get(0, 1), "C");
    EXPECT_EQ(r.get(0, 2), "");
    EXPECT_EQ(r.get(0, 3), "on");
    EXPECT_FALSE(s->version().empty());
  }
  EXPECT_FALSE(std::filesystem::exists(dir)) << dir;
}

TEST(TempServer, KilledOwnerLeavesNothingBehind) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    try {
      auto s = TempServer::start();
      std::string d = socket_dir(s->conninfo()) + "\n";
      if (write(fds[1], d.data(), d.size()) < 0) _exit(3);
      pause();  // until SIGKILL: the destructor never runs
    } catch (...) {
      _exit(2);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string dir;
  char c;
  while (read(fds[0], &c, 1) == 1 && c != '\n') dir.push_back(c);
  close(fds[0]);
  ASSERT_FALSE(dir.empty()) << "the child did not start a server";
  ASSERT_TRUE(std::filesystem::exists(dir));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  bool gone = false;
  for (int i = 0; i < 300 && !gone; ++i) {
    gone = !std::filesystem::exists(dir);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(gone) << dir << " is still there 30 s after its owner was killed";
  EXPECT_NE(PQping(("host=" + dir + " port=5432 user=postgres dbname=postgres").c_str()), PQPING_OK);
}

TEST(TempServer, LeaseUsesAnExplicitDsnWithoutStartingAServer) {
  pgcodec::oracle::ServerLease lease(std::string("host=/nonexistent dbname=x"));
  EXPECT_FALSE(lease.is_throwaway());
  EXPECT_EQ(lease.conninfo(), "host=/nonexistent dbname=x");
}

}  // namespace
