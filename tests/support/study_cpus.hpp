// Synthetic CPUs of the kinds the tuner's reference kernels were first chosen on (Zen 3 to 5,
// Intel with AVX-512 or AVX2, SSE2 only, nothing at all): what the findings' and the candidates'
// tests pin their derived kernels on.
#pragma once

#include "jit/model/cpu.hpp"

#include <initializer_list>
#include <string>
#include <vector>

namespace cjit::detail::test {

inline CpuInfo synthetic_cpu(const char *vendor, uint32_t family, uint32_t model,
                             std::initializer_list<Feature> features) {
  CpuInfo cpu;
  cpu.vendor = vendor;
  cpu.family = family;
  cpu.model = model;
  for (Feature f : features)
    cpu.set(f);
  return cpu;
}

struct StudyCpu {
  std::string name;
  CpuInfo info;
};

inline const std::vector<StudyCpu> &study_cpus() {
  using enum Feature;
  static const std::vector<StudyCpu> cpus{
      {"Zen 3, AVX2 and CLZERO",
       synthetic_cpu("AuthenticAMD", 25, 33, {sse2, avx, avx2, erms, fsrm, clzero, bmi2})},
      {"Zen 4, AVX-512 and CLZERO",
       synthetic_cpu("AuthenticAMD", 25, 97,
                     {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, clzero, bmi2})},
      {"Zen 5, AVX-512 and CLZERO",
       synthetic_cpu("AuthenticAMD", 26, 2,
                     {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, clzero, bmi2})},
      {"Intel, AVX-512 and MOVDIR64B",
       synthetic_cpu("GenuineIntel", 6, 207,
                     {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, movdir64b, bmi2})},
      {"Intel, AVX2 and MOVDIR64B",
       synthetic_cpu("GenuineIntel", 6, 151, {sse2, avx, avx2, erms, fsrm, movdir64b, bmi2})},
      {"SSE2 only", synthetic_cpu("GenuineIntel", 6, 15, {sse2})},
      {"no features at all", synthetic_cpu("", 0, 0, {})},
  };
  return cpus;
}

} // namespace cjit::detail::test
