// The one reader of on/off environment variables (CLEARJIT_PRELOAD, CLEARJIT_VERBOSE,
// CLEARJIT_PERF_MAP), alone: libclearjit-preload.so includes it without libstdc++, and the
// library's clearjit_env_switch (jit/profile/files.hpp) wraps it, so both read the same words.
#pragma once

#include <strings.h>

namespace cjit::detail {

//! The words a switch takes, in any case; anything else is the caller's to warn about.
inline constexpr const char *kSwitchWords = "0/1, off/on, no/yes, false/true";

//! 1 for 1, on, yes, true; 0 for 0, off, no, false (in any case); -1 for anything else,
//! the empty string included.
inline int switch_word(const char *text) {
  static const char *const off[] = {"0", "off", "no", "false"};
  static const char *const on[] = {"1", "on", "yes", "true"};
  for (int k = 0; k < 4; ++k) {
    if (strcasecmp(text, off[k]) == 0) return 0;
    if (strcasecmp(text, on[k]) == 0) return 1;
  }
  return -1;
}

} // namespace cjit::detail
