// An independent check of the tuner's cold small points: small clears at destinations not in the
// caller's cache, memset against a profile's dispatcher, measured apart from the tuner's Meter.
//
//   clearjit_cold_small PROFILE [LINES_LOG2 [SIZES...]]
//
// Destinations are random 64-byte lines drawn from a window of 2^LINES_LOG2 lines spread evenly
// over a 1 GiB arena (default 24: every line of it), one call after another, each followed by a
// read of the first and last byte (as reuse is measured) or not (stream). A window whose lines
// fit in the L3 (2^20 lines: 64 MiB of them, the tuner's scattered slots) makes "cold" an L3 hit;
// the whole arena makes it a miss to memory. Each round runs memset and then clearjit_clear (or
// clearjit_clear_stream) over 2^18 calls each, alternating which goes first; the line: the median
// ns per call of each and the median of the rounds' speed ratios (memset's time / clearjit's).
#include "clearjit/clearjit.h"
#include "tuner/measure/stats.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr size_t kArena = size_t(1) << 30, kCalls = size_t(1) << 18;
constexpr size_t kSlack = 4096; // past the last line, for the largest size
constexpr int kRounds = 9;
void *(*volatile memset_ptr)(void *, int, size_t) = std::memset; // a call as through the PLT
volatile uint64_t sink;

struct Destinations {
  uint64_t state, mask, stride;
  char *at(char *arena) { // xorshift64: as cheap for both contenders, never in a table
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return arena + (state & mask) * stride;
  }
};

template <class Clear>
double ns_per_call(char *arena, Destinations &d, size_t n, bool read, Clear c) {
  uint64_t s = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < kCalls; ++i) {
    char *p = d.at(arena);
    c(p, n);
    if (read) s += uint8_t(p[0]) + uint8_t(p[n - 1]);
  }
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  sink = sink + s;
  return ns / kCalls;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: clearjit_cold_small PROFILE [LINES_LOG2 [SIZES...]]\n");
    return 2;
  }
  char err[512];
  clearjit *cj = clearjit_open(argv[1], err, sizeof err);
  if (!cj) return std::fprintf(stderr, "%s\n", err), 1;
  const unsigned log2 = argc > 2 ? unsigned(std::atoi(argv[2])) : 24;
  if (log2 < 10 || log2 > 24) return std::fprintf(stderr, "LINES_LOG2: 10..24\n"), 2;
  std::vector<size_t> sizes;
  for (int i = 3; i < argc; ++i)
    sizes.push_back(size_t(std::strtoull(argv[i], nullptr, 10)));
  for (size_t n : sizes)
    if (n == 0 || n > kSlack) return std::fprintf(stderr, "SIZES: 1..%zu\n", kSlack), 2;
  if (sizes.empty()) sizes = {8, 16, 32, 48, 64, 128};
  char *arena = static_cast<char *>(
      mmap(nullptr, kArena + kSlack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (arena == MAP_FAILED) return std::perror("mmap"), 1;
  madvise(arena, kArena, MADV_HUGEPAGE);
  std::memset(arena, 1, kArena + kSlack);
  Destinations d{88172645463325252ull, (uint64_t(1) << log2) - 1, kArena >> log2};
  std::printf("profile %s; destinations: random lines of %u (2^%u, %zu MiB of lines) over 1 GiB; "
              "%zu calls a sample, %d rounds, medians\n",
              argv[1], 1u << log2, log2, (size_t(64) << log2) >> 20, kCalls, kRounds);
  std::printf("%-7s %6s  %10s %10s %8s %16s\n", "intent", "size", "memset ns", "clearjit", "speed",
              "rounds' range");
  for (bool reuse : {true, false})
    for (size_t n : sizes) {
      std::vector<double> mine, theirs, ratio;
      for (int r = 0; r < kRounds; ++r) {
        auto m = [&] {
          return ns_per_call(arena, d, n, reuse, [](char *p, size_t k) { memset_ptr(p, 0, k); });
        };
        auto c = [&] {
          return ns_per_call(arena, d, n, reuse, [&](char *p, size_t k) {
            reuse ? clearjit_clear(cj, p, k) : clearjit_clear_stream(cj, p, k);
          });
        };
        double a, b;
        if (r % 2)
          b = c(), a = m();
        else
          a = m(), b = c();
        theirs.push_back(a), mine.push_back(b), ratio.push_back(a / b);
      }
      std::vector<double> sorted = ratio;
      std::sort(sorted.begin(), sorted.end());
      std::printf("%-7s %4zu B  %10.2f %10.2f %7.2fx %7.2fx..%.2fx\n", reuse ? "reuse" : "stream",
                  n, cjit::detail::median(theirs), cjit::detail::median(mine),
                  cjit::detail::median(ratio), sorted.front(), sorted.back());
    }
  clearjit_close(cj);
  munmap(arena, kArena + kSlack);
}
