// `pgcodec verify`: pgcodec, ICU and Python's codecs against PostgreSQL on
// every enumerated input, the divergence registry and the atlas.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "pgcodec/encoding.hpp"

namespace pgcodec::verifier {

using harness::Category;
using harness::Direction;

// The named steps of a run. Each encoding goes through the first six in
// order (the server already answers for the next encoding while this one is
// compared); the direct conversions from the selected encodings are
// compared once after them, and the atlas is written once at the end.
enum class Step : std::uint8_t {
  ProbeServer,          // ask the server about every enumerated input
  CheckPgcodec,         // pgcodec's cached, by-name and table paths must give its answers
  CheckStrings,         // random strings on the client_encoding path
  LiveRoundTrip,        // one live round (oracle/live.hpp) on the UTF8 database, client_encoding = it
  FindInconsistencies,  // PostgreSQL against itself (one-way and many-to-one mappings)
  CompareReferences,    // ICU and Python against the server, and against the registry
  CompareDirect,        // once per run: PostgreSQL's direct conversions against going through UTF-8
  WriteAtlas,
};
const char* to_string(Step s) noexcept;  // "asking the server", ...

struct Progress {
  Step step{};
  std::size_t index = 0, count = 0;  // the encoding (1-based) of `count`
  Encoding encoding{};
  double fraction = 0;               // of the whole run done, by weight
  double seconds = 0;                // since the run started
};

struct VerifyOptions {
  std::vector<Encoding> encodings;         // empty: all 42
  // Empty: all; else names or prefixes ("icu", "python", "postgres-direct").
  // When every one names direct conversions ("postgres-direct",
  // "postgres-direct-EUC_JP"), only the direct-conversion step runs.
  std::vector<std::string> references;
  std::size_t sample = 0;                  // 0: exhaustive; else inputs per direction
  std::size_t strings = 400;               // random strings per direction and encoding
  int jobs = 3;                            // server connections
  std::optional<std::string> dsn;
  std::optional<std::string> registry;     // default: locate_registry() (registry_location.hpp)
  std::optional<std::string> out;          // atlas directory (default docs/atlas on full runs)
  bool update_registry = false;
  // Only render atlas.md and index.html again from <dir>/atlas.json
  // (render_atlas in atlas.hpp); no server, nothing else runs.
  std::optional<std::string> render_atlas;
  std::size_t show = 5;                    // failures listed per encoding
  std::uint64_t seed = 1;
  // Where the run is (called from the calling thread); none by default.
  std::function<void(const Progress&)> on_progress;
  // Each line of the report (per-encoding results, failures, the summary);
  // standard error by default.
  std::function<void(const std::string&)> on_line;
};

int run_verify(const VerifyOptions& o);

}  // namespace pgcodec::verifier
