// `pgcodec convert` and `pgcodec check`: streaming conversion between any
// two encodings through UTF-8, in constant memory, and the checked output
// every subcommand writes through.
#pragma once

#include <cstddef>
#include <cstdio>
#include <span>
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
  // flush() and fsync(): the bytes are on the disk, or false.
  bool sync() noexcept;
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

// Told how far a run has read its input (progress.hpp's ByteProgress);
// convert.cpp needs nothing more of it.
class ProgressSink {
 public:
  // `done` bytes of the current input have been read.
  virtual void update(std::size_t done) = 0;
  // Clear what is drawn: a message follows on standard error.
  virtual void clear() = 0;
  // The next input starts: `done` bytes of the earlier ones were read.
  virtual void set_base(std::size_t done) = 0;

 protected:
  ~ProgressSink() = default;
};

// What a run found, summed over the inputs of one command line.
struct RunStats {
  std::size_t errors = 0;             // check: errors listed
  std::size_t dropped_invalid = 0;    // convert --errors skip: invalid sequences dropped
  std::size_t dropped_unmapped = 0;   // convert --errors skip: characters `to` lacks
  bool stopped_early = false;         // check: --max-errors reached with more to report
};

struct ConvertOptions {
  const Codec* from = nullptr;
  const Codec* to = nullptr;  // check: may be null (validate `from` only)
  ErrorMode mode = ErrorMode::Strict;
  // convert: drop what cannot be converted (iconv -c; `--errors skip`):
  // each invalid byte sequence (resuming one byte after it, as check does)
  // and each character `to` lacks. Needs mode == Strict.
  bool skip = false;
  bool json = false;  // check only
  std::string input_name = "standard input";  // for a read error's message
  // Several inputs: errors name the input ("... at byte offset N in FILE";
  // check: "FILE:N: ..." and "file" in JSON).
  bool name_input = false;
  std::size_t max_errors = 0;         // check: stop after this many (0: no limit)
  RunStats* stats = nullptr;          // where a run adds what it found (may be null)
  ProgressSink* progress = nullptr;   // told how far the input has been read (may be null)
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
//
// With o.skip nothing fails: what cannot be converted is dropped, counted in
// o.stats, and the status is 0 (the caller decides what dropping means).
// Each call is one input on its own: a character cut off at its end is an
// error in it (dropped with o.skip), and nothing carries to the next call.
int run_convert(const ConvertOptions& o, std::FILE* in, Output& out, std::FILE* err);
// check lists every error in two groups, each in input order: first every
// error taking the input in (from -> UTF-8), then, with `to`, every character
// that cannot be given out in `to`. The first line is therefore the error
// PostgreSQL raises (and convert reports). The second group is held in memory
// up to 1 MiB, beyond that in a temporary file. With o.max_errors, at most
// that many lines, counting o.stats->errors from earlier inputs: the first
// ones of that order, and the input is not read further once the first
// group alone reaches the limit.
int run_check(const ConvertOptions& o, std::FILE* in, Output& out, std::FILE* err);

// One input of a command line.
struct InputFile {
  std::FILE* f;
  std::string name;  // "standard input" or the path
  std::size_t size;  // 0 when not known (not a regular file)
};

// convert (or check) over every input, in order, into `out`: what both the
// CLI and `python -m pgcodec` run. Each input on its own (o.name_input is set
// when there are several, o.stats sums them); a strict convert stops at the
// first input with an error, check when --max-errors is reached, both at a
// read or write error. Then the summary line: convert -c's count of what was
// dropped (exit 1 if anything was), check's "stopped after N errors". The
// inputs are left open; o.progress, if set, is told where each one starts.
int run_inputs(bool convert, ConvertOptions o, std::span<const InputFile> inputs, Output& out, std::FILE* err);

// What `pgcodec list` (and `convert -l`) print: a table, or a JSON array.
std::string encoding_list(bool json);

}  // namespace pgcodec::cli
