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

#ifdef __cplusplus
}
#endif

#endif
