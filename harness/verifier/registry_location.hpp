// Where `pgcodec verify` (pgcodec-verify) and `pgcodec live` find the
// divergence registry when --registry is not given: installed relative to the
// executable (<libexecdir>/pgcodec/../../share/pgcodec/divergences by default,
// as the install rules put them), else the source tree's corpus/divergences
// when the executable runs from a build tree.
#pragma once

#include <string>

namespace pgcodec::verifier {

struct RegistryLocation {
  std::string dir;
  bool installed = false;  // an installed copy: read-only, never suggest writing into it
};

// `exe_dir` is the directory of the running executable, `source_dir` the
// source tree's registry (empty when unknown). When neither exists the
// answer is the source tree's path (or corpus/divergences), so the error
// that follows names it.
RegistryLocation locate_registry(const std::string& exe_dir, const std::string& source_dir);
// The same for this process: its /proc/self/exe and the build's source tree.
RegistryLocation locate_registry();

}  // namespace pgcodec::verifier
