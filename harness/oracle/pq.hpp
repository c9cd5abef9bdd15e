// A thin RAII layer over libpq: one connection, one result, errors thrown as
// exceptions carrying the SQLSTATE. Only tools and tests use it; the codec
// library itself never talks to a server.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pgcodec::oracle {

class PqError : public std::runtime_error {
 public:
  PqError(const std::string& msg, std::string sqlstate)
      : std::runtime_error(msg), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const noexcept { return sqlstate_; }

 private:
  std::string sqlstate_;
};

class Result {
 public:
  explicit Result(PGresult* r) : r_(r, &PQclear) {}
  PGresult* raw() const noexcept { return r_.get(); }
  int rows() const { return PQntuples(r_.get()); }
  bool is_null(int row, int col) const { return PQgetisnull(r_.get(), row, col) != 0; }
  std::string_view get(int row, int col) const {
    return {PQgetvalue(r_.get(), row, col),
            static_cast<std::size_t>(PQgetlength(r_.get(), row, col))};
  }

 private:
  std::unique_ptr<PGresult, decltype(&PQclear)> r_;
};

class Connection {
 public:
  explicit Connection(const std::string& conninfo);
  Connection(Connection&&) noexcept = default;
  Connection& operator=(Connection&&) noexcept = default;

  // Runs one statement with text parameters; throws PqError on failure.
  Result exec(const std::string& sql, const std::vector<std::string>& params = {});
  // Runs one statement whose parameters are sent in binary format with the
  // given type OIDs (e.g. 25 for text: the server still converts such text
  // from client_encoding, and the bytes may contain NUL). Returns the result
  // without throwing; check its status.
  Result exec_binary(const std::string& sql, const std::vector<std::string>& params,
                     const std::vector<unsigned>& types);
  PGconn* raw() noexcept { return c_.get(); }
  // The server's version string, e.g. "15.18 (Debian 15.18-0+deb12u1)".
  std::string server_version();

 private:
  std::unique_ptr<PGconn, decltype(&PQfinish)> c_;
};

// Decodes a bytea value in hex output format ("\x41ff") to raw bytes.
std::string unhex_bytea(std::string_view text);

}  // namespace pgcodec::oracle
