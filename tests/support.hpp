// Test helpers: buffers bounded by PROT_NONE guard pages, pattern fills and checks; synthetic
// CPUs; golden listings.
#pragma once

#include "codegen.hpp"
#include "cpu.hpp"
#include "profile.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cjit::test {

inline size_t page_size() { return size_t(sysconf(_SC_PAGESIZE)); }

//! `usable` bytes (rounded up to pages) between two PROT_NONE pages: an access one byte
//! before begin() or at end() faults.
class GuardedBuffer {
public:
  explicit GuardedBuffer(size_t usable) {
    const size_t page = page_size();
    usable_ = (usable + page - 1) / page * page;
    total_ = usable_ + 2 * page;
    void *p = mmap(nullptr, total_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    base_ = static_cast<uint8_t *>(p);
    if (mprotect(base_ + page, usable_, PROT_READ | PROT_WRITE) != 0)
      throw std::runtime_error("mprotect failed");
  }
  ~GuardedBuffer() { munmap(base_, total_); }
  GuardedBuffer(const GuardedBuffer &) = delete;
  GuardedBuffer &operator=(const GuardedBuffer &) = delete;

  uint8_t *begin() const { return base_ + page_size(); }
  uint8_t *end() const { return begin() + usable_; }
  size_t size() const { return usable_; }

private:
  uint8_t *base_ = nullptr;
  size_t usable_ = 0, total_ = 0;
};

//! A byte that is never zero and differs with position, so a misplaced store shows.
inline uint8_t pattern_byte(size_t i) { return uint8_t(0x5A ^ (i * 131)) | 1; }

inline void fill_pattern(uint8_t *p, size_t n, size_t phase = 0) {
  for (size_t i = 0; i < n; ++i)
    p[i] = pattern_byte(i + phase);
}

//! First index in [0, n) where p differs from the pattern, or n.
inline size_t first_pattern_mismatch(const uint8_t *p, size_t n, size_t phase = 0) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != pattern_byte(i + phase)) return i;
  return n;
}

//! First nonzero index in [0, n), or n.
inline size_t first_nonzero(const uint8_t *p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w) break;
  }
  for (; i < n; ++i)
    if (p[i]) return i;
  return n;
}

//! Runs `body` in a forked child that gets `seconds` to finish, so a crash or a hang fails
//! the test instead of the suite. "" when body returned "" and the child exited normally;
//! otherwise body's message, the signal that killed it, or "timed out".
inline std::string in_child(const std::function<std::string()> &body, int seconds = 30) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    close(fds[0]);
    const std::string message = body();
    if (!message.empty()) (void)!write(fds[1], message.data(), message.size());
    _exit(message.empty() ? 0 : 1);
  }
  close(fds[1]);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  pid_t done = 0;
  while ((done = waitpid(pid, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (done == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    close(fds[0]);
    return "timed out after " + std::to_string(seconds) + " s";
  }
  std::string message;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    message.append(buf, size_t(n));
  close(fds[0]);
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  if (WEXITSTATUS(status) != 0 && message.empty())
    return "exited with " + std::to_string(WEXITSTATUS(status));
  return message;
}

//! Runs `body` on a new thread with a stack of `stack_bytes`: what a library call must survive
//! when an application calls it from a small thread.
inline void on_small_stack(size_t stack_bytes, const std::function<void()> &body) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t t;
  auto run = [](void *arg) -> void * {
    (*static_cast<const std::function<void()> *>(arg))();
    return nullptr;
  };
  if (pthread_create(&t, &attr, run, const_cast<std::function<void()> *>(&body)) != 0)
    throw std::runtime_error("pthread_create failed");
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
}

// ---------------------------------------------------------------------------------------------
// Synthetic CPUs: tests independent of the machine that runs them.

//! Every feature clearjit knows, on an AMD family 25 model 1.
inline CpuInfo full_cpu() {
  CpuInfo c;
  c.vendor = "AuthenticAMD";
  c.brand = "Test CPU";
  c.family = 25;
  c.model = 1;
  c.stepping = 1;
  for (size_t f = size_t(Feature::none) + 1; f < size_t(Feature::count_); ++f)
    c.set(Feature(f));
  return c;
}

inline CpuInfo cpu_without(Feature f) {
  CpuInfo c = full_cpu();
  c.set(f, false);
  return c;
}

//! SSE2 only (and no ERMS): the minimal x86-64.
inline CpuInfo minimal_cpu() {
  CpuInfo c;
  c.vendor = "GenuineIntel";
  c.brand = "Minimal CPU";
  c.family = 6;
  c.model = 15;
  c.set(Feature::sse2);
  return c;
}

//! This CPU, or this CPU without AVX (and what needs it) when `avx` is false.
inline CpuInfo host_like(bool avx) {
  CpuInfo c = host_cpu();
  if (!avx)
    for (Feature f :
         {Feature::avx, Feature::avx2, Feature::avx512f, Feature::avx512bw, Feature::avx512vl})
      c.set(f, false);
  return c;
}

// ---------------------------------------------------------------------------------------------
// Profiles, written by the profile module (jit/profile.hpp) as the tuner writes them.

//! One class as a test states it: below == 0 marks the last class; kernel is a spec, which
//! may be spelled in any form parse_spec reads.
struct ClassText {
  uint64_t below;
  std::string kernel;
};

inline std::vector<SizeClass> size_classes(const std::vector<ClassText> &classes) {
  std::vector<SizeClass> out;
  for (const ClassText &c : classes) {
    auto spec = parse_spec(c.kernel);
    if (!spec) throw std::runtime_error(c.kernel + ": " + spec.error);
    out.push_back({c.below, *spec});
  }
  return out;
}

//! A profile measured on `cpu` with these tables (empty stream or batch: not written).
inline std::string profile_text(const CpuInfo &cpu, const std::vector<ClassText> &reuse,
                                const std::vector<ClassText> &stream = {},
                                const std::vector<ClassText> &batch = {}) {
  Profile p;
  p.host = profile_host(cpu);
  p.reuse = size_classes(reuse);
  p.stream = size_classes(stream);
  p.batch = size_classes(batch);
  return format_profile(p);
}

// ---------------------------------------------------------------------------------------------
// Golden listings: tests/golden/..., rewritten with CLEARJIT_UPDATE_GOLDEN=1.

inline std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    lines.emplace_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

inline std::span<const uint8_t> code_bytes(const GeneratedCode &g) {
  return {reinterpret_cast<const uint8_t *>(g.fn), g.size};
}

inline std::filesystem::path golden_dir() {
  return std::filesystem::path(CLEARJIT_SOURCE_DIR) / "tests" / "golden";
}

inline bool update_golden() {
  const char *v = std::getenv("CLEARJIT_UPDATE_GOLDEN");
  return v && std::string_view(v) == "1";
}

//! "" when equal; otherwise the first differing line, expected against actual.
inline std::string first_difference(std::string_view expected, std::string_view actual) {
  if (expected == actual) return {};
  auto e = split_lines(expected), a = split_lines(actual);
  size_t i = 0;
  while (i < e.size() && i < a.size() && e[i] == a[i])
    ++i;
  if (i == e.size() && i == a.size()) // same lines; only the final newline differs
    return "listings differ only in the final newline";
  std::ostringstream os;
  os << "first difference at line " << i + 1 << " (expected " << e.size() << " lines, got "
     << a.size() << ")\n"
     << "  expected: " << (i < e.size() ? e[i] : "<end of file>") << "\n"
     << "  actual:   " << (i < a.size() ? a[i] : "<end of file>") << "\n";
  return os.str();
}

//! "" when `listing` is the golden `file`'s text; otherwise what differs and how to update it.
//! With CLEARJIT_UPDATE_GOLDEN=1 the file is written instead (when it differs) and "" returned.
inline std::string check_golden(const std::filesystem::path &file, const std::string &listing) {
  std::ifstream in(file, std::ios::binary);
  const bool exists = in.is_open();
  const std::string expected((std::istreambuf_iterator<char>(in)), {});
  if (update_golden()) {
    const bool same = exists && expected == listing;
    if (!same) {
      std::filesystem::create_directories(file.parent_path());
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << listing;
      if (!out.good()) return "cannot write " + file.string();
    }
    std::cout << "[ golden   ] " << (same ? "unchanged " : "wrote ") << file.string() << "\n";
    return {};
  }
  if (!exists)
    return "missing golden file " + file.string() +
           "; run with CLEARJIT_UPDATE_GOLDEN=1 to create it";
  const std::string diff = first_difference(expected, listing);
  if (diff.empty()) return {};
  return "differs from " + file.string() + ":\n" + diff +
         "If the change is intended, rerun with CLEARJIT_UPDATE_GOLDEN=1.";
}

} // namespace cjit::test
