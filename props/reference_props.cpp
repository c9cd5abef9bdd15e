// 4. References: the fast path equals ICU and Python's codecs modulo the
// divergence registry (corpus/divergences/<ENC>.<reference>.tsv), for every
// encoding that has a reference and under every kernel. One TEST_P per
// encoding and reference; it runs rc::check once per kernel in
// kernels::available(), with the number of cases from RC_PARAMS (set per
// test by props/CMakeLists.txt). PostgreSQL's side is pgcodec's outcome:
// the live tests and the verifier hold pgcodec to the server.
//
// The registry is per character, as the verifier builds it: a decode row for
// every byte sequence it enumerates that is one character by its lead byte,
// an encode row for every code point and every combined pair PostgreSQL
// writes as one code. For a random string the property is:
//
//  (a) Split it into PostgreSQL's characters: decode by the encoding's byte
//      grammar (core/byte_rules.hpp; a malformed piece is as long as its lead
//      byte says, capped at the end), encode into UTF-8 characters, taking
//      two code points as one where the encoding has a code for the pair
//      (UtfToLocal's greedy lookahead). Compare pgcodec and the reference on
//      each piece alone. A disagreement on an input the verifier enumerates
//      must be exactly one of its rows: same direction, input, outcomes and
//      category. An input it does not enumerate has no row, so it must agree
//      outright; that is only asked where PostgreSQL and the reference read
//      the input by one standard (UTF-8, RFC 3629: UTF8's three- and
//      four-byte characters, malformed UTF-8 given to ICU to encode). Other
//      pieces are not compared (see below), nor is a string that holds one.
//  (b) If every piece was compared and agrees, the whole string agrees as
//      well. A reference converts a string character by character, so the
//      whole is what the pieces say: both convert to the same text, or both
//      fail at the first failing piece, the same way (classify() compares
//      offsets only when both sides report one; ICU reports none). A string
//      that holds malformed text is compared as accept/reject only: ICU reads
//      all the UTF-8 it is given before it writes, so it can report a
//      malformed character that follows an unmapped one. And it is not
//      compared at all when pgcodec's first error is a malformed piece that
//      the reference accepts together with the rest of the string: PostgreSQL's
//      character boundaries hold for well-formed characters, but a reference
//      can read a malformed piece as the start of a longer character of its
//      own (EUC_CN's "81 30 81 30" is one character to GB18030, two invalid
//      ones to PostgreSQL), so a piece it rejects alone it may accept in context.
//  (c) Strings where a combining mark follows a piece are compared piece by
//      piece only (see combining_mark()).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/byte_rules.hpp"
#include "core/model.hpp"
#include "core/outcome.hpp"
#include "core/registry.hpp"
#include "core/text.hpp"
#include "inputs.hpp"
#include "kernels/kernels.hpp"
#include "oracle/oracle.hpp"
#include "oracle/python.hpp"
#include "pgcodec/codec.hpp"

#ifndef PGCODEC_SOURCE_REGISTRY
#error "PGCODEC_SOURCE_REGISTRY (the source tree's corpus/divergences) is set by props/CMakeLists.txt"
#endif

namespace pgcodec::props {
namespace {

using harness::Category;
using harness::classify;
using harness::describe;
using harness::Direction;
using harness::hex_bytes;
using harness::Outcome;
using harness::RegistryRow;

// One encoding and one of its references.
struct Subject {
  Encoding encoding;
  std::string reference;  // the registry's name: "icu-windows-31j", "python-cp932"
  std::string python;     // the Python codec, empty for ICU
};

// Every file of the registry is a test. Listing them reads file names
// only: the tests are listed at build time, outside the sanitizer settings
// that keep the embedded CPython's allocations at exit from counting as
// leaks, so listing must not start Python. The test itself checks that its
// reference is one the verifier compares, and
// ReferenceRegistry.EveryReferenceHasAFile that every such one has a file.
std::vector<Subject> all_subjects() {
  std::vector<Subject> v;
  for (const auto& entry : std::filesystem::directory_iterator(PGCODEC_SOURCE_REGISTRY)) {
    const std::string file = entry.path().filename().string();
    const auto dot = file.find('.');
    if (!file.ends_with(".tsv") || dot == std::string::npos) continue;
    const std::optional<Encoding> e = lookup(file.substr(0, dot));
    if (!e) continue;
    Subject s{*e, file.substr(dot + 1, file.size() - dot - 1 - 4), ""};
    if (s.reference.starts_with("python-")) s.python = s.reference.substr(7);
    v.push_back(std::move(s));
  }
  std::sort(v.begin(), v.end(), [](const Subject& a, const Subject& b) {
    return std::pair(to_int(a.encoding), a.reference) < std::pair(to_int(b.encoding), b.reference);
  });
  return v;
}

// The references the verifier compares for `e`, by their registry names.
std::vector<std::string> references_of(Encoding e) {
  std::vector<std::string> v;
  if (auto icu = oracle::icu_reference(e)) v.push_back(icu->name());
  for (const oracle::PythonChoice& c : oracle::python_choices(e))
    v.push_back(oracle::python_reference(c.codec)->name());
  return v;
}

std::unique_ptr<oracle::Reference> open_reference(const Subject& s) {
  return s.python.empty() ? oracle::icu_reference(s.encoding) : oracle::python_reference(s.python);
}

enum class PieceKind { Char, Pair, Malformed };
struct Piece {
  std::size_t at, size;
  PieceKind kind;
};

// PostgreSQL's characters of bytes in `e`. SQL_ASCII's client path
// validates its input as UTF-8, so it is cut into UTF-8 characters.
std::vector<Piece> decode_pieces(Encoding e, std::string_view s) {
  const Encoding rules = e == Encoding::SQL_ASCII ? Encoding::UTF8 : e;
  std::vector<Piece> v;
  for (std::size_t i = 0; i < s.size();) {
    const std::string_view rest = s.substr(i);
    if (const std::size_t n = harness::well_formed_length(rules, rest)) {
      v.push_back({i, n, PieceKind::Char});
      i += n;
    } else {
      const std::size_t bad = std::min(std::max<std::size_t>(harness::lead_length(rules, rest), 1), rest.size());
      v.push_back({i, bad, PieceKind::Malformed});
      i += bad;
    }
  }
  return v;
}

// The UTF-8 characters of `s`, two taken as one where `m` has a code for
// the pair (PostgreSQL's UtfToLocal looks one character ahead, greedily).
std::vector<Piece> encode_pieces(const harness::TableModel& m, std::string_view s) {
  std::vector<Piece> v;
  auto code_point = [&](std::size_t at, std::size_t n) { return harness::code_points_of(s.substr(at, n)).at(0); };
  for (std::size_t i = 0; i < s.size();) {
    const std::string_view rest = s.substr(i);
    const std::size_t n = harness::well_formed_length(Encoding::UTF8, rest);
    if (!n) {
      const std::size_t bad =
          std::min(std::max<std::size_t>(harness::lead_length(Encoding::UTF8, rest), 1), rest.size());
      v.push_back({i, bad, PieceKind::Malformed});
      i += bad;
      continue;
    }
    if (const std::size_t n2 = harness::well_formed_length(Encoding::UTF8, rest.substr(n));
        n2 && m.encode_pair(code_point(i, n), code_point(i + n, n2))) {
      v.push_back({i, n + n2, PieceKind::Pair});
      i += n + n2;
      continue;
    }
    v.push_back({i, n, PieceKind::Char});
    i += n;
  }
  return v;
}

// Whether the verifier asks the references about this decode input: the
// inputs of harness::decode_candidates() that are one character by their
// lead byte (verifier/verify.cpp, its one_in).
bool enumerated_decode_input(Encoding e, std::string_view p) {
  if (p.empty() || std::min(harness::lead_length(e, p), p.size()) != p.size()) return false;
  auto b = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(p[i])); };
  auto high = [&](std::size_t from) {
    for (std::size_t i = from; i < p.size(); ++i)
      if (b(i) < 0x80) return false;
    return true;
  };
  switch (p.size()) {
    case 1: return true;
    case 2: return b(0) >= 0x80;
    case 3:
      if (e == Encoding::EUC_JP || e == Encoding::EUC_JIS_2004 || e == Encoding::EUC_TW)
        return b(0) == 0x8F && high(1);
      if (e == Encoding::MULE_INTERNAL) return b(0) >= 0x90 && b(0) <= 0x9B && high(1);
      return false;
    case 4:
      if (e == Encoding::EUC_TW) return b(0) == 0x8E && high(1);
      if (e == Encoding::GB18030)
        return b(0) >= 0x81 && b(0) <= 0xFE && b(1) >= 0x30 && b(1) <= 0x39 && b(2) >= 0x81 &&
               b(2) <= 0xFE && b(3) >= 0x30 && b(3) <= 0x39;
      return false;
    default: return false;
  }
}

// A code point the references may combine with the character before it
// into one code where PostgreSQL writes two: the combining diacritics, the
// kana voicing marks and the tone letters, the second halves of every
// combined pair in JIS X 0213 (EUC_JIS_2004, SHIFT_JIS_2004 and Python's
// *_2004/*x0213 codecs) and HKSCS (Python's big5hkscs, used for BIG5). Where
// one follows a piece, the reference's result for the whole string is not
// what the pieces say, and the registry, which lists PostgreSQL's pairs only,
// cannot say what it should be; such strings are compared piece by piece.
bool combining_mark(std::uint32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x3099 && cp <= 0x309C) || (cp >= 0x02E5 && cp <= 0x02E9);
}

// pgcodec's outcome, as the server's would be.
Outcome pgcodec_outcome(const Codec& c, Direction d, std::string_view in) {
  const bool decoding = d == Direction::Decode;
  std::vector<char> out(std::max<std::size_t>(
      decoding ? *c.max_decoded_size(in.size()) : *c.max_encoded_size(in.size()), 1));
  const Result r = decoding ? c.decode(in, out) : c.encode(in, out);
  return harness::from_result(r, {out.data(), out.size()});
}

// PostgreSQL's side of a registry row for one piece, as the verifier has it:
// the server's kind and output, with offset 0 for a failing single
// character and none for a pair (convert() reports no offsets).
Outcome as_registered(const Outcome& o, PieceKind k) {
  Outcome r;
  r.kind = o.kind;
  r.output = o.output;
  r.sqlstate = o.sqlstate;
  if (!o.ok() && k != PieceKind::Pair) r.offset = 0;
  return r;
}

// How gtest prints a parameter.
void PrintTo(const Subject& s, std::ostream* os) { *os << info(s.encoding).name << " " << s.reference; }

class ReferenceProps : public ::testing::TestWithParam<Subject> {};

TEST_P(ReferenceProps, FastPathEqualsReferenceModuloRegistry) {
  const Subject& subject = GetParam();
  const Encoding e = subject.encoding;
  const Codec& c = codec(e);
  const std::string enc(c.name());
  const harness::TableModel& model = harness::model(e);
  const std::vector<std::string> current = references_of(e);
  if (std::find(current.begin(), current.end(), subject.reference) == current.end()) {
    if (!subject.python.empty() && oracle::python_codec_name(subject.python).empty())
      GTEST_SKIP() << "this Python has no codec " << subject.python << " (the verifier skips it too)";
    FAIL() << enc << ": the registry has a file for " << subject.reference
           << ", which oracle/names no longer names for it (a stale file)";
  }
  const std::unique_ptr<oracle::Reference> ref = open_reference(subject);
  ASSERT_TRUE(ref) << enc << ": no reference " << subject.reference;

  harness::RegistryFile file;
  const std::string path = harness::registry_path(PGCODEC_SOURCE_REGISTRY, e, subject.reference);
  ASSERT_TRUE(harness::read_registry(path, file))
      << enc << ": no registry file for " << subject.reference << " (pgcodec verify --update-registry writes it)";
  const harness::RegistryCheck registry(file.rows);
  const bool python = !subject.python.empty();

  const kernels::Kernel& saved = kernels::active();
  for (const kernels::Kernel& k : kernels::available()) {
    kernels::set_active(k);
    const std::string name = "reference [" + enc + ", " + subject.reference + ", " + k.name + "]";
    const auto property = [&] {
      const bool decoding = *rc::gen::arbitrary<bool>();
      const bool errors = *rc::gen::arbitrary<bool>();
      const std::string s = decoding ? (errors ? *bytes_in(e) : *valid_bytes_in(e))
                                     : (errors ? *utf8_for(e) : *text_in(e));
      const Direction d = decoding ? Direction::Decode : Direction::Encode;
      const std::string where = enc + " " + subject.reference + " " + to_string(d) + " of " +
                                (s.empty() ? std::string("(empty)") : hex_bytes(s));
      const std::vector<Piece> pieces = decoding ? decode_pieces(e, s) : encode_pieces(model, s);

      // (a) Which pieces the reference is asked about, and whether its row
      // could be in the registry.
      std::vector<Outcome> mine(pieces.size());
      std::vector<std::string> batch;
      std::vector<std::size_t> slot(pieces.size(), SIZE_MAX);
      std::vector<bool> enumerated(pieces.size(), false);
      bool whole_comparable = true;
      for (std::size_t i = 0; i < pieces.size(); ++i) {
        const Piece& p = pieces[i];
        const std::string_view text = std::string_view(s).substr(p.at, p.size);
        mine[i] = pgcodec_outcome(c, d, text);
        if (decoding) {
          enumerated[i] = enumerated_decode_input(e, text);
          // Not enumerated and not UTF-8: no row says what the reference
          // should answer (EUC_CN's "8e a1 a1", which GBK reads as a
          // character and a truncated one; SQL_ASCII's multibyte UTF-8,
          // which its references read byte by byte).
          if (!enumerated[i] && e != Encoding::UTF8) {
            whole_comparable = false;
            continue;
          }
        } else {
          // Every code point but U+0000 (PostgreSQL text cannot hold it, so
          // the verifier never asks; every reference converts it), and
          // PostgreSQL's pairs. Malformed UTF-8 is not text to Python, and
          // to ICU it is compared outright: its UTF-8 reader rejects what
          // RFC 3629 rejects, as PostgreSQL's does.
          enumerated[i] = p.kind != PieceKind::Malformed;
          if (p.kind == PieceKind::Malformed && (python || text == std::string_view("\0", 1))) {
            whole_comparable = false;
            continue;
          }
        }
        slot[i] = batch.size();
        batch.emplace_back(text);
      }
      // (c) A combining mark after a piece.
      if (!decoding)
        for (std::size_t i = 1; i < pieces.size() && whole_comparable; ++i)
          if (pieces[i].kind != PieceKind::Malformed && pieces[i - 1].kind != PieceKind::Malformed &&
              combining_mark(harness::code_points_of(std::string_view(s).substr(pieces[i].at, pieces[i].size))[0]))
            whole_comparable = false;

      // The first piece pgcodec rejects, and (b) the whole string and, when
      // that piece is malformed, the rest from it on.
      std::size_t first_bad = pieces.size();
      for (std::size_t i = 0; i < pieces.size() && first_bad == pieces.size(); ++i)
        if (!mine[i].ok()) first_bad = i;
      const bool malformed = std::any_of(pieces.begin(), pieces.end(),
                                         [](const Piece& p) { return p.kind == PieceKind::Malformed; });
      std::size_t whole_slot = SIZE_MAX, rest_slot = SIZE_MAX;
      if (whole_comparable) {
        whole_slot = batch.size();
        batch.push_back(s);
        if (first_bad < pieces.size() && pieces[first_bad].kind == PieceKind::Malformed) {
          rest_slot = batch.size();
          batch.push_back(s.substr(pieces[first_bad].at));
        }
      }
      std::vector<Outcome> theirs;
      ref->run(d, batch, theirs);
      RC_ASSERT(theirs.size() == batch.size());

      bool diverged = false;
      for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (slot[i] == SIZE_MAX) continue;
        const std::string text = s.substr(pieces[i].at, pieces[i].size);
        const Outcome pg = as_registered(mine[i], pieces[i].kind);
        const Outcome& other = theirs[slot[i]];
        const Category cat = classify(pg, other);
        if (cat == Category::Agree) continue;
        diverged = true;
        const RegistryRow row{d, harness::input_text(text, d), harness::outcome_text(pg, d),
                              harness::outcome_text(other, d), cat, ""};
        // (Malformed UTF-8 is shown as bytes: it has no code points.)
        const std::string input = !decoding && pieces[i].kind == PieceKind::Malformed
                                      ? hex_bytes(text) + " (malformed UTF-8)"
                                      : row.input;
        const std::string detail = std::string(to_string(d)) + " " + input + ": PostgreSQL (pgcodec) " +
                                   row.postgres + ", " + subject.reference + " " + row.reference + " (" +
                                   to_string(cat) + "), in the " + where;
        if (!enumerated[i])
          RC_FAIL("divergence on an input the verifier does not enumerate (no registry row can hold "
                  "it): " + detail);
        if (!registry.registered(row)) RC_FAIL("unregistered divergence: " + detail);
      }
      if (!whole_comparable || diverged) return;

      // (b) No piece diverges: the whole string agrees, exactly unless it
      // holds malformed text. Then both must reject it (ICU reads all the
      // UTF-8 it is given before it writes, so it can report a malformed
      // character after an unmapped one); unless pgcodec's first error is a
      // malformed piece that the reference reads, with what follows it, as
      // something else.
      const Outcome pg = pgcodec_outcome(c, d, s);
      const Outcome& other = theirs[whole_slot];
      if (!malformed) {
        const Category cat = classify(pg, other);
        if (cat != Category::Agree)
          RC_FAIL("every character agrees alone, the string does not: " + where + ": pgcodec " +
                  describe(pg) + ", " + subject.reference + " " + describe(other) + " (" +
                  to_string(cat) + ")");
        return;
      }
      if (rest_slot != SIZE_MAX && theirs[rest_slot].ok()) return;
      if (pg.ok() || other.ok())
        RC_FAIL("the string holds malformed text and every character agrees alone, yet " +
                std::string(pg.ok() ? "pgcodec" : subject.reference) + " accepts it: " + where +
                ": pgcodec " + describe(pg) + ", " + subject.reference + " " + describe(other));
    };
    EXPECT_TRUE(rc::check(name, property)) << name;
  }
  kernels::set_active(saved);
}

// Every reference the verifier compares has its registry file, so it has a
// test above.
TEST(ReferenceRegistry, EveryReferenceHasAFile) {
  for (const EncodingInfo& i : encodings())
    for (const std::string& r : references_of(i.id)) {
      const std::string path = harness::registry_path(PGCODEC_SOURCE_REGISTRY, i.id, r);
      EXPECT_TRUE(std::filesystem::exists(path))
          << i.name << ": no registry file for " << r << " (pgcodec verify --update-registry writes it)";
    }
}

INSTANTIATE_TEST_SUITE_P(Every, ReferenceProps, ::testing::ValuesIn(all_subjects()),
                         [](const ::testing::TestParamInfo<Subject>& p) {
                           std::string n = std::string(pgcodec::info(p.param.encoding).name) + "_" + p.param.reference;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace pgcodec::props
