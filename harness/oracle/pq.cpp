#include "oracle/pq.hpp"

namespace pgcodec::oracle {

Connection::Connection(const std::string& conninfo)
    : c_(PQconnectdb(conninfo.c_str()), &PQfinish) {
  if (!c_ || PQstatus(c_.get()) != CONNECTION_OK)
    throw PqError("cannot connect to PostgreSQL (" + conninfo +
                      "): " + (c_ ? PQerrorMessage(c_.get()) : "out of memory"),
                  "08000");
}

Result Connection::exec(const std::string& sql, const std::vector<std::string>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (auto& p : params) values.push_back(p.c_str());
  Result r(PQexecParams(c_.get(), sql.c_str(), static_cast<int>(values.size()), nullptr,
                        values.data(), nullptr, nullptr, 0));
  PGresult* raw = r.raw();
  auto st = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
    const char* state = raw ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
    throw PqError(raw ? PQresultErrorMessage(raw) : PQerrorMessage(c_.get()),
                  state ? state : "");
  }
  return r;
}

Result Connection::exec_binary(const std::string& sql, const std::vector<std::string>& params,
                               const std::vector<unsigned>& types) {
  std::vector<const char*> values;
  std::vector<int> lengths, formats;
  for (auto& p : params) {
    values.push_back(p.data());
    lengths.push_back(static_cast<int>(p.size()));
    formats.push_back(1);
  }
  return Result(PQexecParams(c_.get(), sql.c_str(), static_cast<int>(params.size()), types.data(),
                             values.data(), lengths.data(), formats.data(), 0));
}

std::string Connection::server_version() {
  auto r = exec("SELECT current_setting('server_version')");
  return std::string(r.get(0, 0));
}

std::string unhex_bytea(std::string_view t) {
  std::string out;
  if (t.size() < 2 || t[0] != '\\' || t[1] != 'x') return out;
  out.reserve((t.size() - 2) / 2);
  auto nib = [](char c) -> int {
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
  };
  for (std::size_t i = 2; i + 1 < t.size(); i += 2)
    out.push_back(static_cast<char>((nib(t[i]) << 4) | nib(t[i + 1])));
  return out;
}

}  // namespace pgcodec::oracle
