// The studies' reference kernels (findings.cpp), derived from the method table, pinned here on
// synthetic CPUs: the kernels each CPU measured before they were derived.
#include "tuner/choose/findings.hpp"
#include "tuner/stages/candidates.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

CpuInfo synthetic_cpu(const char *vendor, uint32_t family, uint32_t model,
                      std::initializer_list<Feature> features) {
  CpuInfo cpu;
  cpu.vendor = vendor;
  cpu.family = family;
  cpu.model = model;
  for (Feature f : features)
    cpu.set(f);
  return cpu;
}

struct Expected {
  const char *cpu;
  CpuInfo info;
  const char *temporal_reference; //!< the no-allocate study's temporal kernel
  const char *fence_at_end;       //!< the fence study's kernel; its per-chunk variant beside
  std::vector<std::string> batch; //!< batch_candidates(), in order
};

const std::vector<Expected> &expected() {
  using enum Feature;
  static const std::vector<Expected> cases{
      {"Zen 3, AVX2 and CLZERO",
       synthetic_cpu("AuthenticAMD", 25, 33, {sse2, avx, avx2, erms, fsrm, clzero, bmi2}),
       "avx2",
       "ntavx2",
       {"libc", "stosb", "avx2", "ntavx2", "clzero"}},
      {"Zen 4, AVX-512 and CLZERO",
       synthetic_cpu("AuthenticAMD", 25, 97,
                     {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, clzero, bmi2}),
       "avx512",
       "ntavx2",
       {"libc", "stosb", "avx512", "ntavx512", "clzero"}},
      {"Zen 5, AVX-512 and CLZERO",
       synthetic_cpu("AuthenticAMD", 26, 2,
                     {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, clzero, bmi2}),
       "avx512",
       "ntavx2",
       {"libc", "stosb", "avx512", "ntavx512", "clzero"}},
      {"Intel, AVX-512 and MOVDIR64B",
       synthetic_cpu("GenuineIntel", 6, 207,
                     {sse2, avx, avx2, avx512f, avx512bw, avx512vl, erms, fsrm, movdir64b, bmi2}),
       "avx512",
       "ntavx2",
       {"libc", "stosb", "avx512", "ntavx512", "movdir64b"}},
      {"Intel, AVX2 and MOVDIR64B",
       synthetic_cpu("GenuineIntel", 6, 151, {sse2, avx, avx2, erms, fsrm, movdir64b, bmi2}),
       "avx2",
       "ntavx2",
       {"libc", "stosb", "avx2", "ntavx2", "movdir64b"}},
      {"SSE2 only",
       synthetic_cpu("GenuineIntel", 6, 15, {sse2}),
       "sse",
       "ntsse",
       {"libc", "stosb", "sse", "ntsse"}},
      {"no features at all",
       synthetic_cpu("", 0, 0, {}),
       "mov",
       "movnti",
       {"libc", "stosb", "mov"}},
  };
  return cases;
}

TEST(findings_TemporalReference, TheSameOnEveryCpu) {
  for (const Expected &e : expected())
    EXPECT_EQ(format_spec(temporal_reference(e.info)), e.temporal_reference) << e.cpu;
}

TEST(findings_Studies, NoAllocateSweepsStosbAgainstTheTemporalReference) {
  for (const Expected &e : expected()) {
    const Studies studies(e.info, 4096, uint64_t(1) << 30);
    const std::vector<Job> jobs = studies.no_allocate_jobs(4);
    ASSERT_FALSE(jobs.empty()) << e.cpu;
    for (size_t k = 0; k < jobs.size(); ++k)
      EXPECT_EQ(jobs[k].candidate.name(), k % 2 ? e.temporal_reference : "stosb") << e.cpu;
  }
}

TEST(findings_Studies, FenceStudyKernel) {
  for (const Expected &e : expected()) {
    const Studies studies(e.info, 4096, uint64_t(1) << 30);
    const std::vector<Job> jobs = studies.fence_jobs();
    ASSERT_EQ(jobs.size(), 6u) << e.cpu << ": at 64 KiB, 2 MiB and 64 MiB";
    for (size_t k = 0; k < jobs.size(); ++k)
      EXPECT_EQ(jobs[k].candidate.name(),
                k % 2 ? std::string(e.fence_at_end) + ":chunk=4K,fence=chunk" : e.fence_at_end)
          << e.cpu;
  }
}

TEST(findings_Studies, ChunkStudyIsTheStringInstructions) {
  const std::vector<std::string> want{"stosb",          "stosb:chunk=4K", "stosb:chunk=64K",
                                      "stosb:chunk=2M", "stosb:chunk=8M", "stosb:chunk=32M",
                                      "stosq",          "stosq:chunk=4K", "stosq:chunk=64K",
                                      "stosq:chunk=2M", "stosq:chunk=8M", "stosq:chunk=32M"};
  for (const Expected &e : expected()) {
    std::vector<std::string> got;
    for (const Job &j : Studies(e.info, 4096, uint64_t(1) << 30).chunk_jobs())
      got.push_back(j.candidate.name());
    EXPECT_EQ(got, want) << e.cpu;
  }
}

// Each study's jobs measured at 10 GB/s: the findings name the kernels the jobs measured.
TEST(findings_Studies, FindingsNameTheSameKernels) {
  for (const Expected &e : expected()) {
    const Studies studies(e.info, 4096, uint64_t(1) << 30);
    std::vector<Measurement> ms;
    for (const auto &jobs : {studies.chunk_jobs(), studies.fence_jobs()})
      for (const Job &j : jobs)
        ms.push_back({.candidate = j.candidate,
                      .size = j.size,
                      .intent = j.intent,
                      .samples = {10},
                      .gbps = 10});
    const Findings f = studies.findings(ms, {}, {});
    EXPECT_EQ(format_spec(f.no_allocate_reference), e.temporal_reference) << e.cpu;
    ASSERT_EQ(f.chunks.size(), 2u) << e.cpu;
    EXPECT_EQ(f.chunks[0].method, "stosb");
    EXPECT_EQ(f.chunks[1].method, "stosq");
    ASSERT_TRUE(f.fence) << e.cpu;
    EXPECT_EQ(f.fence->at_end, e.fence_at_end) << e.cpu;
    EXPECT_EQ(f.fence->per_chunk, std::string(e.fence_at_end) + ":chunk=4K,fence=chunk") << e.cpu;
    EXPECT_EQ(f.fence->gbps.size(), 3u) << e.cpu;
  }
}

// The hand list batch_candidates() replaced: memset, rep stosb, the temporal reference, the first
// of ntavx512, ntavx2 and ntsse the CPU runs, then clzero and movdir64b where they run.
TEST(findings_BatchCandidates, TheSameOnEveryCpu) {
  for (const Expected &e : expected()) {
    std::vector<std::string> got;
    for (const Spec &s : batch_candidates(e.info))
      got.push_back(format_spec(s));
    EXPECT_EQ(got, e.batch) << e.cpu;
  }
}

} // namespace
} // namespace cjit::detail
