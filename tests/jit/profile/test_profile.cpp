// Profiles: the samples in tests/profiles/good load and round-trip; every sample in
// tests/profiles/bad is refused with a message naming the file, the line and the key.
#include "jit/profile/files.hpp"
#include "jit/profile/profile.hpp"
#include "jit/profile/toml_guard.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <thread>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>

namespace cjit::detail {
namespace {

namespace fs = std::filesystem;
using test::cpu_without;
using test::full_cpu;

const std::string kDir = std::string(CLEARJIT_SOURCE_DIR) + "/tests/profiles/";

std::string sample(const std::string &rel) { return kDir + rel; }

// `r` failed with "<name>[:<line>]: [<key>: ]..." and the message holds every one of `words`;
// line -1: any line.
testing::AssertionResult refused(const Result<Profile> &r, const std::string &name, int line,
                                 std::string_view key, const std::vector<std::string_view> &words) {
  if (r) return testing::AssertionFailure() << name << " was accepted";
  if (line < 0) { // "<name>:<digits>: <key>: "
    const std::string at = ": " + std::string(key) + ": ";
    const size_t digits = r.error.find_first_not_of("0123456789", name.size() + 1);
    if (!r.error.starts_with(name + ":") || digits == name.size() + 1 ||
        r.error.compare(digits, at.size(), at) != 0)
      return testing::AssertionFailure()
             << "message does not name a line and " << key << ": " << r.error;
  } else {
    std::string prefix = name + (line ? ":" + std::to_string(line) : "") + ": ";
    if (!key.empty()) prefix += std::string(key) + ": ";
    if (!r.error.starts_with(prefix))
      return testing::AssertionFailure()
             << "message does not start with '" << prefix << "': " << r.error;
  }
  for (auto w : words)
    if (r.error.find(w) == std::string::npos)
      return testing::AssertionFailure() << "message lacks '" << w << "': " << r.error;
  return testing::AssertionSuccess();
}

testing::AssertionResult bad(const std::string &rel, int line, std::string_view key,
                             std::initializer_list<std::string_view> words,
                             const CpuInfo &cpu = full_cpu()) {
  return refused(load_profile(sample(rel), cpu), sample(rel), line, key, words);
}

Profile good(const std::string &rel, const CpuInfo &cpu = full_cpu()) {
  auto r = load_profile(sample(rel), cpu);
  EXPECT_TRUE(r) << r.error;
  return r ? *r : Profile{};
}

std::string canonical(const SizeClass &c) { return format_spec(c.kernel); }

// A minimal profile around one value of the first class's below.
std::string with_below(std::string_view below) {
  return "format = 1\n[host]\nvendor = \"X\"\nfamily = 1\nmodel = 1\n"
         "[[dispatch.reuse]]\nbelow = " +
         std::string(below) + "\nkernel = \"stosb\"\n[[dispatch.reuse]]\nkernel = \"mov\"\n";
}

// A scratch directory for files the tests make (permissions, sizes), removed afterwards.
class TempDir {
public:
  TempDir()
      : path_(fs::path(testing::TempDir()) / ("clearjit_profile_" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string &name, const std::string &text) const {
    std::string p = (path_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

private:
  fs::path path_;
};

// ---- Good profiles ---------------------------------------------------------------------------

TEST(profile, GoodProfileRoundTripsHost) {
  Profile p = good("good/epyc.toml");
  EXPECT_EQ(p.source, sample("good/epyc.toml"));
  EXPECT_EQ(p.host.vendor, "AuthenticAMD");
  EXPECT_EQ(p.host.family, 25);
  EXPECT_EQ(p.host.model, 1);
  EXPECT_EQ(p.host.stepping, 1);
  EXPECT_EQ(p.host.brand, "AMD EPYC 7763 64-Core Processor");
  EXPECT_EQ(p.host.features,
            (std::vector<std::string>{"avx", "avx2", "clzero", "erms", "fsrm", "sse2"}));
  EXPECT_EQ(p.host.l1d, 32768);
  EXPECT_EQ(p.host.l2, 524288); // written as "512KiB"
  EXPECT_EQ(p.host.l3, 33554432);
  EXPECT_TRUE(p.host.hypervisor);
}

TEST(profile, GoodProfileRoundTripsTables) {
  Profile p = good("good/epyc.toml");
  ASSERT_EQ(p.reuse.size(), 3u);
  EXPECT_EQ(p.reuse[0].below, 2048u);
  EXPECT_EQ(canonical(p.reuse[0]), "avx2:unroll=4");
  EXPECT_DOUBLE_EQ(p.reuse[0].gbps, 85.2);
  EXPECT_EQ(p.reuse[1].below, 1u << 20); // "1MiB"
  EXPECT_EQ(canonical(p.reuse[1]), "stosb");
  EXPECT_DOUBLE_EQ(p.reuse[1].gbps, 60);    // an integer is a number too
  EXPECT_EQ(p.reuse[2].below, 0u);          // the last class is unbounded
  EXPECT_EQ(canonical(p.reuse[2]), "avx2"); // unroll=2 is avx2's default
  EXPECT_DOUBLE_EQ(p.reuse[2].gbps, 31.25);

  ASSERT_EQ(p.stream.size(), 3u);
  EXPECT_EQ(p.stream[0].below, 4096u);
  EXPECT_EQ(canonical(p.stream[0]), "avx2");
  EXPECT_DOUBLE_EQ(p.stream[0].gbps, 70.5);
  EXPECT_EQ(p.stream[1].below, 32u << 20);
  EXPECT_EQ(canonical(p.stream[1]), "ntavx2:unroll=4"); // fence=end is the default
  EXPECT_EQ(p.stream[2].below, 0u);
  EXPECT_EQ(canonical(p.stream[2]), "clzero:chunk=64K,fence=chunk");
  EXPECT_EQ(&p.table(Intent::reuse), &p.reuse);
  EXPECT_EQ(&p.table(Intent::stream), &p.stream);
}

TEST(profile, WithoutStreamTheStreamTableIsReuse) {
  Profile p = good("good/reuse_only.toml");
  EXPECT_TRUE(p.stream.empty());
  ASSERT_EQ(p.reuse.size(), 2u);
  EXPECT_EQ(p.reuse[0].below, 256u);
  EXPECT_EQ(canonical(p.reuse[0]), "mov");
  EXPECT_EQ(p.reuse[0].gbps, 0);
  EXPECT_EQ(&p.table(Intent::stream), &p.reuse);
  EXPECT_EQ(p.table(Intent::stream), p.table(Intent::reuse));
  // Optional host fields default to zero.
  EXPECT_EQ(p.host.stepping, 0);
  EXPECT_TRUE(p.host.brand.empty());
  EXPECT_TRUE(p.host.features.empty());
  EXPECT_EQ(p.host.l1d, 0);
  EXPECT_FALSE(p.host.hypervisor);
}

// The one size grammar: "2K" is 2KiB, as in specs and on the command line.
TEST(profile, BelowWithAKSuffix) {
  Profile p = good("good/below_k_suffix.toml");
  ASSERT_EQ(p.reuse.size(), 2u);
  EXPECT_EQ(p.reuse[0].below, 2048u);
}

TEST(profile, SingleUnboundedClass) {
  Profile p = good("good/single_class.toml");
  ASSERT_EQ(p.reuse.size(), 1u);
  EXPECT_EQ(p.reuse[0].below, 0u);
  EXPECT_EQ(&class_for(p.reuse, 0), &p.reuse[0]);
  EXPECT_EQ(&class_for(p.reuse, UINT64_MAX), &p.reuse[0]);
}

TEST(profile, InlineTablesCrlfUtf8) {
  Profile p = good("good/inline_crlf.toml");
  EXPECT_EQ(p.host.family, 0x19);
  EXPECT_EQ(p.host.model, 0x61);
  EXPECT_EQ(p.host.brand, "AMD Ryzen\u2122 9 7950X");
  // Feature names this build does not know are kept, not refused.
  EXPECT_EQ(p.host.features.back(), "future-feature");
  EXPECT_EQ(p.host.l1d, 32768);
  EXPECT_EQ(p.host.l2, 1 << 20);
  EXPECT_EQ(p.host.l3, 32 << 20);
  ASSERT_EQ(p.reuse.size(), 2u);
  EXPECT_EQ(p.reuse[0].below, 4096u);
  EXPECT_EQ(canonical(p.reuse[0]), "avx512:unroll=2");
  EXPECT_DOUBLE_EQ(p.reuse[0].gbps, 120);
  ASSERT_EQ(p.stream.size(), 1u);
  EXPECT_EQ(canonical(p.stream[0]), "ntavx512:unroll=4");
}

TEST(profile, EveryGoodSampleLoads) {
  int n = 0;
  for (const auto &e : fs::directory_iterator(kDir + "good")) {
    auto r = load_profile(e.path().string(), full_cpu());
    EXPECT_TRUE(r) << r.error;
    ++n;
  }
  EXPECT_GE(n, 5);
}

// What the tools wrote loads under the strict key check: the shipped profiles, and the tunes and
// chosen profiles kept as results (on any CPU: they need their own CPU's features).
TEST(profile, EveryShippedAndRecordedProfileLoads) {
  int n = 0;
  const fs::path src = CLEARJIT_SOURCE_DIR;
  for (const fs::path &dir : {src / "profiles", src / "docs" / "results"})
    for (const auto &e : fs::recursive_directory_iterator(dir))
      if (e.path().extension() == ".toml") {
        auto r = load_profile_for_any_cpu(e.path().string());
        EXPECT_TRUE(r) << r.error;
        ++n;
      }
  EXPECT_GE(n, 40);
}

TEST(profile, ParseProfileUsesTheNameAsSource) {
  auto r = parse_profile(with_below("64"), "built-in", full_cpu());
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r->source, "built-in");
  auto bad_r = parse_profile("format = 3\n", "inline text", full_cpu());
  EXPECT_TRUE(refused(bad_r, "inline text", 1, "format", {"unsupported version 3"}));
}

TEST(profile, AnotherCpusProfileStillLoads) {
  // Host mismatch is the caller's warning, not a refusal.
  Profile p = good("good/reuse_only.toml");
  EXPECT_EQ(p.host.vendor, "GenuineIntel");
  EXPECT_FALSE(same_cpu(p.host, full_cpu()));
}

// ---- Writing ---------------------------------------------------------------------------------

// Every key the reader takes, each away from its default (and the brand with characters TOML
// escapes), so a key the writer drops or mangles reads back differently.
Profile every_key() {
  Profile p;
  p.host = {.vendor = "GenuineIntel",
            .brand = "Test \"CPU\" \\ 1\t2\x7f",
            .family = 6,
            .model = 183,
            .stepping = 3,
            .features = {"avx", "erms", "sse2", "a_future_feature"},
            .l1d = 48 << 10,
            .l2 = 2 << 20,
            .l3 = int64_t(36) << 20,
            .hypervisor = true};
  auto classes = [](std::vector<std::tuple<uint64_t, const char *, double>> rows) {
    std::vector<SizeClass> out;
    for (auto [below, spec, gbps] : rows)
      out.push_back({below, *parse_spec(spec), gbps});
    return out;
  };
  p.libc = "glibc 2.36";
  p.reuse = classes(
      {{2048, "avx2:unroll=4", 85.2}, {3ull << 30, "libc", 60}, {0, "avx512:unroll=4", 31.5}});
  p.reuse[1].stand_in = *parse_spec("stosq:align=32"); // memset's class, its stand-in
  p.stream = classes({{4096, "sse:unroll=2", 70.5},
                      {32u << 20, "ntavx2:unroll=4", 40.2},
                      {0, "clzero:chunk=64K,fence=chunk", 20.5}});
  p.batch = classes({{1024, "mov", 10.5}, {0, "movnti:unroll=2,chunk=4K,fence=chunk", 30.1}});
  // The tuner's race bound and the states it held in (informational).
  p.stream[1].gain = 1.21;
  p.stream[1].states = {"scattered", "consecutive"};
  p.small_reuse = SmallPath{Small::ladder, 128};
  p.small_stream = SmallPath{Small::masked, 1024};
  p.parallel_cpus = 8;
  p.parallel_reuse = ParallelTable{{2u << 20, 64u << 20}, {1, 1}, {1, 0.99}};
  p.parallel_stream = ParallelTable{{2u << 20, 8u << 20, 1ull << 30}, {1, 2, 6}, {1, 1.5, 4.25}};
  return p;
}

TEST(profile_Write, EveryKeyRoundTrips) {
  Profile p = every_key();
  // The values must differ from a default profile's wherever the reader has a default.
  const Profile d;
  ASSERT_TRUE(p.host.brand != d.host.brand && p.host.stepping != d.host.stepping &&
              p.host.features != d.host.features && p.host.l1d != d.host.l1d &&
              p.host.l2 != d.host.l2 && p.host.l3 != d.host.l3 &&
              p.host.hypervisor != d.host.hypervisor && p.small_reuse != SmallPath{} &&
              p.small_stream != SmallPath{} && p.parallel_cpus && p.parallel_reuse &&
              p.parallel_stream);
  for (const auto *table : {&p.reuse, &p.stream, &p.batch})
    for (const SizeClass &c : *table)
      ASSERT_NE(c.gbps, 0);

  const std::string text = format_profile(p);
  auto back = parse_profile(text, "written", full_cpu());
  ASSERT_TRUE(back) << back.error << "\n" << text;
  EXPECT_TRUE(back->warnings.empty());
  p.source = "written";
  EXPECT_TRUE(*back == p) << text;
  EXPECT_EQ(back->host, p.host);
  EXPECT_EQ(back->reuse, p.reuse);
  EXPECT_EQ(back->stream, p.stream);
  EXPECT_EQ(back->batch, p.batch);
  EXPECT_EQ(back->small_reuse, p.small_reuse);
  EXPECT_EQ(back->small_stream, p.small_stream);
  EXPECT_EQ(back->parallel_reuse, p.parallel_reuse);
  EXPECT_EQ(back->parallel_stream, p.parallel_stream);
  // And what was read writes the same text again.
  EXPECT_EQ(format_profile(*back), text);
}

// Two adjacent classes of one kernel are one class: the bound that holds over both, in the states
// where both held.
TEST(profile_Write, MergedClassesKeepTheBoundOfBoth) {
  std::vector<SizeClass> t;
  append_class(t, {4096, *parse_spec("avx2"), 10, 1.3, {"scattered", "consecutive", "hot"}});
  append_class(t, {8192, *parse_spec("avx2"), 10, 1.1, {"scattered", "hot"}});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].below, 8192u);
  EXPECT_EQ(t[0].gain, 1.1);
  EXPECT_EQ(t[0].states, (std::vector<std::string>{"scattered", "hot"}));
}

TEST(profile_Bad, GainAndStatesAreChecked) {
  const std::string head = "format = 1\n[host]\nvendor = \"X\"\nfamily = 1\nmodel = 1\n"
                           "[[dispatch.reuse]]\nkernel = \"stosb\"\n";
  auto negative = parse_profile(head + "gain = -1\n", "gain", full_cpu());
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error.find("dispatch.reuse[0].gain: must be a finite number >= 0"),
            std::string::npos)
      << negative.error;
  auto not_array = parse_profile(head + "states = \"hot\"\n", "states", full_cpu());
  ASSERT_FALSE(not_array);
  EXPECT_NE(not_array.error.find("dispatch.reuse[0].states: must be an array"), std::string::npos)
      << not_array.error;
  auto not_names = parse_profile(head + "states = [1]\n", "states", full_cpu());
  ASSERT_FALSE(not_names);
  EXPECT_NE(not_names.error.find("must hold state names"), std::string::npos) << not_names.error;
}

// A stand-in is a kernel like any class's, on a memset class only, and never memset itself;
// [tuning] libc, which the runtime compares with the running C library, is a name.
TEST(profile_Bad, StandInsAndTheirCLibraryAreChecked) {
  const std::string head = "format = 1\n[host]\nvendor = \"X\"\nfamily = 1\nmodel = 1\n";
  const std::string memset_class = "[[dispatch.reuse]]\nkernel = \"libc\"\n";
  const std::pair<std::string, std::string> cases[] = {
      {"[[dispatch.reuse]]\nkernel = \"mov\"\nstand_in = \"stosb\"\n",
       "dispatch.reuse[0].stand_in: must be left out: only a memset (libc) class has a stand-in, "
       "this class's kernel is \"mov\""},
      {memset_class + "stand_in = \"libc\"\n",
       "dispatch.reuse[0].stand_in: must be a generated kernel, not libc"},
      {"[[dispatch.reuse]]\nkernel = \"libc:untouched=skip\"\nstand_in = "
       "\"stosb:untouched=skip\"\n",
       "dispatch.reuse[0].stand_in: takes no untouched option: the class's kernel says whether its "
       "untouched pages are written"},
      {memset_class + "stand_in = \"avx9\"\n",
       "dispatch.reuse[0].stand_in: invalid kernel spec \"avx9\""},
      {memset_class + "stand_in = 3\n",
       "dispatch.reuse[0].stand_in: must be a string (a kernel spec), got an integer"},
      {memset_class + "stand_in = \"movnti:fence=none\"\n",
       "dispatch.reuse[0].stand_in: kernel \"movnti:fence=none\" is non-temporal with fence=none"},
      {memset_class + "stand_in = \"avx512\"\n",
       "dispatch.reuse[0].stand_in: kernel \"avx512\" cannot run on this CPU"},
      {"[tuning]\nlibc = 236\n" + memset_class,
       "tuning.libc: must be a string such as \"glibc 2.41\", got an integer"},
      {"[tuning]\nlibc = \"\"\n" + memset_class,
       "tuning.libc: must be a C library's name such as \"glibc 2.41\": 1..64 printable ASCII"},
      {"[tuning]\nlibc = \"glibc\\n2.41\"\n" + memset_class,
       "tuning.libc: must be a C library's name"},
      {"[tuning]\nlibc = \"" + std::string(65, 'g') + "\"\n" + memset_class,
       "tuning.libc: must be a C library's name"},
  };
  for (const auto &[body, message] : cases) {
    auto p = parse_profile(head + body, "stand-in", test::minimal_cpu());
    ASSERT_FALSE(p) << body;
    EXPECT_NE(p.error.find(message), std::string::npos) << body << "\n" << p.error;
  }
  auto good = parse_profile(head + "[tuning]\nlibc = \"glibc 2.36\"\nlevel = \"quick\"\n" +
                                memset_class + "stand_in = \"stosb\"\n",
                            "stand-in", test::minimal_cpu());
  ASSERT_TRUE(good) << good.error;
  EXPECT_EQ(good->libc, "glibc 2.36");
  ASSERT_TRUE(good->reuse[0].stand_in);
  EXPECT_EQ(format_spec(*good->reuse[0].stand_in), "stosb");
  // A stand-in's features are the profile's too: a CPU without them is told which.
  Profile needs = *good;
  needs.reuse[0].stand_in = *parse_spec("avx512");
  EXPECT_NE(missing_features(needs, test::minimal_cpu()).find("dispatch.reuse: avx512"),
            std::string::npos)
      << missing_features(needs, test::minimal_cpu());
}

// The writer's annotations (the tuner's comments, [tuning] and [findings]) are written where
// asked and read past.
TEST(profile_Write, AnnotationsAreWrittenAndIgnored) {
  const Profile p = every_key();
  const std::string text = format_profile(p, {.comments = "# a comment\n",
                                              .host = {},
                                              .tuning = "level = \"quick\"\n",
                                              .tables = "\n[findings]\nx = 1\n"});
  EXPECT_TRUE(text.starts_with("# clearjit profile: which kernel clears each size fastest on this "
                               "CPU.\n# a comment\nformat = 1\n\n[host]\n"))
      << text;
  EXPECT_LT(text.find("\n[host]"), text.find("\n[tuning]"));
  EXPECT_LT(text.find("\n[findings]"), text.find("\n[small.reuse]"));
  auto back = parse_profile(text, "annotated", full_cpu());
  ASSERT_TRUE(back) << back.error;
  EXPECT_TRUE(back->warnings.empty());
  EXPECT_EQ(format_profile(*back), format_profile(p));
}

TEST(profile_Write, OptionalTablesLeftOutStayOut) {
  Profile p = every_key();
  p.stream.clear();
  p.batch.clear();
  p.small_reuse.reset();
  p.small_stream.reset();
  p.parallel_reuse.reset();
  p.parallel_stream.reset();
  p.parallel_cpus = 0;
  const std::string text = format_profile(p);
  EXPECT_EQ(text.find("[parallel"), std::string::npos);
  EXPECT_EQ(text.find("dispatch.stream"), std::string::npos);
  EXPECT_EQ(text.find("dispatch.batch"), std::string::npos);
  EXPECT_EQ(text.find("[small"), std::string::npos);
  auto back = parse_profile(text, "written", full_cpu());
  ASSERT_TRUE(back) << back.error;
  p.source = "written";
  EXPECT_TRUE(*back == p) << text;
}

// ---- [parallel] ------------------------------------------------------------------------------

// A minimal profile with `parallel` after its [host] table.
std::string with_parallel(std::string_view parallel) {
  return "format = 1\n[host]\nvendor = \"X\"\nfamily = 1\nmodel = 1\n" + std::string(parallel) +
         "\n[[dispatch.reuse]]\nkernel = \"stosb\"\n";
}

TEST(profile_Parallel, CountsBySizeAndThreshold) {
  auto r = parse_profile(with_parallel("[parallel.reuse]\nfrom = \"8MiB\"\nsizes = [\"2MiB\", "
                                       "\"8MiB\", \"1GiB\"]\nthreads = [1, 2, 4]\n"),
                         "p", full_cpu());
  ASSERT_TRUE(r) << r.error;
  EXPECT_TRUE(r->warnings.empty());
  const ParallelTable *t = r->parallel(Intent::reuse);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->from(), 8u << 20);
  EXPECT_EQ(t->at(0), 1u);
  EXPECT_EQ(t->at((8u << 20) - 1), 1u);
  EXPECT_EQ(t->at(8u << 20), 2u);
  EXPECT_EQ(t->at((1ull << 30) - 1), 2u);
  EXPECT_EQ(t->at(1ull << 30), 4u);
  EXPECT_EQ(t->at(~uint64_t(0)), 4u);
  // Without [parallel.stream] the stream intent takes reuse's, as the dispatch tables do.
  EXPECT_EQ(r->parallel(Intent::stream), t);
  EXPECT_FALSE(Profile{}.parallel(Intent::reuse));
}

TEST(profile_Parallel, OneThreadEverywhereHasNoFrom) {
  auto r = parse_profile(
      with_parallel("[parallel]\ncpus = 2\n[parallel.stream]\nsizes = [2097152, 1073741824]\n"
                    "threads = [1, 1]\nspeedup = [1.0, 0.98]\n"),
      "p", full_cpu());
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r->parallel_cpus, 2u);
  EXPECT_FALSE(r->parallel(Intent::reuse));
  ASSERT_TRUE(r->parallel(Intent::stream));
  EXPECT_EQ(r->parallel(Intent::stream)->from(), 0u);
  EXPECT_EQ(r->parallel(Intent::stream)->at(1ull << 30), 1u);
}

TEST(profile_Parallel, UnknownKeyIsRefused) {
  auto r = parse_profile(with_parallel("[parallel]\ncpuss = 2\n"), "p", full_cpu());
  EXPECT_TRUE(refused(r, "p", -1, "parallel.cpuss", {"did you mean `cpus`?"}));
}

TEST(profile_Parallel, Refusals) {
  const std::string two = "sizes = [2097152, 8388608]\n";
  const std::tuple<std::string, std::string, std::vector<std::string_view>> cases[] = {
      {"[[parallel]]\ncpus = 1", "parallel", {"must be a table", "got an array"}},
      {"[parallel]\ncpus = 0", "parallel.cpus", {"must be 1..256", "got 0"}},
      {"[parallel]\ncpus = \"2\"", "parallel.cpus", {"must be an integer", "got a string"}},
      {"[parallel]\nreuse = 1", "parallel.reuse", {"must be a table", "got an integer"}},
      {"[parallel.reuse]\nthreads = [1]", "parallel.reuse.sizes", {"missing"}},
      {"[parallel.reuse]\nsizes = []\nthreads = []", "parallel.reuse.sizes", {"is empty"}},
      {"[parallel.reuse]\nsizes = 5\nthreads = [1]",
       "parallel.reuse.sizes",
       {"must be an array", "got an integer"}},
      {"[parallel.reuse]\nsizes = [0]\nthreads = [1]", "parallel.reuse.sizes[0]", {"at least 1"}},
      {"[parallel.reuse]\nsizes = [8388608, 2097152]\nthreads = [1, 1]",
       "parallel.reuse.sizes[1]",
       {"greater than the size before it (8388608)", "got 2097152"}},
      {"[parallel.reuse]\nsizes = [\"2MB\"]\nthreads = [1]",
       "parallel.reuse.sizes[0]",
       {"unreadable size \"2MB\"", "powers of 1024"}},
      {"[parallel.reuse]\n" + two, "parallel.reuse.threads", {"missing"}},
      {"[parallel.reuse]\n" + two + "threads = [1]",
       "parallel.reuse.threads",
       {"has 1 entries", "needs 2"}},
      {"[parallel.reuse]\n" + two + "threads = [1, 0]",
       "parallel.reuse.threads[1]",
       {"must be 1..256", "got 0"}},
      {"[parallel.reuse]\n" + two + "threads = [1, 257]",
       "parallel.reuse.threads[1]",
       {"must be 1..256", "got 257"}},
      {"[parallel.reuse]\n" + two + "threads = [1, 2.5]",
       "parallel.reuse.threads[1]",
       {"must be an integer", "got a float"}},
      {"[parallel.reuse]\n" + two + "threads = [1, 2]",
       "parallel.reuse.from",
       {"missing", "8388608"}},
      {"[parallel.reuse]\nfrom = 2097152\n" + two + "threads = [1, 2]",
       "parallel.reuse.from",
       {"must be 8388608", "the first size with more than one thread"}},
      {"[parallel.reuse]\nfrom = 2097152\n" + two + "threads = [1, 1]",
       "parallel.reuse.from",
       {"must be left out", "every size has one thread"}},
      {"[parallel.reuse]\nfrom = 0\n" + two + "threads = [1, 1]",
       "parallel.reuse.from",
       {"must be left out", "every size has one thread"}},
      {"[parallel.reuse]\n" + two + "threads = [1, 1]\nspeedup = [1, 1e300]",
       "parallel.reuse.speedup[1]",
       {"must be a number 0..1000"}},
      {"[parallel.reuse]\n" + two + "threads = [1, 1]\nspeedup = [1]",
       "parallel.reuse.speedup",
       {"has 1 entries", "needs 2"}},
      {"[parallel.reuse]\n" + two + "threads = [1, 1]\nspeedup = [1, -1]",
       "parallel.reuse.speedup[1]",
       {"must be a number 0..1000", "got -1"}},
  };
  for (const auto &[table, key, words] : cases) {
    const std::string text = with_parallel(table);
    auto r = parse_profile(text, "p", full_cpu());
    EXPECT_FALSE(r) << text;
    if (!r) {
      // "p:<line>: <key>: ..."
      EXPECT_TRUE(r.error.starts_with("p:")) << r.error;
      EXPECT_NE(r.error.find(": " + key + ": "), std::string::npos) << r.error;
      for (std::string_view w : words)
        EXPECT_NE(r.error.find(w), std::string::npos) << r.error;
    }
  }
  // A list longer than kMaxParallelSizes is refused before its entries are read.
  std::string many = "[parallel.reuse]\nsizes = [";
  for (size_t i = 0; i <= kMaxParallelSizes; ++i)
    many += (i ? ", " : "") + std::to_string((i + 1) << 20);
  auto r = parse_profile(with_parallel(many + "]\nthreads = [1]\n"), "p", full_cpu());
  EXPECT_TRUE(refused(r, "p", 7, "parallel.reuse.sizes", {"65 entries", "more than the 64"}));
}

// ---- Sizes -----------------------------------------------------------------------------------

TEST(profile_Sizes, AcceptedForms) {
  const std::pair<std::string_view, uint64_t> cases[] = {
      {"4096", 4096},
      {"0x800", 2048}, // a TOML hexadecimal integer
      {"1_024", 1024},
      {"\"4096\"", 4096},
      {"\"2KiB\"", 2048},
      {"\"2K\"", 2048}, // the one size grammar: K, k, KiB alike
      {"\"2k\"", 2048},
      {"\"2kiB\"", 2048},
      {"\"32M\"", 32u << 20},
      {"\"1g\"", 1u << 30},
      {"\"32MiB\"", 32u << 20},
      {"\"1GiB\"", 1u << 30},
      {"\"3TiB\"", 3ull << 40},
      {"\"16777215TiB\"", 16777215ull << 40},
      {"\"18446744073709551615\"", UINT64_MAX},
      {"9223372036854775807", uint64_t(INT64_MAX)},
  };
  for (auto [text, want] : cases) {
    auto r = parse_profile(with_below(text), "sizes", full_cpu());
    ASSERT_TRUE(r) << text << ": " << r.error;
    EXPECT_EQ(r->reuse[0].below, want) << text;
  }
}

TEST(profile_Sizes, RefusedForms) {
  // Strict: the one size grammar (jit/model/size_text.hpp), nothing around it.
  const std::string_view unreadable[] = {"\"2kib\"", "\"2 KiB\"",  "\"2KiB \"", "\"\"",
                                         "\"KiB\"",  "\"1.5KiB\"", "\"+2\"",    "\"0x800\"",
                                         "\"2Ki\"",  "\"2KiBKiB\""};
  for (auto text : unreadable)
    EXPECT_TRUE(refused(parse_profile(with_below(text), "sizes", full_cpu()), "sizes", 7,
                        "dispatch.reuse[0].below",
                        {"unreadable size", "digits with an optional K, M, G or T"}))
        << text;
  for (auto text : {"\"2KB\"", "\"2MB\"", "\"1gb\""})
    EXPECT_TRUE(refused(parse_profile(with_below(text), "sizes", full_cpu()), "sizes", 7,
                        "dispatch.reuse[0].below",
                        {"unreadable size", "write 4K or 4KiB: clearjit sizes are powers of 1024"}))
        << text;
  EXPECT_TRUE(refused(parse_profile(with_below("\"-1KiB\""), "sizes", full_cpu()), "sizes", 7,
                      "dispatch.reuse[0].below", {"must not be negative", "\"-1KiB\""}));
  for (auto text : {"\"18446744073709551616\"", "\"16777216TiB\"", "\"99999999999999GiB\""})
    EXPECT_TRUE(refused(parse_profile(with_below(text), "sizes", full_cpu()), "sizes", 7,
                        "dispatch.reuse[0].below", {"does not fit in 64 bits"}))
        << text;
  EXPECT_TRUE(refused(parse_profile(with_below("1e3"), "sizes", full_cpu()), "sizes", 7,
                      "dispatch.reuse[0].below", {"whole number of bytes", "float (1000)"}));
  EXPECT_TRUE(refused(parse_profile(with_below("[1]"), "sizes", full_cpu()), "sizes", 7,
                      "dispatch.reuse[0].below", {"must be a size in bytes", "got an array"}));
}

// ---- class_for on a loaded table (jit/model/table.cpp: tests/jit/model/test_table.cpp) ----

TEST(profile_ClassFor, LoadedTable) {
  Profile p = good("good/epyc.toml");
  const auto &s = p.table(Intent::stream);
  EXPECT_EQ(canonical(class_for(s, 4095)), "avx2");
  EXPECT_EQ(canonical(class_for(s, 4096)), "ntavx2:unroll=4");
  EXPECT_EQ(canonical(class_for(s, (32u << 20) - 1)), "ntavx2:unroll=4");
  EXPECT_EQ(canonical(class_for(s, 32u << 20)), "clzero:chunk=64K,fence=chunk");
}

// ---- Host helpers ----------------------------------------------------------------------------

TEST(profile_HostInfo, DescribesTheCpu) {
  CpuInfo c;
  c.vendor = "GenuineIntel";
  c.brand = "Some Xeon";
  c.family = 6;
  c.model = 143;
  c.stepping = 8;
  c.hypervisor = true;
  c.l1d.size = 48 << 10;
  c.l2.size = 2 << 20;
  c.l3.size = 105 << 20;
  c.set(Feature::sse2);
  c.set(Feature::erms);
  c.set(Feature::avx512f);
  c.set(Feature::avx2);
  ProfileHost h = profile_host(c);
  EXPECT_EQ(h.vendor, "GenuineIntel");
  EXPECT_EQ(h.brand, "Some Xeon");
  EXPECT_EQ(h.family, 6);
  EXPECT_EQ(h.model, 143);
  EXPECT_EQ(h.stepping, 8);
  EXPECT_EQ(h.features, (std::vector<std::string>{"avx2", "avx512f", "erms", "sse2"}));
  EXPECT_TRUE(std::is_sorted(h.features.begin(), h.features.end()));
  EXPECT_EQ(h.l1d, 48 << 10);
  EXPECT_EQ(h.l2, 2 << 20);
  EXPECT_EQ(h.l3, 105 << 20);
  EXPECT_TRUE(h.hypervisor);
}

TEST(profile_HostInfo, SameCpuComparesVendorFamilyModel) {
  CpuInfo c = full_cpu();
  ProfileHost h = profile_host(c);
  EXPECT_TRUE(same_cpu(h, c));
  h.stepping = 7; // a different stepping is the same CPU
  h.brand = "other";
  EXPECT_TRUE(same_cpu(h, c));
  ProfileHost v = h, f = h, m = h;
  v.vendor = "GenuineIntel";
  f.family = 26;
  m.model = 2;
  EXPECT_FALSE(same_cpu(v, c));
  EXPECT_FALSE(same_cpu(f, c));
  EXPECT_FALSE(same_cpu(m, c));
}

TEST(profile_HostInfo, IntentNames) {
  EXPECT_EQ(intent_name(Intent::reuse), "reuse");
  EXPECT_EQ(intent_name(Intent::stream), "stream");
}

// ---- Bad profiles: one test per fault --------------------------------------------------------

TEST(profile_Bad, ExampleMessageExactly) {
  auto r = load_profile(sample("bad/below_decreasing.toml"), full_cpu());
  EXPECT_EQ(r.error, sample("bad/below_decreasing.toml") +
                         ":11: dispatch.reuse[1].below: must be greater than the previous "
                         "class's below (4096), got 2048");
}

// One row per sample in tests/profiles/bad: the line (0: none), the key ("" for a TOML
// syntax or encoding error) and words the message must hold.
struct BadCase {
  const char *name; //!< the test's name
  const char *file; //!< under tests/profiles
  int line;
  std::string_view key;
  std::vector<std::string> words; //!< owned: some are messages computed by parse_spec
};

// clang-format off
const BadCase kBadCases[] = {
  {"NotToml", "bad/not_toml.toml", 3, "", {"not valid TOML", "table header", "column"}},
  {"FormatMissing", "bad/format_missing.toml", 0, "format", {"missing", "format = 1"}},
  {"FormatNotInteger", "bad/format_string.toml", 2, "format",
   {"must be an integer", "got a string"}},
  {"FormatVersion", "bad/format_version.toml", 2, "format", {"unsupported version 2"}},
  {"HostMissing", "bad/host_missing.toml", 0, "host", {"missing", "[host]"}},
  {"HostNotTable", "bad/host_not_table.toml", 3, "host", {"must be a table", "got a string"}},
  {"VendorNotString", "bad/host_vendor_type.toml", 4, "host.vendor",
   {"must be a string", "got an integer"}},
  {"VendorEmpty", "bad/host_vendor_empty.toml", 4, "host.vendor", {"must not be empty"}},
  // The line is the [host] table's: the key itself is absent.
  {"VendorMissing", "bad/host_vendor_missing.toml", 3, "host.vendor", {"missing", "vendor string"}},
  {"FamilyNotInteger", "bad/host_family_type.toml", 5, "host.family",
   {"must be an integer", "got a string"}},
  {"FamilyMissing", "bad/host_family_missing.toml", 3, "host.family", {"missing"}},
  {"FamilyNegative", "bad/host_family_negative.toml", 5, "host.family",
   {"must not be negative", "-25"}},
  {"ModelNotInteger", "bad/host_model_type.toml", 6, "host.model",
   {"must be an integer", "got a float"}},
  {"ModelMissing", "bad/host_model_missing.toml", 3, "host.model", {"missing"}},
  {"SteppingNotInteger", "bad/host_stepping_type.toml", 7, "host.stepping",
   {"must be an integer", "got a string"}},
  {"BrandNotString", "bad/host_brand_type.toml", 7, "host.brand",
   {"must be a string", "got an integer"}},
  {"FeaturesNotArray", "bad/host_features_type.toml", 7, "host.features",
   {"must be an array of strings", "got a string"}},
  {"FeatureNotString", "bad/host_features_element.toml", 7, "host.features[1]",
   {"must be a string", "got an integer"}},
  {"CacheSizeNotInteger", "bad/host_l1d_type.toml", 7, "host.l1d",
   {"must be a size in bytes", "got a boolean"}},
  {"CacheSizeNegative", "bad/host_l2_negative.toml", 7, "host.l2",
   {"must not be negative", "-524288"}},
  {"CacheSizeFloat", "bad/host_l3_float.toml", 7, "host.l3",
   {"whole number of bytes", "float (32.5)"}},
  {"HypervisorNotBool", "bad/host_hypervisor_type.toml", 7, "host.hypervisor",
   {"must be a boolean", "got a string"}},
  {"DispatchMissing", "bad/dispatch_missing.toml", 0, "dispatch.reuse",
   {"missing", "[[dispatch.reuse]]"}},
  {"DispatchNotTable", "bad/dispatch_not_table.toml", 3, "dispatch",
   {"must be a table", "got a string"}},
  {"ReuseMissing", "bad/reuse_missing.toml", 7, "dispatch.reuse", {"missing"}},
  // Outside a string or comment, U+00E9 sends toml++ 3.3 into __builtin_unreachable.
  {"CharacterTomlMishandles", "bad/toml_mishandled_char.toml", 1, "",
   {"character U+00E9 at column 12 outside strings and comments", "mishandles",
    "accepted inside comments and strings"}},
  {"ReuseEmpty", "bad/reuse_empty.toml", 8, "dispatch.reuse", {"has no classes"}},
  {"ReuseNotArray", "bad/reuse_not_array.toml", 8, "dispatch.reuse",
   {"must be an array of tables", "got a string"}},
  {"ReuseArrayOfStrings", "bad/reuse_strings.toml", 8, "dispatch.reuse",
   {"must be an array of tables", "holding other values"}},
  {"ReuseSingleTable", "bad/reuse_table.toml", 7, "dispatch.reuse",
   {"must be an array of tables", "got a table"}},
  {"BelowDecreasing", "bad/below_decreasing.toml", 11, "dispatch.reuse[1].below",
   {"greater than the previous class's below (4096)", "got 2048"}},
  {"BelowRepeated", "bad/below_equal.toml", 11, "dispatch.reuse[1].below",
   {"greater than the previous class's below (2048)", "got 2048"}},
  {"BelowMissingBeforeLast", "bad/below_missing.toml", 7, "dispatch.reuse[0].below",
   {"missing", "every class but the last"}},
  {"BelowOnLast", "bad/below_on_last.toml", 12, "dispatch.reuse[1].below",
   {"left out on the last class"}},
  {"BelowZero", "bad/below_zero.toml", 8, "dispatch.reuse[0].below", {"at least 1", "got 0"}},
  {"BelowNegative", "bad/below_negative.toml", 8, "dispatch.reuse[0].below",
   {"must not be negative", "-2048"}},
  {"BelowFloat", "bad/below_float.toml", 8, "dispatch.reuse[0].below",
   {"whole number of bytes", "got a float (2048)"}},
  // TOML integers are 64-bit signed, so toml++ refuses this while parsing.
  {"BelowOverflowingInteger", "bad/below_overflow.toml", 8, "",
   {"not valid TOML", "18446744073709551616", "not representable in 64 bits"}},
  {"BelowOverflowingString", "bad/below_overflow_string.toml", 8, "dispatch.reuse[0].below",
   {"\"16777216TiB\"", "does not fit in 64 bits"}},
  {"BelowUnreadableString", "bad/below_unreadable.toml", 8, "dispatch.reuse[0].below",
   {"unreadable size \"two KiB\""}},
  {"BelowKBSuffix", "bad/below_kb_suffix.toml", 8, "dispatch.reuse[0].below",
   {"unreadable size \"2KB\"", "write 4K or 4KiB: clearjit sizes are powers of 1024"}},
  {"BelowWrongType", "bad/below_bool.toml", 8, "dispatch.reuse[0].below",
   {"must be a size in bytes", "got a boolean"}},
  {"KernelMissing", "bad/kernel_missing.toml", 7, "dispatch.reuse[0].kernel",
   {"missing", "kernel spec"}},
  {"KernelNotString", "bad/kernel_not_string.toml", 9, "dispatch.reuse[0].kernel",
   {"must be a string", "got an integer"}},
  {"KernelUnknown", "bad/kernel_unknown.toml", 9, "dispatch.reuse[0].kernel",
   {"invalid kernel spec \"avx3\"", parse_spec("avx3").error}},
  {"KernelMalformed", "bad/kernel_malformed.toml", 9, "dispatch.reuse[0].kernel",
   {"invalid kernel spec \"avx2:unroll=3\"", parse_spec("avx2:unroll=3").error}},
  {"GbpsNotNumber", "bad/gbps_type.toml", 10, "dispatch.reuse[0].gbps",
   {"must be a number", "got a string"}},
  {"StreamEmpty", "bad/stream_empty.toml", 8, "dispatch.stream",
   {"has no classes", "leave dispatch.stream out"}},
  {"StreamKernelMalformed", "bad/stream_bad_kernel.toml", 16, "dispatch.stream[1].kernel",
   {"\"ntavx2:align=16\"", parse_spec("ntavx2:align=16").error}},
  {"DuplicateKey", "bad/duplicate_key.toml", 9, "", {"not valid TOML", "redefine", "'below'"}},
  {"DuplicateTable", "bad/duplicate_table.toml", 7, "", {"not valid TOML", "redefine", "'host'"}},
  {"EmptyFile", "bad/empty.toml", 0, "", {"empty file"}},
  {"BlankFile", "bad/blank.toml", 0, "", {"empty file"}},
  {"TruncatedInString", "bad/truncated_string.toml", 11, "", {"not valid TOML", "end-of-file"}},
  {"TruncatedInHeader", "bad/truncated_header.toml", 10, "", {"not valid TOML", "end-of-file"}},
  // Cut between classes: what is left is valid TOML whose last class still has a bound.
  {"TruncatedBeforeLastClass", "bad/truncated_class.toml", 8, "dispatch.reuse[0].below",
   {"left out on the last class"}},
  {"SmallBandsOutOfOrder", "bad/small_bands_order.toml", 12, "small.reuse.bands[1]",
   {"band 2", "below = 16 is not above the band before it (64)"}},
  {"SmallBandsOverlapping", "bad/small_bands_overlap.toml", 12, "small.reuse.bands[1]",
   {"band 2", "below = 64 is not above the band before it (64)"}},
  {"SmallBandAboveMax", "bad/small_bands_above_max.toml", 12, "small.reuse.bands[0].below",
   {"512 is above the path's max (256)"}},
  {"SmallBandsNotArray", "bad/small_bands_type.toml", 12, "small.reuse.bands",
   {"must be an array of tables", "got a string"}},
  {"SmallBandUnknownKey", "bad/small_bands_key.toml", 12, "small.reuse.bands[0].max",
   {"unknown key `max`", "known here: below, strategy"}},
  // A typo anywhere is refused with the nearest name: a misspelt table would drop its settings.
  {"TableTypoSmall", "bad/table_typo_small.toml", 10, "smal",
   {"unknown table `smal`; did you mean `small`?"}},
  {"TableTypoParallel", "bad/table_typo_parallel.toml", 10, "paralel",
   {"unknown table `paralel`; did you mean `parallel`?"}},
  {"IntentTypoDispatch", "bad/intent_typo_dispatch.toml", 9, "dispatch.steam",
   {"unknown table `dispatch.steam`; did you mean `dispatch.stream`?"}},
  {"KeyTypoClass", "bad/key_typo_class.toml", 9, "dispatch.reuse[0].kernal",
   {"unknown key `kernal`; did you mean `kernel`?"}},
  {"KeyTypoSmall", "bad/key_typo_small.toml", 11, "small.reuse.stratgy",
   {"unknown key `stratgy`; did you mean `strategy`?"}},
  {"SmallBandSameAsAbove", "bad/small_bands_same.toml", 12, "small.reuse.bands[0]",
   {"masked again in the band above it"}},
  {"SmallBandBelowMissing", "bad/small_bands_below_missing.toml", 12, "small.reuse.bands[0].below",
   {"missing"}},
  {"NulBytes", "bad/nul.toml", 2, "", {"not a text profile", "NUL byte", "column 1"}},
  {"InvalidUtf8", "bad/invalid_utf8.toml", 4, "", {"not a text profile", "invalid UTF-8", "0xff"}},
  {"OverlongUtf8", "bad/overlong_utf8.toml", 2, "", {"invalid UTF-8", "0xc0"}},
  {"BinaryGarbage", "bad/garbage.bin", 1, "", {"not a text profile", "NUL byte"}},
};
// clang-format on

class profile_BadSample : public ::testing::TestWithParam<BadCase> {};

TEST_P(profile_BadSample, IsRefusedWithLineKeyAndWords) {
  const BadCase &c = GetParam();
  const std::vector<std::string_view> words(c.words.begin(), c.words.end());
  EXPECT_TRUE(
      refused(load_profile(sample(c.file), full_cpu()), sample(c.file), c.line, c.key, words));
}

INSTANTIATE_TEST_SUITE_P(ProfileBad, profile_BadSample, ::testing::ValuesIn(kBadCases),
                         [](const auto &info) { return std::string(info.param.name); });

// A first band with the path's own strategy, another between them (the verification writes
// such a path): each band differs from the one above it, and the profile loads.
TEST(profile, ABandWithThePathsStrategyBelowAnotherLoads) {
  std::string text = test::read_file(sample("good/small_bands.toml")).value_or("");
  const std::string from = R"(bands = [{ below = 16, strategy = "tree" }, )";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), R"(bands = [{ below = 16, strategy = "masked" }, )");
  const Result<Profile> p = parse_profile(text, "masked-libc-masked", full_cpu());
  ASSERT_TRUE(p) << p.error;
  EXPECT_EQ(*p->small_reuse,
            (SmallPath{Small::masked, 256, {{16, Small::masked}, {64, Small::libc}}}));
}

TEST(profile, SmallBandsLoadAndWriteBack) {
  Profile p = good("good/small_bands.toml");
  ASSERT_TRUE(p.small_reuse);
  EXPECT_EQ(*p.small_reuse,
            (SmallPath{Small::masked, 256, {{16, Small::tree}, {64, Small::libc}}}));
  Result<Profile> back = parse_profile(format_profile(p), "written", full_cpu());
  ASSERT_TRUE(back) << back.error;
  EXPECT_EQ(back->small_reuse, p.small_reuse);
  // A CPU without a band's strategy refuses the profile, naming it.
  const Result<Profile> r = load_profile(sample("good/small_bands.toml"), test::minimal_cpu());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error.find("small.reuse.strategy: cannot run on this CPU"), std::string::npos)
      << r.error;
}

// ---- The recorded [verification], as `clearjit check` reports it ------------------------------

TEST(profile_Verification, ReadFromTheText) {
  const std::string base = "format = 1\n[host]\nvendor = \"A\"\nfamily = 1\nmodel = 1\n"
                           "[[dispatch.reuse]]\nkernel = \"stosb\"\n";
  EXPECT_FALSE(recorded_verification(base));
  EXPECT_FALSE(recorded_verification("not [ toml"));
  auto v = recorded_verification(base + "[verification]\nmeasured = \"m\"\nrepaired = [\"r\"]\n"
                                        "left = [\"a\", 3, \"b\"]\n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->measured, "m");
  EXPECT_EQ(v->repaired, std::vector<std::string>{"r"});
  EXPECT_EQ(v->left, (std::vector<std::string>{"a", "b"})); // free keys: other types skipped
  // As the tuner wrote it.
  auto tuned = recorded_verification(
      test::read_file(test::kSourceDir /
                      "docs/results/amd-family26-model2/tune-verified-default.toml")
          .value_or(""));
  ASSERT_TRUE(tuned);
  EXPECT_EQ(tuned->left.size(), 4u);
}

TEST(profile, NearestName) {
  EXPECT_EQ(nearest_name("smal", {"format", "host", "small"}), "small");
  EXPECT_EQ(nearest_name("steam", {"reuse", "stream", "batch"}), "stream");
  EXPECT_EQ(nearest_name("stragety", {"strategy", "max"}), "strategy"); // one swap, one change
  EXPECT_EQ(nearest_name("Kernel", {"below", "kernel"}), "kernel");
  EXPECT_EQ(nearest_name("x", {"l2", "l3"}), "");             // no typo of a two-letter name
  EXPECT_EQ(nearest_name("microcode", {"model", "l1d"}), ""); // too far from everything
  EXPECT_EQ(nearest_name("anything", {}), "");
  EXPECT_EQ(nearest_name("kernel" + std::string(kMaxSuggested, 'l'), {"kernel"}), "");
  EXPECT_EQ(nearest_name("kernnel", {"kernel", "k"}), "kernel"); // "k" is too short to compare
}

// A key of 1 MB is refused with a message of its first 40 bytes, and no name is suggested for it.
TEST(profile_Bad, AHugeUnknownKeyGivesAShortMessage) {
  const std::string key(size_t(1) << 20, 'k');
  auto r = parse_profile(with_parallel("[parallel]\n" + key + " = 2\n"), "p", full_cpu());
  ASSERT_FALSE(r);
  EXPECT_LT(r.error.size(), 1024u) << r.error.substr(0, 2000);
  EXPECT_NE(r.error.find("unknown key `" + std::string(40, 'k') + "... (1048576 bytes)`"),
            std::string::npos)
      << r.error.substr(0, 2000);
  EXPECT_EQ(r.error.find("did you mean"), std::string::npos);
}

// A key's control characters are shown escaped: a profile cannot write to the terminal.
TEST(profile_Bad, AnUnknownKeyIsShownEscaped) {
  auto r = parse_profile(with_parallel("[parallel]\n\"cpus\\u001b[2J\" = 2\n"), "p", full_cpu());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.find('\x1b'), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("unknown key `cpus\\x1b[2J`"), std::string::npos) << r.error;
}

// Every table and key the reader knows, at each level, refuses a near miss with the nearest name
// and a far one with the list of names.
TEST(profile_Bad, UnknownKeysEverywhere) {
  const std::tuple<std::string, std::string, std::string> cases[] = {
      {"fromat = 1\n", "fromat", "unknown key `fromat`; did you mean `format`?"},
      {"[hots]\nvendor = \"x\"\n", "hots", "unknown table `hots`; did you mean `host`?"},
      {"[tunning]\nlevel = \"quick\"\n", "tunning",
       "unknown table `tunning`; did you mean `tuning`?"},
      {"[[host.eahc]]\nfile = \"a\"\n", "host.eahc",
       "unknown table `host.eahc`; did you mean `host.each`?"},
      {"[[host.each]]\nfiel = \"a\"\n", "host.each[0].fiel",
       "unknown key `fiel`; did you mean `file`?"},
      {"[small.reuse]\nstrategy = \"tree\"\nmax = 256\nbnads = []\n", "small.reuse.bnads",
       "unknown key `bnads`; did you mean `bands`?"},
      {"[small.steam]\nstrategy = \"tree\"\nmax = 256\n", "small.steam",
       "unknown table `small.steam`; did you mean `small.stream`?"},
      {"[parallel]\nthreds = 2\n", "parallel.threds",
       "unknown key `threds` (known here: cpus, reuse, stream)"},
      {"[parallel.reuse]\nsizes = [1]\nthreads = [1]\nspeedups = [1]\n", "parallel.reuse.speedups",
       "unknown key `speedups`; did you mean `speedup`?"},
      {"[[dispatch.batch]]\nkernel = \"stosb\"\nnote = \"erms\"\n", "dispatch.batch[0].note",
       "unknown key `note` (known here: below, kernel, stand_in, gbps, gain, states)"},
      {"tuning = 3\n", "tuning", "must be a table, got an integer"},
  };
  for (const auto &[extra, key, words] : cases) {
    const std::string text = "format = 1\n[host]\nvendor = \"AuthenticAMD\"\nfamily = 25\n"
                             "model = 1\n[[dispatch.reuse]]\nkernel = \"stosb\"\n";
    // Root keys must come before the first table.
    const bool root_key = extra.find('[') != 0;
    const std::string whole = root_key ? extra + text : text + extra;
    EXPECT_TRUE(refused(parse_profile(whole, "p", full_cpu()), "p", -1, key, {words})) << whole;
  }
  // Informational tables keep free keys: a newer tuner may report more.
  EXPECT_TRUE(parse_profile("format = 1\n[host]\nvendor = \"A\"\nfamily = 1\nmodel = 1\n"
                            "[[dispatch.reuse]]\nkernel = \"stosb\"\n[tuning]\nanything = 1\n"
                            "[findings.new]\nx = [1]\n[verification]\nnew = \"y\"\n",
                            "p", full_cpu()));
}
TEST(profile_Bad, KernelThisCpuCannotRun) {
  const CpuInfo cpu = cpu_without(Feature::avx512f);
  const std::string why = unsupported_reason(*parse_spec("avx512:unroll=2"), cpu);
  ASSERT_FALSE(why.empty());
  EXPECT_TRUE(bad("good/avx512.toml", 9, "dispatch.reuse[0].kernel",
                  {"\"avx512:unroll=2\" cannot run on this CPU", why}, cpu));
  EXPECT_TRUE(good("good/avx512.toml", full_cpu()).reuse.size() == 2);
}
TEST(profile_Bad, NonTemporalWithoutFence) {
  EXPECT_TRUE(bad("bad/kernel_nt_fence_none.toml", 11, "dispatch.reuse[1].kernel",
                  {"non-temporal", "fence=none", "measurement only"}));
  // clzero is non-temporal too.
  std::string text = with_below("64");
  text.replace(text.rfind("\"mov\""), 5, "\"clzero:fence=none\"");
  EXPECT_TRUE(refused(parse_profile(text, "clzero", full_cpu()), "clzero", 10,
                      "dispatch.reuse[1].kernel", {"non-temporal", "fence=none"}));
}
TEST(profile_Bad, SurrogatesAndOutOfRangeCodePoints) {
  for (std::string_view seq :
       {"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80", "\xf8\x88\x80\x80\x80"})
    EXPECT_TRUE(
        refused(parse_profile("format = 1\n# " + std::string(seq) + "\n", "utf8", full_cpu()),
                "utf8", 2, "", {"invalid UTF-8"}));
}

TEST(profile_Bad, EverySampleIsRefusedWithItsName) {
  int n = 0;
  for (const auto &e : fs::directory_iterator(kDir + "bad")) {
    const std::string p = e.path().string();
    auto r = load_profile(p, full_cpu());
    EXPECT_FALSE(r) << p;
    EXPECT_TRUE(r.error.starts_with(p + ":")) << r.error;
    ++n;
  }
  EXPECT_GE(n, 50);
}

// ---- Files -----------------------------------------------------------------------------------

TEST(profile_File, MissingPath) {
  const std::string p = sample("bad/no_such_profile.toml");
  EXPECT_TRUE(refused(load_profile(p, full_cpu()), p, 0, "", {"cannot open", "No such file"}));
  EXPECT_TRUE(refused(load_profile("", full_cpu()), "(empty path)", 0, "", {"cannot open"}));
}

TEST(profile_File, Directory) {
  const std::string p = sample("bad");
  EXPECT_TRUE(refused(load_profile(p, full_cpu()), p, 0, "", {"is a directory"}));
}

TEST(profile_File, NotARegularFile) {
  EXPECT_TRUE(
      refused(load_profile("/dev/null", full_cpu()), "/dev/null", 0, "", {"not a regular file"}));
}

TEST(profile_File, UnreadableFile) {
  if (geteuid() == 0)
    GTEST_SKIP() << "root reads files whatever their mode (ReadError covers the read path)";
  TempDir dir;
  const std::string p = dir.file("secret.toml", "format = 1\n");
  ASSERT_EQ(chmod(p.c_str(), 0), 0);
  EXPECT_TRUE(refused(load_profile(p, full_cpu()), p, 0, "", {"cannot open", "Permission denied"}));
}

TEST(profile_File, KernelInterfacesAreRefusedUnread) {
  // /proc/self/mem fails to read; /proc/kmsg blocks, and each read takes the kernel's messages
  // from whoever else reads them. Both look like regular files.
  for (const char *p :
       {"/proc/self/mem", "/proc/kmsg", "/sys/kernel/mm/transparent_hugepage/enabled"}) {
    if (access(p, R_OK) != 0) continue;
    // In a child with a time limit: a regression hangs there, not the suite.
    EXPECT_EQ(test::in_child(
                  [&]() -> std::string {
                    auto r = load_profile(p, full_cpu());
                    const std::string want =
                        std::string(p) + ": a kernel interface (/proc, /sys), not a profile file";
                    return !r && r.error == want ? "" : "got: " + r.error;
                  },
                  10),
              "")
        << p;
  }
}

TEST(profile_File, TooLarge) {
  TempDir dir;
  const std::string p = dir.file("huge.toml", std::string((1u << 20) + 1, '\n'));
  EXPECT_TRUE(refused(load_profile(p, full_cpu()), p, 0, "", {"too large"}));
}

// ---- Robustness ------------------------------------------------------------------------------

std::string read_all(const std::string &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(profile_Robust, EveryTruncationIsHandled) {
  const std::string text = read_all(sample("good/epyc.toml"));
  ASSERT_GT(text.size(), 500u);
  for (size_t n = 0; n < text.size(); ++n) {
    auto r = parse_profile(std::string_view(text).substr(0, n), "cut", full_cpu());
    EXPECT_TRUE(r || r.error.starts_with("cut")) << n << ": " << r.error;
  }
}

TEST(profile_Robust, EverySingleByteChangeIsHandled) {
  const std::string text = read_all(sample("good/epyc.toml"));
  for (size_t i = 0; i < text.size(); ++i)
    for (char c : {'\0', '\xff', '[', '"', '=', '\n', '-'}) {
      std::string t = text;
      t[i] = c;
      auto r = parse_profile(t, "mutant", full_cpu());
      EXPECT_TRUE(r || r.error.starts_with("mutant")) << i << ": " << r.error;
    }
}

// ---- Hostile input: depth, code points, pipes, sizes ----------------------------------------

const std::string kHead = "format = 1\n[host]\nvendor = \"AuthenticAMD\"\nfamily = 25\nmodel = 1\n";
const std::string kTail = "[[dispatch.reuse]]\nkernel = \"stosb\"\n";

using test::repeat;

// Each text is parsed in a child on a 256 KiB stack: a stack overflow (SIGSEGV) fails the test
// instead of the suite, and the small stack is what an application's thread may have.
// `expect_words` empty: the text must load; otherwise it must be refused with them.
std::string parse_on_small_stack(const std::string &text, std::string_view expect_words) {
  return test::in_child([&]() -> std::string {
    std::string error;
    test::on_small_stack(256 << 10, [&] {
      auto r = parse_profile(text, "deep", full_cpu());
      if (expect_words.empty() && !r) error = "refused: " + r.error;
      if (!expect_words.empty() && (r || r.error.find(expect_words) == std::string::npos))
        error = r ? "accepted" : "message lacks '" + std::string(expect_words) + "': " + r.error;
    });
    return error;
  });
}

TEST(profile_Depth, LongDottedKeysAndHeadersAreRefusedBeforeParsing) {
  // 150,000 parts (a 300 KB file) overflowed an 8 MiB stack inside toml++; 5,000 a 256 KiB one.
  for (size_t parts : {size_t(33), size_t(5000), size_t(150000)}) {
    const std::string key = repeat("a", parts, ".");
    for (const std::string &text :
         {kHead + key + " = 1\n" + kTail, kHead + "[" + key + "]\nx = 1\n" + kTail,
          kHead + "[[" + key + "]]\n" + kTail, kHead + "x = { " + key + " = 1 }\n" + kTail})
      EXPECT_EQ(parse_on_small_stack(text, "nested too deep"), "") << parts << " parts";
  }
}

TEST(profile_Depth, DeepArraysAndInlineTablesAreRefusedBeforeParsing) {
  for (size_t depth : {size_t(33), size_t(300), size_t(100000)}) {
    const std::string arrays = kHead + "x = " + repeat("[", depth) + repeat("]", depth) + "\n";
    const std::string tables =
        kHead + "x = " + repeat("{a = ", depth) + "1" + repeat("}", depth) + "\n";
    EXPECT_EQ(parse_on_small_stack(arrays + kTail, "nested too deep"), "") << depth;
    EXPECT_EQ(parse_on_small_stack(tables + kTail, "nested too deep"), "") << depth;
  }
}

TEST(profile_Depth, MixedNestingCountsTogether) {
  // 8 header parts, then 8 key parts and 8 inline tables with 2-part keys: 8 + 8 + 8 * 3 > 32.
  const std::string text = kHead + "[" + repeat("h", 8, ".") + "]\n" + repeat("k", 8, ".") + " = " +
                           repeat("{a.b = ", 8) + "1" + repeat("}", 8) + "\n" + kTail;
  EXPECT_EQ(parse_on_small_stack(text, "nested too deep"), "");
}

TEST(profile_Depth, TheDeepestAcceptedProfileParsesOnASmallStack) {
  // kMaxTomlDepth levels, in each of the ways to nest, in one file; then one more level.
  const int d = kMaxTomlDepth;
  // At the root, before kHead's [host], in [tuning] (whose keys are free): a key part is one
  // level, each bracket one more. Header parts count two levels (each may be an array of
  // tables): the deepest real tree is [[tuning.t]] [[tuning.t.t]] ... with d / 2 parts.
  std::string arrays_of_tables;
  for (int i = 1; i < d / 2; ++i)
    arrays_of_tables += "[[tuning." + repeat("t", size_t(i), ".") + "]]\n";
  const std::string at_limit =
      "tuning." + repeat("a", d - 1, ".") + " = 1\n" + "tuning.arr = " + repeat("[", d - 2) + "1" +
      repeat("]", d - 2) + "\n" + "tuning.tab = " + repeat("{a = ", (d - 2) / 2) + "1" +
      repeat("}", (d - 2) / 2) + "\n" + "tuning.kk.a = " + repeat("[{b.c = ", (d - 3) / 4) + "1" +
      repeat("}]", (d - 3) / 4) + "\n" + kHead + arrays_of_tables + kTail;
  EXPECT_EQ(parse_on_small_stack(at_limit, ""), "");
  EXPECT_EQ(parse_on_small_stack("arr = " + repeat("[", d) + repeat("]", d) + "\n" + kHead + kTail,
                                 "nested too deep"),
            "");
  EXPECT_EQ(parse_on_small_stack(kHead + "[" + repeat("t", d / 2 + 1, ".") + "]\n" + kTail,
                                 "nested too deep"),
            "");
  EXPECT_EQ(parse_on_small_stack(kHead + "[" + repeat("t", d / 2, ".") + "]\nx = 1\n" + kTail,
                                 "nested too deep"),
            "")
      << "a key under the deepest header is one level too many";
  // Dots in values and strings are no key parts.
  EXPECT_EQ(parse_on_small_stack(kHead + "[tuning]\nf = 1.5\nd = 1979-05-27T07:32:00.999\ns = \"" +
                                     repeat(".", 100) + "\"\n\"" + repeat(".", 100) + "\" = 1\n" +
                                     kTail,
                                 ""),
            "");
}

TEST(profile_CodePoints, AcceptedInCommentsAndStrings) {
  // U+00E9, U+00FC, U+00AE, Greek, Cyrillic, CJK punctuation U+3022, Hiragana U+3042, U+FE50:
  // all in the blocks toml++ 3.3 mishandles outside strings and comments.
  const std::string chars = "\u00e9 \u00fc \u00ae \u03b1\u03b2 \u0436 \u3022 \u3042 \ufe50";
  const std::string text = "# tuned by Jos\u00e9: " + chars + "\n" + kHead + "brand = \"" + chars +
                           "\" # " + chars + "\n[tuning]\n" + "lit = '" + chars +
                           "'\nml = \"\"\"\n" + chars + "\n\"\"\"\n" + "mll = '''" + chars + "\n" +
                           chars + "'''\n\"" + chars + "\" = 1\n" + "esc = \"\\t" + chars + "\\\\" +
                           chars + "\"\n" + kTail;
  auto r = parse_profile(text, "utf8", full_cpu());
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r->host.brand, chars);
}

TEST(profile_CodePoints, RefusedWhereTheParserWouldMishandleThem) {
  struct Case {
    std::string text;
    std::string_view words;
  };
  const Case cases[] = {
      {"format = 1\u00e9\n", "U+00E9 at column 11 outside strings and comments"},
      {"\u00e9 = 1\n", "U+00E9 at column 1 outside strings and comments"},
      {"format = 1\n[\u3022]\n", "U+3022 at column 2 outside"},
      {"x = [1, \u0436]\n", "U+0436 at column 9 outside"},
      // toml++ scans a bare value up to a terminator, quotes included (found by the fuzzer).
      {"x = 2048.04b\"p\u040b\"\n", "U+040B at column 15 outside"},
      {"x = [1, 2'\u00e9']\n", "U+00E9 at column 11 outside"},
      {"x = \"\"\"\\\u00e9\"\"\"\n", "U+00E9 at column 9 after a backslash"},
      {"x = \"\"\"a \\\n  \n \u00e9\"\"\"\n", "U+00E9 at column 2 after a line-ending backslash"},
      {"x = \"\"\"a \\  \n\u3042\"\"\"\n", "U+3042 at column 1 after a line-ending backslash"},
      {"x = \"\\\ufe50\"\n", "U+FE50 at column 7 after a backslash"},
      // toml++ skips its own non-ASCII spaces after a line-ending backslash, then tests the next.
      {"x = \"\"\"a\\\n\u3000\u00e9\"\"\"\n", "U+00E9 at column 2 after a line-ending backslash"},
      {"x = \"\"\"a\\ \u00a0\n \u2003\u0436\"\"\"\n", "U+0436 at column 3 after a line-ending"},
  };
  for (const Case &c : cases) {
    auto r = parse_profile(c.text, "cp", full_cpu());
    EXPECT_FALSE(r) << c.text;
    EXPECT_NE(r.error.find(c.words), std::string::npos) << c.text << " -> " << r.error;
  }
  // U+00A0 is in such a block but toml++ knows it: TOML's own refusal, not ours.
  auto nbsp = parse_profile("format\u00a0= 1\n", "cp", full_cpu());
  EXPECT_FALSE(nbsp);
  EXPECT_EQ(nbsp.error.find("mishandles"), std::string::npos) << nbsp.error;
}

TEST(profile_CodePoints, TheRefusedSetMirrorsToml) {
  size_t n = 0;
  for (char32_t cp = 0; cp < 0x110000; ++cp)
    n += toml_mishandles(cp);
  // U+00A1..U+0499, U+2C5E..U+3057 but U+3000, U+FB26..U+FEFE: 3,019.
  EXPECT_EQ(n, size_t((0x499 - 0xA1 + 1) + (0x3057 - 0x2C5E + 1 - 1) + (0xFEFE - 0xFB26 + 1)));
  EXPECT_EQ(n, 3019u);
  EXPECT_TRUE(toml_mishandles(0xE9));
  EXPECT_FALSE(toml_mishandles(0xA0));
  EXPECT_FALSE(toml_mishandles(0x3000));
  EXPECT_FALSE(toml_mishandles(0xFEFF));
  EXPECT_EQ(code_point_name(0xE9), "U+00E9");
  EXPECT_EQ(code_point_name(0x1F600), "U+1F600");
}

std::string make_fifo(const TempDir &dir, const std::string &name) {
  const std::string fifo = dir.file(name, "");
  std::filesystem::remove(fifo);
  if (mkfifo(fifo.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
  return fifo;
}

TEST(profile_File, PipeWithoutAWriterDoesNotBlock) {
  TempDir dir;
  const std::string fifo = make_fifo(dir, "fifo.toml");
  EXPECT_EQ(test::in_child(
                [&]() -> std::string {
                  // An explicit path: pipes allowed, waited for to the pipe timeout (a named
                  // FIFO without a writer is not an empty file: none has come yet).
                  auto r = load_profile(fifo, full_cpu());
                  if (r || r.error.find("no writer opened the pipe within") == std::string::npos)
                    return "got: " + r.error;
                  auto strict = load_profile(fifo, full_cpu(), /*allow_pipe=*/false);
                  if (strict || strict.error.find("not a regular file") == std::string::npos)
                    return "strict got: " + strict.error;
                  return "";
                },
                10),
            "");
}

TEST(profile_File, PipeWhoseWriterNeverClosesTimesOut) {
  TempDir dir;
  const std::string fifo = make_fifo(dir, "slow.toml");
  EXPECT_EQ(test::in_child(
                [&]() -> std::string {
                  // A writer that wrote half a profile and holds the pipe open (O_RDWR: a
                  // FIFO's open that does not wait for the other end).
                  const int writer = open(fifo.c_str(), O_RDWR);
                  if (writer < 0 || write(writer, "format = 1\n", 11) != 11) return "no writer";
                  ReadLimits limits;
                  limits.allow_pipe = true;
                  limits.pipe_timeout_ms = 300;
                  auto r = read_small_file(fifo, limits);
                  if (r || r.error.find("did not deliver the whole file within 300 ms") ==
                               std::string::npos)
                    return "got: " + (r ? "text " + *r : r.error);
                  return "";
                },
                10),
            "");
}

TEST(profile_Classes, AdjacentClassesWithOneKernelMerge) {
  const std::string text = kHead + "[[dispatch.reuse]]\nbelow = 100\nkernel = \"mov\"\n" +
                           "[[dispatch.reuse]]\nbelow = 200\nkernel = \"mov:unroll=8\"\n" +
                           "[[dispatch.reuse]]\nbelow = 300\nkernel = \"stosb\"\n" + kTail;
  auto r = parse_profile(text, "merge", full_cpu());
  ASSERT_TRUE(r) << r.error;
  ASSERT_EQ(r->reuse.size(), 2u); // mov:unroll=8 is mov's default: the same kernel
  EXPECT_EQ(r->reuse[0].below, 200u);
  EXPECT_EQ(canonical(r->reuse[0]), "mov");
  EXPECT_EQ(canonical(r->reuse[1]), "stosb");
}

TEST(profile_Classes, AtMostKMaxClassesPerIntent) {
  auto table = [](size_t n) {
    std::string t = kHead;
    for (size_t i = 0; i + 1 < n; ++i)
      t += "[[dispatch.reuse]]\nbelow = " + std::to_string(64 * (i + 1)) + "\nkernel = \"" +
           (i % 2 ? "mov" : "stosb") + "\"\n";
    return t + "[[dispatch.reuse]]\nkernel = \"" + (n % 2 ? "stosb" : "mov") + "\"\n";
  };
  auto ok = parse_profile(table(kMaxClasses), "cap", full_cpu());
  ASSERT_TRUE(ok) << ok.error;
  EXPECT_EQ(ok->reuse.size(), kMaxClasses);
  EXPECT_TRUE(refused(parse_profile(table(kMaxClasses + 1), "cap", full_cpu()), "cap", 6,
                      "dispatch.reuse", {"has 65 classes, more than the 64"}));
}

TEST(profile_Bad, ALongInvalidSpecIsEchoedOnceAndShort) {
  const std::string spec(900000, 'x');
  auto r =
      parse_profile(kHead + "[[dispatch.reuse]]\nkernel = \"" + spec + "\"\n", "long", full_cpu());
  ASSERT_FALSE(r);
  EXPECT_LT(r.error.size(), 300u) << r.error.substr(0, 400);
  EXPECT_NE(r.error.find("(900000 bytes)"), std::string::npos) << r.error;
}

} // namespace
} // namespace cjit::detail
