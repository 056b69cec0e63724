// Correctness of every kernel in the representative set: after clear(dst, n) exactly the bytes
// [dst, dst+n) are zero and nothing outside them was written, for any n and any alignment.
#include "clearjit/clearjit.hpp"
#include "jit/model/cpu.hpp"
#include "jit/model/spec.hpp"
#include "tests/support/specs.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace cjit::detail::test {
namespace {

constexpr size_t KiB = size_t(1) << 10, MiB = size_t(1) << 20;
constexpr size_t kMaxSmallN = 1024;                   // exhaustive sweep limit
constexpr size_t kMaxPow2 = 64 * MiB;                 // largest power of two probed
constexpr size_t kMargin = 4 * KiB;                   // patterned bytes checked beside a range
constexpr size_t kBigUsable = kMaxPow2 + 4 * kMargin; // room for margins, offsets and +65
constexpr uint8_t kInteriorFill = 0xA7;               // nonzero, so a skipped store shows
constexpr int kMaxFailuresPerTest = 8;                // one bug would report thousands

// ---- Naming the call that faulted -------------------------------------------------------------
// A guard-page hit kills the process; the handler says which spec, n and dst were being cleared
// (ctest would otherwise only show "SEGFAULT"). Written with async-signal-safe calls only.

struct CallInProgress {
  const char *spec = nullptr;
  const uint8_t *buffer = nullptr; // begin of the buffer dst lies in
  const uint8_t *dst = nullptr;
  size_t n = 0;
};
volatile CallInProgress *g_call = nullptr;
CallInProgress g_call_storage;

void write_str(const char *s) { (void)!write(STDERR_FILENO, s, strlen(s)); }

void write_signed(long long v) {
  char buf[24];
  int i = sizeof buf;
  unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
  do
    buf[--i] = char('0' + u % 10);
  while (u /= 10);
  if (v < 0) buf[--i] = '-';
  (void)!write(STDERR_FILENO, buf + i, sizeof buf - i);
}

// SA_RESETHAND restores the default action, so when the store re-executes the process dies.
void on_fault(int, siginfo_t *si, void *) {
  if (volatile CallInProgress *c = g_call) {
    write_str("\n*** fault while clearing: spec=");
    write_str(c->spec ? c->spec : "?");
    write_str(" n=");
    write_signed((long long)c->n);
    write_str(" dst=buffer+");
    write_signed((long long)(c->dst - c->buffer));
    write_str(" (dst%64=");
    write_signed((long long)(uintptr_t(c->dst) % 64));
    write_str("); faulting address = dst");
    long long rel = (long long)((const uint8_t *)si->si_addr - c->dst);
    write_str(rel >= 0 ? "+" : "");
    write_signed(rel);
    write_str("\n");
  }
}

const bool g_handlers_installed = [] {
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigaction(SIGSEGV, &sa, nullptr);
  sigaction(SIGBUS, &sa, nullptr);
  return true;
}();

// ---- Shared buffers -----------------------------------------------------------------------------

//! One large guarded buffer for every test in the process: mapping and first-touching 64 MiB per
//! test would cost more than the checks.
GuardedBuffer &big_buffer() {
  static GuardedBuffer buf(kBigUsable);
  return buf;
}

//! Powers of two up to kMaxPow2 and their neighbours +-{0,1,63,64,65}, ascending, no repeats.
std::vector<size_t> pow2_neighbour_sizes() {
  std::set<size_t> sizes;
  for (size_t p = 1; p <= kMaxPow2; p *= 2)
    for (long d : {-65L, -64L, -63L, -1L, 0L, 1L, 63L, 64L, 65L})
      if (long(p) + d >= 0) sizes.insert(size_t(long(p) + d));
  return {sizes.begin(), sizes.end()};
}

//! What went wrong in base[lo, hi) given that [at, at+n) should be zero and the rest should hold
//! the position pattern: the first and last wrong byte relative to dst, and how many there are.
std::string describe_damage(const uint8_t *base, size_t lo, size_t hi, size_t at, size_t n) {
  size_t count = 0, first = 0, last = 0;
  for (size_t i = lo; i < hi; ++i) {
    uint8_t expected = (i >= at && i - at < n) ? 0 : pattern_byte(i);
    if (base[i] != expected) {
      if (count++ == 0) first = i;
      last = i;
    }
  }
  if (count == 0) return "no damage found in the checked window";
  auto rel = [&](size_t i) {
    long long r = (long long)i - (long long)at;
    if (i >= at + n) return "end+" + std::to_string(i - at - n);
    return "dst" + std::string(r >= 0 ? "+" : "") + std::to_string(r);
  };
  auto byte = [&](size_t i) {
    char b[64];
    uint8_t expected = (i >= at && i - at < n) ? 0 : pattern_byte(i);
    snprintf(b, sizeof b, "0x%02x (expected 0x%02x)", base[i], expected);
    return std::string(b);
  };
  std::ostringstream o;
  o << count << " wrong byte(s) from " << rel(first) << " to " << rel(last) << "; first is "
    << byte(first) << ", last is " << byte(last);
  return o.str();
}

// ---- The fixture --------------------------------------------------------------------------------

class correctness_Clear : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    auto parsed = parse_spec(GetParam());
    ASSERT_TRUE(parsed) << parsed.error;
    spec_ = *parsed;
    if (std::string why = unsupported_reason(spec_, host_cpu()); !why.empty())
      GTEST_SKIP() << "cannot run " << GetParam() << " here: " << why;
    std::string error;
    kernel_ = Kernel::compile(GetParam(), &error); // the public API, as users call it
    ASSERT_TRUE(kernel_) << error;
    ASSERT_EQ(kernel_->spec(), GetParam()) << "representative specs must be canonical";
  }

  void TearDown() override { g_call = nullptr; }

  //! The kernel call itself, announced to the fault handler.
  void clear(const uint8_t *buffer, uint8_t *dst, size_t n) {
    g_call_storage = {GetParam().c_str(), buffer, dst, n};
    g_call = &g_call_storage;
    kernel_->clear(dst, n);
    g_call = nullptr;
  }

  //! False once enough failures were reported that further ones add nothing.
  bool record_failure(const std::string &what) {
    ADD_FAILURE() << "spec " << GetParam() << ": " << what;
    return ++failures_ < kMaxFailuresPerTest;
  }

  //! How much of [dst, dst+n) clear_and_check pre-fills and verifies.
  enum class Interior {
    all,  //!< every byte: proves the zeroing
    edges //!< the first and last kMargin bytes: enough where only out-of-range stores matter
  };

  //! Clears [dst, dst+n) of `buf` and checks it: the range is pre-filled nonzero (a skipped
  //! store shows), up to kMargin bytes on each side with the position pattern (a stray store
  //! shows). Only those bytes are filled and checked, so a 64 MiB case costs three passes.
  bool clear_and_check(const GuardedBuffer &buf, uint8_t *dst, size_t n,
                       Interior interior = Interior::all) {
    uint8_t *base = buf.begin();
    const size_t at = size_t(dst - base);
    const size_t lo = at - std::min(at, kMargin);
    const size_t hi = std::min(buf.size(), at + n + kMargin);
    const bool whole = interior == Interior::all || n <= 2 * kMargin;
    fill_pattern(base + lo, at - lo, lo);
    if (whole) {
      std::memset(dst, kInteriorFill, n);
    } else {
      std::memset(dst, kInteriorFill, kMargin);
      std::memset(dst + n - kMargin, kInteriorFill, kMargin);
    }
    fill_pattern(base + at + n, hi - at - n, at + n);

    clear(base, dst, n);

    const bool zeroed = whole ? first_nonzero(dst, n) == n
                              : first_nonzero(dst, kMargin) == kMargin &&
                                    first_nonzero(dst + n - kMargin, kMargin) == kMargin;
    if (!zeroed || first_pattern_mismatch(base + lo, at - lo, lo) != at - lo ||
        first_pattern_mismatch(base + at + n, hi - at - n, at + n) != hi - at - n)
      return record_failure("n=" + std::to_string(n) + " dst%64=" + std::to_string(at % 64) +
                            " (dst=buffer+" + std::to_string(at) +
                            "): " + describe_damage(base, lo, hi, at, n));
    return true;
  }

  Spec spec_;
  std::optional<Kernel> kernel_;
  int failures_ = 0;
};

// Every n in [0, 1024] at every offset in a cache line. The buffer is one page, compared whole
// against its expected contents after each call (memcmp of 4 KiB is cheap), so a store anywhere
// in the page is caught, and a store past it faults on a guard page; after a clean call only
// [dst, dst+n) needs its pattern back.
TEST_P(correctness_Clear, EverySmallSizeAtEveryOffset) {
  GuardedBuffer buf(4 * KiB);
  uint8_t *base = buf.begin();
  const size_t size = buf.size();
  std::vector<uint8_t> expected(size);
  fill_pattern(expected.data(), size);
  std::memcpy(base, expected.data(), size);
  constexpr size_t kLead = 1 * KiB; // patterned bytes before dst; ~2 KiB remain after the end
  static_assert(kLead + 63 + kMaxSmallN < 4 * KiB);

  for (size_t n = 0; n <= kMaxSmallN; ++n) {
    for (size_t offset = 0; offset < 64; ++offset) {
      const size_t at = kLead + offset;
      uint8_t *dst = base + at;
      clear(base, dst, n);
      const bool ok = first_nonzero(dst, n) == n && std::memcmp(base, expected.data(), at) == 0 &&
                      std::memcmp(dst + n, expected.data() + at + n, size - at - n) == 0;
      if (ok) {
        std::memcpy(dst, expected.data() + at, n);
        continue;
      }
      if (!record_failure("n=" + std::to_string(n) + " offset=" + std::to_string(offset) + ": " +
                          describe_damage(base, 0, size, at, n)))
        return;
      std::memcpy(base, expected.data(), size); // undo the damage, so one bug reports once
    }
  }
}

// Powers of two and their neighbours up to 64 MiB. Large sizes use fewer offsets: a kernel's
// alignment handling is already exercised exhaustively above, and each 64 MiB call costs
// three passes over memory.
TEST_P(correctness_Clear, PowersOfTwoAndNeighbours) {
  GuardedBuffer &buf = big_buffer();
  for (size_t n : pow2_neighbour_sizes()) {
    std::vector<size_t> offsets;
    if (n <= 1 * MiB)
      offsets = {0, 1, 7, 8, 31, 32, 63};
    else if (n <= 8 * MiB + 65)
      offsets = {0, 1, 63};
    else
      offsets = {n % 3 == 0 ? 0u : n % 3 == 1 ? 1u : 63u}; // rotate through 0, 1, 63
    for (size_t offset : offsets)
      if (!clear_and_check(buf, buf.begin() + kMargin + offset, n)) return;
  }
}

// A few hundred random sizes up to 1 MiB (log-uniform, so small and large are both common) at
// random offsets within a page. Fixed seed: a failure reproduces.
TEST_P(correctness_Clear, RandomSizesAndOffsets) {
  GuardedBuffer &buf = big_buffer();
  std::mt19937_64 rng(0xC1EA'0001);
  for (int i = 0; i < 300; ++i) {
    const unsigned bits = unsigned(rng() % 21); // n < 2^bits <= 1 MiB
    const size_t n = size_t(rng() & ((uint64_t(1) << bits) - 1));
    const size_t offset = size_t(rng() % (4 * KiB));
    if (!clear_and_check(buf, buf.begin() + kMargin + offset, n)) return;
  }
}

// dst + n == the buffer's end, so a store one byte past the range hits the guard page and
// faults (the handler names the call). n == 0 then points dst at the guard page itself.
// Elsewhere a stray store shows because the pattern has no zero byte; only a fault can expose a
// store that rewrites a byte with its own value, and these two tests provide one at each edge.
// Large sizes check only the edges of the range: its interior is the subject of
// PowersOfTwoAndNeighbours, and skipping it here halves the binary's run time.
TEST_P(correctness_Clear, FlushAgainstHighGuard) {
  GuardedBuffer &buf = big_buffer();
  for (size_t n = 0; n <= kMaxSmallN; ++n)
    if (!clear_and_check(buf, buf.end() - n, n)) return;
  for (size_t n : pow2_neighbour_sizes())
    if (!clear_and_check(buf, buf.end() - n, n, Interior::edges)) return;
}

// dst == the buffer's begin, so a store one byte before the range faults.
TEST_P(correctness_Clear, FlushAgainstLowGuard) {
  GuardedBuffer &buf = big_buffer();
  for (size_t n = 0; n <= kMaxSmallN; ++n)
    if (!clear_and_check(buf, buf.begin(), n)) return;
  for (size_t n : pow2_neighbour_sizes())
    if (!clear_and_check(buf, buf.begin(), n, Interior::edges)) return;
}

// n == 0 must not dereference dst, so NULL (and a pointer into a guard page) are fine.
TEST_P(correctness_Clear, ZeroLengthTouchesNothing) {
  GuardedBuffer &buf = big_buffer();
  clear(nullptr, nullptr, 0);
  clear(buf.begin(), buf.end(), 0);
  clear(buf.begin(), buf.begin() - 1, 0);
  clear(buf.begin(), buf.begin() - 64, 0);
}

INSTANTIATE_TEST_SUITE_P(Specs, correctness_Clear, ::testing::ValuesIn(representative_specs()),
                         [](const auto &info) { return spec_test_name(info.param); });

// ---- Chunked kernels ----------------------------------------------------------------------------

class correctness_Chunked : public correctness_Clear {};

// Many chunks plus every kind of remainder: none, less than a store, more than a store, just
// under a whole chunk; at offsets that shift chunk boundaries against cache lines.
TEST_P(correctness_Chunked, ManyChunksWithOddRemainders) {
  ASSERT_NE(spec_.chunk, 0u);
  GuardedBuffer &buf = big_buffer();
  const size_t chunk = spec_.chunk;
  const size_t many = std::max<size_t>(3, 1 * MiB / chunk); // 16384 chunks of 64 bytes
  for (size_t chunks : {size_t(1), size_t(2), size_t(3), many + 1})
    for (size_t rest : {size_t(0), size_t(1), size_t(7), size_t(8), size_t(9), size_t(31),
                        size_t(63), size_t(64), size_t(65), chunk / 2 + 3, chunk - 1})
      for (size_t offset : {0, 1, 8, 31, 32, 63})
        if (!clear_and_check(buf, buf.begin() + kMargin + offset, chunks * chunk + rest)) return;
}

std::vector<std::string> chunked_specs() {
  std::vector<std::string> out;
  for (const std::string &s : representative_specs())
    if (auto parsed = parse_spec(s); parsed && parsed->chunk != 0) out.push_back(s);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Specs, correctness_Chunked, ::testing::ValuesIn(chunked_specs()),
                         [](const auto &info) { return spec_test_name(info.param); });

// ---- Kernels with a head -----------------------------------------------------------------------

class correctness_Head : public correctness_Clear {};

// Every size from below the head to past the sizes whose far part starts inside the head (far
// parts of 2*S bytes or fewer, S at most 64), so the temporal-only path, the split at the head
// and the short far parts are all cleared exactly: at offsets that shift the head boundary
// against cache lines (odd ones included) and flush against both guard pages. Then far parts of
// many pages with odd remainders.
TEST_P(correctness_Head, EverySizeAcrossTheHead) {
  ASSERT_NE(spec_.head, 0u);
  GuardedBuffer &buf = big_buffer();
  const size_t head = spec_.head;
  for (size_t n = head - 160; n <= head + 320; ++n) {
    for (size_t offset : {0, 1, 7, 31, 32, 33, 63, 4095})
      if (!clear_and_check(buf, buf.begin() + kMargin + offset, n)) return;
    if (!clear_and_check(buf, buf.begin(), n)) return;
    if (!clear_and_check(buf, buf.end() - n, n)) return;
  }
  for (size_t pages : {size_t(1), size_t(2), size_t(17), size_t(256)})
    for (size_t rest : {size_t(0), size_t(1), size_t(63), size_t(65), size_t(4095)}) {
      const size_t n = head + pages * 4 * KiB + rest;
      for (size_t offset : {0, 1, 63})
        if (!clear_and_check(buf, buf.begin() + kMargin + offset, n)) return;
      if (!clear_and_check(buf, buf.end() - n, n)) return;
    }
}

std::vector<std::string> head_specs() {
  std::vector<std::string> out;
  for (const std::string &s : representative_specs())
    if (auto parsed = parse_spec(s); parsed && parsed->head != 0) out.push_back(s);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Specs, correctness_Head, ::testing::ValuesIn(head_specs()),
                         [](const auto &info) { return spec_test_name(info.param); });

// ---- The set itself -----------------------------------------------------------------------------

// The variants are hand-written; this keeps the list honest about what it claims to cover.
TEST(correctness_SpecSet, CoverEveryMethodAndOptionValue) {
  std::set<std::string> seen_texts;
  std::set<Method> defaults;
  std::set<unsigned> loop_unrolls;
  std::set<uint64_t> chunks;
  std::set<Fence> fences;
  std::set<unsigned> temporal_aligns, nt_aligns;
  std::set<Method> with_head;
  std::set<Fence> head_fences;
  bool odd_head = false;
  for (const std::string &text : representative_specs()) {
    auto s = parse_spec(text);
    ASSERT_TRUE(s) << text << ": " << s.error;
    EXPECT_EQ(format_spec(*s), text) << "not canonical";
    EXPECT_TRUE(seen_texts.insert(text).second) << "listed twice: " << text;
    if (*s == default_spec(s->method)) defaults.insert(s->method);
    if (s->method == Method::mov) loop_unrolls.insert(s->unroll);
    chunks.insert(s->chunk);
    fences.insert(s->fence);
    (s->info().nontemporal ? nt_aligns : temporal_aligns).insert(s->align);
    if (s->head) {
      with_head.insert(s->method);
      head_fences.insert(s->fence);
      odd_head |= (s->head / (4 * KiB)) % 2 == 1 && s->head > 4 * KiB;
    }
  }
  for (const MethodInfo &mi : methods()) { // from the table: every method that takes head
    EXPECT_EQ(with_head.count(mi.method), size_t(mi.takes(kHead)))
        << mi.name << (mi.takes(kHead) ? ": add a head spec to" : ": no head spec belongs in")
        << " representative_specs() in tests/support/specs.hpp";
  }
  EXPECT_EQ(head_fences, (std::set<Fence>{Fence::none, Fence::end, Fence::chunk}));
  EXPECT_TRUE(odd_head) << "a head of an odd number of pages";
  EXPECT_EQ(defaults.size(), methods().size()) << "every method at its defaults";
  EXPECT_EQ(loop_unrolls, (std::set<unsigned>{1, 2, 4, 8, 16}));
  for (uint64_t c : {uint64_t(0), uint64_t(64), uint64_t(4 * KiB), uint64_t(2 * MiB)})
    EXPECT_TRUE(chunks.count(c)) << "chunk " << c;
  EXPECT_EQ(fences, (std::set<Fence>{Fence::none, Fence::end, Fence::chunk}));
  EXPECT_EQ(temporal_aligns, (std::set<unsigned>{0, 16, 32, 64}));
  EXPECT_EQ(nt_aligns, (std::set<unsigned>{0, 16, 32, 64}));
}

} // namespace
} // namespace cjit::detail::test
