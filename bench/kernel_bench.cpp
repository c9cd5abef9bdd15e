// The kernels alone (src/kernels/), every entry of kernels::available():
// utf8_valid_run and ascii_run on 64 KiB of ASCII, Russian, Japanese and
// random U+0001..U+0FFF UTF-8, and UTF8 decode (validation + copy through
// the public API) for comparison. GB = 10^9 input bytes (shown per second).
//
//   cmake --preset release && cmake --build --preset release -j2 --target pgcodec_kernel_bench
//   build/release/bench/pgcodec_kernel_bench
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernels.hpp"
#include "pgcodec/codec.hpp"

namespace {

namespace kernels = pgcodec::kernels;

constexpr std::size_t kSize = 64 * 1024;

constexpr std::string_view kAscii =
    "SELECT id, name, email FROM users WHERE created_at > now() - interval '7 days' "
    "ORDER BY name LIMIT 100; -- the driver converts every row it reads.\n";
constexpr std::string_view kRussian =
    "Кодировка базы данных определяет, какие символы можно хранить в строках; "
    "клиент получает их в своей кодировке, и каждая строка проходит проверку. ";
constexpr std::string_view kJapanese =
    "データベースの文字コードは、文字列に保存できる文字を決めます。"
    "クライアントは自分の文字コードで受け取り、すべての行が検査されます。";

// `unit` repeated to kSize bytes, cut at a character boundary.
std::string Repeat(std::string_view unit) {
  std::string s;
  while (s.size() + unit.size() <= kSize) s += unit;
  for (std::size_t i = 0; s.size() < kSize && i < unit.size(); ++i) {
    const auto c = static_cast<unsigned char>(unit[i]);
    std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (s.size() + len > kSize) break;
    s.append(unit.substr(i, len));
    i += len - 1;
  }
  return s;
}

// Code points uniform in U+0001..U+0FFF (1, 2 and 3 bytes), about kSize bytes.
std::string RandomBmpLow() {
  std::mt19937 rng(42);
  std::uniform_int_distribution<std::uint32_t> cp(1, 0xFFF);
  std::string s;
  while (s.size() + 3 <= kSize) {
    const std::uint32_t c = cp(rng);
    if (c < 0x80) {
      s += static_cast<char>(c);
    } else if (c < 0x800) {
      s += static_cast<char>(0xC0 | (c >> 6));
      s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      s += static_cast<char>(0xE0 | (c >> 12));
      s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return s;
}

const std::string& Input(int which) {
  static const std::string inputs[] = {Repeat(kAscii), Repeat(kRussian), Repeat(kJapanese),
                                       RandomBmpLow()};
  return inputs[which];
}
constexpr const char* kInputNames[] = {"ascii", "russian", "japanese", "random_0001_0FFF"};

void Rate(benchmark::State& state, std::size_t bytes) {
  state.counters["GB"] = benchmark::Counter(static_cast<double>(bytes) / 1e9,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

void Utf8ValidRun(benchmark::State& state, const kernels::Kernel* k, int which) {
  const std::string& s = Input(which);
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (auto _ : state) {
    const std::size_t r = k->utf8_valid_run(p, s.size());
    if (r != s.size()) state.SkipWithError("input not valid");
    benchmark::DoNotOptimize(r);
  }
  Rate(state, s.size());
}

// ascii_run as the codecs call it: a run, then one byte that ends it.
void AsciiRun(benchmark::State& state, const kernels::Kernel* k, int which) {
  const std::string& s = Input(which);
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  for (auto _ : state) {
    std::size_t i = 0;
    while (i < n) i += k->ascii_run(p + i, n - i) + 1;
    benchmark::DoNotOptimize(i);
  }
  Rate(state, n);
}

// UTF8 decode into a caller buffer: validation + copy, through the API.
void Utf8Decode(benchmark::State& state, const kernels::Kernel* k, int which) {
  const std::string& s = Input(which);
  std::vector<char> out(s.size());
  kernels::set_active(*k);
  const pgcodec::Codec& c = pgcodec::codec(pgcodec::Encoding::UTF8);
  for (auto _ : state) {
    const pgcodec::Result r = c.decode(s, out);
    if (r.written != s.size()) state.SkipWithError("decode stopped short");
    benchmark::DoNotOptimize(out.data());
  }
  Rate(state, s.size());
}

const bool kRegistered = [] {
  for (const kernels::Kernel& k : kernels::available()) {
    for (int which = 0; which < 4; ++which) {
      const std::string tail = std::string(k.name) + "/" + kInputNames[which];
      benchmark::RegisterBenchmark(("utf8_valid_run/" + tail).c_str(), Utf8ValidRun, &k, which);
      benchmark::RegisterBenchmark(("ascii_run/" + tail).c_str(), AsciiRun, &k, which);
      benchmark::RegisterBenchmark(("utf8_decode/" + tail).c_str(), Utf8Decode, &k, which);
    }
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
