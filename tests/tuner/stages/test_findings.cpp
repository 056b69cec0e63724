// The studies' reference kernels (findings.cpp), derived from the method table, pinned here on
// synthetic CPUs: the kernels each CPU measured before they were derived.
#include "tests/support/study_cpus.hpp"
#include "tuner/stages/findings.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace cjit::detail::test {
namespace {

struct Expected {
  const char *temporal_reference; //!< the no-allocate study's temporal kernel
  const char *fence_at_end;       //!< the fence study's kernel; its per-chunk variant beside
};

// What each of study_cpus() measured before the kernels were derived, by its name.
const std::map<std::string, Expected> kExpected{
    {"Zen 3, AVX2 and CLZERO", {"avx2", "ntavx2"}},
    {"Zen 4, AVX-512 and CLZERO", {"avx512", "ntavx2"}},
    {"Zen 5, AVX-512 and CLZERO", {"avx512", "ntavx2"}},
    {"Intel, AVX-512 and MOVDIR64B", {"avx512", "ntavx2"}},
    {"Intel, AVX2 and MOVDIR64B", {"avx2", "ntavx2"}},
    {"SSE2 only", {"sse", "ntsse"}},
    {"no features at all", {"mov", "movnti"}},
};

// Each CPU with its expectations.
struct Case {
  const char *cpu;
  const CpuInfo &info;
  const char *temporal_reference, *fence_at_end;
};
std::vector<Case> expected() {
  std::vector<Case> out;
  for (const StudyCpu &c : study_cpus()) {
    const Expected &e = kExpected.at(c.name);
    out.push_back({c.name.c_str(), c.info, e.temporal_reference, e.fence_at_end});
  }
  return out;
}

TEST(findings_TemporalReference, TheSameOnEveryCpu) {
  for (const Case &e : expected())
    EXPECT_EQ(format_spec(temporal_reference(e.info)), e.temporal_reference) << e.cpu;
}

TEST(findings_Studies, NoAllocateSweepsStosbAgainstTheTemporalReference) {
  for (const Case &e : expected()) {
    const Studies studies(e.info, 4096, uint64_t(1) << 30);
    const std::vector<Job> jobs = studies.no_allocate_jobs(4);
    ASSERT_FALSE(jobs.empty()) << e.cpu;
    for (size_t k = 0; k < jobs.size(); ++k)
      EXPECT_EQ(jobs[k].candidate.name(), k % 2 ? e.temporal_reference : "stosb") << e.cpu;
  }
}

TEST(findings_Studies, FenceStudyKernel) {
  for (const Case &e : expected()) {
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
  for (const Case &e : expected()) {
    std::vector<std::string> got;
    for (const Job &j : Studies(e.info, 4096, uint64_t(1) << 30).chunk_jobs())
      got.push_back(j.candidate.name());
    EXPECT_EQ(got, want) << e.cpu;
  }
}

// Each study's jobs measured at 10 GB/s: the findings name the kernels the jobs measured.
TEST(findings_Studies, FindingsNameTheSameKernels) {
  for (const Case &e : expected()) {
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

} // namespace
} // namespace cjit::detail::test
