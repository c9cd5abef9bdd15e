// `pgcodec live` when things go wrong or are not the default: the server
// stops mid-run, the run is interrupted, the database is not UTF8, the user
// may not write, the options ask for what a DSN cannot give. The CLI runs as
// a child process, as a user runs it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "oracle/pq.hpp"
#include "oracle/temp_server.hpp"

namespace {

namespace fs = std::filesystem;
using pgcodec::oracle::Connection;
using pgcodec::oracle::TempServer;
using Clock = std::chrono::steady_clock;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Finished {
  int exit_code = -1;   // when it exited
  int signal = 0;       // when a signal ended it
  std::string out, err;
};

// The CLI as a child process, its output in files (read while it runs).
class Cli {
 public:
  explicit Cli(const std::vector<std::string>& args) {
    char templ[] = "/tmp/pgcodec-live-run-test-XXXXXX";
    dir_ = ::mkdtemp(templ);
    const std::string out = (dir_ / "out").string(), err = (dir_ / "err").string();
    std::vector<std::string> argv{PGCODEC_CLI, "live"};
    argv.insert(argv.end(), args.begin(), args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      ::unsetenv("PGCODEC_DSN");  // the options say which server
      const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int n = ::open("/dev/null", O_RDONLY);
      if (o < 0 || e < 0 || n < 0) ::_exit(126);
      ::dup2(n, 0);
      ::dup2(o, 1);
      ::dup2(e, 2);
      std::vector<char*> a;
      for (auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
      a.push_back(nullptr);
      ::execv(a[0], a.data());
      ::_exit(127);
    }
  }
  ~Cli() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string err_so_far() const { return slurp(dir_ / "err"); }
  void signal(int s) const { ::kill(pid_, s); }
  // Waits until standard error contains `what`, at most `limit`.
  bool wait_for(const std::string& what, std::chrono::seconds limit) const {
    const auto end = Clock::now() + limit;
    while (Clock::now() < end) {
      if (err_so_far().find(what) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  // Waits for the child to end (killing it after `limit`).
  Finished finish(std::chrono::seconds limit = std::chrono::seconds(240)) {
    Finished f;
    const auto end = Clock::now() + limit;
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (Clock::now() > end) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        ADD_FAILURE() << "pgcodec live did not end within " << limit.count() << " s";
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
    if (WIFEXITED(status)) f.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) f.signal = WTERMSIG(status);
    f.out = slurp(dir_ / "out");
    f.err = slurp(dir_ / "err");
    return f;
  }

 private:
  fs::path dir_;
  pid_t pid_ = -1;
};

Finished run(const std::vector<std::string>& args) { return Cli(args).finish(); }

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// The throwaway server's directory, from the header's "host=..." (the run
// says where its server is).
std::string server_dir(const std::string& err) {
  const auto b = err.find("host=");
  if (b == std::string::npos) return {};
  return err.substr(b + 5, err.find(' ', b) - b - 5);
}

// One server for the cases that only read or make databases and roles.
class LiveRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = TempServer::start().release();
    Connection c(server_->conninfo());
    c.exec("CREATE DATABASE live_test_latin1 TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'");
    c.exec("CREATE DATABASE live_test_euc_jp TEMPLATE template0 ENCODING 'EUC_JP' LC_COLLATE 'C' LC_CTYPE 'C'");
    c.exec("CREATE ROLE ro LOGIN");
    c.exec("ALTER ROLE ro SET default_transaction_read_only = on");
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static const std::string& conninfo() { return server_->conninfo(); }
  static TempServer* server_;
};
TempServer* LiveRun::server_ = nullptr;

TEST(LiveRunFault, ServerStoppedMidRunIsAFaultNotAMismatch) {
  auto s = TempServer::start();
  Cli cli({"--dsn", s->conninfo(), "--duration", "60"});
  ASSERT_TRUE(cli.wait_for("of server and client encoding over", std::chrono::seconds(60))) << cli.err_so_far();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  s->stop();
  const Finished f = cli.finish();
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_TRUE(has(f.err, "pgcodec live: fault: ")) << f.err;
  EXPECT_TRUE(has(f.err, "connection to the server was lost")) << f.err;
  EXPECT_FALSE(has(f.err, "MISMATCH")) << f.err;
  EXPECT_TRUE(has(f.err, " 0 mismatches")) << f.err;
}

// SIGTERM in the rounds, SIGINT while the databases are being made: the run
// stops and its throwaway server is gone when the process has ended.
TEST(LiveRunFault, SignalsLeaveNoThrowawayServerBehind) {
  for (int sig : {SIGTERM, SIGINT}) {
    Cli cli({"--duration", "60"});
    const std::string wait = sig == SIGTERM ? "of server and client encoding over" : "host=";
    ASSERT_TRUE(cli.wait_for(wait, std::chrono::seconds(90))) << cli.err_so_far();
    const std::string dir = server_dir(cli.err_so_far());
    ASSERT_FALSE(dir.empty()) << cli.err_so_far();
    ASSERT_TRUE(fs::exists(dir)) << dir;
    std::this_thread::sleep_for(std::chrono::milliseconds(sig == SIGTERM ? 1500 : 200));
    cli.signal(sig);
    const Finished f = cli.finish(std::chrono::seconds(60));
    EXPECT_EQ(f.signal, sig) << "exit " << f.exit_code << "\n" << f.err;
    EXPECT_FALSE(fs::exists(dir)) << dir << " is left after signal " << sig << "\n" << f.err;
    EXPECT_TRUE(has(f.err, "stopping as asked")) << f.err;
    EXPECT_FALSE(has(f.err, "MISMATCH")) << f.err;
  }
}

// A database that is not UTF8: its own pairs run, and only those.
TEST_F(LiveRun, NonUtf8DatabaseRunsItsPairs) {
  for (const char* enc : {"LATIN1", "EUC_JP"}) {
    const std::string db = std::string("live_test_") + (enc[0] == 'L' ? "latin1" : "euc_jp");
    const Finished f = run({"--dsn", conninfo() + " dbname=" + db, "--rounds", "1", "--json"});
    ASSERT_EQ(f.exit_code, 0) << f.err;
    EXPECT_TRUE(has(f.err, std::string("(server encoding ") + enc + ")")) << f.err;
    const auto j = nlohmann::json::parse(f.out);
    ASSERT_GE(j["pairs"].size(), 3u) << f.out;
    std::vector<std::string> clients;
    for (auto& p : j["pairs"]) {
      EXPECT_EQ(p["server"], enc);
      EXPECT_EQ(p["rounds"], 1);
      EXPECT_GT(p["round_trips"].get<int>(), 0);
      clients.push_back(p["client"]);
    }
    for (const char* c : {enc, "UTF8", "SQL_ASCII"})
      EXPECT_NE(std::find(clients.begin(), clients.end(), c), clients.end()) << enc << " lacks client " << c;
    EXPECT_EQ(j["totals"]["mismatches"], 0);
    EXPECT_FALSE(j["writes"].get<bool>());
    EXPECT_TRUE(j["fault"].is_null());
  }
}

// A user who may not write: without --allow-writes nothing is attempted; with
// it, the server's refusal (25006) is a fault, not a mismatch.
TEST_F(LiveRun, ReadOnlyUser) {
  const std::string ro = conninfo() + " user=ro";
  const std::vector<std::string> few{"--encodings", "UTF8,SJIS,LATIN1", "--rounds", "1"};
  std::vector<std::string> args{"--dsn", ro};
  args.insert(args.end(), few.begin(), few.end());
  const Finished f = run(args);
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_TRUE(has(f.err, "writes: nothing")) << f.err;
  EXPECT_TRUE(has(f.err, "COPY FROM was skipped")) << f.err;

  args.push_back("--allow-writes");
  const Finished w = run(args);
  EXPECT_EQ(w.exit_code, 2) << w.err;
  EXPECT_TRUE(has(w.err, "pgcodec live: fault: ")) << w.err;
  EXPECT_TRUE(has(w.err, "25006")) << w.err;
  EXPECT_FALSE(has(w.err, "MISMATCH")) << w.err;
}

// A --duration run, pair by pair, is what --rounds K with the same seed
// draws: the rerun command printed with a mismatch repeats it. Six pairs on a
// DSN are two groups of sessions.
TEST_F(LiveRun, DurationRunIsRepeatedByRoundsPerPair) {
  const Finished f = run({"--dsn", conninfo(), "--encodings", "UTF8,SJIS,LATIN1,KOI8R,EUC_KR,BIG5", "--duration",
                          "3", "--seed", "7", "--values", "4", "--json"});
  ASSERT_TRUE(f.exit_code == 0 || f.exit_code == 1) << f.err;
  const auto j = nlohmann::json::parse(f.out);
  ASSERT_EQ(j["pairs"].size(), 6u) << f.out;
  for (auto& p : j["pairs"]) {
    const std::string client = p["client"];
    const Finished again = run({"--dsn", conninfo(), "--encodings", client, "--seed", "7", "--values", "4",
                                "--rounds", std::to_string(p["rounds"].get<int>()), "--json"});
    const auto k = nlohmann::json::parse(again.out);
    ASSERT_EQ(k["pairs"].size(), 1u) << again.out;
    EXPECT_EQ(k["pairs"][0]["bytes"], p["bytes"]) << client;
    EXPECT_EQ(k["pairs"][0]["round_trips"], p["round_trips"]) << client;
    EXPECT_EQ(k["pairs"][0]["mismatches"], p["mismatches"]) << client;
  }
}

TEST_F(LiveRun, ServerEncodingsOtherThanTheDsnsIsAUsageError) {
  const Finished f = run({"--dsn", conninfo(), "--server-encodings", "LATIN1"});
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_TRUE(has(f.err, "--server-encodings LATIN1")) << f.err;
  EXPECT_FALSE(has(f.err, "round trips")) << f.err;
  // Naming the database's own encoding is fine.
  const Finished ok = run({"--dsn", conninfo(), "--server-encodings", "UTF8", "--encodings", "UTF8,LATIN1"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

}  // namespace
