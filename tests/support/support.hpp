// Test helpers: buffers bounded by PROT_NONE guard pages, pattern fills and checks; synthetic
// CPUs; profiles; golden listings; files and the environment; clearing checks; a dispatcher's
// branch tree followed in its machine code.
#pragma once

#include "jit/emit/emit.hpp"
#include "jit/model/cpu.hpp"
#include "jit/profile/profile.hpp"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace cjit::detail::test {

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

//! Installs `filter` as this thread's seccomp filter (no new privileges first); false if refused.
//! For a forked child (in_child): the filter stays for the rest of the process.
inline bool install_filter(sock_filter *filter, unsigned short length) {
  sock_fprog prog{length, filter};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
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

//! Ends a death test's child: exit code 0 and nothing on stderr when `error` is empty.
[[noreturn]] inline void child_exit(const std::string &error) {
  if (!error.empty()) std::fprintf(stderr, "child failed: %s\n", error.c_str());
  std::fflush(stderr);
  std::_Exit(error.empty() ? 0 : 1);
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
// Profiles, written by the profile module (jit/profile/profile.hpp) as the tuner writes them.

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

// ---------------------------------------------------------------------------------------------
// Files, the environment and profiles for the runtime tests

inline const std::filesystem::path kSourceDir = CLEARJIT_SOURCE_DIR;
inline const std::filesystem::path kRuntimeProfiles = kSourceDir / "tests" / "profiles" / "runtime";

inline constexpr uint64_t k1M64 = (1ull << 20) + 64;
inline constexpr uint64_t k2G = 1ull << 31;
inline constexpr uint64_t k3G = 3ull << 30;
inline constexpr uint64_t k1T = 1ull << 40;

//! A fresh directory under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
public:
  TempDir() {
    const char *t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/clearjit_runtime_XXXXXX";
    if (!mkdtemp(tmpl.data()))
      throw std::runtime_error("mkdtemp failed: " + std::string(std::strerror(errno)));
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::filesystem::path &path() const { return path_; }
  std::filesystem::path operator/(const std::string &rel) const { return path_ / rel; }

private:
  std::filesystem::path path_;
};

inline void write_file(const std::filesystem::path &path, const std::string &text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.good()) throw std::runtime_error("cannot write " + path.string());
}

inline std::optional<std::string> read_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) return std::nullopt;
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

//! Sets (or, with nullptr, unsets) an environment variable and restores it when destroyed.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name)) old_ = old;
    value ? setenv(name, value, 1) : unsetenv(name);
  }
  ScopedEnv(const char *name, const std::string &value) : ScopedEnv(name, value.c_str()) {}
  ~ScopedEnv() { old_ ? setenv(name_.c_str(), old_->c_str(), 1) : unsetenv(name_.c_str()); }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  std::string name_;
  std::optional<std::string> old_;
};

//! `spec` when this CPU runs it; otherwise a baseline x86-64 method of the same kind, so a
//! profile keeps its class boundaries on any machine.
inline std::string runnable(const std::string &spec) {
  auto s = parse_spec(spec);
  if (!s) throw std::runtime_error(spec + ": " + s.error);
  if (unsupported_reason(*s, host_cpu()).empty()) return spec;
  const std::string sub = s->info().nontemporal ? "ntsse" : "sse";
  std::cout << "[ note     ] " << spec << " does not run here: " << sub << " stands in\n";
  return sub;
}

inline std::vector<ClassText> runnable_all(std::vector<ClassText> classes) {
  for (ClassText &c : classes)
    c.kernel = runnable(c.kernel);
  return classes;
}

inline Profile load_or_throw(const std::filesystem::path &path, const CpuInfo &cpu) {
  auto p = load_profile(path.string(), cpu);
  if (!p) throw std::runtime_error(p.error);
  return *p;
}

inline Profile parse_or_throw(const std::string &text, const CpuInfo &cpu) {
  auto p = parse_profile(text, "test profile", cpu);
  if (!p) throw std::runtime_error(p.error);
  return *p;
}

//! The small path make_dispatcher uses unless told otherwise: the tree, up to 256 bytes.
inline constexpr SmallPath kTestSmall{Small::tree, 256};

//! The dispatcher for `table`, generated as clearjit_open does (internal API), for `cpu`.
inline std::unique_ptr<GeneratedCode> make_dispatcher(const std::vector<SizeClass> &table,
                                                      const CpuInfo &cpu,
                                                      SmallPath small = kTestSmall) {
  auto r = generate([&](asmjit::x86::Assembler &a) { emit_dispatcher(a, table, small, cpu); },
                    "test_dispatch");
  if (!r) throw std::runtime_error(r.error);
  return std::move(*r.value);
}

//! The same for this CPU, with or without AVX.
inline std::unique_ptr<GeneratedCode> make_dispatcher(const std::vector<SizeClass> &table,
                                                      bool avx) {
  return make_dispatcher(table, host_like(avx));
}

//! `part` n times, `sep` between them: texts past a parser's bounds.
inline std::string repeat(std::string_view part, size_t n, std::string_view sep = "") {
  std::string out;
  for (size_t i = 0; i < n; ++i)
    out += std::string(i ? sep : "") + std::string(part);
  return out;
}

inline std::string errbuf_text(const std::vector<char> &buf) { return std::string(buf.data()); }

// ---------------------------------------------------------------------------------------------
// Clearing checks: a clear must stop neither short nor long, nor start early

using ClearFunc = std::function<void(void *, size_t)>;

//! Clears ranges inside a patterned window of a guarded buffer: the range must be zero, every
//! other byte of the window intact. Reports the first few failures and counts all of them.
class Sweeper {
public:
  static constexpr size_t kSlack = 64; // patterned bytes checked around the range

  Sweeper(std::string what, ClearFunc clear, size_t max_n)
      : what_(std::move(what)), clear_(std::move(clear)), buf_(max_n + 2 * kSlack),
        pristine_(buf_.size()) {
    test::fill_pattern(pristine_.data(), pristine_.size());
  }

  //! [begin+off, begin+off+n): begin is page-aligned, so off is the alignment.
  void at(size_t n, size_t off) { check(buf_.begin(), off + n + kSlack, off, n, "at offset"); }
  //! dst at the first usable byte: a store before dst faults on the low guard page.
  void low_guard(size_t n) { check(buf_.begin(), n + kSlack, 0, n, "flush low"); }
  //! dst + n at the end: a store at or past it faults on the high guard page.
  void high_guard(size_t n) { check(buf_.end() - n - kSlack, n + kSlack, kSlack, n, "flush high"); }

  int failures() const { return failures_; }

private:
  void check(uint8_t *base, size_t win, size_t off, size_t n, const char *where) {
    std::memcpy(base, pristine_.data(), win);
    clear_(base + off, n);
    std::string why;
    if (size_t i = first_nonzero(base + off, n); i != n)
      why = "byte " + std::to_string(i) + " of the range is not zero";
    else if (size_t i = test::first_pattern_mismatch(base, off); i != off)
      why = "byte " + std::to_string(off - i) + " before the range changed";
    else if (std::memcmp(base + off + n, pristine_.data() + off + n, win - off - n) != 0)
      why = "a byte after the range changed";
    if (why.empty()) return;
    if (++failures_ <= 8)
      ADD_FAILURE() << what_ << ": n=" << n << " " << where << " " << off << ": " << why;
  }

  std::string what_;
  ClearFunc clear_;
  GuardedBuffer buf_;
  std::vector<uint8_t> pristine_;
  int failures_ = 0;
};

inline constexpr int64_t kDeltas[] = {-64, -63, -1, 0, 1, 63, 64};
inline constexpr size_t kFewOffsets[] = {0, 1, 31, 63};
inline constexpr uint64_t kClearLimit = 64ull
                                        << 20; // boundaries above this are only routed, not cleared

//! b + each of kDeltas (those that stay non-negative).
inline void add_around(std::set<uint64_t> &out, uint64_t b) {
  for (int64_t d : kDeltas)
    if (d >= 0 || b >= uint64_t(-d)) out.insert(b + uint64_t(d));
}

//! Sizes around every class boundary of `tables` and around the small path's end, up to `limit`.
inline std::vector<uint64_t>
boundary_sizes(const std::vector<const std::vector<SizeClass> *> &tables, uint64_t limit) {
  std::set<uint64_t> sizes;
  add_around(sizes, kTestSmall.max + 1);
  for (const auto *t : tables)
    for (const SizeClass &c : *t)
      if (c.below) add_around(sizes, c.below);
  std::vector<uint64_t> out;
  for (uint64_t n : sizes)
    if (n <= limit) out.push_back(n);
  return out;
}

//! Every n in 0..600 at offsets 0..63, and flush against both guard pages.
inline int sweep_exhaustive(const std::string &what, const ClearFunc &clear) {
  Sweeper s(what, clear, 600 + 64);
  for (size_t n = 0; n <= 600; ++n) {
    for (size_t off = 0; off < 64; ++off)
      s.at(n, off);
    s.low_guard(n);
    s.high_guard(n);
  }
  return s.failures();
}

//! `sizes` at a few offsets and against both guard pages.
inline int sweep_sizes(const std::string &what, const ClearFunc &clear,
                       const std::vector<uint64_t> &sizes) {
  if (sizes.empty()) return 0;
  Sweeper s(what, clear, *std::max_element(sizes.begin(), sizes.end()) + 64);
  for (uint64_t n : sizes) {
    for (size_t off : kFewOffsets)
      s.at(n, off);
    s.low_guard(n);
    s.high_guard(n);
  }
  return s.failures();
}

// ---------------------------------------------------------------------------------------------
// Following a dispatcher's branch tree in its machine code

//! Follows the dispatcher's machine code for size n (> the small path's max) from its entry through
//! the size check and the branch tree, decoding only what the prologue and tree emit and taking
//! the real branch displacements; returns the offset where it lands (the first instruction of
//! something else: a class's main path), or nullopt with `why`.
inline std::optional<size_t> tree_landing(std::span<const uint8_t> code, uint64_t n,
                                          std::string &why) {
  size_t pc = 0;
  uint64_t r11 = 0;
  std::optional<uint64_t> operand; // of the last cmp rsi, ...: conditions compare n with it
  auto at = [&](std::initializer_list<uint8_t> bytes) {
    if (pc + bytes.size() > code.size()) return false;
    return std::equal(bytes.begin(), bytes.end(), code.begin() + ptrdiff_t(pc));
  };
  auto imm = [&](size_t off, size_t len) { // little-endian, zero-extended
    uint64_t v = 0;
    for (size_t i = 0; i < len && pc + off + i < code.size(); ++i)
      v |= uint64_t(code[pc + off + i]) << (8 * i);
    return v;
  };
  auto sext = [](uint64_t v, unsigned bits) {
    return uint64_t(int64_t(v << (64 - bits)) >> (64 - bits));
  };
  auto jump = [&](size_t len, int64_t rel) -> bool {
    int64_t target = int64_t(pc + len) + rel;
    if (target < 0 || size_t(target) >= code.size()) {
      why = "branch at offset " + std::to_string(pc) + " leaves the code";
      return false;
    }
    pc = size_t(target);
    return true;
  };
  // The unsigned conditions a small path's or tree's branches use (jb, jae, je, jne, jbe, ja:
  // condition codes 2..7), taken or not for n against the last cmp's operand. The tree uses jae
  // alone; a small path may use the others before its first jae (emit_small's contract), so a
  // condition other than jae after a jae is a class's own code: the walk stops there.
  bool seen_jae = false;
  auto taken = [&](uint8_t cc) -> std::optional<bool> {
    if (!operand) {
      why = "conditional branch at offset " + std::to_string(pc) + " before any cmp";
      return std::nullopt;
    }
    const uint64_t m = *operand;
    switch (cc) {
    case 2: return n < m;
    case 3: return n >= m;
    case 4: return n == m;
    case 5: return n != m;
    case 6: return n <= m;
    default: return n > m; // 7
    }
  };
  struct Jcc {
    size_t len;
    uint8_t cc;
    int64_t rel;
  };
  auto jcc_at = [&]() -> std::optional<Jcc> { // jcc rel8 or rel32 with a condition code 2..7
    if (code[pc] >= 0x72 && code[pc] <= 0x77)
      return Jcc{2, uint8_t(code[pc] - 0x70), int64_t(sext(imm(1, 1), 8))};
    if (pc + 1 < code.size() && code[pc] == 0x0F && code[pc + 1] >= 0x82 && code[pc + 1] <= 0x87)
      return Jcc{6, uint8_t(code[pc + 1] - 0x80), int64_t(sext(imm(2, 4), 32))};
    return std::nullopt;
  };
  auto branch = [&](const Jcc &j) {
    std::optional<bool> t = taken(j.cc);
    if (!t) return false;
    if (*t) return jump(j.len, j.rel);
    pc += j.len;
    return true;
  };
  for (int step = 0; step < 256; ++step) {
    if (pc >= code.size()) {
      why = "ran off the end of the code";
      return std::nullopt;
    }
    if (at({0x4C, 0x8D, 0x04, 0x37})) { // lea r8, [rdi+rsi]
      pc += 4;
    } else if (at({0x31, 0xC0})) { // xor eax, eax
      pc += 2;
    } else if (at({0xC5, 0xF9, 0xEF, 0xC0}) || at({0x66, 0x0F, 0xEF, 0xC0})) { // (v)pxor xmm0
      pc += 4;
    } else if (at({0x48, 0x81, 0xFE})) { // cmp rsi, imm32
      operand = sext(imm(3, 4), 32);
      pc += 7;
    } else if (at({0x48, 0x83, 0xFE})) { // cmp rsi, imm8
      operand = sext(imm(3, 1), 8);
      pc += 4;
    } else if (at({0x49, 0xBB})) { // mov r11, imm64
      r11 = imm(2, 8);
      pc += 10;
    } else if (at({0x41, 0xBB})) { // mov r11d, imm32 (zero-extends)
      r11 = imm(2, 4);
      pc += 6;
    } else if (at({0x49, 0xC7, 0xC3})) { // mov r11, simm32
      r11 = sext(imm(3, 4), 32);
      pc += 7;
    } else if (at({0x4C, 0x39, 0xDE}) || at({0x49, 0x3B, 0xF3})) { // cmp rsi, r11
      operand = r11;
      pc += 3;
    } else if (auto j = jcc_at(); j && (!seen_jae || j->cc == 3)) { // 3: jae
      seen_jae |= j->cc == 3;
      if (!branch(*j)) return std::nullopt;
    } else if (at({0xE9})) { // jmp rel32
      if (!jump(5, int64_t(sext(imm(1, 4), 32)))) return std::nullopt;
    } else if (at({0xEB})) { // jmp rel8
      if (!jump(2, int64_t(sext(imm(1, 1), 8)))) return std::nullopt;
    } else {
      return pc;
    }
  }
  why = "more than 256 steps: a loop in the tree?";
  return std::nullopt;
}

//! The code offsets where the listing binds its labels, and "" or why the listing's bytes
//! ("text ; HEX", '.' for a nibble not yet resolved when logged) are not the code's bytes.
//! N for an AsmJit "align N" line (padding up to the next N-byte boundary), else 0.
inline size_t alignment_of(std::string_view line) {
  while (!line.empty() && line.front() == ' ')
    line.remove_prefix(1);
  if (!line.starts_with("align ")) return 0;
  return size_t(std::strtoul(std::string(line.substr(6)).c_str(), nullptr, 10));
}

//! AsmJit's jump to an absolute address ("jmp 140457530671168", the small path's memset): logged
//! before relocation as 40 E9 and a zero rel32, mapped as 40 E9 rel32, or FF 25 disp32 (through an
//! address table) where the target is out of a rel32's reach. Its bytes are the code's to choose.
inline bool relocated_jump(std::string_view text, std::string_view hex) {
  if (!text.starts_with("jmp ") || hex != "40E900000000") return false;
  text.remove_prefix(4);
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

//! Where the listing of code `size` bytes long ends, its last instruction at `pos`: AsmJit appends
//! an address table after the listed code, 8 bytes per absolute target (`relocated` of them).
inline size_t past_address_table(size_t pos, size_t size, size_t relocated) {
  return relocated && pos < size && size - pos <= 8 * relocated + 8 ? size : pos;
}

inline std::string listing_vs_code(std::string_view listing, std::span<const uint8_t> code,
                                   std::set<size_t> *label_offsets = nullptr) {
  static const char digits[] = "0123456789ABCDEF";
  size_t pos = 0, line_no = 0, relocated = 0;
  for (const std::string &line : split_lines(listing)) {
    ++line_no;
    if (line.size() >= 2 && line[0] == 'L' && line.back() == ':') {
      if (label_offsets) label_offsets->insert(pos);
      continue;
    }
    if (size_t n = alignment_of(line)) { // padding bytes the listing does not show
      const size_t end = (pos + n - 1) / n * n;
      if (end > code.size())
        return "listing line " + std::to_string(line_no) + " aligns past the end of the code";
      pos = end;
      continue;
    }
    size_t semi = line.rfind(';');
    if (semi == std::string::npos)
      return "listing line " + std::to_string(line_no) + " has no bytes: " + line;
    std::string hex = line.substr(semi + 1);
    hex.erase(std::remove(hex.begin(), hex.end(), ' '), hex.end());
    std::string_view text = std::string_view(line).substr(0, semi);
    while (!text.empty() && (text.front() == ' ' || text.back() == ' '))
      text = text.front() == ' ' ? text.substr(1) : text.substr(0, text.size() - 1);
    if (relocated_jump(text, hex)) hex = "............", ++relocated;
    if (hex.size() % 2)
      return "listing line " + std::to_string(line_no) + " has an odd number of nibbles";
    for (size_t i = 0; i < hex.size(); i += 2, ++pos) {
      if (pos >= code.size())
        return "listing line " + std::to_string(line_no) + " goes past the end of the code";
      const char hi = digits[code[pos] >> 4], lo = digits[code[pos] & 15];
      if ((hex[i] != '.' && hex[i] != hi) || (hex[i + 1] != '.' && hex[i + 1] != lo))
        return "listing line " + std::to_string(line_no) + " (" + line +
               ") differs from the code at offset " + std::to_string(pos);
    }
  }
  pos = past_address_table(pos, code.size(), relocated);
  if (pos != code.size())
    return "the listing covers " + std::to_string(pos) + " of " + std::to_string(code.size()) +
           " bytes";
  return {};
}

//! Probe sizes above the small path around every bound of `table`, plus the extremes.
inline std::vector<uint64_t> routing_probes(const std::vector<SizeClass> &table,
                                            uint64_t small_max = kTestSmall.max) {
  const uint64_t kFirst = small_max + 1;
  std::set<uint64_t> s{kFirst,
                       kFirst + 1,
                       uint64_t(INT32_MAX),
                       uint64_t(INT32_MAX) + 1,
                       k3G,
                       UINT32_MAX,
                       uint64_t(UINT32_MAX) + 1,
                       uint64_t(INT64_MAX),
                       uint64_t(INT64_MAX) + 1,
                       SIZE_MAX - 1,
                       SIZE_MAX};
  for (const SizeClass &c : table)
    if (c.below) add_around(s, c.below);
  std::vector<uint64_t> out;
  for (uint64_t n : s)
    if (n >= kFirst) out.push_back(n);
  return out;
}

//! "" when, for every probe size, the dispatcher's branch tree lands on the main path of the
//! class that class_for names: one landing offset per class, in class order. Probes start above
//! the dispatcher's small path (`small_max`).
inline std::string check_routing(const GeneratedCode &g, const std::vector<SizeClass> &table,
                                 uint64_t small_max = kTestSmall.max) {
  if (std::string e = listing_vs_code(g.listing, code_bytes(g)); !e.empty()) return e;
  std::map<size_t, size_t> landing_of_class; // table index -> code offset
  std::ostringstream report;
  for (uint64_t n : routing_probes(table, small_max)) {
    std::string why;
    auto landed = tree_landing(code_bytes(g), n, why);
    const size_t cls = size_t(&class_for(table, n) - table.data());
    if (!landed) {
      report << "n=" << n << ": " << why << "\n";
      continue;
    }
    // A class's main path follows its compare (the lower half of a node falls through), so
    // landings need not be labels; each class must land in one place, in class order.
    auto [it, fresh] = landing_of_class.emplace(cls, *landed);
    if (!fresh && it->second != *landed)
      report << "n=" << n << " (class " << cls << ", " << format_spec(table[cls].kernel)
             << "): lands at " << *landed << ", other sizes of its class at " << it->second << "\n";
  }
  // Main paths follow the tree in class order, so offsets grow with the class.
  size_t prev = 0;
  for (auto [cls, off] : landing_of_class) {
    if (off <= prev)
      report << "class " << cls << " (" << format_spec(table[cls].kernel) << ") lands at " << off
             << ", not after the previous class's " << prev << "\n";
    prev = off;
  }
  return report.str();
}

} // namespace cjit::detail::test
