// PostgreSQL's direct conversions between two encodings (a client encoding
// and a server encoding other than UTF8: SJIS <-> EUC_JP, BIG5 <-> EUC_TW,
// the Cyrillic group, LATIN2 <-> WIN1250, ...) against going through UTF-8
// as pgcodec does (encode_T(decode_F(b)), which the verifier holds equal to
// PostgreSQL's F -> UTF8 and UTF8 -> T). Where they differ it is PostgreSQL
// disagreeing with itself; each difference becomes a registry row.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/outcome.hpp"
#include "oracle/probe.hpp"
#include "pgcodec/encoding.hpp"

namespace pgcodec::oracle {

struct DirectPair {
  Encoding from{}, to{};
};
// "SJIS -> EUC_JP".
std::string to_string(DirectPair p);

// A pair the comparison leaves out, and why.
struct LeftOut {
  DirectPair pair;
  std::string why;
};

// The server's default conversions (pg_conversion, condefault) whose ends
// are neither UTF8 nor SQL_ASCII, in (from, to) order. Pairs with
// MULE_INTERNAL at one end go to `left_out`: PostgreSQL has no conversion
// between MULE_INTERNAL and UTF8, so "going through UTF-8" is pgcodec's
// policy (docs/mule-internal.md), not a PostgreSQL path, and no SQL can show
// the server disagreeing with itself there.
std::vector<DirectPair> direct_conversions(const std::string& conninfo, std::vector<LeftOut>* left_out = nullptr);

// The inputs asked about: each of harness::decode_candidates(from) that is
// one character by its lead byte and well formed in `from`: it decodes, or
// has no UTF-8 equivalent (which a direct conversion may still convert).
std::vector<std::string> direct_inputs(Encoding from);

struct DirectDifference {
  std::string input;          // bytes in `from`
  std::string text;           // the UTF-8 `from` reads them as
  harness::Outcome direct;    // PostgreSQL's convert(input, from, to)
  harness::Outcome via_utf8;  // encode_to(decode_from(input))
  harness::Category category{};
  // What `to` reads each side's bytes as (UTF-8, asked of the server), when
  // that side converts and the bytes read.
  std::optional<std::string> direct_reads, via_reads;
};

struct DirectComparison {
  DirectPair pair;
  std::size_t inputs = 0;
  std::vector<DirectDifference> differences;  // in input order
  // The bytes the direct conversion writes for many characters that it
  // cannot convert otherwise (SJIS's 81 ac, the geta mark), when there is one.
  std::optional<std::string> substitute;
};

DirectComparison compare_direct(ProbePool& pool, DirectPair p, const std::vector<std::string>& inputs);

// The SQL that shows one input both ways:
// SELECT convert('\x..'::bytea, 'F', 'T') AS direct,
//        convert(convert('\x..'::bytea, 'F', 'UTF8'), 'UTF8', 'T') AS via_utf8;
std::string direct_sql(DirectPair p, std::string_view input);

// The explanation of a difference's group, derived from what each side
// gives, what `to` reads it as and the comparison's substitute; where the
// input lies in a block with a name (SJIS's NEC row 13, its IBM
// extensions, EUC_JP's JIS X 0212), the note names it.
std::string explain_direct(const DirectComparison& c, const DirectDifference& d);

}  // namespace pgcodec::oracle
