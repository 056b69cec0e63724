// Stream clears in batches, fenced once: the C and C++ API, the batch table in profiles, and
// the checks that make a forgotten or misused batch hard to miss. Built without NDEBUG so the
// header's debug checks are on, as in an application's debug build.
#undef NDEBUG
#include "clearjit/clearjit.hpp"
#include "jit/profile/files.hpp"
#include "jit/profile/profile.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

namespace fs = std::filesystem;

// A profile for this CPU whose stream and batch tables use a non-temporal kernel it can run.
std::string batch_profile(const std::string &dir, bool with_batch) {
  const CpuInfo &cpu = host_cpu();
  const std::string nt = cpu.has(Feature::avx2) ? "ntavx2" : "ntsse";
  const std::string text =
      test::profile_text(cpu, {{0, "stosb"}}, {{65536, "stosb"}, {0, nt}},
                         with_batch ? std::vector<test::ClassText>{{1024, "mov"}, {0, nt}}
                                    : std::vector<test::ClassText>{});
  const std::string path = dir + (with_batch ? "/batch.toml" : "/nobatch.toml");
  std::ofstream(path) << text;
  return path;
}

class batch : public ::testing::Test {
protected:
  batch() : dir_(fs::path(testing::TempDir()) / ("clearjit_batch_" + std::to_string(getpid()))) {
    fs::create_directories(dir_);
  }
  ~batch() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_F(batch, ClearsEveryPieceExactly) {
  Clearer c(batch_profile(dir_, true));
  EXPECT_STREQ(clearjit_kernel_for(c.get(), CLEARJIT_STREAM_BATCH, 100), "mov");
  EXPECT_STRNE(clearjit_kernel_for(c.get(), CLEARJIT_STREAM_BATCH, 1 << 20), "stosb");
  // Pieces of every size up to 3 KiB and a few large ones, at every offset 0..63, each flush
  // against the guard page above.
  test::GuardedBuffer buf(8 << 20);
  std::vector<size_t> sizes;
  for (size_t n = 0; n <= 3072; n += (n < 300 ? 1 : 61))
    sizes.push_back(n);
  for (size_t n : {size_t(4096), size_t(65536), size_t(65537), size_t(1) << 20, size_t(3) << 20})
    sizes.push_back(n);
  clearjit_batch b;
  clearjit_batch_begin(&b, c.get());
  EXPECT_EQ(clearjit_batches_open(c.get()), 1u);
  size_t pieces = 0;
  for (size_t n : sizes)
    for (size_t off : {size_t(0), size_t(1), size_t(63)}) {
      uint8_t *p = buf.end() - n - off;
      test::fill_pattern(buf.end() - n - 64, n + 64);
      clearjit_batch_clear(&b, p, n);
      ++pieces;
      ASSERT_EQ(test::first_nonzero(p, n), n) << n << " at +" << off;
      ASSERT_EQ(test::first_pattern_mismatch(buf.end() - n - 64, 64 - off), 64 - off)
          << "a byte below the piece was written: " << n << " at +" << off;
      ASSERT_EQ(test::first_pattern_mismatch(buf.end() - off, off, n + 64 - off), off)
          << "a byte above the piece was written: " << n << " at +" << off;
    }
  EXPECT_EQ(clearjit_batch_end(&b), pieces);
  EXPECT_EQ(clearjit_batches_open(c.get()), 0u);
  EXPECT_EQ(clearjit_batches_open(nullptr), 0u);
}

TEST_F(batch, WithoutABatchTableTheStreamTableServes) {
  Clearer c(batch_profile(dir_, false));
  for (size_t n : {size_t(100), size_t(1) << 20})
    EXPECT_STREQ(clearjit_kernel_for(c.get(), CLEARJIT_STREAM_BATCH, n),
                 clearjit_kernel_for(c.get(), CLEARJIT_STREAM, n));
  StreamBatch b(c);
  std::vector<uint8_t> v(100000, 0xAB);
  b.clear(v.data(), v.size());
  EXPECT_EQ(b.end(), 1u);
  EXPECT_EQ(b.end(), 0u) << "a second end does nothing";
  EXPECT_EQ(test::first_nonzero(v.data(), v.size()), v.size());
}

TEST_F(batch, TheBatchDispatcherHasNoFenceAndTheStreamOneHas) {
  const std::string dump = (dir_ / "dump").string();
  fs::create_directories(dump);
  setenv("CLEARJIT_DUMP", dump.c_str(), 1);
  { Clearer c(batch_profile(dir_, true)); }
  unsetenv("CLEARJIT_DUMP");
  auto read = [&](const std::string &name) {
    std::ifstream in(dump + "/" + name);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string stream = read("clearjit_dispatch_stream.asm"),
                    batched = read("clearjit_dispatch_batch.asm");
  ASSERT_NE(batched, "");
  EXPECT_NE(stream.find("sfence"), std::string::npos);
  EXPECT_EQ(batched.find("sfence"), std::string::npos) << batched;
  EXPECT_NE(batched.find("vmovntdq"), std::string::npos) << "the non-temporal kernel is there";
}

TEST_F(batch, ScopedBatchesEndThemselves) {
  Clearer c(batch_profile(dir_, true));
  std::vector<uint8_t> v(4096, 1);
  {
    StreamBatch b(c);
    b.clear(v.data(), v.size());
    EXPECT_EQ(clearjit_batches_open(c.get()), 1u);
  }
  EXPECT_EQ(clearjit_batches_open(c.get()), 0u);
  {
    CLEARJIT_BATCH(b, c.get()); // the C form (GCC and Clang)
    clearjit_batch_clear(&b, v.data(), v.size());
    EXPECT_EQ(clearjit_batches_open(c.get()), 1u);
  }
  EXPECT_EQ(clearjit_batches_open(c.get()), 0u);
  EXPECT_EQ(test::first_nonzero(v.data(), v.size()), v.size());
}

TEST_F(batch, AnEndedBatchStillClearsAndADebugBuildStops) {
  Clearer c(batch_profile(dir_, true));
  std::vector<uint8_t> v(4096, 1);
  clearjit_batch b;
  clearjit_batch_begin(&b, c.get());
  clearjit_batch_end(&b);
  (clearjit_batch_clear)(&b, v.data(), v.size()); // the library: cleared, fenced
  EXPECT_EQ(test::first_nonzero(v.data(), v.size()), v.size());
  EXPECT_EQ((clearjit_batch_end)(&b), 0u) << "ending twice does nothing in the library";
  // The header, in a debug build, stops at the misuse.
  EXPECT_DEATH(clearjit_batch_clear(&b, v.data(), v.size()), "the batch is not open");
  EXPECT_DEATH(clearjit_batch_end(&b), "ended twice");
  // A zero-initialised batch, never begun, still gets its piece cleared (release).
  clearjit_batch never{};
  std::fill(v.begin(), v.end(), 1);
  (clearjit_batch_clear)(&never, v.data(), v.size());
  EXPECT_EQ(test::first_nonzero(v.data(), v.size()), v.size());
}

TEST_F(batch, ClosingAHandleWithAnOpenBatchStopsADebugBuild) {
  clearjit *cj = clearjit_open(batch_profile(dir_, true).c_str(), nullptr, 0);
  ASSERT_NE(cj, nullptr);
  clearjit_batch b;
  clearjit_batch_begin(&b, cj);
  EXPECT_DEATH(clearjit_close(cj), "a batch on this handle is still open");
  clearjit_batch_end(&b);
  clearjit_close(cj);
}

TEST(batch_Profile, TheBatchTableLoadsAndIsChecked) {
  CpuInfo cpu = host_cpu();
  const std::string head =
      "format = 1\n[host]\nvendor = \"X\"\nfamily = 1\nmodel = 1\n[[dispatch.reuse]]\n"
      "kernel = \"stosb\"\n";
  auto ok = parse_profile(head + "[[dispatch.batch]]\nkernel = \"movnti\"\n", "b", cpu);
  ASSERT_TRUE(ok) << ok.error;
  ASSERT_EQ(ok->batch.size(), 1u);
  EXPECT_TRUE(ok->warnings.empty()) << "batch is a known table";
  auto none =
      parse_profile(head + "[[dispatch.batch]]\nkernel = \"movnti:fence=none\"\n", "b", cpu);
  EXPECT_FALSE(none);
  EXPECT_NE(none.error.find("dispatch.batch[0].kernel"), std::string::npos) << none.error;
}

} // namespace
} // namespace cjit::detail
