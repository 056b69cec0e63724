// The spec grammar as a contract: canonical round trips, exact refusal messages, refusals for
// missing CPU features (internal, C and C++ APIs), and W^X mappings of generated code.
#include "clearjit/clearjit.hpp"
#include "jit/emit/emit.hpp"
#include "jit/model/size_text.hpp"
#include "tuner/stages/candidates.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace cjit::detail {

// Parameterised and EXPECT_EQ output shows a Spec as its canonical text.
void PrintTo(const Spec &s, std::ostream *os) { *os << format_spec(s); }

namespace {

std::string parse_error(std::string_view text) {
  auto r = parse_spec(text);
  return r ? "<accepted as " + format_spec(*r) + ">" : r.error;
}

std::string canonical(std::string_view text) {
  auto r = parse_spec(text);
  return r ? format_spec(*r) : "<refused: " + r.error + ">";
}

// ---------------------------------------------------------------------------------------------
// Method table

TEST(spec_MethodTable, NamesAndDefaultsAreConsistent) {
  std::set<std::string_view> names;
  for (const MethodInfo &mi : methods()) {
    SCOPED_TRACE(mi.name);
    EXPECT_TRUE(names.insert(mi.name).second) << "duplicate name";
    EXPECT_EQ(&info(mi.method), &mi);
    EXPECT_EQ(method_by_name(mi.name), mi.method);
    const Spec d = default_spec(mi.method);
    EXPECT_EQ(d.unroll != 0, mi.loop) << "only loop methods take unroll";
    EXPECT_EQ(d.fence, mi.nontemporal ? Fence::end : Fence::none);
    EXPECT_GE(d.align, mi.min_align);
    EXPECT_EQ(d.chunk, 0u);
    EXPECT_EQ(format_spec(d), mi.name) << "defaults print as the bare method";
  }
  EXPECT_FALSE(method_by_name("stosw"));
}

// The head option's methods, written here rather than read from the table: the non-temporal
// methods take head=SIZE, each with the temporal method named here; every other method names
// itself. Every method of the table has its line.
TEST(spec_MethodTable, HeadMethods) {
  const std::map<Method, Method> want{
      {Method::stosb, Method::stosb},  {Method::stosq, Method::stosq},
      {Method::mov, Method::mov},      {Method::sse, Method::sse},
      {Method::avx2, Method::avx2},    {Method::avx512, Method::avx512},
      {Method::movnti, Method::mov},   {Method::ntsse, Method::sse},
      {Method::ntavx2, Method::avx2},  {Method::ntavx512, Method::avx512},
      {Method::clzero, Method::stosb}, {Method::movdir64b, Method::stosb},
      {Method::libc, Method::libc},
  };
  for (const MethodInfo &mi : methods()) {
    SCOPED_TRACE(mi.name);
    auto it = want.find(mi.method);
    ASSERT_NE(it, want.end()) << mi.name << ": add its head method to `want` in " << __FILE__;
    EXPECT_EQ(mi.head_method, it->second);
    EXPECT_EQ(mi.takes(kHead), mi.nontemporal);
    EXPECT_EQ(default_spec(mi.method).head, 0u) << "no head by default";
    EXPECT_EQ(mi.takes(kHead), mi.head_method != mi.method)
        << "a method names itself exactly when it takes no head";
    if (!mi.takes(kHead)) continue;
    const MethodInfo &h = info(mi.head_method);
    EXPECT_FALSE(h.nontemporal) << h.name;
    EXPECT_TRUE(h.feature == Feature::none || h.feature == mi.feature)
        << h.name << " needs what " << mi.name << " does not";
  }
}

// ---------------------------------------------------------------------------------------------
// Round trips and normalisation

TEST(spec_RoundTrip, EveryExhaustiveCandidate) {
  const auto all = candidates(Level::exhaustive);
  ASSERT_FALSE(all.empty());
  std::set<std::string> texts;
  for (const Spec &s : all) {
    const std::string text = format_spec(s);
    SCOPED_TRACE(text);
    auto back = parse_spec(text);
    ASSERT_TRUE(back) << back.error;
    EXPECT_EQ(*back, s);
    EXPECT_EQ(format_spec(*back), text);
    EXPECT_TRUE(texts.insert(text).second) << "two candidates print the same";
  }
}

// Every exhaustive candidate of a method that takes head, with heads of one page, an odd number
// of pages and the largest: canonical texts with head last, parsed back to the same spec.
TEST(spec_RoundTrip, EveryCandidateWithAHead) {
  size_t n = 0;
  for (Spec s : candidates(Level::exhaustive)) {
    if (!s.info().takes(kHead)) continue;
    for (uint64_t head : {kHeadUnit, 3 * kHeadUnit, kMaxHead}) {
      s.head = head;
      const std::string text = format_spec(s);
      SCOPED_TRACE(text);
      EXPECT_TRUE(text.ends_with("head=" + format_size(head))) << "head is printed last";
      auto back = parse_spec(text);
      ASSERT_TRUE(back) << back.error;
      EXPECT_EQ(*back, s);
      EXPECT_EQ(format_spec(*back), text);
      ++n;
    }
  }
  EXPECT_GT(n, 100u);
}

// Every combination of option values, valid or not: what the parser accepts prints canonically
// and parses back to the same spec.
TEST(spec_RoundTrip, OptionSweep) {
  const char *unrolls[] = {nullptr, "1", "2", "4", "8", "16"};
  const char *chunks[] = {nullptr, "0", "64", "4096", "4K", "2M", "1G", "64K", "1024G"};
  const char *fences[] = {nullptr, "none", "end", "chunk"};
  const char *aligns[] = {nullptr, "0", "16", "32", "64"};
  const char *heads[] = {nullptr, "0", "4K", "8192", "12K", "1G", "2G", "100"};
  size_t accepted = 0, with_head = 0;
  for (const MethodInfo &mi : methods())
    for (const char *u : unrolls)
      for (const char *c : chunks)
        for (const char *f : fences)
          for (const char *a : aligns)
            for (const char *h : heads) {
              std::string text(mi.name);
              char sep = ':';
              auto add = [&](const char *key, const char *v) {
                if (v) {
                  text += sep + std::string(key) + "=" + v;
                  sep = ',';
                }
              };
              add("unroll", u);
              add("chunk", c);
              add("fence", f);
              add("align", a);
              add("head", h);
              auto s = parse_spec(text);
              if (!s) continue;
              ++accepted;
              with_head += s->head != 0;
              const std::string canon = format_spec(*s);
              SCOPED_TRACE(text + " -> " + canon);
              auto again = parse_spec(canon);
              ASSERT_TRUE(again) << again.error;
              EXPECT_EQ(*again, *s);
              EXPECT_EQ(format_spec(*again), canon);
            }
  EXPECT_GT(accepted, 1000u);
  EXPECT_GT(with_head, 1000u);
}

TEST(spec_Normalise, NonCanonicalInputs) {
  const std::pair<const char *, const char *> cases[] = {
      {"stosb", "stosb"},
      {"libc", "libc"},
      // defaults are omitted
      {"avx2:unroll=2", "avx2"},
      {"movnti:fence=end", "movnti"},
      {"movnti:align=64", "movnti"},
      {"clzero:align=64", "clzero"},
      {"movdir64b:align=64,unroll=1,fence=end", "movdir64b"},
      {"avx2:fence=none,align=0", "avx2"},
      {"stosb:chunk=0", "stosb"},
      {"stosb:chunk=0K", "stosb"},
      // sizes print with the largest exact suffix
      {"stosb:chunk=4096", "stosb:chunk=4K"},
      {"stosb:chunk=4KiB", "stosb:chunk=4K"}, // the one size grammar: K, k, KiB alike
      {"stosb:chunk=4k", "stosb:chunk=4K"},
      {"stosb:chunk=2048K", "stosb:chunk=2M"},
      {"stosb:chunk=1024M", "stosb:chunk=1G"},
      {"stosb:chunk=1048576K", "stosb:chunk=1G"},
      {"stosb:chunk=1024G", "stosb:chunk=1024G"},
      {"stosb:chunk=64", "stosb:chunk=64"},
      {"stosb:chunk=512", "stosb:chunk=512"},
      // leading zeros are plain decimal
      {"avx2:unroll=04", "avx2:unroll=4"},
      {"stosb:chunk=004K", "stosb:chunk=4K"},
      // non-default values stay, including turning a default fence off
      {"movnti:fence=none", "movnti:fence=none"},
      {"ntsse:align=16", "ntsse:align=16"},
      // Options out of order are accepted (the parser tracks each option once, not their
      // order) and printed in grammar order.
      {"avx2:align=64,unroll=4", "avx2:unroll=4,align=64"},
      {"movnti:fence=chunk,chunk=4K", "movnti:chunk=4K,fence=chunk"},
      {"ntavx2:align=64,fence=none,chunk=2M,unroll=8", "ntavx2:unroll=8,chunk=2M,fence=none"},
      {"stosq:align=16,chunk=4096", "stosq:chunk=4K,align=16"},
      // head: a size in whole pages, 0 (none) omitted, printed last
      {"ntavx2:head=8K", "ntavx2:head=8K"},
      {"ntavx2:head=8192", "ntavx2:head=8K"},
      {"ntavx2:head=8k", "ntavx2:head=8K"}, // the one size grammar: K, k, KiB alike
      {"ntavx2:head=8KiB", "ntavx2:head=8K"},
      {"ntavx2:head=0", "ntavx2"},
      {"ntavx2:head=0K", "ntavx2"},
      {"ntavx2:head=12K", "ntavx2:head=12288"},
      {"clzero:head=1048576", "clzero:head=1M"},
      {"ntavx512:head=1G", "ntavx512:head=1G"},
      {"ntavx512:head=1048576K", "ntavx512:head=1G"},
      {"movdir64b:head=4K", "movdir64b:head=4K"},
      {"movnti:head=4K,chunk=4K,fence=chunk", "movnti:chunk=4K,fence=chunk,head=4K"},
      {"ntsse:head=64K,align=16,unroll=8", "ntsse:unroll=8,align=16,head=64K"},
      {"ntavx2:head=4K,fence=end,align=64", "ntavx2:head=4K"},
  };
  for (auto [in, out] : cases)
    EXPECT_EQ(canonical(in), out) << in;
}

TEST(spec_Parse, FieldsOfAFullSpec) {
  auto s = parse_spec("ntavx2:unroll=8,chunk=2M,fence=chunk,align=32");
  ASSERT_TRUE(s) << s.error;
  EXPECT_EQ(s->method, Method::ntavx2);
  EXPECT_EQ(s->unroll, 8u);
  EXPECT_EQ(s->chunk, 2u << 20);
  EXPECT_EQ(s->fence, Fence::chunk);
  EXPECT_EQ(s->align, 32u);
  EXPECT_EQ(s->head, 0u);
  s = parse_spec("ntavx2:unroll=8,chunk=2M,fence=chunk,align=32,head=64K");
  ASSERT_TRUE(s) << s.error;
  EXPECT_EQ(s->head, 64u << 10);
  EXPECT_EQ(parse_spec("ntavx512:head=1G")->head, kMaxHead);
  EXPECT_EQ(parse_spec("movnti:head=4K")->head, kHeadUnit);
  EXPECT_EQ(s->untouched, Untouched::write);
  s = parse_spec("ntavx2:unroll=8,chunk=2M,fence=chunk,align=32,head=64K,untouched=skip");
  ASSERT_TRUE(s) << s.error;
  EXPECT_EQ(s->untouched, Untouched::skip);
  EXPECT_EQ(s->head, 64u << 10);
}

// Every method takes untouched, written last; its default is left out.
TEST(spec_Parse, UntouchedOnEveryMethod) {
  for (const MethodInfo &mi : methods()) {
    SCOPED_TRACE(mi.name);
    EXPECT_TRUE(mi.takes(kUntouched));
    auto s = parse_spec(std::string(mi.name) + ":untouched=skip");
    ASSERT_TRUE(s) << s.error;
    EXPECT_EQ(*s, [&] {
      Spec d = default_spec(mi.method);
      d.untouched = Untouched::skip;
      return d;
    }());
    EXPECT_EQ(format_spec(*s), std::string(mi.name) + ":untouched=skip");
    EXPECT_EQ(format_spec(*parse_spec(std::string(mi.name) + ":untouched=write")), mi.name);
  }
  EXPECT_EQ(format_spec(*parse_spec("movnti:untouched=skip,chunk=4K,fence=chunk")),
            "movnti:chunk=4K,fence=chunk,untouched=skip");
}

// ---------------------------------------------------------------------------------------------
// Refusals: the first offending part is named, with the exact text from spec.cpp.

TEST(spec_Refusal, Messages) {
  const std::string unroll_set = "unroll must be one of 1,2,4,8,16, got ";
  const std::string chunk_rule = "chunk must be 0 or a power of two >= 64, got ";
  // Not a size at all: the one size grammar's reason (jit/model/size_text.hpp).
  const std::string garbage = size_read_why(SizeRead::garbage),
                    decimal = size_read_why(SizeRead::decimal),
                    overflow = size_read_why(SizeRead::overflow);
  auto not_size = [](const std::string &opt, const std::string &why) {
    auto eq = opt.find('=');
    return opt.substr(0, eq) + " '" + opt.substr(eq + 1) + "' is not a size: " + why;
  };
  const std::string fence_set = "fence must be one of none,end,chunk, got ";
  const std::string align_set = "align must be one of 0,16,32,64, got ";
  const std::string head_rule = "head must be 0 or a multiple of 4K up to 1G, got ";
  const std::string temporal = " (its stores are temporal; only the non-temporal methods take a "
                               "head)";
  const std::pair<std::string, std::string> cases[] = {
      // method
      {"", "empty method name in spec ''"},
      {":unroll=4", "empty method name in spec ':unroll=4'"},
      {"stosw", "unknown method 'stosw'"},
      {"stosw:unroll=4", "unknown method 'stosw'"},
      {"AVX2", "unknown method 'AVX2'"},
      {" avx2", "unknown method ' avx2'"},
      {"avx2 :unroll=4", "unknown method 'avx2 '"},
      // option list shape
      {"avx2:", "empty option in spec 'avx2:'"},
      {"avx2:unroll=4,", "empty option in spec 'avx2:unroll=4,'"},
      {"avx2:,unroll=4", "empty option in spec 'avx2:,unroll=4'"},
      {"avx2:unroll=4,,align=64", "empty option in spec 'avx2:unroll=4,,align=64'"},
      {"libc:", "empty option in spec 'libc:'"},
      {"avx2:unroll", "option 'unroll' needs a value (name=value)"},
      // a bare word is reported as a missing value before it is looked up as an option
      {"avx2:bogus", "option 'bogus' needs a value (name=value)"},
      {"avx2:bogus=1", "unknown option 'bogus'"},
      {"avx2:Unroll=4", "unknown option 'Unroll'"},
      {"avx2:=4", "unknown option ''"},
      {"avx2:unroll=4,unroll=4", "option 'unroll' given twice"},
      {"avx2:unroll=4,align=0,unroll=8", "option 'unroll' given twice"},
      {"stosb:chunk=4K,chunk=2M", "option 'chunk' given twice"},
      // unroll
      {"avx2:unroll=3", unroll_set + "3"},
      {"avx2:unroll=0", unroll_set + "0"},
      {"avx2:unroll=32", unroll_set + "32"},
      {"avx2:unroll=-1", unroll_set + "-1"},
      {"avx2:unroll=x", unroll_set + "x"},
      {"avx2:unroll=4x", unroll_set + "4x"},
      {"avx2:unroll= 4", unroll_set + " 4"},
      {"avx2:unroll=", unroll_set},
      {"avx2:unroll=4:align=64", unroll_set + "4:align=64"},
      {"stosb:unroll=4", "unroll does not apply to stosb"},
      {"stosq:unroll=1", "unroll does not apply to stosq"},
      {"libc:unroll=4", "unroll does not apply to libc"},
      {"stosb:unroll=3", "unroll does not apply to stosb"}, // applicability before value
      // chunk
      {"stosb:chunk=100", chunk_rule + "100"},
      {"stosb:chunk=32", chunk_rule + "32"},
      {"stosb:chunk=1", chunk_rule + "1"},
      {"stosb:chunk=96K", chunk_rule + "96K"},
      {"stosb:chunk=4KB", not_size("chunk=4KB", decimal)},
      {"stosb:chunk=4mb", not_size("chunk=4mb", decimal)},
      {"stosb:chunk=K", not_size("chunk=K", garbage)},
      {"stosb:chunk=", not_size("chunk=", garbage)},
      {"stosb:chunk=-4096", not_size("chunk=-4096", garbage)},
      {"stosb:chunk=0x1000", not_size("chunk=0x1000", garbage)},
      {"stosb:chunk=1.5M", not_size("chunk=1.5M", garbage)},
      {"stosb:chunk=99999999999G", not_size("chunk=99999999999G", overflow)},
      {"stosb:chunk=17179869184G", not_size("chunk=17179869184G", overflow)},
      {"stosb:chunk=18446744073709551616", not_size("chunk=18446744073709551616", overflow)},
      {"libc:chunk=4K", "chunk does not apply to libc"},
      // fence
      {"movnti:fence=always", fence_set + "always"},
      {"movnti:fence=END", fence_set + "END"},
      {"movnti:fence=", fence_set},
      {"movnti:fence=end=1", fence_set + "end=1"},
      {"movnti:fence=chunk", "fence=chunk needs a chunk size (chunk=SIZE)"},
      {"movnti:chunk=0,fence=chunk", "fence=chunk needs a chunk size (chunk=SIZE)"},
      {"stosb:fence=chunk", "fence=chunk needs a chunk size (chunk=SIZE)"},
      {"libc:fence=end", "fence does not apply to libc"},
      // align
      {"avx2:align=8", align_set + "8"},
      {"avx2:align=128", align_set + "128"},
      {"avx2:align=", align_set},
      {"ntsse:align=0", "ntsse needs align >= 16 (its stores require aligned addresses), got 0"},
      {"ntavx2:align=16",
       "ntavx2 needs align >= 32 (its stores require aligned addresses), got 16"},
      {"ntavx2:align=0", "ntavx2 needs align >= 32 (its stores require aligned addresses), got 0"},
      {"ntavx512:align=32",
       "ntavx512 needs align >= 64 (its stores require aligned addresses), got 32"},
      {"clzero:align=0", "clzero needs align >= 64 (its stores require aligned addresses), got 0"},
      {"clzero:align=32",
       "clzero needs align >= 64 (its stores require aligned addresses), got 32"},
      {"movdir64b:align=16",
       "movdir64b needs align >= 64 (its stores require aligned addresses), got 16"},
      {"libc:align=64", "align does not apply to libc"},
      // head
      {"avx2:head=1M", "head does not apply to avx2" + temporal},
      {"stosb:head=4K", "head does not apply to stosb" + temporal},
      {"stosq:head=4K", "head does not apply to stosq" + temporal},
      {"mov:head=4K", "head does not apply to mov" + temporal},
      {"sse:head=4K", "head does not apply to sse" + temporal},
      {"avx512:head=0", "head does not apply to avx512" + temporal},
      {"avx2:head=5000", "head does not apply to avx2" + temporal}, // applicability before value
      {"libc:head=4K", "head does not apply to libc"},
      // untouched: every method takes it, with one of two values
      {"stosb:untouched=yes", "untouched must be one of write,skip, got yes"},
      {"libc:untouched=", "untouched must be one of write,skip, got "},
      {"avx2:untouched=skip,untouched=skip", "option 'untouched' given twice"},
      {"avx2:untouched", "option 'untouched' needs a value (name=value)"},
      {"ntavx2:head=5000", head_rule + "5000"},
      {"ntavx2:head=1", head_rule + "1"},
      {"ntavx2:head=64", head_rule + "64"},
      {"ntavx2:head=2K", head_rule + "2K"},
      {"ntavx2:head=6K", head_rule + "6K"},
      {"ntavx2:head=4097", head_rule + "4097"},
      {"ntavx2:head=2G", head_rule + "2G"},
      {"ntavx2:head=1025M", head_rule + "1025M"},
      {"ntavx2:head=1073745920", head_rule + "1073745920"}, // 1 GiB + 4 KiB
      {"ntavx2:head=17179869184G", not_size("head=17179869184G", overflow)},
      {"ntavx2:head=4KB", not_size("head=4KB", decimal)},
      {"ntavx2:head=-4K", not_size("head=-4K", garbage)},
      {"ntavx2:head=", not_size("head=", garbage)},
      {"ntavx2:head", "option 'head' needs a value (name=value)"},
      {"ntavx2:Head=4K", "unknown option 'Head'"},
      {"ntavx2:head=4K,head=8K", "option 'head' given twice"},
      {"movnti:head=4K,fence=chunk", "fence=chunk needs a chunk size (chunk=SIZE)"},
      // the first offending option wins
      {"avx2:unroll=3,bogus=1", unroll_set + "3"},
      {"avx2:bogus=1,unroll=3", "unknown option 'bogus'"},
  };
  for (const auto &[spec, message] : cases)
    EXPECT_EQ(parse_error(spec), message) << "spec: '" << spec << "'";
}

// ---------------------------------------------------------------------------------------------
// CPU refusals

// What each method must be refused for ("": nothing, it runs anywhere); the table in spec.cpp
// should agree. Every method of the table has its line.
const std::pair<Method, std::string_view> kNeeds[] = {
    {Method::stosb, ""},        {Method::stosq, ""},
    {Method::mov, ""},          {Method::sse, "SSE2"},
    {Method::avx2, "AVX2"},     {Method::avx512, "AVX512F"},
    {Method::movnti, "SSE2"},   {Method::ntsse, "SSE2"},
    {Method::ntavx2, "AVX2"},   {Method::ntavx512, "AVX512F"},
    {Method::clzero, "CLZERO"}, {Method::movdir64b, "MOVDIR64B"},
    {Method::libc, ""},
};

CpuInfo cpu_with_everything() {
  CpuInfo cpu;
  for (size_t f = 1; f < size_t(Feature::count_); ++f)
    cpu.set(Feature(f));
  return cpu;
}

TEST(spec_CpuRefusal, FeatureTableMatchesExpectation) {
  for (const MethodInfo &mi : methods()) {
    auto it = std::find_if(std::begin(kNeeds), std::end(kNeeds),
                           [&](auto &p) { return p.first == mi.method; });
    ASSERT_NE(it, std::end(kNeeds)) << mi.name << ": add what it needs to kNeeds in " << __FILE__;
    EXPECT_EQ(feature_name(mi.feature), it->second) << mi.name;
  }
}

TEST(spec_CpuRefusal, MissingFeatureIsRefusedWithoutCode) {
  for (const MethodInfo &mi : methods()) {
    if (mi.feature == Feature::none) continue;
    SCOPED_TRACE(mi.name);
    const Spec s = default_spec(mi.method);
    CpuInfo lacking = cpu_with_everything();
    lacking.set(mi.feature, false);
    const std::string why = std::string(mi.name) + " needs " +
                            std::string(feature_name(mi.feature)) + ", which this CPU lacks";
    EXPECT_EQ(unsupported_reason(s, lacking), why);
    auto r = compile_kernel(s, lacking);
    EXPECT_FALSE(r.value.has_value()) << "a refused kernel must produce no code";
    EXPECT_EQ(r.error, why);

    // The feature alone is enough; so is every feature. Code is generated, not run, so the
    // synthetic CPU need not match the host.
    CpuInfo only;
    only.set(mi.feature);
    for (const CpuInfo &cpu : {only, cpu_with_everything()}) {
      auto ok = compile_kernel(s, cpu);
      ASSERT_TRUE(ok) << ok.error;
      EXPECT_NE((*ok)->fn, nullptr);
      EXPECT_GT((*ok)->size, 0u);
      EXPECT_FALSE((*ok)->listing.empty());
    }
  }
}

TEST(spec_CpuRefusal, MethodsWithoutFeatureRunAnywhere) {
  const CpuInfo bare; // no features at all
  for (const MethodInfo &mi : methods()) {
    if (mi.feature != Feature::none) continue;
    SCOPED_TRACE(mi.name);
    EXPECT_EQ(unsupported_reason(default_spec(mi.method), bare), "");
    auto ok = compile_kernel(default_spec(mi.method), bare);
    EXPECT_TRUE(ok) << ok.error;
  }
}

// A head's temporal stores need nothing the method does not: with its feature alone a head spec
// compiles, and without it the head spec is refused with the method's message.
TEST(spec_CpuRefusal, HeadNeedsOnlyTheMethodsFeature) {
  for (const MethodInfo &mi : methods()) {
    if (!mi.takes(kHead)) continue;
    SCOPED_TRACE(mi.name);
    Spec s = default_spec(mi.method);
    s.head = 8 * kHeadUnit;
    CpuInfo only;
    only.set(mi.feature);
    EXPECT_EQ(unsupported_reason(s, only), "");
    auto ok = compile_kernel(s, only);
    ASSERT_TRUE(ok) << ok.error;
    EXPECT_NE((*ok)->listing.find("cmp rsi, 32768"), std::string::npos) << (*ok)->listing;
    CpuInfo lacking = cpu_with_everything();
    lacking.set(mi.feature, false);
    EXPECT_EQ(compile_kernel(s, lacking).error,
              unsupported_reason(default_spec(mi.method), lacking));
  }
}

// Options do not change what a method needs: every candidate is refused for its feature.
TEST(spec_CpuRefusal, EveryCandidateOfAMethodNeedsItsFeature) {
  for (const Spec &s : candidates(Level::exhaustive)) {
    if (s.info().feature == Feature::none) continue;
    CpuInfo lacking = cpu_with_everything();
    lacking.set(s.info().feature, false);
    EXPECT_EQ(compile_kernel(s, lacking).error, unsupported_reason(default_spec(s.method), lacking))
        << format_spec(s);
  }
}

// ---------------------------------------------------------------------------------------------
// W^X

struct Mapping {
  uintptr_t begin = 0, end = 0;
  std::string perms, line;
};

std::vector<Mapping> read_maps() {
  std::ifstream in("/proc/self/maps");
  std::vector<Mapping> out;
  std::string line;
  while (std::getline(in, line)) {
    Mapping m;
    m.line = line;
    std::istringstream is(line);
    std::string range;
    is >> range >> m.perms;
    auto dash = range.find('-');
    m.begin = std::stoull(range.substr(0, dash), nullptr, 16);
    m.end = std::stoull(range.substr(dash + 1), nullptr, 16);
    out.push_back(m);
  }
  return out;
}

TEST(spec_WriteXorExecute, EntryPageIsReadExecuteOnly) {
  auto code = compile_kernel(*parse_spec("avx2:unroll=4"), host_cpu());
  ASSERT_TRUE(code) << code.error;
  const auto entry = reinterpret_cast<uintptr_t>((*code)->fn);
  const Mapping *found = nullptr;
  const auto maps = read_maps();
  for (const Mapping &m : maps)
    if (m.begin <= entry && entry < m.end) found = &m;
  ASSERT_NE(found, nullptr) << "entry point not mapped";
  EXPECT_EQ(found->perms.substr(0, 3), "r-x") << found->line;
}

TEST(spec_WriteXorExecute, NoMappingIsWritableAndExecutable) {
  std::vector<std::unique_ptr<GeneratedCode>> kept; // alive, so their pages stay mapped
  for (const Spec &s : candidates(Level::exhaustive)) {
    if (!unsupported_reason(s, host_cpu()).empty()) continue;
    auto code = compile_kernel(s, host_cpu());
    ASSERT_TRUE(code) << format_spec(s) << ": " << code.error;
    kept.push_back(std::move(*code.value));
  }
  ASSERT_FALSE(kept.empty());
  const auto maps = read_maps();
  for (const Mapping &m : maps)
    EXPECT_FALSE(m.perms[1] == 'w' && m.perms[2] == 'x') << m.line;
  for (const auto &k : kept) {
    const auto entry = reinterpret_cast<uintptr_t>(k->fn);
    auto m = std::find_if(maps.begin(), maps.end(),
                          [&](const Mapping &x) { return x.begin <= entry && entry < x.end; });
    ASSERT_NE(m, maps.end());
    EXPECT_EQ(m->perms.substr(0, 3), "r-x") << m->line;
  }
}

TEST(spec_WriteXorExecuteDeathTest, WritingThroughEntryPointFaults) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto code = compile_kernel(*parse_spec("mov"), host_cpu());
  ASSERT_TRUE(code) << code.error;
  auto *p = reinterpret_cast<volatile unsigned char *>((*code)->fn);
  EXPECT_DEATH(*p = 0xC3, "");
}

// A message quotes what it was given in part, and with nothing a terminal would obey.
TEST(spec, QuotedCutsAndEscapes) { // qualified: std::quoted is found too
  EXPECT_EQ(cjit::detail::quoted("avx2:unroll=3"), "'avx2:unroll=3'");
  EXPECT_EQ(cjit::detail::quoted("stosb", 0), "stosb");
  EXPECT_EQ(cjit::detail::quoted(std::string(1000, 'x'), '"'),
            '"' + std::string(40, 'x') + "...\" (1000 bytes)");
  EXPECT_EQ(cjit::detail::quoted(std::string("a\x1b[2J\n\x7f\0b", 9)),
            "'a\\x1b[2J\\x0a\\x7f\\x00b'");
  EXPECT_EQ(cjit::detail::quoted(std::string(39, 'x') + "\xc3\xa9" + "y"),
            "'" + std::string(39, 'x') + "...' (42 bytes)")
      << "not cut inside a UTF-8 sequence";
}

} // namespace
} // namespace cjit::detail
