// The divergence registry (corpus/divergences/<ENC>.<reference>.tsv): every
// difference of a reference (ICU, a Python codec) from PostgreSQL, one row
// per input, grouped under a line that explains the group. A check fails on
// a divergence the registry lacks and on a row that no longer diverges.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/outcome.hpp"
#include "pgcodec/encoding.hpp"

namespace pgcodec::harness {

// One divergence, as the registry keeps it.
struct RegistryRow {
  Direction direction = Direction::Decode;
  std::string input;      // "82 a0" (decode) or "U+3042" (encode); "A..B" for a range
  std::string postgres;   // outcome text, see outcome_text()
  std::string reference;
  Category category = Category::Agree;
  std::string note;       // the group's explanation
  std::string key() const;
};

// "U+3042" / "82 a0" for a conversion's output, "invalid", "no-equivalent" or
// "error" for a failure, with "@N" when the engine reports offset N > 0.
std::string outcome_text(const Outcome& o, Direction d);
// The outcome of a conversion between two encodings (the rows of
// <FROM>.postgres-direct-<TO>.tsv): the bytes in the target and, in
// brackets, what the target reads them as ("a4 a2 [U+3042]"; "[unreadable]"
// when `reads_as` is empty: the target rejects its own bytes). A failure is
// written as outcome_text() writes it, so such rows fold and check like any.
std::string transcoded_text(const Outcome& o, const std::optional<std::string>& reads_as);
// "82 a0" for decode inputs, "U+3042" for encode inputs (UTF-8).
std::string input_text(std::string_view input, Direction d);

// Long runs of consecutive inputs that diverge the same way (the same
// category and explanation, one side failing the same way) are kept as one
// row "U+0080..U+D7FF"; the side that converts is then written "converts".
// fold() makes such rows; RegistryCheck compares a run with the registry,
// single rows exactly and range rows member by member.
std::vector<RegistryRow> fold(std::vector<RegistryRow> rows);

class RegistryCheck {
 public:
  explicit RegistryCheck(const std::vector<RegistryRow>& registered);
  // Whether this divergence (an unfolded row) is registered.
  bool registered(const RegistryRow& r) const;
  // Whether any row (or member of a range row) is about this input, however
  // the two sides differ on it: "is this character a registered divergence".
  bool lists(Direction d, const std::string& input) const;
  // Registered rows (or members of range rows) that `found` lacks, as
  // "direction<TAB>input<TAB>postgres<TAB>reference<TAB>category"; only inputs
  // `tested` accepts count when it is given (sample runs).
  using Tested = std::function<bool(Direction, const std::string& input)>;
  std::vector<std::string> stale(const std::vector<RegistryRow>& found, const Tested& tested = {}) const;

 private:
  std::unordered_set<std::string> exact_, members_;
  std::unordered_set<std::string> inputs_;  // direction TAB input
};

struct RegistryFile {
  std::string encoding, reference;
  std::vector<RegistryRow> rows;
  // Set for a file of PostgreSQL's direct conversions from `encoding` to
  // `target` (the reference is then "postgres-direct-<target>"): its rows
  // are decode rows whose outputs are transcoded_text() in the target, and
  // its header says so.
  std::string target = {};
  // A group's note -> the SQL that shows one of its members, written as a
  // "# shows: " line under the group's header and read back from it.
  std::map<std::string, std::string> group_sql = {};
};
// Reads <dir>/<ENC>.<reference>.tsv; false if it does not exist; throws on
// a malformed line.
bool read_registry(const std::string& path, RegistryFile& out);
// Writes the file (folded, grouped); `versions` names the engines' versions.
void write_registry(const std::string& path, const RegistryFile& f, const std::string& versions);
std::string registry_path(const std::string& dir, Encoding e, const std::string& reference);

}  // namespace pgcodec::harness
