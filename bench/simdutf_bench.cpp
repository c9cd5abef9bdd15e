// pgcodec against simdutf, when the build has it (PGCODEC_BENCH_SIMDUTF_DIR,
// a simdutf source tree outside the repository; without it these rows are
// missing and bench/RESULTS.md says so).
//
//   simdutf/utf8_validate_copy/<text>/{pgcodec,simdutf}
//       pgcodec's UTF8 decode (validation by PostgreSQL's rules, NUL
//       rejected, copy) against simdutf::validate_utf8 + memcpy + memchr
//       for a NUL; text in ascii, english, japanese, russian, random
//       (U+0001..U+0FFF), and english-8B, english-100B, mixed-8B,
//       mixed-100B: rotations of short strings (common.hpp, Rotation) of
//       the samples' words drawn at random
//   simdutf/latin1_to_utf8/<text>/{pgcodec,simdutf}
//       LATIN1 decode against simdutf::convert_latin1_to_utf8
//   simdutf/utf8_to_latin1/<text>/{pgcodec,simdutf}
//       LATIN1 encode against simdutf::convert_utf8_to_latin1
//       (text in english, western, random)
// Inputs are 64 KiB (the Latin-1 bytes, or their UTF-8 for utf8_to_latin1). simdutf's Latin-1 conversions do
// not look for NUL; pgcodec's do (PostgreSQL rejects it in every encoding).
#include "common.hpp"

#ifdef PGCODEC_BENCH_HAVE_SIMDUTF
#include <simdutf.h>

#include <cstring>
#include <deque>
#include <random>
#endif

namespace pgbench {

#ifdef PGCODEC_BENCH_HAVE_SIMDUTF
namespace {

constexpr std::size_t kSize = 64 * 1024;

enum class Op { Utf8, Latin1ToUtf8, Utf8ToLatin1 };

struct Case {
  Op op;
  Rotation rot;
};

std::deque<Case>& cases() {
  static std::deque<Case> all;
  return all;
}

void b_pgcodec(benchmark::State& state, const Case* c) {
  std::vector<char> out(out_size(c->rot.largest_input()));
  const pgcodec::Codec& codec =
      pgcodec::codec(c->op == Op::Utf8 ? Encoding::UTF8 : Encoding::LATIN1);
  if (c->op == Op::Utf8ToLatin1)
    run(state, c->rot, out, [&codec](std::string_view in, std::span<char> o) {
      return written_or_failed(codec.encode(in, o));
    });
  else
    run(state, c->rot, out, [&codec](std::string_view in, std::span<char> o) {
      return written_or_failed(codec.decode(in, o));
    });
}

void b_simdutf(benchmark::State& state, const Case* c) {
  std::vector<char> out(out_size(c->rot.largest_input()));
  switch (c->op) {
    case Op::Utf8:
      run(state, c->rot, out, [](std::string_view in, std::span<char> o) {
        if (!simdutf::validate_utf8(in.data(), in.size())) return kFailed;
        if (std::memchr(in.data(), 0, in.size())) return kFailed;
        std::memcpy(o.data(), in.data(), in.size());
        return in.size();
      });
      break;
    case Op::Latin1ToUtf8:
      run(state, c->rot, out, [](std::string_view in, std::span<char> o) {
        return simdutf::convert_latin1_to_utf8(in.data(), in.size(), o.data());
      });
      break;
    case Op::Utf8ToLatin1:
      run(state, c->rot, out, [](std::string_view in, std::span<char> o) {
        const std::size_t n = simdutf::convert_utf8_to_latin1(in.data(), in.size(), o.data());
        return n == 0 && !in.empty() ? kFailed : n;
      });
      break;
  }
}

void add(Op op, const char* op_name, std::string_view text, Rotation rot) {
  Case& c = cases().emplace_back(Case{op, std::move(rot)});
  const std::string base =
      std::string("simdutf/") + op_name + "/" + std::string(text) + "/";
  benchmark::RegisterBenchmark((base + "pgcodec").c_str(), b_pgcodec, &c);
  benchmark::RegisterBenchmark((base + "simdutf").c_str(), b_simdutf, &c);
}

void add(Op op, const char* op_name, std::string_view text, std::string input) {
  const Dir d = op == Op::Utf8ToLatin1 ? Dir::Encode : Dir::Decode;
  const Encoding e = op == Op::Utf8 ? Encoding::UTF8 : Encoding::LATIN1;
  std::string expected = pg_convert(d, e, input);
  add(op, op_name, text, Rotation{{std::move(input)}, {std::move(expected)}});
}

// Printable ASCII, uniformly random.
std::string random_ascii(std::size_t n) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> pick(0x20, 0x7E);
  std::string s(n, ' ');
  for (char& ch : s) ch = static_cast<char>(pick(rng));
  return s;
}

}  // namespace

void register_simdutf_benchmarks() {
  add(Op::Utf8, "utf8_validate_copy", "ascii", random_ascii(kSize));
  add(Op::Utf8, "utf8_validate_copy", "english", repeat_to(sample("english"), kSize));
  add(Op::Utf8, "utf8_validate_copy", "japanese", repeat_to(sample("japanese"), kSize));
  add(Op::Utf8, "utf8_validate_copy", "russian",
      repeat_to(representable(Encoding::KOI8R, sample("cyrillic")), kSize));
  add(Op::Utf8, "utf8_validate_copy", "random",
      repeat_to(random_text(Encoding::UTF8, kSize, 99, 1, 0xFFF), kSize));
  for (const std::string_view text : {"english", "mixed"})
    for (const std::size_t size : {std::size_t{8}, std::size_t{100}})
      add(Op::Utf8, "utf8_validate_copy", std::string(text) + "-" + std::to_string(size) + "B",
          rotation(Dir::Decode, Encoding::UTF8, shuffled(sample(text), 64 * 1024, 3), size, 0, 2048));
  const struct {
    std::string_view name;
    std::string utf8;
  } latin1_texts[] = {
      {"english", std::string(sample("english"))},
      {"western", representable(Encoding::LATIN1, sample("western"))},
      {"random", random_text(Encoding::LATIN1, kSize, 98)},
  };
  for (const auto& [name, utf8] : latin1_texts) {
    const std::string bytes = encoded_to_size(Encoding::LATIN1, utf8, kSize);
    add(Op::Latin1ToUtf8, "latin1_to_utf8", name, bytes);
    add(Op::Utf8ToLatin1, "utf8_to_latin1", name, pg_convert(Dir::Decode, Encoding::LATIN1, bytes));
  }
}
#else
void register_simdutf_benchmarks() {}
#endif

}  // namespace pgbench
