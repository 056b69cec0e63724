// The kernels the tuner measures (tuner/stages/candidates.cpp): each level's candidates, the
// fence study's variant, the widest runnable method of a kind, and what batches are measured
// with on the synthetic CPUs of tests/support/study_cpus.hpp.
#include "tests/support/study_cpus.hpp"
#include "tuner/stages/candidates.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cjit::detail::test {
namespace {

std::vector<std::string> texts(const std::vector<Spec> &specs) {
  std::vector<std::string> out;
  for (const Spec &s : specs)
    out.push_back(format_spec(s));
  return out;
}

bool contains(const std::vector<Spec> &v, const Spec &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(candidates_Level, NamesRoundTrip) {
  for (Level l : {Level::quick, Level::default_, Level::exhaustive})
    EXPECT_EQ(level_by_name(level_name(l)), l) << level_name(l);
  EXPECT_EQ(level_name(Level::default_), "default");
  EXPECT_FALSE(level_by_name("Quick"));
  EXPECT_FALSE(level_by_name(""));
}

TEST(candidates, QuickIsEveryMethodAtItsDefaultsInTableOrder) {
  std::vector<Spec> want;
  for (const MethodInfo &mi : methods())
    want.push_back(default_spec(mi.method));
  EXPECT_EQ(texts(candidates(Level::quick)), texts(want));
}

TEST(candidates, EachLevelHoldsTheOneBeforeWithoutDuplicates) {
  const std::vector<Spec> quick = candidates(Level::quick), def = candidates(Level::default_),
                          all = candidates(Level::exhaustive);
  EXPECT_GT(def.size(), quick.size());
  EXPECT_GT(all.size(), def.size());
  for (const Spec &s : quick)
    EXPECT_TRUE(contains(def, s)) << format_spec(s);
  for (const Spec &s : def)
    EXPECT_TRUE(contains(all, s)) << format_spec(s);
  for (const std::vector<Spec> *v : {&quick, &def, &all}) {
    const std::vector<std::string> t = texts(*v);
    EXPECT_EQ(std::set<std::string>(t.begin(), t.end()).size(), t.size());
  }
}

// The default level's variants of each kind of method: unrolls near the default, the study
// chunks, the fence study's variant, the hot heads and align=64.
TEST(candidates, TheDefaultLevelsVariants) {
  const std::vector<Spec> def = candidates(Level::default_);
  for (const char *text :
       {"avx2:unroll=1", "avx2:unroll=8", "stosb:chunk=4K", "stosq:chunk=32M",
        "movnti:chunk=4K,fence=chunk", "ntavx2:head=2M", "ntavx2:head=8M", "sse:align=64"})
    EXPECT_TRUE(contains(def, *parse_spec(text))) << text;
  for (const char *text : {"avx2:unroll=16", "mov:unroll=1", "mov:align=16"})
    EXPECT_FALSE(contains(def, *parse_spec(text))) << text << ": exhaustive only";
  // Exhaustive: every unroll, and alignments with chunks no method refuses.
  const std::vector<Spec> all = candidates(Level::exhaustive);
  for (unsigned u : kUnrolls) {
    Spec s = default_spec(Method::avx2);
    s.unroll = u;
    EXPECT_TRUE(contains(all, s)) << format_spec(s);
  }
  for (const Spec &s : all)
    EXPECT_TRUE(s.align == 0 || s.align >= s.info().min_align) << format_spec(s);
}

TEST(candidates, TheFenceStudysVariantFencesEvery4KChunk) {
  const Spec s = fenced_per_chunk(*parse_spec("ntavx2:unroll=4"));
  EXPECT_EQ(s.method, Method::ntavx2);
  EXPECT_EQ(s.unroll, 4u) << "the rest of the spec kept";
  EXPECT_EQ(s.chunk, 4096u);
  EXPECT_EQ(s.fence, Fence::chunk);
}

TEST(candidates, TheWidestRunnableOfAKind) {
  const auto nontemporal_moves = [](const MethodInfo &mi) {
    return mi.store == Store::move && mi.nontemporal;
  };
  const auto temporal_moves = [](const MethodInfo &mi) {
    return mi.store == Store::move && !mi.nontemporal;
  };
  const std::map<std::string, std::pair<std::string, std::string>> want{
      // cpu: the widest temporal and non-temporal moves
      {"Zen 3, AVX2 and CLZERO", {"avx2", "ntavx2"}},
      {"Zen 4, AVX-512 and CLZERO", {"avx512", "ntavx512"}},
      {"SSE2 only", {"sse", "ntsse"}},
      {"no features at all", {"mov", "none"}}, // movnti needs SSE2
  };
  const auto text = [](const std::optional<Spec> &s) { return s ? format_spec(*s) : "none"; };
  for (const StudyCpu &c : study_cpus()) {
    auto it = want.find(c.name);
    if (it == want.end()) continue;
    EXPECT_EQ(text(widest_runnable(c.info, temporal_moves)), it->second.first) << c.name;
    EXPECT_EQ(text(widest_runnable(c.info, nontemporal_moves)), it->second.second) << c.name;
  }
}

// The hand list batch_candidates() replaced: memset, rep stosb, the temporal reference, the first
// of ntavx512, ntavx2 and ntsse the CPU runs, then clzero and movdir64b where they run.
TEST(candidates_Batch, TheSameOnEveryCpu) {
  const std::map<std::string, std::vector<std::string>> want{
      {"Zen 3, AVX2 and CLZERO", {"libc", "stosb", "avx2", "ntavx2", "clzero"}},
      {"Zen 4, AVX-512 and CLZERO", {"libc", "stosb", "avx512", "ntavx512", "clzero"}},
      {"Zen 5, AVX-512 and CLZERO", {"libc", "stosb", "avx512", "ntavx512", "clzero"}},
      {"Intel, AVX-512 and MOVDIR64B", {"libc", "stosb", "avx512", "ntavx512", "movdir64b"}},
      {"Intel, AVX2 and MOVDIR64B", {"libc", "stosb", "avx2", "ntavx2", "movdir64b"}},
      {"SSE2 only", {"libc", "stosb", "sse", "ntsse"}},
      {"no features at all", {"libc", "stosb", "mov"}},
  };
  for (const StudyCpu &c : study_cpus())
    EXPECT_EQ(texts(batch_candidates(c.info)), want.at(c.name)) << c.name;
}

} // namespace
} // namespace cjit::detail::test
