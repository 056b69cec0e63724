// The built-in default profile: its tables for AMD-like, Intel-like and minimal CPUs, each
// valid, clearing and routing.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "jit/runtime/runtime.hpp"
#include "tests/support/cpu_kinds.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cjit::detail {
namespace {

using namespace test;

CpuInfo amd_like() {
  CpuInfo c;
  c.vendor = "AuthenticAMD";
  c.family = 25;
  c.model = 33;
  for (Feature f :
       {Feature::sse2, Feature::avx, Feature::avx2, Feature::erms, Feature::fsrm, Feature::clzero})
    c.set(f);
  c.l2.size = 512 << 10;
  c.l3.size = 32 << 20;
  return c;
}

CpuInfo intel_like() {
  CpuInfo c;
  c.vendor = "GenuineIntel";
  c.family = 6;
  c.model = 151;
  for (Feature f : {Feature::sse2, Feature::avx, Feature::avx2, Feature::erms})
    c.set(f);
  c.l2.size = 1280 << 10;
  c.l3.size = 30 << 20;
  return c;
}

struct Expected {
  uint64_t below;
  const char *spec; // as runtime.hpp writes it; compared in canonical form
};

//! "" when `table` is exactly `expected`.
std::string table_diff(const std::vector<SizeClass> &table, const std::vector<Expected> &expected) {
  auto show = [](uint64_t below, const std::string &spec) {
    return (below ? "[.." + std::to_string(below) + ") " : "[..) ") + spec;
  };
  std::string got, want;
  for (const SizeClass &c : table)
    got += show(c.below, format_spec(c.kernel)) + " ";
  for (const Expected &e : expected)
    want += show(e.below, format_spec(*parse_spec(e.spec))) + " ";
  return got == want ? "" : "got " + got + "\nwant " + want;
}

//! Well-formed and runnable on `cpu`: increasing bounds, an unbounded last class, every kernel
//! supported, non-temporal kernels fenced, and a dispatcher that generates.
void expect_valid_builtin(const Profile &p, const CpuInfo &cpu) {
  EXPECT_EQ(p.source, "built-in");
  EXPECT_TRUE(same_cpu(p.host, cpu));
  EXPECT_EQ(p.host.features, profile_host(cpu).features);
  for (Intent i : kIntents) {
    const auto &t = p.table(i);
    ASSERT_FALSE(t.empty());
    EXPECT_EQ(t.back().below, 0u) << intent_name(i);
    for (size_t k = 0; k < t.size(); ++k) {
      const std::string spec = format_spec(t[k].kernel);
      EXPECT_EQ(unsupported_reason(t[k].kernel, cpu), "") << intent_name(i) << " " << spec;
      if (t[k].kernel.info().nontemporal) {
        EXPECT_NE(t[k].kernel.fence, Fence::none) << spec;
      }
      if (k + 1 < t.size()) {
        EXPECT_GT(t[k].below, k ? t[k - 1].below : 0) << intent_name(i) << " class " << k;
      }
    }
    // Generated for `cpu` with the small path it gets (default_small: the profile has no
    // [small]), as clearjit_open would there.
    auto g = make_dispatcher(t, cpu, p.small(i, cpu));
    EXPECT_EQ(check_routing(*g, t, p.small(i, cpu).max), "") << intent_name(i);
    // Run it when this machine has every feature `cpu` has (the minimal one always runs).
    bool runs = true;
    for (size_t f = 1; f < size_t(Feature::count_); ++f)
      runs &= !cpu.has(Feature(f)) || host_cpu().has(Feature(f));
    if (runs) {
      const ClearFn fn = g->fn;
      EXPECT_EQ(sweep_sizes(
                    cpu.vendor + " built-in " + std::string(intent_name(i)),
                    [fn](void *d, size_t n) { fn(d, n); }, boundary_sizes({&t}, kClearLimit)),
                0);
    }
  }
}

TEST(defaults_Builtin, AmdLike) {
  const CpuInfo cpu = amd_like();
  const Profile p = builtin_profile(cpu);
  // Zen stops allocating beyond the L3 by itself: stosb at every size for reuse.
  EXPECT_EQ(table_diff(p.reuse, {{2048, "avx2:unroll=4"}, {0, "stosb"}}), "");
  EXPECT_EQ(table_diff(p.table(Intent::stream),
                       {{2048, "avx2:unroll=4"}, {256 << 10, "stosb"}, {0, "ntavx2"}}),
            "");
  expect_valid_builtin(p, cpu);
}

// AMD family 26 (Zen 5) with AVX-512: masked for both intents (reuse's rep stosb lost at cold
// scattered destinations), the same tables.
TEST(defaults_Builtin, Zen5LikeTakesMaskedForBothIntents) {
  CpuInfo cpu = amd_like();
  cpu.family = 26;
  cpu.model = 2;
  for (Feature f : {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::bmi2})
    cpu.set(f);
  const Profile p = builtin_profile(cpu);
  EXPECT_EQ(p.small(Intent::reuse, cpu), (SmallPath{Small::masked, 256}));
  EXPECT_EQ(p.small(Intent::stream, cpu), (SmallPath{Small::masked, 256}));
  // Without AVX-512 (nothing else measured there): memset itself.
  EXPECT_EQ(p.small(Intent::reuse, amd_like()), (SmallPath{Small::libc, 256}));
  expect_valid_builtin(p, cpu);
}

TEST(defaults_Builtin, IntelLike) {
  const CpuInfo cpu = intel_like();
  const Profile p = builtin_profile(cpu);
  // Non-temporal from 128 MiB, not from a multiple of the L3 the CPUID reports (a VM's is its
  // host's).
  EXPECT_EQ(table_diff(p.reuse, {{2048, "avx2:unroll=4"}, {128ull << 20, "stosb"}, {0, "ntavx2"}}),
            "");
  EXPECT_EQ(table_diff(p.table(Intent::stream),
                       {{2048, "avx2:unroll=4"}, {640 << 10, "stosb"}, {0, "ntavx2"}}),
            "");
  expect_valid_builtin(p, cpu);
}

TEST(defaults_Builtin, MinimalSse2WithoutErmsOrCacheSizes) {
  const CpuInfo cpu = minimal_cpu();
  const Profile p = builtin_profile(cpu);
  // Unknown caches: the code assumes a 1 MiB L2 and a 32 MiB L3.
  EXPECT_EQ(
      table_diff(p.reuse, {{2048, "sse:unroll=4"}, {128ull << 20, "sse:unroll=4"}, {0, "ntsse"}}),
      "");
  EXPECT_EQ(table_diff(p.table(Intent::stream),
                       {{2048, "sse:unroll=4"}, {512 << 10, "sse:unroll=4"}, {0, "ntsse"}}),
            "");
  expect_valid_builtin(p, cpu);
}

TEST(defaults_Builtin, AmdWithoutErmsUsesVectorStores) {
  CpuInfo cpu = amd_like();
  cpu.set(Feature::erms, false);
  const Profile p = builtin_profile(cpu);
  EXPECT_EQ(table_diff(p.reuse,
                       {{2048, "avx2:unroll=4"}, {128ull << 20, "avx2:unroll=4"}, {0, "ntavx2"}}),
            "");
  expect_valid_builtin(p, cpu);
}

// Every kind of CPU met: a valid built-in whose reuse table is never non-temporal below the
// largest crossover measured for a buffer the caller just used (90 MiB, Intel family 6 model
// 207: docs/design/tuner.md), and whose small path is memset wherever a strategy lost there.
class defaults_Kinds : public testing::TestWithParam<CpuKind> {};
INSTANTIATE_TEST_SUITE_P(Builtin, defaults_Kinds, testing::ValuesIn(cpu_kinds()),
                         [](const auto &info) { return info.param.name; });
TEST_P(defaults_Kinds, ReuseKeepsHotBuffersAndSmallPathKeepsThePromise) {
  const CpuInfo &cpu = GetParam().info;
  const Profile p = builtin_profile(cpu);
  expect_valid_builtin(p, cpu);
  uint64_t lower = 0;
  for (const SizeClass &c : p.reuse) {
    if (c.kernel.info().nontemporal) {
      EXPECT_GE(lower, 90ull << 20) << format_spec(c.kernel);
    }
    lower = c.below;
  }
  const SmallPath small = p.small(Intent::stream, cpu);
  EXPECT_EQ(small, p.small(Intent::reuse, cpu));
  if (cpu.vendor == "GenuineIntel") { // masked lost cold at 16..48 B there
    EXPECT_EQ(small, (SmallPath{Small::masked, 256, {{64, Small::libc}}}));
  } else if (cpu.has(Feature::avx512bw)) {
    EXPECT_EQ(small, (SmallPath{Small::masked, 256}));
  } else {
    EXPECT_EQ(small, (SmallPath{Small::libc, 256}));
  }
}

// A huge page, cleared in one call (stream) or as one piece of a batch, goes to the built-in's
// non-temporal kernel on every kind of CPU, and with an L2 of 8 MiB, where half the L2 would
// have put 2 MiB on rep stosb's side.
TEST_P(defaults_Kinds, HugePagesStreamNonTemporally) {
  for (uint64_t l2 : {GetParam().info.l2_bytes(), uint64_t(8) << 20}) {
    CpuInfo cpu = GetParam().info;
    cpu.l2.size = l2;
    const Profile p = builtin_profile(cpu);
    const Spec nt = *parse_spec(cpu.has(Feature::avx2) ? "ntavx2" : "ntsse");
    ASSERT_EQ(unsupported_reason(nt, cpu), "");
    for (uint64_t page : kHugePages) {
      EXPECT_EQ(class_for(p.stream, page).kernel, nt) << page << " with an L2 of " << l2;
      EXPECT_EQ(class_for(p.batch_table(), page).kernel, nt) << page << " with an L2 of " << l2;
    }
    // As 4 KiB subpages in a batch, too.
    EXPECT_EQ(class_for(p.batch_table(), 4096).kernel, nt) << "with an L2 of " << l2;
  }
}

} // namespace
} // namespace cjit::detail
