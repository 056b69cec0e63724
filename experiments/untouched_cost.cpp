// What clear_untouched (jit/pages/untouched.hpp) costs beside memset, in one process:
//   in use: memory written before (the first page present), where it adds one look at the
//           pagemap to the clear: memset against clear_untouched(memset), alternating, and
//           the look alone (clear_untouched with a zero function that does nothing); the range
//           is forgotten before each, so each pays the look (a range cleared again would not);
//   new:    memory never touched, where it writes nothing: the look over the whole range;
//   then used: a new mapping cleared and then used, one store per 4 KiB page (the untouched
//           stage's race, tuner/stages/stage_untouched.cpp): memset against clear_untouched,
//           alternating, each on a mapping of its own; the faults the look leaves to the first
//           use count against it.
//
//   clearjit_untouched_cost [MIB...]   (default 64 256 1024; 2..65536, the look from
//   kUntouchedFloor as a kernel's untouched=skip); medians of 31, of 9 where used; ms
#include "jit/pages/untouched.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void libc_zero(void *dst, size_t n) { std::memset(dst, 0, n); }
void no_zero(void *, size_t) {}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The first use of each page: what a program does with a table it has just cleared.
void first_use(void *p, size_t n) {
  for (size_t i = 0; i < n; i += 4096)
    static_cast<volatile char *>(p)[i] = 1;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  std::vector<size_t> mibs;
  for (int i = 1; i < argc; ++i) {
    const long v = std::strtol(argv[i], nullptr, 10);
    if (v < 2 || v > 65536) {
      std::fprintf(stderr, "usage: %s [MIB...] (2..65536)\n", argv[0]);
      return 2;
    }
    mibs.push_back(size_t(v));
  }
  if (mibs.empty()) mibs = {64, 256, 1024};
  constexpr size_t floor = cjit::detail::kUntouchedFloor;
  std::printf("%6s %12s %16s %8s %16s %14s %18s %18s %8s\n", "MiB", "memset ms", "untouched ms",
              "ratio", "in use: look ms", "new: look ms", "used: memset ms", "used: untouched ms",
              "ratio");
  for (size_t mib : mibs) {
    const size_t n = mib << 20;
    void *p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    madvise(p, n, MADV_HUGEPAGE);
    std::memset(p, 1, n);
    std::vector<double> plain, probed, look, fresh;
    for (int r = 0; r < 31; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      std::memset(p, 0, n);
      plain.push_back(ms_since(t0));
      cjit::detail::forget_in_use(); // each time a range not seen before: the look is made
      t0 = std::chrono::steady_clock::now();
      cjit::detail::clear_untouched(libc_zero, p, n, floor);
      probed.push_back(ms_since(t0));
      cjit::detail::forget_in_use();
      t0 = std::chrono::steady_clock::now();
      cjit::detail::clear_untouched(no_zero, p, n, floor);
      look.push_back(ms_since(t0));
    }
    munmap(p, n);
    for (int r = 0; r < 31; ++r) {
      p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) return 1;
      cjit::detail::forget_in_use(); // a new mapping, maybe where the one in use was
      const auto t0 = std::chrono::steady_clock::now();
      if (cjit::detail::clear_untouched(libc_zero, p, n, floor) != n) return 3;
      fresh.push_back(ms_since(t0));
      munmap(p, n);
    }
    std::vector<double> used_plain, used_skip;
    for (int r = 0; r < 9; ++r)
      for (bool skip : {r % 2 == 0, r % 2 != 0}) { // alternating which goes first
        p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return 1;
        cjit::detail::forget_in_use();
        const auto t0 = std::chrono::steady_clock::now();
        if (skip)
          cjit::detail::clear_untouched(libc_zero, p, n, floor);
        else
          std::memset(p, 0, n);
        first_use(p, n);
        (skip ? used_skip : used_plain).push_back(ms_since(t0));
        munmap(p, n);
      }
    std::printf("%6zu %12.3f %16.3f %7.4fx %16.4f %14.3f %18.1f %18.1f %7.3fx\n", mib,
                median(plain), median(probed), median(plain) / median(probed), median(look),
                median(fresh), median(used_plain), median(used_skip),
                median(used_plain) / median(used_skip));
  }
  return 0;
}
