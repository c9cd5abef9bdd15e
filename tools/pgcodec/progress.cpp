#include "progress.hpp"

#include <unistd.h>

#include <cmath>

namespace pgcodec::cli {

bool stderr_is_tty() noexcept { return isatty(STDERR_FILENO) != 0; }

void draw_progress(std::FILE* err, bool tty, const char* who, const std::string& head, double fraction,
                   const std::string& what) {
  if (!tty) {
    std::fprintf(err, "%s: %s%s\n", who, head.c_str(), what.c_str());
    return;
  }
  std::string bar;
  if (fraction >= 0) {
    const int width = 30;
    const int filled = static_cast<int>(std::fmin(fraction, 1.0) * width);
    bar = "[" + std::string(static_cast<std::size_t>(filled), '#') +
          std::string(static_cast<std::size_t>(width - filled), '.') + "] ";
  }
  std::fprintf(err, "\r\033[K%s%s%s", head.c_str(), bar.c_str(), what.c_str());
  std::fflush(err);
}

void clear_progress(std::FILE* err, bool tty) {
  if (tty) std::fputs("\r\033[K", err);
}

std::function<void(const std::string&)> report_lines(std::FILE* err, bool tty) {
  return [err, tty](const std::string& s) {
    clear_progress(err, tty);
    std::fprintf(err, "%s\n", s.c_str());
  };
}

std::string human_bytes(double n) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (n >= 1024 && u < 4) {
    n /= 1024;
    ++u;
  }
  char b[32];
  std::snprintf(b, sizeof b, u == 0 ? "%.0f %s" : "%.1f %s", n, units[u]);
  return b;
}

namespace {
std::string clock_text(double seconds) {
  const long s = std::lround(seconds);
  char b[32];
  if (s >= 3600)
    std::snprintf(b, sizeof b, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(b, sizeof b, "%02ld:%02ld", s / 60, s % 60);
  return b;
}
}  // namespace

ByteProgress::ByteProgress(std::FILE* err, bool enabled, const char* who, std::size_t total)
    : err_(err), enabled_(enabled), who_(who), total_(total), start_(Clock::now()),
      next_(start_ + std::chrono::milliseconds(500)) {}

void ByteProgress::update(std::size_t current) {
  if (!enabled_) return;
  const std::size_t done = base_ + current;
  const auto now = Clock::now();
  if (now < next_) return;
  next_ = now + std::chrono::milliseconds(200);
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
  std::string what = human_bytes(static_cast<double>(done));
  double fraction = -1;
  if (total_ > 0) {
    fraction = static_cast<double>(done) / static_cast<double>(total_);
    what += " of " + human_bytes(static_cast<double>(total_));
  }
  what += "  " + human_bytes(rate) + "/s";
  if (total_ > 0 && rate > 0 && done <= total_)
    what += "  ETA " + clock_text(static_cast<double>(total_ - done) / rate);
  std::string head = std::string(who_) + " " + clock_text(secs) + " ";
  if (fraction >= 0) {
    char pct[8];
    std::snprintf(pct, sizeof pct, "%3d%% ", static_cast<int>(std::fmin(fraction, 1.0) * 100));
    head += pct;
  }
  draw_progress(err_, true, who_, head, fraction, what);
  drawn_ = true;
}

void ByteProgress::clear() {
  if (drawn_) clear_progress(err_, true);
  drawn_ = false;
}

void ByteProgress::finish() {
  clear();
  enabled_ = false;
}

}  // namespace pgcodec::cli
