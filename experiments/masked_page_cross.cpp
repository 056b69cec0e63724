// Why `masked` and `branchless` guard against a 64-byte window crossing a page: what one AVX-512
// masked store (vmovdqu8 zmm{k1} of the low n bytes, as the small path stores below 64 bytes)
// costs when its window lies inside one cache line, when it crosses a line inside the page (the
// control: the same offset in the line as the next two), when it crosses into a mapped page
// with every written byte before the boundary, and when the page after is PROT_NONE (the
// masked-out bytes fall on it, so the CPU must suppress the fault). glibc's AVX-512 memset has
// the same guard.
//
//   clearjit_masked_page_cross [N]   (bytes stored, 1..63; default 16)
//
// Each line: ns per call of a function doing that one store (bzhi, kmovq, the store, ret), the
// median of 7 runs of 1M calls to the same address.
#include "jit/model/cpu.hpp"
#include "tuner/measure/measure.hpp"

#include <immintrin.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr size_t kPage = 4096;
constexpr int kRuns = 7, kStores = 1'000'000;

__attribute__((target("avx512f,avx512bw,bmi2"), noinline)) void masked_store(char *p, unsigned n) {
  const __mmask64 k = _bzhi_u64(~uint64_t(0), n);
  _mm512_mask_storeu_epi8(p, k, _mm512_setzero_si512());
}

double ns_per_call(char *p, unsigned n) {
  std::vector<double> runs(kRuns);
  for (double &r : runs) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kStores; ++i) {
      masked_store(p, n);
      asm volatile("" : : "r"(p) : "memory");
    }
    r = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
        kStores;
  }
  return cjit::detail::median(std::move(runs));
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
  unsigned n = 16;
  if (argc > 1) {
    char *end = nullptr;
    const unsigned long v = std::strtoul(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || v < 1 || v > 63) {
      std::fprintf(stderr, "clearjit_masked_page_cross: N must be 1..63, not %s\n", argv[1]);
      return 2;
    }
    n = unsigned(v);
  }
  void *m = mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  char *const base = static_cast<char *>(m);
  std::memset(base, 1, 2 * kPage);
  // Every window but the first starts n bytes before a boundary: of a line, then of the page.
  char *const in_line = base + 128, *const line_end = base + kPage / 2 - n,
              *const page_end = base + kPage - n;

  std::printf("%s; one masked store of %u bytes, ns per call (median of %d runs)\n",
              cpu.brand.c_str(), n, kRuns);
  const double in = ns_per_call(in_line, n);
  std::printf("  window inside one line                    %7.2f\n", in);
  const double line = ns_per_call(line_end, n);
  std::printf("  window crosses a line inside the page     %7.2f  (%.1fx)\n", line, line / in);
  const double mapped = ns_per_call(page_end, n);
  std::printf("  window crosses into a mapped page         %7.2f  (%.1fx)\n", mapped, mapped / in);
  int rc = 0;
  if (mprotect(base + kPage, kPage, PROT_NONE) == 0) {
    const double fault = ns_per_call(page_end, n);
    std::printf("  window crosses into a PROT_NONE page      %7.2f  (%.1fx)\n", fault, fault / in);
  } else {
    std::perror("mprotect");
    rc = 1;
  }
  munmap(m, 2 * kPage);
  return rc;
}
