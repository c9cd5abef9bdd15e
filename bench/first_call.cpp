// First-call latency: what the first conversion of a codec costs in a fresh
// process (table set-up, lazy initialisation, page faults on the tables).
//
//   pgcodec_first_call [--runs N] [ENCODING...]     (default: all 42, N = 5)
//
// For each encoding this program picks one non-ASCII character (the first
// of its native sample text that round-trips; ASCII for SQL_ASCII), then
// starts itself N times (fork + exec, a fresh process each time) as
//   pgcodec_first_call --child ENC HEXBYTES HEXUTF8
// which times, with steady_clock: find_codec(ENC), the first decode of the
// character, the first encode of it, then a second decode (the warm cost,
// for comparison). The parent prints one JSON object per line with the
// median of the runs, in microseconds:
//   {"encoding": "SJIS", "lookup_us": 0.1, "decode_us": 3.2, "encode_us": 2.0, "warm_us": 0.02}
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

std::string hex(std::string_view s) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (const char ch : s) {
    const auto b = static_cast<unsigned char>(ch);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

std::string unhex(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i + 1 < s.size(); i += 2)
    out += static_cast<char>(std::stoi(std::string(s.substr(i, 2)), nullptr, 16));
  return out;
}

// The child: nothing of pgcodec has run in this process before find_codec.
int child(const char* name, const char* hex_bytes, const char* hex_utf8) {
  const std::string bytes = unhex(hex_bytes);
  const std::string utf8 = unhex(hex_utf8);
  char out[64];
  auto t0 = Clock::now();
  const pgcodec::Codec* c = pgcodec::find_codec(name);
  const double lookup = us_since(t0);
  if (!c) return 2;
  t0 = Clock::now();
  const pgcodec::Result d = c->decode(bytes, out);
  const double decode = us_since(t0);
  t0 = Clock::now();
  const pgcodec::Result e = c->encode(utf8, out);
  const double encode = us_since(t0);
  t0 = Clock::now();
  const pgcodec::Result w = c->decode(bytes, out);
  const double warm = us_since(t0);
  if (!d.ok() || !e.ok() || !w.ok()) return 3;
  std::printf("%.3f %.3f %.3f %.3f\n", lookup, decode, encode, warm);
  return 0;
}

// Runs the child once; false if it failed.
bool run_child(const char* self, const std::string& name, const std::string& bytes,
               const std::string& utf8, std::array<double, 4>& t) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    const std::string hb = hex(bytes), hu = hex(utf8);
    execl(self, self, "--child", name.c_str(), hb.c_str(), hu.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  char buf[256] = {};
  std::size_t got = 0;
  for (ssize_t n; got + 1 < sizeof buf && (n = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0;)
    got += static_cast<std::size_t>(n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
  return std::sscanf(buf, "%lf %lf %lf %lf", &t[0], &t[1], &t[2], &t[3]) == 4;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "--child") == 0) return child(argv[2], argv[3], argv[4]);
  int runs = 5;
  std::vector<pgcodec::Encoding> encs;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (const auto e = pgcodec::lookup(argv[i])) {
      encs.push_back(*e);
    } else {
      std::fprintf(stderr, "pgcodec_first_call: unknown encoding %s\n", argv[i]);
      return 2;
    }
  }
  if (encs.empty())
    for (const pgcodec::EncodingInfo& info : pgcodec::encodings()) encs.push_back(info.id);

  // The child re-executes this program: /proc/self/exe is this binary.
  char self[4096];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = '\0';

  int failures = 0;
  for (const pgcodec::Encoding e : encs) {
    const std::string name(pgcodec::info(e).name);
    std::string utf8 = "A";
    for (const char32_t cp : pgbench::code_points(pgbench::sample(pgbench::native_script(e)))) {
      if (cp >= 0x80 && pgbench::round_trips(e, cp)) {
        utf8.clear();
        pgbench::append_utf8(utf8, cp);
        break;
      }
    }
    const std::string bytes = pgbench::pg_convert(pgbench::Dir::Encode, e, utf8);
    std::array<std::vector<double>, 4> t;
    bool ok = true;
    for (int r = 0; ok && r < runs; ++r) {
      std::array<double, 4> one{};
      ok = run_child(self, name, bytes, utf8, one);
      for (std::size_t k = 0; k < 4; ++k) t[k].push_back(one[k]);
    }
    if (!ok) {
      std::fprintf(stderr, "pgcodec_first_call: the child for %s failed\n", name.c_str());
      ++failures;
      continue;
    }
    std::printf(
        "{\"encoding\": \"%s\", \"char\": \"%s\", \"lookup_us\": %.3f, \"decode_us\": %.3f, "
        "\"encode_us\": %.3f, \"warm_us\": %.3f}\n",
        name.c_str(), hex(bytes).c_str(), median(t[0]), median(t[1]), median(t[2]), median(t[3]));
    std::fflush(stdout);
  }
  return failures ? 1 : 0;
}
