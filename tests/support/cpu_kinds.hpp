// Synthetic CPUs, one of each kind this project's machines have been: features and caches as
// `clearjit cpu` printed them there (docs/results/<cpu>/cpu.txt). Tests of the tuner, the lookup,
// the built-in default and the fleet run over these, so their outcome never depends on the CPU
// that runs them; the host is one more case, whose assertions must hold on any CPU.
#pragma once

#include "jit/model/cpu.hpp"

#include <initializer_list>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace cjit::detail::test {

struct CpuKind {
  std::string name; //!< a test parameter's name: letters, digits and '_' only
  CpuInfo info;
};

inline CpuInfo kind_cpu(const char *vendor, uint32_t family, uint32_t model, uint32_t stepping,
                        uint64_t l2, uint64_t l3, std::initializer_list<Feature> features) {
  CpuInfo c;
  c.vendor = vendor;
  c.brand = std::string(vendor) == "GenuineIntel" ? "Intel(R) Xeon(R) Processor" : "AMD EPYC";
  c.family = family;
  c.model = model;
  c.stepping = stepping;
  c.hypervisor = true;
  c.l1d = {(std::string(vendor) == "GenuineIntel" || family == 26 ? 48u : 32u) << 10, 1};
  c.l2 = {l2, 1};
  c.l3 = {l3, 2};
  for (Feature f : features)
    c.set(f);
  return c;
}

//! An AMD EPYC Zen 3 as CPUID describes it (family 25 model 1: AVX2, ERMS, FSRM, CLZERO; 32 MiB
//! L3), for the tune's tests, whose grid, candidates and golden files must not depend on the CPU
//! that runs them.
inline CpuInfo synthetic_zen3() {
  CpuInfo c;
  c.vendor = "AuthenticAMD";
  c.brand = "synthetic Zen 3";
  c.family = 25;
  c.model = 1;
  c.l1d = {32 << 10, 2};
  c.l2 = {512 << 10, 2};
  c.l3 = {32 << 20, 16};
  for (Feature f : {Feature::sse2, Feature::avx, Feature::avx2, Feature::erms, Feature::fsrm,
                    Feature::clzero, Feature::bmi2})
    c.set(f);
  return c;
}

inline void PrintTo(const CpuKind &k, std::ostream *os) { *os << k.name; }

//! Zen 3, Zen 4, Zen 4 with AVX-512 hidden, Zen 5 with and without MOVDIR64B (L3 508 and 32
//! MiB), Intel family 6 model 207 (Emerald Rapids).
inline const std::vector<CpuKind> &cpu_kinds() {
  using enum Feature;
  constexpr uint64_t K = 1024, M = K * K;
  static const std::vector<CpuKind> kinds{
      {"Zen3", kind_cpu("AuthenticAMD", 25, 1, 1, 512 * K, 32 * M,
                        {sse2, avx, avx2, erms, fsrm, clzero, bmi2})},
      {"Zen4", kind_cpu("AuthenticAMD", 25, 17, 1, 1 * M, 32 * M,
                        {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, clzero, bmi2})},
      {"Zen4NoAvx512", kind_cpu("AuthenticAMD", 25, 17, 1, 1 * M, 32 * M,
                                {sse2, avx, avx2, erms, fsrm, clzero, bmi2})},
      {"Zen5L3_508M", kind_cpu("AuthenticAMD", 26, 2, 1, 1 * M, 508 * M,
                               {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, clzero,
                                movdir64b, bmi2})},
      {"Zen5NoMovdir64b",
       kind_cpu("AuthenticAMD", 26, 2, 1, 1 * M, 32 * M,
                {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, clzero, bmi2})},
      {"IntelEmeraldRapids", kind_cpu("GenuineIntel", 6, 207, 2, 2 * M, 260 * M,
                                      {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm,
                                       fzrm, fsrs, movdir64b, bmi2})},
  };
  return kinds;
}

//! The kind named `name` (a test's own choice of one).
inline const CpuInfo &cpu_kind(const std::string &name) {
  for (const CpuKind &k : cpu_kinds())
    if (k.name == name) return k.info;
  throw std::invalid_argument("no CPU kind " + name);
}

} // namespace cjit::detail::test
