#include "oracle/temp_server.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <grp.h>
#include <pwd.h>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace pgcodec::oracle {
namespace {

bool has_server_binaries(const fs::path& dir) {
  return ::access((dir / "initdb").c_str(), X_OK) == 0 &&
         ::access((dir / "postgres").c_str(), X_OK) == 0;
}

std::string run_capture(const char* cmd) {
  std::string out;
  if (FILE* p = ::popen(cmd, "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string tail_of(const fs::path& file, std::size_t max_bytes = 4000) {
  std::ifstream in(file, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (s.size() > max_bytes) s = "..." + s.substr(s.size() - max_bytes);
  return s;
}

// The identity the server runs as. PostgreSQL refuses to run as root, so a
// root caller hands the server to the `postgres` account.
struct RunAs {
  bool switch_user = false;
  uid_t uid = 0;
  gid_t gid = 0;
  std::string home;
};

RunAs server_identity() {
  RunAs r;
  if (::geteuid() != 0) return r;
  struct passwd* pw = ::getpwnam("postgres");
  if (!pw)
    throw std::runtime_error(
        "running as root, but there is no 'postgres' user to run the server as "
        "(install the postgresql package, or run as a non-root user)");
  r.switch_user = true;
  r.uid = pw->pw_uid;
  r.gid = pw->pw_gid;
  r.home = pw->pw_dir;
  return r;
}

// fork + exec with the server identity; stdout/stderr to `log`, stdin from
// `stdin_fd` (or /dev/null). Everything the child touches is prepared before
// fork, so the child only makes async-signal-safe calls.
pid_t spawn(const RunAs& who, const std::vector<std::string>& argv, const std::string& cwd,
            const std::string& log, int stdin_fd = -1, bool new_session = false) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int logfd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (logfd < 0) throw std::runtime_error("cannot open " + log + ": " + std::strerror(errno));
  if (who.switch_user && ::fchown(logfd, who.uid, who.gid) != 0) {
    ::close(logfd);
    throw std::runtime_error("cannot chown " + log + ": " + std::strerror(errno));
  }
  int nullfd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(logfd);
    ::close(nullfd);
    throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    if (new_session) ::setsid();
    ::dup2(stdin_fd >= 0 ? stdin_fd : nullfd, 0);
    ::dup2(logfd, 1);
    ::dup2(logfd, 2);
    if (who.switch_user) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(who.gid) != 0 || ::setuid(who.uid) != 0)
        ::_exit(126);
    }
    if (::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(logfd);
  ::close(nullfd);
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::string find_server_bindir() {
  std::vector<std::string> tried;
  if (const char* env = std::getenv("PGCODEC_PG_BINDIR"); env && *env) {
    if (has_server_binaries(env)) return env;
    tried.push_back(std::string("$PGCODEC_PG_BINDIR=") + env);
  }
  std::string pgc = run_capture("pg_config --bindir 2>/dev/null");
  if (!pgc.empty()) {
    if (has_server_binaries(pgc)) return pgc;
    tried.push_back("pg_config --bindir (" + pgc + ")");
  }
  std::vector<std::pair<int, fs::path>> versions;
  std::error_code ec;
  for (auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    auto name = e.path().filename().string();
    if (!name.empty() && std::all_of(name.begin(), name.end(), ::isdigit) &&
        has_server_binaries(e.path() / "bin"))
      versions.emplace_back(std::stoi(name), e.path() / "bin");
  }
  if (!versions.empty()) return std::max_element(versions.begin(), versions.end())->second;
  tried.push_back("/usr/lib/postgresql/*/bin");
  std::string msg = "no PostgreSQL server binaries (initdb, postgres) found; tried:";
  for (auto& t : tried) msg += " " + t + ";";
  msg += " install postgresql (ci/setup does) or set PGCODEC_PG_BINDIR, or point PGCODEC_DSN at a server";
  throw std::runtime_error(msg);
}

std::unique_ptr<TempServer> TempServer::start() {
  const std::string bindir = find_server_bindir();
  const RunAs who = server_identity();

  // A short base keeps the socket path under the 107-byte limit of sun_path.
  std::string base = "/tmp";
  if (const char* t = std::getenv("TMPDIR"); t && *t && std::strlen(t) < 60) base = t;
  std::string templ = base + "/pgcodec-pg-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    throw std::runtime_error("cannot create a temporary directory under " + base + ": " +
                             std::strerror(errno));

  std::unique_ptr<TempServer> s(new TempServer());
  s->dir_ = buf.data();
  try {
    if (who.switch_user && ::chown(s->dir_.c_str(), who.uid, who.gid) != 0)
      throw std::runtime_error("cannot hand " + s->dir_ + " to the postgres user: " +
                               std::strerror(errno));
    const std::string data = s->dir_ + "/data";
    const std::string log = s->dir_ + "/server.log";
    int rc = wait_exit(spawn(who,
                             {bindir + "/initdb", "-D", data, "-E", "UTF8", "--locale=C",
                              "-U", "postgres", "--auth=trust", "--no-sync"},
                             s->dir_, s->dir_ + "/initdb.log"));
    if (rc != 0)
      throw std::runtime_error("initdb failed (exit " + std::to_string(rc) + "):\n" +
                               tail_of(s->dir_ + "/initdb.log"));

    s->postmaster_ = spawn(who,
                           {bindir + "/postgres", "-D", data, "-c", "listen_addresses=",
                            "-c", "unix_socket_directories=" + s->dir_, "-c", "port=5432",
                            "-c", "fsync=off", "-c", "synchronous_commit=off", "-c",
                            "full_page_writes=off", "-c", "max_connections=40"},
                           s->dir_, log, -1, /*new_session=*/true);

    // The guardian removes the server if this process dies without running
    // the destructor (SIGKILL, a ctest timeout): it waits for EOF on a pipe
    // whose only writer is this process, and cleans up if the directory is
    // still there. It sits in its own session so a terminal's ^C reaches it
    // only through that EOF.
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
    const std::string script =
        "cat >/dev/null; if [ -d \"$1\" ]; then kill -QUIT \"$2\" 2>/dev/null; i=0; "
        "while kill -0 \"$2\" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
        "kill -KILL \"$2\" 2>/dev/null; rm -rf \"$1\"; fi";
    int rfd = ::fcntl(fds[0], F_DUPFD, 3);  // without CLOEXEC, for the child's stdin
    ::close(fds[0]);
    s->guardian_ = spawn(RunAs{}, {"/bin/sh", "-c", script, "pgcodec-guardian", s->dir_,
                                   std::to_string(s->postmaster_)},
                         "/", "/dev/null", rfd, /*new_session=*/true);
    ::close(rfd);
    s->guardian_pipe_ = fds[1];

    s->conninfo_ = "host=" + s->dir_ + " port=5432 user=postgres dbname=postgres";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      if (PQping(s->conninfo_.c_str()) == PQPING_OK) break;
      int status = 0;
      if (::waitpid(s->postmaster_, &status, WNOHANG) == s->postmaster_) {
        s->postmaster_ = -1;
        throw std::runtime_error("the server exited during start-up:\n" + tail_of(log));
      }
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("the server did not accept connections within 60 s:\n" +
                                 tail_of(log));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::ifstream ver(data + "/PG_VERSION");
    std::getline(ver, s->version_);
  } catch (...) {
    s->stop();
    throw;
  }
  return s;
}

void TempServer::stop() noexcept {
  if (postmaster_ > 0) {
    ::kill(postmaster_, SIGINT);  // fast shutdown: disconnect clients, exit
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    int status = 0;
    while (::waitpid(postmaster_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(postmaster_, SIGKILL);
        ::waitpid(postmaster_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    postmaster_ = -1;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
  if (guardian_pipe_ >= 0) {
    ::close(guardian_pipe_);
    guardian_pipe_ = -1;
  }
  if (guardian_ > 0) {
    wait_exit(guardian_);
    guardian_ = -1;
  }
}

TempServer::~TempServer() { stop(); }

ServerLease::ServerLease(std::optional<std::string> dsn) {
  if (!dsn) {
    if (const char* env = std::getenv("PGCODEC_DSN"); env && *env) dsn = env;
  }
  if (dsn) {
    conninfo_ = *dsn;
    return;
  }
  server_ = TempServer::start();
  conninfo_ = server_->conninfo();
}

}  // namespace pgcodec::oracle
