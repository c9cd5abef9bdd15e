// The registry against a live server: ids, names, server/client-only status
// and maximum character lengths of all 42 encodings, and name resolution of
// every alias plus thousands of random respellings, through the library and
// through `pgcodec resolve`.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <random>
#include <string>
#include <sys/wait.h>

#include "oracle/pq.hpp"
#include "oracle/temp_server.hpp"
#include "pgcodec/encoding.hpp"

namespace {

using pgcodec::oracle::Connection;
using pgcodec::oracle::ServerLease;

ServerLease& server() {
  static ServerLease lease;
  return lease;
}

// Runs `pgcodec resolve NAME`; returns exit status and stdout.
std::pair<int, std::string> cli_resolve(const std::string& name) {
  std::string quoted = "'";
  for (char c : name) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  const std::string cmd = std::string(PGCODEC_CLI) + " resolve -- " + quoted + " 2>/dev/null";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, ""};
  char buf[256];
  while (fgets(buf, sizeof buf, p)) out += buf;
  int st = pclose(p);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

TEST(RegistryLive, AllFortyTwoMatchTheServer) {
  Connection c(server().conninfo());
  auto r = c.exec(
      "SELECT i, pg_encoding_to_char(i), pg_encoding_max_length(i)"
      " FROM generate_series(0, 42) i ORDER BY i");
  ASSERT_EQ(r.rows(), 43);
  for (auto& e : pgcodec::encodings()) {
    const int i = pgcodec::to_int(e.id);
    EXPECT_EQ(r.get(i, 1), e.name) << i;
    EXPECT_EQ(std::stoi(std::string(r.get(i, 2))), e.max_char_length) << e.name;
    // Server or client-only: the server creates a database in a server
    // encoding and refuses the others.
    const std::string db = "pgcodec_enc_" + std::to_string(i);
    bool created = true;
    try {
      c.exec("CREATE DATABASE " + db + " ENCODING '" + std::string(e.name) +
             "' LOCALE 'C' TEMPLATE template0 STRATEGY FILE_COPY");
    } catch (const pgcodec::oracle::PqError& err) {
      // pg_valid_server_encoding() refuses it: "SJIS is not a valid encoding name".
      created = false;
      EXPECT_EQ(err.sqlstate(), "42704") << e.name << ": " << err.what();
      EXPECT_NE(std::string(err.what()).find("not a valid encoding name"), std::string::npos)
          << err.what();
    }
    if (created) c.exec("DROP DATABASE " + db);
    EXPECT_EQ(created, e.server) << e.name;
  }
  EXPECT_EQ(r.get(42, 1), "") << "the server knows a 43rd encoding";
}

TEST(RegistryLive, EveryAliasAndRandomRespellingsResolveAsTheServerDoes) {
  std::vector<std::string> names;
  for (auto& a : pgcodec::aliases()) names.emplace_back(a.name);
  for (auto& e : pgcodec::encodings()) names.emplace_back(e.name);
  std::mt19937 rng(4242);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  const std::array<std::string, 14> junk = {" ", "-", "_", ".", ",", "/", "'", "\"", "\t",
                                            "é", "ß", "0", "Z", "(x)"};
  const std::size_t aliases = names.size();
  while (names.size() < aliases + 2500) {
    const std::string& base = names[pick(aliases)];
    std::string s;
    for (char ch : base) {
      while (pick(4) == 0) s += junk[pick(junk.size())];
      s.push_back(pick(2) ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch);
    }
    if (pick(8) == 0) s.pop_back();  // usually unknown
    if (s.size() < 64) names.push_back(s);  // SQL's name type cuts longer ones at 63
  }
  // One round trip: the server's verdict on every name.
  std::string arr = "{";
  for (std::size_t i = 0; i < names.size(); ++i) {
    arr += i ? "," : "";
    arr += '"';
    for (char ch : names[i]) {
      if (ch == '"' || ch == '\\') arr += '\\';
      arr += ch;
    }
    arr += '"';
  }
  arr += "}";
  Connection c(server().conninfo());
  auto r = c.exec("SELECT pg_char_to_encoding(n) FROM unnest($1::text[]) WITH ORDINALITY AS t(n, o) ORDER BY o",
                  {arr});
  ASSERT_EQ(static_cast<std::size_t>(r.rows()), names.size());
  int known = 0, unknown = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int server_id = std::stoi(std::string(r.get(static_cast<int>(i), 0)));
    const auto ours = pgcodec::lookup(names[i]);
    ASSERT_EQ(ours ? pgcodec::to_int(*ours) : -1, server_id) << "name: " << names[i];
    (server_id >= 0 ? known : unknown)++;
    // The CLI for every alias and every 5th respelling (a process each).
    if (i < aliases || i % 5 == 0) {
      auto [rc, out] = cli_resolve(names[i]);
      if (server_id >= 0) {
        EXPECT_EQ(rc, 0) << names[i];
        EXPECT_EQ(out, pgcodec::encodings()[static_cast<std::size_t>(server_id)].name) << names[i];
      } else {
        EXPECT_EQ(rc, 2) << names[i];
      }
    }
  }
  EXPECT_GT(known, 1000);
  EXPECT_GT(unknown, 50);
}

}  // namespace
