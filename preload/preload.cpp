// libclearjit-preload.so: LD_PRELOAD it and the program's zero fills (memset(p, 0, n),
// __memset_chk, bzero, explicit_bzero, __explicit_bzero_chk) from CLEARJIT_PRELOAD_MIN bytes up
// go through clearjit's reuse dispatcher (the default profile lookup, as clearjit_zero); smaller
// ones and non-zero fills go to the C library's memset. From 256 MiB up (and where the profile's
// classes say so), the pages of private anonymous memory never faulted in are not written: they
// read as zero already, and the kernel zeroes each at its first touch (untouched=skip,
// jit/pages/untouched.hpp; CLEARJIT_PRELOAD_UNTOUCHED=0 writes them all, the profile's too; =1
// leaves them also in a process that started under a seccomp filter).
//
// This library is small: the interposed calls, one state word and the environment. The code is
// made by libclearjit-preload-generator.so (generator.cpp), which the first zero fill that needs
// it loads from this library's folder, so a process that never clears that much maps neither
// AsmJit nor libstdc++ and pays for no profile lookup. One atomic state word:
//   before      the constructor has not finished (the dynamic loader, libc's start-up and dlsym
//               call memset): libc's memset once dlsym has returned it, `rep stosb` before that;
//   idle        set up, no code yet;
//   generating  one call owns the generation; every other call (other threads, signal handlers,
//               the generator's own memsets) goes to libc, so nothing waits and nothing recurses;
//   ready       the dispatcher exists, read-only from then on;
//   off         everything to libc.
// The owner is the call whose compare-exchange moved idle to generating. It does not generate
// when it may be inside a signal handler (the generator calls malloc and stdio, which the handler
// may have interrupted): it gives the state back and uses libc (maybe_in_handler). Under another
// malloc than glibc's (whose calloc may zero-fill with its lock held), or with
// CLEARJIT_PRELOAD_EAGER=1, the constructor is the owner and generates at start. After fork
// the child inherits the state: ready with the code, idle to generate itself, or generating from
// a parent thread that was generating, which leaves the child on libc.
#include "clearjit/clearjit.h"
#include "jit/model/size_text.hpp"
#include "jit/pages/untouched.hpp"
#include "jit/profile/env_switch.hpp"
#include "jit/runtime/preload_min.hpp"
#include "preload/generator.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__has_feature) // Clang's
#if __has_feature(address_sanitizer)
#define CLEARJIT_PRELOAD_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define CLEARJIT_PRELOAD_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) // GCC's
#define CLEARJIT_PRELOAD_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define CLEARJIT_PRELOAD_TSAN 1
#endif
#if CLEARJIT_PRELOAD_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#if CLEARJIT_PRELOAD_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" {
[[noreturn]] void __chk_fail(void);
void *memset(void *dst, int c, size_t n) noexcept;
void *__memset_chk(void *dst, int c, size_t n, size_t dst_len) noexcept;
void bzero(void *dst, size_t n) noexcept;
void explicit_bzero(void *dst, size_t n) noexcept;
void __explicit_bzero_chk(void *dst, size_t n, size_t dst_len) noexcept;
}

namespace {

using MemsetFn = void *(*)(void *, int, size_t);

enum State : int { before, off, idle, generating, ready };
std::atomic<int> state{before};
std::atomic<MemsetFn> libc_memset{nullptr};
const clearjit *dispatcher = nullptr; // written before state becomes ready (release)
// Written by the constructor, before state leaves before (release).
size_t min_size = cjit::detail::kPreloadMin; // preload_min.hpp says why
bool verbose = false;
// From kUntouchedMin up, pages never faulted in are left to the kernel (untouched.hpp): by
// default unless the process started under a seccomp filter; CLEARJIT_PRELOAD_UNTOUCHED decides
// where it is set. Written by the constructor, as min_size; the generator makes the classes so
// (untouched=skip), and takes the profile's away where it is false.
bool untouched = false;
static_assert(cjit::detail::kUntouchedMin == size_t(256) << 20, "the messages say 256 MiB");

// Claims given back because the owner may have been inside a signal handler. After
// kMaxDeferred of them the preload turns off: each check costs system calls, which a thread that
// keeps such signals blocked would otherwise pay on every large fill. Touched by the owner only.
constexpr int kMaxDeferred = 16;
int deferred = 0;

// True on the thread that generates, whose own fills (AsmJit's, libstdc++'s) are not the
// program's to count. Initial-exec: reading it never allocates, also in a signal handler.
__attribute__((tls_model("initial-exec"))) thread_local bool generating_here = false;

// Counting mode (CLEARJIT_TRACE=FILE, for `clearjit trace`): zero fills by octave of n
// (bucket k holds 2^(k-1) <= n < 2^k; bucket 0 holds n == 0), written to FILE at exit.
bool tracing = false; // written by the constructor, as min_size
char trace_path[4096];
std::atomic<uint64_t> zero_calls[65], zero_bytes[65], fill_calls, fill_bytes;

// Before dlsym has returned libc's memset: one string instruction, correct for every size, and
// inline assembly so that no compiler turns it back into a call to memset.
void *string_fill(void *dst, int c, size_t n) {
  void *d = dst;
  asm volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
  return dst;
}

inline void *libc_fill(void *dst, int c, size_t n) {
  MemsetFn f = libc_memset.load(std::memory_order_acquire);
  return f ? f(dst, c, n) : string_fill(dst, c, n);
}

inline bool counting(int s) { return s != before && tracing && !generating_here; }

inline void count(size_t n) {
  int k = n ? 64 - __builtin_clzll(n) : 0;
  zero_calls[k].fetch_add(1, std::memory_order_relaxed);
  zero_bytes[k].fetch_add(n, std::memory_order_relaxed);
}

// A handler runs with its own signal blocked unless it was installed with SA_NODEFER: so a
// blocked signal that has a handler, or any handler installed with SA_NODEFER, means this call
// may be inside a handler, which may have interrupted malloc or stdio. Async-signal-safe:
// pthread_sigmask, sigismember and sigaction.
bool maybe_in_handler() {
  sigset_t blocked;
  if (pthread_sigmask(SIG_BLOCK, nullptr, &blocked) != 0) return true;
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction sa;
    if (sigaction(sig, nullptr, &sa) != 0 || sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN)
      continue;
    if ((sa.sa_flags & SA_NODEFER) || sigismember(&blocked, sig) == 1) return true;
  }
  return false;
}

// Whether malloc is not the C library's (jemalloc, tcmalloc, the program's own): such a calloc
// may zero-fill through memset with its own lock held, where generating, which allocates, would
// deadlock. glibc's calloc zeroes with its internal memset, which this library never sees.
bool foreign_malloc() {
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  void *own = libc ? dlsym(libc, "malloc") : nullptr;
  if (libc) dlclose(libc);
  return own && dlsym(RTLD_DEFAULT, "malloc") != own;
}

// The generator runs on a stack of its own: the call that needs the code may be on a small one
// (a thread made with a small stack, a coroutine), and the profile lookup takes tens of KiB.
// Pages never touched cost nothing; the lowest is a guard.
constexpr size_t kStackSize = size_t(1) << 20;
ucontext_t caller_context, generator_context; // the owner's only
size_t generating_for;                        // the size of the zero fill that asked for the code
bool generating_at_start;                     // or the constructor did

// Each switch of stacks, told to the sanitizer built in (the sanitizer builds), so that it knows
// which stack runs: AddressSanitizer (an exception thrown in the generator unwinds the
// generator's), ThreadSanitizer (a fiber of the owner's thread). Nothing elsewhere. The owner's
// only: to_generator, then on the generator's stack on_generator ... to_caller, then on_caller.
// The two that switch are inlined into the function that switches right after them, which then
// does not return (run_generator) or returns on the stack it came from (generate): a function's
// entry and exit are on one stack, as ThreadSanitizer's shadow stack of each fiber needs.
#if CLEARJIT_PRELOAD_ASAN
void *caller_fake_stack;
const void *caller_stack;
size_t caller_stack_size;
#endif
#if CLEARJIT_PRELOAD_TSAN
void *caller_fiber, *generator_fiber;
#endif
[[gnu::always_inline]] inline void to_generator([[maybe_unused]] void *stack) {
#if CLEARJIT_PRELOAD_ASAN
  __sanitizer_start_switch_fiber(&caller_fake_stack, stack, kStackSize);
#endif
#if CLEARJIT_PRELOAD_TSAN
  caller_fiber = __tsan_get_current_fiber();
  generator_fiber = __tsan_create_fiber(0);
  __tsan_switch_to_fiber(generator_fiber, 0);
#endif
}
void on_generator() {
#if CLEARJIT_PRELOAD_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &caller_stack, &caller_stack_size);
#endif
}
[[gnu::always_inline]] inline void to_caller() { // the generator's stack is done
#if CLEARJIT_PRELOAD_ASAN
  __sanitizer_start_switch_fiber(nullptr, caller_stack, caller_stack_size);
#endif
#if CLEARJIT_PRELOAD_TSAN
  __tsan_switch_to_fiber(caller_fiber, 0);
#endif
}
void on_caller() {
#if CLEARJIT_PRELOAD_ASAN
  __sanitizer_finish_switch_fiber(caller_fake_stack, nullptr, nullptr);
#endif
#if CLEARJIT_PRELOAD_TSAN
  __tsan_destroy_fiber(generator_fiber);
#endif
}

// The generator, beside this library: in its folder when it was loaded (the loader's $ORIGIN for
// it, whatever the cwd is now), found at start (find_generator). Not "$ORIGIN/..." as dlopen's
// argument where that can be helped: a dlopen interposed on (a sanitizer's runtime's) expands
// $ORIGIN for its own library.
char generator_path[PATH_MAX + sizeof "/" CLEARJIT_PRELOAD_GENERATOR] =
    "$ORIGIN/" CLEARJIT_PRELOAD_GENERATOR;

void find_generator() {
  Dl_info info;
  link_map *self = nullptr;
  char origin[PATH_MAX]; // dlinfo(RTLD_DI_ORIGIN) writes at most PATH_MAX bytes
  if (dladdr1(reinterpret_cast<void *>(&find_generator), &info, reinterpret_cast<void **>(&self),
              RTLD_DL_LINKMAP) != 0 &&
      self && dlinfo(self, RTLD_DI_ORIGIN, origin) == 0)
    std::snprintf(generator_path, sizeof generator_path, "%s/%s", origin,
                  CLEARJIT_PRELOAD_GENERATOR);
}

void run_generator() {
  on_generator();
  generating_here = true;
  timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  void *generator = dlopen(generator_path, RTLD_NOW | RTLD_LOCAL);
  auto make =
      generator
          ? reinterpret_cast<ClearjitPreloadGenerate>(dlsym(generator, "clearjit_preload_generate"))
          : nullptr;
  if (!make) {
    if (verbose) std::fprintf(stderr, "clearjit-preload: off (%s)\n", dlerror());
  } else {
    dispatcher = make(libc_memset.load(), untouched);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (verbose)
      std::fprintf(
          stderr, "clearjit-preload: %s from %zu bytes%s (set up in %.2f ms, %s%zu bytes)\n",
          dispatcher ? "clearjit" : "off (no dispatcher)", min_size, tracing ? ", counting" : "",
          double(t1.tv_sec - t0.tv_sec) * 1e3 + double(t1.tv_nsec - t0.tv_nsec) / 1e6,
          generating_at_start ? "at start, before any fill of " : "at a zero fill of ",
          generating_at_start ? min_size : generating_for);
  }
  generating_here = false;
  to_caller();
  setcontext(&caller_context); // rather than uc_link's return, for the sanitizers (above)
}

// Run by the owner (state generating) for a zero fill of n bytes, or at start (the constructor,
// which no handler runs, whatever handlers are installed); returns the state it leaves. errno is
// the caller's again afterwards, and cancellation is off meanwhile: memset neither changes errno
// nor is a cancellation point, though the lookup's open and read are.
int generate(size_t n, bool at_start) {
  const int saved_errno = errno;
  int next = off;
  if (!at_start && maybe_in_handler()) {
    if (++deferred < kMaxDeferred) {
      next = idle;
    } else if (verbose) {
      static const char msg[] =
          "clearjit-preload: off (at each of 16 zero fills that asked for the code, a handler "
          "may have been running: a handled signal was blocked, or a handler was installed with "
          "SA_NODEFER; CLEARJIT_PRELOAD_EAGER=1 generates the code at start instead)\n";
      ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
      (void)w;
    }
  } else {
    generating_for = n;
    generating_at_start = at_start;
    int cancel_state;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    void *stack = mmap(nullptr, kStackSize, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (stack != MAP_FAILED) {
      if (mprotect(stack, 4096, PROT_NONE) == 0 && getcontext(&generator_context) == 0) {
        generator_context.uc_stack.ss_sp = stack;
        generator_context.uc_stack.ss_size = kStackSize;
        generator_context.uc_link = &caller_context;
        makecontext(&generator_context, run_generator, 0);
        to_generator(stack);
        swapcontext(&caller_context, &generator_context);
        on_caller();
      }
      munmap(stack, kStackSize);
    }
    pthread_setcancelstate(cancel_state, nullptr);
    next = dispatcher ? ready : off;
  }
  state.store(next, std::memory_order_release);
  errno = saved_errno;
  return next;
}

inline void zero(void *dst, size_t n) {
  int s = state.load(std::memory_order_acquire);
  if (counting(s)) count(n);
  if (s >= idle && n >= min_size) {
    if (s == idle && state.compare_exchange_strong(s, generating, std::memory_order_acq_rel))
      s = generate(n, false);
    if (s == ready) {
      clearjit_clear(dispatcher, dst, n); // untouched pages: the dispatcher's classes decide
      return;
    }
  }
  libc_fill(dst, 0, n);
}

// A forked child counts its own fills from zero: the parent's are the parent's to write.
void reset_counts() {
  for (int k = 0; k < 65; ++k) {
    zero_calls[k].store(0, std::memory_order_relaxed);
    zero_bytes[k].store(0, std::memory_order_relaxed);
  }
  fill_calls.store(0, std::memory_order_relaxed);
  fill_bytes.store(0, std::memory_order_relaxed);
}

// An on/off variable as the library's clearjit_env_switch reads it (the same switch_word): unset
// or empty gives `fallback`, and so does anything else, said on stderr (set_up runs once).
bool env_switch(const char *name, bool fallback) {
  const char *v = secure_getenv(name);
  if (!v || !*v) return fallback;
  const int on = cjit::detail::switch_word(v);
  if (on < 0)
    std::fprintf(stderr, "clearjit-preload: %s=%.40s is not on or off (%s), taken as %s\n", name, v,
                 cjit::detail::kSwitchWords, fallback ? "on" : "off");
  return on < 0 ? fallback : on == 1;
}

// The cheap part only: libc's memset and the environment.
__attribute__((constructor)) void set_up() {
  // The next memset in the lookup order: the C library's (dlsym resolves its IFUNC). Memsets
  // called meanwhile (by dlsym's allocations) take rep stosb.
  libc_memset.store(reinterpret_cast<MemsetFn>(dlsym(RTLD_NEXT, "memset")),
                    std::memory_order_release);
  verbose = env_switch("CLEARJIT_VERBOSE", false);
  if (!libc_memset.load() || !env_switch("CLEARJIT_PRELOAD", true)) {
    if (verbose) std::fprintf(stderr, "clearjit-preload: off\n");
    state.store(off, std::memory_order_release);
    return;
  }
  find_generator();
  if (const char *min = secure_getenv("CLEARJIT_PRELOAD_MIN")) {
    // The one size grammar (size_text.hpp), as the library's parse_size reads it.
    uint64_t v = 0;
    const cjit::detail::SizeRead r = cjit::detail::read_size(min, std::strlen(min), &v);
    if (r == cjit::detail::SizeRead::ok)
      min_size = size_t(v);
    else if (verbose)
      std::fprintf(stderr,
                   "clearjit-preload: CLEARJIT_PRELOAD_MIN=%.40s is not a size: %s; using %zu\n",
                   min, cjit::detail::size_read_why(r), min_size);
  }
  // Set, it decides; unset, ask whether a seccomp filter is here (not asked where it is set: a
  // filter may refuse the question fatally).
  untouched = secure_getenv("CLEARJIT_PRELOAD_UNTOUCHED")
                  ? env_switch("CLEARJIT_PRELOAD_UNTOUCHED", true)
                  : !cjit::detail::seccomp_filtered();
  if (const char *t = secure_getenv("CLEARJIT_TRACE");
      t && *t && std::strlen(t) < sizeof trace_path) {
    std::strcpy(trace_path, t);
    tracing = true;
    pthread_atfork(nullptr, nullptr, reset_counts);
  }
  // Unset, the code is generated now where a first large fill could not do it safely: under
  // another malloc than glibc's. Set, it decides.
  const bool foreign = foreign_malloc();
  const bool eager = env_switch("CLEARJIT_PRELOAD_EAGER", foreign);
  if (verbose)
    std::fprintf(stderr, "clearjit-preload: on from %zu bytes%s%s, code generated %s\n", min_size,
                 tracing ? ", counting" : "",
                 untouched ? ", untouched pages left to the kernel from 256 MiB" : "",
                 !eager    ? "at the first zero fill that large"
                 : foreign ? "at start (malloc is not glibc's: its calloc may zero-fill with its "
                             "lock held)"
                           : "at start (CLEARJIT_PRELOAD_EAGER)");
  state.store(idle, std::memory_order_release);
  int s = idle;
  if (eager && state.compare_exchange_strong(s, generating, std::memory_order_acq_rel))
    generate(0, true);
}

// Appends this process's counts to the trace file as one write: "pid PID\n", "zero K CALLS BYTES"
// per non-empty octave, "fill CALLS BYTES" (non-zero fills), "end\n". Children append their own.
__attribute__((destructor)) void write_trace() {
  if (!tracing) return;
  static char buf[8192];
  size_t len = 0;
  auto put = [&](const char *fmt, auto... args) {
    int w = std::snprintf(buf + len, sizeof buf - len, fmt, args...);
    if (w > 0) len = std::min(sizeof buf - 1, len + size_t(w));
  };
  put("pid %ld\n", long(getpid()));
  for (int k = 0; k < 65; ++k)
    if (uint64_t c = zero_calls[k].load())
      put("zero %d %llu %llu\n", k, (unsigned long long)c,
          (unsigned long long)zero_bytes[k].load());
  put("fill %llu %llu\nend\n", (unsigned long long)fill_calls.load(),
      (unsigned long long)fill_bytes.load());
  int fd = open(trace_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  ssize_t w = write(fd, buf, len);
  (void)w;
  close(fd);
}

} // namespace

extern "C" {

void *memset(void *dst, int c, size_t n) noexcept {
  if (static_cast<unsigned char>(c) == 0) {
    zero(dst, n);
    return dst;
  }
  if (counting(state.load(std::memory_order_acquire))) {
    fill_calls.fetch_add(1, std::memory_order_relaxed);
    fill_bytes.fetch_add(n, std::memory_order_relaxed);
  }
  return libc_fill(dst, c, n);
}

void *__memset_chk(void *dst, int c, size_t n, size_t dst_len) noexcept {
  if (dst_len < n) __chk_fail();
  return memset(dst, c, n);
}

void bzero(void *dst, size_t n) noexcept { zero(dst, n); }

void explicit_bzero(void *dst, size_t n) noexcept {
  zero(dst, n);
  asm volatile("" : : "r"(dst) : "memory"); // the stores stay, whatever the caller does next
}

void __explicit_bzero_chk(void *dst, size_t n, size_t dst_len) noexcept {
  if (dst_len < n) __chk_fail();
  explicit_bzero(dst, n);
}

} // extern "C"
