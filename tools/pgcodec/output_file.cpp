#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace pgcodec::cli {
namespace {

// The temporary file a signal handler removes: one at a time, written only
// with the signals blocked.
char pending[4096];
const int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_pending_and_die(int sig) {
  if (pending[0]) ::unlink(pending);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Blocks the signals above for its lifetime.
class Blocked {
 public:
  Blocked() {
    sigset_t s;
    sigemptyset(&s);
    for (int sig : kSignals) sigaddset(&s, sig);
    sigprocmask(SIG_BLOCK, &s, &old_);
  }
  ~Blocked() { sigprocmask(SIG_SETMASK, &old_, nullptr); }
  Blocked(const Blocked&) = delete;
  Blocked& operator=(const Blocked&) = delete;

 private:
  sigset_t old_;
};

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

OutputFile::OutputFile(std::string target) : target_(std::move(target)) {
  std::string dir = dir_of(target_);
  const std::string name = base_of(target_);
  if (name.empty()) {
    error_ = "cannot write to " + target_ + ": " + std::strerror(EISDIR);
    return;
  }
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error_ = "cannot write to " + target_ + ": " + std::strerror(EISDIR);
    return;
  }
  temp_ = (dir == "/" ? "" : dir) + "/." + name + ".pgcodec-XXXXXX";
  if (temp_.size() >= sizeof pending) {
    error_ = "cannot write to " + target_ + ": " + std::strerror(ENAMETOOLONG);
    return;
  }
  struct sigaction sa {};
  sa.sa_handler = remove_pending_and_die;
  sigemptyset(&sa.sa_mask);
  Blocked b;
  std::memcpy(pending, temp_.c_str(), temp_.size() + 1);
  const int fd = ::mkstemp(pending);
  if (fd < 0) {
    error_ = "cannot create a temporary file in " + dir + " for " + target_ + ": " + std::strerror(errno);
    pending[0] = 0;
    return;
  }
  temp_ = pending;
  f_ = ::fdopen(fd, "wb");
  if (!f_) {
    error_ = "cannot write to " + temp_ + ": " + std::strerror(errno);
    ::close(fd);
    discard();
    return;
  }
  for (int i = 0; i < 3; ++i) {
    sigaction(kSignals[i], nullptr, &old_[i]);
    if (old_[i].sa_handler != SIG_IGN) installed_[i] = sigaction(kSignals[i], &sa, nullptr) == 0;  // nohup stays nohup
  }
}

void OutputFile::restore_handlers() noexcept {
  for (int i = 0; i < 3; ++i)
    if (installed_[i]) {
      sigaction(kSignals[i], &old_[i], nullptr);
      installed_[i] = false;
    }
}

OutputFile::~OutputFile() {
  if (f_) std::fclose(f_);
  f_ = nullptr;
  if (!done_) discard();
}

void OutputFile::discard() {
  Blocked b;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  pending[0] = 0;
  done_ = true;
  restore_handlers();
}

bool OutputFile::commit() {
  f_ = nullptr;  // closed by the caller
  // A new file gets the mode a plain open(O_CREAT, 0666) would; an existing
  // one keeps its own.
  mode_t mode;
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::chmod(temp_.c_str(), mode) != 0) {
    error_ = "cannot set the mode of " + temp_ + ": " + std::strerror(errno);
    discard();
    return false;
  }
  {
    Blocked b;
    if (::rename(temp_.c_str(), target_.c_str()) != 0) {
      error_ = "cannot rename " + temp_ + " to " + target_ + ": " + std::strerror(errno);
      ::unlink(temp_.c_str());
      pending[0] = 0;
      done_ = true;
      restore_handlers();
      return false;
    }
    pending[0] = 0;
    done_ = true;
    restore_handlers();
  }
  // The rename itself reaches the disk with the directory.
  const int dfd = ::open(dir_of(target_).c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

int convert_to_file(const std::string& path, bool skip, std::FILE* err, const std::function<int(Output&)>& run) {
  OutputFile file(path);
  if (!file.file()) {
    std::fprintf(err, "pgcodec: %s\n", file.error().c_str());
    return 2;
  }
  Output out(file.file(), path);
  const int rc = run(out);
  const bool synced = rc != 2 && out.sync();
  const bool closed = out.close();
  file.closed();
  if (rc == 2 || !synced || !closed) {
    if (rc != 2 || !out.ok()) std::fprintf(err, "pgcodec: %s\n", out.error_message().c_str());
    return 2;  // ~OutputFile removes the temporary file
  }
  if (rc == 1 && !skip) return 1;
  if (!file.commit()) {
    std::fprintf(err, "pgcodec: %s\n", file.error().c_str());
    return 2;
  }
  return rc;
}

}  // namespace pgcodec::cli
