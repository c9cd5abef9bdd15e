// `pgcodec convert -o FILE`: the output goes to a temporary file beside
// FILE, which replaces FILE (rename(2)) only when the whole run succeeded, so
// FILE is never half-written: after a conversion error, a read or write
// error, or SIGINT/SIGTERM/SIGHUP, the temporary file is removed and FILE
// keeps what it held (or still does not exist).
#pragma once

#include <cstdio>
#include <string>

namespace pgcodec::cli {

class OutputFile {
 public:
  // Creates "<dir of target>/.<name of target>.pgcodec-XXXXXX". On failure
  // file() is null and error() says why.
  explicit OutputFile(std::string target);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Removes the temporary file unless commit() succeeded.
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

  std::string target_, temp_, error_;
  std::FILE* f_ = nullptr;
  bool done_ = false;
};

}  // namespace pgcodec::cli
