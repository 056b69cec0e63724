// A profile's memset classes under another C library than the one it was tuned under: each
// takes its stand-in, the generated kernel the tuner recorded beside it, so that a profile
// means the same code under every C library (docs/design/profile-format.md, stand-ins).
#pragma once

#include "jit/profile/profile.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

//! The C library this process runs, as profiles record it ([tuning] libc): "glibc 2.36".
const std::string &running_libc();

//! What route_to_stand_ins did to a profile, for warnings, `clearjit which` and `check`.
struct StandInRouting {
  //! The profile records a C library that is not the running one: its stand-ins serve.
  bool other_libc = false;
  //! The memset classes now served by their stand-in: "reuse 32 MiB .. up: stosb".
  std::vector<std::string> routed;
  //! The memset classes without a stand-in, which run the running C library's memset:
  //! "reuse 0 .. 4 KiB".
  std::vector<std::string> lacking;
  //! One line saying the above ("" where there is nothing to say), without the file's name.
  std::string note;
};

//! Where `running` is not p.libc, every memset class of p's tables takes its stand-in (its
//! kernel becomes the stand-in, with the class's untouched option); a class without one stays
//! memset and is listed as lacking. Where they are the same, or p.libc is unrecorded, nothing
//! changes; the note then names the memset classes of a profile that does not record its C library
//! (what an old profile lacks).
StandInRouting route_to_stand_ins(Profile &p, std::string_view running);

} // namespace cjit::detail
