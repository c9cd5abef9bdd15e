// pgcodec against CPython's own fast paths, embedded in the same process:
//
//   cpython/decode/UTF8/english/<size>/{pgcodec,python}     PyUnicode_DecodeUTF8
//   cpython/decode/LATIN1/{english,western}/<size>/{pgcodec,python}
//                                                            PyUnicode_DecodeLatin1
//
// size in 100B, 64KiB. CPython builds a str of one byte per character (its
// compact ASCII/Latin-1 form, allocation included); pgcodec writes UTF-8
// into a caller buffer. The str's content is checked against pgcodec's
// output once, before timing.
#include "py.hpp"

#include <deque>

#include "common.hpp"

namespace pgbench {
namespace {

struct Case {
  Encoding enc;
  std::string input, expected;
};

std::deque<Case>& cases() {
  static std::deque<Case> all;
  return all;
}

void b_pgcodec(benchmark::State& state, const Case* c) {
  const pgcodec::Codec& codec = pgcodec::codec(c->enc);
  std::vector<char> out(out_size(c->input.size()));
  run(state, c->input, c->expected, out, [&codec](std::string_view in, std::span<char> o) {
    return written_or_failed(codec.decode(in, o));
  });
}

void b_python(benchmark::State& state, const Case* c) {
  auto decode = [c](const char* p) -> PyObject* {
    const auto n = static_cast<Py_ssize_t>(c->input.size());
    return c->enc == Encoding::UTF8 ? PyUnicode_DecodeUTF8(p, n, "strict")
                                    : PyUnicode_DecodeLatin1(p, n, "strict");
  };
  {
    py::Ref r(decode(c->input.data()));
    if (!py::utf8_equals(r.p, c->expected)) {
      PyErr_Clear();
      return state.SkipWithError("Python failed or differs from pgcodec");
    }
  }
  const std::uint64_t before = allocations();
  for (auto _ : state) {
    const char* p = c->input.data();
    opaque(p);
    PyObject* r = decode(p);
    keep(r);
    Py_XDECREF(r);
  }
  set_allocs(state, before);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(c->input.size()));
}

}  // namespace

void register_cpython_benchmarks() {
  const struct {
    Encoding enc;
    std::string_view text;
  } rows[] = {{Encoding::UTF8, "english"}, {Encoding::LATIN1, "english"},
              {Encoding::LATIN1, "western"}};
  for (const auto& [enc, text] : rows) {
    for (const auto& [size_name, size] :
         {std::pair<std::string_view, std::size_t>{"100B", 100}, {"64KiB", 64 * 1024}}) {
      Case& c = cases().emplace_back();
      c.enc = enc;
      c.input = encoded_to_size(enc, representable(enc, sample(text)), size);
      c.expected = pg_convert(Dir::Decode, enc, c.input);
      const std::string base = "cpython/decode/" + std::string(pgcodec::codec(enc).name()) + "/" +
                               std::string(text) + "/" + std::string(size_name) + "/";
      benchmark::RegisterBenchmark((base + "pgcodec").c_str(), b_pgcodec, &c);
      benchmark::RegisterBenchmark((base + "python").c_str(), b_python, &c);
    }
  }
}

}  // namespace pgbench
