// `pgcodec verify`: pgcodec, ICU and Python's codecs against PostgreSQL on
// every enumerated input, the divergence registry and the atlas.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_set>
#include <string>
#include <vector>

#include "oracle/oracle.hpp"
#include "pgcodec/encoding.hpp"

namespace pgcodec::cli {

struct VerifyOptions {
  std::vector<Encoding> encodings;         // empty: all 42
  std::vector<std::string> references;     // empty: all; else names or prefixes ("icu", "python")
  std::size_t sample = 0;                  // 0: exhaustive; else inputs per direction
  std::size_t strings = 400;               // random strings per direction and encoding
  int jobs = 3;                            // server connections
  std::optional<std::string> dsn;
  std::string registry = "corpus/divergences";
  std::optional<std::string> out;          // atlas directory (default docs/atlas on full runs)
  bool update_registry = false;
  std::size_t show = 5;                    // failures listed per encoding
  std::uint64_t seed = 1;
};

int run_verify(const VerifyOptions& o);

// One divergence of a reference from PostgreSQL, as the registry keeps it.
struct RegistryRow {
  std::string direction;  // decode | encode
  std::string input;      // "82 a0" (decode) or "U+3042" (encode)
  std::string postgres;   // outcome text, see outcome_text()
  std::string reference;
  std::string category;   // oracle::to_string(Category)
  std::string note;       // the group's explanation
  std::string key() const { return direction + '\t' + input + '\t' + postgres + '\t' + reference + '\t' + category; }
};

// "U+3042" / "82 a0" for a conversion's output, "invalid", "no-equivalent" or
// "error" for a failure, with "@N" when the reference reports offset N > 0.
std::string outcome_text(const oracle::Outcome& o, oracle::Direction d);

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
  // Registered rows (or members of range rows) that `found` lacks; only
  // inputs `tested` accepts (direction, input) count when it is given.
  using Tested = std::function<bool(const std::string&, const std::string&)>;
  std::vector<std::string> stale(const std::vector<RegistryRow>& found, const Tested& tested = {}) const;

 private:
  std::unordered_set<std::string> exact_, members_;
};

struct RegistryFile {
  std::string encoding, reference;
  std::vector<RegistryRow> rows;
};
// Reads corpus/divergences/<ENC>.<ref>.tsv; false if it does not exist.
bool read_registry(const std::string& path, RegistryFile& out);
void write_registry(const std::string& path, const RegistryFile& f, const std::string& versions);
std::string registry_path(const std::string& dir, Encoding e, const std::string& reference);

}  // namespace pgcodec::cli
