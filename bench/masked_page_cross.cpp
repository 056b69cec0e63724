// Why `masked` and `branchless` guard against a 64-byte window crossing a page: what one AVX-512
// masked store (vmovdqu8 zmm{k1}, the low n bytes, as the small path stores below 64 bytes) costs
// when its window lies inside a page, when it crosses into a mapped page with every written
// byte before the boundary, and when the page after is PROT_NONE (the masked-out bytes fall on
// it, so the CPU must suppress the fault). glibc's AVX-512 memset has the same guard.
//
//   clearjit_masked_page_cross [N]   (bytes stored, 1..63; default 16)
//
// Each line: ns per store, the median of 7 runs of 1M stores to the same address.
#include "cpu.hpp"

#include <immintrin.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr size_t kPage = 4096;
constexpr int kRuns = 7, kStores = 1'000'000;

__attribute__((target("avx512f,avx512bw,bmi2"), noinline)) void masked_store(char *p, unsigned n) {
  const __mmask64 k = _bzhi_u64(~uint64_t(0), n);
  _mm512_mask_storeu_epi8(p, k, _mm512_setzero_si512());
}

double ns_per_store(char *p, unsigned n) {
  double runs[kRuns];
  for (double &r : runs) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kStores; ++i) {
      masked_store(p, n);
      asm volatile("" : : "r"(p) : "memory");
    }
    r = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
        kStores;
  }
  std::nth_element(runs, runs + kRuns / 2, runs + kRuns);
  return runs[kRuns / 2];
}

} // namespace

int main(int argc, char **argv) {
  using namespace cjit::detail;
  const CpuInfo &cpu = host_cpu();
  for (Feature f : {Feature::avx512f, Feature::avx512bw, Feature::bmi2})
    if (!cpu.has(f)) {
      std::fprintf(stderr, "clearjit_masked_page_cross: this CPU lacks %s\n",
                   std::string(feature_name(f)).c_str());
      return 1;
    }
  const unsigned n = argc > 1 ? unsigned(std::atoi(argv[1])) : 16;
  if (n < 1 || n > 63) {
    std::fprintf(stderr, "clearjit_masked_page_cross: N must be 1..63, not %s\n", argv[1]);
    return 2;
  }
  void *m = mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  char *const base = static_cast<char *>(m);
  std::memset(base, 1, 2 * kPage);
  char *const inside = base + 128, *const at_end = base + kPage - n;

  std::printf("%s; one masked store of %u bytes, ns per store (median of %d runs)\n",
              cpu.brand.c_str(), n, kRuns);
  const double in = ns_per_store(inside, n);
  std::printf("  window inside a page                      %7.2f\n", in);
  const double mapped = ns_per_store(at_end, n);
  std::printf("  window crosses into a mapped page         %7.2f  (%.1fx)\n", mapped, mapped / in);
  if (mprotect(base + kPage, kPage, PROT_NONE) != 0) {
    std::perror("mprotect");
    return 1;
  }
  const double fault = ns_per_store(at_end, n);
  std::printf("  window crosses into a PROT_NONE page      %7.2f  (%.1fx)\n", fault, fault / in);
  munmap(m, 2 * kPage);
  return 0;
}
