// Finding and opening a profile: the default lookup chain and the built-in default.
#pragma once

#include "clearjit/clearjit.h"
#include "profile.hpp"

#include <string>
#include <vector>

namespace cjit::detail {

//! A profile derived from the CPU's features and cache sizes, for when no file applies:
//!  reuse:  below 2 KiB vector stores (avx2:unroll=4 with AVX, else sse:unroll=4); then rep stosb
//!          where ERMS makes it fast (on AMD at every size: Zen stops allocating for extents
//!          beyond the L3 by itself; elsewhere up to 4x the L3, then non-temporal vector stores,
//!          since data that large is out of cache when it is read back anyway); without ERMS,
//!          vector stores up to 4x the L3, then non-temporal ones.
//!  stream: the same up to half the L2, then non-temporal vector stores (ntavx2 with AVX, else
//!          ntsse), which skip the read-for-ownership of every line.
Profile builtin_profile(const CpuInfo &cpu);

//! One step of the default lookup, as `clearjit which` prints it.
struct LookupStep {
  std::string step;   //!< "$CLEARJIT_PROFILE", "/etc/clearjit/profile.toml", ...
  std::string path;   //!< the file looked at ("" when the step names none)
  std::string result; //!< "not set", "not found", "another CPU (...)", "invalid: ...", "chosen"
  bool chosen = false;
};

//! Runs the default lookup for `cpu`. The chosen profile is the first valid file for this CPU;
//! a file that exists but is invalid stops the lookup with an error (its steps show why).
//! Without any file, the built-in default.
struct Lookup {
  std::vector<LookupStep> steps;
  Result<Profile> profile;
};
Lookup default_lookup(const CpuInfo &cpu);

//! "AuthenticAMD family 26 model 2": the CPU a profile was measured on, in messages.
std::string other_cpu_text(const ProfileHost &h);

//! libclearjit-preload.so sends zero fills from this size up through clearjit, smaller ones to
//! libc (CLEARJIT_PRELOAD_MIN overrides it). Below it libc's memset was faster, warm, on the
//! development VM (scripts/preload-sizes.sh: 2.5 against 7 ns per call up to 256 B, even from
//! 4 KiB).
inline constexpr size_t kPreloadMin = 16384;

//! What clearjit_zero opens: the default lookup, or the built-in default when the file it finds
//! is bad. Says what and why on stderr when CLEARJIT_VERBOSE=1 ("clearjit: USER uses ...").
//! Returns NULL only when even the built-in default cannot be generated.
clearjit *open_default(const char *user);
//! The profile an open handle was made from (its small paths, tables and source).
const Profile &opened_profile(const clearjit *cj);

} // namespace cjit::detail
