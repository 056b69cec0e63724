/* Warm tiny clears, 1..64 bytes, as a program's own code makes them: an independent harness (none
 * of the tuner's code) that compiles each contender into its own timing loop, the call written
 * as a program writes it.
 *   memset      memset(p, 0, n) of the running C library (a direct call through the PLT)
 *   llvm-libc   LLVM libc's memset: Debian's libllvmlibc-19-dev, its memset.cpp.o renamed
 *   clearjit    clearjit_clear(cj, p, n) from clearjit.h, inline in the loop as the header
 *               makes it (a load of the entry point and a call of the dispatcher)
 *   exported    (clearjit_clear)(cj, p, n): the exported function, every size a call
 *
 *   clearjit_tiny_warm PROFILE|- [ROUNDS]
 *
 * PROFILE: a profile file, or "-" for clearjit_open's lookup. ROUNDS: 1..1000 (9). Sizes 1..16
 * one by one, then 24, 32, 48 and 64, and two mixes: 1..16 B and 1..64 B, uniform. Each call
 * clears n bytes at a random line of a 16 KiB buffer (in L1) and a random offset 0..63 in it,
 * then reads its first byte (a caller that uses what it cleared); 2^16 calls per timing, the
 * same sequence for every method. A round times every method once, in a rotating order; the
 * line printed per size and method is the median ns per call over the rounds, machine-readable:
 * `tiny_warm libc=2.36 size=8 method=clearjit ns=1.234 rounds=9`. One process is one code
 * placement and one moment: scripts/tiny-warm.sh runs it in several fresh processes. */
#define _GNU_SOURCE
#include "clearjit/clearjit.h"

#include <gnu/libc-version.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* LLVM libc's memset (CMakeLists.txt renames it from Debian's libllvmlibc.a). */
void *clearjit_llvm_libc_memset(void *dst, int c, size_t n);

enum { kCalls = 1 << 16, kBuf = 16 << 10, kMaxRounds = 1000, kMethods = 4 };

struct call {
  uint32_t off, n;
};

static const clearjit *cj;
static uint8_t buf[kBuf + 128] __attribute__((aligned(64)));
static struct call calls[kCalls];

/* Each loop is its own function, the call inside it as a program writes it. */
#define TIMING_LOOP(name, CLEAR)                                                                   \
  static __attribute__((noinline, aligned(64))) uint64_t name(void) {                              \
    uint64_t sink = 0;                                                                             \
    for (uint32_t i = 0; i < kCalls; ++i) {                                                        \
      uint8_t *p = buf + calls[i].off;                                                             \
      const size_t n = calls[i].n;                                                                 \
      CLEAR;                                                                                       \
      sink += p[0];                                                                                \
    }                                                                                              \
    return sink;                                                                                   \
  }
TIMING_LOOP(loop_memset, memset(p, 0, n))
TIMING_LOOP(loop_llvm, clearjit_llvm_libc_memset(p, 0, n))
TIMING_LOOP(loop_clearjit, clearjit_clear(cj, p, n))
TIMING_LOOP(loop_exported, (clearjit_clear)(cj, p, n))

static const struct {
  const char *name;
  uint64_t (*loop)(void);
} kMethod[kMethods] = {{"memset", loop_memset},
                       {"llvm-libc", loop_llvm},
                       {"clearjit", loop_clearjit},
                       {"exported", loop_exported}};

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Sizes lo..hi uniform (lo == hi: one size), at random lines and offsets. */
static void draw(uint32_t lo, uint32_t hi) {
  for (uint32_t i = 0; i < kCalls; ++i) {
    calls[i].off = (uint32_t)(next() % (kBuf / 64)) * 64 + (uint32_t)(next() % 64);
    calls[i].n = lo + (uint32_t)(next() % (hi - lo + 1));
  }
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void measure(const char *label, uint32_t lo, uint32_t hi, int rounds) {
  static double ns[kMethods][kMaxRounds];
  uint64_t sink = 0;
  draw(lo, hi);
  for (int m = 0; m < kMethods; ++m) /* warm the code, the buffer and the branch history */
    sink += kMethod[m].loop();
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < kMethods; ++k) {
      const int m = (r + k) % kMethods;
      const double t = now_ns();
      sink += kMethod[m].loop();
      ns[m][r] = (now_ns() - t) / kCalls;
    }
  for (int m = 0; m < kMethods; ++m) {
    qsort(ns[m], (size_t)rounds, sizeof ns[m][0], by_value);
    printf("tiny_warm libc=%s size=%s method=%s ns=%.3f rounds=%d\n", gnu_get_libc_version(), label,
           kMethod[m].name, ns[m][rounds / 2], rounds);
  }
  if (sink == 42) puts(""); /* keeps the reads */
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: clearjit_tiny_warm PROFILE|- [ROUNDS]\n");
    return 2;
  }
  char *end = NULL;
  const long rounds = argc > 2 ? strtol(argv[2], &end, 10) : 9;
  if (argc > 2 && (*end || rounds < 1 || rounds > kMaxRounds)) {
    fprintf(stderr, "clearjit_tiny_warm: ROUNDS must be 1..%d, not %s\n", kMaxRounds, argv[2]);
    return 2;
  }
  char err[512];
  clearjit *h = clearjit_open(strcmp(argv[1], "-") ? argv[1] : NULL, err, sizeof err);
  if (!h) {
    fprintf(stderr, "clearjit_tiny_warm: %s\n", err);
    return 1;
  }
  cj = h;
  char label[16];
  for (uint32_t n = 1; n <= 16; ++n) {
    snprintf(label, sizeof label, "%u", n);
    measure(label, n, n, (int)rounds);
  }
  static const uint32_t kLarger[] = {24, 32, 48, 64};
  for (size_t i = 0; i < sizeof kLarger / sizeof kLarger[0]; ++i) {
    snprintf(label, sizeof label, "%u", kLarger[i]);
    measure(label, kLarger[i], kLarger[i], (int)rounds);
  }
  measure("1..16", 1, 16, (int)rounds);
  measure("1..64", 1, 64, (int)rounds);
  clearjit_close(h);
  return 0;
}
