// Reentrancy: clearjit_clear from a signal handler that interrupts a clear (a smoke check), and
// one handle shared by many threads.
//
// This cannot prove async-signal-safety; it checks that clearjit_clear works from a handler
// that interrupts the main thread while it is itself inside clearjit_clear (the kernels use
// no stack, locks or allocation; the kernel's registers are restored by the signal frame).
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace cjit::detail {
namespace {

using namespace test;

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
} // namespace cjit::detail
