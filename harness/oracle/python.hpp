// Python's codecs as a reference, through an embedded CPython (one
// interpreter per process, started on first use; no subprocess per item).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.hpp"

namespace pgcodec::oracle {

class PythonCodec {
 public:
  // A codec name as codecs.lookup() takes it ("shift_jis", "cp932");
  // throws std::runtime_error if Python has no such codec.
  explicit PythonCodec(std::string name);

  // bytes.decode(name, 'strict') -> UTF-8; str.encode(name, 'strict').
  // Failure kinds come from Python's reason strings where they are
  // unambiguous, else Unspecified; the offset is Python's error start.
  harness::Outcome decode(std::string_view bytes);
  harness::Outcome encode(std::string_view utf8);

  // Many inputs in one call into Python (each converted on its own, as
  // decode()/encode() would, with the first error's kind and offset; encode
  // offsets are turned from code points into UTF-8 byte offsets).
  void run(bool decoding, std::span<const std::string> inputs, std::vector<harness::Outcome>& out);

  const std::string& name() const noexcept { return name_; }

 private:
  bool run_joined(std::span<const std::string> inputs, std::vector<harness::Outcome>& out);
  std::string name_;
};

// "3.11.2"
std::string python_version_string();

// codecs.lookup(name).name, or "" when Python has no such codec.
std::string python_codec_name(const std::string& name);

// Maps a UnicodeDecodeError/UnicodeEncodeError reason to a kind, or
// Unspecified when the reason does not say ("illegal multibyte sequence" is
// used by the CJK codecs for both malformed and unmapped input).
harness::OutcomeKind python_reason_kind(std::string_view reason, bool decoding) noexcept;

}  // namespace pgcodec::oracle
