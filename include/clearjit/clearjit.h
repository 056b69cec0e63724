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
 *  (truncated to `err_len` bytes; `err` may be NULL). */
clearjit_kernel *clearjit_kernel_compile(const char *spec, char *err, size_t err_len);

/*! Zeroes bytes [dst, dst+n). n == 0 touches nothing (dst may then be NULL). */
void clearjit_kernel_clear(const clearjit_kernel *k, void *dst, size_t n);

/*! The kernel's canonical spec. Valid until clearjit_kernel_free. */
const char *clearjit_kernel_spec(const clearjit_kernel *k);

/*! Listing of the generated code (AsmJit syntax, with the encoded bytes). */
const char *clearjit_kernel_asm(const clearjit_kernel *k);

/*! Releases the kernel and its code. NULL is ignored. */
void clearjit_kernel_free(clearjit_kernel *k);

/*! What the caller does after clearing: touches the memory soon (reuse), or not (stream). */
typedef enum clearjit_intent { CLEARJIT_REUSE = 0, CLEARJIT_STREAM = 1 } clearjit_intent;

/*! A loaded profile with one generated dispatcher per intent, made by clearjit_open only. The
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
 *  CPU, then a built-in default). Returns NULL on failure with a message in `err` (as
 *  clearjit_kernel_compile). */
clearjit *clearjit_open(const char *profile_path, char *err, size_t err_len);

/*! Zeroes [dst, dst+n) for a caller that reuses the memory soon. Reentrant, async-signal-safe. */
void clearjit_clear(const clearjit *cj, void *dst, size_t n);

/*! Zeroes [dst, dst+n) for a caller that does not touch it soon. Reentrant, async-signal-safe. */
void clearjit_clear_stream(const clearjit *cj, void *dst, size_t n);

/*! The canonical spec of the profile's kernel for n bytes and `intent`. Valid until close.
 *  Up to the profile's small-path maximum (256 bytes by default) the dispatcher clears with its
 *  own small path whatever the class. */
const char *clearjit_kernel_for(const clearjit *cj, clearjit_intent intent, size_t n);

/*! The path the profile came from, or "built-in". */
const char *clearjit_profile_source(const clearjit *cj);

/*! Warnings from loading (e.g. a profile measured on another CPU); "" when none. */
const char *clearjit_warnings(const clearjit *cj);

/*! Releases everything. NULL is ignored. */
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
 *  back to the built-in default if that file is bad. Thread-safe; never fails. */
void clearjit_zero(void *dst, size_t n);

#ifdef __cplusplus
}
#endif

#endif
