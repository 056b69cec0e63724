// Finding and opening a profile: the default lookup chain and the built-in default.
#pragma once

#include "profile.hpp"

#include <string>
#include <vector>

namespace cjit {

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

//! The profile an open handle was made from (its small paths, tables and source).
const Profile &opened_profile(const clearjit *cj);

} // namespace cjit
