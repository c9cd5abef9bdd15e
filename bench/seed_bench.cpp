// The seed's experiment: the cost per string of decoding many short strings,
// as a driver does for every text column of every row.
//
//   seed/decode/<ENC>/<N>chars/<impl>     ENC in UTF8, SJIS, GBK, WIN1252; N in 100, 1000
//
// kStrings strings of N characters, code points uniform in U+0001..U+0FFF
// (for SJIS, GBK and WIN1252: only those the encoding maps and that round
// trip). Each iteration decodes the next string, so the time per iteration
// is the cost per string. Implementations:
//   pgcodec             a const Codec& resolved once, caller buffer
//   pgcodec_by_name     pgcodec::decode("SJIS", ...)
//   pgcodec_find_codec  pgcodec::find_codec("SJIS")->decode(...)
//   icu                 ucnv_convertEx to UTF-8, converters opened once
//   icu_open            the same with both converters opened and closed per string
//   icu_u_strFromUTF8   (UTF8 only) to UTF-16, ICU's form
//   iconv               iconv_t opened once;  iconv_open: opened per string
//   python_DecodeUTF8   (UTF8 only) PyUnicode_DecodeUTF8 -> str
//   python_Decode       PyUnicode_Decode(..., name, "strict") -> str
//   python_getdecoder   codecs.getdecoder(name) looked up once, called per
//                       string on a bytes object made before timing
// Python's codec names: utf_8, shift_jis, gbk, cp1252 (harness/oracle's
// psycopg 3 choices for SJIS and GBK; cp1252 for WIN1252). Outputs in
// another form (UTF-16, str) are checked by converting them to UTF-8 once,
// before timing; every string of a set is checked.
#include "py.hpp"

#include <unicode/ustring.h>

#include <deque>
#include <memory>

#include "common.hpp"

namespace pgbench {
namespace {

constexpr std::size_t kStrings = 1000;

struct Set {
  Encoding enc;
  std::string name;     // pgcodec's name, for the by-name paths
  std::string py_name;  // Python's codec
  std::vector<std::string> in, expected;
  std::vector<py::Ref> py_bytes;
  std::size_t longest = 0;
};

std::deque<Set>& sets() {
  static std::deque<Set> all;
  return all;
}

// Times f(i) over the strings in turn; f returns something to keep.
template <class F>
void time_strings(benchmark::State& state, std::size_t n, F&& f) {
  const std::uint64_t before = allocations();
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = f(i);
    keep(r);
    if (++i == n) i = 0;
  }
  set_allocs(state, before);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// Checks conv(in, out) -> bytes written on every string, then times it.
template <class Conv>
bool check_and_time(benchmark::State& state, const Set& s, Conv&& conv) {
  std::vector<char> out(out_size(s.longest));
  for (std::size_t i = 0; i < s.in.size(); ++i) {
    const std::size_t w = conv(std::string_view(s.in[i]), std::span<char>(out));
    if (w == kFailed || std::string_view(out.data(), w) != s.expected[i]) return false;
  }
  time_strings(state, s.in.size(), [&](std::size_t i) {
    return conv(std::string_view(s.in[i]), std::span<char>(out));
  });
  return true;
}

// The first of `names` whose converter (made by make(name)) gives pgcodec's
// output on every string; empty if none, with the reason in `why`.
template <class Make>
std::string first_matching(const Set& s, const std::vector<std::string>& names, Make&& make,
                           std::string& why) {
  std::vector<char> out(out_size(s.longest));
  why.clear();
  auto note = [&why](const std::string& r) { why += (why.empty() ? "" : "; ") + r; };
  for (const std::string& n : names) {
    auto cnv = make(n);
    if (!cnv->ok()) {
      note(n + ": does not open");
      continue;
    }
    bool same = true;
    for (std::size_t i = 0; same && i < s.in.size(); ++i) {
      const std::size_t w = (*cnv)(s.in[i], out);
      same = w != kFailed && std::string_view(out.data(), w) == s.expected[i];
      if (w == kFailed) note(n + ": fails on string " + std::to_string(i));
      else if (!same)
        note(n + ": differs on string " + std::to_string(i) + " " +
             describe_difference(s.expected[i], std::string_view(out.data(), w)));
    }
    if (same) return n;
  }
  if (why.empty()) why = "no converter for this encoding";
  return {};
}

std::string icu_name_for(const Set& s, std::string& why) {
  return first_matching(s, icu_names(s.enc), [](const std::string& n) {
    return std::make_unique<Icu>("UTF-8", n.c_str());
  }, why);
}

std::string iconv_name_for(const Set& s, std::string& why) {
  return first_matching(s, iconv_names(s.enc), [](const std::string& n) {
    return std::make_unique<Iconv>("UTF-8", n.c_str());
  }, why);
}

void skip_unless(benchmark::State& state, bool ok, const char* why) {
  if (!ok) state.SkipWithError(why);
}

void b_pgcodec(benchmark::State& state, const Set* s) {
  const pgcodec::Codec& c = pgcodec::codec(s->enc);
  skip_unless(state, check_and_time(state, *s, [&c](std::string_view in, std::span<char> o) {
                return written_or_failed(c.decode(in, o));
              }), "output differs from pgcodec's");
}

void b_by_name(benchmark::State& state, const Set* s) {
  const std::string_view name = s->name;
  skip_unless(state, check_and_time(state, *s, [name](std::string_view in, std::span<char> o) {
                return written_or_failed(pgcodec::decode(name, in, o));
              }), "output differs from pgcodec's");
}

void b_find_codec(benchmark::State& state, const Set* s) {
  const std::string_view name = s->name;
  skip_unless(state, check_and_time(state, *s, [name](std::string_view in, std::span<char> o) {
                const pgcodec::Codec* c = pgcodec::find_codec(name);
                return c ? written_or_failed(c->decode(in, o)) : kFailed;
              }), "output differs from pgcodec's");
}

void b_icu(benchmark::State& state, const Set* s) {
  std::string why;
  const std::string n = icu_name_for(*s, why);
  if (n.empty()) return state.SkipWithError(why.c_str());
  state.SetLabel(n);
  Icu cnv("UTF-8", n.c_str());
  check_and_time(state, *s, [&cnv](std::string_view in, std::span<char> o) { return cnv(in, o); });
}

void b_icu_open(benchmark::State& state, const Set* s) {
  std::string why;
  const std::string n = icu_name_for(*s, why);
  if (n.empty()) return state.SkipWithError(why.c_str());
  state.SetLabel(n);
  check_and_time(state, *s, [&n](std::string_view in, std::span<char> o) {
    Icu cnv("UTF-8", n.c_str());
    return cnv.ok() ? cnv(in, o) : kFailed;
  });
}

void b_icu_from_utf8(benchmark::State& state, const Set* s) {
  std::vector<UChar> u16(s->longest + 16);
  const auto cap = static_cast<std::int32_t>(u16.size());
  auto conv = [&u16, cap](std::string_view in) -> std::int32_t {
    UErrorCode err = U_ZERO_ERROR;
    std::int32_t len = 0;
    u_strFromUTF8(u16.data(), cap, &len, in.data(), static_cast<std::int32_t>(in.size()), &err);
    return U_SUCCESS(err) ? len : -1;
  };
  std::string check(out_size(s->longest), '\0');
  for (std::size_t i = 0; i < s->in.size(); ++i) {
    const std::int32_t n = conv(s->in[i]);
    UErrorCode err = U_ZERO_ERROR;
    std::int32_t len = 0;
    if (n >= 0)
      u_strToUTF8(check.data(), static_cast<std::int32_t>(check.size()), &len, u16.data(), n,
                  &err);
    if (n < 0 || U_FAILURE(err) ||
        std::string_view(check.data(), static_cast<std::size_t>(len)) != s->expected[i])
      return state.SkipWithError("u_strFromUTF8 failed or differs from pgcodec");
  }
  time_strings(state, s->in.size(), [&](std::size_t i) { return conv(s->in[i]); });
}

void b_iconv(benchmark::State& state, const Set* s) {
  std::string why;
  const std::string n = iconv_name_for(*s, why);
  if (n.empty()) return state.SkipWithError(why.c_str());
  state.SetLabel(n);
  Iconv cnv("UTF-8", n.c_str());
  check_and_time(state, *s, [&cnv](std::string_view in, std::span<char> o) { return cnv(in, o); });
}

void b_iconv_open(benchmark::State& state, const Set* s) {
  std::string why;
  const std::string n = iconv_name_for(*s, why);
  if (n.empty()) return state.SkipWithError(why.c_str());
  state.SetLabel(n);
  check_and_time(state, *s, [&n](std::string_view in, std::span<char> o) {
    Iconv cnv("UTF-8", n.c_str());
    return cnv.ok() ? cnv(in, o) : kFailed;
  });
}

// Python: f(i) returns a new reference to a str, or nullptr.
template <class F>
void time_python(benchmark::State& state, const Set& s, F&& f) {
  for (std::size_t i = 0; i < s.in.size(); ++i) {
    py::Ref r(f(i));
    if (!py::utf8_equals(r.p, s.expected[i])) {
      PyErr_Clear();
      return state.SkipWithError("Python failed or differs from pgcodec");
    }
  }
  time_strings(state, s.in.size(), [&](std::size_t i) {
    PyObject* r = f(i);
    Py_XDECREF(r);
    return r != nullptr;
  });
}

void b_py_utf8(benchmark::State& state, const Set* s) {
  time_python(state, *s, [s](std::size_t i) {
    return PyUnicode_DecodeUTF8(s->in[i].data(), static_cast<Py_ssize_t>(s->in[i].size()),
                                "strict");
  });
}

void b_py_decode(benchmark::State& state, const Set* s) {
  state.SetLabel(s->py_name);
  time_python(state, *s, [s](std::size_t i) {
    return PyUnicode_Decode(s->in[i].data(), static_cast<Py_ssize_t>(s->in[i].size()),
                            s->py_name.c_str(), "strict");
  });
}

void b_py_getdecoder(benchmark::State& state, const Set* s) {
  state.SetLabel(s->py_name);
  py::Ref codecs(PyImport_ImportModule("codecs"));
  py::Ref dec(codecs.p ? PyObject_CallMethod(codecs.p, "getdecoder", "s", s->py_name.c_str())
                       : nullptr);
  if (!dec.p) {
    PyErr_Clear();
    return state.SkipWithError("codecs.getdecoder failed");
  }
  time_python(state, *s, [s, &dec](std::size_t i) -> PyObject* {
    py::Ref t(PyObject_CallOneArg(dec.p, s->py_bytes[i].p));  // (str, consumed)
    if (!t.p || !PyTuple_Check(t.p)) return nullptr;
    PyObject* str = PyTuple_GET_ITEM(t.p, 0);
    Py_INCREF(str);
    return str;
  });
}

}  // namespace

void register_seed_benchmarks() {
  const struct {
    Encoding enc;
    const char* py;
  } encs[] = {{Encoding::UTF8, "utf_8"},
              {Encoding::SJIS, "shift_jis"},
              {Encoding::GBK, "gbk"},
              {Encoding::WIN1252, "cp1252"}};
  for (const auto& [enc, py_name] : encs) {
    for (const std::size_t chars : {std::size_t{100}, std::size_t{1000}}) {
      Set& s = sets().emplace_back();
      s.enc = enc;
      s.name = std::string(pgcodec::codec(enc).name());
      s.py_name = py_name;
      for (std::size_t i = 0; i < kStrings; ++i) {
        const std::string utf8 = random_text(enc, chars, 1000 * chars + i, 1, 0xFFF);
        s.in.push_back(pg_convert(Dir::Encode, enc, utf8));
        s.expected.push_back(utf8);
        s.longest = std::max(s.longest, s.in.back().size());
        s.py_bytes.emplace_back(PyBytes_FromStringAndSize(
            s.in.back().data(), static_cast<Py_ssize_t>(s.in.back().size())));
      }
      const std::string base =
          "seed/decode/" + s.name + "/" + std::to_string(chars) + "chars/";
      const Set* p = &s;
      auto reg = [&base, p](const char* impl, void (*fn)(benchmark::State&, const Set*)) {
        benchmark::RegisterBenchmark((base + impl).c_str(), fn, p);
      };
      reg("pgcodec", b_pgcodec);
      reg("pgcodec_by_name", b_by_name);
      reg("pgcodec_find_codec", b_find_codec);
      reg("icu", b_icu);
      reg("icu_open", b_icu_open);
      if (enc == Encoding::UTF8) reg("icu_u_strFromUTF8", b_icu_from_utf8);
      reg("iconv", b_iconv);
      reg("iconv_open", b_iconv_open);
      if (enc == Encoding::UTF8) reg("python_DecodeUTF8", b_py_utf8);
      reg("python_Decode", b_py_decode);
      reg("python_getdecoder", b_py_getdecoder);
    }
  }
}

}  // namespace pgbench
