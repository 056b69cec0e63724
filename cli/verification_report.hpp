// What `clearjit check` says of the [verification] table a tuned profile records.
#pragma once

#include "jit/model/cpu.hpp"
#include "jit/profile/profile.hpp"

#include <optional>
#include <string>

namespace cjit::detail {

//! What `clearjit check` says of a profile's recorded [verification] (recorded_verification):
//! whether the profile was verified on this CPU (its [host] against `cpu`: vendor, family and
//! model, then the features) and the losses it left, one per line; "" when nothing was recorded.
std::string verification_report(const std::optional<RecordedVerification> &v,
                                const ProfileHost &host, const CpuInfo &cpu);

} // namespace cjit::detail
