// `clearjit trace`: run a program under the preload and record the sizes it clears.
#include "commands.hpp"

#include "jit/model/spec.hpp"
#include "jit/profile/files.hpp"
#include "tuner/bench/mix.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>

namespace cjit::cli {

using namespace cjit::detail;

namespace {

// libclearjit-preload.so beside this binary (the build tree), in ../lib (an installed prefix), or
// where this build installs it.
std::string find_preload() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  std::string dir = n > 0 ? std::string(buf, size_t(n)) : "";
  dir = dir.substr(0, dir.rfind('/'));
  for (const std::string &c :
       {dir + "/libclearjit-preload.so", dir + "/../" CLEARJIT_LIBDIR "/libclearjit-preload.so",
        std::string(CLEARJIT_INSTALLED_PRELOAD)})
    if (access(c.c_str(), R_OK) == 0) return c;
  return {};
}

// The preload library to trace with, its path resolved: --preload or the one found. None (said
// on stderr) where it is missing or is not libclearjit-preload.so.
std::optional<std::string> checked_preload(const TraceArgs &a) {
  std::string preload = a.preload.empty() ? find_preload() : a.preload;
  char resolved[PATH_MAX];
  if (preload.empty() || !realpath(preload.c_str(), resolved)) {
    std::cerr << "clearjit trace: "
              << (preload.empty() ? "libclearjit-preload.so not found (--preload PATH)"
                                  : preload + ": " + std::strerror(errno))
              << "\n";
    return std::nullopt;
  }
  // Another library would run the program untraced and leave an empty trace, which reads as "the
  // program cleared nothing": the preload is the library that reads CLEARJIT_TRACE.
  const Result<std::string> library =
      read_small_file(resolved, {.max_bytes = 64 << 20, .what = "a preload library"});
  if (!library || library->find("CLEARJIT_TRACE") == std::string::npos) {
    std::cerr << "clearjit trace: "
              << (library ? preload + ": not libclearjit-preload.so (it does not read "
                                      "CLEARJIT_TRACE); give --preload the preload library, or "
                                      "leave it out to use the one beside clearjit"
                          : library.error)
              << "\n";
    return std::nullopt;
  }
  return std::string(resolved);
}

// How the traced program ended.
struct Traced {
  pid_t pid = -1;           // < 0: fork failed, and errno says why
  bool exec_failed = false; // the program did not start: exec_errno says why
  int exec_errno = 0, status = 0;
};

// Runs the command with the preload writing to `trace`, and waits for it. The terminal's ^C goes
// to the program; the report still follows. None (said on stderr) where no pipe could be made.
std::optional<Traced> run_traced(const std::vector<std::string> &command,
                                 const std::string &preload, const std::string &trace) {
  std::string ld_preload = preload;
  if (const char *old = std::getenv("LD_PRELOAD"); old && *old)
    ld_preload += std::string(":") + old;
  int pipefd[2]; // the child's exec errno, if exec fails; closed unread when it succeeds
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    std::cerr << "clearjit trace: pipe: " << std::strerror(errno) << "\n";
    return std::nullopt;
  }
  std::vector<char *> argv;
  for (const std::string &arg : command)
    argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  struct sigaction ignore = {}, old_int, old_quit;
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  Traced t;
  t.pid = fork();
  if (t.pid == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    setenv("CLEARJIT_TRACE", trace.c_str(), 1);
    setenv("LD_PRELOAD", ld_preload.c_str(), 1);
    execvp(argv[0], argv.data());
    int e = errno;
    ssize_t w = write(pipefd[1], &e, sizeof e);
    (void)w;
    _exit(127);
  }
  close(pipefd[1]);
  t.exec_failed =
      t.pid > 0 && read(pipefd[0], &t.exec_errno, sizeof t.exec_errno) == sizeof t.exec_errno;
  close(pipefd[0]);
  if (t.pid > 0)
    while (waitpid(t.pid, &t.status, 0) < 0 && errno == EINTR) {
    }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  return t;
}

// Reads and removes the trace, prints what the program cleared and writes --json: the program's
// status; 1 or 2 where the program did not run or the trace cannot be read or written.
int report_trace(const TraceArgs &a, const std::string &trace, const Traced &t) {
  ReadLimits limits;
  limits.max_bytes = 64 << 20;
  limits.what = "a trace file";
  auto read = read_small_file(trace, limits);
  std::string error = read ? "" : read.error, text = read ? *read : "";
  unlink(trace.c_str());
  if (t.pid < 0 || t.exec_failed) {
    std::cerr << "clearjit trace: cannot run '" << a.command[0]
              << "': " << std::strerror(t.pid < 0 ? errno : t.exec_errno) << "\n";
    return t.pid < 0 ? 1 : 2; // a program that cannot run is the invocation's
  }
  Histogram h;
  if (error.empty()) error = add_trace_records(h, text);
  if (!error.empty()) {
    std::cerr << "clearjit trace: " << trace << ": " << error << "\n";
    return 1;
  }
  int rc = WIFEXITED(t.status) ? WEXITSTATUS(t.status) : 128 + WTERMSIG(t.status);
  std::cerr << "\nclearjit trace: " << a.command[0] << " exited with status " << rc << "\n"
            << histogram_text(h);
  if (h.processes == 0)
    std::cerr << "(no record: the program ended without running exit handlers, e.g. _exit or a "
                 "signal, or it is statically linked)\n";
  if (!a.json.empty()) {
    if (std::string e = write_file_atomically(a.json, histogram_json(h, a.command)); !e.empty()) {
      std::cerr << "clearjit trace: " << e << "\n";
      return 2;
    }
    std::cerr << "trace: " << a.json << " (clearjit bench --mix " << a.json << ")\n";
  }
  return rc;
}

} // namespace

// `clearjit trace`: runs the program with the preload counting (CLEARJIT_TRACE=FILE), then
// prints what it cleared on stderr (the program's own output stays as it was). Exits with the
// program's status.
int cmd_trace(const TraceArgs &a) {
  const std::optional<std::string> preload = checked_preload(a);
  if (!preload) return 2;
  if (!a.json.empty())
    if (std::string e = check_output_path(a.json); !e.empty()) {
      std::cerr << "clearjit trace: " << e << "\n";
      return 2;
    }
  const char *tmp = std::getenv("TMPDIR");
  std::string trace = std::string(tmp && *tmp == '/' ? tmp : "/tmp") + "/clearjit-trace-XXXXXX";
  int fd = mkstemp(trace.data());
  if (fd < 0) {
    std::cerr << "clearjit trace: cannot create " << trace << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  close(fd);
  const std::optional<Traced> t = run_traced(a.command, *preload, trace);
  if (!t) return 1;
  return report_trace(a, trace, *t);
}

} // namespace cjit::cli
