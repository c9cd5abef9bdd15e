// Properties of the codecs that hold for every encoding and every kernel:
// text and bytes round-trip but for the exceptions the tables enumerate,
// the fast path equals the table model (offsets, quoted bytes, messages),
// the paths agree, streaming equals one-shot decoding, Replace mode
// replaces exactly what check() reports, check() equals repeated strict
// conversion, char_length finds character starts, the kernels agree, and
// buffers are never overrun. Each TEST_P is one property for one encoding; it runs
// rc::check once per kernel in kernels::available(). The number of cases
// comes from RC_PARAMS (set per test by props/CMakeLists.txt).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "core/byte_rules.hpp"
#include "core/generators.hpp"
#include "core/model.hpp"
#include "core/outcome.hpp"
#include "core/text.hpp"
#include "inputs.hpp"
#include "kernels/kernels.hpp"
#include "pgcodec/codec.hpp"
#include "pgcodec/pgcodec.h"
#include "pgcodec/stream.hpp"

namespace pgcodec {
// How RapidCheck prints an ErrorMode in a counterexample.
inline void showValue(ErrorMode m, std::ostream& os) {
  os << (m == ErrorMode::Strict ? "Strict" : "Replace");
}
}  // namespace pgcodec

namespace pgcodec::props {
namespace {

using harness::Category;
using harness::classify;
using harness::describe;
using harness::from_result;
using harness::Outcome;

// Fails the property unless classify() finds the outcomes equal.
void expect_agree(const Outcome& a, const Outcome& b) {
  const Category c = classify(a, b);
  if (c != Category::Agree) RC_FAIL(std::string(to_string(c)) + ": " + describe(a) + " vs " + describe(b));
}

Outcome decode(const Codec& c, std::string_view in) {
  std::vector<char> out(std::max<std::size_t>(*c.max_decoded_size(in.size()), 1));
  return from_result(c.decode(in, out), {out.data(), out.size()});
}
Outcome encode(const Codec& c, std::string_view in) {
  std::vector<char> out(std::max<std::size_t>(*c.max_encoded_size(in.size()), 1));
  return from_result(c.encode(in, out), {out.data(), out.size()});
}

// One conversion into a buffer of max_*_size bytes: the result and the
// bytes it wrote.
struct Converted {
  Result r;
  std::string out;
};
Converted convert(const Codec& c, bool decoding, std::string_view in, ErrorMode mode) {
  std::vector<char> out(std::max<std::size_t>(
      decoding ? *c.max_decoded_size(in.size()) : *c.max_encoded_size(in.size()), 1));
  const Result r = decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
  RC_ASSERT(r.written <= out.size());
  return {r, std::string(out.data(), r.written)};
}

// Logs the input with the counterexample, in hex with the encoding named:
// "SJIS decode input: 82 a0 41".
void show_input(const Codec& c, bool decoding, std::string_view in) {
  RC_LOG() << c.name() << (decoding ? " decode" : " encode") << " input: " << harness::hex_bytes(in) << "\n";
}

// The code points of the well-formed characters in UTF-8 that may hold
// malformed sequences.
std::vector<std::uint32_t> well_formed_code_points(std::string_view s) {
  std::vector<std::uint32_t> cps;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = harness::well_formed_length(Encoding::UTF8, s.substr(i));
    if (!n) {
      ++i;
      continue;
    }
    const auto v = harness::code_points_of(s.substr(i, n));
    cps.insert(cps.end(), v.begin(), v.end());
    i += n;
  }
  return cps;
}

// The C API's result as a pgcodec::Result, for from_result().
Result from_c(const pgcodec_result& r) {
  Result x;
  x.consumed = r.consumed;
  x.written = r.written;
  x.status = static_cast<Status>(r.status);
  if (x.status == Status::Error) {
    x.error.kind = static_cast<ErrorKind>(r.error_kind);
    x.error.encoding = static_cast<Encoding>(r.error_encoding);
    x.error.target = static_cast<Encoding>(r.error_target);
    x.error.offset = r.error_offset;
    x.error.length = static_cast<std::uint8_t>(r.error_length);
    x.error.skip = static_cast<std::uint8_t>(r.error_skip);
    std::memcpy(x.error.bytes.data(), r.error_bytes, sizeof r.error_bytes);
  }
  return x;
}

class Props : public ::testing::TestWithParam<Encoding> {
 protected:
  const Codec& codec() const { return pgcodec::codec(GetParam()); }
  // Runs the property under every kernel.
  template <class Property>
  void for_each_kernel(const char* what, Property p) {
    const kernels::Kernel& saved = kernels::active();
    for (const kernels::Kernel& k : kernels::available()) {
      kernels::set_active(k);
      const std::string name = std::string(what) + " [" + std::string(codec().name()) + ", " + k.name + "]";
      EXPECT_TRUE(rc::check(name, p)) << name;
    }
    kernels::set_active(saved);
  }
};

// 3. Model: the fast path equals the table model (harness/core, which
// shares no code with the codecs) on strings with and without errors: the
// output, or the error's kind, offset, quoted bytes, SQLSTATE and message,
// and what was converted before it.
TEST_P(Props, FastPathEqualsModel) {
  const Codec& c = codec();
  const harness::TableModel& m = harness::model(c.encoding());
  for_each_kernel("model", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const std::string in = decoding ? *bytes_in(c.encoding()) : *utf8_for(c.encoding());
    show_input(c, decoding, in);
    const harness::ClientRun want = decoding ? m.client_decode(in) : m.client_encode(in);
    const Converted got = convert(c, decoding, in, ErrorMode::Strict);
    RC_ASSERT(got.r.status != Status::OutputFull);
    expect_agree(want.strict, from_result(got.r, got.out));
    if (!want.strict.ok()) {
      RC_ASSERT(got.out == want.before_error);
      RC_ASSERT(got.r.consumed == want.consumed);
    }
  });
}

// 7. Replace mode never fails, writes valid UTF-8 (decoding) or bytes the
// encoding's rules accept (encoding), equals strict mode on valid input,
// and replaces exactly the spans check() reports (the model's replacement
// of each error's skip bytes).
TEST_P(Props, ReplaceReplacesWhatCheckReports) {
  const Codec& c = codec();
  const harness::TableModel& m = harness::model(c.encoding());
  const harness::Repertoire& rep = harness::repertoire(c.encoding());
  for_each_kernel("replace", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const std::string in = decoding ? *bytes_in(c.encoding()) : *utf8_for(c.encoding());
    show_input(c, decoding, in);
    const Converted got = convert(c, decoding, in, ErrorMode::Replace);
    RC_ASSERT(got.r.status == Status::Ok);
    RC_ASSERT(got.r.consumed == in.size());
    const Encoding rules =
        decoding || c.encoding() == Encoding::SQL_ASCII ? Encoding::UTF8 : c.encoding();
    // Unless the text holds a code point PostgreSQL writes as bytes its own
    // rules reject (enumerated from the tables).
    bool ill_formed_write = false;
    if (!decoding)
      for (std::uint32_t cp : well_formed_code_points(in))
        ill_formed_write = ill_formed_write || rep.writes_ill_formed.count(cp);
    if (!ill_formed_write) RC_ASSERT(harness::well_formed_prefix(rules, got.out) == got.out.size());
    const Converted strict = convert(c, decoding, in, ErrorMode::Strict);
    if (strict.r.ok()) RC_ASSERT(got.out == strict.out);
    const harness::ClientRun want = decoding ? m.client_decode(in) : m.client_encode(in);
    RC_ASSERT(got.out == want.replaced);
  });
}

// 1. Round trip text: text from the encoding's repertoire encodes, and
// decodes back to itself unless it holds a code point of the enumerated
// one-way mappings; then it decodes to what the model's tables say.
TEST_P(Props, RoundTripText) {
  const Codec& c = codec();
  const harness::TableModel& m = harness::model(c.encoding());
  const harness::Repertoire& rep = harness::repertoire(c.encoding());
  for_each_kernel("round trip text", [&] {
    const std::string text = *text_in(c.encoding());
    show_input(c, false, text);
    const Converted bytes = convert(c, false, text, ErrorMode::Strict);
    RC_ASSERT(bytes.r.ok());
    const Converted back = convert(c, true, bytes.out, ErrorMode::Strict);
    bool one_way = false;
    for (std::uint32_t cp : harness::code_points_of(text)) one_way = one_way || rep.one_way.count(cp);
    if (!one_way) {
      RC_ASSERT(back.r.ok());
      RC_ASSERT(back.out == text);
    } else {
      const harness::ClientRun enc = m.client_encode(text);
      RC_ASSERT(enc.strict.ok());
      expect_agree(m.client_decode(enc.strict.output).strict, from_result(back.r, back.out));
    }
  });
}

// 2. Round trip bytes: well-formed, mapped bytes decode, and encode back to
// themselves unless they hold an enumerated non-injective code or two
// characters whose code points form a combined character; then they encode
// to what the model says.
TEST_P(Props, RoundTripBytes) {
  const Codec& c = codec();
  const harness::TableModel& m = harness::model(c.encoding());
  const harness::Repertoire& rep = harness::repertoire(c.encoding());
  const bool identity = c.encoding() == Encoding::UTF8 || c.encoding() == Encoding::SQL_ASCII;
  for_each_kernel("round trip bytes", [&] {
    const std::string bytes = *valid_bytes_in(c.encoding());
    show_input(c, true, bytes);
    const Converted text = convert(c, true, bytes, ErrorMode::Strict);
    RC_ASSERT(text.r.ok());
    bool exception = false;
    std::uint32_t last = 0;
    for (std::size_t i = 0; i < bytes.size() && !identity;) {
      const std::size_t n = harness::well_formed_length(c.encoding(), std::string_view(bytes).substr(i));
      RC_ASSERT(n > 0);
      const std::uint32_t code = detail::code_of(std::string_view(bytes).substr(i, n));
      const auto cps = m.decode_code(code);
      RC_ASSERT(cps.has_value() || code < 0x80);
      const std::uint32_t first = cps ? cps->first : code;
      exception = exception || rep.non_injective.count(code) ||
                  (last && m.encode_pair(last, first).has_value());
      last = cps ? (cps->second ? cps->second : cps->first) : code;
      i += n;
    }
    const Converted back = convert(c, false, text.out, ErrorMode::Strict);
    if (!exception) {
      RC_ASSERT(back.r.ok());
      RC_ASSERT(back.out == bytes);
    } else {
      expect_agree(m.client_encode(text.out).strict, from_result(back.r, back.out));
    }
  });
}

// 6. Paths: the cached codec, find_codec, the by-name functions and the C
// API give the same outcome.
TEST_P(Props, PathsAgree) {
  const Codec& c = codec();
  const std::string name(c.name());
  for_each_kernel("paths", [&] {
    const std::string in = *bytes_in(c.encoding());
    show_input(c, true, in);
    const std::string text = *utf8_for(c.encoding());
    show_input(c, false, text);
    const Outcome cached = decode(c, in);
    expect_agree(cached, decode(*find_codec(name), in));
    std::vector<char> out(std::max<std::size_t>(*c.max_decoded_size(in.size()), 1));
    expect_agree(cached, from_result(pgcodec::decode(name, in, out), {out.data(), out.size()}));
    const pgcodec_codec* cc = pgcodec_find(name.c_str());
    if (!cc) RC_FAIL("pgcodec_find(" + name + ") is NULL");
    expect_agree(cached, from_result(from_c(pgcodec_decode(cc, in.data(), in.size(), out.data(),
                                                            out.size(), PGCODEC_STRICT)),
                                     {out.data(), out.size()}));
    const Outcome enc = encode(c, text);
    std::vector<char> eout(std::max<std::size_t>(*c.max_encoded_size(text.size()), 1));
    expect_agree(enc, from_result(pgcodec::encode(name, text, eout), {eout.data(), eout.size()}));
    expect_agree(enc, from_result(from_c(pgcodec_encode(cc, text.data(), text.size(), eout.data(),
                                                         eout.size(), PGCODEC_STRICT)),
                                  {eout.data(), eout.size()}));
  });
}

// 5. Streaming: StreamDecoder fed in chunks of 1, 2, 3, 7 bytes or random
// sizes equals one-shot decoding, in both modes.
TEST_P(Props, StreamingEqualsOneShot) {
  const Codec& c = codec();
  for_each_kernel("streaming", [&] {
    const std::string in = *bytes_in(c.encoding());
    show_input(c, true, in);
    const auto mode = *rc::gen::element(ErrorMode::Strict, ErrorMode::Replace);
    const int fixed = *rc::gen::element(1, 2, 3, 7, 0);  // 0: random sizes
    std::vector<char> whole(std::max<std::size_t>(*c.max_decoded_size(in.size()), 1));
    const Outcome expected = from_result(c.decode(in, whole, mode), {whole.data(), whole.size()});

    StreamDecoder s(c, mode);
    std::string got;
    Result last;
    std::size_t at = 0, empty = 0;
    while (at < in.size() && last.status == Status::Ok) {
      // Random sizes include empty chunks, but never many in a row:
      // rc::gen::inRange scales with the test size and gives only 0 at size 0.
      std::size_t n =
          fixed ? static_cast<std::size_t>(fixed) : *rc::gen::inRange<std::size_t>(0, 12);
      empty = n ? 0 : empty + 1;
      if (empty > 2) n = 1;
      const std::string_view chunk = std::string_view(in).substr(at, n);
      std::vector<char> out(std::max<std::size_t>(*s.output_bound(chunk.size()), 1));
      last = s.feed(chunk, out);
      RC_ASSERT(last.written <= out.size());
      got.append(out.data(), last.written);
      at += chunk.size();
      // A decoder that keeps producing output is a bug, not a long run.
      if (got.size() > whole.size()) RC_FAIL("streamed output exceeds max_decoded_size of the input");
    }
    if (last.status == Status::Ok) {
      std::vector<char> out(std::max<std::size_t>(*s.output_bound(0), 16));
      last = s.finish(out);
      got.append(out.data(), last.written);
    }
    RC_ASSERT(last.status != Status::OutputFull);
    Outcome streamed = from_result(last, {});
    if (streamed.ok()) streamed.output = got;
    expect_agree(expected, streamed);
    // What was written before an error is what one-shot decoding converts
    // before it.
    if (!expected.ok()) {
      const Result r = c.decode(in, whole, mode);
      RC_ASSERT(got == std::string(whole.data(), r.written));
    }
  });
}

// 8. Errors: check_decode / check_encode report, in order, the errors that
// strict conversion finds when restarted after each error's skip, and they
// are the model's.
TEST_P(Props, CheckEqualsRepeatedStrictConversion) {
  const Codec& c = codec();
  for_each_kernel("check", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const std::string in = decoding ? *bytes_in(c.encoding()) : *utf8_for(c.encoding());
    show_input(c, decoding, in);
    std::vector<Error> reported;
    if (decoding)
      c.for_each_decode_error(in, [&](const Error& e) { reported.push_back(e); });
    else
      c.for_each_encode_error(in, [&](const Error& e) { reported.push_back(e); });
    std::vector<Error> expected;
    std::size_t at = 0;
    while (at <= in.size()) {
      const std::string_view rest = std::string_view(in).substr(at);
      const Outcome o = decoding ? decode(c, rest) : encode(c, rest);
      if (o.ok()) break;
      std::vector<char> out(std::max<std::size_t>(
          decoding ? *c.max_decoded_size(rest.size()) : *c.max_encoded_size(rest.size()), 1));
      Result r = decoding ? c.decode(rest, out) : c.encode(rest, out);
      r.error.offset += at;
      expected.push_back(r.error);
      at = r.error.offset + r.error.skip;
    }
    RC_ASSERT(reported.size() == expected.size());
    // ... and they are the model's, each with its skip.
    const harness::TableModel& m = harness::model(c.encoding());
    const harness::ClientRun want = decoding ? m.client_decode(in) : m.client_encode(in);
    RC_ASSERT(want.errors.size() == reported.size());
    for (std::size_t i = 0; i < reported.size(); ++i) {
      Result b;
      b.status = Status::Error;
      b.error = reported[i];
      expect_agree(want.errors[i].outcome, from_result(b, {}));
      RC_ASSERT(want.errors[i].skip == reported[i].skip);
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      Result a, b;
      a.status = b.status = Status::Error;
      a.error = expected[i];
      b.error = reported[i];
      expect_agree(from_result(a, {}), from_result(b, {}));
      RC_ASSERT(expected[i].skip == reported[i].skip);
    }
  });
}

// 9. Boundaries: char_length steps over a decodable string exactly at
// character starts, so decoding the pieces it cuts equals decoding the whole;
// over any well-formed string (unmapped characters and ASCII-range trail
// bytes included) it steps as the model's grammar does.
TEST_P(Props, CharLengthFindsCharacterStarts) {
  const Codec& c = codec();
  for_each_kernel("boundaries", [&] {
    if (c.encoding() != Encoding::SQL_ASCII) {
      const std::string any = *well_formed_bytes_in(c.encoding());
      show_input(c, true, any);
      for (std::size_t i = 0; i < any.size();) {
        const std::size_t n = harness::well_formed_length(c.encoding(), std::string_view(any).substr(i));
        RC_ASSERT(n >= 1u);
        RC_ASSERT(c.char_length(any, i) == n);
        i += n;
      }
    }
    const std::string in = *valid_bytes_in(c.encoding());
    show_input(c, true, in);
    const Outcome whole = decode(c, in);
    RC_ASSERT(whole.ok());
    if (c.encoding() == Encoding::SQL_ASCII) {
      // PostgreSQL's mblen for SQL_ASCII is one byte, while the client path
      // validates SQL_ASCII data as UTF-8 (docs/semantics.md): its pieces
      // are bytes, which need not decode alone.
      for (std::size_t i = 0; i < in.size(); ++i) RC_ASSERT(c.char_length(in, i) == 1u);
      return;
    }
    std::string pieces;
    for (std::size_t i = 0; i < in.size();) {
      const std::size_t n = c.char_length(in, i);
      RC_ASSERT(n >= 1);
      const Outcome one = decode(c, std::string_view(in).substr(i, n));
      RC_ASSERT(one.ok());
      pieces += one.output;
      i += n;
    }
    RC_ASSERT(pieces == whole.output);
  });
}

// 10. Kernels: every kernel gives the same outcome and the same output up
// to the error on the same input.
TEST_P(Props, KernelsAgree) {
  const Codec& c = codec();
  const kernels::Kernel& saved = kernels::active();
  const std::string name = "kernels [" + std::string(c.name()) + "]";
  EXPECT_TRUE(rc::check(name, [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const auto mode = *rc::gen::element(ErrorMode::Strict, ErrorMode::Replace);
    const std::string in = decoding ? *bytes_in(c.encoding()) : *utf8_for(c.encoding());
    show_input(c, decoding, in);
    std::optional<std::string> first_out;
    std::optional<Outcome> first;
    for (const kernels::Kernel& k : kernels::available()) {
      kernels::set_active(k);
      std::vector<char> out(std::max<std::size_t>(
          decoding ? *c.max_decoded_size(in.size()) : *c.max_encoded_size(in.size()), 1));
      const Result r = decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
      const Outcome o = from_result(r, {out.data(), out.size()});
      const std::string written(out.data(), r.written);
      if (!first) {
        first = o;
        first_out = written;
        continue;
      }
      expect_agree(*first, o);
      RC_ASSERT(*first_out == written);
    }
  }));
  kernels::set_active(saved);
}

// 11. Buffers: with any smaller output buffer the result is OutputFull (or
// the same error, when it comes first) with a prefix of the full output,
// and nothing is written past the buffer; both fill patterns give the same
// bytes, so every byte counted as written was written.
TEST_P(Props, SmallBuffersGivePrefixes) {
  const Codec& c = codec();
  for_each_kernel("buffers", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const auto mode = *rc::gen::element(ErrorMode::Strict, ErrorMode::Replace);
    const std::string in = decoding ? *bytes_in(c.encoding()) : *utf8_for(c.encoding());
    show_input(c, decoding, in);
    const std::size_t cap =
        decoding ? *c.max_decoded_size(in.size()) : *c.max_encoded_size(in.size());
    std::vector<char> full(std::max<std::size_t>(cap, 1));
    const Result all = decoding ? c.decode(in, full, mode) : c.encode(in, full, mode);
    RC_ASSERT(all.status != Status::OutputFull);
    const std::size_t small = *rc::gen::inRange<std::size_t>(0, all.written + 1);
    constexpr std::size_t kGuard = 16;
    std::string seen[2];
    for (int pass = 0; pass < 2; ++pass) {
      const char fill = pass ? '\x5A' : '\xA5';
      std::vector<char> buf(small + kGuard, fill);
      const std::span<char> out(buf.data(), small);
      const Result r = decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
      RC_ASSERT(r.written <= small);
      for (std::size_t i = small; i < buf.size(); ++i) RC_ASSERT(buf[i] == fill);
      RC_ASSERT(std::string(buf.data(), r.written) == std::string(full.data(), r.written));
      if (small < all.written) {
        RC_ASSERT(r.status == Status::OutputFull || r.status == Status::Error);
        RC_ASSERT(r.consumed <= all.consumed);
      }
      seen[pass].assign(buf.data(), r.written);
    }
    RC_ASSERT(seen[0] == seen[1]);
  });
}

// 11, continued: the C API with the null pointers and zero capacities
// pgcodec.h allows (a NULL buffer with length 0) converts exactly as an
// empty span does; the ones it forbids are PGCODEC_INVALID_ARGUMENT and
// convert nothing. The sanitize preset runs this too.
TEST_P(Props, CApiNullsAndZeroCapacities) {
  const Codec& c = codec();
  const std::string name(c.name());
  const pgcodec_codec* cc = pgcodec_find(name.c_str());
  ASSERT_NE(cc, nullptr);
  for_each_kernel("c api nulls", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const int mode = *rc::gen::element(PGCODEC_STRICT, PGCODEC_REPLACE);
    const std::string in = decoding ? *bytes_in(c.encoding()) : *utf8_for(c.encoding());
    show_input(c, decoding, in);
    auto call = [&](const pgcodec_codec* k, const char* data, std::size_t len, char* out, std::size_t cap) {
      return decoding ? pgcodec_decode(k, data, len, out, cap, mode) : pgcodec_encode(k, data, len, out, cap, mode);
    };
    // Empty input with no buffer.
    pgcodec_result r = call(cc, nullptr, 0, nullptr, 0);
    RC_ASSERT(r.status == PGCODEC_OK);
    RC_ASSERT(r.consumed == 0u);
    RC_ASSERT(r.written == 0u);
    // No output space: the C++ API's answer for an empty span.
    r = call(cc, in.data(), in.size(), nullptr, 0);
    const ErrorMode m = mode == PGCODEC_STRICT ? ErrorMode::Strict : ErrorMode::Replace;
    const Result want = decoding ? c.decode(in, std::span<char>{}, m) : c.encode(in, std::span<char>{}, m);
    RC_ASSERT(static_cast<int>(r.status) == static_cast<int>(want.status));
    RC_ASSERT(r.consumed == want.consumed);
    RC_ASSERT(r.written == 0u);
    if (want.status == Status::Error) expect_agree(from_result(want, {}), from_result(from_c(r), {}));
    // What the header forbids.
    char one = 'x';
    for (const pgcodec_result& bad : {call(nullptr, in.data(), in.size(), &one, 1),
                                      call(cc, nullptr, in.size() + 1, &one, 1),
                                      call(cc, in.data(), in.size(), nullptr, 1)}) {
      RC_ASSERT(bad.status == PGCODEC_INVALID_ARGUMENT);
      RC_ASSERT(bad.consumed == 0u);
      RC_ASSERT(bad.written == 0u);
    }
    RC_ASSERT(one == 'x');
    // Sizes and lengths.
    std::size_t size = 0;
    RC_ASSERT(pgcodec_max_decoded_size(cc, in.size(), nullptr) == -1);
    RC_ASSERT(pgcodec_max_encoded_size(nullptr, in.size(), &size) == -1);
    RC_ASSERT(pgcodec_char_length(cc, nullptr, 0, 0) == 0u);
    RC_ASSERT(pgcodec_char_length(cc, in.data(), in.size(), in.size()) == 0u);
    // A message into no buffer reports its length, as snprintf does.
    std::vector<char> out(std::max<std::size_t>(
        decoding ? *c.max_decoded_size(in.size()) : *c.max_encoded_size(in.size()), 1));
    r = call(cc, in.data(), in.size(), out.data(), out.size());
    const std::size_t len = pgcodec_error_message(&r, nullptr, 0);
    if (r.status == PGCODEC_ERROR) {
      RC_ASSERT(len == from_c(r).error.message().size());
      RC_ASSERT(static_cast<bool>(pgcodec_error_sqlstate(&r)));
    } else {
      RC_ASSERT(len == 0u);
      RC_ASSERT(!pgcodec_error_sqlstate(&r));
    }
    // A stream fed nothing into no buffer.
    if (decoding) {
      pgcodec_stream* st = pgcodec_stream_new(cc, mode);
      RC_ASSERT(static_cast<bool>(st));
      const pgcodec_result f = pgcodec_stream_feed(st, nullptr, 0, nullptr, 0);
      const pgcodec_result e = pgcodec_stream_finish(st, nullptr, 0);
      pgcodec_stream_free(st);
      RC_ASSERT(f.status == PGCODEC_OK);
      RC_ASSERT(e.status == PGCODEC_OK);
      RC_ASSERT(f.written + e.written == 0u);
      RC_ASSERT(pgcodec_stream_feed(nullptr, in.data(), in.size(), out.data(), out.size()).status ==
                PGCODEC_INVALID_ARGUMENT);
    }
  });
}

std::vector<Encoding> all_encodings() {
  std::vector<Encoding> v;
  for (const EncodingInfo& i : encodings()) v.push_back(i.id);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Every, Props, ::testing::ValuesIn(all_encodings()),
                         [](const ::testing::TestParamInfo<Encoding>& p) {
                           return std::string(pgcodec::info(p.param).name);
                         });

}  // namespace
}  // namespace pgcodec::props
