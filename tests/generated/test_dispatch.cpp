// Dispatchers generated from profiles: they clear every size at every offset through the C API,
// kernel_for names the class, and the branch tree in the machine code routes like class_for
// (also without AVX). First, the clearing checks themselves must catch bad clears.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

using namespace test;

// The checks must catch a clear that stops short, overruns, or starts early.
TEST(dispatch_Sweeper, CatchesBadClears) {
  auto count = [](ClearFunc f) { // away from the guard pages: these clears stray outside
    ::testing::TestPartResultArray reported;
    ::testing::ScopedFakeTestPartResultReporter quiet(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &reported);
    Sweeper s("broken", std::move(f), 1024);
    s.at(300, 1);
    s.at(300, 17);
    return s.failures();
  };
  EXPECT_EQ(count([](void *d, size_t n) { std::memset(d, 0, n); }), 0);
  EXPECT_GT(count([](void *d, size_t n) { std::memset(d, 0, n - 1); }), 0);
  EXPECT_GT(count([](void *d, size_t n) { std::memset(static_cast<uint8_t *>(d) + 1, 0, n); }), 0);
  EXPECT_GT(count([](void *d, size_t n) { std::memset(static_cast<uint8_t *>(d) - 1, 0, n); }), 0);
  EXPECT_GT(count([](void *d, size_t n) {
              std::memset(d, 0, n);
              static_cast<uint8_t *>(d)[n + 40] ^= 1; // a stray store after the range
            }),
            0);
}

struct ProfileCase {
  const char *name;
  std::vector<ClassText> reuse, stream; // stream empty: no dispatch.stream
};
void PrintTo(const ProfileCase &c, std::ostream *os) { *os << c.name; }

// Boundaries at odd places, classes the tree cannot reach (below <= 257), every method.
const ProfileCase kProfiles[] = {
    {"one_class", {{0, "stosb"}}, {}},
    {"mixed",
     {{100, "libc"},
      {256, "clzero"},
      {257, "stosq"},
      {300, "mov"},
      {1000, "sse"},
      {4096, "avx2:unroll=4"},
      {5000, "avx512"},
      {65600, "movnti"},
      {k1M64, "ntsse:chunk=4K,fence=chunk"},
      {k3G, "ntavx2"},
      {0, "ntavx512"}},
     {{333, "ntavx512"},
      {4095, "clzero"},
      {65600, "libc"},
      {k1M64, "stosb"},
      {k3G, "avx2:unroll=4"},
      {0, "clzero:chunk=4K,fence=chunk"}}},
    {"near_small",
     {{1, "stosb"},
      {255, "stosq"},
      {256, "mov"},
      {257, "sse"},
      {258, "avx2"},
      {511, "stosq:align=32"},
      {512, "avx512:unroll=4"},
      {0, "libc"}},
     {{258, "ntavx2"}, {0, "mov:unroll=1,fence=end"}}},
    {"reuse_only",
     {{4096, "mov:unroll=1"},
      {65600, "stosb:chunk=64K"},
      {k1M64, "movnti:unroll=2,chunk=4K,fence=chunk"},
      {0, "sse:align=64"}},
     {}},
};

class dispatch_Profiles : public ::testing::TestWithParam<ProfileCase> {
protected:
  void SetUp() override {
    const ProfileCase &c = GetParam();
    text_ = profile_text(host_cpu(), runnable_all(c.reuse), runnable_all(c.stream));
    path_ = dir_ / (std::string(c.name) + ".toml");
    write_file(path_, text_);
    std::vector<char> err(4096, '\0');
    cj_ = clearjit_open(path_.c_str(), err.data(), err.size());
    ASSERT_NE(cj_, nullptr) << errbuf_text(err) << "\n" << text_;
    auto p = load_profile(path_, host_cpu());
    ASSERT_TRUE(p) << p.error;
    profile_ = *p;
  }
  void TearDown() override { clearjit_close(cj_); }

  ClearFunc clear(Intent i) const {
    const clearjit *cj = cj_;
    if (i == Intent::stream) return [cj](void *d, size_t n) { clearjit_clear_stream(cj, d, n); };
    return [cj](void *d, size_t n) { clearjit_clear(cj, d, n); };
  }
  std::string what(Intent i) const {
    return std::string(GetParam().name) + " " + std::string(intent_name(i));
  }

  TempDir dir_;
  std::string text_, path_;
  clearjit *cj_ = nullptr;
  Profile profile_;
};

TEST_P(dispatch_Profiles, EverySizeUpTo600AtEveryOffset) {
  for (Intent i : kIntents)
    EXPECT_EQ(sweep_exhaustive(what(i), clear(i)), 0) << what(i);
}

TEST_P(dispatch_Profiles, AroundEveryBoundary) {
  const std::vector<uint64_t> sizes = boundary_sizes(
      {&profile_.table(Intent::reuse), &profile_.table(Intent::stream)}, kClearLimit);
  for (Intent i : kIntents)
    EXPECT_EQ(sweep_sizes(what(i), clear(i), sizes), 0) << what(i);
}

// kernel_for names class_for's class for every probe, 0 and SIZE_MAX included.
TEST_P(dispatch_Profiles, KernelForNamesTheClass) {
  for (Intent i : kIntents) {
    const auto &table = profile_.table(i);
    std::vector<uint64_t> probes = routing_probes(table);
    probes.insert(probes.end(), {0, 1, 255});
    for (uint64_t n : probes)
      EXPECT_EQ(clearjit_kernel_for(cj_, clearjit_intent(i), n),
                format_spec(class_for(table, n).kernel))
          << what(i) << " n=" << n;
  }
}

// The generated branch tree (the same code clearjit_open generates) routes sizes far beyond
// what a test can clear, including bounds above INT32_MAX compared through r11.
TEST_P(dispatch_Profiles, BranchTreeRoutesLikeClassFor) {
  for (Intent i : kIntents) {
    auto g = make_dispatcher(profile_.table(i), host_cpu().has(Feature::avx));
    EXPECT_EQ(check_routing(*g, profile_.table(i)), "") << what(i);
  }
}

INSTANTIATE_TEST_SUITE_P(Profiles, dispatch_Profiles, ::testing::ValuesIn(kProfiles),
                         [](const auto &info) { return std::string(info.param.name); });

// Without AVX the dispatcher uses legacy SSE encodings and 16-byte small stores; any x86-64 runs
// it, so it is generated and run here directly (the C API always generates for this CPU).
TEST(dispatch_NoAvx, ClearsAndRoutes) {
  CpuInfo sse_only = host_cpu();
  sse_only.set(Feature::avx, false);
  sse_only.set(Feature::avx2, false);
  sse_only.set(Feature::avx512f, false);
  const std::string text =
      profile_text(host_cpu(), runnable_all({{300, "stosq"},
                                             {1000, "libc"},
                                             {4096, "sse:unroll=2"},
                                             {65600, "mov"},
                                             {k1M64, "ntsse:chunk=4K,fence=chunk"},
                                             {k3G, "movnti"},
                                             {0, "stosb"}}));
  const Profile p = parse_or_throw(text, sse_only);
  auto g = make_dispatcher(p.reuse, false);
  EXPECT_EQ(g->listing.find("ymm"), std::string::npos)
      << "AVX register in a dispatcher for a CPU without AVX";
  EXPECT_EQ(g->listing.find("vzeroupper"), std::string::npos);
  const ClearFn fn = g->fn;
  auto clear = [fn](void *d, size_t n) { fn(d, n); };
  EXPECT_EQ(sweep_exhaustive("sse-only", clear), 0);
  EXPECT_EQ(sweep_sizes("sse-only", clear, boundary_sizes({&p.reuse}, kClearLimit)), 0);
  EXPECT_EQ(check_routing(*g, p.reuse), "");
}

// A class with head=SIZE: its main path in the class tree (the far part, then the hot part by
// temporal stores) clears every size across the head exactly, with and without AVX encodings.
TEST(dispatch_Head, ClearsAcrossTheHead) {
  const char *const kernels[] = {"movnti:head=4K",
                                 "ntsse:align=16,head=8K",
                                 "ntavx2:unroll=4,chunk=4K,fence=chunk,head=12288",
                                 "ntavx512:head=4K",
                                 "clzero:head=8K",
                                 "movdir64b:head=4K"};
  int run = 0;
  for (bool avx : {true, false})
    for (const char *text : kernels) {
      const CpuInfo cpu = host_like(avx);
      const std::vector<SizeClass> table = size_classes({{300, "stosb"}, {0, text}});
      if (!unsupported_reason(table[1].kernel, cpu).empty()) continue;
      const std::string what = std::string(text) + (avx ? "" : " without AVX");
      auto g = make_dispatcher(table, cpu);
      const ClearFn fn = g->fn;
      const uint64_t head = table[1].kernel.head;
      std::vector<uint64_t> sizes;
      for (uint64_t n = head - 160; n <= head + 320; ++n)
        sizes.push_back(n);
      sizes.insert(sizes.end(), {299, 300, 301, head + 4 * 4096 + 1, 1u << 20});
      EXPECT_EQ(sweep_sizes(
                    what, [fn](void *d, size_t n) { fn(d, n); }, sizes),
                0)
          << what;
      EXPECT_EQ(check_routing(*g, table), "") << what;
      ++run;
    }
  EXPECT_GT(run, 0);
}

// The routing check itself must fail on a wrong tree: a dispatcher for other bounds does not
// route like this table.
TEST(dispatch_Tree, CheckCatchesWrongBounds) {
  const CpuInfo cpu = full_cpu();
  const Profile a =
      parse_or_throw(profile_text(full_cpu(), {{4096, "mov"}, {k3G, "sse"}, {0, "stosb"}}), cpu);
  const Profile b = parse_or_throw(
      profile_text(full_cpu(), {{4097, "mov"}, {k3G + 1, "sse"}, {0, "stosb"}}), cpu);
  auto g = make_dispatcher(a.reuse, cpu);
  EXPECT_EQ(check_routing(*g, a.reuse), "");
  const std::string report = check_routing(*g, b.reuse);
  EXPECT_NE(report.find("n=4096 "), std::string::npos) << report;
  EXPECT_NE(report.find("n=3221225472 "), std::string::npos) << report;
}

// Sizes above the small path's max reach the tree through every strategy's compares and
// branches (jb, ja and je as well as jae), at every max.
TEST(dispatch_Tree, RoutesBehindEverySmallPath) {
  const CpuInfo cpu = full_cpu();
  const Profile p =
      parse_or_throw(profile_text(cpu, {{4096, "mov"}, {k3G, "sse"}, {0, "stosb"}}), cpu);
  for (const SmallInfo &s : small_strategies())
    for (unsigned max : kSmallMaxes) {
      auto g = make_dispatcher(p.reuse, cpu, SmallPath{s.strategy, max});
      EXPECT_EQ(check_routing(*g, p.reuse, max), "") << s.name << " up to " << max;
    }
}

// A banded small path clears exactly at every size and offset (each band's strategy, memset's
// band through libc) and routes sizes above max through only its compares: SSE2 strategies, so
// the host runs them whatever it is.
TEST(dispatch_Tree, BandedSmallPathsClearAndRoute) {
  const CpuInfo cpu = minimal_cpu();
  const Profile p =
      parse_or_throw(profile_text(cpu, {{4096, "mov"}, {k3G, "sse"}, {0, "stosb"}}), cpu);
  const SmallPath paths[] = {
      {Small::vec, 256, {{16, Small::tree}, {64, Small::libc}}},
      {Small::libc, 512, {{4, Small::ladder}, {129, Small::vec}}},
      {Small::tree, 1024, {{16, Small::libc}, {64, Small::tree}, {129, Small::libc}}},
  };
  for (const SmallPath &small : paths) {
    ASSERT_EQ(small_bands_error(small), "");
    auto g = make_dispatcher(p.reuse, cpu, small);
    EXPECT_EQ(check_routing(*g, p.reuse, small.max), "") << describe(small);
    std::vector<uint64_t> sizes;
    for (uint64_t n = 0; n <= small.max + 64; ++n)
      sizes.push_back(n);
    const ClearFn fn = g->fn;
    EXPECT_EQ(sweep_sizes(
                  describe(small), [fn](void *d, size_t n) { fn(d, n); }, sizes),
              0);
  }
}

} // namespace
} // namespace cjit::detail
