// CPU identification and the features that clearing kernels depend on.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace cjit::detail {

//! A CPU feature a clearing method may need. `none` is a method that runs anywhere.
enum class Feature : uint8_t {
  none,
  sse2,
  avx,
  avx2,
  avx512f,
  erms,
  fsrm,
  fzrm,
  fsrs,
  clzero,
  movdir64b,
  avx512bw, //!< byte-granular masks (vmovdqu8 with a mask)
  avx512vl, //!< EVEX encodings of 128/256-bit operations (xmm16-31, ymm16-31)
  bmi2,     //!< bzhi (a mask of the low n bits in one instruction)
  count_
};

//! Upper-case name as the CPU vendors spell it ("AVX512F"); "" for none.
std::string_view feature_name(Feature f);
//! Lower-case key as written in profiles ("avx512f").
std::string_view feature_key(Feature f);

struct CacheLevel {
  uint64_t size = 0;      //!< bytes, 0 when unknown
  uint32_t shared_by = 0; //!< logical processors sharing it, 0 when unknown
};

struct CpuInfo {
  std::string vendor;  //!< CPUID vendor string, e.g. "AuthenticAMD"
  std::string brand;   //!< brand string, trimmed
  uint32_t family = 0; //!< display family
  uint32_t model = 0;  //!< display model
  uint32_t stepping = 0;
  bool hypervisor = false;
  CacheLevel l1d, l2, l3;
  std::string cache_note; //!< where CPUID and sysfs disagree, what was seen; "" otherwise
  std::array<bool, size_t(Feature::count_)> features{};

  bool has(Feature f) const { return f == Feature::none || features[size_t(f)]; }
  //! Cache sizes to plan with: CPUID's, or 1 MiB (L2) and 32 MiB (L3) where it says nothing.
  uint64_t l2_bytes() const { return l2.size ? l2.size : uint64_t(1) << 20; }
  uint64_t l3_bytes() const { return l3.size ? l3.size : uint64_t(32) << 20; }
  void set(Feature f, bool on = true) { features[size_t(f)] = on; }
};

//! One CPUID leaf's registers.
struct CpuidRegs {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

//! What the CPU description is decoded from: CPUID, XCR0 (the register states the OS saves) and
//! sysfs' caches (index 1..3 for L1d..L3, 0 unused). The host's reads the CPU; tests give
//! recorded leaves of CPUs they do not run on.
struct CpuSource {
  //! CPUID(leaf, subleaf) as the instruction answers, even beyond the highest leaf.
  std::function<CpuidRegs(uint32_t leaf, uint32_t sub)> cpuid;
  uint64_t xcr0 = 0; //!< read only where CPUID says OSXSAVE
  std::array<CacheLevel, 4> sysfs{};
};

//! The CPU that `source` describes.
CpuInfo decode_cpu(const CpuSource &source);
//! Reads CPUID (and sysfs for the cache cross-check) once per call: decode_cpu of the host.
CpuInfo detect_cpu();
//! The CPUs the calling thread may run on now (its affinity mask, not the machine's count; the
//! online count where the mask does not fit a cpu_set_t), at least 1: what
//! clearjit_clear_parallel and the tuner's parallel stage can use.
unsigned usable_cpus();
//! The host CPU, detected once per process (thread-safe).
const CpuInfo &host_cpu();
//! Human-readable multi-line description, as printed by `clearjit cpu`.
std::string describe(const CpuInfo &cpu);

} // namespace cjit::detail
