// Finding and opening a profile: the default lookup chain and the built-in default.
#pragma once

#include "clearjit/clearjit.h"
#include "jit/profile/defaults.hpp"
#include "jit/profile/profile.hpp"
#include "jit/profile/stand_ins.hpp"
#include "jit/runtime/preload_min.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cjit::detail {

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

//! Of installed profile files (sorted by name), the one the lookup takes for `cpu`: measured on
//! its model, every kernel and small path runnable here, the host's features nearest this
//! CPU's (two profiles of one model coexist: with and without AVX-512); first by name among
//! equals. `skipped`: the files of this model passed over for a feature, and why.
struct InstalledChoice {
  Result<Profile> profile = Result<Profile>::fail("none for this CPU");
  std::vector<std::string> skipped;
};
InstalledChoice choose_installed(const std::vector<std::string> &files, const CpuInfo &cpu);

//! The memset that a profile's memset (libc) classes call in this process, named as a profile's
//! [tuning] libc records it: the C library's own, "glibc 2.36"; another that was interposed on
//! it (an LD_PRELOAD such as AOCL-LibMem), "memset of libaocl-libmem.so under glibc 2.36".
std::string running_memset();

//! Whether open_profile asks if this process runs under a seccomp filter, where the profile
//! leaves untouched pages alone, and then writes them (a look's system calls might be refused or
//! fatal there): `ask`, for the handles a program opens; `decided`, where the caller has (the
//! preload asks once at start, before a program installs its filter).
enum class SeccompCheck : uint8_t { ask, decided };

//! A handle for a profile already loaded (or made, as the tuner's verification makes one): the
//! host warning, memset's classes routed to their stand-ins where `libc` (the running
//! memset's name, running_memset(); tests inject another) is not the profile's
//! (route_to_stand_ins), and the dispatchers' code. nullptr with `error` set when the code is
//! wrong (a small path this CPU cannot run). Where no code can be mapped here (kNoCodeMemory: no
//! executable memory allowed, out of memory), a handle whose entry points call memset, with a
//! warning that says why (on stderr too, once per process, under CLEARJIT_VERBOSE=1).
clearjit *open_profile(Profile p, const CpuInfo &cpu, std::string &error,
                       std::string_view libc = running_memset(),
                       SeccompCheck seccomp = SeccompCheck::ask);
//! Whether `cj`'s entry points are generated code (not memset, as where none can be mapped).
bool has_generated_code(const clearjit *cj);
//! open_profile for what measures generated code (the tuner): nullptr with `error` set where
//! the handle would have none.
clearjit *open_generated(const Profile &p, const CpuInfo &cpu, std::string &error);

//! What clearjit_zero opens: the default lookup, or the built-in default when the file it finds
//! is bad. Says what and why on stderr when CLEARJIT_VERBOSE=1 ("clearjit: USER uses ...").
//! Returns NULL only when not even a handle calling memset can be made (out of memory).
//! `rule`, where given, changes the profile first (the preload's untouched pages).
clearjit *open_default(const char *user, const std::function<void(Profile &)> &rule = {},
                       SeccompCheck seccomp = SeccompCheck::ask);
//! What clearjit_open(NULL) opens for `cpu` (the host's, or a synthetic one in tests): the
//! default lookup's profile; nullptr with `error` set when the lookup stops at an invalid file
//! or the code cannot be made.
clearjit *open_lookup(const CpuInfo &cpu, std::string &error);
//! The profile an open handle was made from (its small paths, tables and source).
const Profile &opened_profile(const clearjit *cj);

} // namespace cjit::detail
