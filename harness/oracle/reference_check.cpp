#include "oracle/reference_check.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <utility>

#include "core/byte_rules.hpp"
#include "core/model.hpp"
#include "core/outcome.hpp"
#include "core/text.hpp"
#include "oracle/python.hpp"
#include "pgcodec/codec.hpp"

namespace pgcodec::oracle {
namespace {

using harness::Category;
using harness::classify;
using harness::describe;
using harness::hex_bytes;
using harness::RegistryRow;

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

}  // namespace

std::vector<ReferenceSubject> registry_subjects(const std::string& dir) {
  std::vector<ReferenceSubject> v;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    const auto dot = file.find('.');
    if (!file.ends_with(".tsv") || dot == std::string::npos) continue;
    const std::optional<Encoding> e = lookup(file.substr(0, dot));
    if (!e) continue;
    ReferenceSubject s{*e, file.substr(dot + 1, file.size() - dot - 1 - 4), ""};
    // PostgreSQL against itself (oracle/direct.hpp), not a reference codec.
    if (s.reference.starts_with("postgres-")) continue;
    if (s.reference.starts_with("python-")) s.python = s.reference.substr(7);
    v.push_back(std::move(s));
  }
  std::sort(v.begin(), v.end(), [](const ReferenceSubject& a, const ReferenceSubject& b) {
    return std::pair(to_int(a.encoding), a.reference) < std::pair(to_int(b.encoding), b.reference);
  });
  return v;
}

std::vector<std::string> references_of(Encoding e) {
  std::vector<std::string> v;
  if (auto icu = icu_reference(e)) v.push_back(icu->name());
  for (const PythonChoice& c : python_choices(e)) v.push_back(python_reference(c.codec)->name());
  return v;
}

namespace {
harness::RegistryFile read_file(const ReferenceSubject& s, const std::string& dir) {
  harness::RegistryFile f;
  const std::string path = harness::registry_path(dir, s.encoding, s.reference);
  if (!harness::read_registry(path, f))
    throw std::runtime_error(std::string(info(s.encoding).name) + ": no registry file for " + s.reference +
                             " (pgcodec verify --update-registry writes it)");
  return f;
}
}  // namespace

ReferenceCheck::ReferenceCheck(const ReferenceSubject& s, const std::string& registry_dir)
    : subject_(s),
      ref_(s.python.empty() ? icu_reference(s.encoding) : python_reference(s.python)),
      file_(read_file(s, registry_dir)),
      registry_(file_.rows) {
  if (!ref_) throw std::runtime_error(std::string(info(s.encoding).name) + ": no reference " + s.reference);
}

ReferenceCheck::~ReferenceCheck() = default;

harness::CheckResult ReferenceCheck::check(bool decoding, std::string_view sv) const {
  const std::string s(sv);
  const Encoding e = subject_.encoding;
  const Codec& c = codec(e);
  const std::string enc(c.name());
  const harness::TableModel& model_ = harness::model(e);
  const bool python = !subject_.python.empty();
  const Direction d = decoding ? Direction::Decode : Direction::Encode;
  const std::string where = enc + " " + subject_.reference + " " + to_string(d) + " of " +
                            (s.empty() ? std::string("(empty)") : hex_bytes(s));
  const std::vector<Piece> pieces = decoding ? decode_pieces(e, s) : encode_pieces(model_, s);

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
    mine[i] = harness::pgcodec_outcome(c, d, text);
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
  ref_->run(d, batch, theirs);
  if (theirs.size() != batch.size()) return "the reference answered " + std::to_string(theirs.size()) + " of " + std::to_string(batch.size()) + " inputs";

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
                               row.postgres + ", " + subject_.reference + " " + row.reference + " (" +
                               to_string(cat) + "), in the " + where;
    if (!enumerated[i])
      return harness::CheckResult("divergence on an input the verifier does not enumerate (no registry row can hold "
              "it): " + detail);
    if (!registry_.registered(row)) return harness::CheckResult("unregistered divergence: " + detail);
  }
  if (!whole_comparable || diverged) return {};

  // (b) No piece diverges: the whole string agrees, exactly unless it
  // holds malformed text. Then both must reject it (ICU reads all the
  // UTF-8 it is given before it writes, so it can report a malformed
  // character after an unmapped one); unless pgcodec's first error is a
  // malformed piece that the reference reads, with what follows it, as
  // something else.
  const Outcome pg = harness::pgcodec_outcome(c, d, s);
  const Outcome& other = theirs[whole_slot];
  if (!malformed) {
    const Category cat = classify(pg, other);
    if (cat != Category::Agree)
      return harness::CheckResult("every character agrees alone, the string does not: " + where + ": pgcodec " +
              describe(pg) + ", " + subject_.reference + " " + describe(other) + " (" +
              to_string(cat) + ")");
    return {};
  }
  if (rest_slot != SIZE_MAX && theirs[rest_slot].ok()) return {};
  if (pg.ok() || other.ok())
    return harness::CheckResult("the string holds malformed text and every character agrees alone, yet " +
            std::string(pg.ok() ? "pgcodec" : subject_.reference) + " accepts it: " + where +
            ": pgcodec " + describe(pg) + ", " + subject_.reference + " " + describe(other));
  return {};
}

}  // namespace pgcodec::oracle
