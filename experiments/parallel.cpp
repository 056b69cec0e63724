// clearjit_parallel [SIZE [ROUNDS [PROFILE]]]: one huge region cleared by memset, by the
// dispatcher on one thread and by clearjit_clear_parallel on 2..N threads (N: the CPUs this
// process may use), both intents, in interleaved rounds; GB/s medians and ratios to one thread.
// Reuse reads every cache line back after the clear, as the tuner's reuse intent does.
#include "clearjit/clearjit.h"
#include "jit/model/cpu.hpp"
#include "jit/model/size.hpp"
#include "tuner/measure/stats.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using cjit::detail::median;

int main(int argc, char **argv) {
  const auto size =
      argc > 1 ? cjit::detail::parse_size(argv[1]) : std::optional<uint64_t>(1ull << 30);
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  if (!size || *size < 4096 || rounds < 1 || rounds > 1000) {
    std::fprintf(stderr, "usage: clearjit_parallel [SIZE (>= 4K) [ROUNDS (1..1000) [PROFILE]]]\n");
    return 2;
  }
  char err[512];
  clearjit *cj = clearjit_open(argc > 3 ? argv[3] : nullptr, err, sizeof err);
  if (!cj) {
    std::fprintf(stderr, "clearjit_parallel: %s\n", err);
    return 1;
  }
  const size_t n = size_t(*size);
  void *mem = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    std::fprintf(stderr, "clearjit_parallel: cannot map %zu bytes\n", n);
    return 1;
  }
  madvise(mem, n, MADV_HUGEPAGE);
  auto *p = static_cast<volatile unsigned char *>(mem);
  std::memset(mem, 1, n); // faulted in before any timing
  const unsigned cpus = cjit::detail::usable_cpus();
  std::printf("%s, %zu bytes, %d interleaved rounds, %u usable CPUs; GB/s (medians)\n",
              clearjit_profile_source(cj), n, rounds, cpus);
  for (clearjit_intent intent : {CLEARJIT_REUSE, CLEARJIT_STREAM}) {
    // Contenders: memset, then 1..cpus threads.
    std::vector<std::function<void()>> runs{[&] { std::memset(mem, 0, n); }};
    std::vector<std::string> names{"memset"};
    for (unsigned t = 1; t <= cpus; ++t) {
      runs.push_back([&, t] { clearjit_clear_parallel(cj, intent, mem, n, t); });
      names.push_back(std::to_string(t) + (t == 1 ? " thread" : " threads"));
    }
    std::vector<std::vector<double>> gbps(runs.size());
    for (int r = 0; r < rounds; ++r)
      for (size_t k = 0; k < runs.size(); ++k) {
        std::memset(mem, 1, n); // the same state before every contender
        const auto t0 = std::chrono::steady_clock::now();
        runs[k]();
        if (intent == CLEARJIT_REUSE)
          for (size_t i = 0; i < n; i += 64)
            (void)p[i];
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        gbps[k].push_back(double(n) / s / 1e9);
      }
    std::printf("%s\n", intent == CLEARJIT_REUSE ? "reuse (clear, then read every line)"
                                                 : "stream (clear only)");
    const double one = median(gbps[1]);
    for (size_t k = 0; k < runs.size(); ++k)
      std::printf("  %-10s %7.1f GB/s  %5.2fx one thread\n", names[k].c_str(), median(gbps[k]),
                  median(gbps[k]) / one);
  }
  munmap(mem, n);
  clearjit_close(cj);
  return 0;
}
