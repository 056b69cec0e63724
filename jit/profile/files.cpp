#include "jit/profile/files.hpp"
#include "jit/profile/env_switch.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <system_error>

namespace cjit::detail {
namespace {

std::string errno_text(int e) { return std::generic_category().message(e); }

// Closes a descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Kernel interfaces that look like files but block, change state when read, or never end.
bool kernel_interface(const struct statfs &fs) {
  switch (fs.f_type) {
  case PROC_SUPER_MAGIC:
  case SYSFS_MAGIC:
  case DEBUGFS_MAGIC:
  case TRACEFS_MAGIC:
  case SECURITYFS_MAGIC:
  case CGROUP2_SUPER_MAGIC: return true;
  default: return false;
  }
}

std::string directory_of(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What is at `path` (not following a final symbolic link) that an output may not replace.
std::string unreplaceable(const std::string &path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  if (S_ISREG(st.st_mode))
    return st.st_uid == ::geteuid() ? std::string()
                                    : path + ": owned by another user (uid " +
                                          std::to_string(st.st_uid) + "); refusing to replace it";
  if (S_ISDIR(st.st_mode)) return path + ": is a directory";
  if (S_ISLNK(st.st_mode))
    return path + ": is a symbolic link; refusing to replace it (give the path it points to)";
  return path + ": exists and is not a regular file (a device, FIFO or socket); refusing to "
                "replace it";
}

// Gives the new file at `fd` the mode and group of the file it replaces at `path`, if any: a
// private output stays private. A group this user cannot give drops the group's permissions.
bool keep_mode_and_group(int fd, const std::string &path) {
  struct stat old {
  }, now{};
  if (::lstat(path.c_str(), &old) != 0 || !S_ISREG(old.st_mode)) return true; // a new file
  if (::fstat(fd, &now) != 0) return false;
  mode_t mode = old.st_mode & 0777;
  if (now.st_gid != old.st_gid && ::fchown(fd, uid_t(-1), old.st_gid) != 0) mode &= ~mode_t(070);
  return ::fchmod(fd, mode) == 0;
}

// Makes a rename in `dir` durable.
bool sync_directory(const std::string &dir) {
  Fd d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  return d.fd >= 0 && ::fsync(d.fd) == 0;
}

// A new file in `dir`, created exclusively (O_EXCL never follows a link), mode 0666 & ~umask.
int create_temporary(const std::string &dir, const std::string &base, std::string &tmp) {
  static std::atomic<unsigned> counter = 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    tmp = dir + "/." + base + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++) +
          "." + std::to_string(now % 1000000);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

} // namespace

Result<std::string> read_small_file(const std::string &path, const ReadLimits &limits) {
  using R = Result<std::string>;
  const std::string name = path.empty() ? "(empty path)" : path;
  // Look before opening: opening a device can block or act (a tape rewinds, a modem dials).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return R::fail(name + ": cannot open: " + errno_text(errno));
  if (S_ISDIR(st.st_mode))
    return R::fail(name + ": is a directory, not " + std::string(limits.what));
  const bool pipe_ok = limits.allow_pipe && S_ISFIFO(st.st_mode);
  if (!S_ISREG(st.st_mode) && !pipe_ok)
    return R::fail(name + ": not a regular file" +
                   (S_ISFIFO(st.st_mode)
                        ? " (a pipe is read only from a path given to clearjit_open or on the "
                          "command line, not from the default lookup)"
                        : ""));
  const std::string kernel_file =
      name + ": a kernel interface (/proc, /sys), not " + std::string(limits.what);
  struct statfs fs {};
  if (S_ISREG(st.st_mode) && ::statfs(path.c_str(), &fs) == 0 && kernel_interface(fs))
    return R::fail(kernel_file); // not even opened: opening some of them acts

  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (f.fd < 0) return R::fail(name + ": cannot open: " + errno_text(errno));
  // The path may have changed between stat and open: judge what was opened.
  if (::fstat(f.fd, &st) != 0) return R::fail(name + ": cannot read: " + errno_text(errno));
  const bool pipe = S_ISFIFO(st.st_mode);
  if (!S_ISREG(st.st_mode) && !(pipe && limits.allow_pipe))
    return R::fail(name + ": not a regular file");
  if (!pipe && ::fstatfs(f.fd, &fs) == 0 && kernel_interface(fs)) return R::fail(kernel_file);
  if (!pipe && uint64_t(st.st_size) > limits.max_bytes)
    return R::fail(name + ": too large (" + std::to_string(st.st_size) + " bytes, at most " +
                   std::to_string(limits.max_bytes) + ")");

  // Read until EOF: st_size can be stale. A regular file never makes us wait; a pipe may, up
  // to the deadline, which bounds a writer that never closes.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.pipe_timeout_ms);
  std::string text;
  char buf[16384];
  while (true) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n > 0) {
      text.append(buf, size_t(n));
      if (text.size() > limits.max_bytes)
        return R::fail(name + ": too large (more than " + std::to_string(limits.max_bytes) +
                       " bytes)");
      continue;
    }
    if (n == 0 && (!pipe || !text.empty())) break;
    if (n == 0) {
      // A FIFO no writer has opened yet reads as at its end: wait for one, to the deadline. A
      // writer that came and went is a hang-up: the file is empty.
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd p{f.fd, POLLIN, 0};
      const int ready = left.count() > 0 ? ::poll(&p, 1, int(left.count())) : 0;
      if (ready == 0)
        return R::fail(name + ": no writer opened the pipe within " +
                       std::to_string(limits.pipe_timeout_ms) + " ms");
      if (ready > 0 && !(p.revents & POLLIN)) break;
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN || !pipe) return R::fail(name + ": cannot read: " + errno_text(errno));
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return R::fail(name + ": the pipe did not deliver the whole file within " +
                     std::to_string(limits.pipe_timeout_ms) +
                     " ms (its writer must write everything and close)");
    pollfd p{f.fd, POLLIN, 0};
    ::poll(&p, 1, int(left.count()));
  }
  return {std::move(text), {}};
}

std::string check_output_path(const std::string &path) {
  if (path.empty()) return "(empty path): not a file name";
  if (path.back() == '/') return path + ": is a directory";
  if (std::string why = unreplaceable(path); !why.empty()) return why;
  const std::string dir = directory_of(path);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    return path + ": cannot write in " + dir + ": " + errno_text(errno);
  if (!S_ISDIR(st.st_mode)) return path + ": " + dir + " is not a directory";
  // Nothing short of creating a file tells for sure (read-only mounts, ACLs, quotas).
  std::string tmp;
  const int fd = create_temporary(dir, base_of(path), tmp);
  if (fd < 0) return path + ": cannot create a file in " + dir + ": " + errno_text(errno);
  ::close(fd);
  ::unlink(tmp.c_str());
  return {};
}

std::string write_file_atomically(const std::string &path, std::string_view text) {
  if (std::string why = check_output_path(path); !why.empty()) return why;
  std::string tmp;
  const int fd = create_temporary(directory_of(path), base_of(path), tmp);
  if (fd < 0) return path + ": cannot write: " + errno_text(errno);
  auto fail = [&](const std::string &what) {
    const std::string e = errno_text(errno);
    ::close(fd);
    ::unlink(tmp.c_str());
    return path + ": " + what + ": " + e;
  };
  if (!keep_mode_and_group(fd, path)) return fail("cannot give it the old file's mode");
  if (!write_all(fd, text)) return fail("write failed");
  if (::fsync(fd) != 0) return fail("cannot write");
  if (::close(fd) != 0) {
    const std::string e = errno_text(errno);
    ::unlink(tmp.c_str());
    return path + ": cannot write: " + e;
  }
  // Checked again just before the rename: something may have appeared there while we wrote.
  // rename replaces the name only; it never writes into what the name pointed to.
  if (std::string why = unreplaceable(path); !why.empty()) {
    ::unlink(tmp.c_str());
    return why;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string e = errno_text(errno);
    ::unlink(tmp.c_str());
    return path + ": cannot write: " + e;
  }
  if (!sync_directory(directory_of(path)))
    return path + ": written, but its folder cannot be synced: " + errno_text(errno);
  return {};
}

int open_debug_output(const std::string &path, bool append, std::string &error) {
  const int flags =
      O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0);
  Fd f{::open(path.c_str(), flags, 0644)};
  if (f.fd < 0) {
    error =
        path + ": " +
        (errno == ELOOP ? "is a symbolic link; not followed" : "cannot open: " + errno_text(errno));
    return -1;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = path + ": not a regular file; not written";
    return -1;
  }
  if (st.st_uid != ::geteuid()) {
    error = path + ": owned by another user; not written";
    return -1;
  }
  if (st.st_nlink != 1) { // a hard link planted to one of our files elsewhere
    error = path + ": has other hard links; not written";
    return -1;
  }
  if (!append && ::ftruncate(f.fd, 0) != 0) {
    error = path + ": cannot truncate: " + errno_text(errno);
    return -1;
  }
  const int fd = f.fd;
  f.fd = -1;
  return fd;
}

bool write_all(int fd, std::string_view bytes) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += size_t(w);
  }
  return true;
}

std::string clearjit_env(const char *name) {
  const char *v = ::secure_getenv(name);
  return v ? v : "";
}

namespace {
// The names already warned about (on first use: static initializers may read a switch).
struct Said {
  std::mutex m;
  std::set<std::string> names;
};
Said &said() {
  static Said s;
  return s;
}
} // namespace

void env_switch_said(const char *name) {
  std::lock_guard lock(said().m);
  said().names.insert(name);
}

bool clearjit_env_switch(const char *name, bool fallback) {
  const std::string v = clearjit_env(name);
  if (v.empty()) return fallback;
  if (int on = switch_word(v.c_str()); on >= 0) return on == 1;
  std::lock_guard lock(said().m);
  if (said().names.insert(name).second)
    std::fprintf(stderr, "clearjit: %s=%s is not on or off (%s), taken as %s\n", name,
                 quoted(v, 0).c_str(), kSwitchWords, fallback ? "on" : "off");
  return fallback;
}

} // namespace cjit::detail
