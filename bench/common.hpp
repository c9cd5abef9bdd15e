// What every benchmark file of pgcodec_bench shares: the texts, the inputs
// made of them, the peers' names for each encoding, the adapters around ICU
// and glibc iconv, the allocation counter and the one timing loop that checks
// an implementation's output before timing it.
//
// Benchmark names are <group>/<direction>/<ENCODING>/<text>/<size>/<impl>
// (fewer parts where a part means nothing); bench/report.py reads them.
// Counters every benchmark sets: allocs_per_call (heap allocations per
// conversion, counted by the malloc hook in alloc_count.cpp) and, for a case
// whose output was checked, bytes_per_second of *input* bytes.
#pragma once

#include <benchmark/benchmark.h>
#include <iconv.h>
#include <unicode/ucnv.h>
#include <unicode/utypes.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pgcodec/codec.hpp"
#include "pgcodec/encoding.hpp"

namespace pgbench {

using pgcodec::Encoding;

enum class Dir { Decode, Encode };
inline const char* dir_name(Dir d) { return d == Dir::Decode ? "decode" : "encode"; }

// An implementation's "conversion failed".
inline constexpr std::size_t kFailed = std::numeric_limits<std::size_t>::max();

// ---------------------------------------------------------------------------
// Allocation counting (alloc_count.cpp): every malloc, calloc, realloc and
// aligned allocation of the process, including libstdc++'s operator new,
// ICU's and iconv's. CPython's small objects come from its own arenas
// (pymalloc) and are not seen.
std::uint64_t allocations() noexcept;

// ---------------------------------------------------------------------------
// Texts (UTF-8). A script's realistic sample, one paragraph; see common.cpp.
std::string_view sample(std::string_view script);
// The script whose sample is an encoding's native text ("western" for
// WIN1252, "japanese" for SJIS, ...).
std::string_view native_script(Encoding e);

// `unit` repeated to at most `size` bytes, cut at a UTF-8 character boundary.
std::string repeat_to(std::string_view unit, std::size_t size);
// The code points of valid UTF-8 `s`, and back.
std::vector<char32_t> code_points(std::string_view s);
void append_utf8(std::string& out, char32_t cp);

// Whether `cp` encodes in `e` and decodes back to itself (pgcodec's tables).
bool round_trips(Encoding e, char32_t cp);
// `utf8` without the characters that do not round-trip in `e`.
std::string representable(Encoding e, std::string_view utf8);
// The round-tripping code points of `e` in [lo, hi] (computed once per range).
const std::vector<char32_t>& repertoire(Encoding e, char32_t lo, char32_t hi);
// `chars` code points drawn uniformly from repertoire(e, lo, hi), fixed seed.
std::string random_text(Encoding e, std::size_t chars, std::uint64_t seed, char32_t lo = 1,
                        char32_t hi = 0xFFFF);

// pgcodec's conversions that must succeed (throws std::runtime_error).
std::string pg_convert(Dir d, Encoding e, std::string_view in);
// The longest prefix of `bytes` (in `e`) of at most `size` bytes that ends at
// a character boundary.
std::size_t char_boundary(Encoding e, std::string_view bytes, std::size_t size);
// UTF-8 `text` encoded in `e`, repeated and cut to at most `size` bytes.
std::string encoded_to_size(Encoding e, std::string_view text, std::size_t size);

// Text that is not one paragraph repeated: about `bytes` bytes of UTF-8 made
// of `utf8`'s words drawn at random (seeded), joined by spaces; a text
// without spaces (Chinese, Japanese) is cut into runs of 1-4 characters,
// joined by nothing. The words keep their punctuation and digits.
std::string shuffled(std::string_view utf8, std::size_t bytes, std::uint64_t seed);

// Distinct inputs of one size, each call of a timed loop taking the next: a
// converter run on the same input again and again has its branches learnt
// by the CPU's predictor (on 64 KB, up to twice as fast as on text it has
// not seen; a driver never converts the same value twice in a row).
// `expected` is pgcodec's output for each input.
struct Rotation {
  std::vector<std::string> inputs, expected;
  std::size_t largest_input() const noexcept;
  std::size_t input_bytes() const noexcept;
};
// UTF-8 `text` encoded in `e` and cut, from its start, into consecutive
// pieces of at most `size` bytes ending at character boundaries: as many
// as make about `total` bytes (at least `least`), or as the text has.
// Decode: the pieces are the inputs; encode: their UTF-8 is. Throws
// std::runtime_error if the text yields no piece.
Rotation rotation(Dir d, Encoding e, std::string_view text, std::size_t size, std::size_t total,
                  std::size_t least = 2);

// ---------------------------------------------------------------------------
// Peers' names. ICU's come from harness/oracle's reference names first, then
// the bench's further candidates; glibc's from the bench's own table. The
// first candidate whose output equals pgcodec's is the one timed.
std::vector<std::string> icu_names(Encoding e);
std::vector<std::string> iconv_names(Encoding e);

// ---------------------------------------------------------------------------
// Adapters. Each converts `in` into `out` and returns the bytes written or
// kFailed; errors stop the conversion everywhere (Strict).

class Iconv {
 public:
  Iconv(const char* to, const char* from) noexcept;
  ~Iconv();
  Iconv(const Iconv&) = delete;
  Iconv& operator=(const Iconv&) = delete;
  bool ok() const noexcept { return cd_ != reinterpret_cast<iconv_t>(-1); }
  std::size_t operator()(std::string_view in, std::span<char> out) const noexcept;

 private:
  iconv_t cd_;
};

// A converter that stops at the first error, or nullptr.
UConverter* icu_open(const char* name) noexcept;

// Bytes -> bytes through ICU's UTF-16 pivot (ucnv_convertEx).
class Icu {
 public:
  Icu(const char* to, const char* from) noexcept;
  ~Icu();
  Icu(const Icu&) = delete;
  Icu& operator=(const Icu&) = delete;
  bool ok() const noexcept { return to_ && from_; }
  std::size_t operator()(std::string_view in, std::span<char> out) const noexcept;

 private:
  UConverter* to_;
  UConverter* from_;
};

// ICU's other path, through a UTF-16 buffer of its own: ucnv_toUChars then
// u_strToUTF8 (decode), u_strFromUTF8 then ucnv_fromUChars (encode). Often
// faster than ucnv_convertEx's pivoting (WIN874 decode twice as fast), so
// the ICU figure is the faster of the two.
class IcuTwoStep {
 public:
  IcuTwoStep(Dir d, const char* name) noexcept;
  ~IcuTwoStep();
  IcuTwoStep(const IcuTwoStep&) = delete;
  IcuTwoStep& operator=(const IcuTwoStep&) = delete;
  bool ok() const noexcept { return cnv_ != nullptr; }
  std::size_t operator()(std::string_view in, std::span<char> out) const noexcept;

 private:
  Dir dir_;
  UConverter* cnv_;
  mutable std::vector<UChar> u16_;
};

// The ICU and iconv names for converting `e` in direction `d`, as
// {to, from}.
struct Pair {
  std::string to, from;
};
inline Pair peer_pair(Dir d, const std::string& enc, const char* utf8) {
  return d == Dir::Decode ? Pair{utf8, enc} : Pair{enc, utf8};
}

// ---------------------------------------------------------------------------
// The timing loop. `conv(in, out)` returns the bytes written; its output must
// equal `expected` (checked once before timing: unequal work is never
// timed, the benchmark is skipped with the reason). Sets bytes_per_second
// (input bytes) and allocs_per_call.

// benchmark::DoNotOptimize on a non-const lvalue ("+m,r" in Google
// Benchmark 1.7) lets GCC 12 reuse a stale stack slot for the value here
// (seen as a garbage input pointer on the second call), so these two do
// the same job with single-alternative constraints.
// opaque(v): the compiler must assume v changed (v stays in a register).
template <class T>
inline void opaque(T& v) noexcept {
  asm volatile("" : "+r"(v));
}
// keep(v): v is used; memory may have been read.
template <class T>
inline void keep(const T& v) noexcept {
  asm volatile("" : : "g"(v) : "memory");
}

inline void set_allocs(benchmark::State& state, std::uint64_t before) {
  const std::uint64_t n = allocations() - before;
  state.counters["allocs_per_call"] =
      state.iterations() ? static_cast<double>(n) / static_cast<double>(state.iterations()) : 0.0;
}

// Where `theirs` first differs from `ours` (pgcodec's output), for a skip
// reason: "at output byte 12: pgcodec e3 80 9c, peer ef bd 9e".
std::string describe_difference(std::string_view ours, std::string_view theirs);

// Why `conv` cannot be timed on `r` (it fails, or its output differs from
// pgcodec's on some input), or "" if it can.
template <class Conv>
std::string unequal_work(const Rotation& r, std::span<char> out, Conv& conv) {
  for (std::size_t i = 0; i < r.inputs.size(); ++i) {
    const std::size_t w = conv(std::string_view(r.inputs[i]), out);
    const std::string at = r.inputs.size() > 1 ? " on input " + std::to_string(i) : "";
    if (w == kFailed) return "conversion failed" + at;
    if (std::string_view(out.data(), w) != r.expected[i])
      return "output differs" + at + " " + describe_difference(r.expected[i], std::string_view(out.data(), w));
  }
  return {};
}

// Times `conv` over the rotation, one input a call, round and round.
template <class Conv>
void run(benchmark::State& state, const Rotation& r, std::span<char> out, Conv&& conv) {
  if (const std::string why = unequal_work(r, out, conv); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  const std::vector<std::string_view> inputs(r.inputs.begin(), r.inputs.end());
  std::size_t i = 0;
  std::int64_t bytes = 0;
  const std::uint64_t before = allocations();
  for (auto _ : state) {
    const std::string_view in = inputs[i];
    const char* p = in.data();
    opaque(p);
    std::size_t n = conv(std::string_view(p, in.size()), out);
    keep(n);
    bytes += static_cast<std::int64_t>(in.size());
    if (++i == inputs.size()) i = 0;
  }
  set_allocs(state, before);
  state.SetBytesProcessed(bytes);
}

// run() on one input.
template <class Conv>
void run(benchmark::State& state, std::string_view in, std::string_view expected, std::span<char> out,
         Conv&& conv) {
  run(state, Rotation{{std::string(in)}, {std::string(expected)}}, out, conv);
}

// As run(), for a peer with several candidate names: `make(name)` returns a
// converter (an Iconv, Icu, ...); the first that is ok() and produces
// pgcodec's output for every input is timed and its name becomes the label.
template <class Make>
void run_first_matching(benchmark::State& state, const std::vector<std::string>& names, const Rotation& r,
                        std::span<char> out, Make&& make) {
  std::string why;  // every candidate's reason, in order
  for (const std::string& n : names) {
    auto conv = make(n);
    auto call = [&conv](std::string_view i, std::span<char> o) { return (*conv)(i, o); };
    const std::string no = conv->ok() ? unequal_work(r, out, call) : "does not open";
    if (!no.empty()) {
      why += (why.empty() ? "" : "; ") + n + ": " + no;
      continue;
    }
    state.SetLabel(n);
    run(state, r, out, call);
    return;
  }
  if (why.empty()) why = "no converter for this encoding";
  state.SkipWithError(why.c_str());
}

// A buffer size every implementation's output fits in for `n` input bytes.
inline std::size_t out_size(std::size_t n) { return 4 * n + 64; }

inline std::size_t written_or_failed(const pgcodec::Result& r) noexcept {
  return r.ok() ? r.written : kFailed;
}

// Registration of each file's benchmarks (called from main, in this order).
void register_codec_benchmarks();
void register_seed_benchmarks();
void register_overhead_benchmarks();
void register_cpython_benchmarks();
void register_simdutf_benchmarks();

}  // namespace pgbench
