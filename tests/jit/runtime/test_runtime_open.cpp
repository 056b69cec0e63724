// clearjit_open: its errors (and how they fit the caller's buffer), warnings and source; the
// C++ wrapper's two ways to open; what a NULL handle is promised.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

using namespace test;

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
  EXPECT_EQ(c->kernel_for(Intent::reuse, 100000), "stosb");
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

TEST_F(runtime_Open, UnknownIntentWarns) {
  const std::string path = dir_ / "typo.toml";
  write_file(path,
             profile_text(host_cpu(), {{0, "stosb"}}) + "\n[[dispatch.steam]]\nkernel = \"mov\"\n");
  std::vector<char> err(4096, '\0');
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
      clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
  ASSERT_TRUE(cj) << errbuf_text(err);
  const std::string w = clearjit_warnings(cj.get());
  EXPECT_NE(w.find("dispatch.steam: unknown intent, ignored"), std::string::npos) << w;
  EXPECT_TRUE(w.starts_with(path + ":")) << w;
}

} // namespace
} // namespace cjit::detail
