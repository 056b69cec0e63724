// The application runtime: generated dispatchers (correctness, routing, golden listings),
// kernel_for, clearjit_open errors and warnings, the built-in default, the default lookup,
// clearjit_zero under contention, the debug aids and a signal-handler smoke check.
// Suite names start with "runtime_" so that `ctest -R runtime` selects them.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "codegen.hpp"
#include "runtime.hpp"
#include "support.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <latch>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace cjit {
namespace {

namespace fs = std::filesystem;
using test::check_golden;
using test::ClassText;
using test::code_bytes;
using test::first_nonzero;
using test::full_cpu;
using test::GuardedBuffer;
using test::host_like;
using test::minimal_cpu;
using test::profile_text;
using test::split_lines;

// ---------------------------------------------------------------------------------------------
// Helpers: files, environment, profiles

const fs::path kSourceDir = CLEARJIT_SOURCE_DIR;
const fs::path kRuntimeProfiles = kSourceDir / "tests" / "profiles" / "runtime";

constexpr uint64_t k1M64 = (1ull << 20) + 64;
constexpr uint64_t k2G = 1ull << 31;
constexpr uint64_t k3G = 3ull << 30;
constexpr uint64_t k1T = 1ull << 40;

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
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const fs::path &path() const { return path_; }
  fs::path operator/(const std::string &rel) const { return path_ / rel; }

private:
  fs::path path_;
};

void write_file(const fs::path &path, const std::string &text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.good()) throw std::runtime_error("cannot write " + path.string());
}

std::optional<std::string> read_file(const fs::path &path) {
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
std::string runnable(const std::string &spec) {
  auto s = parse_spec(spec);
  if (!s) throw std::runtime_error(spec + ": " + s.error);
  if (unsupported_reason(*s, host_cpu()).empty()) return spec;
  const std::string sub = s->info().nontemporal ? "ntsse" : "sse";
  std::cout << "[ note     ] " << spec << " does not run here: " << sub << " stands in\n";
  return sub;
}

std::vector<ClassText> runnable_all(std::vector<ClassText> classes) {
  for (ClassText &c : classes)
    c.kernel = runnable(c.kernel);
  return classes;
}

Profile load_or_throw(const fs::path &path, const CpuInfo &cpu) {
  auto p = load_profile(path.string(), cpu);
  if (!p) throw std::runtime_error(p.error);
  return *p;
}

Profile parse_or_throw(const std::string &text, const CpuInfo &cpu) {
  auto p = parse_profile(text, "test profile", cpu);
  if (!p) throw std::runtime_error(p.error);
  return *p;
}

//! The small path make_dispatcher uses unless told otherwise: today's tree, up to 256 bytes.
constexpr SmallPath kTestSmall{Small::tree, 256};

//! The dispatcher for `table`, generated as clearjit_open does (internal API), for `cpu`.
std::unique_ptr<GeneratedCode> make_dispatcher(const std::vector<SizeClass> &table,
                                               const CpuInfo &cpu, SmallPath small = kTestSmall) {
  auto r = generate([&](asmjit::x86::Assembler &a) { emit_dispatcher(a, table, small, cpu); },
                    "test_dispatch");
  if (!r) throw std::runtime_error(r.error);
  return std::move(*r.value);
}

//! The same for this CPU, with or without AVX.
std::unique_ptr<GeneratedCode> make_dispatcher(const std::vector<SizeClass> &table, bool avx) {
  return make_dispatcher(table, host_like(avx));
}

std::string errbuf_text(const std::vector<char> &buf) { return std::string(buf.data()); }

// ---------------------------------------------------------------------------------------------
// Clearing checks

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

constexpr int64_t kDeltas[] = {-64, -63, -1, 0, 1, 63, 64};
constexpr size_t kFewOffsets[] = {0, 1, 31, 63};
constexpr uint64_t kClearLimit = 64ull << 20; // boundaries above this are only routed, not cleared

//! b + each of kDeltas (those that stay non-negative).
void add_around(std::set<uint64_t> &out, uint64_t b) {
  for (int64_t d : kDeltas)
    if (d >= 0 || b >= uint64_t(-d)) out.insert(b + uint64_t(d));
}

//! Sizes around every class boundary of `tables` and around the small path's end, up to `limit`.
std::vector<uint64_t> boundary_sizes(const std::vector<const std::vector<SizeClass> *> &tables,
                                     uint64_t limit) {
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
int sweep_exhaustive(const std::string &what, const ClearFunc &clear) {
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
int sweep_sizes(const std::string &what, const ClearFunc &clear,
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

// The checks must catch a clear that stops short, overruns, or starts early.
TEST(runtime_Sweeper, CatchesBadClears) {
  auto count = [](ClearFunc f) { // away from the guard pages: these clears stray outside
    ::testing::TestPartResultArray reported;
    ::testing::ScopedFakeTestPartResultReporter quiet(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &reported);
    Sweeper s("broken", std::move(f), 1024);
    s.at(300, 1);
    s.at(300, 17);
    return s.failures();
  };
  EXPECT_EQ(count([](void *d, size_t n) { std::memset(d, 0, n); }), 0);
  EXPECT_GT(count([](void *d, size_t n) { std::memset(d, 0, n - 1); }), 0);
  EXPECT_GT(count([](void *d, size_t n) { std::memset(static_cast<uint8_t *>(d) + 1, 0, n); }), 0);
  EXPECT_GT(count([](void *d, size_t n) { std::memset(static_cast<uint8_t *>(d) - 1, 0, n); }), 0);
  EXPECT_GT(count([](void *d, size_t n) {
              std::memset(d, 0, n);
              static_cast<uint8_t *>(d)[n + 40] ^= 1; // a stray store after the range
            }),
            0);
}

// ---------------------------------------------------------------------------------------------
// Following the branch tree in the machine code

//! Follows the dispatcher's machine code for size n (> the small path's max) from its entry through
//! the size check and the branch tree, decoding only what the prologue and tree emit and taking
//! the real branch displacements; returns the offset where it lands (the first instruction of
//! something else: a class's main path), or nullopt with `why`.
std::optional<size_t> tree_landing(std::span<const uint8_t> code, uint64_t n, std::string &why) {
  size_t pc = 0;
  uint64_t r11 = 0;
  std::optional<bool> ae; // CF clear after the last cmp, i.e. n >= operand (unsigned)
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
  auto need_flags = [&] {
    if (!ae) why = "jae at offset " + std::to_string(pc) + " before any cmp";
    return ae.has_value();
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
      ae = n >= sext(imm(3, 4), 32);
      pc += 7;
    } else if (at({0x48, 0x83, 0xFE})) { // cmp rsi, imm8
      ae = n >= sext(imm(3, 1), 8);
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
      ae = n >= r11;
      pc += 3;
    } else if (at({0x0F, 0x83})) { // jae rel32
      if (!need_flags()) return std::nullopt;
      if (!(*ae ? jump(6, int64_t(sext(imm(2, 4), 32))) : (pc += 6, true))) return std::nullopt;
    } else if (at({0x73})) { // jae rel8
      if (!need_flags()) return std::nullopt;
      if (!(*ae ? jump(2, int64_t(sext(imm(1, 1), 8))) : (pc += 2, true))) return std::nullopt;
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
std::string listing_vs_code(std::string_view listing, std::span<const uint8_t> code,
                            std::set<size_t> *label_offsets = nullptr) {
  static const char digits[] = "0123456789ABCDEF";
  size_t pos = 0, line_no = 0;
  for (const std::string &line : split_lines(listing)) {
    ++line_no;
    if (line.size() >= 2 && line[0] == 'L' && line.back() == ':') {
      if (label_offsets) label_offsets->insert(pos);
      continue;
    }
    size_t semi = line.rfind(';');
    if (semi == std::string::npos)
      return "listing line " + std::to_string(line_no) + " has no bytes: " + line;
    std::string hex = line.substr(semi + 1);
    hex.erase(std::remove(hex.begin(), hex.end(), ' '), hex.end());
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
  if (pos != code.size())
    return "the listing covers " + std::to_string(pos) + " of " + std::to_string(code.size()) +
           " bytes";
  return {};
}

//! Probe sizes above the small path around every bound of `table`, plus the extremes.
std::vector<uint64_t> routing_probes(const std::vector<SizeClass> &table) {
  constexpr uint64_t kFirst = kTestSmall.max + 1;
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
//! class that class_for names: one landing offset per class, in class order.
std::string check_routing(const GeneratedCode &g, const std::vector<SizeClass> &table) {
  if (std::string e = listing_vs_code(g.listing, code_bytes(g)); !e.empty()) return e;
  std::map<size_t, size_t> landing_of_class; // table index -> code offset
  std::ostringstream report;
  for (uint64_t n : routing_probes(table)) {
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

// ---------------------------------------------------------------------------------------------
// 1. Dispatcher correctness through the C API, and routing

struct ProfileCase {
  const char *name;
  std::vector<ClassText> reuse, stream; // stream empty: no dispatch.stream
};
void PrintTo(const ProfileCase &c, std::ostream *os) { *os << c.name; }

// Boundaries at odd places, classes the tree cannot reach (below <= 257), every method.
const ProfileCase kProfiles[] = {
    {"one_class", {{0, "stosb"}}, {}},
    {"mixed",
     {{100, "libc"},
      {256, "clzero"},
      {257, "stosq"},
      {300, "mov"},
      {1000, "sse"},
      {4096, "avx2:unroll=4"},
      {5000, "avx512"},
      {65600, "movnti"},
      {k1M64, "ntsse:chunk=4K,fence=chunk"},
      {k3G, "ntavx2"},
      {0, "ntavx512"}},
     {{333, "ntavx512"},
      {4095, "clzero"},
      {65600, "libc"},
      {k1M64, "stosb"},
      {k3G, "avx2:unroll=4"},
      {0, "clzero:chunk=4K,fence=chunk"}}},
    {"near_small",
     {{1, "stosb"},
      {255, "stosq"},
      {256, "mov"},
      {257, "sse"},
      {258, "avx2"},
      {511, "stosq:align=32"},
      {512, "avx512:unroll=4"},
      {0, "libc"}},
     {{258, "ntavx2"}, {0, "mov:unroll=1,fence=end"}}},
    {"reuse_only",
     {{4096, "mov:unroll=1"},
      {65600, "stosb:chunk=64K"},
      {k1M64, "movnti:unroll=2,chunk=4K,fence=chunk"},
      {0, "sse:align=64"}},
     {}},
};

class runtime_Dispatch : public ::testing::TestWithParam<ProfileCase> {
protected:
  void SetUp() override {
    const ProfileCase &c = GetParam();
    text_ = profile_text(host_cpu(), runnable_all(c.reuse), runnable_all(c.stream));
    path_ = dir_ / (std::string(c.name) + ".toml");
    write_file(path_, text_);
    std::vector<char> err(4096, '\0');
    cj_ = clearjit_open(path_.c_str(), err.data(), err.size());
    ASSERT_NE(cj_, nullptr) << errbuf_text(err) << "\n" << text_;
    auto p = load_profile(path_, host_cpu());
    ASSERT_TRUE(p) << p.error;
    profile_ = *p;
  }
  void TearDown() override { clearjit_close(cj_); }

  ClearFunc clear(Intent i) const {
    const clearjit *cj = cj_;
    if (i == Intent::stream) return [cj](void *d, size_t n) { clearjit_clear_stream(cj, d, n); };
    return [cj](void *d, size_t n) { clearjit_clear(cj, d, n); };
  }
  std::string what(Intent i) const {
    return std::string(GetParam().name) + " " + std::string(intent_name(i));
  }

  TempDir dir_;
  std::string text_, path_;
  clearjit *cj_ = nullptr;
  Profile profile_;
};

TEST_P(runtime_Dispatch, EverySizeUpTo600AtEveryOffset) {
  for (Intent i : kIntents)
    EXPECT_EQ(sweep_exhaustive(what(i), clear(i)), 0) << what(i);
}

TEST_P(runtime_Dispatch, AroundEveryBoundary) {
  const std::vector<uint64_t> sizes = boundary_sizes(
      {&profile_.table(Intent::reuse), &profile_.table(Intent::stream)}, kClearLimit);
  for (Intent i : kIntents)
    EXPECT_EQ(sweep_sizes(what(i), clear(i), sizes), 0) << what(i);
}

// kernel_for names class_for's class for every probe, 0 and SIZE_MAX included.
TEST_P(runtime_Dispatch, KernelForNamesTheClass) {
  for (Intent i : kIntents) {
    const auto &table = profile_.table(i);
    std::vector<uint64_t> probes = routing_probes(table);
    probes.insert(probes.end(), {0, 1, 255});
    for (uint64_t n : probes)
      EXPECT_EQ(clearjit_kernel_for(cj_, clearjit_intent(i), n),
                format_spec(class_for(table, n).kernel))
          << what(i) << " n=" << n;
  }
}

// The generated branch tree (the same code clearjit_open generates) routes sizes far beyond
// what a test can clear, including bounds above INT32_MAX compared through r11.
TEST_P(runtime_Dispatch, BranchTreeRoutesLikeClassFor) {
  for (Intent i : kIntents) {
    auto g = make_dispatcher(profile_.table(i), host_cpu().has(Feature::avx));
    EXPECT_EQ(check_routing(*g, profile_.table(i)), "") << what(i);
  }
}

INSTANTIATE_TEST_SUITE_P(Profiles, runtime_Dispatch, ::testing::ValuesIn(kProfiles),
                         [](const auto &info) { return std::string(info.param.name); });

// Without AVX the dispatcher uses legacy SSE encodings and 16-byte small stores; any x86-64 runs
// it, so it is generated and run here directly (the C API always generates for this CPU).
TEST(runtime_DispatchNoAvx, ClearsAndRoutes) {
  CpuInfo sse_only = host_cpu();
  sse_only.set(Feature::avx, false);
  sse_only.set(Feature::avx2, false);
  sse_only.set(Feature::avx512f, false);
  const std::string text =
      profile_text(host_cpu(), runnable_all({{300, "stosq"},
                                             {1000, "libc"},
                                             {4096, "sse:unroll=2"},
                                             {65600, "mov"},
                                             {k1M64, "ntsse:chunk=4K,fence=chunk"},
                                             {k3G, "movnti"},
                                             {0, "stosb"}}));
  const Profile p = parse_or_throw(text, sse_only);
  auto g = make_dispatcher(p.reuse, false);
  EXPECT_EQ(g->listing.find("ymm"), std::string::npos)
      << "AVX register in a dispatcher for a CPU without AVX";
  EXPECT_EQ(g->listing.find("vzeroupper"), std::string::npos);
  const ClearFn fn = g->fn;
  auto clear = [fn](void *d, size_t n) { fn(d, n); };
  EXPECT_EQ(sweep_exhaustive("sse-only", clear), 0);
  EXPECT_EQ(sweep_sizes("sse-only", clear, boundary_sizes({&p.reuse}, kClearLimit)), 0);
  EXPECT_EQ(check_routing(*g, p.reuse), "");
}

// The routing check itself must fail on a wrong tree: a dispatcher for other bounds does not
// route like this table.
TEST(runtime_DispatchTree, CheckCatchesWrongBounds) {
  const CpuInfo cpu = full_cpu();
  const Profile a =
      parse_or_throw(profile_text(full_cpu(), {{4096, "mov"}, {k3G, "sse"}, {0, "stosb"}}), cpu);
  const Profile b = parse_or_throw(
      profile_text(full_cpu(), {{4097, "mov"}, {k3G + 1, "sse"}, {0, "stosb"}}), cpu);
  auto g = make_dispatcher(a.reuse, cpu);
  EXPECT_EQ(check_routing(*g, a.reuse), "");
  const std::string report = check_routing(*g, b.reuse);
  EXPECT_NE(report.find("n=4096 "), std::string::npos) << report;
  EXPECT_NE(report.find("n=3221225472 "), std::string::npos) << report;
}

// ---------------------------------------------------------------------------------------------
// 2. kernel_for: canonical specs of the right class, written out by hand

// Non-canonical spellings, bounds at odd places, at INT32_MAX, 2 GiB, 3 GiB and 1 TiB; kernels
// any x86-64 runs. Canonical forms are spelled out rather than computed with format_spec.
const std::vector<ClassText> kKernelForReuse = {
    {300, "mov:unroll=8"},
    {4096, "sse:align=0,unroll=2"},
    {65600, "stosq:chunk=4096"},
    {k1M64, "movnti:fence=end"},
    {uint64_t(INT32_MAX), "ntsse:fence=chunk,chunk=4K"},
    {k2G, "stosb:align=16"},
    {k3G, "libc"},
    {k1T, "stosq"},
    {0, "mov:unroll=1"},
};
const std::vector<std::string> kKernelForReuseCanonical = {"mov",
                                                           "sse:unroll=2",
                                                           "stosq:chunk=4K",
                                                           "movnti",
                                                           "ntsse:chunk=4K,fence=chunk",
                                                           "stosb:align=16",
                                                           "libc",
                                                           "stosq",
                                                           "mov:unroll=1"};
const std::vector<ClassText> kKernelForStream = {
    {4095, "stosb:chunk=0"},
    {k3G + 1, "ntsse:unroll=4"},
    {0, "movnti:align=64,unroll=4"},
};
const std::vector<std::string> kKernelForStreamCanonical = {"stosb", "ntsse", "movnti:unroll=4"};

void expect_kernel_for(const clearjit *cj, clearjit_intent intent,
                       const std::vector<ClassText> &classes,
                       const std::vector<std::string> &canonical) {
  ASSERT_EQ(classes.size(), canonical.size());
  const char *name = intent == CLEARJIT_STREAM ? "stream" : "reuse";
  EXPECT_STREQ(clearjit_kernel_for(cj, intent, 0), canonical.front().c_str()) << name << " n=0";
  EXPECT_STREQ(clearjit_kernel_for(cj, intent, SIZE_MAX), canonical.back().c_str())
      << name << " n=SIZE_MAX";
  for (size_t i = 0; i + 1 < classes.size(); ++i) {
    const uint64_t b = classes[i].below;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b - 1), canonical[i].c_str())
        << name << " n=below-1=" << b - 1;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b), canonical[i + 1].c_str())
        << name << " n=below=" << b;
    // below+1 may already be the next class's below (INT32_MAX, then 2 GiB).
    const size_t above = i + 2 < classes.size() && b + 1 >= classes[i + 1].below ? i + 2 : i + 1;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b + 1), canonical[above].c_str())
        << name << " n=below+1=" << b + 1;
  }
}

class runtime_KernelFor : public ::testing::Test {
protected:
  clearjit *open(const std::vector<ClassText> &stream) {
    const std::string path = dir_ / "kernel_for.toml";
    write_file(path, profile_text(host_cpu(), kKernelForReuse, stream));
    std::vector<char> err(4096, '\0');
    clearjit *cj = clearjit_open(path.c_str(), err.data(), err.size());
    EXPECT_NE(cj, nullptr) << errbuf_text(err);
    return cj;
  }
  TempDir dir_;
};

TEST_F(runtime_KernelFor, BothTables) {
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open(kKernelForStream), clearjit_close);
  ASSERT_TRUE(cj);
  expect_kernel_for(cj.get(), CLEARJIT_REUSE, kKernelForReuse, kKernelForReuseCanonical);
  expect_kernel_for(cj.get(), CLEARJIT_STREAM, kKernelForStream, kKernelForStreamCanonical);
  // The returned text stays valid (and the same) until close.
  const char *first = clearjit_kernel_for(cj.get(), CLEARJIT_STREAM, 4095);
  clearjit_kernel_for(cj.get(), CLEARJIT_REUSE, 4095);
  EXPECT_STREQ(first, "ntsse");
}

TEST_F(runtime_KernelFor, WithoutStreamTheStreamIntentUsesReuse) {
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open({}), clearjit_close);
  ASSERT_TRUE(cj);
  expect_kernel_for(cj.get(), CLEARJIT_REUSE, kKernelForReuse, kKernelForReuseCanonical);
  expect_kernel_for(cj.get(), CLEARJIT_STREAM, kKernelForReuse, kKernelForReuseCanonical);
  // And the stream dispatcher clears like the reuse one (it is the reuse one).
  const std::vector<uint64_t> sizes = {0, 1, 255, 256, 299, 300, 4095, 4096, 65599, 65600};
  const clearjit *c = cj.get();
  EXPECT_EQ(
      sweep_sizes(
          "reuse-only stream", [c](void *d, size_t n) { clearjit_clear_stream(c, d, n); }, sizes),
      0);
}

// The C++ wrapper reports the same names.
TEST_F(runtime_KernelFor, ClearerWrapper) {
  const std::string path = dir_ / "kernel_for.toml";
  write_file(path, profile_text(host_cpu(), kKernelForReuse, kKernelForStream));
  Clearer c(path);
  EXPECT_EQ(c.kernel_for(Intent::reuse, 65600), "movnti");
  EXPECT_EQ(c.kernel_for(Intent::stream, 65600), "ntsse");
  EXPECT_EQ(c.source(), path);
  EXPECT_EQ(c.warnings(), "");
}

// ---------------------------------------------------------------------------------------------
// 3. Golden dispatchers

fs::path dispatch_golden_dir() { return test::golden_dir() / "dispatch"; }

struct GoldenCase {
  const char *profile; // tests/profiles/runtime/<profile>.toml
  Intent intent;
  bool avx;
  std::string stem() const { return std::string(profile) + "_" + std::string(intent_name(intent)); }
};
void PrintTo(const GoldenCase &c, std::ostream *os) { *os << c.stem(); }

// libc stays out of these profiles: its listing embeds memset's address, which ASLR moves.
const GoldenCase kGoldenCases[] = {
    {"golden_avx", Intent::reuse, true},
    {"golden_avx", Intent::stream, true},
    {"golden_sse", Intent::reuse, false},
};

class runtime_GoldenDispatch : public ::testing::TestWithParam<GoldenCase> {
protected:
  void SetUp() override {
    const GoldenCase &c = GetParam();
    // Loaded for a fake CPU so the listing is the same on every machine; without AVX the
    // minimal CPU makes the loader refuse any AVX kernel.
    profile_ = load_or_throw(kRuntimeProfiles / (std::string(c.profile) + ".toml"),
                             c.avx ? full_cpu() : minimal_cpu());
    table_ = &profile_.table(c.intent);
    for (const SizeClass &cls : *table_)
      ASSERT_NE(cls.kernel.method, Method::libc) << "libc has no stable listing";
    code_ = make_dispatcher(*table_, c.avx ? full_cpu() : minimal_cpu());
  }
  Profile profile_;
  const std::vector<SizeClass> *table_ = nullptr;
  std::unique_ptr<GeneratedCode> code_;
};

TEST_P(runtime_GoldenDispatch, MatchesFile) {
  const fs::path file = dispatch_golden_dir() / (GetParam().stem() + ".asm");
  const std::string report = check_golden(file, code_->listing);
  EXPECT_TRUE(report.empty()) << GetParam().stem() << " " << report;
}

// The listing describes the code byte for byte, and the tree in the code routes like class_for.
TEST_P(runtime_GoldenDispatch, ListingIsTheCodeAndRoutesLikeClassFor) {
  EXPECT_EQ(listing_vs_code(code_->listing, code_bytes(*code_)), "");
  EXPECT_EQ(check_routing(*code_, *table_), "");
}

INSTANTIATE_TEST_SUITE_P(Profiles, runtime_GoldenDispatch, ::testing::ValuesIn(kGoldenCases),
                         [](const auto &info) { return info.param.stem(); });

// Bounds above INT32_MAX cannot be a sign-extended imm32: they go through r11.
TEST(runtime_GoldenDispatchFiles, WideBoundsCompareThroughR11) {
  const Profile p = load_or_throw(kRuntimeProfiles / "golden_avx.toml", full_cpu());
  for (Intent i : kIntents) {
    auto g = make_dispatcher(p.table(i), full_cpu());
    EXPECT_NE(g->listing.find("cmp rsi, r11"), std::string::npos) << intent_name(i) << "\n"
                                                                  << g->listing;
  }
}

TEST(runtime_GoldenDispatchFiles, NoStaleFiles) {
  std::set<std::string> wanted;
  for (const GoldenCase &c : kGoldenCases)
    wanted.insert(c.stem() + ".asm");
  if (!fs::exists(dispatch_golden_dir())) GTEST_SKIP() << "no golden directory yet";
  for (const auto &entry : fs::directory_iterator(dispatch_golden_dir()))
    EXPECT_TRUE(wanted.count(entry.path().filename().string()))
        << "stale golden file " << entry.path();
}

// ---------------------------------------------------------------------------------------------
// 4. clearjit_open errors, warnings and source

class runtime_Open : public ::testing::Test {
protected:
  //! clearjit_open(path) must fail; returns the message (checked against err_len handling).
  std::string open_error(const std::string &path) {
    std::vector<char> err(8192, '\x7f');
    clearjit *cj = clearjit_open(path.c_str(), err.data(), err.size());
    EXPECT_EQ(cj, nullptr) << path;
    clearjit_close(cj);
    const std::string msg = err.data();
    EXPECT_FALSE(msg.empty());
    EXPECT_TRUE(msg.starts_with(path)) << msg; // messages name the file
    // Truncated to err_len - 1 bytes plus the NUL; nothing written past err_len.
    for (size_t len : {size_t(1), size_t(2), size_t(12), msg.size(), msg.size() + 1}) {
      std::vector<char> small(len + 8, '\x7f');
      EXPECT_EQ(clearjit_open(path.c_str(), small.data(), len), nullptr);
      EXPECT_EQ(std::string(small.data()), msg.substr(0, std::min(msg.size(), len - 1)))
          << "err_len=" << len;
      for (size_t i = len; i < small.size(); ++i)
        EXPECT_EQ(small[i], '\x7f') << "err_len=" << len << ": byte " << i << " written";
    }
    std::vector<char> untouched(4, '\x7f'); // err_len 0: nothing written at all
    EXPECT_EQ(clearjit_open(path.c_str(), untouched.data(), 0), nullptr);
    EXPECT_EQ(untouched[0], '\x7f');
    EXPECT_EQ(clearjit_open(path.c_str(), nullptr, 100), nullptr); // err may be NULL
    return msg;
  }
  TempDir dir_;
};

TEST_F(runtime_Open, MissingFile) {
  const std::string path = dir_ / "missing.toml";
  EXPECT_EQ(open_error(path), path + ": cannot open: No such file or directory");
}

TEST_F(runtime_Open, Directory) {
  const std::string path = dir_.path().string();
  EXPECT_EQ(open_error(path), path + ": is a directory, not a profile file");
}

TEST_F(runtime_Open, BadProfileGivesTheLoadersMessage) {
  const std::string path = (kRuntimeProfiles / "bad.toml").string();
  const std::string msg = open_error(path);
  EXPECT_EQ(msg, load_profile(path, host_cpu()).error);
  EXPECT_NE(msg.find(":15: dispatch.reuse[1].below: must be greater"), std::string::npos) << msg;
}

// Kernels the loader refuses: one this CPU cannot run (when there is such a method), and a
// non-temporal kernel without a fence (refused on every CPU).
TEST_F(runtime_Open, KernelTheLoaderRefuses) {
  for (const char *spec : {"avx512", "clzero", "avx2", "ntavx2", "sse"})
    if (!unsupported_reason(*parse_spec(spec), host_cpu()).empty()) {
      const std::string path = dir_ / "unsupported.toml";
      write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, spec}}));
      EXPECT_NE(open_error(path).find("cannot run on this CPU"), std::string::npos) << spec;
      break;
    }
  const std::string path = dir_ / "unfenced.toml";
  write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "movnti:fence=none"}}));
  EXPECT_NE(open_error(path).find("is non-temporal with fence=none"), std::string::npos);
}

TEST_F(runtime_Open, CppWrapperThrowsTheMessage) {
  const std::string path = dir_ / "missing.toml";
  try {
    Clearer c(path);
    ADD_FAILURE() << "no exception";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}

// Clearer::open: the same message as the exception, without one; a good path opens.
TEST_F(runtime_Open, CppWrapperOpensWithoutThrowing) {
  const std::string path = dir_ / "missing.toml";
  std::string error;
  EXPECT_FALSE(Clearer::open(path, &error));
  EXPECT_EQ(error, path + ": cannot open: No such file or directory");
  EXPECT_FALSE(Clearer::open(path)); // error may be left out
  const std::string good = dir_ / "good.toml";
  write_file(good, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
  error.clear();
  std::optional<Clearer> c = Clearer::open(good, &error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(error, "");
  EXPECT_EQ(c->source(), good);
  EXPECT_EQ(c->kernel_for(Intent::reuse, 100000), "stosb");
  std::vector<uint8_t> buf(5000, 0xA5);
  c->clear(buf.data(), buf.size());
  EXPECT_EQ(test::first_nonzero(buf.data(), buf.size()), buf.size());
}

// What clearjit.h promises for a NULL handle (a failed clearjit_open): no crash, "" or 0.
TEST(runtime_NullHandle, CheapFunctionsAreSafe) {
  const clearjit *none = nullptr;
  EXPECT_STREQ(clearjit_kernel_for(none, CLEARJIT_REUSE, 100), "");
  EXPECT_STREQ(clearjit_kernel_for(none, CLEARJIT_STREAM_BATCH, 100), "");
  EXPECT_STREQ(clearjit_profile_source(none), "");
  EXPECT_STREQ(clearjit_warnings(none), "");
  EXPECT_EQ(clearjit_batches_open(none), 0u);
  (clearjit_close)(nullptr);
  clearjit_kernel_free(nullptr);
  // A batch begun on NULL is not open: its pieces are cleared by clearjit_zero, fenced.
  clearjit_batch b;
  clearjit_batch_begin(&b, none);
  EXPECT_EQ(b.open, 0);
  std::vector<uint8_t> buf(3000, 0xA5);
  (clearjit_batch_clear)(&b, buf.data(), buf.size());
  EXPECT_EQ(test::first_nonzero(buf.data(), buf.size()), buf.size());
  EXPECT_EQ((clearjit_batch_end)(&b), 0u);
}

TEST_F(runtime_Open, OtherCpuLoadsWithAWarningNamingBothCpus) {
  const std::string path = (kRuntimeProfiles / "other_cpu.toml").string();
  const Profile p = load_or_throw(path, host_cpu());
  if (same_cpu(p.host, host_cpu())) GTEST_SKIP() << "this machine is the CPU other_cpu.toml names";
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  const std::string w = clearjit_warnings(cj.get());
  const CpuInfo &h = host_cpu();
  EXPECT_TRUE(w.starts_with(path + ": ")) << w;
  EXPECT_NE(w.find("measured on GenuineIntel family 6 model 143"), std::string::npos) << w;
  EXPECT_NE(w.find("this CPU is " + h.vendor + " family " + std::to_string(h.family) + " model " +
                   std::to_string(h.model)),
            std::string::npos)
      << w;
  EXPECT_TRUE(w.ends_with("\n")) << w;
  EXPECT_STREQ(clearjit_profile_source(cj.get()), path.c_str());
  // It still clears with its own table.
  EXPECT_STREQ(clearjit_kernel_for(cj.get(), CLEARJIT_REUSE, 4095), "mov");
  EXPECT_STREQ(clearjit_kernel_for(cj.get(), CLEARJIT_STREAM, 4096), "stosb");
  const clearjit *c = cj.get();
  EXPECT_EQ(sweep_sizes("other cpu", [c](void *d, size_t n) { clearjit_clear(c, d, n); },
                        {0, 300, 4095, 4096, 5000}),
            0);
}

TEST_F(runtime_Open, ThisCpuHasNoWarningsAndSourceIsThePath) {
  const std::string path = dir_ / "this_cpu.toml";
  write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  EXPECT_STREQ(clearjit_warnings(cj.get()), "");
  EXPECT_STREQ(clearjit_profile_source(cj.get()), path.c_str());
}

TEST_F(runtime_Open, UnknownIntentWarns) {
  const std::string path = dir_ / "typo.toml";
  write_file(path,
             profile_text(host_cpu(), {{0, "stosb"}}) + "\n[[dispatch.steam]]\nkernel = \"mov\"\n");
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  const std::string w = clearjit_warnings(cj.get());
  EXPECT_NE(w.find("dispatch.steam: unknown intent, ignored"), std::string::npos) << w;
  EXPECT_TRUE(w.starts_with(path + ":")) << w;
}

// ---------------------------------------------------------------------------------------------
// 5. The built-in default

CpuInfo amd_like() {
  CpuInfo c;
  c.vendor = "AuthenticAMD";
  c.family = 25;
  c.model = 33;
  for (Feature f :
       {Feature::sse2, Feature::avx, Feature::avx2, Feature::erms, Feature::fsrm, Feature::clzero})
    c.set(f);
  c.l2.size = 512 << 10;
  c.l3.size = 32 << 20;
  return c;
}

CpuInfo intel_like() {
  CpuInfo c;
  c.vendor = "GenuineIntel";
  c.family = 6;
  c.model = 151;
  for (Feature f : {Feature::sse2, Feature::avx, Feature::avx2, Feature::erms})
    c.set(f);
  c.l2.size = 1280 << 10;
  c.l3.size = 30 << 20;
  return c;
}

struct Expected {
  uint64_t below;
  const char *spec; // as runtime.hpp writes it; compared in canonical form
};

//! "" when `table` is exactly `expected`.
std::string table_diff(const std::vector<SizeClass> &table, const std::vector<Expected> &expected) {
  auto show = [](uint64_t below, const std::string &spec) {
    return (below ? "[.." + std::to_string(below) + ") " : "[..) ") + spec;
  };
  std::string got, want;
  for (const SizeClass &c : table)
    got += show(c.below, format_spec(c.kernel)) + " ";
  for (const Expected &e : expected)
    want += show(e.below, format_spec(*parse_spec(e.spec))) + " ";
  return got == want ? "" : "got " + got + "\nwant " + want;
}

//! Well-formed and runnable on `cpu`: increasing bounds, an unbounded last class, every kernel
//! supported, non-temporal kernels fenced, and a dispatcher that generates.
void expect_valid_builtin(const Profile &p, const CpuInfo &cpu) {
  EXPECT_EQ(p.source, "built-in");
  EXPECT_TRUE(same_cpu(p.host, cpu));
  EXPECT_EQ(p.host.features, profile_host(cpu).features);
  for (Intent i : kIntents) {
    const auto &t = p.table(i);
    ASSERT_FALSE(t.empty());
    EXPECT_EQ(t.back().below, 0u) << intent_name(i);
    for (size_t k = 0; k < t.size(); ++k) {
      const std::string spec = format_spec(t[k].kernel);
      EXPECT_EQ(unsupported_reason(t[k].kernel, cpu), "") << intent_name(i) << " " << spec;
      if (t[k].kernel.info().nontemporal) {
        EXPECT_NE(t[k].kernel.fence, Fence::none) << spec;
      }
      if (k + 1 < t.size()) {
        EXPECT_GT(t[k].below, k ? t[k - 1].below : 0) << intent_name(i) << " class " << k;
      }
    }
    auto g = make_dispatcher(t, cpu.has(Feature::avx));
    EXPECT_EQ(check_routing(*g, t), "") << intent_name(i);
    // Run it when this machine can (the minimal one always).
    bool runs = true;
    for (const SizeClass &c : t)
      runs &= unsupported_reason(c.kernel, host_cpu()).empty();
    if (runs && (!cpu.has(Feature::avx) || host_cpu().has(Feature::avx))) {
      const ClearFn fn = g->fn;
      EXPECT_EQ(sweep_sizes(
                    cpu.vendor + " built-in " + std::string(intent_name(i)),
                    [fn](void *d, size_t n) { fn(d, n); }, boundary_sizes({&t}, kClearLimit)),
                0);
    }
  }
}

TEST(runtime_Builtin, AmdLike) {
  const CpuInfo cpu = amd_like();
  const Profile p = builtin_profile(cpu);
  // Zen stops allocating beyond the L3 by itself: stosb at every size for reuse.
  EXPECT_EQ(table_diff(p.reuse, {{2048, "avx2:unroll=4"}, {0, "stosb"}}), "");
  EXPECT_EQ(table_diff(p.table(Intent::stream),
                       {{2048, "avx2:unroll=4"}, {256 << 10, "stosb"}, {0, "ntavx2"}}),
            "");
  expect_valid_builtin(p, cpu);
}

TEST(runtime_Builtin, IntelLike) {
  const CpuInfo cpu = intel_like();
  const Profile p = builtin_profile(cpu);
  EXPECT_EQ(table_diff(p.reuse, {{2048, "avx2:unroll=4"}, {120ull << 20, "stosb"}, {0, "ntavx2"}}),
            "");
  EXPECT_EQ(table_diff(p.table(Intent::stream),
                       {{2048, "avx2:unroll=4"}, {640 << 10, "stosb"}, {0, "ntavx2"}}),
            "");
  expect_valid_builtin(p, cpu);
}

TEST(runtime_Builtin, MinimalSse2WithoutErmsOrCacheSizes) {
  const CpuInfo cpu = minimal_cpu();
  const Profile p = builtin_profile(cpu);
  // Unknown caches: the code assumes a 1 MiB L2 and a 32 MiB L3.
  EXPECT_EQ(
      table_diff(p.reuse, {{2048, "sse:unroll=4"}, {128ull << 20, "sse:unroll=4"}, {0, "ntsse"}}),
      "");
  EXPECT_EQ(table_diff(p.table(Intent::stream),
                       {{2048, "sse:unroll=4"}, {512 << 10, "sse:unroll=4"}, {0, "ntsse"}}),
            "");
  expect_valid_builtin(p, cpu);
}

TEST(runtime_Builtin, AmdWithoutErmsUsesVectorStores) {
  CpuInfo cpu = amd_like();
  cpu.set(Feature::erms, false);
  const Profile p = builtin_profile(cpu);
  EXPECT_EQ(table_diff(p.reuse,
                       {{2048, "avx2:unroll=4"}, {128ull << 20, "avx2:unroll=4"}, {0, "ntavx2"}}),
            "");
  expect_valid_builtin(p, cpu);
}

// ---------------------------------------------------------------------------------------------
// 6. The default lookup

// Every step the test does not control is pointed at empty directories; the environment is
// restored afterwards. /etc/clearjit/profile.toml and the installed profiles cannot be
// redirected, so assertions past them are skipped when they exist.
class runtime_Lookup : public ::testing::Test {
protected:
  runtime_Lookup()
      : profile_env_("CLEARJIT_PROFILE", nullptr), xdg_env_("XDG_CONFIG_HOME", dir_ / "xdg"),
        home_env_("HOME", dir_ / "home") {
    fs::create_directories(dir_ / "xdg");
    fs::create_directories(dir_ / "home");
  }
  std::string valid(const std::string &path) {
    write_file(path, profile_text(host_cpu(), {{4096, "mov:unroll=4"}, {0, "stosb"}}));
    return path;
  }
  static bool etc_exists() { return fs::exists("/etc/clearjit/profile.toml"); }
  static std::string show(const Lookup &l) {
    std::string out;
    for (const LookupStep &s : l.steps)
      out +=
          "  " + s.step + " | " + s.path + " | " + s.result + (s.chosen ? " (chosen)" : "") + "\n";
    return out + (l.profile ? "  profile " + l.profile->source : "  error " + l.profile.error) +
           "\n";
  }
  //! clearjit_open(NULL) opens what the lookup chose.
  void expect_open_null_source(const std::string &source) {
    std::vector<char> err(4096, '\0');
    std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
        clearjit_open(nullptr, err.data(), err.size()), clearjit_close);
    ASSERT_TRUE(cj) << errbuf_text(err);
    EXPECT_STREQ(clearjit_profile_source(cj.get()), source.c_str());
    EXPECT_STREQ(clearjit_warnings(cj.get()), "");
  }

  TempDir dir_;
  ScopedEnv profile_env_, xdg_env_, home_env_;
};

TEST_F(runtime_Lookup, EnvProfileIsChosen) {
  const std::string path = valid(dir_ / "env.toml");
  ScopedEnv e("CLEARJIT_PROFILE", path);
  const Lookup l = default_lookup(host_cpu());
  ASSERT_EQ(l.steps.size(), 1u) << show(l);
  EXPECT_EQ(l.steps[0].step, "$CLEARJIT_PROFILE");
  EXPECT_EQ(l.steps[0].path, path);
  EXPECT_EQ(l.steps[0].result, "chosen");
  EXPECT_TRUE(l.steps[0].chosen);
  ASSERT_TRUE(l.profile) << l.profile.error;
  EXPECT_EQ(l.profile->source, path);
  expect_open_null_source(path);
}

TEST_F(runtime_Lookup, EnvProfileForAnotherCpuIsUsedWithAWarning) {
  // $CLEARJIT_PROFILE names one file on purpose: like an explicit path, it loads with a
  // warning (it used to fall back to the built-in default, silently).
  const std::string path = (kRuntimeProfiles / "other_cpu.toml").string();
  if (same_cpu(load_or_throw(path, host_cpu()).host, host_cpu()))
    GTEST_SKIP() << "this machine is the CPU other_cpu.toml names";
  ScopedEnv e("CLEARJIT_PROFILE", path);
  const Lookup l = default_lookup(host_cpu());
  ASSERT_EQ(l.steps.size(), 1u) << show(l);
  EXPECT_EQ(l.steps[0].path, path);
  EXPECT_EQ(l.steps[0].result,
            "chosen, though measured on another CPU (GenuineIntel family 6 model 143)");
  EXPECT_TRUE(l.steps[0].chosen);
  ASSERT_TRUE(l.profile) << show(l);
  EXPECT_EQ(l.profile->source, path);

  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(nullptr, err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  EXPECT_STREQ(clearjit_profile_source(cj.get()), path.c_str());
  EXPECT_NE(std::string(clearjit_warnings(cj.get())).find("measured on GenuineIntel family 6"),
            std::string::npos)
      << clearjit_warnings(cj.get());
}

TEST_F(runtime_Lookup, RelativeXdgConfigHomeIsSaidToBeIgnored) {
  ScopedEnv xdg("XDG_CONFIG_HOME", "relative/config");
  const Lookup l = default_lookup(host_cpu());
  ASSERT_GE(l.steps.size(), 3u) << show(l);
  EXPECT_EQ(l.steps[1].step, "$XDG_CONFIG_HOME");
  EXPECT_EQ(l.steps[1].path, "relative/config");
  EXPECT_NE(l.steps[1].result.find("ignored: not an absolute path"), std::string::npos) << show(l);
  EXPECT_EQ(l.steps[2].step, "~/.config/clearjit/profile.toml");
}

TEST_F(runtime_Lookup, NonRegularFilesAreRefusedWithoutBlocking) {
  // A FIFO at the user's profile path: the lookup waited for a writer, forever. In a child with
  // a time limit, so a regression fails this test instead of hanging the suite.
  const std::string fifo = (dir_ / "xdg" / "clearjit" / "profile.toml").string();
  fs::create_directories(dir_ / "xdg" / "clearjit");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(test::in_child(
                [&]() -> std::string {
                  const Lookup l = default_lookup(host_cpu());
                  if (l.steps.size() < 2 ||
                      l.steps[1].result.find("not a regular file") == std::string::npos ||
                      l.profile)
                    return show(l);
                  clearjit_zero(nullptr, 0); // falls back to the built-in default, at once
                  return "";
                },
                10),
            "");
}

TEST_F(runtime_Lookup, EnvProfileBadStopsWithItsError) {
  const std::string path = (kRuntimeProfiles / "bad.toml").string();
  valid(dir_ / "xdg" / "clearjit" / "profile.toml"); // would be chosen next: must not be reached
  ScopedEnv e("CLEARJIT_PROFILE", path);
  const Lookup l = default_lookup(host_cpu());
  const std::string error = load_profile(path, host_cpu()).error;
  ASSERT_FALSE(l.profile) << show(l);
  EXPECT_EQ(l.profile.error, error);
  ASSERT_EQ(l.steps.size(), 1u) << show(l);
  EXPECT_EQ(l.steps[0].result, "invalid: " + error);
  std::vector<char> err(4096, '\0');
  EXPECT_EQ(clearjit_open(nullptr, err.data(), err.size()), nullptr);
  EXPECT_EQ(errbuf_text(err), error);
}

TEST_F(runtime_Lookup, EnvProfileMissingIsNotFound) {
  ScopedEnv e("CLEARJIT_PROFILE", dir_ / "nowhere.toml");
  const Lookup l = default_lookup(host_cpu());
  ASSERT_GE(l.steps.size(), 2u) << show(l);
  EXPECT_EQ(l.steps[0].result, "not found");
}

TEST_F(runtime_Lookup, XdgConfigHomeIsChosen) {
  const std::string path = valid(dir_ / "xdg" / "clearjit" / "profile.toml");
  valid(dir_ / "home" / ".config" / "clearjit" / "profile.toml"); // $XDG_CONFIG_HOME wins over ~
  const Lookup l = default_lookup(host_cpu());
  ASSERT_EQ(l.steps.size(), 2u) << show(l);
  EXPECT_EQ(l.steps[0].result, "not set");
  EXPECT_EQ(l.steps[1].step, "$XDG_CONFIG_HOME/clearjit/profile.toml");
  EXPECT_EQ(l.steps[1].path, path);
  EXPECT_EQ(l.steps[1].result, "chosen");
  ASSERT_TRUE(l.profile) << show(l);
  EXPECT_EQ(l.profile->source, path);
  expect_open_null_source(path);
}

TEST_F(runtime_Lookup, HomeConfigIsChosenWithoutXdg) {
  const std::string path = valid(dir_ / "home" / ".config" / "clearjit" / "profile.toml");
  for (const char *xdg : {static_cast<const char *>(nullptr), ""}) { // unset, and set but empty
    ScopedEnv e("XDG_CONFIG_HOME", xdg);
    const Lookup l = default_lookup(host_cpu());
    ASSERT_EQ(l.steps.size(), 2u) << show(l);
    EXPECT_EQ(l.steps[1].step, "~/.config/clearjit/profile.toml");
    EXPECT_EQ(l.steps[1].path, path);
    EXPECT_EQ(l.steps[1].result, "chosen");
    ASSERT_TRUE(l.profile) << show(l);
    EXPECT_EQ(l.profile->source, path);
    expect_open_null_source(path);
  }
}

TEST_F(runtime_Lookup, BadUserFileStopsWithItsError) {
  const std::string path = dir_ / "xdg" / "clearjit" / "profile.toml";
  fs::create_directories(fs::path(path).parent_path());
  fs::copy_file(kRuntimeProfiles / "bad.toml", path);
  const Lookup l = default_lookup(host_cpu());
  ASSERT_FALSE(l.profile) << show(l);
  EXPECT_EQ(l.profile.error, load_profile(path, host_cpu()).error);
  EXPECT_EQ(l.steps.back().result, "invalid: " + l.profile.error);
}

TEST_F(runtime_Lookup, NothingMeansBuiltIn) {
  if (etc_exists()) GTEST_SKIP() << "/etc/clearjit/profile.toml exists on this machine";
  const Lookup l = default_lookup(host_cpu());
  ASSERT_GE(l.steps.size(), 4u) << show(l);
  EXPECT_EQ(l.steps[0].result, "not set");
  EXPECT_EQ(l.steps[1].result, "not found");
  EXPECT_EQ(l.steps[2].step, "/etc/clearjit/profile.toml");
  EXPECT_EQ(l.steps[2].result, "not found");
  EXPECT_EQ(l.steps[3].step, "installed profiles");
  if (l.steps[3].chosen)
    GTEST_SKIP() << "an installed profile for this CPU exists: " << l.steps[3].path;
  ASSERT_EQ(l.steps.size(), 5u) << show(l);
  EXPECT_EQ(l.steps[4].step, "built-in default");
  EXPECT_TRUE(l.steps[4].chosen);
  ASSERT_TRUE(l.profile) << show(l);
  EXPECT_EQ(l.profile->source, "built-in");
  expect_open_null_source("built-in");

  // The built-in dispatcher through the C API: the tables builtin_profile documents, and clears.
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(nullptr, err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  const Profile b = builtin_profile(host_cpu());
  for (Intent i : kIntents)
    for (uint64_t n : routing_probes(b.table(i)))
      EXPECT_EQ(clearjit_kernel_for(cj.get(), clearjit_intent(i), n),
                format_spec(class_for(b.table(i), n).kernel));
  const clearjit *c = cj.get();
  const auto sizes = boundary_sizes({&b.reuse, &b.stream}, kClearLimit);
  EXPECT_EQ(sweep_sizes(
                "built-in reuse", [c](void *d, size_t n) { clearjit_clear(c, d, n); }, sizes),
            0);
  EXPECT_EQ(
      sweep_sizes(
          "built-in stream", [c](void *d, size_t n) { clearjit_clear_stream(c, d, n); }, sizes),
      0);
}

// ---------------------------------------------------------------------------------------------
// 7. clearjit_zero in fresh processes
//
// clearjit_zero initialises once per process, so each test runs it in a re-executed child
// (death-test style "threadsafe"), where the first call really happens there. The child
// reports problems on stderr and through its exit code.

//! Pattern-fills, clears with clearjit_zero and checks one buffer; "" or what went wrong.
std::string zero_and_check(uint8_t *buf, size_t cap, size_t n, size_t off) {
  test::fill_pattern(buf, cap);
  clearjit_zero(buf + off, n);
  if (size_t i = first_nonzero(buf + off, n); i != n)
    return "n=" + std::to_string(n) + " off=" + std::to_string(off) + ": byte " +
           std::to_string(i) + " not zero";
  if (test::first_pattern_mismatch(buf, off) != off ||
      test::first_pattern_mismatch(buf + off + n, cap - off - n, off + n) != cap - off - n)
    return "n=" + std::to_string(n) + " off=" + std::to_string(off) +
           ": a byte outside the range changed";
  return {};
}

//! `threads` threads wait at a latch, then all call clearjit_zero first; "" or the failures.
std::string zero_from_many_threads(int threads) {
  static const size_t kSizes[] = {0,    1,    7,    63,    255,   256,           300,
                                  2047, 2048, 4099, 65600, k1M64, (4u << 20) + 3};
  std::latch start(threads);
  std::vector<std::string> errors(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const size_t cap = (4u << 20) + 256;
      std::vector<uint8_t> buf(cap);
      const size_t first = kSizes[size_t(t) % std::size(kSizes)], off = size_t(t) % 64;
      test::fill_pattern(buf.data(), cap);
      start.arrive_and_wait();
      clearjit_zero(buf.data() + off, first); // the first call in the process, from every thread
      std::string e;
      if (size_t i = first_nonzero(buf.data() + off, first); i != first)
        e = "thread " + std::to_string(t) + ": first clear of " + std::to_string(first) +
            " bytes: byte " + std::to_string(i) + " not zero";
      for (size_t k = 0; e.empty() && k < std::size(kSizes); ++k)
        e = zero_and_check(buf.data(), kSizes[k] + 128, kSizes[k], (k * 13 + size_t(t)) % 64);
      errors[size_t(t)] = e;
    });
  for (auto &th : pool)
    th.join();
  std::string out;
  for (const auto &e : errors)
    if (!e.empty()) out += e + "\n";
  return out;
}

[[noreturn]] void child_exit(const std::string &error) {
  if (!error.empty()) std::fprintf(stderr, "child failed: %s\n", error.c_str());
  std::fflush(stderr);
  std::_Exit(error.empty() ? 0 : 1);
}

TEST(runtime_ZeroDeathTest, ManyThreadsCallFirstAtOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // Three fresh processes: the race on the lazy initialisation differs each time.
  for (int round = 0; round < 3; ++round)
    EXPECT_EXIT(
        {
          unsetenv("CLEARJIT_VERBOSE");
          child_exit(zero_from_many_threads(16));
        },
        ::testing::ExitedWithCode(0), "^$") // not verbose: nothing on stderr
        << "round " << round;
}

TEST(runtime_ZeroDeathTest, VerboseSaysOnceWhatItChose) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::string error;
        {
          TempDir dir;
          const std::string path = dir / "zero_profile.toml";
          write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
          setenv("CLEARJIT_PROFILE", path.c_str(), 1);
          setenv("CLEARJIT_VERBOSE", "1", 1);
          error = zero_from_many_threads(8); // one line even when several threads race
        }
        child_exit(error);
      },
      ::testing::ExitedWithCode(0),
      "^clearjit: clearjit_zero uses \\$CLEARJIT_PROFILE \\([^\n]*/zero_profile\\.toml\\)\n$");
}

TEST(runtime_ZeroDeathTest, BadProfileFallsBackToBuiltInAndSaysWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string bad = (kRuntimeProfiles / "bad.toml").string();
  EXPECT_EXIT(
      {
        setenv("CLEARJIT_PROFILE", bad.c_str(), 1);
        setenv("CLEARJIT_VERBOSE", "1", 1);
        child_exit(zero_from_many_threads(4));
      },
      ::testing::ExitedWithCode(0),
      "^clearjit: clearjit_zero uses built-in default, because [^\n]*/bad\\.toml:15: "
      "dispatch\\.reuse\\[1\\]\\.below: [^\n]*\n$");
}

// ---------------------------------------------------------------------------------------------
// 8. Debug aids

struct Mapping {
  uintptr_t begin = 0, end = 0;
  std::string perms, line;
};

std::vector<Mapping> read_maps() {
  std::vector<Mapping> out;
  std::ifstream in("/proc/self/maps");
  for (std::string line; std::getline(in, line);) {
    Mapping m;
    m.line = line;
    char perms[8] = {};
    unsigned long b = 0, e = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx %7s", &b, &e, perms) == 3) {
      m.begin = b, m.end = e, m.perms = perms;
      out.push_back(m);
    }
  }
  return out;
}

//! The checks of the perf-map child; "" or what went wrong.
std::string perf_map_check() {
  const std::string map = "/tmp/perf-" + std::to_string(getpid()) + ".map";
  std::remove(map.c_str());
  write_file(map, "0 1 preexisting\n"); // perf maps are appended to, never rewritten
  TempDir dir;
  const std::string path = dir / "perf.toml";
  write_file(path, profile_text(host_cpu(), runnable_all({{4096, "avx2:unroll=4"}, {0, "stosb"}}),
                                runnable_all({{65600, "sse"}, {0, "ntavx2"}})));
  setenv("CLEARJIT_PERF_MAP", "1", 1);
  std::vector<char> err(4096, '\0');
  clearjit *cj = clearjit_open(path.c_str(), err.data(), err.size());
  unsetenv("CLEARJIT_PERF_MAP");
  std::unique_ptr<clearjit, decltype(&clearjit_close)> guard(cj, clearjit_close);
  const std::string text = read_file(map).value_or("");
  std::remove(map.c_str());
  if (!cj) return "open failed: " + errbuf_text(err);

  std::string error;
  const auto maps = read_maps();
  const Profile p = load_or_throw(path, host_cpu());
  std::map<std::string, int> seen;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string addr_hex, size_hex, name, extra;
    if (!(fields >> addr_hex >> size_hex >> name) || (fields >> extra)) {
      error += "malformed line '" + line + "'\n";
      continue;
    }
    ++seen[name];
    if (name == "preexisting") continue;
    const uintptr_t addr = std::stoull(addr_hex, nullptr, 16);
    const size_t size = std::stoull(size_hex, nullptr, 16);
    auto m = std::find_if(maps.begin(), maps.end(),
                          [&](const Mapping &x) { return x.begin <= addr && addr < x.end; });
    if (m == maps.end() || m->perms.substr(0, 3) != "r-x" || addr + size > m->end) {
      error += name + " at " + addr_hex + " size " + size_hex + " is not inside an r-x mapping\n";
      continue;
    }
    // The bytes there are the dispatcher for that table (no libc class: no embedded address).
    const Intent i = name == "clearjit_dispatch_reuse" ? Intent::reuse : Intent::stream;
    std::vector<SizeClass> table = p.table(i);
    if (name == "clearjit_dispatch_batch") { // the batch table without its fences
      table = p.batch_table();
      for (SizeClass &c : table)
        c.kernel.fence = Fence::none;
    }
    auto g = make_dispatcher(table, host_cpu(), p.small(i, host_cpu()));
    if (g->size != size || std::memcmp(reinterpret_cast<const void *>(addr),
                                       reinterpret_cast<const void *>(g->fn), size))
      error += name + ": the code at " + addr_hex + " is not the " + std::string(intent_name(i)) +
               " dispatcher\n";
  }
  for (const char *name : {"preexisting", "clearjit_dispatch_reuse", "clearjit_dispatch_stream",
                           "clearjit_dispatch_batch"})
    if (seen[name] != 1)
      error += std::string(name) + ": " + std::to_string(seen[name]) + " lines, expected 1\n";
  if (seen.size() != 4) error += "unexpected lines:\n" + text;
  return error;
}

TEST(runtime_DebugAidsDeathTest, PerfMapNamesBothDispatchers) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // A fresh process, so /tmp/perf-<pid>.map is this test's alone.
  EXPECT_EXIT(child_exit(perf_map_check()), ::testing::ExitedWithCode(0), "^$");
}

TEST(runtime_DebugAids, DumpWritesBinAndAsm) {
  TempDir dir;
  const std::string spec = runnable("avx2:unroll=4");
  const std::string stem = spec == "sse" ? "sse" : "avx2_unroll_4";
  {
    ScopedEnv dump("CLEARJIT_DUMP", dir.path().string());
    ScopedEnv perf("CLEARJIT_PERF_MAP", nullptr);
    auto code = compile_kernel(*parse_spec(spec), host_cpu());
    ASSERT_TRUE(code) << code.error;
    const GeneratedCode &g = **code;
    auto bin = read_file(dir.path() / (stem + ".bin"));
    ASSERT_TRUE(bin) << "no " << stem << ".bin";
    EXPECT_EQ(*bin, std::string(reinterpret_cast<const char *>(g.fn), g.size));
    auto asm_text = read_file(dir.path() / (stem + ".asm"));
    ASSERT_TRUE(asm_text) << "no " << stem << ".asm";
    EXPECT_EQ(*asm_text, "; " + spec + "\n" + g.listing);

    // Through the C API too, and for a profile's dispatchers.
    std::vector<char> err(4096, '\0');
    clearjit_kernel *k = clearjit_kernel_compile(spec.c_str(), err.data(), err.size());
    ASSERT_NE(k, nullptr) << errbuf_text(err);
    EXPECT_EQ(read_file(dir.path() / (stem + ".asm")).value_or(""),
              "; " + spec + "\n" + clearjit_kernel_asm(k));
    clearjit_kernel_free(k);

    const std::string path = dir / "dump.toml";
    write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
    std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
        clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
    ASSERT_TRUE(cj) << errbuf_text(err);
    const Profile loaded = load_or_throw(path, host_cpu());
    auto d = make_dispatcher(loaded.reuse, host_cpu(), loaded.small(Intent::reuse, host_cpu()));
    EXPECT_EQ(read_file(dir.path() / "clearjit_dispatch_reuse.bin").value_or(""),
              std::string(reinterpret_cast<const char *>(d->fn), d->size));
    EXPECT_EQ(read_file(dir.path() / "clearjit_dispatch_reuse.asm").value_or(""),
              "; clearjit_dispatch_reuse\n" + d->listing);
    // No stream table: a stream dispatcher only where the intents' small paths differ.
    EXPECT_EQ(fs::exists(dir.path() / "clearjit_dispatch_stream.bin"),
              loaded.small(Intent::stream, host_cpu()) != loaded.small(Intent::reuse, host_cpu()))
        << "no stream table and the same small path: no stream dispatcher";
  }
  // Without CLEARJIT_DUMP nothing is written.
  fs::remove(dir.path() / (stem + ".bin"));
  ScopedEnv dump("CLEARJIT_DUMP", nullptr);
  auto again = compile_kernel(*parse_spec(spec), host_cpu());
  ASSERT_TRUE(again);
  EXPECT_FALSE(fs::exists(dir.path() / (stem + ".bin")));
}

TEST(runtime_DebugAids, DispatcherListingsAreKeptOnlyForADump) {
  // A 15,000-class profile kept a 68 MB listing per handle; now none unless CLEARJIT_DUMP.
  const std::vector<SizeClass> table = {{4096, *parse_spec("mov"), 0},
                                        {0, *parse_spec("stosb"), 0}};
  auto emit = [&](asmjit::x86::Assembler &a) {
    emit_dispatcher(a, table, kTestSmall, host_like(false));
  };
  ScopedEnv dump("CLEARJIT_DUMP", nullptr);
  auto plain = generate(emit, "quiet", Listing::if_dumped);
  ASSERT_TRUE(plain) << plain.error;
  EXPECT_EQ((*plain.value)->listing, "");
  auto kept = generate(emit, "kept", Listing::keep);
  ASSERT_TRUE(kept) << kept.error;
  EXPECT_NE((*kept.value)->listing, "");
  EXPECT_EQ((*kept.value)->size, (*plain.value)->size) << "the same code either way";

  TempDir dir;
  ScopedEnv to_dir("CLEARJIT_DUMP", dir.path().string());
  auto dumped = generate(emit, "dumped", Listing::if_dumped);
  ASSERT_TRUE(dumped) << dumped.error;
  EXPECT_EQ((*dumped.value)->listing, "") << "written to the dump, then dropped";
  EXPECT_EQ(read_file(dir.path() / "dumped.asm").value_or(""),
            "; dumped\n" + (*kept.value)->listing);
}

// ---------------------------------------------------------------------------------------------
// 9. Async-signal-safety, a smoke check
//
// This cannot prove async-signal-safety; it checks that clearjit_clear works from a handler
// that interrupts the main thread while it is itself inside clearjit_clear (the kernels use
// no stack, locks or allocation; the kernel's registers are restored by the signal frame).

namespace sig {
const clearjit *cj = nullptr;
uint8_t *buf = nullptr;
constexpr size_t kSizes[] = {0, 5, 200, 300, 5000, 70000};
volatile sig_atomic_t calls = 0, failures = 0;

void handler(int) {
  const int saved = errno;
  const size_t n = kSizes[size_t(calls) % std::size(kSizes)];
  for (size_t i = 0; i < n + 64; ++i) // no library calls in here
    buf[i] = 0xA5;
  clearjit_clear(cj, buf, n);
  for (size_t i = 0; i < n; ++i)
    if (buf[i]) {
      failures = failures + 1;
      break;
    }
  for (size_t i = n; i < n + 64; ++i)
    if (buf[i] != 0xA5) {
      failures = failures + 1;
      break;
    }
  calls = calls + 1;
  errno = saved;
}
} // namespace sig

TEST(runtime_Signal, ClearFromAHandlerInterruptingAClear) {
  TempDir dir;
  const std::string path = dir / "signal.toml";
  write_file(path, profile_text(host_cpu(),
                                runnable_all({{257, "stosq"},
                                              {1000, "libc"},
                                              {4096, "avx2:unroll=4"},
                                              {65600, "movnti"},
                                              {0, "stosb"}}),
                                runnable_all({{4096, "sse"}, {0, "ntavx2"}})));
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  std::vector<uint8_t> handler_buf(70000 + 64);
  sig::cj = cj.get();
  sig::buf = handler_buf.data();
  sig::calls = 0;
  sig::failures = 0;

  struct sigaction sa {
  }, old{};
  sa.sa_handler = sig::handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &sa, &old), 0);

  // Signals from another thread arrive while the main thread clears; raise() adds synchronous ones.
  const pthread_t main_thread = pthread_self();
  std::atomic<bool> done{false};
  std::atomic<int> sent{0};
  std::thread sender([&] {
    while (!done.load()) {
      pthread_kill(main_thread, SIGUSR1);
      sent.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  const size_t kBig = 1u << 20;
  GuardedBuffer big(kBig);
  int main_failures = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  for (int round = 0; std::chrono::steady_clock::now() < deadline || sent.load() < 100; ++round) {
    const size_t n = kBig - size_t(round % 64);
    test::fill_pattern(big.begin(), kBig);
    for (int k = 0; k < 16; ++k) // most of the main thread's time is spent inside a clear
      (k & 1 ? clearjit_clear_stream : clearjit_clear)(cj.get(), big.begin(), n);
    if (round % 8 == 0) raise(SIGUSR1);
    if (first_nonzero(big.begin(), n) != n ||
        test::first_pattern_mismatch(big.begin() + n, kBig - n, n) != kBig - n)
      ++main_failures;
  }
  done = true;
  sender.join();
  sigaction(SIGUSR1, &old, nullptr);
  EXPECT_EQ(main_failures, 0);
  EXPECT_EQ(sig::failures, 0);
  EXPECT_GT(sig::calls, 10) << "signals sent: " << sent.load();
}

// Many threads share one clearjit: clear and clear_stream are reentrant.
TEST(runtime_Threads, SharedClearerFromManyThreads) {
  TempDir dir;
  const std::string path = dir / "threads.toml";
  write_file(path, profile_text(host_cpu(),
                                runnable_all({{300, "mov"}, {4096, "avx2:unroll=4"}, {0, "stosb"}}),
                                runnable_all({{65600, "sse"}, {0, "ntavx2"}})));
  Clearer c(path);
  std::latch start(8);
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      std::vector<uint8_t> buf(70000 + 128);
      start.arrive_and_wait();
      for (size_t n = size_t(t); n < 70000; n = n * 3 + 17) {
        test::fill_pattern(buf.data(), buf.size());
        (t & 1 ? c.clear_stream(buf.data() + 64, n) : c.clear(buf.data() + 64, n));
        if (first_nonzero(buf.data() + 64, n) != n ||
            test::first_pattern_mismatch(buf.data(), 64) != 64 ||
            test::first_pattern_mismatch(buf.data() + 64 + n, buf.size() - 64 - n, 64 + n) !=
                buf.size() - 64 - n)
          failures.fetch_add(1);
      }
    });
  for (auto &th : pool)
    th.join();
  EXPECT_EQ(failures.load(), 0);
}

} // namespace
} // namespace cjit
