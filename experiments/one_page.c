/* One 4 KiB page per call, cold: what the tuner's size classes are for a page allocator, and what
 * a page-granular clear_page does. An independent harness (none of the tuner's code): clearjit
 * through its C API against the memsets a program may run.
 *   consecutive      page after page, one region cleared page by page
 *   scattered        pages in a shuffled order over the whole arena
 * Methods:
 *   memset           the running C library's (run it under another glibc's loader to compare)
 *   llvm-libc        LLVM libc's memset: Debian's libllvmlibc-19-dev, its memset.cpp.o renamed
 *   clearjit         clearjit_clear (reuse) with PROFILE
 *   clearjit-stream  clearjit_clear_stream with PROFILE
 *
 *   clearjit_one_page PROFILE|- [ROUNDS [PAGE]]
 *
 * PROFILE: a profile file, or "-" for clearjit_open's lookup. ROUNDS: 1..1000 (15). PAGE: bytes
 * per call, 4096 (the default) to 65536. Each round times every method once per pattern, in a
 * shuffled order, on a batch of pages none touched for at least 4x the L3: twice the L3 (at
 * least 64 MiB), after an untimed read pass over another 2x the L3 (main() says why). Prints
 * one line per pattern and method, machine-readable: `one_page libc=2.36 pattern=consecutive
 * method=memset bytes=4096 gbps=20.41 rounds=15` (the median over the rounds). */
#define _GNU_SOURCE
#include "clearjit/clearjit.h"

#include <gnu/libc-version.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* LLVM libc's memset (CMakeLists.txt renames it from Debian's libllvmlibc.a). */
void *clearjit_llvm_libc_memset(void *dst, int c, size_t n);

enum { kMaxRounds = 1000 };

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static clearjit *cj;
/* Called through a volatile pointer so that the compiler sees no memset to inline. */
static void *(*volatile libc_memset)(void *, int, size_t) = memset;

static void by_memset(void *p, size_t n) { libc_memset(p, 0, n); }
static void by_llvm(void *p, size_t n) { clearjit_llvm_libc_memset(p, 0, n); }
static void by_reuse(void *p, size_t n) { clearjit_clear(cj, p, n); }
static void by_stream(void *p, size_t n) { clearjit_clear_stream(cj, p, n); }

static const struct {
  const char *name;
  void (*clear)(void *, size_t);
} kMethods[] = {{"memset", by_memset},
                {"llvm-libc", by_llvm},
                {"clearjit", by_reuse},
                {"clearjit-stream", by_stream}};
enum { kMethodCount = sizeof kMethods / sizeof kMethods[0] };

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static uint64_t l3_bytes(void) {
  long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return l3 > 0 ? (uint64_t)l3 : 32u << 20;
}

/* xorshift64*: the shuffle needs no quality beyond defeating the prefetchers. */
static uint64_t next_random(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: clearjit_one_page PROFILE|- [ROUNDS [PAGE]]\n");
    return 2;
  }
  const int rounds = argc > 2 ? atoi(argv[2]) : 15;
  const size_t page = argc > 3 ? strtoull(argv[3], NULL, 10) : 4096;
  if (rounds < 1 || rounds > kMaxRounds || page < 4096 || page > 65536 || page % 64) {
    fprintf(stderr, "clearjit_one_page: ROUNDS 1..1000, PAGE 4096..65536 in 64-byte steps\n");
    return 2;
  }
  char err[512] = "";
  cj = clearjit_open(strcmp(argv[1], "-") ? argv[1] : NULL, err, sizeof err);
  if (!cj) {
    fprintf(stderr, "clearjit_one_page: %s\n", err);
    return 1;
  }
  uint64_t arena_bytes = 6 * l3_bytes(); /* a batch (2x the L3) and 4x the L3 between visits */
  if (arena_bytes < (1u << 30)) arena_bytes = 1u << 30;
  arena_bytes = (arena_bytes + (2u << 20) - 1) & ~(uint64_t)((2u << 20) - 1);
  char *arena = mmap(NULL, arena_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (arena == MAP_FAILED) {
    fprintf(stderr, "clearjit_one_page: no memory for a %llu MiB arena\n",
            (unsigned long long)(arena_bytes >> 20));
    return 1;
  }
  madvise(arena, arena_bytes, MADV_HUGEPAGE);
  memset(arena, 1, arena_bytes); /* every timed clear below is a later one */
  /* A timed batch: twice the L3 (at least 64 MiB), so that a method pays for the lines its
   * stores leave dirty in the caches (written back while it runs) as much as a program clearing
   * page after page does; and before each batch an untimed read pass over another 2x the L3
   * writes back what the method before left dirty, so that none pays for another's. */
  const uint64_t batch_bytes = 2 * l3_bytes() > (64u << 20) ? 2 * l3_bytes() : 64u << 20;
  const size_t pages = arena_bytes / page, per_batch = batch_bytes / page;
  const uint64_t evict_bytes = 2 * l3_bytes();
  char *evict = mmap(NULL, evict_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (evict == MAP_FAILED || per_batch > pages)
    return fprintf(stderr, "clearjit_one_page: no memory for the batches\n"), 1;
  memset(evict, 1, evict_bytes);
  uint32_t *order = malloc(pages * sizeof *order);
  if (!order) return fprintf(stderr, "clearjit_one_page: no memory\n"), 1;
  for (size_t i = 0; i < pages; ++i)
    order[i] = (uint32_t)i;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t i = pages - 1; i > 0; --i) {
    const size_t j = next_random(&seed) % (i + 1);
    const uint32_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  static double gbps[2][kMethodCount][kMaxRounds];
  size_t cursor[2] = {0, 0}; /* per pattern: the next page (consecutive) or order index */
  uint64_t sink = 0;
  for (int r = 0; r < rounds; ++r)
    for (int pattern = 0; pattern < 2; ++pattern) {
      int order_of_methods[kMethodCount]; /* a shuffled order each round: no fixed neighbours */
      for (int k = 0; k < kMethodCount; ++k)
        order_of_methods[k] = k;
      for (int k = kMethodCount - 1; k > 0; --k) {
        const int j = (int)(next_random(&seed) % (uint64_t)(k + 1)), t = order_of_methods[k];
        order_of_methods[k] = order_of_methods[j];
        order_of_methods[j] = t;
      }
      for (int k = 0; k < kMethodCount; ++k) {
        const int m = order_of_methods[k];
        size_t *c = &cursor[pattern];
        if (*c + per_batch > pages) *c = 0;
        for (uint64_t i = 0; i < evict_bytes; i += 64)
          sink += (uint8_t)evict[i];
        const double t0 = now_s();
        if (pattern == 0)
          for (size_t i = 0; i < per_batch; ++i)
            kMethods[m].clear(arena + (*c + i) * page, page);
        else
          for (size_t i = 0; i < per_batch; ++i)
            kMethods[m].clear(arena + (size_t)order[*c + i] * page, page);
        gbps[pattern][m][r] = (double)(per_batch * page) / (now_s() - t0) / 1e9;
        /* Every page of the batch cleared, checked by its first, middle and last byte. */
        for (size_t i = 0; i < per_batch; ++i) {
          const char *p = arena + (pattern ? (size_t)order[*c + i] : *c + i) * page;
          if (p[0] | p[page / 2] | p[page - 1]) {
            fprintf(stderr, "clearjit_one_page: %s left a byte\n", kMethods[m].name);
            return 1;
          }
          char *dirty = (char *)p; /* the checked bytes non-zero again, for a later round */
          dirty[0] = dirty[page / 2] = dirty[page - 1] = 1;
        }
        *c += per_batch;
      }
    }
  if (sink == 1) printf("\n"); /* keeps the read passes */
  static const char *const kPatternNames[] = {"consecutive", "scattered"};
  for (int pattern = 0; pattern < 2; ++pattern)
    for (int m = 0; m < kMethodCount; ++m) {
      qsort(gbps[pattern][m], (size_t)rounds, sizeof(double), by_value);
      printf("one_page libc=%s pattern=%s method=%s bytes=%zu gbps=%.2f rounds=%d\n",
             gnu_get_libc_version(), kPatternNames[pattern], kMethods[m].name, page,
             gbps[pattern][m][rounds / 2], rounds);
    }
  clearjit_close(cj);
  return 0;
}
