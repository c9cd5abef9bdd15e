// Properties of the codecs that hold for every encoding and every kernel:
// text and bytes round-trip but for the exceptions the tables enumerate,
// the fast path equals the table model (offsets, quoted bytes, messages),
// the paths agree, streaming equals one-shot decoding, Replace mode
// replaces exactly what check() reports, check() equals repeated strict
// conversion, char_length finds character starts, the kernels agree, and
// buffers are never overrun.
//
// What each property checks is defined once, in harness/core/checks.hpp,
// which the fuzz targets run too; this file chooses the inputs. Each TEST_P
// is one property for one encoding; it runs rc::check once per kernel in
// kernels::available(). The number of cases comes from RC_PARAMS (set per
// test by props/CMakeLists.txt).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "core/checks.hpp"
#include "core/cpu.hpp"
#include "core/generators.hpp"
#include "core/text.hpp"
#include "inputs.hpp"
#include "kernels/kernels.hpp"
#include "pgcodec/codec.hpp"

namespace pgcodec {
// How RapidCheck prints an ErrorMode in a counterexample.
inline void showValue(ErrorMode m, std::ostream& os) {
  os << (m == ErrorMode::Strict ? "Strict" : "Replace");
}
}  // namespace pgcodec

namespace pgcodec::props {
namespace {

// Fails the property with the check's account of what went wrong.
void require(const harness::CheckResult& r) {
  if (r) RC_FAIL(*r);
}

// Logs the input with the counterexample, in hex with the encoding named:
// "SJIS decode input: 82 a0 41".
void show_input(const Codec& c, bool decoding, std::string_view in) {
  RC_LOG() << c.name() << (decoding ? " decode" : " encode") << " input: " << harness::hex_bytes(in) << "\n";
}

// A string to decode (bytes in the encoding, errors included) or to encode
// (UTF-8 with the encoding's repertoire, foreign code points and malformed
// UTF-8), logged.
std::string any_input(const Codec& c, bool decoding) {
  std::string in = decoding ? *bytes_in(c.encoding()) : *utf8_for(c.encoding());
  show_input(c, decoding, in);
  return in;
}

ErrorMode any_mode() { return *rc::gen::element(ErrorMode::Strict, ErrorMode::Replace); }

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

// 1. Round trip text: text from the encoding's repertoire encodes, and
// decodes back to itself unless it holds a code point of the enumerated
// one-way mappings; then it decodes to what the model's tables say.
TEST_P(Props, RoundTripText) {
  const Codec& c = codec();
  for_each_kernel("round trip text", [&] {
    const std::string text = *text_in(c.encoding());
    show_input(c, false, text);
    require(harness::check_round_trip_text(c, text));
  });
}

// 2. Round trip bytes: well-formed, mapped bytes decode, and encode back to
// themselves unless they hold an enumerated non-injective code or two
// characters whose code points form a combined character; then they encode
// to what the model says.
TEST_P(Props, RoundTripBytes) {
  const Codec& c = codec();
  for_each_kernel("round trip bytes", [&] {
    const std::string bytes = *valid_bytes_in(c.encoding());
    show_input(c, true, bytes);
    require(harness::check_round_trip_bytes(c, bytes));
  });
}

// 3. Model: the fast path equals the table model (harness/core, which
// shares no code with the codecs) on strings with and without errors: the
// output, or the error's kind, offset, quoted bytes, SQLSTATE and message,
// and what was converted before it.
TEST_P(Props, FastPathEqualsModel) {
  const Codec& c = codec();
  for_each_kernel("model", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    require(harness::check_model(c, decoding, any_input(c, decoding)));
  });
}

// 5. Streaming: StreamDecoder fed in chunks of 1, 2, 3, 7 bytes or random
// sizes (empty chunks included) equals one-shot decoding, in both modes;
// and so does StreamEncoder (and Codec::encode_partial, the step it is made of)
// fed the same chunk sizes.
TEST_P(Props, StreamingEqualsOneShot) {
  const Codec& c = codec();
  for_each_kernel("streaming", [&] {
    const std::string in = any_input(c, true);
    const ErrorMode mode = any_mode();
    const std::size_t fixed = *rc::gen::element<std::size_t>(1, 2, 3, 7, 0);  // 0: random sizes
    const std::vector<std::size_t> sizes =
        fixed ? std::vector<std::size_t>{fixed}
              : *rc::gen::nonEmpty(rc::gen::container<std::vector<std::size_t>>(rc::gen::inRange<std::size_t>(0, 13)));
    require(harness::check_streaming(c, in, mode, sizes));
    require(harness::check_streaming_encode(c, any_input(c, false), mode, sizes));
  });
}

// 6. Paths: the cached codec, find_codec, the by-name functions and the C
// API give the same outcome.
TEST_P(Props, PathsAgree) {
  const Codec& c = codec();
  for_each_kernel("paths", [&] {
    require(harness::check_paths(c, true, any_input(c, true)));
    require(harness::check_paths(c, false, any_input(c, false)));
    const bool decoding = *rc::gen::arbitrary<bool>();
    require(harness::check_c_api_fields(c, decoding, any_mode(), any_input(c, decoding), {},
                                        *rc::gen::arbitrary<std::size_t>()));
  });
}

// 7. Replace mode never fails, writes valid UTF-8 (decoding) or bytes the
// encoding's rules accept (encoding), equals strict mode on valid input,
// and replaces exactly the spans check() reports (the model's replacement
// of each error's skip bytes).
TEST_P(Props, ReplaceReplacesWhatCheckReports) {
  const Codec& c = codec();
  for_each_kernel("replace", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    require(harness::check_replace(c, decoding, any_input(c, decoding)));
  });
}

// 8. Errors: check_decode / check_encode report, in order, the errors that
// strict conversion finds when restarted after each error's skip, and they
// are the model's.
TEST_P(Props, CheckEqualsRepeatedStrictConversion) {
  const Codec& c = codec();
  for_each_kernel("check", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    require(harness::check_errors(c, decoding, any_input(c, decoding)));
  });
}

// 9. Boundaries: over any well-formed string (unmapped characters and
// ASCII-range trail bytes included) char_length steps as the model's
// grammar does, and over a decodable one decoding the pieces it cuts
// equals decoding the whole.
TEST_P(Props, CharLengthFindsCharacterStarts) {
  const Codec& c = codec();
  for_each_kernel("boundaries", [&] {
    const std::string any = *well_formed_bytes_in(c.encoding());
    show_input(c, true, any);
    require(harness::check_char_length(c, any));
    const std::string valid = *valid_bytes_in(c.encoding());
    show_input(c, true, valid);
    require(harness::check_char_pieces(c, valid));
  });
}

// 10. Kernels: every kernel gives the same outcome and the same output up
// to the error on the same input.
TEST_P(Props, KernelsAgree) {
  const Codec& c = codec();
  const std::string name = "kernels [" + std::string(c.name()) + "]";
  EXPECT_TRUE(rc::check(name, [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const ErrorMode mode = any_mode();
    require(harness::check_kernels(c, decoding, mode, any_input(c, decoding)));
  }));
}

// 11. Buffers: with any smaller output buffer the result is OutputFull (or
// the same error, when it comes first) with a prefix of the full output,
// and nothing is written past the buffer; both fill patterns give the same
// bytes, so every byte counted as written was written.
TEST_P(Props, SmallBuffersGivePrefixes) {
  const Codec& c = codec();
  for_each_kernel("buffers", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const ErrorMode mode = any_mode();
    const std::string in = any_input(c, decoding);
    require(harness::check_buffers(c, decoding, mode, in, *rc::gen::arbitrary<std::size_t>()));
  });
}

// 13. Code units: decode_units and encode_units in every form equal the
// UTF-8 path, positions translated (harness/core/checks.hpp check_units),
// under every kernel.
TEST_P(Props, CodeUnitsEqualUtf8) {
  const Codec& c = codec();
  for_each_kernel("units", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const ErrorMode mode = any_mode();
    const std::string in = any_input(c, decoding);
    require(harness::check_units(c, decoding, mode, in, *rc::gen::arbitrary<std::size_t>()));
  });
}

// 13, continued: on dense text of every character length (props/inputs
// dense_text), which the code-unit block kernels take in mixed blocks.
TEST_P(Props, CodeUnitsOnDenseText) {
  const Codec& c = codec();
  for_each_kernel("units on dense text", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const ErrorMode mode = any_mode();
    const std::string in = *dense_text(c.encoding(), decoding);
    show_input(c, decoding, in);
    require(harness::check_units(c, decoding, mode, in, *rc::gen::arbitrary<std::size_t>()));
  });
}

// 11, continued: the C API with the null pointers and zero capacities
// pgcodec.h allows (a NULL buffer with length 0) converts exactly as an
// empty span does; the ones it forbids are PGCODEC_INVALID_ARGUMENT and
// convert nothing. The sanitize preset runs this too.
TEST_P(Props, CApiNullsAndZeroCapacities) {
  const Codec& c = codec();
  for_each_kernel("c api nulls", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const ErrorMode mode = any_mode();
    require(harness::check_c_api_edges(c, decoding, mode, any_input(c, decoding)));
  });
}

// 12. Block edges: each edge piece of the encoding (harness/core
// edge_pieces: cut-off leads, whole characters of every length, grammar
// edges, malformed UTF-8, ASCII-looking trails) at every offset from 0 to
// 2 * 64 + 3, so at every position relative to the 16-, 32- and 64-byte
// blocks of every kernel, after ASCII or a run of one script, and followed
// by ASCII, by the same script, or by the end of the input. Every kernel
// gives the same outcome and bytes, and at one offset (drawn) the best
// kernel gives the model's and every kernel's code-unit paths equal the
// UTF-8 path.
TEST_P(Props, BlockEdges) {
  const Codec& c = codec();
  const std::string name = "block edges [" + std::string(c.name()) + "]";
  EXPECT_TRUE(rc::check(name, [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const ErrorMode mode = any_mode();
    const std::string piece = *rc::gen::elementOf(harness::edge_pieces(c.encoding(), decoding));
    const harness::Repertoire& rep = harness::repertoire(c.encoding());
    std::string filler;  // one character of one script; empty: ASCII
    if (!rep.scripts.empty() && *rc::gen::arbitrary<bool>()) {
      const harness::Repertoire::Script& script = *rc::gen::elementOf(rep.scripts);
      filler = *rc::gen::elementOf(decoding ? script.chars : script.text);
    }
    const int follow = *rc::gen::inRange(0, 3);  // ASCII, the same script, the end
    const std::string after = follow == 0 ? "a" : follow == 1 ? (filler.empty() ? "b" : filler) : "";
    RC_LOG() << c.name() << (decoding ? " decode" : " encode") << " piece " << harness::hex_bytes(piece)
             << " after " << (filler.empty() ? "ASCII" : harness::hex_bytes(filler)) << ", then "
             << (after.empty() ? "the end" : harness::hex_bytes(after)) << "\n";
    constexpr std::size_t kOffsets = 2 * 64 + 4;
    const std::size_t model_at = *rc::gen::inRange<std::size_t>(0, kOffsets);
    for (std::size_t offset = 0; offset < kOffsets; ++offset) {
      const std::string in = harness::place(piece, offset, filler, after, 72);
      if (auto r = harness::check_kernels(c, decoding, mode, in)) RC_FAIL("at offset " + std::to_string(offset) + ": " + *r);
      if (offset == model_at) {
        require(harness::check_model(c, decoding, in));
        // The code-unit paths, under every kernel, at the same offset.
        const kernels::Kernel& saved = kernels::active();
        for (const kernels::Kernel& k : kernels::available()) {
          kernels::set_active(k);
          auto r = harness::check_units(c, decoding, mode, in, offset);
          kernels::set_active(saved);
          if (r) RC_FAIL(std::string(k.name) + ": " + *r);
        }
      }
    }
  }));
}

// 13. Long runs of one script (128-400 bytes of characters sharing a UTF-8
// lead byte, solid or with spaces), so the block kernels take whole blocks;
// with one edge piece inserted or none. The model's outcome, the code-unit
// paths equal the UTF-8 path, a smaller output buffer gives a prefix (the
// blocks and rounds that size their bytes by the room left), and a clean
// run round-trips.
TEST_P(Props, LongRunsOfOneScript) {
  const Codec& c = codec();
  for_each_kernel("long runs", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const bool with_error = *rc::gen::arbitrary<bool>();
    const std::string in = *script_run(c.encoding(), decoding, with_error);
    show_input(c, decoding, in);
    require(harness::check_model(c, decoding, in));
    require(harness::check_replace(c, decoding, in));
    // The code-unit paths too: their block kernels (UTF-8 <-> 16-bit units)
    // take such runs whole, and stop at the inserted piece.
    require(harness::check_units(c, decoding, any_mode(), in, *rc::gen::arbitrary<std::size_t>()));
    require(harness::check_buffers(c, decoding, any_mode(), in, *rc::gen::arbitrary<std::size_t>()));
    if (!with_error)
      require(decoding ? harness::check_round_trip_bytes(c, in) : harness::check_round_trip_text(c, in));
  });
}

// 13, continued: one piece (a NUL a third of the time) at a 64-byte block
// edge of dense text up to 800 bytes long, where the block kernels' loops
// of 64 to 256 bytes turn over. The model's outcome, and the code-unit paths
// (the LATIN1 copy among them) in either mode equal the UTF-8 path.
TEST_P(Props, PieceAtBlockEdge) {
  const Codec& c = codec();
  for_each_kernel("piece at block edge", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const std::string in = *piece_at_block_edge(c.encoding(), decoding);
    show_input(c, decoding, in);
    require(harness::check_model(c, decoding, in));
    require(harness::check_units(c, decoding, any_mode(), in, *rc::gen::arbitrary<std::size_t>()));
  });
}

// 14. Streams around errors: chunk boundaries a few bytes before, at and
// after the first error, then small chunks; the end finished into small
// buffers (OutputFull keeps what is held back). The stream equals one-shot
// conversion, `consumed` after an error counts only the chunk's bytes, and
// the C API (one-shot, decode_partial and its stream) returns every field
// as the C++ API does.
TEST_P(Props, StreamsAroundErrors) {
  const Codec& c = codec();
  for_each_kernel("streams around errors", [&] {
    const bool decoding = *rc::gen::arbitrary<bool>();
    const ErrorMode mode = any_mode();
    const std::string in = any_input(c, decoding);
    std::vector<char> out(std::max<std::size_t>(1, decoding ? *c.max_decoded_size(in.size())
                                                            : *c.max_encoded_size(in.size())));
    const Result one = decoding ? c.decode(in, out) : c.encode(in, out);
    const std::size_t at = one.ok() ? in.size() / 2 : one.error.offset;
    const std::size_t first = static_cast<std::size_t>(
        std::max<long>(0, static_cast<long>(at) + *rc::gen::inRange<long>(-3, 4)));
    std::vector<std::size_t> sizes{first};
    for (std::size_t k = *rc::gen::inRange<std::size_t>(1, 4); k; --k)
      sizes.push_back(*rc::gen::inRange<std::size_t>(0, 5));
    RC_LOG() << "chunks " << rc::toString(sizes) << "\n";
    require(decoding ? harness::check_streaming(c, in, mode, sizes)
                     : harness::check_streaming_encode(c, in, mode, sizes));
    require(harness::check_c_api_fields(c, decoding, mode, in, sizes, *rc::gen::arbitrary<std::size_t>()));
  });
}

std::vector<Encoding> all_encodings() {
  std::vector<Encoding> v;
  for (const EncodingInfo& i : encodings()) v.push_back(i.id);
  return v;
}

// 15. Names at PostgreSQL's NAMEDATALEN limit: an alias (its letters' case
// changed, separators put in) padded with characters the name rule drops
// to every length from 60 to 68 bytes, the same names with letters past
// byte 63 (an alias only if cut there), and with a NUL at byte 63-65
// resolve by PostgreSQL's rule through every lookup path (harness/core
// check_name).
TEST(Names, AtTheLengthLimit) {
  EXPECT_TRUE(rc::check("names at the length limit", [] {
    const Alias& a = *rc::gen::elementOf(std::vector<Alias>(aliases().begin(), aliases().end()));
    const std::string fill = " -_.";
    // The alias as a user might spell it: letters in either case, a
    // separator here and there.
    std::string spelled;
    for (char ch : a.name) {
      spelled += *rc::gen::arbitrary<bool>() && ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
      if (*rc::gen::inRange(0, 4) == 0) spelled += fill[*rc::gen::inRange<std::size_t>(0, fill.size())];
    }
    const std::size_t at = *rc::gen::inRange<std::size_t>(0, spelled.size() + 1);  // where padding goes
    const char pad = fill[*rc::gen::inRange<std::size_t>(0, fill.size())];
    RC_LOG() << "alias " << a.name << " spelled " << harness::hex_bytes(spelled) << ", padded at " << at << "\n";
    // Every length around the limit, each three ways.
    for (std::size_t length = std::max<std::size_t>(60, spelled.size()); length <= 68; ++length) {
      std::string name = spelled;
      name.insert(at, length - spelled.size(), pad);
      require(harness::check_name(name));
      // Letters past byte 63: the alias only if the name were cut there.
      std::string cut = name;
      if (cut.size() > 63) cut.replace(63, std::string::npos, cut.size() - 63, 'x');
      require(harness::check_name(cut));
      // A NUL at byte 63 or later: what comes after it is not the name's.
      std::string nul = name;
      nul.insert(std::min<std::size_t>(nul.size(), 63 + length % 3), std::string("\0zz", 3));
      require(harness::check_name(nul));
    }
  }));
}

// 16. Dispatch: the kernel conversions start with is the best one this
// machine runs (read from the CPU's flags here, not from the library), or
// the one PGCODEC_FORCE_IMPL names; so a dispatcher that settles for a
// slower kernel fails, though its results would agree.
TEST(Kernels, ActiveIsTheBestThisMachineRuns) {
  const char* forced = std::getenv("PGCODEC_FORCE_IMPL");
  const std::string want = forced && *forced ? forced : harness::best_kernel_name();
  EXPECT_EQ(kernels::active().name, want);
  EXPECT_EQ(kernels::available().back().name, harness::best_kernel_name());
  const bool blocks = harness::cpu_has("avx512vbmi") && harness::cpu_has("avx512_vbmi2") && harness::cpu_has("bmi2") &&
                      harness::cpu_has("popcnt");
  for (const kernels::Kernel& k : kernels::available())
    EXPECT_EQ(k.single_byte_decode != nullptr && k.single_byte_encode != nullptr,
              blocks && std::string_view(k.name) == "avx512")
        << k.name;
}

INSTANTIATE_TEST_SUITE_P(Every, Props, ::testing::ValuesIn(all_encodings()),
                         [](const ::testing::TestParamInfo<Encoding>& p) {
                           return std::string(pgcodec::info(p.param).name);
                         });

}  // namespace
}  // namespace pgcodec::props
