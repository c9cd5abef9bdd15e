#include "core/checks.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/byte_rules.hpp"
#include "core/generators.hpp"
#include "core/model.hpp"
#include "core/outcome.hpp"
#include "core/page_end.hpp"
#include "core/text.hpp"
#include "kernels/kernels.hpp"
#include "pgcodec/pgcodec.h"
#include "pgcodec/stream.hpp"
#include "tables/table.hpp"

namespace pgcodec::harness {
namespace {

// "harness/core/checks.cpp:123: got.out == want.replaced" and what is known besides.
std::string failure(int line, const char* what, const std::string& detail = {}) {
  std::string s = "harness/core/checks.cpp:" + std::to_string(line) + ": " + what;
  if (!detail.empty()) s += " (" + detail + ")";
  return s;
}

#define PGCODEC_EXPECT(cond, ...)                                      \
  do {                                                                 \
    if (!(cond)) return failure(__LINE__, #cond __VA_OPT__(, ) __VA_ARGS__); \
  } while (0)

#define PGCODEC_EXPECT_AGREE(want, got)                                                       \
  do {                                                                                        \
    const Category category_ = classify(want, got);                                           \
    if (category_ != Category::Agree)                                                         \
      return failure(__LINE__, to_string(category_), describe(want) + " vs " + describe(got)); \
  } while (0)

#define PGCODEC_EXPECT_BYTES(want, got)                                                              \
  do {                                                                                               \
    if ((want) != (got)) return failure(__LINE__, #want " == " #got, hex_bytes(want) + " vs " + hex_bytes(got)); \
  } while (0)

std::size_t capacity(const Codec& c, bool decoding, std::size_t n) {
  return std::max<std::size_t>(decoding ? *c.max_decoded_size(n) : *c.max_encoded_size(n), 1);
}

// One conversion into a buffer of max_*_size bytes: the result and what it wrote.
struct Converted {
  Result r;
  std::string out;
  bool overrun = false;  // wrote or counted more than the buffer holds
};
Converted convert(const Codec& c, bool decoding, std::string_view in, ErrorMode mode) {
  std::vector<char> out(capacity(c, decoding, in.size()));
  const Result r = decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
  Converted x{r, std::string(out.data(), std::min(r.written, out.size()))};
  x.overrun = r.written > out.size();
  return x;
}
Outcome outcome(const Converted& x) { return from_result(x.r, x.out); }

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

Outcome error_outcome(const Error& e) {
  Result r;
  r.status = Status::Error;
  r.error = e;
  return from_result(r, {});
}

ClientRun model_run(const Codec& c, bool decoding, std::string_view in) {
  const TableModel& m = model(c.encoding());
  return decoding ? m.client_decode(in) : m.client_encode(in);
}

// The code points of the well-formed characters of UTF-8 that may hold
// malformed sequences.
std::vector<std::uint32_t> well_formed_code_points(std::string_view s) {
  std::vector<std::uint32_t> cps;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = well_formed_length(Encoding::UTF8, s.substr(i));
    if (!n) {
      ++i;
      continue;
    }
    const auto v = code_points_of(s.substr(i, n));
    cps.insert(cps.end(), v.begin(), v.end());
    i += n;
  }
  return cps;
}

bool is_identity(const Codec& c) {
  return c.encoding() == Encoding::UTF8 || c.encoding() == Encoding::SQL_ASCII;
}

}  // namespace

CheckResult check_round_trip_text(const Codec& c, std::string_view text) {
  const TableModel& m = model(c.encoding());
  const Repertoire& rep = repertoire(c.encoding());
  const Converted bytes = convert(c, false, text, ErrorMode::Strict);
  PGCODEC_EXPECT(bytes.r.ok(), describe(outcome(bytes)));
  const Converted back = convert(c, true, bytes.out, ErrorMode::Strict);
  bool one_way = false;
  for (std::uint32_t cp : code_points_of(text)) one_way = one_way || rep.one_way.count(cp);
  if (!one_way) {
    PGCODEC_EXPECT(back.r.ok(), describe(outcome(back)));
    PGCODEC_EXPECT_BYTES(back.out, std::string(text));
    return {};
  }
  const ClientRun enc = m.client_encode(text);
  PGCODEC_EXPECT(enc.strict.ok(), describe(enc.strict));
  PGCODEC_EXPECT_AGREE(m.client_decode(enc.strict.output).strict, outcome(back));
  return {};
}

CheckResult check_round_trip_bytes(const Codec& c, std::string_view bytes, bool must_decode) {
  const TableModel& m = model(c.encoding());
  const Repertoire& rep = repertoire(c.encoding());
  const Converted text = convert(c, true, bytes, ErrorMode::Strict);
  if (!must_decode && !text.r.ok()) return {};
  PGCODEC_EXPECT(text.r.ok(), describe(outcome(text)));
  bool exception = false;
  std::uint32_t last = 0;
  for (std::size_t i = 0; i < bytes.size() && !is_identity(c);) {
    const std::size_t n = well_formed_length(c.encoding(), bytes.substr(i));
    PGCODEC_EXPECT(n > 0, "decoded, yet not well-formed at byte " + std::to_string(i));
    const std::uint32_t code = detail::code_of(bytes.substr(i, n));
    const auto cps = m.decode_code(code);
    PGCODEC_EXPECT(cps.has_value() || code < 0x80, "decoded, yet unmapped at byte " + std::to_string(i));
    const std::uint32_t first = cps ? cps->first : code;
    exception = exception || rep.non_injective.count(code) || (last && m.encode_pair(last, first).has_value());
    last = cps ? (cps->second ? cps->second : cps->first) : code;
    i += n;
  }
  const Converted back = convert(c, false, text.out, ErrorMode::Strict);
  if (!exception) {
    PGCODEC_EXPECT(back.r.ok(), describe(outcome(back)));
    PGCODEC_EXPECT_BYTES(back.out, std::string(bytes));
  } else {
    PGCODEC_EXPECT_AGREE(m.client_encode(text.out).strict, outcome(back));
  }
  return {};
}

CheckResult check_model(const Codec& c, bool decoding, std::string_view in) {
  const ClientRun want = model_run(c, decoding, in);
  const Converted got = convert(c, decoding, in, ErrorMode::Strict);
  PGCODEC_EXPECT(!got.overrun);
  PGCODEC_EXPECT(got.r.status != Status::OutputFull, "max_*_size too small");
  PGCODEC_EXPECT_AGREE(want.strict, outcome(got));
  if (!want.strict.ok()) {
    PGCODEC_EXPECT_BYTES(got.out, want.before_error);
    PGCODEC_EXPECT(got.r.consumed == want.consumed,
                   std::to_string(got.r.consumed) + " vs the model's " + std::to_string(want.consumed));
  }
  return {};
}

namespace {

// Feeds `in` to a Stream (StreamDecoder or StreamEncoder) in chunks of the
// given sizes (as check_streaming says), then finishes, and compares with
// `one`, the one-shot conversion: the same outcome, and before an error the
// same bytes. Each call stays within output_bound and takes the whole
// chunk unless it fails, nothing is lost or counted twice (position +
// carried), and a failed stream stays failed.
template <class Stream>
CheckResult check_stream(const Codec& c, std::string_view in, ErrorMode mode,
                         std::span<const std::size_t> chunks, const Converted& one) {
  constexpr bool decoding = std::is_same_v<Stream, StreamDecoder>;
  Stream s(c, mode);
  std::string got;
  Result last;
  std::size_t at = 0, empty = 0, k = 0;
  while (at < in.size() && last.status == Status::Ok) {
    std::size_t n = chunks.empty() ? in.size() : chunks[k++ % chunks.size()];
    empty = n ? 0 : empty + 1;
    if (empty > 2) n = 1;
    const std::string_view chunk = in.substr(at, n);
    const std::size_t taken = s.position() + s.carried();
    std::vector<char> out(std::max<std::size_t>(*s.output_bound(chunk.size()), 1));
    last = s.feed(chunk, out);
    PGCODEC_EXPECT(last.written <= out.size());
    got.append(out.data(), last.written);
    if (last.status == Status::Ok)
      PGCODEC_EXPECT(last.consumed == chunk.size() && s.position() + s.carried() == taken + chunk.size());
    if (last.status == Status::Error) {
      // The chunk's bytes converted before the error: what one-shot
      // conversion converts before it, less what came before the chunk
      // (held-back bytes are not the chunk's).
      const std::size_t want = one.r.consumed > at ? one.r.consumed - at : 0;
      PGCODEC_EXPECT(last.consumed == want, std::to_string(last.consumed) + " consumed, want " +
                                                std::to_string(want) + ", chunk at " + std::to_string(at));
      PGCODEC_EXPECT(s.position() == one.r.consumed);
    }
    at += chunk.size();
    PGCODEC_EXPECT(got.size() <= capacity(c, decoding, in.size()),
                   "streamed output exceeds the one-shot bound of the input");
  }
  // The end, into buffers of the chunk sizes in turn, the last first (the
  // whole bound when there are none): OutputFull keeps what is held back
  // for the retry, and a buffer of output_bound(0) bytes always suffices.
  for (std::size_t turn = 0, size = chunks.empty() ? SIZE_MAX : chunks.back(); last.status == Status::Ok;) {
    constexpr std::size_t kGuard = 8;
    const std::size_t bound = *s.output_bound(0);
    const std::size_t room = std::min(size, bound);
    std::vector<char> buf(room + kGuard, '\x5A');
    last = s.finish(std::span<char>(buf.data(), room));
    PGCODEC_EXPECT(last.written <= room);
    for (std::size_t g = room; g < buf.size(); ++g) PGCODEC_EXPECT(buf[g] == '\x5A', "finish wrote past the buffer");
    got.append(buf.data(), last.written);
    if (last.status == Status::Ok) {
      PGCODEC_EXPECT(s.carried() == 0 && s.position() == in.size());
      break;
    }
    if (last.status != Status::OutputFull) break;
    PGCODEC_EXPECT(room < bound, "finish: OutputFull with output_bound(0) = " + std::to_string(bound) + " bytes");
    PGCODEC_EXPECT(last.consumed == 0);
    last.status = Status::Ok;  // retry, with the next size, or one byte more if nothing fitted
    size = last.written && !chunks.empty() ? chunks[turn++ % chunks.size()] : room + 1;
  }
  PGCODEC_EXPECT(last.status != Status::OutputFull);
  if (last.status == Status::Error) {
    // A failed stream stays failed: later calls return the same error.
    std::array<char, 16> more{};
    PGCODEC_EXPECT_AGREE(from_result(last, {}), from_result(s.feed("a", more), {}));
    PGCODEC_EXPECT_AGREE(from_result(last, {}), from_result(s.finish(more), {}));
  }
  Outcome streamed = from_result(last, {});
  if (streamed.ok()) streamed.output = got;
  PGCODEC_EXPECT_AGREE(outcome(one), streamed);
  // What was written before an error is what one-shot conversion converts before it.
  if (!one.r.ok()) PGCODEC_EXPECT_BYTES(got, one.out);
  return {};
}

}  // namespace

CheckResult check_streaming(const Codec& c, std::string_view in, ErrorMode mode,
                            std::span<const std::size_t> chunks) {
  const Converted one = convert(c, true, in, mode);
  const Outcome expected = outcome(one);
  if (auto failed = check_stream<StreamDecoder>(c, in, mode, chunks, one)) return failed;
  std::vector<char> whole(capacity(c, true, in.size()));

  // decode_partial, the step streaming is made of: it stops before a
  // character cut off by the end, and is otherwise one-shot decoding; the
  // C API's agrees, and so does check_decode with final == false.
  const Result part = c.decode_partial(in, whole, mode);
  PGCODEC_EXPECT(part.written <= whole.size() && part.consumed <= in.size());
  const pgcodec_codec* cc = pgcodec_find(std::string(c.name()).c_str());
  std::vector<char> cout(whole.size());
  const pgcodec_result cpart = pgcodec_decode_partial(cc, in.data(), in.size(), cout.data(), cout.size(),
                                                      mode == ErrorMode::Strict ? PGCODEC_STRICT : PGCODEC_REPLACE);
  PGCODEC_EXPECT(cpart.consumed == part.consumed && cpart.written == part.written &&
                 static_cast<int>(cpart.status) == static_cast<int>(part.status));
  PGCODEC_EXPECT(std::string(cout.data(), cpart.written) == std::string(whole.data(), part.written));
  if (part.status == Status::Ok) {
    // SQL_ASCII's client path validates UTF-8: its cut-off characters are UTF-8's.
    const Encoding rules = c.encoding() == Encoding::SQL_ASCII ? Encoding::UTF8 : c.encoding();
    const std::string_view left = in.substr(part.consumed);
    PGCODEC_EXPECT(left.size() < 4, "left " + hex_bytes(left));
    if (!left.empty())
      PGCODEC_EXPECT(lead_length(rules, left) > left.size() && well_formed_length(rules, left) == 0,
                     "left " + hex_bytes(left) + " is not a character cut off by the end");
    const Converted head = convert(c, true, in.substr(0, part.consumed), mode);
    PGCODEC_EXPECT_BYTES(head.out, std::string(whole.data(), part.written));
    std::size_t partial_errors = 0;
    const Codec::CheckResult cr =
        c.for_each_decode_error(in, [&](const Error&) { ++partial_errors; }, /*final=*/false);
    if (mode == ErrorMode::Strict) PGCODEC_EXPECT(cr.consumed == part.consumed, hex_bytes(in));
    PGCODEC_EXPECT(cr.errors == partial_errors);
  } else {
    PGCODEC_EXPECT_AGREE(expected, from_result(part, {whole.data(), whole.size()}));
  }
  return {};
}

namespace {

// What Codec::encode_partial may hold back (the `back` it left unconverted
// after a call without error): the bytes from a lead byte whose claim
// reaches past the end (a character the end may have cut off: at most 3
// bytes), and before them, only in the encodings that combine pairs,
// well-formed characters the combining rule keeps open: two at most,
// unless they end in a run of tone letters U+02E5 U+02E9 (2 bytes each).
// Nothing else: an error whose bytes are all there is reported at once.
CheckResult held_back_rule(const Codec& c, std::string_view back) {
  std::size_t cut = 0;  // the cut-off character's bytes at the end
  for (std::size_t k = 1; k <= 3 && k <= back.size(); ++k)
    if (lead_length(Encoding::UTF8, back.substr(back.size() - k)) > k) cut = k;
  const std::string_view open = back.substr(0, back.size() - cut);
  if (open.empty()) return {};
  const bool combines = !detail::mapping_table(c.encoding())->encode_pairs.empty();
  PGCODEC_EXPECT(combines, "held back " + hex_bytes(back) + ": more than a cut-off character");
  PGCODEC_EXPECT(well_formed_prefix(Encoding::UTF8, open) == open.size(),
                 "held back " + hex_bytes(back) + ": not only characters a pair could take");
  PGCODEC_EXPECT(code_points_of(open).size() <= 2,
                 "held back " + hex_bytes(back) + ": more than the combining rule keeps open");
  return {};
}

}  // namespace

CheckResult check_streaming_encode(const Codec& c, std::string_view utf8, ErrorMode mode,
                                   std::span<const std::size_t> chunks) {
  const Converted one = convert(c, false, utf8, mode);
  const Outcome expected = outcome(one);
  if (auto failed = check_stream<StreamEncoder>(c, utf8, mode, chunks, one)) return failed;

  // encode_partial, the step StreamEncoder is made of, by hand: each chunk
  // after what the previous call held back, the rest through encode().
  std::string got;
  std::size_t at = 0, held = 0, empty = 0, k = 0;  // utf8[at - held, at) is held back
  Result last;
  while (at < utf8.size()) {
    std::size_t n = chunks.empty() ? utf8.size() : chunks[k++ % chunks.size()];
    empty = n ? 0 : empty + 1;
    if (empty > 2) n = 1;
    n = std::min(n, utf8.size() - at);
    const std::string_view text = utf8.substr(at - held, held + n);
    std::vector<char> out(capacity(c, false, text.size()));
    last = c.encode_partial(text, out, mode);
    PGCODEC_EXPECT(last.written <= out.size() && last.consumed <= text.size());
    PGCODEC_EXPECT(last.status != Status::OutputFull, "encode_partial with max_encoded_size room");
    got.append(out.data(), last.written);
    if (last.status == Status::Error) {
      last.error.offset += at - held;
      break;
    }
    at += n;
    held = text.size() - last.consumed;
    if (auto bad = held_back_rule(c, text.substr(last.consumed))) return bad;
  }
  if (last.status != Status::Error) {
    const std::string_view rest = utf8.substr(at - held);
    std::vector<char> out(capacity(c, false, rest.size()));
    last = c.encode(rest, out, mode);
    got.append(out.data(), last.written);
    if (last.status == Status::Error) last.error.offset += at - held;
  }
  Outcome streamed = from_result(last, {});
  if (streamed.ok()) streamed.output = got;
  PGCODEC_EXPECT_AGREE(expected, streamed);
  // What was written before an error is what one-shot encoding converts before it.
  if (!expected.ok()) PGCODEC_EXPECT_BYTES(got, one.out);
  return {};
}

CheckResult check_paths(const Codec& c, bool decoding, std::string_view in) {
  const std::string name(c.name());
  const Converted cached = convert(c, decoding, in, ErrorMode::Strict);
  const Codec* found = find_codec(name);
  PGCODEC_EXPECT(found != nullptr, "find_codec(" + name + ")");
  PGCODEC_EXPECT_AGREE(outcome(cached), outcome(convert(*found, decoding, in, ErrorMode::Strict)));
  std::vector<char> out(capacity(c, decoding, in.size()));
  const Result by_name = decoding ? pgcodec::decode(name, in, out) : pgcodec::encode(name, in, out);
  PGCODEC_EXPECT_AGREE(outcome(cached), from_result(by_name, {out.data(), out.size()}));
  const pgcodec_codec* cc = pgcodec_find(name.c_str());
  PGCODEC_EXPECT(cc != nullptr, "pgcodec_find(" + name + ")");
  const pgcodec_result r = decoding ? pgcodec_decode(cc, in.data(), in.size(), out.data(), out.size(), PGCODEC_STRICT)
                                    : pgcodec_encode(cc, in.data(), in.size(), out.data(), out.size(), PGCODEC_STRICT);
  PGCODEC_EXPECT_AGREE(outcome(cached), from_result(from_c(r), {out.data(), out.size()}));
  PGCODEC_EXPECT(r.written == cached.r.written && r.consumed == cached.r.consumed);
  // By PostgreSQL's encoding id, and the allocating conveniences (which
  // throw ConversionError in Strict mode).
  const pgcodec_codec* by_id = pgcodec_by_id(to_int(c.encoding()));
  PGCODEC_EXPECT(by_id == cc && pgcodec_id(cc) == to_int(c.encoding()) && name == pgcodec_name(cc));
  Outcome allocated;
  try {
    allocated = Outcome::converted(decoding ? c.decode(in) : c.encode(in));
  } catch (const ConversionError& e) {
    allocated = error_outcome(e.error());
    PGCODEC_EXPECT(std::string(e.what()) == e.error().message());
  }
  PGCODEC_EXPECT_AGREE(outcome(cached), allocated);
  return {};
}

CheckResult check_replace(const Codec& c, bool decoding, std::string_view in) {
  const Repertoire& rep = repertoire(c.encoding());
  const Converted got = convert(c, decoding, in, ErrorMode::Replace);
  PGCODEC_EXPECT(!got.overrun);
  PGCODEC_EXPECT(got.r.status == Status::Ok, describe(outcome(got)));
  PGCODEC_EXPECT(got.r.consumed == in.size());
  const Encoding rules = decoding || c.encoding() == Encoding::SQL_ASCII ? Encoding::UTF8 : c.encoding();
  // Unless the text holds a code point PostgreSQL writes as bytes its own
  // rules reject (enumerated from the tables).
  bool ill_formed_write = false;
  if (!decoding)
    for (std::uint32_t cp : well_formed_code_points(in))
      ill_formed_write = ill_formed_write || rep.writes_ill_formed.count(cp);
  if (!ill_formed_write)
    PGCODEC_EXPECT(well_formed_prefix(rules, got.out) == got.out.size(), "output " + hex_bytes(got.out));
  const Converted strict = convert(c, decoding, in, ErrorMode::Strict);
  if (strict.r.ok()) PGCODEC_EXPECT_BYTES(got.out, strict.out);
  PGCODEC_EXPECT_BYTES(got.out, model_run(c, decoding, in).replaced);
  return {};
}

namespace {

// Where a strict conversion that stopped at `r` leaves a character
// unconverted because of the one after it (the combined-character
// lookahead of EUC_JIS_2004 / SHIFT_JIS_2004): its length, else 0. Either
// the error lies past what was consumed, or it is an invalid byte sequence
// reported at a well-formed UTF-8 character (the next one was cut off).
std::size_t left_by_lookahead(bool decoding, std::string_view in, const Result& r) {
  if (decoding) return 0;
  if (r.consumed < r.error.offset) return r.error.offset - r.consumed;
  if (r.error.kind != ErrorKind::InvalidByteSequence) return 0;
  const std::string_view at = in.substr(r.error.offset);
  const std::size_t n = well_formed_length(Encoding::UTF8, at);
  return n > 1 ? n : 0;
}

}  // namespace

CheckResult check_errors(const Codec& c, bool decoding, std::string_view in) {
  std::vector<Error> reported;
  const Codec::CheckResult counted =
      decoding ? c.for_each_decode_error(in, [&](const Error& e) { reported.push_back(e); })
               : c.for_each_encode_error(in, [&](const Error& e) { reported.push_back(e); });
  PGCODEC_EXPECT(counted.errors == reported.size() && counted.consumed == in.size());
  // The rule: strict conversion restarted after each error's skip; where
  // the lookahead left a character unconverted because of the next one,
  // that character is converted on its own first (and its error, if it
  // has one, comes first).
  std::vector<Error> expected;
  for (std::size_t at = 0; at <= in.size();) {
    const std::string_view rest = in.substr(at);
    const Converted x = convert(c, decoding, rest, ErrorMode::Strict);
    if (x.r.ok()) break;
    PGCODEC_EXPECT(x.r.status == Status::Error, describe(outcome(x)));
    if (const std::size_t own = left_by_lookahead(decoding, rest, x.r)) {
      const Converted alone = convert(c, decoding, rest.substr(x.r.consumed, own), ErrorMode::Strict);
      if (!alone.r.ok()) {
        Error e = alone.r.error;
        e.offset += at + x.r.consumed;
        expected.push_back(e);
      }
      at += x.r.consumed + own;
      continue;
    }
    Error e = x.r.error;
    e.offset += at;
    expected.push_back(e);
    at = e.offset + e.skip;
  }
  PGCODEC_EXPECT(reported.size() == expected.size(),
                 std::to_string(reported.size()) + " reported, " + std::to_string(expected.size()) + " found");
  // ... and they are the model's, each with its skip.
  const ClientRun want = model_run(c, decoding, in);
  PGCODEC_EXPECT(want.errors.size() == reported.size(),
                 std::to_string(reported.size()) + " reported, the model " + std::to_string(want.errors.size()));
  for (std::size_t i = 0; i < reported.size(); ++i) {
    PGCODEC_EXPECT_AGREE(want.errors[i].outcome, error_outcome(reported[i]));
    PGCODEC_EXPECT(want.errors[i].skip == reported[i].skip, "error " + std::to_string(i));
    PGCODEC_EXPECT_AGREE(error_outcome(expected[i]), error_outcome(reported[i]));
    PGCODEC_EXPECT(expected[i].skip == reported[i].skip, "error " + std::to_string(i));
    if (i) PGCODEC_EXPECT(reported[i].offset >= reported[i - 1].offset + reported[i - 1].skip, "error " + std::to_string(i));
  }
  // Replace mode replaces exactly what check lists: its output is the
  // stretches between the errors, each converted strictly on its own
  // (without an error), with one replacement per error.
  std::string spans;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= reported.size(); ++i) {
    const std::size_t to = i < reported.size() ? reported[i].offset : in.size();
    const Converted stretch = convert(c, decoding, in.substr(from, to - from), ErrorMode::Strict);
    PGCODEC_EXPECT(stretch.r.ok(), "the stretch before error " + std::to_string(i) + ": " + describe(outcome(stretch)));
    spans += stretch.out;
    if (i == reported.size()) break;
    spans += decoding ? "\xEF\xBF\xBD" : "?";
    from = std::min(in.size(), to + reported[i].skip);
  }
  PGCODEC_EXPECT_BYTES(convert(c, decoding, in, ErrorMode::Replace).out, spans);
  return {};
}

CheckResult check_char_length(const Codec& c, std::string_view any) {
  // PostgreSQL's mblen for SQL_ASCII is one byte, while the client path
  // validates SQL_ASCII data as UTF-8 (docs/semantics.md).
  if (c.encoding() == Encoding::SQL_ASCII) {
    for (std::size_t i = 0; i < any.size(); ++i) PGCODEC_EXPECT(c.char_length(any, i) == 1u);
    return {};
  }
  for (std::size_t i = 0; i < any.size();) {
    const std::size_t n = well_formed_length(c.encoding(), any.substr(i));
    if (!n) {  // not well-formed here: only the lead byte's claim is defined
      ++i;
      continue;
    }
    PGCODEC_EXPECT(c.char_length(any, i) == n, "at byte " + std::to_string(i));
    PGCODEC_EXPECT(pgcodec_char_length(pgcodec_find(std::string(c.name()).c_str()), any.data(), any.size(), i) == n,
                   "C API, at byte " + std::to_string(i));
    i += n;
  }
  return {};
}

CheckResult check_char_pieces(const Codec& c, std::string_view valid) {
  const Converted whole = convert(c, true, valid, ErrorMode::Strict);
  if (!whole.r.ok() || c.encoding() == Encoding::SQL_ASCII) return {};
  std::string pieces;
  for (std::size_t i = 0; i < valid.size();) {
    const std::size_t n = c.char_length(valid, i);
    PGCODEC_EXPECT(n >= 1, "at byte " + std::to_string(i));
    const Converted one = convert(c, true, valid.substr(i, n), ErrorMode::Strict);
    PGCODEC_EXPECT(one.r.ok(), "the piece at byte " + std::to_string(i) + ": " + describe(outcome(one)));
    pieces += one.out;
    i += n;
  }
  PGCODEC_EXPECT_BYTES(pieces, whole.out);
  return {};
}

CheckResult check_kernels(const Codec& c, bool decoding, ErrorMode mode, std::string_view bytes) {
  // Each kernel reads the input where a read past its end faults.
  const PageEnd at_end(bytes);
  const std::string_view in = at_end.view();
  const kernels::Kernel& saved = kernels::active();
  std::optional<Converted> first;
  std::string first_name;
  CheckResult failed;
  for (const kernels::Kernel& k : kernels::available()) {
    kernels::set_active(k);
    Converted x = convert(c, decoding, in, mode);
    if (!first) {
      first = std::move(x);
      first_name = k.name;
      continue;
    }
    if (classify(outcome(*first), outcome(x)) != Category::Agree || first->out != x.out) {
      failed = failure(__LINE__, "kernels differ", first_name + ": " + describe(outcome(*first)) + " " +
                                                       hex_bytes(first->out) + ", " + k.name + ": " +
                                                       describe(outcome(x)) + " " + hex_bytes(x.out));
      break;
    }
  }
  kernels::set_active(saved);
  return failed;
}

CheckResult check_buffers(const Codec& c, bool decoding, ErrorMode mode, std::string_view in, std::size_t small) {
  const Converted all = convert(c, decoding, in, mode);
  PGCODEC_EXPECT(!all.overrun);
  PGCODEC_EXPECT(all.r.status != Status::OutputFull, "max_*_size too small");
  // The drawn size, and the exact room of the full output, where a buffer
  // ends right before an error (or right at the end).
  for (const std::size_t room : {small % (all.r.written + 1), all.r.written}) {
    constexpr std::size_t kGuard = 16;
    std::string seen[2];
    for (int pass = 0; pass < 2; ++pass) {
      const char fill = pass ? '\x5A' : '\xA5';
      std::vector<char> buf(room + kGuard, fill);
      const std::span<char> out(buf.data(), room);
      const Result r = decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
      PGCODEC_EXPECT(r.written <= room);
      for (std::size_t i = room; i < buf.size(); ++i) PGCODEC_EXPECT(buf[i] == fill, "wrote past the buffer");
      PGCODEC_EXPECT_BYTES(std::string(buf.data(), r.written), all.out.substr(0, r.written));
      if (room < all.r.written) {
        // Room runs out before the error (if any): its output comes first.
        PGCODEC_EXPECT(r.status == Status::OutputFull, describe(from_result(r, {})));
        PGCODEC_EXPECT(r.consumed <= all.r.consumed);
      } else {
        // Room for all of it: the same answer, an error included (an error
        // needs no room, in every family).
        PGCODEC_EXPECT(r.status == all.r.status, describe(from_result(r, {})) + " with room " + std::to_string(room));
        PGCODEC_EXPECT_AGREE(outcome(all), from_result(r, {buf.data(), r.written}));
        PGCODEC_EXPECT(r.consumed == all.r.consumed && r.written == all.r.written);
      }
      seen[pass].assign(buf.data(), r.written);
    }
    PGCODEC_EXPECT_BYTES(seen[0], seen[1]);
  }
  return {};
}

namespace {

// Every field a C caller reads of `got` equals the C++ API's `want`: the
// counts and status, and on an error its kind, offset, quoted bytes and
// their length, skip, the two encodings, SQLSTATE and message.
CheckResult same_c_result(const Result& want, const pgcodec_result& got, const std::string& where) {
  PGCODEC_EXPECT(got.status == static_cast<int>(want.status), where);
  PGCODEC_EXPECT(got.consumed == want.consumed && got.written == want.written,
                 where + ": consumed " + std::to_string(got.consumed) + " written " + std::to_string(got.written) +
                     ", C++ " + std::to_string(want.consumed) + " " + std::to_string(want.written));
  char msg[160];
  const std::size_t len = pgcodec_error_message(&got, msg, sizeof msg);
  if (want.status != Status::Error) {
    PGCODEC_EXPECT(len == 0 && pgcodec_error_sqlstate(&got) == nullptr, where);
    return {};
  }
  const Error& e = want.error;
  PGCODEC_EXPECT(got.error_kind == static_cast<int>(e.kind), where);
  PGCODEC_EXPECT(got.error_offset == e.offset, where + ": error_offset " + std::to_string(got.error_offset));
  PGCODEC_EXPECT(got.error_length == e.length, where);
  PGCODEC_EXPECT(got.error_skip == e.skip, where + ": error_skip " + std::to_string(got.error_skip));
  PGCODEC_EXPECT(got.error_encoding == to_int(e.encoding) && got.error_target == to_int(e.target), where);
  PGCODEC_EXPECT(std::memcmp(got.error_bytes, e.bytes.data(), e.length) == 0, where);
  const std::string message = e.message();
  PGCODEC_EXPECT(len == message.size() && std::string(msg, std::min(len, sizeof msg - 1)) ==
                                              message.substr(0, sizeof msg - 1), where + ": " + msg);
  PGCODEC_EXPECT(pgcodec_error_sqlstate(&got) && std::string(pgcodec_error_sqlstate(&got)) == e.sqlstate(), where);
  return {};
}

}  // namespace

CheckResult check_c_api_fields(const Codec& c, bool decoding, ErrorMode mode, std::string_view in,
                               std::span<const std::size_t> chunks, std::size_t small) {
  const pgcodec_codec* cc = pgcodec_find(std::string(c.name()).c_str());
  PGCODEC_EXPECT(cc != nullptr);
  const int cmode = mode == ErrorMode::Strict ? PGCODEC_STRICT : PGCODEC_REPLACE;
  const std::size_t full = capacity(c, decoding, in.size());
  // One-shot, into the bound and into a small buffer; and decode_partial.
  for (const std::size_t cap : {full, small % (full + 1)}) {
    std::vector<char> a(cap + 1), b(cap + 1);
    const std::span<char> out(a.data(), cap);
    const Result want = decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
    const pgcodec_result got = decoding ? pgcodec_decode(cc, in.data(), in.size(), b.data(), cap, cmode)
                                        : pgcodec_encode(cc, in.data(), in.size(), b.data(), cap, cmode);
    if (auto bad = same_c_result(want, got, decoding ? "pgcodec_decode" : "pgcodec_encode")) return bad;
    PGCODEC_EXPECT(std::memcmp(a.data(), b.data(), want.written) == 0);
    if (decoding) {
      const Result wp = c.decode_partial(in, out, mode);
      const pgcodec_result gp = pgcodec_decode_partial(cc, in.data(), in.size(), b.data(), cap, cmode);
      if (auto bad = same_c_result(wp, gp, "pgcodec_decode_partial")) return bad;
    }
  }
  // The stream of the same direction, fed the same chunks, then finished:
  // every result and output_bound as the C++ stream's.
  pgcodec_stream* st = decoding ? pgcodec_stream_new(cc, cmode) : pgcodec_stream_encoder_new(cc, cmode);
  PGCODEC_EXPECT(st != nullptr);
  std::unique_ptr<pgcodec_stream, void (*)(pgcodec_stream*)> owned(st, &pgcodec_stream_free);
  detail::StreamCore cpp(c, mode, decoding);
  std::size_t at = 0, k = 0;
  for (bool done = false; !done;) {
    std::size_t n = chunks.empty() ? in.size() : chunks[k++ % chunks.size()];
    if (n == 0 && k > 2 * chunks.size()) n = 1;
    n = std::min(n, in.size() - at);
    const bool last = at == in.size();
    std::size_t bound = 0;
    PGCODEC_EXPECT(pgcodec_stream_output_bound(st, last ? 0 : n, &bound) == 0);
    PGCODEC_EXPECT(bound == *cpp.output_bound(last ? 0 : n), "pgcodec_stream_output_bound");
    std::vector<char> a(bound + 1), b(bound + 1);
    Result want;
    pgcodec_result got;
    if (last) {
      want = cpp.finish(std::span<char>(a.data(), bound));
      got = pgcodec_stream_finish(st, b.data(), bound);
      done = true;
    } else {
      want = cpp.feed(in.substr(at, n), std::span<char>(a.data(), bound));
      got = pgcodec_stream_feed(st, in.data() + at, n, b.data(), bound);
      at += n;
    }
    if (auto bad = same_c_result(want, got, last ? "pgcodec_stream_finish" : "pgcodec_stream_feed")) return bad;
    PGCODEC_EXPECT(std::memcmp(a.data(), b.data(), want.written) == 0);
    if (want.status == Status::Error) break;
  }
  return {};
}

CheckResult check_c_api_edges(const Codec& c, bool decoding, ErrorMode mode, std::string_view in) {
  const std::string name(c.name());
  const pgcodec_codec* cc = pgcodec_find(name.c_str());
  PGCODEC_EXPECT(cc != nullptr);
  const int cmode = mode == ErrorMode::Strict ? PGCODEC_STRICT : PGCODEC_REPLACE;
  auto call = [&](const pgcodec_codec* k, const char* data, std::size_t len, char* out, std::size_t cap) {
    return decoding ? pgcodec_decode(k, data, len, out, cap, cmode) : pgcodec_encode(k, data, len, out, cap, cmode);
  };
  // Empty input with no buffer.
  pgcodec_result r = call(cc, nullptr, 0, nullptr, 0);
  PGCODEC_EXPECT(r.status == PGCODEC_OK && r.consumed == 0 && r.written == 0);
  // No output space: the C++ API's answer for an empty span.
  r = call(cc, in.data(), in.size(), nullptr, 0);
  const Result want = decoding ? c.decode(in, std::span<char>{}, mode) : c.encode(in, std::span<char>{}, mode);
  PGCODEC_EXPECT(static_cast<int>(r.status) == static_cast<int>(want.status));
  PGCODEC_EXPECT(r.consumed == want.consumed && r.written == 0);
  if (want.status == Status::Error) PGCODEC_EXPECT_AGREE(from_result(want, {}), from_result(from_c(r), {}));
  // What the header forbids.
  char one = 'x';
  for (const pgcodec_result& bad : {call(nullptr, in.data(), in.size(), &one, 1),
                                    call(cc, nullptr, in.size() + 1, &one, 1),
                                    call(cc, in.data(), in.size(), nullptr, 1)}) {
    PGCODEC_EXPECT(bad.status == PGCODEC_INVALID_ARGUMENT);
    PGCODEC_EXPECT(bad.consumed == 0 && bad.written == 0);
  }
  PGCODEC_EXPECT(one == 'x');
  // Sizes and lengths.
  std::size_t size = 0;
  PGCODEC_EXPECT(pgcodec_max_decoded_size(cc, in.size(), nullptr) == -1);
  PGCODEC_EXPECT(pgcodec_max_encoded_size(nullptr, in.size(), &size) == -1);
  PGCODEC_EXPECT(pgcodec_char_length(cc, nullptr, 0, 0) == 0);
  PGCODEC_EXPECT(!c.max_decoded_size(SIZE_MAX) && !c.max_encoded_size(SIZE_MAX));
  PGCODEC_EXPECT(pgcodec_max_decoded_size(cc, SIZE_MAX, &size) == -1 && pgcodec_max_encoded_size(cc, SIZE_MAX, &size) == -1);
  PGCODEC_EXPECT(pgcodec_max_decoded_size(cc, in.size(), &size) == 0 && size == *c.max_decoded_size(in.size()));
  PGCODEC_EXPECT(!pgcodec_by_id(-1) && !pgcodec_by_id(encoding_count) && pgcodec_id(nullptr) == -1 && !pgcodec_name(nullptr));
  PGCODEC_EXPECT(pgcodec_char_length(cc, in.data(), in.size(), in.size()) == 0);
  // A message into no buffer reports its length, as snprintf does.
  std::vector<char> out(capacity(c, decoding, in.size()));
  r = call(cc, in.data(), in.size(), out.data(), out.size());
  const std::size_t len = pgcodec_error_message(&r, nullptr, 0);
  if (r.status == PGCODEC_ERROR) {
    PGCODEC_EXPECT(len == from_c(r).error.message().size());
    PGCODEC_EXPECT(pgcodec_error_sqlstate(&r) != nullptr);
  } else {
    PGCODEC_EXPECT(len == 0 && pgcodec_error_sqlstate(&r) == nullptr);
  }
  // A stream fed nothing into no buffer.
  if (decoding) {
    pgcodec_stream* st = pgcodec_stream_new(cc, cmode);
    PGCODEC_EXPECT(st != nullptr);
    const pgcodec_result f = pgcodec_stream_feed(st, nullptr, 0, nullptr, 0);
    const pgcodec_result e = pgcodec_stream_finish(st, nullptr, 0);
    pgcodec_stream_free(st);
    PGCODEC_EXPECT(f.status == PGCODEC_OK && e.status == PGCODEC_OK && f.written + e.written == 0);
    PGCODEC_EXPECT(pgcodec_stream_feed(nullptr, in.data(), in.size(), out.data(), out.size()).status ==
                   PGCODEC_INVALID_ARGUMENT);
  }
  return {};
}

}  // namespace pgcodec::harness

namespace pgcodec::harness {

CheckResult check_name(std::string_view name) {
  // PostgreSQL's rule, written here on its own: the name is a C string (it
  // ends at the first NUL); one of NAMEDATALEN (64) bytes or more names
  // nothing (pg_char_to_encoding compares within 63 bytes, never cuts);
  // otherwise ASCII letters and digits, lowercased, are looked up among the
  // aliases (pg_encname_tbl).
  const std::string_view c_string = name.substr(0, name.find('\0'));
  std::optional<Encoding> want;
  if (c_string.size() < 64) {
    std::string clean;
    for (char ch : c_string) {
      if (ch >= 'A' && ch <= 'Z') clean += static_cast<char>(ch - 'A' + 'a');
      else if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) clean += ch;
    }
    for (const Alias& a : aliases())
      if (a.name == clean) want = a.encoding;
  }
  const auto shown = [&](std::optional<Encoding> e) { return e ? std::string(info(*e).name) : std::string("unknown"); };
  const std::string where = "name " + hex_bytes(name) + " (" + std::to_string(c_string.size()) + " bytes), want " + shown(want);
  PGCODEC_EXPECT(lookup(name) == want, where + ", lookup " + shown(lookup(name)));
  const Codec* found = find_codec(name);
  PGCODEC_EXPECT((found ? std::optional<Encoding>(found->encoding()) : std::nullopt) == want, where + ", find_codec");
  const std::string z(c_string);  // what a C caller passes
  const pgcodec_codec* cc = pgcodec_find(z.c_str());
  PGCODEC_EXPECT((cc ? std::optional<Encoding>(static_cast<Encoding>(pgcodec_id(cc))) : std::nullopt) == want,
                 where + ", pgcodec_find " + (cc ? pgcodec_name(cc) : "unknown"));
  char out[4];
  bool threw = false;
  try {
    (void)pgcodec::decode(name, "a", out);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  PGCODEC_EXPECT(threw == !want, where + ", pgcodec::decode by name");
  return {};
}

}  // namespace pgcodec::harness
