// What clearjit does on a CPU without a measured profile: the built-in profile and the default
// small path, from the CPU's features (the evidence: defaults.cpp, docs/design/small-path.md).
#pragma once

#include "jit/model/cpu.hpp"
#include "jit/model/small.hpp"
#include "jit/model/table.hpp"

namespace cjit::detail {

struct Profile;

//! The small path for a profile without [small] (and the built-in), up to 256 bytes: masked
//! where the CPU runs it (AVX512F, AVX512BW, AVX512VL, BMI2), but stosb for reuse on AMD family
//! 26 with ERMS and FSRM; the tree elsewhere.
SmallPath default_small(const CpuInfo &cpu, Intent intent);

//! A profile from the CPU's features and cache sizes, for when no file applies. Reuse: vector
//! stores (avx2:unroll=4, else sse:unroll=4) below 2 KiB, then rep stosb with ERMS (else vector
//! stores), on AMD at every size, elsewhere up to kReuseNontemporalFrom, then non-temporal.
//! Stream: the same up to half the L2, then non-temporal (ntavx2 with AVX, else ntsse).
Profile builtin_profile(const CpuInfo &cpu);

//! Where the built-in's reuse table turns non-temporal on CPUs other than AMD's; a fixed size,
//! not a multiple of a VM's L3 (docs/results/intel-family6-model207/README.md).
inline constexpr uint64_t kReuseNontemporalFrom = 4ull << 20;

} // namespace cjit::detail
