// `pgcodec convert` and `pgcodec check`: streaming conversion between any
// two encodings through UTF-8, in constant memory, and the checked output
// every subcommand writes through.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "pgcodec/codec.hpp"

namespace pgcodec::cli {

// A stream written to with every write checked. The first failure is kept
// (with its errno); later writes do nothing and report failure too, so a
// caller may check once per batch of writes, and must check before telling
// the user that anything was written.
class Output {
 public:
  Output(std::FILE* f, std::string name) : f_(f), name_(std::move(name)) {}
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  bool write(std::string_view s) noexcept;
  // Pushes buffered bytes to the file; false if that (or an earlier write) failed.
  bool flush() noexcept;
  // flush() and fclose(); false if anything failed. Nothing may be written after it.
  bool close() noexcept;
  bool ok() const noexcept { return !failed_; }
  // "write error on standard output: No space left on device"
  std::string error_message() const;

 private:
  bool fail(int err) noexcept;

  std::FILE* f_;
  std::string name_;
  bool failed_ = false;
  int errno_ = 0;
};

// convert and check read their input in chunks of this many bytes: large
// enough that per-chunk costs vanish, small enough to stay in the L2 cache
// with the decoded text.
inline constexpr std::size_t kChunkSize = 256 * 1024;

struct ConvertOptions {
  const Codec* from = nullptr;
  const Codec* to = nullptr;  // check: may be null (validate `from` only)
  ErrorMode mode = ErrorMode::Strict;
  bool json = false;  // check only
  std::string input_name = "standard input";  // for a read error's message
};

// Exit status: 0 success, 1 data errors, 2 when reading the input or writing
// `out` fails. A read error is reported on `err`; a write error is left in
// `out` for the caller to report (see Output::error_message), and then no
// data error is reported: output is only reported as converted once flushed.
//
// convert follows PostgreSQL's client path: the whole value is taken in
// (from -> UTF-8) before it is given out (UTF-8 -> to), so an error in the
// input wins over a character `to` lacks that comes before it. Output is
// written up to the first character that fails either way; after an
// output-side error the rest of the input is still read and checked (in
// constant memory, nothing more written) and its first error, if any, is the
// one reported.
int run_convert(const ConvertOptions& o, std::FILE* in, Output& out, std::FILE* err);
// check lists every error in two groups, each in input order: first every
// error taking the input in (from -> UTF-8), then, with `to`, every character
// that cannot be given out in `to`. The first line is therefore the error
// PostgreSQL raises (and convert reports). The second group is held in memory
// up to 1 MiB, beyond that in a temporary file.
int run_check(const ConvertOptions& o, std::FILE* in, Output& out, std::FILE* err);

}  // namespace pgcodec::cli
