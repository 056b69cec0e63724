/* Does the page size decide between rep stosb and non-temporal stores for a large clear the
 * caller repeats (Stockfish's `ucinewgame`)? One table of MIB MiB, faulted in first, on huge
 * pages (aligned_alloc on 2 MiB, MADV_HUGEPAGE, as Stockfish's) or on 4 KiB pages
 * (MADV_NOHUGEPAGE), cleared REPS times by each method in turn, alternating:
 *   stosb    one rep stosb (the built-in's reuse class on AMD, glibc 2.36's memset)
 *   ntavx2   32-byte non-temporal stores, unrolled by 4, then sfence
 *   avx2     32-byte temporal stores, unrolled by 4 (glibc 2.41's memset on AMD is a temporal
 *            vector loop at every size: its non-temporal branch sits behind rep stosb's, which
 *            its threshold turns off there)
 *   memset   the running C library's memset (run it under another glibc's loader to compare)
 *
 *   clearjit_page_size_clear MIB REPS
 *
 * Prints, per page size, each method's median ms and GB/s, with the glibc, and the huge pages
 * that back the table (AnonHugePages in /proc/self/smaps_rollup). Needs AVX2. */
#define _GNU_SOURCE
#include <gnu/libc-version.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void by_stosb(void *p, size_t n) {
  asm volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(0) : "memory");
}

__attribute__((target("avx2"))) static void by_ntavx2(void *p, size_t n) {
  __m256i z = _mm256_setzero_si256();
  char *d = p;
  for (size_t i = 0; i + 128 <= n; i += 128) {
    _mm256_stream_si256((__m256i *)(d + i), z);
    _mm256_stream_si256((__m256i *)(d + i + 32), z);
    _mm256_stream_si256((__m256i *)(d + i + 64), z);
    _mm256_stream_si256((__m256i *)(d + i + 96), z);
  }
  _mm_sfence();
}

__attribute__((target("avx2"))) static void by_avx2(void *p, size_t n) {
  __m256i z = _mm256_setzero_si256();
  char *d = p;
  for (size_t i = 0; i + 128 <= n; i += 128) {
    _mm256_store_si256((__m256i *)(d + i), z);
    _mm256_store_si256((__m256i *)(d + i + 32), z);
    _mm256_store_si256((__m256i *)(d + i + 64), z);
    _mm256_store_si256((__m256i *)(d + i + 96), z);
  }
}

static void by_memset(void *p, size_t n) { memset(p, 0, n); }

static long huge_kib(void) {
  FILE *f = fopen("/proc/self/smaps_rollup", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1) break;
  if (f) fclose(f);
  return kib;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 3 || !__builtin_cpu_supports("avx2")) {
    fprintf(stderr, "usage: clearjit_page_size_clear MIB REPS (needs AVX2)\n");
    return 2;
  }
  const size_t n = strtoull(argv[1], NULL, 10) << 20;
  const int reps = atoi(argv[2]);
  if (!n || reps < 1 || reps > 1000 || n % (2u << 20)) {
    fprintf(stderr, "MIB: a multiple of 2; REPS: 1..1000\n");
    return 2;
  }
  static const struct {
    const char *name;
    void (*clear)(void *, size_t);
  } methods[] = {
      {"stosb", by_stosb}, {"ntavx2", by_ntavx2}, {"avx2", by_avx2}, {"memset", by_memset}};
  enum { kMethods = sizeof methods / sizeof methods[0] };
  for (int huge = 1; huge >= 0; --huge) {
    char *t = aligned_alloc(2u << 20, n);
    if (!t) return fprintf(stderr, "no memory for %zu MiB\n", n >> 20), 1;
    madvise(t, n, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    for (size_t i = 0; i < n; i += 4096) /* fault in: every clear below is a later one */
      t[i] = 1;
    double ms[kMethods][1000];
    for (int r = 0; r < reps; ++r)
      for (int k = 0; k < kMethods; ++k) {
        const int m = (k + r) % kMethods; /* each method in each position in turn */
        const double t0 = now_ms();
        methods[m].clear(t, n);
        ms[m][r] = now_ms() - t0;
        for (size_t i = 0; i < n; i += 4096 * 97)
          if (t[i]) return fprintf(stderr, "%s left a byte\n", methods[m].name), 1;
      }
    printf("glibc %s, %zu MiB on %s pages (AnonHugePages %ld MiB), %d rounds:",
           gnu_get_libc_version(), n >> 20, huge ? "huge" : "4 KiB", huge_kib() >> 10, reps);
    for (int m = 0; m < kMethods; ++m) {
      qsort(ms[m], reps, sizeof(double), by_value);
      const double med = ms[m][reps / 2];
      printf("  %s %.1f ms (%.1f GB/s)", methods[m].name, med, n / med / 1e6);
    }
    printf("\n");
    free(t);
  }
  return 0;
}
