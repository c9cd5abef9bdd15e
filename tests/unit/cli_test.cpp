// `pgcodec convert` and `pgcodec check` against the table model
// (harness/core/model.*, which reproduces the server's answer for every single
// byte and every code point, as tools/gentables --check shows): every single
// byte and every code point of each encoding, through the CLI; then the
// CLI's own rules (write errors, which error wins) and the regressions.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "convert.hpp"
#include "core/model.hpp"
#include "rules/utf8.hpp"
#include "rules/grammar.hpp"
#include "pgcodec/codec.hpp"
#include "tables/table.hpp"

namespace {

namespace fs = std::filesystem;
using pgcodec::Encoding;
using pgcodec::harness::OutcomeKind;

struct CliRun {
  int status = -1;
  std::string out, err;
};

class Cli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("pgcodec-cli-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static std::string write(const std::string& name, const std::string& data) {
    const auto p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << data;
    return p;
  }
  static std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  }
  // Runs the CLI through the shell; standard output is captured unless
  // `stdout_to` names where it goes instead (a file, or "&-" to close it).
  static CliRun run(const std::string& args, const std::string& stdout_to = "") {
    const auto out = dir_ / "stdout", err = dir_ / "stderr";
    fs::remove(out);
    const std::string cmd = std::string(PGCODEC_CLI) + " " + args + " >" +
                            (stdout_to.empty() ? out.string() : stdout_to) + " 2>" + err.string();
    const int st = std::system(cmd.c_str());
    CliRun r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }
  static inline fs::path dir_;
};

std::vector<Encoding> all_encodings() {
  std::vector<Encoding> v;
  for (auto& i : pgcodec::encodings()) v.push_back(i.id);
  return v;
}

// The encodings the exhaustive tests (every code point, every multibyte
// sequence) take: all of them, or the comma-separated names in
// $PGCODEC_TEST_ENCODINGS. The sanitize test preset sets a sample, as the
// whole set under ASan takes minutes; the dev preset and ci/nightly's
// sanitize run take them all.
std::vector<Encoding> exhaustive_encodings() {
  const char* env = std::getenv("PGCODEC_TEST_ENCODINGS");
  if (!env || !*env) return all_encodings();
  std::vector<Encoding> v;
  std::string names(env);
  for (std::size_t at = 0; at <= names.size();) {
    std::size_t end = names.find(',', at);
    if (end == std::string::npos) end = names.size();
    const std::string name = names.substr(at, end - at);
    if (!name.empty()) {
      const auto e = pgcodec::lookup(name);
      if (!e) throw std::runtime_error("PGCODEC_TEST_ENCODINGS: unknown encoding " + name);
      v.push_back(*e);
    }
    at = end + 1;
  }
  return v;
}

std::string utf8(std::uint32_t cp) {
  std::string s;
  pgcodec::detail::append_utf8(s, cp);
  return s;
}

std::string quoted_hex(std::string_view bytes) {
  std::string s;
  char b[8];
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(b, sizeof b, "%s0x%02x", i ? " " : "", static_cast<unsigned char>(bytes[i]));
    s += b;
  }
  return s;
}

const char* kind_name(OutcomeKind s) {
  return s == OutcomeKind::InvalidByteSequence ? "invalid byte sequence" : "no equivalent";
}

TEST_F(Cli, EverySingleByteThroughCheckAndConvert) {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  const auto file = write("bytes", all);
  for (Encoding e : all_encodings()) {
    // In a multibyte encoding consecutive high bytes pair up into
    // characters; tests/unit/multibyte_test.cpp covers those spaces.
    if (pgcodec::info(e).max_char_length > 1 && e != Encoding::UTF8) continue;
    const auto& t = *pgcodec::detail::mapping_table(e);
    const std::string name(pgcodec::info(e).name);
    const bool single = pgcodec::info(e).max_char_length == 1 && e != Encoding::SQL_ASCII;
    // Expected, byte by byte (in a single-byte encoding every byte is a
    // character; in UTF8 no byte of this ascending run starts a valid one).
    std::vector<std::pair<std::size_t, OutcomeKind>> expected_errors;
    std::string expected_replaced;
    for (int b = 0; b < 256; ++b) {
      auto a = pgcodec::harness::model_decode(t, std::string(1, static_cast<char>(b)));
      if (a.kind == OutcomeKind::Ok) {
        expected_replaced += a.output;
      } else {
        expected_errors.emplace_back(b, a.kind);
        expected_replaced += "\xEF\xBF\xBD";
      }
    }
    CliRun c = run("check -f " + name + " --json " + file);
    EXPECT_EQ(c.status, expected_errors.empty() ? 0 : 1) << name;
    std::istringstream lines(c.out);
    std::string line;
    std::size_t k = 0;
    while (std::getline(lines, line)) {
      ASSERT_LT(k, expected_errors.size()) << name << ": extra error " << line;
      auto j = nlohmann::json::parse(line);
      EXPECT_EQ(j["offset"].get<std::size_t>(), expected_errors[k].first) << name << " " << line;
      EXPECT_EQ(j["kind"].get<std::string>(), kind_name(expected_errors[k].second)) << name << " " << line;
      if (single) {
        const std::string b(1, all[expected_errors[k].first]);
        const std::string msg =
            expected_errors[k].second == OutcomeKind::InvalidByteSequence
                ? "invalid byte sequence for encoding \"" + name + "\": " + quoted_hex(b)
                : "character with byte sequence " + quoted_hex(b) + " in encoding \"" + name +
                      "\" has no equivalent in encoding \"UTF8\"";
        EXPECT_EQ(j["message"].get<std::string>(), msg) << name;
      }
      ++k;
    }
    EXPECT_EQ(k, expected_errors.size()) << name;
    CliRun v = run("convert -f " + name + " -t UTF8 --errors replace " + file);
    EXPECT_EQ(v.status, 0) << name << v.err;
    EXPECT_EQ(v.out, expected_replaced) << name;
    // Strict: stops at the first error (byte 0, NUL, everywhere), exit 1.
    CliRun s = run("convert -f " + name + " -t UTF8 " + file);
    EXPECT_EQ(s.status, 1) << name;
    EXPECT_EQ(s.out, "") << name;
    EXPECT_NE(s.err.find("at byte offset 0"), std::string::npos) << name << ": " << s.err;
  }
}

TEST_F(Cli, EveryCodePointThroughConvert) {
  std::string all;
  std::vector<std::uint32_t> cps;
  for (std::uint32_t cp = 1; cp <= 0x10FFFF; ++cp)
    if (cp < 0xD800 || cp > 0xDFFF) {
      cps.push_back(cp);
      all += utf8(cp);
    }
  const auto file = write("codepoints", all);
  for (Encoding e : exhaustive_encodings()) {
    const auto& t = *pgcodec::detail::mapping_table(e);
    const std::string name(pgcodec::info(e).name);
    std::string expected, mapped_utf8, mapped_bytes;
    for (auto cp : cps) {
      auto a = pgcodec::harness::model_encode(t, utf8(cp));
      expected += a.kind == OutcomeKind::Ok ? a.output : "?";
      if (a.kind == OutcomeKind::Ok) {
        mapped_utf8 += utf8(cp);
        mapped_bytes += a.output;
      }
    }
    CliRun v = run("convert -f UTF8 -t " + name + " --errors replace " + file);
    EXPECT_EQ(v.status, 0) << name << v.err;
    EXPECT_TRUE(v.out == expected) << name << ": output differs from the reference";
    // Every mapped code point, strictly, both ways.
    const auto mapped = write("mapped", mapped_utf8);
    CliRun s = run("convert -f UTF8 -t " + name + " " + mapped);
    EXPECT_EQ(s.status, 0) << name << s.err;
    EXPECT_TRUE(s.out == mapped_bytes) << name;
    const auto back = write("mapped-back", mapped_bytes);
    CliRun d = run("convert -f " + name + " -t UTF8 " + back);
    // PostgreSQL encodes some code points to bytes it cannot decode (EUC_TW
    // plane 14, JOHAB, GBK's 0x80): decoding back succeeds exactly when the
    // reference says so, and then gives the reference's text.
    const auto again = pgcodec::harness::model_decode(t, mapped_bytes);
    EXPECT_EQ(d.status, again.kind == OutcomeKind::Ok ? 0 : 1) << name << d.err;
    if (again.kind == OutcomeKind::Ok) {
      EXPECT_TRUE(d.out == again.output) << name;
    }
  }
}

TEST_F(Cli, CheckReportsEveryUnmappableCodePointWithItsOffsetAndMessage) {
  std::mt19937 rng(99);
  for (Encoding e : all_encodings()) {
    const auto& t = *pgcodec::detail::mapping_table(e);
    const std::string name(pgcodec::info(e).name);
    // All code points the encoding maps, and 2,000 random ones it may not.
    std::vector<std::uint32_t> sample;
    for (auto& r : t.encode)
      for (std::uint32_t k = 0; k < r.length; ++k) sample.push_back(r.cp + k);
    for (int i = 0; i < 2000; ++i) {
      std::uint32_t cp;
      do cp = 1 + static_cast<std::uint32_t>(rng() % 0x10FFFF); while (cp >= 0xD800 && cp <= 0xDFFF);
      sample.push_back(cp);
    }
    std::shuffle(sample.begin(), sample.end(), rng);
    std::string text;
    std::vector<std::pair<std::size_t, std::string>> expected;  // offset, message
    for (auto cp : sample) {
      const std::string u = utf8(cp);
      if (pgcodec::harness::model_encode(t, u).kind != OutcomeKind::Ok)
        expected.emplace_back(text.size(), "character with byte sequence " + quoted_hex(u) +
                                               " in encoding \"UTF8\" has no equivalent in encoding \"" +
                                               name + "\"");
      text += u;
    }
    CliRun c = run("check -f UTF8 -t " + name + " --json " + write("sample", text));
    EXPECT_EQ(c.status, expected.empty() ? 0 : 1) << name;
    std::istringstream lines(c.out);
    std::string line;
    std::size_t k = 0;
    while (std::getline(lines, line)) {
      ASSERT_LT(k, expected.size()) << name << ": extra error " << line;
      auto j = nlohmann::json::parse(line);
      EXPECT_EQ(j["offset"].get<std::size_t>(), expected[k].first) << name;
      EXPECT_EQ(j["message"].get<std::string>(), expected[k].second) << name;
      EXPECT_EQ(j["sqlstate"].get<std::string>(), "22P05") << name;
      ++k;
    }
    EXPECT_EQ(k, expected.size()) << name;
    if (!expected.empty()) {
      // Strict convert stops at the first one and names its offset.
      CliRun s = run("convert -f UTF8 -t " + name + " " + (dir_ / "sample").string());
      EXPECT_EQ(s.status, 1) << name;
      EXPECT_EQ(s.err, "pgcodec: " + expected[0].second + " at byte offset " +
                           std::to_string(expected[0].first) + "\n")
          << name;
    }
  }
}

// Multibyte encodings: every one- and two-byte sequence with a high lead (and
// EUC's 0x8F three-byte space), each followed by a NUL, then the well-formed
// four-byte spaces of EUC_TW (planes 1-7) and GB18030 and MULE's three-byte
// sets, in one file: check
// must report exactly the errors an in-order scan built from the structural
// rules and the single-character reference finds, and convert --errors
// replace must give the same text. The file spans more than one of
// convert's chunks (tools/pgcodec/convert.hpp, kChunkSize).
TEST_F(Cli, MultibyteSequencesThroughCheckAndConvert) {
  for (Encoding e : exhaustive_encodings()) {
    if (pgcodec::info(e).max_char_length == 1 || e == Encoding::UTF8) continue;
    const auto& t = *pgcodec::detail::mapping_table(e);
    const std::string name(pgcodec::info(e).name);
    std::string data;
    for (int b = 0x80; b < 0x100; ++b) data += {static_cast<char>(b), '\0'};
    for (int b1 = 0x80; b1 < 0x100; ++b1)
      for (int b2 = 1; b2 < 0x100; ++b2) data += {static_cast<char>(b1), static_cast<char>(b2), '\0'};
    if (e == Encoding::EUC_JP || e == Encoding::EUC_JIS_2004)
      for (int b2 = 0xA0; b2 < 0x100; ++b2)
        for (int b3 = 0xA0; b3 < 0x100; ++b3)
          data += {'\x8f', static_cast<char>(b2), static_cast<char>(b3), '\0'};
    // The well-formed three- and four-byte spaces need no separators.
    if (e == Encoding::EUC_TW)
      for (int b2 = 0xA1; b2 <= 0xA7; ++b2)
        for (int b3 = 0xA1; b3 <= 0xFE; ++b3)
          for (int b4 = 0xA1; b4 <= 0xFE; ++b4)
            data += {'\x8e', static_cast<char>(b2), static_cast<char>(b3), static_cast<char>(b4)};
    if (e == Encoding::GB18030)
      for (int b1 = 0x81; b1 <= 0xFE; ++b1)
        for (int b2 = 0x30; b2 <= 0x39; ++b2)
          for (int b3 = 0x81; b3 <= 0xFE; ++b3)
            for (int b4 = 0x30; b4 <= 0x39; ++b4)
              data += {static_cast<char>(b1), static_cast<char>(b2), static_cast<char>(b3),
                       static_cast<char>(b4)};
    if (e == Encoding::MULE_INTERNAL)
      for (int b1 = 0x90; b1 <= 0x99; ++b1)
        for (int b2 = 0xA0; b2 < 0x100; ++b2)
          for (int b3 = 0xA0; b3 < 0x100; ++b3)
            data += {static_cast<char>(b1), static_cast<char>(b2), static_cast<char>(b3)};
    // The expectation, scanning in order and resuming as check does.
    std::vector<std::pair<std::size_t, OutcomeKind>> errors;
    std::string text;
    const auto* p = reinterpret_cast<const unsigned char*>(data.data());
    for (std::size_t i = 0; i < data.size();) {
      if (p[i] && p[i] < 0x80) {
        text.push_back(data[i++]);
        continue;
      }
      const int l = p[i] ? pgcodec::detail::verify_char(e, p + i, data.size() - i) : -1;
      if (l < 0) {
        errors.emplace_back(i, OutcomeKind::InvalidByteSequence);
        text += "\xEF\xBF\xBD";
        i += 1;
        continue;
      }
      const auto a = pgcodec::harness::model_decode(t, data.substr(i, static_cast<std::size_t>(l)));
      if (a.kind == OutcomeKind::Ok) {
        text += a.output;
      } else {
        errors.emplace_back(i, OutcomeKind::NoEquivalent);
        text += "\xEF\xBF\xBD";
      }
      i += static_cast<std::size_t>(l);
    }
    const auto file = write("mb-" + name, data);
    CliRun c = run("check -f " + name + " --json " + file);
    EXPECT_EQ(c.status, 1) << name;
    std::istringstream lines(c.out);
    std::string line;
    std::size_t k = 0;
    while (std::getline(lines, line) && k < errors.size()) {
      auto j = nlohmann::json::parse(line);
      ASSERT_EQ(j["offset"].get<std::size_t>(), errors[k].first) << name << " " << line;
      ASSERT_EQ(j["kind"].get<std::string>(), kind_name(errors[k].second)) << name << " " << line;
      ++k;
    }
    EXPECT_EQ(k, errors.size()) << name;
    EXPECT_FALSE(std::getline(lines, line)) << name << ": extra error " << line;
    CliRun v = run("convert -f " + name + " -t UTF8 --errors replace " + file);
    EXPECT_EQ(v.status, 0) << name;
    EXPECT_TRUE(v.out == text) << name << ": replaced text differs";
  }
}

TEST_F(Cli, OffsetsCountInputBytesWhenTheErrorIsInTheTarget) {
  // WIN1252 input; the euro sign (0x80) and the low quote (0x82) have no
  // LATIN1 equivalent: offsets are positions in the WIN1252 input.
  const std::string in = "caf\xe9 \x80 ok \x82x \xe9\x80";
  CliRun c = run("check -f WIN1252 -t LATIN1 " + write("w1252", in));
  EXPECT_EQ(c.status, 1);
  EXPECT_EQ(c.out,
            "5: no equivalent [22P05]: character with byte sequence 0xe2 0x82 0xac in encoding "
            "\"UTF8\" has no equivalent in encoding \"LATIN1\"\n"
            "10: no equivalent [22P05]: character with byte sequence 0xe2 0x80 0x9a in encoding "
            "\"UTF8\" has no equivalent in encoding \"LATIN1\"\n"
            "14: no equivalent [22P05]: character with byte sequence 0xe2 0x82 0xac in encoding "
            "\"UTF8\" has no equivalent in encoding \"LATIN1\"\n");
  CliRun v = run("convert -f WIN1252 -t LATIN1 " + (dir_ / "w1252").string());
  EXPECT_EQ(v.status, 1);
  EXPECT_EQ(v.out, "caf\xe9 ");
  EXPECT_NE(v.err.find("at byte offset 5"), std::string::npos) << v.err;
}

TEST_F(Cli, ConvertStreamsInConstantMemory) {
  // 512 MiB through a pipe; the converter's resident size must stay small.
  const std::string cmd = "head -c 536870912 /dev/zero | tr '\\0' 'e' | " + std::string(PGCODEC_CLI) +
                          " convert -f LATIN1 -t UTF8 | wc -c > " + (dir_ / "count").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(dir_ / "count"), "536870912\n");
  struct rusage ru {};
  getrusage(RUSAGE_CHILDREN, &ru);
  EXPECT_LT(ru.ru_maxrss, 64 * 1024) << "max resident size of a child, KiB";
}

// Every case in corpus/regressions/cli (the format is in
// corpus/regressions/README.md): exit status, standard error and, where the
// case says, standard output.
TEST_F(Cli, ReplaysEveryRegression) {
  const fs::path dir = fs::path(PGCODEC_REGRESSIONS) / "cli";
  std::vector<fs::path> cases;
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".case") cases.push_back(f.path());
  std::sort(cases.begin(), cases.end());
  ASSERT_FALSE(cases.empty()) << dir;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.filename().string());
    std::string args, stdout_to, want_out, want_err;
    bool compare_out = false;
    int want_exit = -1;
    long repeat = 1, out_repeat = 1;
    std::ifstream f(c);
    std::string line;
    while (std::getline(f, line)) {
      if (line.empty() || line[0] == '#') continue;
      const auto colon = line.find(':');
      ASSERT_NE(colon, std::string::npos) << line;
      const std::string key = line.substr(0, colon);
      std::string value = line.substr(colon + 1);
      if (!value.empty() && value[0] == ' ') value.erase(0, 1);
      if (key == "args") args = value;
      else if (key == "repeat") repeat = std::stol(value);
      else if (key == "stdout-repeat") out_repeat = std::stol(value);
      else if (key == "stdout-to") stdout_to = value;
      else if (key == "exit") want_exit = std::stoi(value);
      else if (key == "stdout") want_out += value + "\n", compare_out = true;
      else if (key == "stderr") want_err += value + "\n";
      else if (key == "stdout-hex") {
        compare_out = true;
        std::istringstream hex(value);
        std::string byte;
        while (hex >> byte) want_out.push_back(static_cast<char>(std::stoi(byte, nullptr, 16)));
      } else {
        FAIL() << "unknown key " << key;
      }
    }
    ASSERT_FALSE(args.empty());
    ASSERT_GE(want_exit, 0);
    {
      const std::string unit = want_out;
      for (long k = 1; k < out_repeat; ++k) want_out += unit;
    }
    fs::path in = c;
    in.replace_extension(".in");
    std::string input = fs::exists(in) ? slurp(in) : "";
    std::string data;
    for (long k = 0; k < repeat; ++k) data += input;
    const CliRun r = run(args + " <" + write("regression-input", data), stdout_to);
    EXPECT_EQ(r.status, want_exit);
    EXPECT_EQ(r.err, want_err);
    if (compare_out) {
      EXPECT_EQ(r.out, want_out);
    }
  }
}

// A combined pair (U+304B U+309A: SHIFT_JIS_2004 82 F5) whose halves fall
// into different chunks converts as one character, at every offset of the
// pairs against the chunks' ends, from UTF8 and from EUC_JIS_2004 (whose
// decoder gives the pair from one code, 0xA4F7), to either of the two.
TEST_F(Cli, CombinedPairsAcrossChunks) {
  const std::size_t n = pgcodec::cli::kChunkSize / 6 + 1000;
  for (std::size_t shift = 0; shift < 6; ++shift) {
    std::string utf8(shift, 'a'), sjis(shift, 'a'), euc(shift, 'a');
    for (std::size_t k = 0; k < n; ++k) {
      utf8 += "\xe3\x81\x8b\xe3\x82\x9a";
      sjis += "\x82\xf5";
      euc += "\xa4\xf7";
    }
    const auto u = write("pairs-utf8", utf8), e = write("pairs-euc", euc);
    CliRun a = run("convert -f UTF8 -t SHIFT_JIS_2004 " + u);
    EXPECT_EQ(a.status, 0) << shift << a.err;
    EXPECT_TRUE(a.out == sjis) << shift;
    CliRun b = run("convert -f UTF8 -t EUC_JIS_2004 " + u);
    EXPECT_EQ(b.status, 0) << shift << b.err;
    EXPECT_TRUE(b.out == euc) << shift;
    CliRun c = run("convert -f EUC_JIS_2004 -t SHIFT_JIS_2004 " + e);
    EXPECT_EQ(c.status, 0) << shift << c.err;
    EXPECT_TRUE(c.out == sjis) << shift;
    CliRun d = run("convert -f UTF8 -t SHIFT_JIS_2004 --errors replace " + u);
    EXPECT_TRUE(d.out == sjis) << shift;
  }
}

// Standard output on a full disk: every subcommand writing to it exits 2 and
// names the output, for outputs smaller and larger than stdio's buffer and
// than convert's chunks, with and without data errors.
TEST_F(Cli, WriteErrorsExitTwoAndNameTheOutput) {
  const std::string msg = "pgcodec: write error on standard output: No space left on device\n";
  const auto small = write("small", "abc\n");
  const auto big = write("big", std::string(pgcodec::cli::kChunkSize + 5000, 'a') + "\xff");
  const auto errors = write("errors", std::string(5000, '\xff') + std::string(5000, 'x') + "\xe2\x82\xac");
  for (const std::string& args : std::vector<std::string>{"convert -f UTF8 -t UTF8 " + small, "convert -f UTF8 -t LATIN1 " + big,
                                 "convert -f LATIN1 -t UTF8 " + big, "convert -f UTF8 -t UTF8 --errors replace " + big,
                                 "check -f UTF8 " + errors, "check -f UTF8 -t LATIN1 " + errors,
                                 "check -f UTF8 -t LATIN1 --json " + errors, "list", "list --json",
                                 "resolve win1252"}) {
    const CliRun r = run(args, "/dev/full");
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, msg) << args;
  }
  // A closed standard output is a write error too.
  const CliRun closed = run("list", "&-");
  EXPECT_EQ(closed.status, 2);
  EXPECT_EQ(closed.err, "pgcodec: write error on standard output: Bad file descriptor\n");
}

// The intake's error wins over an earlier output-side one also when they lie
// in different chunks; no output is written after the output-side
// error, and check lists the intake's errors first.
TEST_F(Cli, IntakeErrorWinsAcrossChunks) {
  const std::size_t n = pgcodec::cli::kChunkSize;
  const std::string head(n + 4464, 'a');
  const std::string in = head + "\xe9" + std::string(3 * n, 'b') + "\x81" + "c";
  const auto file = write("across", in);
  CliRun v = run("convert -f WIN1252 -t KOI8R " + file);
  EXPECT_EQ(v.status, 1);
  EXPECT_TRUE(v.out == head);
  EXPECT_EQ(v.err, "pgcodec: character with byte sequence 0x81 in encoding \"WIN1252\" has no "
                   "equivalent in encoding \"UTF8\" at byte offset " + std::to_string(head.size() + 1 + 3 * n) + "\n");
  // Without the intake error the output-side one is reported.
  const auto file2 = write("across2", head + "\xe9" + std::string(3 * n, 'b'));
  CliRun w = run("convert -f WIN1252 -t KOI8R " + file2);
  EXPECT_EQ(w.status, 1);
  EXPECT_TRUE(w.out == head);
  EXPECT_EQ(w.err, "pgcodec: character with byte sequence 0xc3 0xa9 in encoding \"UTF8\" has no "
                   "equivalent in encoding \"KOI8R\" at byte offset " + std::to_string(head.size()) + "\n");
  CliRun c = run("check -f WIN1252 -t KOI8R " + file);
  EXPECT_EQ(c.status, 1);
  EXPECT_EQ(c.out, std::to_string(head.size() + 1 + 3 * n) +
                       ": no equivalent [22P05]: character with byte sequence 0x81 in encoding "
                   "\"WIN1252\" has no equivalent in encoding \"UTF8\"\n" +
                   std::to_string(head.size()) + ": no equivalent [22P05]: character with byte sequence 0xc3 0xa9 in encoding "
                   "\"UTF8\" has no equivalent in encoding \"KOI8R\"\n");
}

// The same from UTF8, where convert encodes a block straight from the input
// until a block has an error: the invalid byte three chunks later still wins.
TEST_F(Cli, IntakeErrorWinsAcrossChunksFromUtf8) {
  const std::size_t n = pgcodec::cli::kChunkSize;
  const std::string head(n + 4464, 'a');
  const std::string tail = std::string(3 * n, 'b') + "\xc3\xa9";  // in LATIN1
  const auto file = write("across", head + "\xe2\x82\xac" + tail + "\xff");
  CliRun v = run("convert -f UTF8 -t LATIN1 " + file);
  EXPECT_EQ(v.status, 1);
  EXPECT_TRUE(v.out == head);
  EXPECT_EQ(v.err, "pgcodec: invalid byte sequence for encoding \"UTF8\": 0xff at byte offset " +
                       std::to_string(head.size() + 3 + tail.size()) + "\n");
  CliRun w = run("convert -f UTF8 -t LATIN1 " + write("across2", head + "\xe2\x82\xac" + tail));
  EXPECT_EQ(w.status, 1);
  EXPECT_TRUE(w.out == head);
  EXPECT_EQ(w.err, "pgcodec: character with byte sequence 0xe2 0x82 0xac in encoding \"UTF8\" has no "
                   "equivalent in encoding \"LATIN1\" at byte offset " + std::to_string(head.size()) + "\n");
  // A character cut by a chunk's end is carried over whole.
  const std::string cut = std::string(n - 1, 'a') + "\xc3\xa9" + std::string(n, 'c') + "\xc3\xa9";
  CliRun c = run("convert -f UTF8 -t LATIN1 " + write("cut", cut));
  EXPECT_EQ(c.status, 0);
  EXPECT_TRUE(c.out == std::string(n - 1, 'a') + "\xe9" + std::string(n, 'c') + "\xe9");
}

// check holds output-side errors back until the input is read: more than fit
// in memory go through a temporary file, and come out complete and in order.
TEST_F(Cli, CheckListsManyOutputSideErrorsAfterTheIntakes) {
  std::string in;
  for (int i = 0; i < 30000; ++i) in += "\xe2\x82\xac";  // 30,000 euro signs, none in LATIN1
  in += "\xff";
  CliRun c = run("check -f UTF8 -t LATIN1 " + write("euros", in));
  EXPECT_EQ(c.status, 1);
  std::istringstream lines(c.out);
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, "90000: invalid byte sequence [22021]: invalid byte sequence for encoding \"UTF8\": 0xff");
  std::size_t k = 0;
  while (std::getline(lines, line)) {
    ASSERT_EQ(line, std::to_string(3 * k) + ": no equivalent [22P05]: character with byte sequence "
                    "0xe2 0x82 0xac in encoding \"UTF8\" has no equivalent in encoding \"LATIN1\"");
    ++k;
  }
  EXPECT_EQ(k, 30000u);
}

// After an output-side error convert writes nothing more but reads the rest
// of the input, still in constant memory, to find an intake error behind it.
TEST_F(Cli, ConvertKeepsCheckingAfterAnOutputErrorInConstantMemory) {
  const std::string cmd = "(printf '\\351'; head -c 134217728 /dev/zero | tr '\\0' a; printf '\\201') | " +
                          std::string(PGCODEC_CLI) + " convert -f WIN1252 -t KOI8R 2>" +
                          (dir_ / "err").string() + " | wc -c > " + (dir_ / "count").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(dir_ / "count"), "0\n");
  EXPECT_EQ(slurp(dir_ / "err"), "pgcodec: character with byte sequence 0x81 in encoding \"WIN1252\" has no "
                                 "equivalent in encoding \"UTF8\" at byte offset 134217729\n");
  struct rusage ru {};
  getrusage(RUSAGE_CHILDREN, &ru);
  EXPECT_LT(ru.ru_maxrss, 64 * 1024) << "max resident size of a child, KiB";
}

TEST_F(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(run("convert -f NOPE -t UTF8 /dev/null").status, 2);
  EXPECT_EQ(run("convert -f UTF8").status, 2);
  EXPECT_EQ(run("check -f UTF8 /nonexistent/file").status, 2);
  EXPECT_EQ(run("convert -f UTF8 -t LATIN1 --errors maybe /dev/null").status, 2);
  EXPECT_EQ(run("frobnicate").status, 2);
  const CliRun unreadable = run("convert -f UTF8 -t UTF8 " + dir_.string());  // a directory
  EXPECT_EQ(unreadable.status, 2);
  EXPECT_EQ(unreadable.err, "pgcodec: read error on " + dir_.string() + ": Is a directory\n");
  EXPECT_EQ(run("--help").status, 0);
}

// -c (= --errors skip) drops each invalid sequence and each character the
// target lacks, converts the rest, counts the drops on standard error and,
// as glibc's iconv -c, exits 1 when it dropped anything.
TEST_F(Cli, SkipDropsWhatCannotBeConverted) {
  const auto file = write("skip", "a\xff" "b\xe2\x82\xac" "c\xc3");  // bad byte, a euro, a cut-off character
  for (const char* how : {"-c", "--errors skip"}) {
    CliRun r = run(std::string("convert ") + how + " -f UTF8 -t LATIN1 " + file);
    EXPECT_EQ(r.status, 1) << how;
    EXPECT_EQ(r.out, "abc") << how;
    EXPECT_EQ(r.err, "pgcodec: dropped 2 invalid byte sequences and 1 character with no equivalent in "
                     "encoding \"LATIN1\"\n") << how;
  }
  CliRun clean = run("convert -c -f UTF8 -t LATIN1 " + write("clean", "abc\xc3\xa9"));
  EXPECT_EQ(clean.status, 0);
  EXPECT_EQ(clean.out, "abc\xe9");
  EXPECT_EQ(clean.err, "");
  // Drops across chunk boundaries, and text held back between chunks (a
  // combined pair's first half) is not lost: without errors -c gives what
  // strict gives.
  const std::size_t n = pgcodec::cli::kChunkSize;
  std::string big(n - 1, 'a');
  big += "\xe2\x82\xac\xe2\x82\xac";  // euros across the first chunk's end
  big += std::string(n, 'b') + "\xff";
  CliRun b = run("convert -c -f UTF8 -t LATIN1 " + write("bigskip", big));
  EXPECT_EQ(b.status, 1);
  EXPECT_TRUE(b.out == std::string(n - 1, 'a') + std::string(n, 'b'));
  EXPECT_EQ(b.err, "pgcodec: dropped 1 invalid byte sequence and 2 characters with no equivalent in encoding "
                   "\"LATIN1\"\n");
  std::string pairs;
  for (std::size_t i = 0; pairs.size() < 3 * n; ++i) pairs += (i % 7 == 0) ? "\xe3\x81\x8b\xe3\x82\x9a" : "\xe3\x81\x8b";
  const auto u = write("pairs", pairs);
  for (const char* to : {"EUC_JIS_2004", "SHIFT_JIS_2004"}) {
    CliRun strict = run(std::string("convert -f UTF8 -t ") + to + " " + u);
    CliRun skip = run(std::string("convert -c -f UTF8 -t ") + to + " " + u);
    EXPECT_EQ(strict.status, 0) << to;
    EXPECT_EQ(skip.status, 0) << to;
    EXPECT_TRUE(skip.out == strict.out) << to;
  }
  EXPECT_EQ(run("convert -c --errors replace -f UTF8 -t LATIN1 /dev/null").status, 2);
}

// Several inputs are converted in order into one output, each on its own:
// offsets count from the start of each file, errors name it, and a
// character cut off at one file's end does not continue into the next.
TEST_F(Cli, SeveralInputsInOrderEachOnItsOwn) {
  const auto a = write("a.txt", "abc"), b = write("b.txt", "d\xff" "e"), c = write("c.txt", "f");
  CliRun ok = run("convert -f UTF8 -t LATIN1 " + a + " " + c + " - " + a + " <" + c);
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(ok.out, "abcffabc");
  CliRun bad = run("convert -f UTF8 -t LATIN1 " + a + " " + b + " " + c);
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.out, "abcd");  // a strict run stops at the first error
  EXPECT_EQ(bad.err, "pgcodec: invalid byte sequence for encoding \"UTF8\": 0xff at byte offset 1 in " + b + "\n");
  const auto cut1 = write("cut1", "x\xc3"), cut2 = write("cut2", "\xa9y");
  CliRun cut = run("convert -f UTF8 -t LATIN1 " + cut1 + " " + cut2);
  EXPECT_EQ(cut.status, 1);
  EXPECT_EQ(cut.out, "x");
  EXPECT_EQ(cut.err, "pgcodec: invalid byte sequence for encoding \"UTF8\": 0xc3 at byte offset 1 in " + cut1 + "\n");
  CliRun skip = run("convert -c -f UTF8 -t LATIN1 " + cut1 + " " + cut2);
  EXPECT_EQ(skip.status, 1);
  EXPECT_EQ(skip.out, "xy");
  CliRun chk = run("check -f UTF8 " + a + " " + b + " " + cut1);
  EXPECT_EQ(chk.status, 1);
  EXPECT_EQ(chk.out, b + ":1: invalid byte sequence [22021]: invalid byte sequence for encoding \"UTF8\": 0xff\n" +
                         cut1 + ":1: invalid byte sequence [22021]: invalid byte sequence for encoding \"UTF8\": 0xc3\n");
  // A missing input fails the run before anything is written.
  CliRun missing = run("convert -f UTF8 -t LATIN1 " + a + " " + (dir_ / "nope").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.out, "");
}

TEST_F(Cli, ListFlagIsTheListCommand) {
  CliRun l = run("convert -l"), list = run("list");
  EXPECT_EQ(l.status, 0);
  EXPECT_EQ(l.out, list.out);
  EXPECT_EQ(run("convert --list -f UTF8").status, 2);
}

// The files in dir_ whose name starts with ".NAME.pgcodec-": -o's temporary files.
std::vector<std::string> temp_files_for(const fs::path& dir, const std::string& name) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("." + name + ".pgcodec-", 0) == 0) v.push_back(e.path().string());
  return v;
}

// -o FILE: FILE is replaced only by a run that succeeded; a failing run
// leaves it as it was and no temporary file behind.
TEST_F(Cli, OutputFileIsReplacedOnlyOnSuccess) {
  const auto target = (dir_ / "out.txt").string();
  fs::remove(target);
  CliRun ok = run("convert -f UTF8 -t LATIN1 -o " + target + " " + write("good", "caf\xc3\xa9"));
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(ok.out, "");
  EXPECT_EQ(slurp(target), "caf\xe9");
  EXPECT_TRUE(temp_files_for(dir_, "out.txt").empty());
  // A new file gets the umask's mode, not mkstemp's 0600.
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
  // Strict mode, a bad byte far into the input: FILE keeps its old text.
  const std::string big = std::string(3 * pgcodec::cli::kChunkSize, 'x') + "\xff";
  CliRun bad = run("convert -f UTF8 -t LATIN1 -o " + target + " " + write("bad", big));
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("0xff at byte offset " + std::to_string(big.size() - 1)), std::string::npos) << bad.err;
  EXPECT_EQ(slurp(target), "caf\xe9");
  EXPECT_TRUE(temp_files_for(dir_, "out.txt").empty());
  // A read error, and an unknown encoding: FILE untouched too.
  EXPECT_EQ(run("convert -f UTF8 -t LATIN1 -o " + target + " " + dir_.string()).status, 2);
  EXPECT_EQ(run("convert -f UTF8 -t NOPE -o " + target + " /dev/null").status, 2);
  EXPECT_EQ(slurp(target), "caf\xe9");
  EXPECT_TRUE(temp_files_for(dir_, "out.txt").empty());
  // -c writes FILE (exit 1: something was dropped); FILE may be the input.
  const auto inplace = write("inplace", "a\xff" "b");
  CliRun same = run("convert -c -f UTF8 -t UTF8 -o " + inplace + " " + inplace);
  EXPECT_EQ(same.status, 1);
  EXPECT_EQ(slurp(inplace), "ab");
  // A directory that does not exist, or FILE a directory: exit 2, said why.
  CliRun nodir = run("convert -f UTF8 -t LATIN1 -o " + (dir_ / "no/such/dir/x").string() + " /dev/null");
  EXPECT_EQ(nodir.status, 2);
  EXPECT_NE(nodir.err.find("cannot create a temporary file"), std::string::npos) << nodir.err;
  EXPECT_EQ(run("convert -f UTF8 -t LATIN1 -o " + dir_.string() + " /dev/null").status, 2);
  // A write error (here a file size limit, EFBIG, where a full disk would
  // give ENOSPC): exit 2, said why, FILE untouched, no temporary file.
  const auto big_in = write("big_in", std::string(1 << 20, 'y'));
  const auto err = (dir_ / "efbig.err").string();
  const std::string cmd = "trap '' XFSZ; ulimit -f 64; " + std::string(PGCODEC_CLI) + " convert -f UTF8 -t LATIN1 -o " +
                          target + " " + big_in + " 2>" + err;
  const int status = std::system(("sh -c \"" + cmd + "\"").c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
  EXPECT_EQ(slurp(err), "pgcodec: write error on " + target + ": File too large\n");
  EXPECT_EQ(slurp(target), "caf\xe9");
  EXPECT_TRUE(temp_files_for(dir_, "out.txt").empty());
}

// An interrupted run (SIGTERM, SIGINT, SIGHUP while its input stalls)
// leaves FILE as it was and removes its temporary file.
TEST_F(Cli, InterruptedOutputFileLeavesNoTrace) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    const auto fifo = (dir_ / "fifo").string(), target = (dir_ / "kept.txt").string();
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::ofstream(target) << "old\n";
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int s : {SIGTERM, SIGINT, SIGHUP}) std::signal(s, SIG_DFL);  // ctest may ignore some
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 2);
      ::execl(PGCODEC_CLI, PGCODEC_CLI, "convert", "-f", "LATIN1", "-t", "UTF8", "-o", target.c_str(),
              fifo.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const int w = ::open(fifo.c_str(), O_WRONLY);  // waits for the reader
    ASSERT_GE(w, 0);
    const std::string chunk(100000, '\xe9');
    ASSERT_EQ(::write(w, chunk.data(), chunk.size()), static_cast<ssize_t>(chunk.size()));
    // Its temporary file exists while it waits for more input.
    for (int i = 0; i < 500 && temp_files_for(dir_, "kept.txt").empty(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(temp_files_for(dir_, "kept.txt").size(), 1u) << sig;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ::kill(pid, sig);
    int st = 0;
    ASSERT_EQ(::waitpid(pid, &st, 0), pid);
    ::close(w);
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == sig) << sig << " status " << st;
    EXPECT_EQ(slurp(target), "old\n") << sig;
    EXPECT_TRUE(temp_files_for(dir_, "kept.txt").empty()) << sig;
  }
}

// check --max-errors N: the first N lines of check's order (errors taking
// the input in, then those giving it out), then a note on standard error.
TEST_F(Cli, CheckStopsAfterMaxErrors) {
  const auto file = write("errs", "\xe2\x82\xac" "a\xff" "b\xfe" "c\xe2\x82\xac\xfd");
  CliRun all = run("check -f UTF8 -t LATIN1 " + file);
  EXPECT_EQ(all.status, 1);
  std::vector<std::string> lines;
  std::istringstream s(all.out);
  for (std::string l; std::getline(s, l);) lines.push_back(l + "\n");
  ASSERT_EQ(lines.size(), 5u) << all.out;
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{4}}) {
    CliRun some = run("check --max-errors " + std::to_string(n) + " -f UTF8 -t LATIN1 " + file);
    EXPECT_EQ(some.status, 1) << n;
    std::string want;
    for (std::size_t i = 0; i < n; ++i) want += lines[i];
    EXPECT_EQ(some.out, want) << n;
    EXPECT_EQ(some.err, "pgcodec: stopped after " + std::to_string(n) + " errors (--max-errors)\n") << n;
  }
  CliRun exact = run("check --max-errors 5 -f UTF8 -t LATIN1 " + file);
  EXPECT_EQ(exact.status, 1);
  EXPECT_EQ(exact.out, all.out);
  EXPECT_EQ(exact.err, "");
  // Across inputs the count goes on.
  CliRun two = run("check --max-errors 2 -f UTF8 " + file + " " + file);
  EXPECT_EQ(two.status, 1);
  EXPECT_EQ(two.out, file + ":4: invalid byte sequence [22021]: invalid byte sequence for encoding \"UTF8\": 0xff\n" +
                         file + ":6: invalid byte sequence [22021]: invalid byte sequence for encoding \"UTF8\": 0xfe\n");
  CliRun none = run("check --max-errors 2 -f UTF8 " + write("fine", "abc"));
  EXPECT_EQ(none.status, 0);
  EXPECT_EQ(none.out, "");
}

// The exit statuses --help documents: 0 ok, 1 conversion error, 2 usage or I/O.
TEST_F(Cli, ExitStatusesAsDocumented) {
  const auto ok = write("ok", "abc"), bad = write("bad1", "a\xff");
  EXPECT_EQ(run("convert -f UTF8 -t LATIN1 " + ok).status, 0);
  EXPECT_EQ(run("convert -f UTF8 -t LATIN1 " + bad).status, 1);
  EXPECT_EQ(run("convert --errors replace -f UTF8 -t LATIN1 " + bad).status, 0);
  EXPECT_EQ(run("check -f UTF8 " + ok).status, 0);
  EXPECT_EQ(run("check -f UTF8 " + bad).status, 1);
  EXPECT_EQ(run("convert -f UTF8 " + ok).status, 2);           // no -t
  EXPECT_EQ(run("convert -t UTF8 " + ok).status, 2);           // no -f
  EXPECT_EQ(run("check --max-errors x -f UTF8 " + ok).status, 2);
  EXPECT_EQ(run("convert -f UTF8 -t LATIN1 " + ok, "/dev/full").status, 2);
  for (const char* cmd : {"--help", "convert --help", "check --help", "list --help", "resolve --help"}) {
    CliRun h = run(cmd);
    EXPECT_EQ(h.status, 0) << cmd;
    EXPECT_NE(h.out.find("Exit status"), std::string::npos) << cmd;
  }
}

}  // namespace
