// What one clear costs when its destination's lines are in cache (a read pass just before, not
// timed) against when they are where the same kernel's previous clear left them, right before:
// for a non-temporal kernel, on their way to memory. The tuner's `cached` pattern clears half the
// L2 piece by piece, so a non-temporal kernel finds each piece in memory, sent there a round
// earlier; this shows how single clears of lines truly in cache stand beside that.
//
//   clearjit_nt_cached [SPEC...]   (default: libc avx512 avx2 ntavx512 ntavx2 clzero, those this
//                                  CPU runs)
//
// Each cell: the median over 401 single clears of rdtscp ticks (lfence on both sides), minus the
// median of an empty timing.
#include <clearjit/clearjit.h>

#include <x86intrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void *(*volatile memset_fn)(void *, int, size_t) = std::memset;

uint64_t ticks() {
  unsigned aux;
  _mm_lfence();
  const uint64_t t = __rdtscp(&aux);
  _mm_lfence();
  return t;
}

uint64_t median(std::vector<uint64_t> v) {
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> asked(argv + 1, argv + argc), specs;
  const bool defaults = asked.empty();
  if (defaults) asked = {"libc", "avx512", "avx2", "ntavx512", "ntavx2", "clzero"};
  std::vector<clearjit_kernel *> kernels;
  for (const std::string &s : asked) {
    char err[256] = "";
    clearjit_kernel *k =
        s == "libc" ? nullptr : clearjit_kernel_compile(s.c_str(), err, sizeof err);
    if (s != "libc" && !k) {
      std::fprintf(stderr, "clearjit_nt_cached: %s: %s\n", s.c_str(), err);
      if (defaults) continue; // a default this CPU cannot run
      return 1;
    }
    specs.push_back(s);
    kernels.push_back(k);
  }
  const size_t sizes[] = {1024, 4096, 16384, 65536, 262144};
  const size_t max = 262144;
  auto *buf = static_cast<volatile uint8_t *>(std::aligned_alloc(4096, max));
  if (!buf) return 1;
  std::memset(const_cast<uint8_t *>(buf), 1, max);
  uint8_t *dst = const_cast<uint8_t *>(buf);
  constexpr int kClears = 401;

  std::vector<uint64_t> empty;
  for (int i = 0; i < 4 * kClears; ++i) {
    const uint64_t a = ticks();
    empty.push_back(ticks() - a);
  }
  const uint64_t overhead = median(empty);
  std::printf("rdtscp ticks per clear, medians of %d, the empty timing's %llu subtracted\n"
              "in cache: after a read pass over the destination; after itself: right after the "
              "same kernel cleared it\n\n%-8s",
              kClears, static_cast<unsigned long long>(overhead), "size");
  for (const std::string &s : specs)
    std::printf(" %22s %22s", (s + " in cache").c_str(), (s + " after itself").c_str());
  std::printf("\n");
  uint64_t sink = 0;
  for (size_t n : sizes) {
    std::printf("%-8zu", n);
    for (size_t k = 0; k < kernels.size(); ++k)
      for (bool read_first : {true, false}) {
        std::vector<uint64_t> v;
        for (int i = 0; i < kClears; ++i) {
          if (read_first)
            for (size_t o = 0; o < n; o += 64)
              sink += buf[o];
          const uint64_t a = ticks();
          if (kernels[k])
            clearjit_kernel_clear(kernels[k], dst, n);
          else
            memset_fn(dst, 0, n);
          const uint64_t b = ticks();
          v.push_back(b - a > overhead ? b - a - overhead : 0);
        }
        std::printf(" %22llu", static_cast<unsigned long long>(median(v)));
      }
    std::printf("\n");
  }
  for (clearjit_kernel *k : kernels)
    clearjit_kernel_free(k);
  std::free(dst);
  return sink == 1; // never: keeps the reads
}
