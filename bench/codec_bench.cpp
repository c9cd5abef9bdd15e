// Throughput per encoding, both directions: pgcodec's cached path beside ICU
// and glibc iconv producing the same output.
//
//   codec/<dir>/<ENC>/native/16KiB/<impl>   all 42, the encoding's own script
//   codec/<dir>/<ENC>/random/16KiB/<impl>   all 42, code points drawn uniformly
//                                           from its BMP repertoire
//   codec/<dir>/{UTF8,WIN1252}/{english,mixed,western}/{64KiB,100B}/<impl>
//                                           prose, with the by-name path and
//                                           ICU to UTF-16 (what an ICU
//                                           application calls) on decode
//
// Input sizes are of the input: the encoding's bytes for decode, their UTF-8
// for encode (the UTF-8 of exactly those bytes). Implementations:
// pgcodec (a const Codec& resolved once, caller buffer), pgcodec_by_name
// (pgcodec::decode("WIN1252", ...)), icu (ucnv_convertEx bytes -> bytes via
// UTF-16, converters opened once), icu_utf16 (ucnv_toUChars), iconv
// (iconv_t opened once). The peers' first converter name producing
// pgcodec's exact output is timed (the label names it); a peer without one
// is skipped with the reason.
#include <unicode/ustring.h>

#include <deque>
#include <memory>

#include "common.hpp"

namespace pgbench {
namespace {

constexpr std::size_t kCase = 16 * 1024;

struct Case {
  Dir dir;
  Encoding enc;
  std::string input;
  std::string expected;
};

std::deque<Case>& cases() {
  static std::deque<Case> all;
  return all;
}

void bench_pgcodec(benchmark::State& state, const Case* c) {
  std::vector<char> out(out_size(c->input.size()));
  const pgcodec::Codec& codec = pgcodec::codec(c->enc);  // resolved once
  if (c->dir == Dir::Decode)
    run(state, c->input, c->expected, out, [&codec](std::string_view in, std::span<char> o) {
      return written_or_failed(codec.decode(in, o));
    });
  else
    run(state, c->input, c->expected, out, [&codec](std::string_view in, std::span<char> o) {
      return written_or_failed(codec.encode(in, o));
    });
}

void bench_pgcodec_by_name(benchmark::State& state, const Case* c) {
  std::vector<char> out(out_size(c->input.size()));
  const std::string name(pgcodec::codec(c->enc).name());  // looked up on every call
  const std::string_view nv = name;
  if (c->dir == Dir::Decode)
    run(state, c->input, c->expected, out, [nv](std::string_view in, std::span<char> o) {
      return written_or_failed(pgcodec::decode(nv, in, o));
    });
  else
    run(state, c->input, c->expected, out, [nv](std::string_view in, std::span<char> o) {
      return written_or_failed(pgcodec::encode(nv, in, o));
    });
}

void bench_iconv(benchmark::State& state, const Case* c) {
  std::vector<char> out(out_size(c->input.size()));
  run_first_matching(state, iconv_names(c->enc), c->input, c->expected, out,
                     [c](const std::string& n) {
                       const Pair p = peer_pair(c->dir, n, "UTF-8");
                       return std::make_unique<Iconv>(p.to.c_str(), p.from.c_str());
                     });
}

void bench_icu(benchmark::State& state, const Case* c) {
  std::vector<char> out(out_size(c->input.size()));
  run_first_matching(state, icu_names(c->enc), c->input, c->expected, out,
                     [c](const std::string& n) {
                       const Pair p = peer_pair(c->dir, n, "UTF-8");
                       return std::make_unique<Icu>(p.to.c_str(), p.from.c_str());
                     });
}

// ucnv_toUChars: bytes -> UTF-16, ICU's native form; checked by converting
// its output to UTF-8 once, outside the loop.
void bench_icu_utf16(benchmark::State& state, const Case* c) {
  for (const std::string& name : icu_names(c->enc)) {
    UConverter* cnv = icu_open(name.c_str());
    if (!cnv) continue;
    std::vector<UChar> u16(c->input.size() + 16);
    const auto cap = static_cast<std::int32_t>(u16.size());
    auto to_u16 = [cnv, &u16, cap](std::string_view in) -> std::int32_t {
      UErrorCode err = U_ZERO_ERROR;
      const std::int32_t n = ucnv_toUChars(cnv, u16.data(), cap, in.data(),
                                           static_cast<std::int32_t>(in.size()), &err);
      return U_SUCCESS(err) ? n : -1;
    };
    const std::int32_t n = to_u16(c->input);
    std::string check(out_size(c->input.size()), '\0');
    UErrorCode err = U_ZERO_ERROR;
    std::int32_t len = 0;
    if (n >= 0)
      u_strToUTF8(check.data(), static_cast<std::int32_t>(check.size()), &len, u16.data(), n,
                  &err);
    if (n < 0 || U_FAILURE(err) ||
        std::string_view(check.data(), static_cast<std::size_t>(len)) != c->expected) {
      ucnv_close(cnv);
      continue;
    }
    state.SetLabel(name);
    const std::string_view in = c->input;
    const std::uint64_t before = allocations();
    for (auto _ : state) {
      const char* p = in.data();
      opaque(p);
      std::int32_t m = to_u16(std::string_view(p, in.size()));
      keep(m);
      }
    set_allocs(state, before);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(in.size()));
    ucnv_close(cnv);
    return;
  }
  state.SkipWithError("no ICU converter gives pgcodec's output");
}

void add(Dir dir, Encoding enc, std::string_view text, std::string_view size,
         std::string encoded, bool by_name, bool utf16) {
  Case& c = cases().emplace_back();
  c.dir = dir;
  c.enc = enc;
  if (dir == Dir::Decode) {
    c.expected = pg_convert(Dir::Decode, enc, encoded);
    c.input = std::move(encoded);
  } else {
    c.input = pg_convert(Dir::Decode, enc, encoded);
    c.expected = std::move(encoded);
  }
  const std::string base = std::string("codec/") + dir_name(dir) + "/" +
                           std::string(pgcodec::codec(enc).name()) + "/" + std::string(text) +
                           "/" + std::string(size) + "/";
  const Case* p = &c;
  benchmark::RegisterBenchmark((base + "pgcodec").c_str(), bench_pgcodec, p);
  if (by_name) benchmark::RegisterBenchmark((base + "pgcodec_by_name").c_str(), bench_pgcodec_by_name, p);
  benchmark::RegisterBenchmark((base + "icu").c_str(), bench_icu, p);
  if (utf16 && dir == Dir::Decode)
    benchmark::RegisterBenchmark((base + "icu_utf16").c_str(), bench_icu_utf16, p);
  benchmark::RegisterBenchmark((base + "iconv").c_str(), bench_iconv, p);
}

}  // namespace

void register_codec_benchmarks() {
  for (const Dir dir : {Dir::Decode, Dir::Encode}) {
    // Prose in UTF8 and WIN1252, large and short (the lookup cost of the
    // by-name path shows on short strings).
    for (const Encoding enc : {Encoding::UTF8, Encoding::WIN1252}) {
      for (const std::string_view text : {"english", "mixed", "western"}) {
        if (enc == Encoding::WIN1252 && text == "mixed") continue;
        for (const auto& [size_name, size] :
             {std::pair<std::string_view, std::size_t>{"64KiB", 64 * 1024}, {"100B", 100}})
          add(dir, enc, text, size_name, encoded_to_size(enc, sample(text), size), size == 100,
              true);
      }
    }
    // Every encoding on its own script and on random representable text.
    for (const pgcodec::EncodingInfo& info : pgcodec::encodings()) {
      const Encoding e = info.id;
      add(dir, e, "native", "16KiB",
          encoded_to_size(e, representable(e, sample(native_script(e))), kCase), false, false);
      add(dir, e, "random", "16KiB",
          encoded_to_size(e, random_text(e, kCase, 12 + static_cast<unsigned>(pgcodec::to_int(e))),
                          kCase),
          false, false);
    }
  }
}

}  // namespace pgbench
