/* Run under LD_PRELOAD=libclearjit-preload.so: every interposed function at every size in 0..1100
 * and at large sizes, misaligned, with guard bytes; non-zero fills; from threads, from a signal
 * handler and in a forked child. Built with -fno-builtin so every call reaches the library.
 * Modes (--small-only, --signal-first, --nodefer, --blocked, --blocked-always, --fork-first,
 * --race, --small-stack, --cancel-pending, --calloc) each make the first large zero fill in one
 * situation for the lazy path (run.sh); --no-exec-pages first installs a seccomp filter under which
 * no code can be mapped (memfd_create and mprotect to PROT_EXEC fail with EPERM), then checks as
 * without it;
 * --untouched clears 300 MiB of new memory (untouched pages left to the kernel) and of a file.
 * Exit 0 when everything was cleared (or filled) exactly; with --expect-preload, also checks that
 * memset resolves to libclearjit-preload.so (memset_is_the_preloads). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
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

/* The lazy path (run.sh reads CLEARJIT_VERBOSE's lines to see which zero fill generated the
 * code): each mode clears a buffer of a size of its own and checks it. */
static unsigned char lazy_buf[1 << 20];
static int cleared(size_t n) {
  memset(lazy_buf, 0x5A, n);
  memset(lazy_buf, 0, n);
  for (size_t i = 0; i < n; ++i)
    if (lazy_buf[i]) return 0;
  return 1;
}

/* Small fills only: nothing to generate. */
static int small_only(void) {
  static unsigned char b[16383];
  for (int i = 0; i < 100; ++i) {
    memset(b, i, sizeof b);
    bzero(b, sizeof b);
  }
  return b[100] != 0;
}

/* The first large clear in a handler (installed without SA_NODEFER, so its signal is blocked
 * while it runs): libc's memset there; 65541 bytes afterwards generate. */
static volatile sig_atomic_t handler_ok;
static void on_usr1(int sig) {
  (void)sig;
  handler_ok = cleared(sizeof lazy_buf);
}
static int signal_first(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction(SIGUSR1, &sa, NULL);
  raise(SIGUSR1);
  return !handler_ok || !cleared(65541);
}

/* A handler installed with SA_NODEFER (its signal not blocked while it runs) clears 64 KiB
 * every 50 us while the main thread allocates and frees for 200 ms: it may interrupt malloc, so
 * it must never generate the code there (it aborted in sysmalloc, 29 runs of 30). */
static unsigned char nodefer_buf[64 << 10];
static volatile sig_atomic_t nodefer_bad, nodefer_calls;
static void on_alarm(int sig) {
  (void)sig;
  memset(nodefer_buf, 0xEE, sizeof nodefer_buf);
  memset(nodefer_buf, 0, sizeof nodefer_buf);
  for (size_t i = 0; i < sizeof nodefer_buf; i += 61)
    nodefer_bad |= nodefer_buf[i];
  nodefer_calls = nodefer_calls + 1;
}
static int nodefer(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_NODEFER | SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval every = {{0, 50}, {0, 50}}, stop = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &every, NULL);
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  void *held[64] = {0};
  unsigned k = 0;
  do {
    for (int i = 0; i < 64; ++i, ++k) {
      free(held[i]);
      held[i] = malloc(16 + (k * 7919u) % (256u << 10)); /* small and large: both arenas' paths */
      if (held[i]) ((volatile char *)held[i])[0] = 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 200000000L);
  setitimer(ITIMER_REAL, &stop, NULL);
  for (int i = 0; i < 64; ++i)
    free(held[i]);
  if (nodefer_calls < 16) fprintf(stderr, "--nodefer: the handler ran %d times\n", nodefer_calls);
  return nodefer_bad || nodefer_calls < 16 || !cleared(70000);
}

/* calloc of sizes the preload takes, each checked zero: under tests/preload/lock_allocator.c,
 * whose calloc zero-fills through memset with its own lock held. */
static int calloc_large(void) {
  static const size_t sizes[] = {100, 20000, 70000, 1 << 20, (3 << 20) + 5};
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
      unsigned char *p = calloc(1, sizes[i]);
      if (!p) return fprintf(stderr, "--calloc: no memory for %zu bytes\n", sizes[i]), 1;
      for (size_t j = 0; j < sizes[i]; ++j)
        if (p[j]) return fprintf(stderr, "--calloc: %zu bytes, byte %zu\n", sizes[i], j), 1;
      memset(p, 0xEE, sizes[i]); /* the next calloc may get these bytes back */
      free(p);
    }
  return 0;
}

/* A handled signal blocked outside its handler looks the same: 70000 bytes do not generate,
 * 70001 after unblocking do. With `always`, 20 clears with it blocked turn the preload off. */
static int blocked(int always) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction(SIGUSR1, &sa, NULL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  int bad = 0;
  for (int i = 0; i < (always ? 20 : 1); ++i)
    bad += !cleared(70000);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  return bad + !cleared(70001);
}

/* A child forked by a multithreaded parent (a thread allocating and filling meanwhile) clears
 * first (81920 bytes), then the parent (81921). */
static atomic_int stop_busy;
static void *busy(void *arg) {
  (void)arg;
  while (!atomic_load(&stop_busy)) {
    void *p = malloc(1000);
    memset(p, 1, 1000);
    free(p);
  }
  return NULL;
}
static int fork_first(void) {
  pthread_t t;
  pthread_create(&t, NULL, busy, NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(!cleared(81920));
  int status = 0;
  waitpid(pid, &status, 0);
  atomic_store(&stop_busy, 1);
  pthread_join(t, NULL);
  return !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !cleared(81921);
}

/* Eight threads race for the first large clear, each its own size (90000 + i): one generates,
 * all are cleared. errno stays as the caller left it (the lookup meets missing files). Then each
 * clears again for 200 ms, before and after the code is there (under ThreadSanitizer: a
 * publication of the code that does not happen before its use is a reported race). */
enum { racers = 8 };
static pthread_barrier_t start;
static unsigned char race_buf[racers][100000];
static void *racer(void *arg) {
  size_t i = (size_t)arg, n = 90000 + i;
  memset(race_buf[i], 0x5A, n);
  pthread_barrier_wait(&start);
  errno = EDOM;
  memset(race_buf[i], 0, n);
  int bad = errno != EDOM;
  for (size_t k = 0; k < n; ++k)
    bad |= race_buf[i][k];
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do {
    race_buf[i][n - 1] = 1;
    memset(race_buf[i], 0, n);
    bad |= race_buf[i][n - 1];
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 200000000L);
  return (void *)(long)bad;
}
static int race(void) {
  pthread_t t[racers];
  pthread_barrier_init(&start, NULL, racers);
  for (long i = 0; i < racers; ++i)
    pthread_create(&t[i], NULL, racer, (void *)i);
  int bad = 0;
  for (int i = 0; i < racers; ++i) {
    void *r;
    pthread_join(t[i], &r);
    bad += (int)(long)r;
  }
  return bad;
}

/* The first large clear on a thread with the smallest stack allowed (the generator has its own). */
static void *small_stack_main(void *arg) {
  (void)arg;
  return (void *)(long)!cleared(100000);
}
static int small_stack(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
  pthread_t t;
  void *r = (void *)1;
  if (pthread_create(&t, &attr, small_stack_main, NULL) == 0) pthread_join(t, &r);
  return (int)(long)r;
}

/* The first large clear on a thread with a cancellation request pending: memset is no
 * cancellation point (the generator's open and read are), so the clear completes and the thread
 * is cancelled at pthread_testcancel, after it. */
static atomic_int go, clear_done;
static void *cancel_main(void *arg) {
  (void)arg;
  while (!atomic_load(&go))
    ; /* no cancellation point while the request arrives */
  atomic_store(&clear_done, cleared(110000));
  pthread_testcancel();
  atomic_store(&clear_done, 0);
  return NULL;
}
static int cancel_pending(void) {
  pthread_t t;
  void *r = NULL;
  pthread_create(&t, NULL, cancel_main, NULL);
  pthread_cancel(t);
  atomic_store(&go, 1);
  pthread_join(t, &r);
  return r != PTHREAD_CANCELED || !atomic_load(&clear_done);
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

/* The KiB of [p, p + n) in memory (Rss in /proc/self/smaps of the mapping that starts at p), or
 * -1. */
static long rss_kib(const void *p) {
  FILE *f = fopen("/proc/self/smaps", "r");
  char line[512];
  long kib = -1;
  int in = 0;
  while (f && fgets(line, sizeof line, f)) {
    unsigned long begin, end;
    if (sscanf(line, "%lx-%lx ", &begin, &end) == 2)
      in = begin == (unsigned long)p;
    else if (in && sscanf(line, "Rss: %ld kB", &kib) == 1)
      break;
  }
  if (f) fclose(f);
  return kib;
}

/* A zero fill of 300 MiB (or `mib`) of new memory with 3 pages written: exact, and it prints "rss
 * KIB" of the memory before it is read back (run.sh: about 12 KiB where untouched pages are left to
 * the kernel, 300 MiB with CLEARJIT_PRELOAD_UNTOUCHED=0). Then the same over a private mapping of a
 * file, whose pages hold the file's bytes until written. */
static int untouched(size_t mib) {
  const size_t n = mib << 20, page = 4096;
  unsigned char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 1;
  madvise(p, n, MADV_NOHUGEPAGE); /* Rss counts the pages written, not their huge pages */
  p[5 * page + 1] = p[1000 * page] = p[n - 1] = 0xa5;
  memset(p, 0, n);
  printf("rss %ld\n", rss_kib(p));
  int bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad |= p[i];
  munmap(p, n);
  int fd = memfd_create("preload-check", MFD_CLOEXEC);
  unsigned char chunk[65536];
  for (size_t i = 0; i < sizeof chunk; ++i)
    chunk[i] = (unsigned char)(i | 1);
  for (size_t at = 0; fd >= 0 && at < n; at += sizeof chunk)
    if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk) return 1;
  p = fd < 0 ? MAP_FAILED : mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) return 1;
  memset(p, 0, n);
  for (size_t i = 0; i < n; ++i)
    bad |= p[i] << 1;
  munmap(p, n);
  close(fd);
  if (bad) fprintf(stderr, "untouched: not cleared (%s)\n", bad & 1 ? "anonymous" : "file");
  return bad != 0;
}

/* memfd_create and mprotect(..., PROT_EXEC) fail with EPERM from now on, in this process and
 * what it starts: no generated code can be mapped, while the loader still maps libraries. */
static int deny_exec_pages(void) {
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_memfd_create, 4, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 0, 2),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
  };
  struct sock_fprog prog = {sizeof f / sizeof f[0], f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    fprintf(stderr, "cannot install the seccomp filter\n");
    return 1;
  }
  return 0;
}

/* Whether memset resolves to libclearjit-preload.so's, or to the interceptor of the runtime named
 * by CLEARJIT_TEST_RUNTIME (a sanitizer's, preloaded first by run.sh) whose next object in the
 * search order, the one its interceptor calls, is libclearjit-preload.so. Says why not. */
static int memset_is_the_preloads(void) {
  const char *runtime = getenv("CLEARJIT_TEST_RUNTIME");
  Dl_info info;
  void *fn = dlsym(RTLD_DEFAULT, "memset");
  const char *name = fn && dladdr(fn, &info) ? info.dli_fname : "?";
  if (runtime && *runtime && strcmp(name, runtime) == 0) {
    struct link_map *m = NULL;
    if (dlinfo(dlopen(NULL, RTLD_NOW), RTLD_DI_LINKMAP, &m) != 0) m = NULL;
    while (m && strcmp(m->l_name, runtime) != 0)
      m = m->l_next;
    name = m && m->l_next ? m->l_next->l_name : "?";
    if (strstr(name, "libclearjit-preload.so")) return 1;
    fprintf(stderr, "memset is the interceptor of %s, whose next library is %s\n", runtime, name);
    return 0;
  }
  if (strstr(name, "libclearjit-preload.so")) return 1;
  fprintf(stderr, "memset is not libclearjit-preload.so's (%s)\n", name);
  return 0;
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int (*run)(void);
  } modes[] = {{"--small-only", small_only},   {"--signal-first", signal_first},
               {"--fork-first", fork_first},   {"--race", race},
               {"--small-stack", small_stack}, {"--cancel-pending", cancel_pending}};
  for (size_t i = 0; argc > 1 && i < sizeof modes / sizeof modes[0]; ++i)
    if (strcmp(argv[1], modes[i].name) == 0) return modes[i].run();
  if (argc > 1 && strcmp(argv[1], "--nodefer") == 0) return nodefer();
  if (argc > 1 && strcmp(argv[1], "--calloc") == 0) return calloc_large();
  if (argc > 1 && strcmp(argv[1], "--blocked") == 0) return blocked(0);
  if (argc > 1 && strcmp(argv[1], "--blocked-always") == 0) return blocked(1);
  if (argc > 1 && strcmp(argv[1], "--pattern") == 0) return pattern();
  if (argc > 1 && strcmp(argv[1], "--untouched") == 0) /* MIB, 300 unless given */
    return untouched(argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 300);
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
  if (argc > 1 && strcmp(argv[1], "--no-exec-pages") == 0 && deny_exec_pages() != 0) return 1;
  if (argc > 1 && strcmp(argv[1], "--expect-preload") == 0 && !memset_is_the_preloads()) return 1;
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
