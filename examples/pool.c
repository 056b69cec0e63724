/* The same pool in C, built with pkg-config: clearjit_zero needs no set-up at all. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <clearjit/clearjit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void) {
  const size_t buffer = 2u << 20, count = 64, rounds = 20;
  unsigned char *pool = malloc(buffer * count);
  if (!pool) return 1;
  memset(pool, 0xAB, buffer * count);
  char err[512];
  clearjit *cj = clearjit_open(NULL, err, sizeof err);
  if (!cj) {
    fprintf(stderr, "clearjit_open: %s\n", err);
    return 1;
  }
  printf("profile: %s, kernel for 2 MiB: %s\n", clearjit_profile_source(cj),
         clearjit_kernel_for(cj, CLEARJIT_REUSE, buffer));
  double t0 = now();
  for (size_t r = 0; r < rounds; ++r)
    for (size_t i = 0; i < count; ++i)
      memset(pool + i * buffer, 0, buffer);
  double t1 = now();
  for (size_t r = 0; r < rounds; ++r)
    for (size_t i = 0; i < count; ++i)
      clearjit_clear(cj, pool + i * buffer, buffer);
  double t2 = now();
  clearjit_zero(pool, buffer); /* the process-wide default */
  for (size_t i = 0; i < buffer * count; ++i)
    if (pool[i]) {
      fprintf(stderr, "pool not cleared at %zu\n", i);
      return 1;
    }
  double bytes = (double)buffer * count * rounds;
  printf("memset %.1f GB/s, clearjit %.1f GB/s\n", bytes / (t1 - t0) / 1e9,
         bytes / (t2 - t1) / 1e9);
  clearjit_close(cj);
  free(pool);
  return 0;
}
