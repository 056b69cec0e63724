// The one function libclearjit-preload-generator.so exports, for libclearjit-preload.so, which
// loads it (dlopen) at the first zero fill that needs code.
#pragma once

#include "clearjit/clearjit.h"

#include <cstddef>

#define CLEARJIT_PRELOAD_GENERATOR "libclearjit-preload-generator.so"

//! The reuse dispatcher of the default lookup, as clearjit_zero's (the built-in default when
//! the file found is bad; "clearjit: clearjit-preload uses ..." under CLEARJIT_VERBOSE=1), or
//! NULL when no code can be made. `libc_memset` is the C library's memset, which `libc` kernels
//! must call: the memset symbol is the preload's own.
//! untouched: 1, every class from kUntouchedMin up leaves untouched pages to the kernel
//! (untouched=skip), beside those whose profile says so; 0, none does (the preload asked
//! whether a seccomp filter is here at start, or CLEARJIT_PRELOAD_UNTOUCHED decided).
extern "C" const clearjit *clearjit_preload_generate(void *(*libc_memset)(void *, int, size_t),
                                                     int untouched) noexcept;
using ClearjitPreloadGenerate = decltype(&clearjit_preload_generate);
