// Clearing without writing the pages that read as zero already: the 4 KiB pages of private
// anonymous memory that the process never faulted in (or dropped with MADV_DONTNEED) and that
// are not swapped out. The kernel zeroes each when it is first touched, so a clear that leaves
// them alone is exact and saves their faults and writes; the faults happen at first use
// instead, and never for pages never used. docs/design/fresh-memory.md says why and when.
//
// Made of system calls and about 2 KiB of stack, no allocation, no libstdc++ at run time, and
// compiled so that it calls no memset: generated code with untouched=skip calls it, also inside
// a program's memset under the preload. errno is left as it was, and nothing in it is a
// cancellation point (raw system calls). The pagemap's descriptor is open while `zero` writes
// the pages in use: a signal handler that jumps out of a write there leaks it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cjit::detail {

//! Writes zeros to [dst, dst + n).
using ZeroFn = void (*)(void *dst, size_t n);

//! From this size up clear_untouched looks for untouched pages: the look (an open, a read and a
//! close of /proc/self/pagemap where the first page is in use) is a fixed cost, small beside the
//! clear of memory in use only from this size up.
constexpr size_t kUntouchedMin = size_t{256} << 20;

//! The least size a kernel with untouched=skip looks from (its class's bound may be higher):
//! below it one call of the kernel's stores, as without the option, so that the look's fixed
//! cost is never paid for a range of a few pages.
constexpr size_t kUntouchedFloor = size_t{1} << 20;

//! Whether this thread runs under a seccomp filter (prctl PR_GET_SECCOMP; also true where that
//! fails). Under a filter the look's system calls might be refused or fatal, so the preload
//! asks once, at start-up, before a program installs its own filter, and leaves every page to
//! be written in a process that started under one. A filter installed later (a sandboxed
//! renderer) typically refuses or brokers the open, which clear_untouched takes as "write".
bool seccomp_filtered();

//! What /proc/self/smaps says of the mapping that holds an address.
struct Mapping {
  uintptr_t begin = 0, end = 0; //!< [begin, end)
  bool zero_fill = false;       //!< private, anonymous, writable, not userfaultfd, not I/O or PFN
};

//! The mapping holding `address`, or false where there is none or smaps cannot be read.
bool mapping_at(uintptr_t address, Mapping &out);

//! Clears [dst, dst + n) with `zero`, which is called only on the parts that must be written:
//! every page the kernel does not guarantee to read as zero (present, swapped, in a mapping
//! that is not private anonymous and writable, under userfaultfd, locked, a shadow stack, or
//! with a protection key; or where anything cannot be read or the pagemap does not show this
//! thread's stack as present), and every page past the mapping that holds dst. The pagemap is
//! read 128 pages at a time; once a read finds fewer than half of them untouched, the rest is
//! one call of `zero`. Below `min_size`, or where the first 128 pages are mostly in use, one
//! call of `zero` on the whole range; and so without a look when the range is the last one
//! found so (the same table cleared again). Returns the bytes left unwritten.
size_t clear_untouched(ZeroFn zero, void *dst, size_t n, size_t min_size = kUntouchedMin);

//! Forgets the range last found in use (tests; a caller that replaced its mapping).
void forget_in_use();

} // namespace cjit::detail
