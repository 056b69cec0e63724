/* clearjit: run-time generated memory-clearing kernels for x86-64. */
#ifndef CLEARJIT_CLEARJIT_H
#define CLEARJIT_CLEARJIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! A generated clearing kernel, named by a spec such as "avx2:unroll=4". */
typedef struct clearjit_kernel clearjit_kernel;

/*! Parses `spec`, checks that this CPU can run it and generates its code.
 *  Returns NULL on failure and writes a NUL-terminated message into `err`
 *  (truncated to `err_len` bytes; `err` may be NULL). The one exception to the kernels'
 *  guarantees: `fence=none`, for measurement, leaves a non-temporal or clzero kernel's stores
 *  unfenced (the caller runs `sfence` before publishing the memory); profiles refuse it. */
clearjit_kernel *clearjit_kernel_compile(const char *spec, char *err, size_t err_len);

/*! Zeroes bytes [dst, dst+n). n == 0 touches nothing (dst may then be NULL). */
void clearjit_kernel_clear(const clearjit_kernel *k, void *dst, size_t n);

/*! The kernel's canonical spec. Valid until clearjit_kernel_free. */
const char *clearjit_kernel_spec(const clearjit_kernel *k);

/*! Listing of the generated code (AsmJit syntax, with the encoded bytes). */
const char *clearjit_kernel_asm(const clearjit_kernel *k);

/*! Releases the kernel and its code. NULL is ignored; the other kernel functions need a
 *  kernel (NULL crashes: a clear must never silently not happen). */
void clearjit_kernel_free(clearjit_kernel *k);

/*! What the caller does after clearing: touches the memory soon (reuse), or not (stream).
 *  Stream assumes the destination is mostly not in the caller's cache before the clear either
 *  (memory freshly mapped, pages handed back, a pool recycled over more than the L3): its
 *  kernels may be non-temporal, which finds a destination the caller has just used (hot) in
 *  cache and writes it to memory, slower than memset there. The tuner weighs that hot case into
 *  every stream class (it never gives reuse up to it); a buffer the caller cycles in cache is
 *  reuse. CLEARJIT_STREAM_BATCH names the table of stream clears in a batch (clearjit_batch_*),
 *  for clearjit_kernel_for. */
typedef enum clearjit_intent {
  CLEARJIT_REUSE = 0,
  CLEARJIT_STREAM = 1,
  CLEARJIT_STREAM_BATCH = 2
} clearjit_intent;

/*! A loaded profile with one generated dispatcher per intent, made by clearjit_open only.
 *  A NULL handle (a failed clearjit_open) is safe where it is cheap: clearjit_close ignores it,
 *  clearjit_kernel_for, clearjit_profile_source and clearjit_warnings return "",
 *  clearjit_batches_open returns 0, and clearjit_batch_begin leaves the batch not open (its
 *  pieces are cleared by clearjit_zero, fenced; a debug build asserts). clearjit_clear and
 *  clearjit_clear_stream need a handle (the inline versions load through it): NULL crashes. The
 *  two entry points are public (callers only read them) so that clearjit_clear can be inline:
 *  one load and one indirect call. The library's own state follows them, private. */
struct clearjit {
  void (*clear)(void *dst, size_t n);        /*!< the generated dispatcher for intent reuse */
  void (*clear_stream)(void *dst, size_t n); /*!< the generated dispatcher for intent stream */
};
typedef struct clearjit clearjit;

/*! Loads and validates the profile at `profile_path` and generates its dispatchers.
 *  NULL: the default lookup ($CLEARJIT_PROFILE, $XDG_CONFIG_HOME/clearjit/profile.toml or
 *  ~/.config/clearjit/profile.toml, /etc/clearjit/profile.toml, the installed profiles for this
 *  CPU, then a built-in default). Returns NULL on failure (a profile that cannot be read or is
 *  invalid here, or no memory to read it) with a message in `err` (as clearjit_kernel_compile).
 *  Where no code can be mapped (no executable memory allowed, no memory for the code) it returns
 *  a handle whose entry points call memset, whose clearjit_kernel_for is "libc" and whose
 *  clearjit_warnings say why. */
clearjit *clearjit_open(const char *profile_path, char *err, size_t err_len);

/*! Zeroes [dst, dst+n) for a caller that reuses the memory soon. Reentrant, async-signal-safe. */
void clearjit_clear(const clearjit *cj, void *dst, size_t n);

/*! Zeroes [dst, dst+n) for a caller that does not touch it soon. Reentrant, async-signal-safe. */
void clearjit_clear_stream(const clearjit *cj, void *dst, size_t n);

/*! Stream clears in a batch, fenced once: many pieces cleared with the stream intent and a
 *  single `sfence` at the end, as the kernel clears the subpages of a huge page. Until
 *  clearjit_batch_end the batch's non-temporal stores are weakly ordered: another thread or a
 *  device may see them late, so end the batch before publishing the memory. The profile's
 *  [[dispatch.batch]] table (or, without it, its stream table) chooses the kernels.
 *
 *      clearjit_batch b;
 *      clearjit_batch_begin(&b, cj);
 *      for (i = 0; i < 512; i++) clearjit_batch_clear(&b, page + i * 4096, 4096);
 *      clearjit_batch_end(&b);
 *
 *  C++: cjit::StreamBatch (ends itself); GCC and Clang: CLEARJIT_BATCH(b, cj) (ends at the end
 *  of the scope). A piece given to an ended batch is still cleared, fenced (as
 *  clearjit_clear_stream), and a caller's debug build (NDEBUG not defined) stops there with an
 *  assertion. Async-signal-safe;
 *  one batch belongs to one thread. */
typedef struct clearjit_batch {
  const struct clearjit *cj; /* the handle it was begun on */
  size_t pieces;             /* pieces cleared since begin */
  int open;                  /* 1 from begin to end */
} clearjit_batch;

/*! Opens `b` on `cj`, an open handle (b's previous contents are ignored). End every batch
 *  before closing its handle. `b` must not be NULL here or in the other batch functions. */
void clearjit_batch_begin(clearjit_batch *b, const clearjit *cj);

/*! Zeroes [dst, dst+n) as part of the batch, without a fence. */
void clearjit_batch_clear(clearjit_batch *b, void *dst, size_t n);

/*! One sfence for every piece of the batch; `b` is closed. Returns the number of pieces. */
size_t clearjit_batch_end(clearjit_batch *b);

/*! Batches begun on `cj` and not ended yet (0 for NULL): a check before close or publish. */
size_t clearjit_batches_open(const clearjit *cj);

/*! The canonical spec of the profile's kernel for n bytes and `intent` ("" for NULL). Valid
 *  until close.
 *  Up to the profile's small-path maximum (256 bytes by default) the dispatcher clears with its
 *  own small path whatever the class. */
const char *clearjit_kernel_for(const clearjit *cj, clearjit_intent intent, size_t n);

/*! The path the profile came from, or "built-in" ("" for NULL). */
const char *clearjit_profile_source(const clearjit *cj);

/*! Warnings from loading (e.g. a profile measured on another CPU); "" when none or NULL. */
const char *clearjit_warnings(const clearjit *cj);

/*! Clears [dst, dst+n) on several threads, for huge regions (a VM's memory, a buffer pool):
 *  returns when every byte is zero and ordered, as after clearjit_clear (CLEARJIT_REUSE) or
 *  clearjit_clear_stream (CLEARJIT_STREAM, CLEARJIT_STREAM_BATCH). Pieces are cut on 2 MiB
 *  boundaries, so no huge page is shared between threads, and each is cleared with the handle's
 *  dispatcher; the caller clears one of them. `threads` == 0 takes the profile's choice for the
 *  size ([parallel.<intent>], written by `clearjit tune`; 1 without one), which is 1 below the
 *  table's threshold (its `from`), capped at the CPUs the calling thread may use; another count
 *  is used as asked (at most 256). A region with no 2 MiB boundary to cut at (below 4 MiB) is
 *  the single-thread call whatever `threads` says. The
 *  workers belong to the handle: started on first use (in a child after fork, its own), joined
 *  by clearjit_close; one that cannot be started means fewer threads, never an error. Several
 *  threads may call this on one handle at once. Not async-signal-safe (it may start threads).
 *  `cj` must not be NULL. */
void clearjit_clear_parallel(const clearjit *cj, clearjit_intent intent, void *dst, size_t n,
                             unsigned threads);

/*! The most threads clearjit_clear_parallel(cj, intent, dst, n, 0) uses for n bytes now (fewer
 *  where the region has fewer 2 MiB boundaries or a worker cannot start; 1 for NULL). */
unsigned clearjit_threads_for(const clearjit *cj, clearjit_intent intent, size_t n);

/*! Releases everything, joining the handle's workers. NULL is ignored. Batches on `cj` must
 *  have ended. */
void clearjit_close(clearjit *cj);

/* clearjit_clear and clearjit_clear_stream inline in the caller: one load and one indirect call
 * into the generated dispatcher, instead of a call to the exported function and its indirect
 * jump (faster on small sizes; README, "Small sizes"). The exported functions stay: taking
 * their address, `(clearjit_clear)(cj, dst, n)`, or defining CLEARJIT_NO_INLINE before this
 * header calls them. Each argument is evaluated once. */
#ifndef CLEARJIT_NO_INLINE
#define clearjit_clear(cj, dst, n) ((cj)->clear((dst), (n)))
#define clearjit_clear_stream(cj, dst, n) ((cj)->clear_stream((dst), (n)))
#endif

/*! Process-wide default (intent reuse): opened on first use by the default lookup, falling
 *  back to the built-in default if that file is bad, and to memset where no code can be mapped
 *  (as clearjit_open). Thread-safe; never fails. */
void clearjit_zero(void *dst, size_t n);

#ifdef __cplusplus
}
#endif

/* Debug builds of the caller check batches: a piece or an end for a batch that is not open,
 * and a handle closed while batches on it are open, stop with an assertion. Each argument is
 * evaluated once, as without the checks. */
#if !defined(NDEBUG) && !defined(CLEARJIT_NO_DEBUG_CHECKS)
#include <assert.h>
static inline void clearjit_batch_clear_checked_(clearjit_batch *b, void *dst, size_t n) {
  assert(b->open == 1 && "clearjit_batch_clear: the batch is not open (begin it; was it ended?)");
  (clearjit_batch_clear)(b, dst, n);
}
static inline size_t clearjit_batch_end_checked_(clearjit_batch *b) {
  assert(b->open == 1 && "clearjit_batch_end: the batch is not open (ended twice?)");
  return (clearjit_batch_end)(b);
}
static inline void clearjit_close_checked_(clearjit *cj) {
  assert(clearjit_batches_open(cj) == 0 &&
         "clearjit_close: a batch on this handle is still open (end it first)");
  (clearjit_close)(cj);
}
#define clearjit_batch_clear(b, dst, n) clearjit_batch_clear_checked_((b), (dst), (n))
#define clearjit_batch_end(b) clearjit_batch_end_checked_(b)
#define clearjit_close(cj) clearjit_close_checked_(cj)
#endif

#if defined(__GNUC__) || defined(__clang__)
/*! Declares batch `name` on `cj`, ended (fenced) when the scope is left, however it is left. */
#define CLEARJIT_BATCH(name, cj)                                                                   \
  __attribute__((cleanup(clearjit_batch_end_at_scope_exit))) clearjit_batch name;                  \
  clearjit_batch_begin(&name, (cj))
static inline void clearjit_batch_end_at_scope_exit(clearjit_batch *b) {
  if (b->open) (clearjit_batch_end)(b);
}
#endif

#endif
