#include "tuner/measure/c_library.hpp"

#include "jit/profile/stand_ins.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <gnu/libc-version.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace cjit::detail {
namespace {

namespace fs = std::filesystem;

// run_self_under's leading arguments: this flag, then clearjit's path, the glibc's name, the
// folder of its libc.so.6 and the --libc given.
constexpr const char *kReExecutedFlag = "--re-executed-under-libc";
constexpr int kReExecutedValues = 4;
// Where clearjit passed them before 2026-12-07: removed from every process's environment.
constexpr const char *kOldVariables[] = {"CLEARJIT_SELF", "CLEARJIT_LIBC", "CLEARJIT_LIBC_LIBDIR",
                                         "CLEARJIT_LIBC_DIR"};

// What this process's command line said, when run_self_under started it.
struct ReExecution {
  bool is = false;
  std::string self, libc, library_dir, given_dir;
};
ReExecution re_execution;
constexpr const char *kLoaderName = "ld-linux-x86-64.so.2";
// Where a libc6 package puts its loader and libc.so.6 (Debian 12 and 13 both ship
// usr/lib/x86_64-linux-gnu/ in their trees; lib64/ holds a link to it), and a flat folder.
constexpr const char *kTreeDirs[] = {"usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu", "lib64",
                                     "usr/lib64", "."};
// The system's directories, searched after the other glibc's for what it does not ship.
constexpr const char *kSystemLibraryPath = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu";

std::string real_path(const std::string &path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

std::string dir_of(const std::string &path) { return fs::path(path).parent_path().string(); }

// The regular file `name` in one of the tree's directories, resolved and inside `root`.
std::string find_in_tree(const std::string &root, const char *name, std::string &why) {
  for (const char *d : kTreeDirs) {
    const std::string candidate = root + "/" + d + "/" + name;
    struct stat st;
    if (lstat(candidate.c_str(), &st) != 0) continue;
    const std::string resolved = real_path(candidate);
    if (resolved.empty() || resolved.compare(0, root.size() + 1, root + "/") != 0) {
      why = candidate + " leads outside " + root;
      continue;
    }
    if (stat(resolved.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      why = candidate + " is not a regular file";
      continue;
    }
    return resolved;
  }
  return {};
}

// Empty where `st` (of `path`) is owned by this user or root and nobody else may write it; else
// why not. `sticky_ok`: a folder above --libc DIR may be writable by all if it is sticky (/tmp),
// where nobody else can rename or remove what this user owns.
std::string not_owned(const std::string &path, const struct stat &st, bool sticky_ok) {
  const uid_t me = geteuid();
  if (st.st_uid != me && st.st_uid != 0)
    return path + " is owned by uid " + std::to_string(st.st_uid) + ", neither you nor root";
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
      !(sticky_ok && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX)))
    return path + " is writable by " + ((st.st_mode & S_IWOTH) ? "everyone" : "its group");
  return {};
}

// Empty where `file` (resolved, inside the resolved `root`) and every folder from / down to it
// can be changed by nobody but this user and root; else which is not so.
std::string not_trusted(const std::string &root, const std::string &file) {
  std::string at;
  for (const fs::path &part : fs::path(file).parent_path()) {
    at = at.empty() || at == "/" ? at + part.string() : at + "/" + part.string();
    struct stat st;
    if (stat(at.c_str(), &st) != 0) return at + ": " + std::strerror(errno);
    const bool inside = at.size() >= root.size();
    if (std::string why = not_owned(at, st, !inside); !why.empty()) return why;
  }
  struct stat st;
  if (stat(file.c_str(), &st) != 0) return file + ": " + std::strerror(errno);
  return not_owned(file, st, false);
}

// "glibc 2.41" from a loader's --version ("ld.so (Debian GLIBC 2.41-12) stable release version
// 2.41."); empty for anything else.
std::string glibc_name(const std::string &version_text) {
  const std::string key = "release version ";
  const size_t at = version_text.find(key);
  if (at == std::string::npos) return {};
  size_t end = at + key.size();
  while (end < version_text.size() &&
         (std::isdigit(static_cast<unsigned char>(version_text[end])) || version_text[end] == '.'))
    ++end;
  std::string v = version_text.substr(at + key.size(), end - at - key.size());
  while (!v.empty() && v.back() == '.')
    v.pop_back();
  return v.empty() ? std::string() : "glibc " + v;
}

std::string first_line(const std::string &text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.size() > 120 ? line.substr(0, 120) + "..." : line;
}

} // namespace

const CLibrary &running_c_library() {
  static const CLibrary lib = [] {
    CLibrary l;
    l.name = running_libc();
    Dl_info info{};
    // The loader is the loaded object named like one, also when started as a program (--libc).
    // Not dladdr(&_r_debug): an executable holds its own copy of that variable (a copy
    // relocation), and dladdr then names the executable.
    dl_iterate_phdr(
        [](dl_phdr_info *i, size_t, void *out) {
          const std::string name = i->dlpi_name ? i->dlpi_name : "";
          if (fs::path(name).filename().string().starts_with("ld-linux")) {
            *static_cast<std::string *>(out) = real_path(name);
            return 1;
          }
          return 0;
        },
        &l.loader);
    if (dladdr(reinterpret_cast<void *>(&gnu_get_libc_version), &info) && info.dli_fname)
      l.library_dir = dir_of(real_path(info.dli_fname));
    return l;
  }();
  return lib;
}

Result<CLibrary> c_library_in(const std::string &dir) {
  using R = Result<CLibrary>;
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) return R::fail("--libc " + dir + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return R::fail("--libc " + dir +
                   ": not a directory (give the folder a libc6 package was unpacked into, e.g. "
                   "by scripts/fetch-libc.sh)");
  // The root folder holds the system's own loader: --libc / is the running glibc, not a peer.
  const std::string root = real_path(dir);
  if (root.empty() || root == "/")
    return R::fail("--libc " + dir + ": not a folder a libc6 package was unpacked into");
  std::string why;
  CLibrary lib;
  lib.loader = find_in_tree(root, kLoaderName, why);
  if (lib.loader.empty())
    return R::fail("--libc " + dir + ": no " + kLoaderName +
                   (why.empty() ? std::string(" in usr/lib/x86_64-linux-gnu, lib64 or the folder")
                                : " usable: " + why));
  why.clear();
  const std::string libc = find_in_tree(root, "libc.so.6", why);
  if (libc.empty())
    return R::fail("--libc " + dir + ": a loader but no libc.so.6" +
                   (why.empty() ? std::string() : ": " + why));
  lib.library_dir = dir_of(libc);
  for (const std::string &file : {lib.loader, libc})
    if (std::string why = not_trusted(root, file); !why.empty())
      return R::fail("--libc " + dir + ": " + why +
                     "; only a tree that nobody but you and root can change is run");
  // Opened once: what runs is the file checked here, whatever the path names later.
  lib.loader_fd = open(lib.loader.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  struct stat opened, named;
  if (lib.loader_fd < 0 || fstat(lib.loader_fd, &opened) != 0 ||
      stat(lib.loader.c_str(), &named) != 0 || opened.st_dev != named.st_dev ||
      opened.st_ino != named.st_ino || !S_ISREG(opened.st_mode) ||
      !not_owned(lib.loader, opened, false).empty()) {
    if (lib.loader_fd >= 0) close(lib.loader_fd);
    return R::fail("--libc " + dir + ": " + lib.loader + " changed while it was checked");
  }
  Result<std::string> version =
      run_capture({lib.loader, "--version"}, {"GLIBC_TUNABLES"}, 5, 1 << 20, lib.loader_fd);
  lib.name = version ? glibc_name(*version) : "";
  if (lib.name.empty()) close(lib.loader_fd);
  if (!version)
    return R::fail("--libc " + dir + ": its loader " + lib.loader +
                   " does not start: " + version.error);
  if (lib.name.empty())
    return R::fail("--libc " + dir + ": " + lib.loader + " is not glibc's loader (its --version " +
                   "says '" + first_line(*version) + "'); only glibc's memset can be the peer");
  return {lib, {}};
}

std::vector<std::string> command_under(const CLibrary &lib, const std::string &program,
                                       const std::vector<std::string> &args) {
  std::vector<std::string> out{lib.loader, "--library-path",
                               lib.library_dir + ":" + kSystemLibraryPath, program};
  out.insert(out.end(), args.begin(), args.end());
  return out;
}

std::string self_executable() {
  return re_execution.is ? re_execution.self : real_path("/proc/self/exe");
}

std::string run_self_under(const CLibrary &lib, const std::string &dir,
                           const std::vector<std::string> &args) {
  const std::string self = self_executable();
  if (self.empty()) return "cannot find this executable (/proc/self/exe)";
  std::vector<std::string> told{kReExecutedFlag, self, lib.name, lib.library_dir, dir};
  told.insert(told.end(), args.begin(), args.end());
  const std::vector<std::string> command = command_under(lib, self, told);
  std::vector<char *> argv;
  for (const std::string &a : command)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  if (lib.loader_fd >= 0) {
    // Without close-on-exec, so that a loader that is a script can be read by its interpreter.
    fcntl(lib.loader_fd, F_SETFD, 0);
    fexecve(lib.loader_fd, argv.data(), environ);
  } else {
    execv(argv[0], argv.data());
  }
  return std::string("cannot run ") + lib.loader + ": " + std::strerror(errno);
}

int take_re_execution(int argc, char **argv, std::string &error) {
  for (const char *variable : kOldVariables)
    unsetenv(variable);
  if (argc < 2 || std::strcmp(argv[1], kReExecutedFlag) != 0) return argc;
  if (argc < 2 + kReExecutedValues) {
    error = std::string(kReExecutedFlag) + " takes " + std::to_string(kReExecutedValues) +
            " values (clearjit's path, the glibc's name, its library folder, the --libc given)";
    return -1;
  }
  re_execution = {true, argv[2], argv[3], argv[4], argv[5]};
  const int taken = 1 + kReExecutedValues;
  for (int i = 1; i + taken <= argc; ++i) // argv[argc] is the null pointer, moved too
    argv[i] = argv[i + taken];
  return argc - taken;
}

std::string libc_dir_given() { return re_execution.is ? re_execution.given_dir : ""; }

std::string libc_mismatch() {
  if (!re_execution.is) return {};
  const std::string &named = re_execution.libc, &dir = re_execution.library_dir;
  const CLibrary &running = running_c_library();
  // The same version from another folder (the system's libc.so.6 found first) is not it either.
  if (running.name == named && (dir.empty() || running.library_dir == dir)) return {};
  return "meant to run under " + named + (dir.empty() ? "" : " from " + dir) + ", but runs " +
         running.name + " from " + running.library_dir +
         ": the other glibc's tree lacks part of itself";
}

Result<std::map<std::string, uint64_t>> list_tunables(const CLibrary &lib,
                                                      const std::string &tunables) {
  using R = Result<std::map<std::string, uint64_t>>;
  Result<std::string> text =
      run_capture({lib.loader, "--list-tunables"},
                  {tunables.empty() ? "GLIBC_TUNABLES" : "GLIBC_TUNABLES=" + tunables}, 10, 1 << 20,
                  lib.loader_fd);
  if (!text) return R::fail(lib.name + "'s loader does not list its tunables: " + text.error);
  std::map<std::string, uint64_t> out;
  size_t pos = 0;
  while (pos < text->size()) {
    const size_t end = std::min(text->find('\n', pos), text->size());
    const std::string line = text->substr(pos, end - pos);
    pos = end + 1;
    const size_t colon = line.find(": ");
    if (colon == std::string::npos) continue;
    errno = 0;
    char *stop = nullptr;
    const unsigned long long v = std::strtoull(line.c_str() + colon + 2, &stop, 0);
    if (errno == 0 && stop != line.c_str() + colon + 2) out[line.substr(0, colon)] = v;
  }
  if (out.empty()) return R::fail(lib.name + "'s loader listed no tunables");
  return {out, {}};
}

namespace {

// This environment, with env's NAME=VALUE set and bare NAMEs removed.
std::vector<std::string> environment_with(const std::vector<std::string> &env) {
  std::vector<std::string> vars;
  for (char **e = environ; *e; ++e)
    vars.emplace_back(*e);
  for (const std::string &change : env) {
    const std::string name = change.substr(0, change.find('='));
    std::erase_if(
        vars, [&](const std::string &v) { return v.compare(0, name.size() + 1, name + "=") == 0; });
    if (change.find('=') != std::string::npos) vars.push_back(change);
  }
  return vars;
}

// The null-terminated array of pointers posix_spawn takes; valid while `strings` is.
std::vector<char *> c_strings(const std::vector<std::string> &strings) {
  std::vector<char *> out;
  for (const std::string &s : strings)
    out.push_back(const_cast<char *>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// steady_clock's now plus seconds as a double: the type run_capture's deadline has.
using Deadline = decltype(std::chrono::steady_clock::now() + std::chrono::duration<double>());

// What a child printed, and whether it was cut short.
struct Capture {
  std::string text, errors; // its stdout and stderr
  bool too_much = false, timed_out = false;
};

// Reads the child's stdout and stderr until both close, the deadline passes or either would
// exceed max_bytes; a child cut short is killed.
void read_output(int out, int err, pid_t pid, Deadline deadline, size_t max_bytes, Capture &c) {
  pollfd fds[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};
  int open = 2;
  while (open > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      c.timed_out = true;
      break;
    }
    if (poll(fds, 2, int(std::min<int64_t>(left.count(), INT_MAX))) < 0) {
      if (errno == EINTR) continue;
      c.timed_out = true; // cannot wait for it any more: ended as at the deadline
      break;
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t n = read(fds[k].fd, buf, sizeof buf);
      if (n <= 0) {
        fds[k].fd = -1;
        --open;
        continue;
      }
      std::string &to = k == 0 ? c.text : c.errors;
      if (to.size() + size_t(n) > max_bytes)
        c.too_much = true;
      else
        to.append(buf, size_t(n));
    }
    if (c.too_much) break;
  }
  if (c.timed_out || c.too_much) kill(pid, SIGKILL);
}

// The child's wait status. A child that closed its output may still run: waited for to the
// deadline, then killed.
int wait_for_child(pid_t pid, Deadline deadline, Capture &c) {
  int status = 0;
  while (!c.timed_out && !c.too_much) {
    const pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      c.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    usleep(2000);
  }
  if (c.timed_out || c.too_much)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  return status;
}

// The child's stdout, or how it failed, with the first line of its stderr.
Result<std::string> capture_result(const Capture &c, int status, double timeout_s,
                                   size_t max_bytes) {
  using R = Result<std::string>;
  std::string said = first_line(c.errors);
  said = said.empty() ? std::string() : " (it said: " + said + ")";
  if (c.timed_out) return R::fail("did not finish in " + std::to_string(int(timeout_s)) + " s");
  if (c.too_much) return R::fail("printed more than " + std::to_string(max_bytes) + " bytes");
  if (WIFSIGNALED(status))
    return R::fail(std::string("killed by signal ") + strsignal(WTERMSIG(status)) + said);
  if (WEXITSTATUS(status) != 0)
    return R::fail("exit status " + std::to_string(WEXITSTATUS(status)) + said);
  return {c.text, {}};
}

} // namespace

Result<std::string> run_capture(const std::vector<std::string> &argv,
                                const std::vector<std::string> &env, double timeout_s,
                                size_t max_bytes, int program_fd) {
  using R = Result<std::string>;
  if (argv.empty()) return R::fail("no command");
  const std::vector<std::string> vars = environment_with(env);
  std::vector<char *> envp = c_strings(vars), args = c_strings(argv);

  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) return R::fail(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    return R::fail(std::string("pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  // A descriptor duplicated onto itself loses close-on-exec in the child alone (glibc 2.29 on);
  // the child runs the file through it.
  const std::string program =
      program_fd >= 0 ? "/proc/self/fd/" + std::to_string(program_fd) : argv[0];
  if (program_fd >= 0) posix_spawn_file_actions_adddup2(&actions, program_fd, program_fd);
  pid_t pid = -1;
  const int spawned =
      posix_spawn(&pid, program.c_str(), &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  close(err[1]);
  Capture c;
  const Deadline deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  if (spawned == 0) read_output(out[0], err[0], pid, deadline, max_bytes, c);
  close(out[0]);
  close(err[0]);
  if (spawned != 0) return R::fail(std::string(std::strerror(spawned)));
  const int status = wait_for_child(pid, deadline, c);
  return capture_result(c, status, timeout_s, max_bytes);
}

} // namespace cjit::detail
