// `pgcodec convert -o FILE`: the output goes to a temporary file beside
// FILE, which replaces FILE (rename(2)) only when the whole run succeeded, so
// FILE is never half-written: after a conversion error, a read or write
// error, or SIGINT/SIGTERM/SIGHUP, the temporary file is removed and FILE
// keeps what it held (or still does not exist).
#pragma once

#include <csignal>
#include <cstdio>
#include <functional>
#include <string>

#include "convert.hpp"

namespace pgcodec::cli {

class OutputFile {
 public:
  // Creates "<dir of target>/.<name of target>.pgcodec-XXXXXX". On failure
  // file() is null and error() says why.
  explicit OutputFile(std::string target);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Removes the temporary file unless commit() succeeded; the signal
  // handlers the constructor installed are put back as they were (the
  // Python module runs this inside a process that goes on).
  ~OutputFile();

  std::FILE* file() const { return f_; }
  const std::string& error() const { return error_; }
  const std::string& target() const { return target_; }

  // The caller has flushed, fsync'd and closed file() (through its Output);
  // gives the temporary file FILE's mode (or the umask's for a new FILE),
  // renames it over FILE and syncs the directory. False, with error(), if
  // that fails; the temporary file is then removed.
  bool commit();
  // The caller closed file() itself (through its Output) without committing.
  void closed() { f_ = nullptr; }

 private:
  void discard();
  void restore_handlers() noexcept;

  std::string target_, temp_, error_;
  std::FILE* f_ = nullptr;
  bool done_ = false;
  struct sigaction old_[3] {};
  bool installed_[3] = {};
};

// convert -o FILE, for the CLI and `python -m pgcodec`: `run` writes into
// the temporary file through the Output it is given (named FILE, for its
// write errors) and returns its exit status; FILE is replaced when that is
// 0, or 1 with `skip` (-c dropped something), and the bytes reached the
// disk. Messages (cannot create, write error, cannot rename) go to `err`.
// Returns the exit status: run's, or 2.
int convert_to_file(const std::string& path, bool skip, std::FILE* err, const std::function<int(Output&)>& run);

}  // namespace pgcodec::cli
