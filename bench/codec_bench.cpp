// Throughput per encoding, both directions: pgcodec's cached path beside ICU
// (both of its paths), glibc iconv and, when built with it, Mozilla's
// encoding_rs, producing the same output.
//
//   codec/<dir>/<ENC>/native/{8B,100B,16KiB,64KiB}/<impl>
//       all 42: the words of the encoding's script's sample (common.cpp)
//       drawn at random, not one paragraph repeated
//   codec/<dir>/<ENC>/random/16KiB/<impl>
//       all 42: code points drawn uniformly from its BMP repertoire
//   codec/<dir>/GB18030/{fourbyte,korean}/{100B,16KiB}/<impl>
//       Chinese with one character in 20 from CJK Extension A (four bytes
//       in GB18030), and hangul (all four-byte)
//   codec/<dir>/{UTF8,WIN1252}/{english,mixed,western}/{64KiB,100B}/<impl>
//       prose, with the by-name path and ICU to UTF-16 (what an ICU
//       application calls) on decode
//
// Each size is a rotation of distinct inputs (common.hpp, Rotation), one a
// call. Sizes are of the input: the encoding's bytes for decode, their
// UTF-8 for encode (the UTF-8 of exactly those bytes). Implementations:
// pgcodec (a const Codec& resolved once, caller buffer), pgcodec_by_name
// (pgcodec::decode("WIN1252", ...)), icu (ucnv_convertEx bytes -> bytes via
// its pivot), icu2 (through a UTF-16 buffer: ucnv_toUChars + u_strToUTF8, or
// u_strFromUTF8 + ucnv_fromUChars), icu_utf16 (ucnv_toUChars alone), iconv
// (iconv_t opened once), encoding_rs (bench/encoding_rs). The peers' first
// converter name producing pgcodec's exact output for every input is timed
// (the label names it); a peer without one is skipped with the reason.
#include <unicode/ustring.h>

#include <deque>
#include <memory>

#include "common.hpp"
#ifdef PGCODEC_BENCH_HAVE_ENCODING_RS
#include "encoding_rs.hpp"
#endif

namespace pgbench {
namespace {

struct Case {
  Dir dir;
  Encoding enc;
  Rotation rot;
};

std::deque<Case>& cases() {
  static std::deque<Case> all;
  return all;
}

std::vector<char> out_for(const Case* c) { return std::vector<char>(out_size(c->rot.largest_input())); }

void bench_pgcodec(benchmark::State& state, const Case* c) {
  std::vector<char> out = out_for(c);
  const pgcodec::Codec& codec = pgcodec::codec(c->enc);  // resolved once
  if (c->dir == Dir::Decode)
    run(state, c->rot, out, [&codec](std::string_view in, std::span<char> o) {
      return written_or_failed(codec.decode(in, o));
    });
  else
    run(state, c->rot, out, [&codec](std::string_view in, std::span<char> o) {
      return written_or_failed(codec.encode(in, o));
    });
}

void bench_pgcodec_by_name(benchmark::State& state, const Case* c) {
  std::vector<char> out = out_for(c);
  const std::string name(pgcodec::codec(c->enc).name());  // looked up on every call
  const std::string_view nv = name;
  if (c->dir == Dir::Decode)
    run(state, c->rot, out, [nv](std::string_view in, std::span<char> o) {
      return written_or_failed(pgcodec::decode(nv, in, o));
    });
  else
    run(state, c->rot, out, [nv](std::string_view in, std::span<char> o) {
      return written_or_failed(pgcodec::encode(nv, in, o));
    });
}

void bench_iconv(benchmark::State& state, const Case* c) {
  std::vector<char> out = out_for(c);
  run_first_matching(state, iconv_names(c->enc), c->rot, out, [c](const std::string& n) {
    const Pair p = peer_pair(c->dir, n, "UTF-8");
    return std::make_unique<Iconv>(p.to.c_str(), p.from.c_str());
  });
}

void bench_icu(benchmark::State& state, const Case* c) {
  std::vector<char> out = out_for(c);
  run_first_matching(state, icu_names(c->enc), c->rot, out, [c](const std::string& n) {
    const Pair p = peer_pair(c->dir, n, "UTF-8");
    return std::make_unique<Icu>(p.to.c_str(), p.from.c_str());
  });
}

void bench_icu2(benchmark::State& state, const Case* c) {
  std::vector<char> out = out_for(c);
  run_first_matching(state, icu_names(c->enc), c->rot, out,
                     [c](const std::string& n) { return std::make_unique<IcuTwoStep>(c->dir, n.c_str()); });
}

#ifdef PGCODEC_BENCH_HAVE_ENCODING_RS
void bench_encoding_rs(benchmark::State& state, const Case* c) {
  std::vector<char> out = out_for(c);
  run_first_matching(state, encoding_rs_names(c->enc), c->rot, out,
                     [c](const std::string& n) { return std::make_unique<EncodingRs>(c->dir, n); });
}
#endif

// ucnv_toUChars: bytes -> UTF-16, ICU's native form; checked by converting
// its output to UTF-8 once, outside the loop.
void bench_icu_utf16(benchmark::State& state, const Case* c) {
  std::vector<char> check(out_for(c));
  std::string why;
  for (const std::string& name : icu_names(c->enc)) {
    UConverter* cnv = icu_open(name.c_str());
    if (!cnv) continue;
    std::vector<UChar> u16(c->rot.largest_input() + 16);
    const auto cap = static_cast<std::int32_t>(u16.size());
    // As a converter returning the UTF-16 units written; unequal_work
    // compares their UTF-8, converted here, outside the timed loop.
    auto to_utf8 = [cnv, &u16, cap](std::string_view in, std::span<char> o) -> std::size_t {
      UErrorCode err = U_ZERO_ERROR;
      const std::int32_t n =
          ucnv_toUChars(cnv, u16.data(), cap, in.data(), static_cast<std::int32_t>(in.size()), &err);
      std::int32_t len = 0;
      if (U_SUCCESS(err)) u_strToUTF8(o.data(), static_cast<std::int32_t>(o.size()), &len, u16.data(), n, &err);
      return U_SUCCESS(err) ? static_cast<std::size_t>(len) : kFailed;
    };
    const std::string no = unequal_work(c->rot, check, to_utf8);
    if (!no.empty()) {
      why += (why.empty() ? "" : "; ") + name + ": " + no;
      ucnv_close(cnv);
      continue;
    }
    state.SetLabel(name);
    const std::vector<std::string_view> inputs(c->rot.inputs.begin(), c->rot.inputs.end());
    std::size_t i = 0;
    std::int64_t bytes = 0;
    const std::uint64_t before = allocations();
    for (auto _ : state) {
      const std::string_view in = inputs[i];
      const char* p = in.data();
      opaque(p);
      UErrorCode err = U_ZERO_ERROR;
      std::int32_t m = ucnv_toUChars(cnv, u16.data(), cap, p, static_cast<std::int32_t>(in.size()), &err);
      keep(m);
      bytes += static_cast<std::int64_t>(in.size());
      if (++i == inputs.size()) i = 0;
    }
    set_allocs(state, before);
    state.SetBytesProcessed(bytes);
    ucnv_close(cnv);
    return;
  }
  state.SkipWithError(why.empty() ? "no ICU converter opens" : why.c_str());
}

void add(Dir dir, Encoding enc, std::string_view text, std::string_view size, Rotation rot, bool by_name,
         bool utf16) {
  Case& c = cases().emplace_back(Case{dir, enc, std::move(rot)});
  const std::string base = std::string("codec/") + dir_name(dir) + "/" + std::string(pgcodec::codec(enc).name()) +
                           "/" + std::string(text) + "/" + std::string(size) + "/";
  const Case* p = &c;
  benchmark::RegisterBenchmark((base + "pgcodec").c_str(), bench_pgcodec, p);
  if (by_name) benchmark::RegisterBenchmark((base + "pgcodec_by_name").c_str(), bench_pgcodec_by_name, p);
  benchmark::RegisterBenchmark((base + "icu").c_str(), bench_icu, p);
  benchmark::RegisterBenchmark((base + "icu2").c_str(), bench_icu2, p);
  if (utf16 && dir == Dir::Decode)
    benchmark::RegisterBenchmark((base + "icu_utf16").c_str(), bench_icu_utf16, p);
  benchmark::RegisterBenchmark((base + "iconv").c_str(), bench_iconv, p);
#ifdef PGCODEC_BENCH_HAVE_ENCODING_RS
  benchmark::RegisterBenchmark((base + "encoding_rs").c_str(), bench_encoding_rs, p);
#endif
}

// A size and how many distinct inputs of it a rotation holds: enough that
// no predictor learns them (the short ones), few enough to build quickly.
struct Size {
  std::string_view name;
  std::size_t bytes, count;
};
constexpr Size kSizes[] = {{"8B", 8, 2048}, {"100B", 100, 1024}, {"16KiB", 16 * 1024, 8}, {"64KiB", 64 * 1024, 2}};

// `utf8` shuffled (seeded by `seed`) and cut into the rotation of `z`.
Rotation shuffled_rotation(Dir dir, Encoding enc, std::string_view utf8, const Size& z, std::uint64_t seed) {
  // UTF-8 is at most four times as long as the encoding's bytes... and at
  // least three quarters as long (GB18030's four-byte characters): the
  // encoded text covers the rotation with room for the last cut.
  return rotation(dir, enc, shuffled(utf8, 2 * z.bytes * z.count + 64, seed), z.bytes, z.bytes * z.count,
                  z.count);
}

}  // namespace

void register_codec_benchmarks() {
  for (const Dir dir : {Dir::Decode, Dir::Encode}) {
    // Prose in UTF8 and WIN1252, large and short (the lookup cost of the
    // by-name path shows on short strings).
    for (const Encoding enc : {Encoding::UTF8, Encoding::WIN1252}) {
      for (const std::string_view text : {"english", "mixed", "western"}) {
        if (enc == Encoding::WIN1252 && text == "mixed") continue;
        for (const Size& z : {kSizes[3], kSizes[1]})
          add(dir, enc, text, z.name, shuffled_rotation(dir, enc, representable(enc, sample(text)), z, 5),
              z.bytes == 100, true);
      }
    }
    // Every encoding on its own script, at every size, and on random
    // representable text.
    for (const pgcodec::EncodingInfo& info : pgcodec::encodings()) {
      const Encoding e = info.id;
      const std::string native = representable(e, sample(native_script(e)));
      const auto seed = 12 + static_cast<std::uint64_t>(pgcodec::to_int(e));
      for (const Size& z : kSizes) add(dir, e, "native", z.name, shuffled_rotation(dir, e, native, z, seed), false, false);
      add(dir, e, "random", "16KiB", rotation(dir, e, random_text(e, 40 * 1024, seed), 16 * 1024, 0, 2), false,
          false);
    }
    // GB18030's four-byte characters: Chinese with one character in 20
    // from CJK Extension A, and hangul (every syllable four bytes).
    std::string fourbyte;
    {
      const std::vector<char32_t> ext_a = repertoire(Encoding::GB18030, 0x3400, 0x4DB5);
      std::size_t k = 0;
      for (const char32_t cp : code_points(sample("schinese"))) {
        append_utf8(fourbyte, cp);
        if (cp >= 0x4E00 && ++k % 19 == 0) append_utf8(fourbyte, ext_a[(k * 7919) % ext_a.size()]);
      }
    }
    for (const Size& z : {kSizes[1], kSizes[2]}) {
      add(dir, Encoding::GB18030, "fourbyte", z.name, shuffled_rotation(dir, Encoding::GB18030, fourbyte, z, 77),
          false, false);
      add(dir, Encoding::GB18030, "korean", z.name,
          shuffled_rotation(dir, Encoding::GB18030, sample("korean"), z, 78), false, false);
    }
  }
}

}  // namespace pgbench
