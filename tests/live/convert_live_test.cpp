// `pgcodec convert -f A -t B` and `pgcodec check -f A -t B` against the
// server's client path: bytes sent as a text parameter with client_encoding
// A are taken in (A -> UTF8, the whole value), then given back out with
// client_encoding B (UTF8 -> B). The first error the server raises, SQLSTATE
// and message, must be what convert reports and what check lists first; on
// success the output bytes must be equal. Random A/B pairs of every client
// encoding but MULE_INTERNAL (which a UTF8 database cannot convert), random
// strings mixing ASCII, characters of A, characters B lacks and invalid bytes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "core/outcome.hpp"
#include "core/text.hpp"
#include "oracle/postgres.hpp"
#include "oracle/pq.hpp"
#include "oracle/temp_server.hpp"
#include "pgcodec/codec.hpp"

namespace {

namespace fs = std::filesystem;
using pgcodec::Codec;
using pgcodec::Encoding;
using pgcodec::harness::Category;
using pgcodec::harness::classify;
using pgcodec::harness::describe;
using pgcodec::harness::hex_digits;
using pgcodec::harness::Outcome;
using pgcodec::harness::OutcomeKind;
using pgcodec::harness::utf8;
using pgcodec::oracle::Connection;

// The server's answer: `in` goes in with client_encoding A (a binary text
// parameter, which is converted from client_encoding like any text, and may
// hold NUL), comes back as a result column with client_encoding B.
Outcome server(Connection& c, std::string_view a, std::string_view b, const std::string& in) {
  c.exec("SET client_encoding = '" + std::string(a) + "'");
  auto taken = c.exec_binary("SELECT convert_to($1, 'UTF8')", {in}, {25});
  const Outcome intake = pgcodec::oracle::server_outcome(taken, true);
  if (!intake.ok()) return intake;
  c.exec("SET client_encoding = '" + std::string(b) + "'");
  auto given = c.exec_binary("SELECT convert_from($1, 'UTF8')", {intake.output}, {17});
  return pgcodec::oracle::server_outcome(given, false);
}

class Cli {
 public:
  Cli() : dir_(fs::temp_directory_path() / ("pgcodec-convert-live-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~Cli() { fs::remove_all(dir_); }
  struct Run {
    int status = -1;
    std::string out, err;
  };
  Run run(const std::string& args, const std::string& in) {
    const auto input = dir_ / "in", out = dir_ / "out", err = dir_ / "err";
    std::ofstream(input, std::ios::binary) << in;
    const std::string cmd = std::string(PGCODEC_CLI) + " " + args + " <" + input.string() + " >" +
                            out.string() + " 2>" + err.string();
    const int st = std::system(cmd.c_str());
    return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(out), slurp(err)};
  }

 private:
  static std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  }
  fs::path dir_;
};

// Code points from the scripts the 42 encodings cover between them.
std::uint32_t random_code_point(std::mt19937& rng) {
  static const std::pair<std::uint32_t, std::uint32_t> ranges[] = {
      {0x80, 0x24F},     {0x370, 0x3FF},     {0x400, 0x4FF},   {0x5D0, 0x5EA},
      {0x621, 0x64A},    {0xE01, 0xE5B},     {0x2010, 0x2044}, {0x20AC, 0x20AC},
      {0x2190, 0x21FF},  {0x2500, 0x257F},   {0x3000, 0x30FF}, {0x3100, 0x312F},
      {0x4E00, 0x9FFF},  {0xAC00, 0xD7A3},   {0xFF01, 0xFFEF}, {0x1F600, 0x1F64F},
      {0x20000, 0x2A6DF}};
  const auto& r = ranges[rng() % std::size(ranges)];
  return r.first + static_cast<std::uint32_t>(rng() % (r.second - r.first + 1));
}

// Characters of A as bytes in A, split by whether B has them.
struct Pieces {
  std::vector<std::string> shared, b_lacks;
};
Pieces pieces(const Codec& a, const Codec& b, std::mt19937& rng) {
  Pieces p;
  char buf[16];
  for (int tries = 0; tries < 4000 && (p.shared.size() < 40 || p.b_lacks.size() < 40); ++tries) {
    const std::string u = utf8(random_code_point(rng));
    const pgcodec::Result in_a = a.encode(u, buf);
    if (!in_a.ok()) continue;
    const std::string bytes(buf, in_a.written);
    auto& v = b.encode(u, buf).ok() ? p.shared : p.b_lacks;
    if (v.size() < 40) v.push_back(bytes);
  }
  return p;
}

// A random string: ASCII, characters of A that B has and lacks, and bytes
// that are often invalid in A (lone high bytes, a character cut short, NUL).
std::string random_input(const Pieces& p, std::mt19937& rng) {
  std::string s;
  const int n = 1 + static_cast<int>(rng() % 10);
  for (int k = 0; k < n; ++k) {
    const auto roll = rng() % 100;
    if (roll < 30) {
      s += static_cast<char>(0x20 + rng() % 0x5F);
    } else if (roll < 55 && !p.shared.empty()) {
      s += p.shared[rng() % p.shared.size()];
    } else if (roll < 78 && !p.b_lacks.empty()) {
      s += p.b_lacks[rng() % p.b_lacks.size()];
    } else if (roll < 92) {
      s += static_cast<char>(0x80 + rng() % 0x80);
    } else if (roll < 98 && !p.shared.empty()) {
      const std::string& c = p.shared[rng() % p.shared.size()];
      s += c.substr(0, c.size() > 1 ? c.size() - 1 : 1);
    } else {
      s += '\0';
    }
  }
  return s;
}

std::size_t scaled(std::size_t base) {
  const char* s = std::getenv("PGCODEC_LIVE_SCALE");
  const long k = s ? std::strtol(s, nullptr, 10) : 1;
  return base * static_cast<std::size_t>(k > 0 ? k : 1);
}

// What the CLI said, as Outcomes. convert: exit 0 and the output, or exit 1
// and "pgcodec: MESSAGE at byte offset N" (it prints no SQLSTATE). check
// --json (asked only when the server fails): exit 1 and the error the server
// raises as its first line. Anything else is an Outcome no server answer agrees with.
Outcome convert_outcome(const Cli::Run& r) {
  if (r.status == 0 && r.err.empty()) return Outcome::converted(r.out);
  Outcome o = Outcome::failed(OutcomeKind::Unspecified);
  const std::string prefix = "pgcodec: ";
  const auto at = r.err.rfind(" at byte offset ");
  if (r.status == 1 && r.err.rfind(prefix, 0) == 0 && at != std::string::npos)
    o.message = r.err.substr(prefix.size(), at - prefix.size());
  else
    o.message = "exit " + std::to_string(r.status) + ": " + r.err;
  return o;
}

Outcome check_outcome(const Cli::Run& r) {
  Outcome o = Outcome::failed(OutcomeKind::Unspecified);
  const auto first = nlohmann::json::parse(r.out.substr(0, r.out.find('\n')), nullptr, false);
  if (r.status == 1 && first.is_object() && first.contains("sqlstate") && first.contains("message")) {
    o = pgcodec::oracle::server_error(first["sqlstate"].get<std::string>(),
                                      first["message"].get<std::string>());
  } else {
    o.message = "exit " + std::to_string(r.status) + ": " + r.out;
  }
  return o;
}

TEST(ConvertLive, FirstErrorAndOutputAsTheServerForRandomEncodingPairs) {
  std::vector<Encoding> client;
  for (auto& i : pgcodec::encodings())
    if (i.id != Encoding::MULE_INTERNAL) client.push_back(i.id);
  pgcodec::oracle::ServerLease lease;
  Connection c(lease.conninfo());
  Cli cli;
  std::mt19937 rng(9);
  int converted = 0, intake_errors = 0, output_errors = 0, intake_after_output = 0;
  const std::size_t cases = scaled(400);
  for (std::size_t k = 0; k < cases; ++k) {
    const Codec& a = pgcodec::codec(client[rng() % client.size()]);
    const Codec& b = pgcodec::codec(client[rng() % client.size()]);
    const Pieces p = pieces(a, b, rng);
    const std::string in = random_input(p, rng);
    const std::string pair = "-f " + std::string(a.name()) + " -t " + std::string(b.name());
    SCOPED_TRACE("pgcodec convert " + pair + " of " + hex_digits(in));
    const Outcome want = server(c, a.name(), b.name(), in);
    const Cli::Run conv = cli.run("convert " + pair, in);
    const Cli::Run check = cli.run("check --json " + pair, in);
    const Category by_convert = classify(want, convert_outcome(conv));
    EXPECT_EQ(by_convert, Category::Agree)
        << to_string(by_convert) << "; server " << describe(want) << "; convert exit " << conv.status
        << ": " << hex_digits(conv.out) << " " << conv.err;
    if (want.ok()) {  // check writes no output: it must find nothing
      EXPECT_EQ(check.status, 0) << check.out;
      ++converted;
      continue;
    }
    const Category by_check = classify(want, check_outcome(check));
    EXPECT_EQ(by_check, Category::Agree)
        << to_string(by_check) << "; server " << describe(want) << "; check exit " << check.status
        << ": " << check.out;
    // Classify with the library: did the intake fail, and would giving out
    // the part before the intake error have failed first?
    std::vector<char> u(*a.max_decoded_size(in.size())), o(*b.max_encoded_size(u.size()));
    const pgcodec::Result d = a.decode(in, u);
    if (!d.ok()) {
      ++intake_errors;
      if (!b.encode(std::string_view(u.data(), d.written), o).ok()) ++intake_after_output;
    } else {
      ++output_errors;
    }
    if (HasFailure()) return;
  }
  // The sample must exercise every outcome, the bug's case included.
  EXPECT_GT(converted, 20);
  EXPECT_GT(intake_errors, 60);
  EXPECT_GT(output_errors, 30);
  EXPECT_GT(intake_after_output, 10);
  std::printf("%zu cases: %d converted, %d intake errors (%d after an output-side one), %d output errors\n",
              cases, converted, intake_errors, intake_after_output, output_errors);
}

}  // namespace
