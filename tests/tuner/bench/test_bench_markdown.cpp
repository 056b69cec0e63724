// `clearjit bench --markdown`: the tables the README quotes, from synthetic measurements.
#include "tuner/bench/bench.hpp"

#include <gtest/gtest.h>

namespace cjit::detail {
namespace {

CpuInfo synthetic_cpu() {
  CpuInfo cpu;
  cpu.vendor = "GenuineIntel";
  cpu.brand = "Test CPU";
  cpu.family = 6;
  cpu.model = 207;
  cpu.stepping = 2;
  cpu.hypervisor = true;
  return cpu;
}

BenchRow cold(uint64_t size, Intent i, Pattern p, const char *kernel, double tuned, double memset,
              bool batched = false) {
  BenchRow r;
  r.size = size;
  r.intent = i;
  r.pattern = p;
  r.tuned_kernel = kernel;
  r.tuned = tuned;
  r.memset = memset;
  r.oracle = memset * 0.5; // batched rows: the per-call speed
  r.batched = batched;
  return r;
}

BenchResult synthetic_result() {
  BenchResult r;
  r.source = "test.toml";
  r.small_reuse = "stosb, up to 256 B";
  r.small_stream = "masked, up to 512 B";
  // tuned = exported call, inlined = the header's inline call, which the tables quote.
  r.warm.push_back({Intent::reuse, 8, Mix::fixed, 9.0, 4.0, 5.0});
  r.warm.push_back({Intent::stream, 8, Mix::fixed, 9.0, 2.2, 2.0});
  r.warm.push_back({Intent::reuse, 0, Mix::log_uniform, 9.0, 3.0, 6.0});
  r.warm.push_back({Intent::stream, 0, Mix::log_uniform, 9.0, 4.0, 5.0});
  r.rows.push_back(cold(8, Intent::reuse, Pattern::scattered, "small: stosb", 0.1, 0.08));
  r.rows.push_back(cold(4096, Intent::reuse, Pattern::scattered, "libc", 10, 10.5));
  r.rows.push_back(cold(4096, Intent::reuse, Pattern::consecutive, "libc", 20, 20));
  r.rows.push_back(cold(4096, Intent::stream, Pattern::scattered, "clzero", 30, 20));
  r.rows.push_back(cold(4096, Intent::stream, Pattern::cached, "clzero", 5, 10));
  r.rows.push_back(cold(4096, Intent::reuse, Pattern::hot, "libc", 30, 30));
  r.rows.push_back(cold(4096, Intent::stream, Pattern::hot, "clzero", 3, 12));
  r.rows.push_back(cold(1ull << 30, Intent::reuse, Pattern::scattered, "libc", 5, 10));
  r.rows.push_back(cold(4096, Intent::stream, Pattern::consecutive, "clzero", 60, 20, true));
  return r;
}

TEST(bench_markdown, HeaderNamesCpuCommitAndCommand) {
  std::string md = bench_markdown(synthetic_result(), synthetic_cpu(), "clearjit bench x.toml");
  EXPECT_EQ(md.rfind("### Test CPU (GenuineIntel family 6 model 207 stepping 2, a VM guest)", 0),
            0u)
      << md;
  EXPECT_NE(md.find(" UTC at commit "), std::string::npos) << md;
  EXPECT_NE(md.find("with `clearjit bench x.toml`; profile: test.toml."), std::string::npos) << md;
}

TEST(bench_markdown, WarmRowsSideBySideAsTimeRatios) {
  std::string md = bench_markdown(synthetic_result(), synthetic_cpu(), "c");
  EXPECT_NE(md.find("Small paths: reuse stosb, up to 256 B; stream masked, up to 512 B."),
            std::string::npos)
      << md;
  // The inline call's time over memset's, reuse then stream; fixed sizes before the mixes.
  size_t fixed = md.find("| 8 B | 5.00 | 4.00 | 0.80x | 2.00 | 2.20 | 1.10x |");
  size_t mix = md.find("| log-uniform 1..256 B | 6.00 | 3.00 | 0.50x | 5.00 | 4.00 | 0.80x |");
  ASSERT_NE(fixed, std::string::npos) << md;
  ASSERT_NE(mix, std::string::npos) << md;
  EXPECT_LT(fixed, mix);
}

TEST(bench_markdown, ColdRowsAsSpeedRatiosWithMissingCellsDashed) {
  std::string md = bench_markdown(synthetic_result(), synthetic_cpu(), "c");
  EXPECT_NE(md.find("| 8 B | `small: stosb` | 1.25x | - | - | - | - | - | - | - |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 4 KiB | `libc` | 0.95x | 1.00x | 1.00x | `clzero` | 1.50x | - | 0.25x | "
                    "0.50x |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("A `libc` class is the dispatcher calling memset itself"), std::string::npos);
}

TEST(bench_markdown, BatchRowsAndVerdict) {
  std::string md = bench_markdown(synthetic_result(), synthetic_cpu(), "c");
  EXPECT_NE(md.find("| 4 KiB | consecutive | `clzero` | 3.00x | 0.50x |"), std::string::npos) << md;
  // 1 of 4 warm rows is slower (stream 8 B, 1.10x). The worst large row counts 4 KiB..64 MiB,
  // cold and hot destinations: 1 GiB (0.50x) and the cached 0.50x are left out, the hot 0.25x
  // of stream at 4 KiB is in.
  EXPECT_NE(md.find("Verdict: warm, 1 of 4 rows slower than memset (worst 1.10x memset's time); "
                    "reuse 4 KiB..64 MiB, worst 0.95x memset's speed; stream 4 KiB..64 MiB, worst "
                    "0.25x memset's speed.\n"),
            std::string::npos)
      << md;
}

TEST(bench_markdown, NoWarmRowsNoWarmTable) {
  BenchResult r = synthetic_result();
  r.warm.clear();
  std::string md = bench_markdown(r, synthetic_cpu(), "c");
  EXPECT_EQ(md.find("Small sizes, warm"), std::string::npos);
  EXPECT_NE(md.find("Verdict: reuse 4 KiB..64 MiB"), std::string::npos) << md;
}

TEST(bench_markdown, ParallelRowsAndTheirWorstInTheVerdict) {
  BenchResult r = synthetic_result();
  EXPECT_EQ(bench_markdown(r, synthetic_cpu(), "c").find("several threads"), std::string::npos);
  r.parallel.push_back({Intent::stream, 1ull << 30, 2, 2, 40, 20, 36, 36});
  r.parallel.push_back({Intent::reuse, 64ull << 20, 1, 2, 10, 12, 11.4, 9});
  r.parallel.push_back({Intent::reuse, 256ull << 20, 1, 2, 0, 12, 12, 9}); // no memset: left out
  const std::string md = bench_markdown(r, synthetic_cpu(), "c");
  EXPECT_NE(md.find("| 64 MiB | 10.0 | 12.0 | 11.4 (1) | 9.0 (2) | - | - | - | - |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 1 GiB | - | - | - | - | 40.0 | 20.0 | 36.0 (2) | 36.0 (2) |\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("| 256 MiB |"), std::string::npos) << md;
  EXPECT_NE(md.find("; several threads, worst 0.95x the single-thread call's speed (reuse, "
                    "64 MiB).\n"),
            std::string::npos)
      << md;
}

} // namespace
} // namespace cjit::detail
