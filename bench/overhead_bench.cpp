// The fixed cost of a call, which dominates short strings:
//
//   fixed/<dir>/<ENC>/8ascii/pgcodec           8 ASCII characters through the
//                                              cached path, every encoding
//   fixed/<dir>/<ENC>/8ascii/pgcodec_by_name   the same by name (UTF8, SJIS,
//                                              WIN1252, GB18030 only)
//   find_codec/<name>                          pgcodec::find_codec(name), names
//                                              as clients spell them
#include "common.hpp"

namespace pgbench {
namespace {

constexpr std::string_view kEight = "SELECT 1";
static_assert(kEight.size() == 8);

void fixed_cached(benchmark::State& state, Encoding e, Dir d) {
  const pgcodec::Codec& c = pgcodec::codec(e);
  char out[64];
  if (d == Dir::Decode)
    run(state, kEight, kEight, out, [&c](std::string_view in, std::span<char> o) {
      return written_or_failed(c.decode(in, o));
    });
  else
    run(state, kEight, kEight, out, [&c](std::string_view in, std::span<char> o) {
      return written_or_failed(c.encode(in, o));
    });
}

void fixed_by_name(benchmark::State& state, Encoding e, Dir d) {
  const std::string name(pgcodec::codec(e).name());
  const std::string_view nv = name;
  char out[64];
  if (d == Dir::Decode)
    run(state, kEight, kEight, out, [nv](std::string_view in, std::span<char> o) {
      return written_or_failed(pgcodec::decode(nv, in, o));
    });
  else
    run(state, kEight, kEight, out, [nv](std::string_view in, std::span<char> o) {
      return written_or_failed(pgcodec::encode(nv, in, o));
    });
}

void find(benchmark::State& state, const char* name) {
  const std::string_view n = name;
  if (!pgcodec::find_codec(n)) return state.SkipWithError("unknown name");
  const std::uint64_t before = allocations();
  for (auto _ : state) {
    const char* p = n.data();
    opaque(p);
    const pgcodec::Codec* c = pgcodec::find_codec(std::string_view(p, n.size()));
    keep(c);
  }
  set_allocs(state, before);
}

}  // namespace

void register_overhead_benchmarks() {
  for (const Dir d : {Dir::Decode, Dir::Encode}) {
    for (const pgcodec::EncodingInfo& info : pgcodec::encodings()) {
      const std::string base =
          std::string("fixed/") + dir_name(d) + "/" + std::string(info.name) + "/8ascii/";
      benchmark::RegisterBenchmark((base + "pgcodec").c_str(), fixed_cached, info.id, d);
      if (info.id == Encoding::UTF8 || info.id == Encoding::SJIS ||
          info.id == Encoding::WIN1252 || info.id == Encoding::GB18030)
        benchmark::RegisterBenchmark((base + "pgcodec_by_name").c_str(), fixed_by_name, info.id,
                                     d);
    }
  }
  for (const char* name : {"UTF8", "utf-8", "SJIS", "Shift_JIS", "WIN1252", "windows-1252",
                           "LATIN1", "ISO-8859-1", "GB18030", "koi8-r"})
    benchmark::RegisterBenchmark((std::string("find_codec/") + name).c_str(), find, name);
}

}  // namespace pgbench
