// The runtime (jit/runtime/runtime.cpp) in this process: clearjit_open's errors, warnings and
// source; the default lookup of a profile; kernel_for. clearjit_zero, which initialises once per
// process, and clearing under signals and from many threads are test_runtime_zero.cpp's and
// test_runtime_reentrancy.cpp's.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "jit/runtime/runtime.hpp"
#include "tests/support/cpu_kinds.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

namespace fs = std::filesystem;
using namespace test;

// ---------------------------------------------------------------------------------------------
// clearjit_open: its errors (and how they fit the caller's buffer), warnings and source; the C++
// wrapper's two ways to open; what a NULL handle is promised.

class runtime_Open : public ::testing::Test {
protected:
  //! clearjit_open(path) must fail; returns the message (checked against err_len handling).
  std::string open_error(const std::string &path) {
    std::vector<char> err(8192, '\x7f');
    clearjit *cj = clearjit_open(path.c_str(), err.data(), err.size());
    EXPECT_EQ(cj, nullptr) << path;
    clearjit_close(cj);
    const std::string msg = err.data();
    EXPECT_FALSE(msg.empty());
    EXPECT_TRUE(msg.starts_with(path)) << msg; // messages name the file
    // Truncated to err_len - 1 bytes plus the NUL; nothing written past err_len.
    for (size_t len : {size_t(1), size_t(2), size_t(12), msg.size(), msg.size() + 1}) {
      std::vector<char> small(len + 8, '\x7f');
      EXPECT_EQ(clearjit_open(path.c_str(), small.data(), len), nullptr);
      EXPECT_EQ(std::string(small.data()), msg.substr(0, std::min(msg.size(), len - 1)))
          << "err_len=" << len;
      for (size_t i = len; i < small.size(); ++i)
        EXPECT_EQ(small[i], '\x7f') << "err_len=" << len << ": byte " << i << " written";
    }
    std::vector<char> untouched(4, '\x7f'); // err_len 0: nothing written at all
    EXPECT_EQ(clearjit_open(path.c_str(), untouched.data(), 0), nullptr);
    EXPECT_EQ(untouched[0], '\x7f');
    EXPECT_EQ(clearjit_open(path.c_str(), nullptr, 100), nullptr); // err may be NULL
    return msg;
  }
  TempDir dir_;
};

TEST_F(runtime_Open, MissingFile) {
  const std::string path = dir_ / "missing.toml";
  EXPECT_EQ(open_error(path), path + ": cannot open: No such file or directory");
}

TEST_F(runtime_Open, Directory) {
  const std::string path = dir_.path().string();
  EXPECT_EQ(open_error(path), path + ": is a directory, not a profile file");
}

TEST_F(runtime_Open, BadProfileGivesTheLoadersMessage) {
  const std::string path = (kRuntimeProfiles / "bad.toml").string();
  const std::string msg = open_error(path);
  EXPECT_EQ(msg, load_profile(path, host_cpu()).error);
  EXPECT_NE(msg.find(":15: dispatch.reuse[1].below: must be greater"), std::string::npos) << msg;
}

// Kernels the loader refuses: one this CPU cannot run (when there is such a method), and a
// non-temporal kernel without a fence (refused on every CPU).
TEST_F(runtime_Open, KernelTheLoaderRefuses) {
  for (const MethodInfo &mi : methods())
    if (!unsupported_reason(default_spec(mi.method), host_cpu()).empty()) {
      const std::string path = dir_ / "unsupported.toml";
      write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, std::string(mi.name)}}));
      EXPECT_NE(open_error(path).find("cannot run on this CPU"), std::string::npos) << mi.name;
      break;
    }
  const std::string path = dir_ / "unfenced.toml";
  write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "movnti:fence=none"}}));
  EXPECT_NE(open_error(path).find("is non-temporal with fence=none"), std::string::npos);
}

TEST_F(runtime_Open, CppWrapperThrowsTheMessage) {
  const std::string path = dir_ / "missing.toml";
  try {
    Clearer c(path);
    ADD_FAILURE() << "no exception";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}

// Clearer::open: the same message as the exception, without one; a good path opens.
TEST_F(runtime_Open, CppWrapperOpensWithoutThrowing) {
  const std::string path = dir_ / "missing.toml";
  std::string error;
  EXPECT_FALSE(Clearer::open(path, &error));
  EXPECT_EQ(error, path + ": cannot open: No such file or directory");
  EXPECT_FALSE(Clearer::open(path)); // error may be left out
  const std::string good = dir_ / "good.toml";
  write_file(good, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
  error.clear();
  std::optional<Clearer> c = Clearer::open(good, &error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(error, "");
  EXPECT_EQ(c->source(), good);
  EXPECT_EQ(c->kernel_for(cjit::Intent::reuse, 100000), "stosb");
  std::vector<uint8_t> buf(5000, 0xA5);
  c->clear(buf.data(), buf.size());
  EXPECT_EQ(test::first_nonzero(buf.data(), buf.size()), buf.size());
}

// What clearjit.h promises for a NULL handle (a failed clearjit_open): no crash, "" or 0.
TEST(runtime_NullHandle, CheapFunctionsAreSafe) {
  const clearjit *none = nullptr;
  EXPECT_STREQ(clearjit_kernel_for(none, CLEARJIT_REUSE, 100), "");
  EXPECT_STREQ(clearjit_kernel_for(none, CLEARJIT_STREAM_BATCH, 100), "");
  EXPECT_STREQ(clearjit_profile_source(none), "");
  EXPECT_STREQ(clearjit_warnings(none), "");
  EXPECT_EQ(clearjit_batches_open(none), 0u);
  (clearjit_close)(nullptr);
  clearjit_kernel_free(nullptr);
  // A batch begun on NULL is not open: its pieces are cleared by clearjit_zero, fenced.
  clearjit_batch b;
  clearjit_batch_begin(&b, none);
  EXPECT_EQ(b.open, 0);
  std::vector<uint8_t> buf(3000, 0xA5);
  (clearjit_batch_clear)(&b, buf.data(), buf.size());
  EXPECT_EQ(test::first_nonzero(buf.data(), buf.size()), buf.size());
  EXPECT_EQ((clearjit_batch_end)(&b), 0u);
}

TEST_F(runtime_Open, OtherCpuLoadsWithAWarningNamingBothCpus) {
  const std::string path = (kRuntimeProfiles / "other_cpu.toml").string();
  const Profile p = load_or_throw(path, host_cpu());
  if (same_cpu(p.host, host_cpu())) GTEST_SKIP() << "this machine is the CPU other_cpu.toml names";
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  const std::string w = clearjit_warnings(cj.get());
  const CpuInfo &h = host_cpu();
  EXPECT_TRUE(w.starts_with(path + ": ")) << w;
  EXPECT_NE(w.find("measured on GenuineIntel family 6 model 143"), std::string::npos) << w;
  EXPECT_NE(w.find("this CPU is " + h.vendor + " family " + std::to_string(h.family) + " model " +
                   std::to_string(h.model)),
            std::string::npos)
      << w;
  EXPECT_TRUE(w.ends_with("\n")) << w;
  EXPECT_STREQ(clearjit_profile_source(cj.get()), path.c_str());
  // It still clears with its own table.
  EXPECT_STREQ(clearjit_kernel_for(cj.get(), CLEARJIT_REUSE, 4095), "mov");
  EXPECT_STREQ(clearjit_kernel_for(cj.get(), CLEARJIT_STREAM, 4096), "stosb");
  const clearjit *c = cj.get();
  EXPECT_EQ(sweep_sizes("other cpu", [c](void *d, size_t n) { clearjit_clear(c, d, n); },
                        {0, 300, 4095, 4096, 5000}),
            0);
}

TEST_F(runtime_Open, ThisCpuHasNoWarningsAndSourceIsThePath) {
  const std::string path = dir_ / "this_cpu.toml";
  write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  EXPECT_STREQ(clearjit_warnings(cj.get()), "");
  EXPECT_STREQ(clearjit_profile_source(cj.get()), path.c_str());
}

TEST_F(runtime_Open, UnknownIntentIsRefused) {
  const std::string path = dir_ / "typo.toml";
  write_file(path,
             profile_text(host_cpu(), {{0, "stosb"}}) + "\n[[dispatch.steam]]\nkernel = \"mov\"\n");
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
  ASSERT_FALSE(cj);
  const std::string e = errbuf_text(err);
  EXPECT_NE(e.find("dispatch.steam: unknown table `dispatch.steam`; did you mean "
                   "`dispatch.stream`?"),
            std::string::npos)
      << e;
  EXPECT_TRUE(e.starts_with(path + ":")) << e;
}

// A profile's memset classes under the C library it was tuned under, and under another: the
// C library's name is injected, as clearjit_open passes running_memset().
TEST(runtime_StandIns, AnotherCLibraryRunsTheStandInsAndSaysSo) {
  const CpuInfo &cpu = host_cpu();
  Profile p;
  p.host = profile_host(cpu);
  p.source = "tuned.toml";
  p.libc = "glibc 2.36";
  p.reuse = size_classes({{4096, "libc"}, {1 << 20, "mov"}, {0, "libc"}});
  p.reuse[0].stand_in = *parse_spec("mov");
  p.reuse[2].stand_in = *parse_spec("stosb");
  for (const char *libc : {"glibc 2.36", "glibc 2.41"}) {
    const bool other = std::string(libc) != p.libc;
    std::string error;
    std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open_profile(p, cpu, error, libc),
                                                            clearjit_close);
    ASSERT_TRUE(cj) << libc << ": " << error;
    for (clearjit_intent intent : {CLEARJIT_REUSE, CLEARJIT_STREAM, CLEARJIT_STREAM_BATCH}) {
      EXPECT_STREQ(clearjit_kernel_for(cj.get(), intent, 300), other ? "mov" : "libc") << libc;
      EXPECT_STREQ(clearjit_kernel_for(cj.get(), intent, 64 << 20), other ? "stosb" : "libc")
          << libc;
    }
    const std::string w = clearjit_warnings(cj.get());
    EXPECT_EQ(w.find("tuned.toml: tuned against glibc 2.36's memset, this process runs glibc "
                     "2.41: memset's classes run their stand-ins (reuse 0 B .. 4 KiB: mov; reuse "
                     "1 MiB .. up: stosb)\n"),
              other ? 0 : std::string::npos)
        << w;
    const clearjit *c = cj.get();
    EXPECT_EQ(sweep_sizes(libc, [c](void *d, size_t n) { clearjit_clear(c, d, n); },
                          {0, 300, 4095, 4096, (1 << 20) - 1, 1 << 20, 3 << 20}),
              0);
  }
}

// This process calls the C library's own memset: no other was interposed on it.
TEST(runtime_StandIns, TheRunningMemsetIsTheCLibrarys) {
  EXPECT_EQ(running_memset(), running_libc());
}

// ---------------------------------------------------------------------------------------------
// The default lookup: $CLEARJIT_PROFILE, $XDG_CONFIG_HOME, ~/.config, the installed profiles and
// the built-in default, in that order, and what each refusal says.

// Every step the test does not control is pointed at empty directories; the environment is
// restored afterwards. /etc/clearjit/profile.toml and the installed profiles cannot be
// redirected, so assertions past them are skipped when they exist.
class runtime_Lookup : public ::testing::Test {
protected:
  runtime_Lookup()
      : profile_env_("CLEARJIT_PROFILE", nullptr), xdg_env_("XDG_CONFIG_HOME", dir_ / "xdg"),
        home_env_("HOME", dir_ / "home") {
    fs::create_directories(dir_ / "xdg");
    fs::create_directories(dir_ / "home");
  }
  std::string valid(const std::string &path) {
    write_file(path, profile_text(host_cpu(), {{4096, "mov:unroll=4"}, {0, "stosb"}}));
    return path;
  }
  static bool etc_exists() { return fs::exists("/etc/clearjit/profile.toml"); }
  static std::string show(const Lookup &l) {
    std::string out;
    for (const LookupStep &s : l.steps)
      out +=
          "  " + s.step + " | " + s.path + " | " + s.result + (s.chosen ? " (chosen)" : "") + "\n";
    return out + (l.profile ? "  profile " + l.profile->source : "  error " + l.profile.error) +
           "\n";
  }
  //! clearjit_open(NULL) opens what the lookup chose.
  void expect_open_null_source(const std::string &source) {
    std::vector<char> err(4096, '\0');
    std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
        clearjit_open(nullptr, err.data(), err.size()), clearjit_close);
    ASSERT_TRUE(cj) << errbuf_text(err);
    EXPECT_STREQ(clearjit_profile_source(cj.get()), source.c_str());
    EXPECT_STREQ(clearjit_warnings(cj.get()), "");
  }

  TempDir dir_;
  ScopedEnv profile_env_, xdg_env_, home_env_;
};

TEST_F(runtime_Lookup, EnvProfileIsChosen) {
  const std::string path = valid(dir_ / "env.toml");
  ScopedEnv e("CLEARJIT_PROFILE", path);
  const Lookup l = default_lookup(host_cpu());
  ASSERT_EQ(l.steps.size(), 1u) << show(l);
  EXPECT_EQ(l.steps[0].step, "$CLEARJIT_PROFILE");
  EXPECT_EQ(l.steps[0].path, path);
  EXPECT_EQ(l.steps[0].result, "chosen");
  EXPECT_TRUE(l.steps[0].chosen);
  ASSERT_TRUE(l.profile) << l.profile.error;
  EXPECT_EQ(l.profile->source, path);
  expect_open_null_source(path);
}

TEST_F(runtime_Lookup, EnvProfileForAnotherCpuIsUsedWithAWarning) {
  // $CLEARJIT_PROFILE names one file on purpose: like an explicit path, it loads with a
  // warning (it used to fall back to the built-in default, silently).
  const std::string path = (kRuntimeProfiles / "other_cpu.toml").string();
  if (same_cpu(load_or_throw(path, host_cpu()).host, host_cpu()))
    GTEST_SKIP() << "this machine is the CPU other_cpu.toml names";
  ScopedEnv e("CLEARJIT_PROFILE", path);
  const Lookup l = default_lookup(host_cpu());
  ASSERT_EQ(l.steps.size(), 1u) << show(l);
  EXPECT_EQ(l.steps[0].path, path);
  EXPECT_EQ(l.steps[0].result,
            "chosen, though measured on another CPU (GenuineIntel family 6 model 143)");
  EXPECT_TRUE(l.steps[0].chosen);
  ASSERT_TRUE(l.profile) << show(l);
  EXPECT_EQ(l.profile->source, path);

  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(nullptr, err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  EXPECT_STREQ(clearjit_profile_source(cj.get()), path.c_str());
  EXPECT_NE(std::string(clearjit_warnings(cj.get())).find("measured on GenuineIntel family 6"),
            std::string::npos)
      << clearjit_warnings(cj.get());
}

TEST_F(runtime_Lookup, RelativeXdgConfigHomeIsSaidToBeIgnored) {
  ScopedEnv xdg("XDG_CONFIG_HOME", "relative/config");
  const Lookup l = default_lookup(host_cpu());
  ASSERT_GE(l.steps.size(), 3u) << show(l);
  EXPECT_EQ(l.steps[1].step, "$XDG_CONFIG_HOME");
  EXPECT_EQ(l.steps[1].path, "relative/config");
  EXPECT_NE(l.steps[1].result.find("ignored: not an absolute path"), std::string::npos) << show(l);
  EXPECT_EQ(l.steps[2].step, "~/.config/clearjit/profile.toml");
}

TEST_F(runtime_Lookup, NonRegularFilesAreRefusedWithoutBlocking) {
  // A FIFO at the user's profile path: the lookup waited for a writer, forever. In a child with
  // a time limit, so a regression fails this test instead of hanging the suite.
  const std::string fifo = (dir_ / "xdg" / "clearjit" / "profile.toml").string();
  fs::create_directories(dir_ / "xdg" / "clearjit");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(test::in_child(
                [&]() -> std::string {
                  const Lookup l = default_lookup(host_cpu());
                  if (l.steps.size() < 2 ||
                      l.steps[1].result.find("not a regular file") == std::string::npos ||
                      l.profile)
                    return show(l);
                  clearjit_zero(nullptr, 0); // falls back to the built-in default, at once
                  return "";
                },
                10),
            "");
}

TEST_F(runtime_Lookup, EnvProfileBadStopsWithItsError) {
  const std::string path = (kRuntimeProfiles / "bad.toml").string();
  valid(dir_ / "xdg" / "clearjit" / "profile.toml"); // would be chosen next: must not be reached
  ScopedEnv e("CLEARJIT_PROFILE", path);
  const Lookup l = default_lookup(host_cpu());
  const std::string error = load_profile(path, host_cpu()).error;
  ASSERT_FALSE(l.profile) << show(l);
  EXPECT_EQ(l.profile.error, error);
  ASSERT_EQ(l.steps.size(), 1u) << show(l);
  EXPECT_EQ(l.steps[0].result, "invalid: " + error);
  std::vector<char> err(4096, '\0');
  EXPECT_EQ(clearjit_open(nullptr, err.data(), err.size()), nullptr);
  EXPECT_EQ(errbuf_text(err), error);
}

TEST_F(runtime_Lookup, EnvProfileMissingIsNotFound) {
  ScopedEnv e("CLEARJIT_PROFILE", dir_ / "nowhere.toml");
  const Lookup l = default_lookup(host_cpu());
  ASSERT_GE(l.steps.size(), 2u) << show(l);
  EXPECT_EQ(l.steps[0].result, "not found");
}

TEST_F(runtime_Lookup, XdgConfigHomeIsChosen) {
  const std::string path = valid(dir_ / "xdg" / "clearjit" / "profile.toml");
  valid(dir_ / "home" / ".config" / "clearjit" / "profile.toml"); // $XDG_CONFIG_HOME wins over ~
  const Lookup l = default_lookup(host_cpu());
  ASSERT_EQ(l.steps.size(), 2u) << show(l);
  EXPECT_EQ(l.steps[0].result, "not set");
  EXPECT_EQ(l.steps[1].step, "$XDG_CONFIG_HOME/clearjit/profile.toml");
  EXPECT_EQ(l.steps[1].path, path);
  EXPECT_EQ(l.steps[1].result, "chosen");
  ASSERT_TRUE(l.profile) << show(l);
  EXPECT_EQ(l.profile->source, path);
  expect_open_null_source(path);
}

TEST_F(runtime_Lookup, HomeConfigIsChosenWithoutXdg) {
  const std::string path = valid(dir_ / "home" / ".config" / "clearjit" / "profile.toml");
  for (const char *xdg : {static_cast<const char *>(nullptr), ""}) { // unset, and set but empty
    ScopedEnv e("XDG_CONFIG_HOME", xdg);
    const Lookup l = default_lookup(host_cpu());
    ASSERT_EQ(l.steps.size(), 2u) << show(l);
    EXPECT_EQ(l.steps[1].step, "~/.config/clearjit/profile.toml");
    EXPECT_EQ(l.steps[1].path, path);
    EXPECT_EQ(l.steps[1].result, "chosen");
    ASSERT_TRUE(l.profile) << show(l);
    EXPECT_EQ(l.profile->source, path);
    expect_open_null_source(path);
  }
}

TEST_F(runtime_Lookup, BadUserFileStopsWithItsError) {
  const std::string path = dir_ / "xdg" / "clearjit" / "profile.toml";
  fs::create_directories(fs::path(path).parent_path());
  fs::copy_file(kRuntimeProfiles / "bad.toml", path);
  const Lookup l = default_lookup(host_cpu());
  ASSERT_FALSE(l.profile) << show(l);
  EXPECT_EQ(l.profile.error, load_profile(path, host_cpu()).error);
  EXPECT_EQ(l.steps.back().result, "invalid: " + l.profile.error);
}

// An AMD EPYC family 25 model 17 (Zen 4), with AVX-512 or with it hidden by the hypervisor.
CpuInfo zen4(bool avx512) {
  CpuInfo c;
  c.vendor = "AuthenticAMD";
  c.brand = "Synthetic Zen 4";
  c.family = 25;
  c.model = 17;
  for (Feature f : {Feature::sse2, Feature::avx, Feature::avx2, Feature::erms, Feature::fsrm,
                    Feature::clzero, Feature::bmi2})
    c.set(f);
  if (avx512)
    for (Feature f : {Feature::avx512f, Feature::avx512bw, Feature::avx512vl})
      c.set(f);
  return c;
}

TEST_F(runtime_Lookup, AProfileNeedingAHiddenFeatureIsPassedOver) {
  if (etc_exists()) GTEST_SKIP() << "/etc/clearjit/profile.toml exists on this machine";
  const CpuInfo with = zen4(true), without = zen4(false);
  const std::string path = dir_ / "xdg" / "clearjit" / "profile.toml";
  write_file(path, profile_text(with, {{1 << 20, "avx2"}, {0, "ntavx512:unroll=4"}}));
  const std::string why = "needs AVX512F, which this CPU lacks (dispatch.reuse: ntavx512:unroll=4)";

  const Lookup l = default_lookup(without);
  ASSERT_TRUE(l.profile) << show(l);
  ASSERT_GE(l.steps.size(), 4u) << show(l);
  EXPECT_EQ(l.steps[1].path, path);
  EXPECT_EQ(l.steps[1].result, "skipped: " + why);
  EXPECT_FALSE(l.steps[1].chosen);
  EXPECT_TRUE(l.steps.back().chosen);
  EXPECT_NE(l.profile->source, path);
  ASSERT_FALSE(l.profile->warnings.empty());
  EXPECT_EQ(l.profile->warnings.front(), path + ": skipped: " + why);

  // clearjit_open(NULL) for that CPU opens the next step, and says why in its warnings.
  std::string error;
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open_lookup(without, error),
                                                          clearjit_close);
  ASSERT_TRUE(cj) << error;
  EXPECT_STREQ(clearjit_profile_source(cj.get()), l.profile->source.c_str());
  EXPECT_NE(std::string(clearjit_warnings(cj.get())).find(path + ": skipped: " + why),
            std::string::npos)
      << clearjit_warnings(cj.get());

  // The CPU it was measured on takes it.
  const Lookup here = default_lookup(with);
  ASSERT_TRUE(here.profile) << show(here);
  EXPECT_EQ(here.profile->source, path);
  EXPECT_EQ(here.steps[1].result, "chosen");

  // Named on purpose, it stays an error that names the kernel.
  ScopedEnv e("CLEARJIT_PROFILE", path);
  const Lookup named = default_lookup(without);
  ASSERT_FALSE(named.profile) << show(named);
  EXPECT_NE(named.profile.error.find("kernel \"ntavx512:unroll=4\" cannot run on this CPU: "
                                     "ntavx512 needs AVX512F, which this CPU lacks"),
            std::string::npos)
      << named.profile.error;
  EXPECT_FALSE(open_lookup(without, error));
  EXPECT_EQ(error, named.profile.error);
}

TEST_F(runtime_Lookup, ASmallPathNeedingAHiddenFeatureIsPassedOver) {
  if (etc_exists()) GTEST_SKIP() << "/etc/clearjit/profile.toml exists on this machine";
  Profile p;
  p.host = profile_host(zen4(true));
  p.reuse = size_classes({{0, "avx2"}});
  p.small_stream = SmallPath{Small::masked, 256};
  EXPECT_EQ(missing_features(p, zen4(true)), "");
  EXPECT_EQ(missing_features(p, zen4(false)),
            "needs AVX512F, which this CPU lacks (small.stream: masked)");
  const std::string path = dir_ / "xdg" / "clearjit" / "profile.toml";
  write_file(path, format_profile(p));
  const Lookup l = default_lookup(zen4(false));
  ASSERT_TRUE(l.profile) << show(l);
  EXPECT_EQ(l.steps[1].result,
            "skipped: needs AVX512F, which this CPU lacks (small.stream: masked)");
}

TEST_F(runtime_Lookup, AnotherModelsProfileIsSkippedNotRefused) {
  if (etc_exists()) GTEST_SKIP() << "/etc/clearjit/profile.toml exists on this machine";
  // Measured on another CPU and needing a feature this one lacks: passed over as another
  // CPU's (it used to stop the lookup as invalid).
  const std::string path = dir_ / "xdg" / "clearjit" / "profile.toml";
  write_file(path, profile_text(full_cpu(), {{0, "ntavx512"}}));
  const Lookup l = default_lookup(minimal_cpu());
  ASSERT_TRUE(l.profile) << show(l);
  EXPECT_EQ(l.steps[1].result, "skipped: measured on another CPU (AuthenticAMD family 25 model 1)");
}

TEST(runtime_Installed, TheRunnableProfileWithTheNearestFeaturesIsChosen) {
  TempDir dir;
  // By name the one without AVX-512 comes first ('-' sorts before '.').
  const std::string without_file = dir / "amd-family25-model17-noavx512.toml",
                    with_file = dir / "amd-family25-model17.toml",
                    other_file = dir / "amd-family26-model2.toml", bad_file = dir / "broken.toml";
  write_file(without_file, profile_text(zen4(false), {{0, "avx2:unroll=4"}}));
  write_file(with_file, profile_text(zen4(true), {{1 << 20, "avx512"}, {0, "ntavx512"}}));
  CpuInfo zen5 = zen4(true);
  zen5.family = 26;
  zen5.model = 2;
  write_file(other_file, profile_text(zen5, {{0, "stosb"}}));
  write_file(bad_file, "format = 1\n[host\n");
  std::vector<std::string> files = {without_file, with_file, other_file, bad_file};
  std::sort(files.begin(), files.end());

  InstalledChoice hidden = choose_installed(files, zen4(false));
  ASSERT_TRUE(hidden.profile) << hidden.profile.error;
  EXPECT_EQ(hidden.profile->source, without_file);
  ASSERT_EQ(hidden.skipped.size(), 1u);
  EXPECT_EQ(hidden.skipped[0],
            with_file + ": skipped: needs AVX512F, which this CPU lacks (dispatch.reuse: avx512)");

  InstalledChoice exposed = choose_installed(files, zen4(true));
  ASSERT_TRUE(exposed.profile) << exposed.profile.error;
  EXPECT_EQ(exposed.profile->source, with_file) << "both run: the one measured like this CPU";
  EXPECT_TRUE(exposed.skipped.empty());

  EXPECT_FALSE(choose_installed(files, minimal_cpu()).profile);
}

// The profiles shipped in profiles/, as the installed step sees them, on every kind of CPU met:
// each kind takes the one measured on it, or none.
TEST(runtime_Installed, EachKindTakesItsShippedProfile) {
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(CLEARJIT_SOURCE_DIR "/profiles"))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  const std::map<std::string, std::string> expected = {
      {"Zen3", ""},
      {"Zen4", "amd-family25-model17.toml"},
      {"Zen4NoAvx512", ""},
      {"Zen5L3_508M", "amd-family26-model2.toml"},
      {"Zen5NoMovdir64b", "amd-family26-model2-nomovdir64b.toml"},
      {"IntelEmeraldRapids", "intel-family6-model207.toml"},
  };
  for (const CpuKind &k : cpu_kinds()) {
    const InstalledChoice c = choose_installed(files, k.info);
    const std::string &want = expected.at(k.name);
    if (want.empty()) {
      EXPECT_FALSE(c.profile) << k.name << ": " << c.profile->source;
      continue;
    }
    ASSERT_TRUE(c.profile) << k.name << ": " << c.profile.error;
    EXPECT_EQ(std::filesystem::path(c.profile->source).filename(), want) << k.name;
  }
}

TEST_F(runtime_Lookup, NothingMeansBuiltIn) {
  if (etc_exists()) GTEST_SKIP() << "/etc/clearjit/profile.toml exists on this machine";
  const Lookup l = default_lookup(host_cpu());
  ASSERT_GE(l.steps.size(), 4u) << show(l);
  EXPECT_EQ(l.steps[0].result, "not set");
  EXPECT_EQ(l.steps[1].result, "not found");
  EXPECT_EQ(l.steps[2].step, "/etc/clearjit/profile.toml");
  EXPECT_EQ(l.steps[2].result, "not found");
  EXPECT_EQ(l.steps[3].step, "installed profiles");
  if (l.steps[3].chosen)
    GTEST_SKIP() << "an installed profile for this CPU exists: " << l.steps[3].path;
  ASSERT_EQ(l.steps.size(), 5u) << show(l);
  EXPECT_EQ(l.steps[4].step, "built-in default");
  EXPECT_TRUE(l.steps[4].chosen);
  ASSERT_TRUE(l.profile) << show(l);
  EXPECT_EQ(l.profile->source, "built-in");
  expect_open_null_source("built-in");

  // The built-in dispatcher through the C API: the tables builtin_profile documents, and clears.
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(nullptr, err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  const Profile b = builtin_profile(host_cpu());
  for (Intent i : kIntents)
    for (uint64_t n : routing_probes(b.table(i)))
      EXPECT_EQ(clearjit_kernel_for(cj.get(), clearjit_intent(i), n),
                format_spec(class_for(b.table(i), n).kernel));
  const clearjit *c = cj.get();
  const auto sizes = boundary_sizes({&b.reuse, &b.stream}, kClearLimit);
  EXPECT_EQ(sweep_sizes(
                "built-in reuse", [c](void *d, size_t n) { clearjit_clear(c, d, n); }, sizes),
            0);
  EXPECT_EQ(
      sweep_sizes(
          "built-in stream", [c](void *d, size_t n) { clearjit_clear_stream(c, d, n); }, sizes),
      0);
}

// ---------------------------------------------------------------------------------------------
// kernel_for: the canonical spec of the right class, written out by hand, for both tables, a
// profile without a stream table, and the C++ wrapper.

// Non-canonical spellings, bounds at odd places, at INT32_MAX, 2 GiB, 3 GiB and 1 TiB; kernels
// any x86-64 runs. Canonical forms are spelled out rather than computed with format_spec.
const std::vector<ClassText> kKernelForReuse = {
    {300, "mov:unroll=8"},
    {4096, "sse:align=0,unroll=2"},
    {65600, "stosq:chunk=4096"},
    {k1M64, "movnti:fence=end"},
    {uint64_t(INT32_MAX), "ntsse:fence=chunk,chunk=4K"},
    {k2G, "stosb:align=16"},
    {k3G, "libc"},
    {k1T, "stosq"},
    {0, "mov:unroll=1"},
};
const std::vector<std::string> kKernelForReuseCanonical = {"mov",
                                                           "sse:unroll=2",
                                                           "stosq:chunk=4K",
                                                           "movnti",
                                                           "ntsse:chunk=4K,fence=chunk",
                                                           "stosb:align=16",
                                                           "libc",
                                                           "stosq",
                                                           "mov:unroll=1"};
const std::vector<ClassText> kKernelForStream = {
    {4095, "stosb:chunk=0"},
    {k3G + 1, "ntsse:unroll=4"},
    {0, "movnti:align=64,unroll=4"},
};
const std::vector<std::string> kKernelForStreamCanonical = {"stosb", "ntsse", "movnti:unroll=4"};

void expect_kernel_for(const clearjit *cj, clearjit_intent intent,
                       const std::vector<ClassText> &classes,
                       const std::vector<std::string> &canonical) {
  ASSERT_EQ(classes.size(), canonical.size());
  const char *name = intent == CLEARJIT_STREAM ? "stream" : "reuse";
  EXPECT_STREQ(clearjit_kernel_for(cj, intent, 0), canonical.front().c_str()) << name << " n=0";
  EXPECT_STREQ(clearjit_kernel_for(cj, intent, SIZE_MAX), canonical.back().c_str())
      << name << " n=SIZE_MAX";
  for (size_t i = 0; i + 1 < classes.size(); ++i) {
    const uint64_t b = classes[i].below;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b - 1), canonical[i].c_str())
        << name << " n=below-1=" << b - 1;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b), canonical[i + 1].c_str())
        << name << " n=below=" << b;
    // below+1 may already be the next class's below (INT32_MAX, then 2 GiB).
    const size_t above = i + 2 < classes.size() && b + 1 >= classes[i + 1].below ? i + 2 : i + 1;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b + 1), canonical[above].c_str())
        << name << " n=below+1=" << b + 1;
  }
}

class runtime_KernelFor : public ::testing::Test {
protected:
  clearjit *open(const std::vector<ClassText> &stream) {
    const std::string path = dir_ / "kernel_for.toml";
    write_file(path, profile_text(host_cpu(), kKernelForReuse, stream));
    std::vector<char> err(4096, '\0');
    clearjit *cj = clearjit_open(path.c_str(), err.data(), err.size());
    EXPECT_NE(cj, nullptr) << errbuf_text(err);
    return cj;
  }
  TempDir dir_;
};

TEST_F(runtime_KernelFor, BothTables) {
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open(kKernelForStream), clearjit_close);
  ASSERT_TRUE(cj);
  expect_kernel_for(cj.get(), CLEARJIT_REUSE, kKernelForReuse, kKernelForReuseCanonical);
  expect_kernel_for(cj.get(), CLEARJIT_STREAM, kKernelForStream, kKernelForStreamCanonical);
  // The returned text stays valid (and the same) until close.
  const char *first = clearjit_kernel_for(cj.get(), CLEARJIT_STREAM, 4095);
  clearjit_kernel_for(cj.get(), CLEARJIT_REUSE, 4095);
  EXPECT_STREQ(first, "ntsse");
}

TEST_F(runtime_KernelFor, WithoutStreamTheStreamIntentUsesReuse) {
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open({}), clearjit_close);
  ASSERT_TRUE(cj);
  expect_kernel_for(cj.get(), CLEARJIT_REUSE, kKernelForReuse, kKernelForReuseCanonical);
  expect_kernel_for(cj.get(), CLEARJIT_STREAM, kKernelForReuse, kKernelForReuseCanonical);
  // And the stream dispatcher clears like the reuse one (its table is reuse's; its small path may
  // differ, see default_small).
  const std::vector<uint64_t> sizes = {0, 1, 255, 256, 299, 300, 4095, 4096, 65599, 65600};
  const clearjit *c = cj.get();
  EXPECT_EQ(
      sweep_sizes(
          "reuse-only stream", [c](void *d, size_t n) { clearjit_clear_stream(c, d, n); }, sizes),
      0);
}

// The C++ wrapper reports the same names.
TEST_F(runtime_KernelFor, ClearerWrapper) {
  const std::string path = dir_ / "kernel_for.toml";
  write_file(path, profile_text(host_cpu(), kKernelForReuse, kKernelForStream));
  Clearer c(path);
  EXPECT_EQ(c.kernel_for(cjit::Intent::reuse, 65600), "movnti");
  EXPECT_EQ(c.kernel_for(cjit::Intent::stream, 65600), "ntsse");
  EXPECT_EQ(c.source(), path);
  EXPECT_EQ(c.warnings(), "");
}

} // namespace
} // namespace cjit::detail
