// What clearjit does where nothing was measured on the host: the built-in profile and the
// default small path, chosen from the CPU's features and from what was measured on each kind of
// CPU (the evidence is beside each choice in defaults.cpp).
#pragma once

#include "jit/model/cpu.hpp"
#include "jit/model/small.hpp"
#include "jit/model/table.hpp"

namespace cjit::detail {

struct Profile;

//! The small path for a profile without [small] (and the built-in), up to 256 bytes: masked
//! where the CPU runs it (AVX512F, AVX512BW, AVX512VL, BMI2), for reuse stosb instead on AMD
//! family 26 (where FSRM makes a short rep stosb fast); the tree elsewhere.
SmallPath default_small(const CpuInfo &cpu, Intent intent);

//! A profile from the CPU's features and cache sizes, for when no file applies:
//!  reuse:  below 2 KiB vector stores (avx2:unroll=4 with AVX, else sse:unroll=4); then rep stosb
//!          where ERMS makes it fast (vector stores without), on AMD at every size (Zen stops
//!          allocating beyond the L3 by itself), elsewhere up to kReuseNontemporalFrom, then
//!          non-temporal vector stores.
//!  stream: the same up to half the L2, then non-temporal vector stores (ntavx2 with AVX, else
//!          ntsse), which skip the read-for-ownership of every line.
Profile builtin_profile(const CpuInfo &cpu);

//! Where the built-in's reuse table turns non-temporal on CPUs other than AMD's: on the Intel
//! Xeon measured (family 6 model 207) non-temporal stores took 1.13..1.19x memset's speed at
//! 4 MiB, and its tunes turned non-temporal from 2.8 and 8 MiB. Not a multiple of the L3: a VM's
//! CPUID reports the host's (300 MiB there), not the guest's share.
inline constexpr uint64_t kReuseNontemporalFrom = 4ull << 20;

} // namespace cjit::detail
