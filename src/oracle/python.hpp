// Python's codecs as a reference, through an embedded CPython (one
// interpreter per process, started on first use; no subprocess per item).
#pragma once

#include <string>
#include <string_view>

#include "oracle/outcome.hpp"

namespace pgcodec::oracle {

class PythonCodec {
 public:
  // A codec name as codecs.lookup() takes it ("shift_jis", "cp932");
  // throws std::runtime_error if Python has no such codec.
  explicit PythonCodec(std::string name);

  // bytes.decode(name, 'strict') -> UTF-8; str.encode(name, 'strict').
  // Failure kinds come from Python's reason strings where they are
  // unambiguous, else Unspecified; the offset is Python's error start.
  Outcome decode(std::string_view bytes);
  Outcome encode(std::string_view utf8);

  const std::string& name() const noexcept { return name_; }

 private:
  std::string name_;
};

// Maps a UnicodeDecodeError/UnicodeEncodeError reason to a kind, or
// Unspecified when the reason does not say ("illegal multibyte sequence" is
// used by the CJK codecs for both malformed and unmapped input).
OutcomeKind python_reason_kind(std::string_view reason, bool decoding) noexcept;

}  // namespace pgcodec::oracle
