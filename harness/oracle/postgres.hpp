// PostgreSQL as the reference: what the server answers for every single
// character an encoding can spell (the inputs the table generator and the
// verifier enumerate), and for whole strings on the client_encoding path.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/outcome.hpp"
#include "core/model.hpp"
#include "oracle/probe.hpp"
#include "pgcodec/encoding.hpp"
#include "tables/table.hpp"

namespace pgcodec::oracle {

using harness::Outcome;

// Which path's semantics the server is asked about. They agree on single
// characters except for SQL_ASCII: convert() copies SQL_ASCII bytes as they
// are, while a UTF8 server validates what a SQL_ASCII client sends as UTF8.
enum class Path : std::uint8_t { Convert, Client };

// The server's answers for one encoding.
struct Answers {
  Encoding enc{};
  std::vector<std::string> dec_inputs;
  std::vector<Probe> dec;
  std::vector<std::uint32_t> enc_inputs;  // code points
  std::vector<Probe> encd;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pair_inputs;  // decoded pairs
  std::vector<Probe> pairs;
  // MULE_INTERNAL only: answers that are a policy of ours rather than the
  // server's (code points no member encoding has), see docs/mule-internal.md.
  std::size_t policy_answers = 0;
};

// `dec_inputs` replaces harness::decode_candidates(e) when given (a sample).
Answers probe_encoding(ProbePool& pool, Encoding e, const std::vector<std::uint32_t>& cps,
                       Path path = Path::Convert,
                       const std::vector<std::string>* dec_inputs = nullptr);

// MULE_INTERNAL's member encodings, in the order a code point is tried.
std::span<const Encoding> mule_members() noexcept;
// MULE_INTERNAL through its members; `member` gives each member's table.
using MemberTable = std::function<detail::MappingTable(Encoding)>;
Answers probe_mule(ProbePool& pool, const MemberTable& member, const std::vector<std::uint32_t>& cps,
                   std::ostream& log);

// The one conversion from a server answer: the SQLSTATE is known, the
// offset, quoted bytes and message are not (convert() is asked per input
// and the probe keeps no message of a conversion error).
Outcome to_outcome(const Probe& p);

}  // namespace pgcodec::oracle

namespace pgcodec::oracle {

// The client_encoding path, as a driver meets it: decoding sends each input
// as a text parameter in `e` and reads the server's UTF-8 back; encoding
// sends UTF-8 (valid) as bytea and reads the text back in `e`. Thousands of
// statements per round trip (libpq pipeline mode), each with its own error.
// The outcomes carry the server's SQLSTATE, primary message and the bytes
// the message quotes. The message does not give the offset; the offset is
// the last occurrence of the quoted bytes whose prefix the server accepts
// (unknown if no occurrence qualifies). MULE_INTERNAL cannot be a client
// encoding of a UTF8 server.
class ClientPath {
 public:
  ClientPath(const std::string& conninfo, Encoding e);
  std::vector<Outcome> run(bool decoding, const std::vector<std::string>& inputs);

 private:
  struct Raw {
    bool ok = false;
    std::string output, sqlstate, message;
  };
  std::vector<Raw> send(bool decoding, const std::vector<std::string>& inputs);
  Connection conn_;
};

// The bytes a PostgreSQL conversion error message quotes ("0x82 0xa0").
std::string quoted_bytes(std::string_view message);

// An error the server raised, as an Outcome: the kind its SQLSTATE names
// (Unspecified for a SQLSTATE that is not a conversion error's), the
// SQLSTATE, the primary message and the bytes the message quotes. The
// server names no offset.
Outcome server_error(const std::string& sqlstate, const std::string& message);
// The outcome of a statement returning one value: the value (a bytea in hex
// output form unhexed when `bytea`), or its error as server_error() reads it.
Outcome server_outcome(const Result& r, bool bytea);

}  // namespace pgcodec::oracle
