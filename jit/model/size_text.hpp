// The one grammar for sizes in text, alone: libclearjit-preload.so includes it without libstdc++
// (CLEARJIT_PRELOAD_MIN), and parse_size (jit/model/size.hpp) wraps it for specs, profiles,
// command lines and sysfs, so every layer reads the same words.
//
// A size is digits, optionally followed by one unit K, M, G or T in either case, optionally
// followed by "iB": 4096, 4K, 4k and 4KiB are all 4096 (units are powers of 1024). Nothing else:
// no sign, space, decimal point or hex; "KB", "MB", ... are refused as decimal-looking.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace cjit::detail {

enum class SizeRead : uint8_t { ok, garbage, overflow, decimal };

//! Reads `len` bytes of `text` as a size; on ok `*out` is the size in bytes, otherwise it is
//! untouched. decimal: digits and a unit followed by "B" or "b" (4KB, 4kb, 4MB).
inline SizeRead read_size(const char *text, size_t len, uint64_t *out) {
  uint64_t v = 0;
  bool overflow = false; // said only once the rest is known to be a size
  size_t i = 0;
  for (; i < len && text[i] >= '0' && text[i] <= '9'; ++i)
    overflow |= __builtin_mul_overflow(v, uint64_t(10), &v) ||
                __builtin_add_overflow(v, uint64_t(text[i] - '0'), &v);
  if (i == 0) return SizeRead::garbage;
  unsigned shift = 0;
  if (i < len) {
    switch (text[i] | 0x20) { // lower case
    case 'k': shift = 10; break;
    case 'm': shift = 20; break;
    case 'g': shift = 30; break;
    case 't': shift = 40; break;
    default: return SizeRead::garbage;
    }
    ++i;
    if (len - i == 1 && (text[i] == 'B' || text[i] == 'b')) return SizeRead::decimal;
    if (len - i == 2 && text[i] == 'i' && text[i + 1] == 'B') i += 2;
    if (i != len) return SizeRead::garbage;
  }
  if (overflow || (shift && v >> (64 - shift))) return SizeRead::overflow;
  *out = v << shift;
  return SizeRead::ok;
}

//! Why `r` is not a size, as a clause to follow "<text> is not a size: "; "" for ok.
inline const char *size_read_why(SizeRead r) {
  switch (r) {
  case SizeRead::ok: return "";
  case SizeRead::overflow: return "does not fit in 64 bits";
  case SizeRead::decimal:
    return "KB, MB and GB look decimal; write 4K or 4KiB: clearjit sizes are powers of 1024";
  case SizeRead::garbage: break;
  }
  return "sizes are digits with an optional K, M, G or T (either case, optionally followed by "
         "iB), e.g. 4096, 4K, 4k or 4KiB";
}

} // namespace cjit::detail
