// Progress on standard error, shared by pgcodec (convert, check),
// pgcodec-verify and pgcodec-live: on a terminal one line redrawn in place,
// "HEAD[#####.....] WHAT"; otherwise, where a caller wants it, one plain line
// "WHO: HEAD WHAT" per call. Depends on nothing but the C library, so the
// CLI links it without the verifier's libpq, ICU and Python. convert.cpp
// sees only ProgressSink, so python/src/cli.cpp links it without this.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

#include "convert.hpp"

namespace pgcodec::cli {

// Is standard error a terminal? (The one place that asks.)
bool stderr_is_tty() noexcept;

// One progress line on `err`. `fraction` in [0, 1] fills the bar; a negative
// one (the total is unknown) draws no bar.
void draw_progress(std::FILE* err, bool tty, const char* who, const std::string& head, double fraction,
                   const std::string& what);

// Clears a progress line drawn on a terminal (nothing otherwise), so that the
// next line written to `err` starts at its left margin.
void clear_progress(std::FILE* err, bool tty);

// Report lines for a run that draws progress: each clears the bar first.
std::function<void(const std::string&)> report_lines(std::FILE* err, bool tty);

// Bytes through convert or check: "  1.2 GiB of 4.0 GiB  210 MiB/s  ETA 00:14"
// (without "of" and ETA when the input size is unknown). Drawn on a terminal
// only, at most five times a second and not before the run has lasted half a
// second (so short runs draw nothing); quiet otherwise. The line is cleared
// when the meter is destroyed or finish() is called.
class ByteProgress final : public ProgressSink {
 public:
  // total: the input's size in bytes, or 0 when it is not known (a pipe).
  ByteProgress(std::FILE* err, bool enabled, const char* who, std::size_t total);
  ByteProgress(const ByteProgress&) = delete;
  ByteProgress& operator=(const ByteProgress&) = delete;
  ~ByteProgress() { finish(); }
  // `done` bytes of the current input have been read; cheap when nothing is
  // drawn.
  void update(std::size_t done) override;
  // The next input starts: `done` bytes of the earlier ones were read.
  void set_base(std::size_t done) override { base_ = done; }
  // Clears the line (before a message is written); the next update draws it again.
  void clear() override;
  // Clears the line and draws no more.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* err_;
  bool enabled_;
  bool drawn_ = false;
  const char* who_;
  std::size_t total_;
  std::size_t base_ = 0;
  Clock::time_point start_, next_;
};

// "1.2 GiB", "512 B": a byte count for people.
std::string human_bytes(double n);

}  // namespace pgcodec::cli
