// libclearjit-preload.so: LD_PRELOAD it and the program's zero fills (memset(p, 0, n),
// __memset_chk, bzero, explicit_bzero, __explicit_bzero_chk) from CLEARJIT_PRELOAD_MIN bytes up
// go through clearjit's reuse dispatcher (the default profile lookup, as clearjit_zero); smaller
// ones and non-zero fills go to the C library's memset.
//
// States (one atomic word): the dynamic loader and libc start-up call memset before this
// library's constructor has run, and the constructor itself (dlsym, the profile lookup, AsmJit,
// libstdc++) calls memset again. Until the constructor has finished, every call takes the
// fallback: libc's memset once dlsym has returned it, `rep stosb` before that. So nothing here
// ever recurses, and the calls themselves never initialise: they only load the state and call,
// which keeps them async-signal-safe. After fork the child inherits the finished state and the
// generated code (read-only from then on: nothing is generated after the constructor).
#include "clearjit/clearjit.h"
#include "jit/model/spec.hpp"
#include "jit/runtime/runtime.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

enum State : int { before, initialising, ready, off };
std::atomic<int> state{before};
std::atomic<MemsetFn> libc_memset{nullptr};
const clearjit *dispatcher = nullptr;        // written before state becomes ready (release)
size_t min_size = cjit::detail::kPreloadMin; // see runtime.hpp

// Counting mode (CLEARJIT_TRACE=FILE, for `clearjit trace`): zero fills by octave of n
// (bucket k holds 2^(k-1) <= n < 2^k; bucket 0 holds n == 0), written to FILE at exit.
bool tracing = false; // read only in state ready (written before it)
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

inline void count(size_t n) {
  int k = n ? 64 - __builtin_clzll(n) : 0;
  zero_calls[k].fetch_add(1, std::memory_order_relaxed);
  zero_bytes[k].fetch_add(n, std::memory_order_relaxed);
}

inline void zero(void *dst, size_t n) {
  if (state.load(std::memory_order_acquire) == ready) {
    if (tracing) count(n);
    if (n >= min_size) {
      clearjit_clear(dispatcher, dst, n);
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

bool env_is(const char *name, const char *value) {
  const char *v = secure_getenv(name);
  return v && std::strcmp(v, value) == 0;
}

__attribute__((constructor)) void initialise() {
  int expected = before;
  if (!state.compare_exchange_strong(expected, initialising)) return;
  // The next memset in the lookup order: the C library's (dlsym resolves its IFUNC). Memsets
  // called meanwhile (by dlsym's allocations) take rep stosb.
  libc_memset.store(reinterpret_cast<MemsetFn>(dlsym(RTLD_NEXT, "memset")),
                    std::memory_order_release);
  const bool verbose = env_is("CLEARJIT_VERBOSE", "1");
  if (!libc_memset.load() || env_is("CLEARJIT_PRELOAD", "off")) {
    if (verbose) std::fprintf(stderr, "clearjit-preload: off\n");
    state.store(off, std::memory_order_release);
    return;
  }
  if (const char *min = secure_getenv("CLEARJIT_PRELOAD_MIN")) {
    if (auto v = cjit::detail::parse_size(min))
      min_size = *v;
    else if (verbose)
      std::fprintf(stderr, "clearjit-preload: CLEARJIT_PRELOAD_MIN=%s is not a size, using %zu\n",
                   min, min_size);
  }
  if (const char *t = secure_getenv("CLEARJIT_TRACE");
      t && *t && std::strlen(t) < sizeof trace_path) {
    std::strcpy(trace_path, t);
    tracing = true;
    pthread_atfork(nullptr, nullptr, reset_counts);
  }
  timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  try {
    dispatcher = cjit::detail::open_default("clearjit-preload");
  } catch (...) {
    dispatcher = nullptr;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (verbose)
    std::fprintf(stderr, "clearjit-preload: %s from %zu bytes%s (set up in %.2f ms)\n",
                 dispatcher ? "clearjit" : "off (no dispatcher)", min_size,
                 tracing ? ", counting" : "",
                 double(t1.tv_sec - t0.tv_sec) * 1e3 + double(t1.tv_nsec - t0.tv_nsec) / 1e6);
  state.store(dispatcher ? ready : off, std::memory_order_release);
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
  if (state.load(std::memory_order_acquire) == ready && tracing) {
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
