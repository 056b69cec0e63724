/* memset(p, 0, n) per size, warm (one buffer cleared again and again), as a program sees it.
 * Under LD_PRELOAD=libclearjit-preload.so, `memset` is the preload's and libc's own is found in
 * libc.so.6: the two are timed alternately, 7 rounds of about 10 ms each, so load from other
 * processes hits both alike. Prints "SIZE LIBC_NS PRELOAD_NS RATIO" (medians; ratio of medians
 * per round). Built with -fno-builtin. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef void *(*memset_fn)(void *, int, size_t);

static double time_calls(memset_fn f, unsigned char *buf, size_t n, size_t calls) {
  double t0 = now();
  for (size_t i = 0; i < calls; ++i) {
    f(buf, 0, n);
    __asm__ volatile("" : : "r"(buf) : "memory");
  }
  return (now() - t0) / (double)calls * 1e9;
}

int main(int argc, char **argv) {
  size_t max = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)16 << 20;
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  memset_fn libc_memset = libc ? (memset_fn)dlsym(libc, "memset") : NULL;
  if (!libc_memset) return fprintf(stderr, "no libc memset\n"), 1;
  memset_fn program_memset = memset;
  unsigned char *buf = aligned_alloc(4096, max + 4096);
  if (!buf) return 1;
  memset(buf, 1, max);
  program_memset(buf, 0, 16); /* the preload generates its code at its first zero fill: here */
  for (size_t n = 16; n <= max; n *= 2) {
    size_t calls = 1;
    for (double t0 = now(); now() - t0 < 0.002; calls *= 2)
      time_calls(libc_memset, buf, n, calls);
    calls *= 5; /* ~10 ms */
    double a[7], b[7], r[7];
    for (int i = 0; i < 7; ++i) {
      a[i] = time_calls(libc_memset, buf, n, calls);
      b[i] = time_calls(program_memset, buf, n, calls);
      r[i] = a[i] / b[i];
    }
    qsort(a, 7, sizeof a[0], cmp);
    qsort(b, 7, sizeof b[0], cmp);
    qsort(r, 7, sizeof r[0], cmp);
    printf("%zu %.2f %.2f %.2f\n", n, a[3], b[3], r[3]);
  }
  return 0;
}
