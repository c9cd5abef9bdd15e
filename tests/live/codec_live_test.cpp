// The codecs against a live server, through the path a driver uses: the
// server decodes what a client sends in client_encoding (a Bind parameter)
// and encodes what it sends back (a result column). Results, error kinds and
// PostgreSQL's exact messages must match, for random strings with errors at
// random places, several errors per string included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include "core/generators.hpp"
#include "core/outcome.hpp"
#include "core/text.hpp"
#include "oracle/postgres.hpp"
#include "oracle/pq.hpp"
#include "live_server.hpp"
#include "oracle/temp_server.hpp"
#include "pgcodec/codec.hpp"
#include "tables/table.hpp"

namespace {

using pgcodec::Codec;
using pgcodec::Encoding;
using pgcodec::harness::Category;
using pgcodec::harness::classify;
using pgcodec::harness::describe;
using pgcodec::harness::hex_digits;
using pgcodec::harness::Outcome;
using pgcodec::harness::OutcomeKind;
using pgcodec::oracle::Connection;

pgcodec::oracle::ServerLease& server() { return pgcodec::testing::live_server(); }

Outcome ours(const pgcodec::Result& r, std::string_view out) { return pgcodec::harness::from_result(r, out); }

// Code points an encoding has, plus a few it lacks, for building strings.
std::vector<std::uint32_t> repertoire(Encoding e) {
  std::vector<std::uint32_t> v;
  const auto* t = pgcodec::detail::mapping_table(e);
  if (t && t->kind == pgcodec::detail::TableKind::Mapped) {
    for (auto& r : t->encode)
      for (std::uint32_t k = 0; k < r.length; ++k) v.push_back(r.cp + k);
  } else {
    for (std::uint32_t cp : {0x41u, 0xe9u, 0x416u, 0x3042u, 0x1f600u, 0x20acu}) v.push_back(cp);
  }
  return v;
}

// The server's answers on the client_encoding path (client_encoding must be
// set): bytes sent as a text parameter are decoded (pg_client_to_server), text
// sent back is encoded (pg_server_to_client).
Outcome server_decode(Connection& c, const std::string& bytes) {
  auto r = c.exec_binary("SELECT convert_to($1, 'UTF8')", {bytes}, {25});
  return pgcodec::oracle::server_outcome(r, true);
}
Outcome server_encode(Connection& c, const std::string& utf8) {
  auto r = c.exec_binary("SELECT convert_from($1, 'UTF8')", {utf8}, {17});
  return pgcodec::oracle::server_outcome(r, false);
}

// classify() must find them equal: the same output, or the same kind,
// quoted bytes, SQLSTATE and message (the server always gives the last
// three, so they are always compared). Counts errors.
void expect_same(const Outcome& mine, const Outcome& server, std::string_view codec,
                 const std::string& in, int& errors) {
  const Category c = classify(server, mine);
  ASSERT_EQ(c, Category::Agree) << codec << " input " << hex_digits(in) << ": " << to_string(c)
                                << "; server " << describe(server) << "; pgcodec " << describe(mine);
  if (server.ok()) return;
  ++errors;
  ASSERT_TRUE(server.message && server.sqlstate && server.bytes && !server.bytes->empty())
      << "the server's error quotes no bytes: " << describe(server);
}

// Every encoding a UTF8 database accepts as client_encoding: all but
// MULE_INTERNAL, which PostgreSQL cannot convert to or from UTF8 (its
// composition through member encodings is checked by pgcodec-gentables).
std::vector<Encoding> client_encodings() {
  std::vector<Encoding> v;
  for (auto& i : pgcodec::encodings())
    if (i.id != Encoding::MULE_INTERNAL) v.push_back(i.id);
  return v;
}

// Sample sizes: PGCODEC_LIVE_SCALE multiplies them; PGCODEC_LIVE_FULL=1 (the
// nightly job, ci/nightly) takes every character of every encoding.
std::size_t scaled(std::size_t base) {
  const char* s = std::getenv("PGCODEC_LIVE_SCALE");
  const long k = s ? std::strtol(s, nullptr, 10) : 1;
  return base * static_cast<std::size_t>(k > 0 ? k : 1);
}
bool full_run() {
  const char* s = std::getenv("PGCODEC_LIVE_FULL");
  return s && std::string(s) == "1";
}

template <class T>
std::vector<T> sample(std::vector<T> v, std::size_t n, std::mt19937& rng) {
  if (full_run() || v.size() <= n) return v;
  std::shuffle(v.begin(), v.end(), rng);
  v.resize(n);
  return v;
}

// Single characters, one round trip each: every decodable character of the
// encoding (a sample of them) plus random two-byte sequences, most of them
// malformed or unmapped.
TEST(CodecLive, SingleCharactersDecodeAsTheServer) {
  Connection c(server().conninfo());
  std::mt19937 rng(17);
  int compared = 0, errors = 0;
  for (Encoding e : client_encodings()) {
    const Codec& codec = pgcodec::codec(e);
    std::vector<std::string> inputs;
    const auto* t = pgcodec::detail::mapping_table(e);
    if (t->kind == pgcodec::detail::TableKind::Mapped) {
      for (auto& r : t->decode)
        for (std::uint32_t k = 0; k < r.length; ++k) {
          if (r.code + k < 0x80) continue;
          inputs.emplace_back();
          pgcodec::detail::append_code(inputs.back(), r.code + k);
        }
      for (auto& lr : t->decode_linear)
        for (std::uint32_t k = 0; k < lr.length; ++k) {
          inputs.emplace_back();
          pgcodec::detail::append_code(inputs.back(), pgcodec::detail::gb18030_code(lr.linear + k));
        }
      for (auto& pr : t->decode_pairs) {
        inputs.emplace_back();
        pgcodec::detail::append_code(inputs.back(), pr.code);
      }
    } else {
      for (std::uint32_t cp = 0x80; cp <= 0x10FFFF; cp += 1 + static_cast<std::uint32_t>(rng() % 97)) {
        if (cp >= 0xD800 && cp <= 0xDFFF) continue;
        inputs.emplace_back();
        pgcodec::harness::append_utf8(inputs.back(), cp);
      }
    }
    inputs = sample(std::move(inputs), scaled(1500), rng);
    for (int k = 0; k < 500; ++k)
      inputs.push_back({static_cast<char>(0x80 + rng() % 128), static_cast<char>(rng() % 256)});
    c.exec("SET client_encoding = '" + std::string(codec.name()) + "'");
    for (const auto& in : inputs) {
      const Outcome server = server_decode(c, in);
      std::string out(*codec.max_decoded_size(in.size()), '\0');
      expect_same(ours(codec.decode(in, out), out), server, codec.name(), in, errors);
      if (HasFatalFailure()) return;
      ++compared;
    }
  }
  EXPECT_GT(compared, 40000);  // single-byte encodings have only ~128 characters each
  EXPECT_GT(errors, 41 * 100);
}

// Single code points: the encoding's repertoire (a sample) and random code
// points, most of them without an equivalent.
TEST(CodecLive, SingleCodePointsEncodeAsTheServer) {
  Connection c(server().conninfo());
  std::mt19937 rng(23);
  int compared = 0, errors = 0;
  for (Encoding e : client_encodings()) {
    const Codec& codec = pgcodec::codec(e);
    auto cps = sample(repertoire(e), scaled(1500), rng);
    for (int k = 0; k < 500; ++k) {
      std::uint32_t cp;
      do cp = 0x80 + static_cast<std::uint32_t>(rng() % 0x10FF80); while (cp >= 0xD800 && cp <= 0xDFFF);
      cps.push_back(cp);
    }
    c.exec("SET client_encoding = '" + std::string(codec.name()) + "'");
    for (auto cp : cps) {
      std::string in;
      pgcodec::harness::append_utf8(in, cp);
      const Outcome server = server_encode(c, in);
      std::string out(*codec.max_encoded_size(in.size()), '\0');
      expect_same(ours(codec.encode(in, out), out), server, codec.name(), in, errors);
      if (HasFatalFailure()) return;
      ++compared;
    }
  }
  EXPECT_GT(compared, 41 * 1000);
  EXPECT_GT(errors, 41 * 100);
}

TEST(CodecLive, DecodeMatchesServerForClientInput) {
  Connection c(server().conninfo());
  std::mt19937 rng(7);
  int compared = 0, errors = 0;
  for (Encoding e : client_encodings()) {
    const Codec& codec = pgcodec::codec(e);
    // Characters the encoding decodes (for multibyte encodings random bytes
    // are mostly malformed, so mix in real characters).
    std::vector<std::uint32_t> chars;
    if (const auto* t = pgcodec::detail::mapping_table(e)) {
      for (auto& r : t->decode)
        for (std::uint32_t k = 0; k < r.length; ++k) chars.push_back(r.code + k);
      for (auto& pr : t->decode_pairs) chars.push_back(pr.code);
    }
    c.exec("SET client_encoding = '" + std::string(codec.name()) + "'");
    const std::size_t strings = scaled(1000);
    for (std::size_t n = 0; n < strings; ++n) {
      const std::string in = pgcodec::harness::random_bytes(rng, chars, 40);
      const Outcome server = server_decode(c, in);
      std::string out(*codec.max_decoded_size(in.size()), '\0');
      expect_same(ours(codec.decode(in, out), out), server, codec.name(), in, errors);
      if (HasFatalFailure()) return;
      ++compared;
    }
  }
  EXPECT_GT(compared, 41 * 1000 - 1);
  EXPECT_GT(errors, 41 * 200);
}

TEST(CodecLive, EncodeMatchesServerForResultText) {
  Connection c(server().conninfo());
  std::mt19937 rng(11);
  int compared = 0, errors = 0;
  for (Encoding e : client_encodings()) {
    const Codec& codec = pgcodec::codec(e);
    const auto rep = repertoire(e);
    c.exec("SET client_encoding = '" + std::string(codec.name()) + "'");
    const std::size_t strings = scaled(1000);
    for (std::size_t n = 0; n < strings; ++n) {
      const std::string in = pgcodec::harness::random_text(rng, rep, 30);
      const Outcome server = server_encode(c, in);
      std::string out(*codec.max_encoded_size(in.size()), '\0');
      expect_same(ours(codec.encode(in, out), out), server, codec.name(), in, errors);
      if (HasFatalFailure()) return;
      ++compared;
    }
  }
  EXPECT_GT(compared, 41 * 1000 - 1);
  EXPECT_GT(errors, 41 * 50);
}

}  // namespace
