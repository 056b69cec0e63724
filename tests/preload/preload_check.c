/* Run under LD_PRELOAD=libclearjit-preload.so: every interposed function at every size in 0..1100
 * and at large sizes, misaligned, with guard bytes; non-zero fills; from threads, from a signal
 * handler and in a forked child. Built with -fno-builtin so every call reaches the library.
 * Exit 0 when everything was cleared (or filled) exactly; with --expect-preload, also checks that
 * memset resolves to libclearjit-preload.so. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

void *__memset_chk(void *dst, int c, size_t n, size_t dst_len);
void __explicit_bzero_chk(void *dst, size_t n, size_t dst_len);

enum { guard = 64 };
static const size_t large[] = {4095, 4096, 4097, 65536 + 3, 1 << 20, (5 << 20) + 11};

/* Fills [dst, dst+n) by the method `how`, then checks it and the guards around it. */
static int check(unsigned char *base, size_t n, size_t off, int how, int value) {
  unsigned char *dst = base + guard + off;
  memset(base, 0xA5, n + off + 2 * guard);
  switch (how) {
  case 0: memset(dst, value, n); break;
  case 1: __memset_chk(dst, value, n, n + guard); break;
  case 2: bzero(dst, n); break;
  case 3: explicit_bzero(dst, n); break;
  case 4: __explicit_bzero_chk(dst, n, n); break;
  }
  unsigned char want = how == 0 || how == 1 ? (unsigned char)value : 0;
  for (size_t i = 0; i < n; ++i)
    if (dst[i] != want)
      return fprintf(stderr, "method %d, n %zu, off %zu: byte %zu\n", how, n, off, i), 1;
  for (size_t i = 0; i < guard + off; ++i)
    if (base[i] != 0xA5) return fprintf(stderr, "method %d, n %zu: wrote before\n", how, n), 1;
  for (size_t i = 0; i < guard; ++i)
    if (dst[n + i] != 0xA5) return fprintf(stderr, "method %d, n %zu: wrote after\n", how, n), 1;
  return 0;
}

static int sweep(int quick) {
  size_t max = large[sizeof large / sizeof large[0] - 1];
  unsigned char *base = malloc(max + 2 * guard + 64);
  if (!base) return 1;
  int bad = 0;
  for (int how = 0; how < 5; ++how) {
    for (size_t n = 0; n <= 1100; n += quick ? 97 : 1)
      bad += check(base, n, n % 61, how, how == 0 ? 0 : 0x100); /* 0x100 fills zero too */
    for (size_t i = 0; i < sizeof large / sizeof large[0]; ++i)
      bad += check(base, large[i], i * 7 % 64, how, 0);
  }
  for (size_t n = 0; n <= 1100; n += quick ? 97 : 13)
    bad += check(base, n, n % 7, 0, 0x5A);
  for (size_t i = 0; i < sizeof large / sizeof large[0]; ++i)
    bad += check(base, large[i], 3, 0, 0xFF);
  free(base);
  return bad;
}

static void *thread_main(void *arg) {
  (void)arg;
  return (void *)(long)sweep(1);
}

static volatile sig_atomic_t handler_bad = -1;
static unsigned char signal_buf[1 << 20];
static void on_signal(int sig) {
  (void)sig;
  memset(signal_buf, 0xEE, sizeof signal_buf);
  memset(signal_buf, 0, sizeof signal_buf);
  int bad = 0;
  for (size_t i = 0; i < sizeof signal_buf; ++i)
    bad |= signal_buf[i];
  handler_bad = bad != 0;
}

/* For `clearjit trace`: a known set of fills. */
static int pattern(void) {
  static unsigned char buf[1 << 20];
  for (int i = 0; i < 3; ++i)
    memset(buf, 0, 100);
  for (int i = 0; i < 2; ++i)
    bzero(buf, 5000);
  explicit_bzero(buf, sizeof buf);
  memset(buf, 7, 300);
  return buf[299] != 7;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--pattern") == 0) return pattern();
  if (argc > 1 && strcmp(argv[1], "--pattern-fork") == 0) { /* the child adds one 100 B fill */
    int rc = pattern();
    pid_t pid = fork();
    if (pid == 0) {
      static unsigned char b[100];
      memset(b, 0, sizeof b);
      exit(0); /* exit handlers: the child's record */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return rc || !WIFEXITED(status) || WEXITSTATUS(status);
  }
  if (argc > 1 && strcmp(argv[1], "--expect-preload") == 0) {
    Dl_info info;
    void *fn = dlsym(RTLD_DEFAULT, "memset");
    if (!fn || !dladdr(fn, &info) || !strstr(info.dli_fname, "libclearjit-preload.so")) {
      fprintf(stderr, "memset is not libclearjit-preload.so's (%s)\n", fn ? info.dli_fname : "?");
      return 1;
    }
  }
  int bad = sweep(0);
  pthread_t t[3];
  for (int i = 0; i < 3; ++i)
    pthread_create(&t[i], NULL, thread_main, NULL);
  for (int i = 0; i < 3; ++i) {
    void *r;
    pthread_join(t[i], &r);
    bad += (int)(long)r;
  }
  signal(SIGUSR1, on_signal);
  raise(SIGUSR1);
  if (handler_bad != 0) fprintf(stderr, "signal handler: not cleared\n"), ++bad;
  pid_t pid = fork();
  if (pid == 0) _exit(sweep(1) != 0);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fprintf(stderr, "forked child failed\n"), ++bad;
  printf("%s\n", bad ? "FAILED" : "ok");
  return bad != 0;
}
