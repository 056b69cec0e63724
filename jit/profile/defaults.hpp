// What clearjit does on a CPU without a measured profile: the built-in profile and the default
// small path, from the CPU's features (the evidence: defaults.cpp, docs/design/small-path.md).
#pragma once

#include "jit/model/cpu.hpp"
#include "jit/model/small.hpp"
#include "jit/model/table.hpp"

namespace cjit::detail {

struct Profile;

//! The small path for a profile without [small] (and the built-in), up to 256 bytes: masked
//! on AMD CPUs that run it (AVX512F, AVX512BW, AVX512VL, BMI2), memset below 64 bytes and masked
//! above on other CPUs that run it, memset itself (Small::libc) elsewhere.
SmallPath default_small(const CpuInfo &cpu, Intent intent);

//! A profile from the CPU's features and cache sizes, for when no file applies. Reuse: vector
//! stores (avx2:unroll=4, else sse:unroll=4) below 2 KiB, then rep stosb with ERMS (else vector
//! stores), on AMD at every size, elsewhere up to kReuseNontemporalFrom, then non-temporal.
//! Stream: the same up to half the L2 (at most 2 MiB: a huge page is non-temporal), then
//! non-temporal (ntavx2 with AVX, else ntsse).
Profile builtin_profile(const CpuInfo &cpu);

//! Where the built-in's reuse table turns non-temporal on CPUs other than AMD's: above every
//! crossover measured for a buffer the caller just used (38..90 MiB on Intel family 6 model 207),
//! about where glibc 2.41's memset turns non-temporal there (131 MiB); a fixed size, not a
//! multiple of the L3 a VM reports (docs/design/tuner.md, the built-in profile).
inline constexpr uint64_t kReuseNontemporalFrom = 128ull << 20;

} // namespace cjit::detail
