// What a tune writes, byte for byte: the same synthetic timings on the same synthetic CPU give
// the same profile, raw file, summary and report whatever the tuner's code looks like inside.
// The files are tests/golden/tune/<level>.* (the summary and report at the quick level alone: they
// are large and read the same result); CLEARJIT_UPDATE_GOLDEN=1 writes them.
#include "tests/support/cpu_kinds.hpp"
#include "tests/support/support.hpp"
#include "tests/support/synthetic_meter.hpp"
#include "tuner/formats/raw.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/tune.hpp"

#include <gtest/gtest.h>

using namespace cjit::detail;
using cjit::detail::test::check_golden;
using cjit::detail::test::golden_dir;
using cjit::detail::test::synthetic_zen3;
using cjit::test::SyntheticMeter;

namespace {

// A host where each kind of kernel wins somewhere: rep stosb from its no-allocate step, the
// non-temporal stores for stream, AVX2 on cached reuse, and memset elsewhere.
SyntheticMeter host() {
  SyntheticMeter b(0.03, 42);
  b.set("avx2", Pattern::hot, 1.15);
  b.set("avx2:unroll=4", Pattern::hot, 1.2);
  b.set_from("stosb", 48 << 20, 2.5);
  b.set("ntavx2", Pattern::scattered, 2.2);
  b.set("ntavx2", Pattern::consecutive, 2.0);
  b.set("clzero", Pattern::scattered, 1.6);
  return b;
}

class tune_Golden : public testing::TestWithParam<Level> {};
INSTANTIATE_TEST_SUITE_P(Tune, tune_Golden, testing::Values(Level::quick, Level::default_),
                         [](const auto &info) { return std::string(level_name(info.param)); });

TEST_P(tune_Golden, TheSameTimingsWriteTheSameFiles) {
  SyntheticMeter bench = host();
  TuneOptions o;
  o.level = GetParam();
  o.max_size = 256 << 20;
  o.time_limit = 1e6; // rounds, never the wall clock, end the races
  o.progress = false;
  o.cpus = 2;
  const CpuInfo cpu = synthetic_zen3();
  TuneResult r = tune(o, cpu, bench);
  // What the wall clock and the host's C library put in.
  r.seconds = 1;
  r.date = "2026-12-05T00:00:00Z";
  r.libc = r.verification.libc = "glibc 2.36";
  r.verification.seconds = 1;
  ASSERT_TRUE(r.parallel);
  r.parallel->seconds = 1;
  const std::string stem = std::string(level_name(GetParam()));
  const std::filesystem::path dir = golden_dir() / "tune";
  EXPECT_EQ(check_golden(dir / (stem + ".toml"), profile_toml(r, cpu)), "");
  EXPECT_EQ(check_golden(dir / (stem + ".json"), measurements_json(r, cpu)), "");
  if (GetParam() != Level::quick) return;
  EXPECT_EQ(check_golden(dir / (stem + ".txt"), summary_text(r)), "");
  EXPECT_EQ(check_golden(dir / (stem + ".html"), report_html(r, cpu)), "");
}

} // namespace
