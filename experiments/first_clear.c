/* What the first clear of a new table costs, and of what: Stockfish's TranspositionTable::resize
 * (aligned_alloc on 2 MiB, madvise(MADV_HUGEPAGE), one memset), timed in phases, with the
 * kernel's own counters (/proc/vmstat: huge pages faulted or fallen back to 4 KiB, compaction
 * stalls) around the first clear, then the same clear again on the memory now faulted in.
 *
 *   clearjit_first_clear MIB MODE [SETTLE_MS [recycle]]
 *     memset     the first clear is memset (Stockfish)
 *     memset2    memset on two threads, each its half
 *     populate   madvise(MADV_POPULATE_WRITE) faults the table in first, then memset
 *     populate2  the same on two threads, each its half
 *     nohuge     no MADV_HUGEPAGE: 4 KiB pages
 *   SETTLE_MS: sleep this long before allocating, so that memory freed by earlier processes has
 *   been handed back to the host (free page reporting) before the table is allocated.
 *   recycle: before the table, allocate, fault in and free a table of the same size, then allocate
 *   the table at once, so that it likely gets memory the host still backs.
 *
 * Prints one line: mode, ms for alloc, first (fault-in and clear), second clear, and the vmstat
 * deltas over the first, with the KiB the guest reported free to the host over the settle and
 * over the first clear (/sys/module/page_reporting/parameters/reported_kib, where the kernel has
 * it). Run it in fresh processes, several times: the first clear swings. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

static const char *const kCounters[] = {"thp_fault_alloc", "thp_fault_fallback", "compact_stall",
                                        "compact_success", "pgfault"};
enum { kNCounters = sizeof kCounters / sizeof kCounters[0] };

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void vmstat(long long out[kNCounters]) {
  FILE *f = fopen("/proc/vmstat", "r");
  char name[128];
  long long v;
  memset(out, 0, sizeof(long long) * kNCounters);
  if (!f) return;
  while (fscanf(f, "%127s %lld", name, &v) == 2)
    for (int i = 0; i < kNCounters; ++i)
      if (strcmp(name, kCounters[i]) == 0) out[i] = v;
  fclose(f);
}

static long long reported_kib(void) {
  FILE *f = fopen("/sys/module/page_reporting/parameters/reported_kib", "r");
  long long v = -1;
  if (f && fscanf(f, "%lld", &v) != 1) v = -1;
  if (f) fclose(f);
  return v;
}

struct half {
  char *p;
  size_t n;
  int rc;
};

static void *populate(void *arg) {
  struct half *h = arg;
  h->rc = madvise(h->p, h->n, MADV_POPULATE_WRITE);
  return NULL;
}

static void *clear(void *arg) {
  struct half *h = arg;
  memset(h->p, 0, h->n);
  return NULL;
}

/* Runs f on both halves of [p, p + n), one on a new thread; returns nonzero if either failed. */
static int on_two_threads(void *(*f)(void *), char *p, size_t n) {
  struct half h[2] = {{p, n / 2, 0}, {p + n / 2, n - n / 2, 0}};
  pthread_t t;
  if (pthread_create(&t, NULL, f, &h[1]) != 0) return -1;
  f(&h[0]);
  pthread_join(t, NULL);
  return h[0].rc || h[1].rc;
}

int main(int argc, char **argv) {
  static const char *const kModes[] = {"memset", "memset2", "populate", "populate2", "nohuge"};
  int known = 0;
  for (size_t i = 0; argc >= 3 && i < sizeof kModes / sizeof kModes[0]; ++i)
    known |= strcmp(argv[2], kModes[i]) == 0;
  if (argc < 3 || argc > 5 || !known || (argc == 5 && strcmp(argv[4], "recycle") != 0)) {
    fprintf(stderr,
            "usage: %s MIB memset|memset2|populate|populate2|nohuge [SETTLE_MS [recycle]]\n",
            argv[0]);
    return 2;
  }
  const size_t n = (size_t)strtoull(argv[1], NULL, 10) << 20, huge = (size_t)2 << 20;
  const char *mode = argv[2];
  const long settle_ms = argc >= 4 ? strtol(argv[3], NULL, 10) : 0;
  if (n == 0 || n > ((size_t)1 << 40) || settle_ms < 0 || settle_ms > 600000) return 2;
  const long long reported0 = reported_kib();
  if (settle_ms > 0) usleep((useconds_t)settle_ms * 1000);
  if (argc == 5) {
    char *old = aligned_alloc(huge, n);
    if (!old) return 1;
    if (strcmp(mode, "nohuge") != 0) madvise(old, n, MADV_HUGEPAGE);
    memset(old, 1, n);
    free(old);
  }
  const long long reported1 = reported_kib();
  double t0 = now_ms();
  char *p = aligned_alloc(huge, n);
  if (!p) return 1;
  if (strcmp(mode, "nohuge") != 0) madvise(p, n, MADV_HUGEPAGE);
  double t1 = now_ms();
  long long before[kNCounters], after[kNCounters];
  vmstat(before);
  double t2 = now_ms();
  if (strcmp(mode, "populate") == 0) {
    if (madvise(p, n, MADV_POPULATE_WRITE) != 0) perror("MADV_POPULATE_WRITE");
  } else if (strcmp(mode, "populate2") == 0) {
    if (on_two_threads(populate, p, n) != 0) perror("MADV_POPULATE_WRITE");
  }
  double t3 = now_ms();
  if (strcmp(mode, "memset2") == 0) {
    if (on_two_threads(clear, p, n) != 0) perror("pthread_create");
  } else {
    memset(p, 0, n);
  }
  double t4 = now_ms();
  vmstat(after);
  const long long reported2 = reported_kib();
  memset(p, 0, n);
  double t5 = now_ms();
  printf("%-9s alloc %7.1f populate %8.1f clear %8.1f first %8.1f second %7.1f", mode, t1 - t0,
         t3 - t2, t4 - t3, t4 - t2, t5 - t4);
  for (int i = 0; i < kNCounters; ++i)
    printf(" %s %lld", kCounters[i], after[i] - before[i]);
  printf(" reported_kib settle %lld first %lld\n", reported1 - reported0, reported2 - reported1);
  free(p);
  return 0;
}
