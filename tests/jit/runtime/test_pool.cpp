// clearjit_clear_parallel and its worker pool (pool.hpp): pieces on 2 MiB boundaries, exact
// clearing between guard pages at every thread count, callers on several threads, fork, close.
#include "tests/support/support.hpp"

#include "clearjit/clearjit.hpp"
#include "jit/profile/defaults.hpp"
#include "jit/runtime/pool.hpp"
#include "jit/runtime/runtime.hpp"

#include <gtest/gtest.h>

#include <sched.h>
#include <sys/wait.h>

#include <thread>

namespace cjit::detail::test {
namespace {

constexpr size_t MiB = size_t(1) << 20;

TEST(pool_Split, PiecesCoverTheRegionOnTwoMiBBoundaries) {
  for (size_t offset : {size_t(0), size_t(1), size_t(4095), 3 * MiB / 2})
    for (size_t n : {size_t(0), size_t(1), 2 * MiB - 1, 4 * MiB + 123, 64 * MiB + 1})
      for (unsigned threads : {0u, 1u, 2u, 3u, 8u, 1000u}) {
        char *base = reinterpret_cast<char *>(uintptr_t(1) << 40) + offset; // never touched
        const auto pieces = split_pieces(base, n, threads);
        SCOPED_TRACE("offset " + std::to_string(offset) + " n " + std::to_string(n) + " threads " +
                     std::to_string(threads));
        EXPECT_LE(pieces.size(), std::clamp(threads, 1u, kMaxThreads));
        EXPECT_EQ(pieces.empty(), n == 0);
        char *at = base;
        for (size_t i = 0; i < pieces.size(); ++i) {
          EXPECT_EQ(pieces[i].first, at) << "piece " << i << " starts where the last ended";
          EXPECT_GT(pieces[i].second, 0u);
          if (i > 0) {
            EXPECT_EQ(reinterpret_cast<uintptr_t>(pieces[i].first) % kPieceAlign, 0u);
          }
          at += pieces[i].second;
        }
        EXPECT_EQ(at, base + n);
      }
  // 64 MiB from a 2 MiB boundary in 4 pieces: 16 MiB each.
  char *aligned = reinterpret_cast<char *>(uintptr_t(1) << 40);
  const auto even = split_pieces(aligned, 64 * MiB, 4);
  ASSERT_EQ(even.size(), 4u);
  for (const auto &p : even)
    EXPECT_EQ(p.second, 16 * MiB);
}

// Every byte of [dst, dst + n) zero and none outside written, the region flush against the top
// guard page, at every thread count the tests name.
std::string clears_exactly(const clearjit *cj, clearjit_intent intent, size_t n, size_t lead,
                           unsigned threads) {
  GuardedBuffer buf(n + lead);
  uint8_t *dst = buf.end() - n; // flush against the top guard page
  fill_pattern(buf.begin(), buf.size());
  clearjit_clear_parallel(cj, intent, dst, n, threads);
  const size_t before = size_t(dst - buf.begin());
  if (size_t i = first_pattern_mismatch(buf.begin(), before); i != before)
    return "wrote " + std::to_string(before - i) + " bytes before dst";
  if (size_t i = first_nonzero(dst, n); i != n) return "byte " + std::to_string(i) + " not zero";
  return "";
}

TEST(pool_Clear, ExactBetweenGuardPagesAtEveryThreadCount) {
  cjit::Clearer c;
  for (unsigned threads = 0; threads <= 8; ++threads)
    for (size_t n : {size_t(5), 2 * MiB + 1, 4 * MiB - 3, 9 * MiB + 4097})
      for (size_t lead : {size_t(0), size_t(1), size_t(63), size_t(4095)})
        for (clearjit_intent intent : {CLEARJIT_REUSE, CLEARJIT_STREAM})
          EXPECT_EQ(clears_exactly(c.get(), intent, n, lead, threads), "")
              << "threads " << threads << " n " << n << " lead " << lead << " intent " << intent;
}

TEST(pool_Clear, ZeroBytesTouchNothing) {
  cjit::Clearer c;
  clearjit_clear_parallel(c.get(), CLEARJIT_STREAM, nullptr, 0, 4);
}

TEST(pool_Clear, SeveralCallersOnOneHandle) {
  cjit::Clearer c;
  std::vector<std::string> errors(4);
  std::vector<std::thread> callers;
  for (size_t t = 0; t < errors.size(); ++t)
    callers.emplace_back([&, t] {
      for (int round = 0; round < 6 && errors[t].empty(); ++round)
        errors[t] = clears_exactly(c.get(), t % 2 ? CLEARJIT_STREAM : CLEARJIT_REUSE,
                                   6 * MiB + 17 * t, t * 7, unsigned(2 + t));
    });
  for (std::thread &t : callers)
    t.join();
  for (const std::string &e : errors)
    EXPECT_EQ(e, "");
}

TEST(pool_Clear, AChildAfterForkStartsItsOwnWorkers) {
  cjit::Clearer c;
  ASSERT_EQ(clears_exactly(c.get(), CLEARJIT_REUSE, 8 * MiB, 0, 4), ""); // workers started
  EXPECT_EQ(in_child([&] { return clears_exactly(c.get(), CLEARJIT_STREAM, 8 * MiB + 9, 3, 4); }),
            "");
  EXPECT_EQ(clears_exactly(c.get(), CLEARJIT_REUSE, 8 * MiB, 5, 3), "")
      << "the parent's still work";
}

TEST(pool_Close, WithWorkersStartedAndNeverStarted) {
  {
    cjit::Clearer never; // closed without a parallel call
  }
  {
    cjit::Clearer started;
    EXPECT_EQ(clears_exactly(started.get(), CLEARJIT_REUSE, 8 * MiB, 0, 8), "");
  } // joins its workers
  // A child closes the handle whose workers its parent started: those threads are not in the
  // child, so the close must neither join them nor hang.
  cjit::Clearer c;
  ASSERT_EQ(clears_exactly(c.get(), CLEARJIT_REUSE, 8 * MiB, 0, 4), "");
  EXPECT_EQ(in_child(
                [&] {
                  clearjit_close(const_cast<clearjit *>(c.get()));
                  return std::string();
                },
                10),
            "");
  EXPECT_EQ(clears_exactly(c.get(), CLEARJIT_STREAM, 8 * MiB, 1, 4), "");
}

// A handle on the real CPU whose profile has these [parallel] tables.
clearjit *open_with_parallel(std::optional<ParallelTable> reuse,
                             std::optional<ParallelTable> stream) {
  const CpuInfo &cpu = host_cpu();
  Profile p = builtin_profile(cpu);
  p.parallel_reuse = std::move(reuse);
  p.parallel_stream = std::move(stream);
  std::string error;
  clearjit *cj = open_profile(std::move(p), cpu, error);
  EXPECT_TRUE(cj) << error;
  return cj;
}

TEST(pool_Profile, ThreadsZeroTakesTheTablesCountFromItsThreshold) {
  std::unique_ptr<clearjit, void (*)(clearjit *)> cj(
      open_with_parallel(ParallelTable{{2 * MiB, 16 * MiB, 64 * MiB}, {1, 2, 3}, {}},
                         ParallelTable{{8 * MiB}, {2}, {}}),
      clearjit_close);
  ASSERT_TRUE(cj);
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const unsigned cpus = unsigned(CPU_COUNT(&set));
  auto capped = [&](unsigned n) { return std::min(n, cpus); };
  EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_REUSE, 16 * MiB - 1), 1u);
  EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_REUSE, 16 * MiB), capped(2));
  EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_REUSE, 1ull << 40), capped(3));
  EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_STREAM, 8 * MiB - 1), 1u);
  EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_STREAM, 8 * MiB), capped(2));
  EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_STREAM_BATCH, 8 * MiB), capped(2));
  EXPECT_EQ(clearjit_threads_for(nullptr, CLEARJIT_STREAM, 8 * MiB), 1u);
  // Whatever the count, the clear is exact, with threads == 0 and below the threshold with a
  // count asked for.
  for (size_t n : {8 * MiB - 5, 16 * MiB + 3, 64 * MiB + 4097})
    for (unsigned threads : {0u, 4u})
      for (clearjit_intent intent : {CLEARJIT_REUSE, CLEARJIT_STREAM})
        EXPECT_EQ(clears_exactly(cj.get(), intent, n, 1, threads), "") << n << " " << threads;
  // Capped at the CPUs the calling thread may use: on one CPU, one thread.
  std::thread pinned([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_REUSE, 1ull << 40), 1u);
  });
  pinned.join();
}

TEST(pool_Profile, WithoutATableThreadsZeroIsOneThread) {
  std::unique_ptr<clearjit, void (*)(clearjit *)> cj(open_with_parallel(std::nullopt, std::nullopt),
                                                     clearjit_close);
  ASSERT_TRUE(cj);
  EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_REUSE, 1ull << 30), 1u);
  EXPECT_EQ(clearjit_threads_for(cj.get(), CLEARJIT_STREAM, 1ull << 30), 1u);
}

TEST(pool_Workers, FewerWorkersThanPiecesStillClearsEverything) {
  // The pool starts workers as asked; the caller takes whatever no worker started, so even a
  // pool that could start none finishes. Here: many pieces, counted.
  static std::atomic<size_t> bytes{0};
  bytes = 0;
  Pool pool;
  auto count = [](void *, size_t n) { bytes += n; };
  pool.clear(count, reinterpret_cast<void *>(uintptr_t(1) << 40), 64 * MiB + 5, 32);
  EXPECT_EQ(bytes.load(), 64 * MiB + 5);
  EXPECT_LE(pool.workers(), 31u);
  EXPECT_FALSE(pool.forked());
}

} // namespace
} // namespace cjit::detail::test
