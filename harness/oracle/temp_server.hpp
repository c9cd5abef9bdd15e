// A throwaway PostgreSQL server for tests and tools: initdb into a fresh
// temporary directory, listen on a Unix socket only, hand out a libpq
// connection string, and remove every trace when done, also when the owning
// process is killed.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace pgcodec::oracle {

// Where the server binaries (initdb, postgres) live: $PGCODEC_PG_BINDIR, then
// `pg_config --bindir`, then the newest of Debian's /usr/lib/postgresql/N/bin.
// Throws std::runtime_error naming what was tried when none has them.
std::string find_server_bindir();

class TempServer {
 public:
  // Starts a server and waits until it accepts connections; throws
  // std::runtime_error with the tail of the server's log on failure.
  static std::unique_ptr<TempServer> start();

  TempServer(const TempServer&) = delete;
  TempServer& operator=(const TempServer&) = delete;
  ~TempServer();

  const std::string& conninfo() const noexcept { return conninfo_; }
  const std::string& version() const noexcept { return version_; }
  // Stops the server and removes its directory; idempotent.
  void stop() noexcept;

 private:
  TempServer() = default;

  std::string dir_;
  std::string conninfo_;
  std::string version_;
  pid_t postmaster_ = -1;
  pid_t guardian_ = -1;
  int guardian_pipe_ = -1;
};

// The server a tool or test talks to: the explicit DSN if given, else
// $PGCODEC_DSN, else a TempServer started on the spot (and stopped when this
// object goes away).
class ServerLease {
 public:
  explicit ServerLease(std::optional<std::string> dsn = std::nullopt);
  const std::string& conninfo() const noexcept { return conninfo_; }
  bool is_throwaway() const noexcept { return server_ != nullptr; }

 private:
  std::unique_ptr<TempServer> server_;
  std::string conninfo_;
};

}  // namespace pgcodec::oracle
