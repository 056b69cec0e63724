// The worker pool under ThreadSanitizer (the CLEARJIT_TSAN build, run by scripts/test.sh):
// callers on several threads, each clearing its own region
// in pieces with memset and reading every byte back after the call, so a piece whose stores do
// not happen before the call's return, or a race on the pool's queue, is reported.
#include "jit/runtime/pool.hpp"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using cjit::detail::kPieceAlign;
using cjit::detail::Pool;

namespace {

int failed = 0, passed = 0;

void check(bool ok, const std::string &what) {
  ok ? ++passed : ++failed;
  if (!ok) std::fprintf(stderr, "FAILED: %s\n", what.c_str());
}

void zero(void *dst, size_t n) { std::memset(dst, 0, n); }

bool all_zero(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (p[i]) return false;
  return true;
}

} // namespace

int main() {
  const size_t n = 6 * kPieceAlign + 123;
  {
    Pool pool;
    std::vector<std::thread> callers;
    std::vector<int> ok(4, 1);
    for (int t = 0; t < 4; ++t)
      callers.emplace_back([&, t] {
        std::unique_ptr<unsigned char[]> buf(new unsigned char[n + 64]);
        for (int round = 0; round < 5; ++round) {
          std::memset(buf.get(), 0xA5, n + 64);
          pool.clear(zero, buf.get() + t, n, unsigned(2 + t));
          ok[size_t(t)] &= all_zero(buf.get() + t, n) && buf[size_t(t) + n] == 0xA5;
        }
      });
    for (std::thread &t : callers)
      t.join();
    for (int t = 0; t < 4; ++t)
      check(ok[size_t(t)] != 0, "caller " + std::to_string(t) + " found its region cleared");
    check(pool.workers() >= 1 && pool.workers() <= 4, "workers started as asked, at most 4");
  } // the destructor stops and joins them
  {
    Pool never; // destroyed without a call
    check(never.workers() == 0, "no worker before the first call");
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
