// `tune --glibc-tunables` (glibc_tunables.hpp, memset_rows.hpp): the lines proposed from a tune's
// findings, glibc's memset paths, the check's decision on synthetic timings, and the child's
// output read back. No test measures anything.
#include "tuner/measure/memset_rows.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/glibc_tunables.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

namespace cjit::detail::test {
namespace {

constexpr uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

// glibc 2.41 on AMD Zen 3+: rep stosb never, memset non-temporal from 3/4 of a 32 MiB L3.
const Tunables kAmd241{{kRepStosb, UINT64_MAX}, {kMemsetNonTemporal, 24 * MiB}};
// glibc 2.41 on an Intel Xeon with a 260 MiB L3.
const Tunables kIntel241{{kRepStosb, 2 * KiB}, {kMemsetNonTemporal, 131 * MiB}};
// glibc 2.36: rep stosb above 2 KiB, no memset non-temporal threshold.
const Tunables kGlibc236{{kRepStosb, 2 * KiB}};

CpuInfo cpu_with_l3(uint64_t l3) {
  CpuInfo c;
  c.l3.size = l3;
  c.l2.size = MiB;
  return c;
}

TunablesLine line(Tunables values) {
  TunablesLine l;
  l.values = std::move(values);
  return l;
}

TEST(glibc_tunables, MemsetPathsFollowGlibcsThresholds) {
  EXPECT_EQ(memset_path(GiB, kAmd241), MemsetPath::temporal) << "2.41 on AMD: temporal always";
  EXPECT_EQ(memset_path(64 * KiB, kGlibc236), MemsetPath::stosb);
  EXPECT_EQ(memset_path(GiB, kGlibc236), MemsetPath::stosb) << "2.36 never goes non-temporal";
  EXPECT_EQ(memset_path(64 * MiB, kIntel241), MemsetPath::stosb);
  EXPECT_EQ(memset_path(131 * MiB, kIntel241), MemsetPath::nontemporal);
  // Non-temporal only through the rep stosb path: a lower memset threshold alone changes
  // nothing on AMD 2.41.
  EXPECT_EQ(memset_path(GiB, line({{kMemsetNonTemporal, 64 * MiB}}).over(kAmd241)),
            MemsetPath::temporal);
  const Tunables both = line({{kMemsetNonTemporal, 64 * MiB}, {kRepStosb, 64 * MiB}}).over(kAmd241);
  EXPECT_EQ(memset_path(64 * MiB, both), MemsetPath::temporal) << "rep stosb is above, strictly";
  EXPECT_EQ(memset_path(64 * MiB + 4096, both), MemsetPath::nontemporal);
}

TEST(glibc_tunables, LinesStartAboveTheHotBufferSafePoint) {
  Findings f;
  f.nontemporal_stream = 29 * KiB; // stream goes non-temporal early, reuse never did
  std::string why;
  const auto lines = candidate_lines(f, kAmd241, 32 * MiB, GiB, why);
  ASSERT_EQ(lines.size(), 3u) << why;
  // Above the L3, where no hot buffer was measured; rep stosb lowered to reach the path.
  EXPECT_EQ(lines[0].text(), "glibc.cpu.x86_memset_non_temporal_threshold=0x4000000:"
                             "glibc.cpu.x86_rep_stosb_threshold=0x4000000");
  EXPECT_EQ(lines[1].values.at(kMemsetNonTemporal), 128 * MiB);
  EXPECT_EQ(lines[2].values.at(kMemsetNonTemporal), 256 * MiB);
}

TEST(glibc_tunables, IntelLinesLowerOnlyTheNonTemporalThreshold) {
  Findings f;
  f.nontemporal_stream = 16 * KiB;
  f.nontemporal_reuse = 64 * MiB; // hot reuse's crossover, inside the 260 MiB L3
  std::string why;
  const auto lines = candidate_lines(f, kIntel241, 260 * MiB, GiB, why);
  ASSERT_EQ(lines.size(), 2u) << "4x is above glibc's own 131 MiB";
  EXPECT_EQ(lines[0].text(), "glibc.cpu.x86_memset_non_temporal_threshold=0x4000000");
  EXPECT_EQ(lines[1].text(), "glibc.cpu.x86_memset_non_temporal_threshold=0x8000000");
}

TEST(glibc_tunables, NoLineWhereTheFindingsGiveNoThreshold) {
  std::string why;
  EXPECT_TRUE(candidate_lines(Findings{}, kAmd241, 32 * MiB, GiB, why).empty());
  EXPECT_EQ(why, "non-temporal stores did not win for stream in this tune; rep stosb showed no "
                 "no-allocate step");
  // 2.36 already runs rep stosb from 2 KiB: the no-allocate step does not lower it.
  Findings step;
  step.stosb_no_allocate.size = 4 * MiB;
  why.clear();
  EXPECT_TRUE(candidate_lines(step, kGlibc236, 32 * MiB, GiB, why).empty());
  EXPECT_EQ(why, "this glibc has no x86_memset_non_temporal_threshold (its memset never stores "
                 "non-temporally); rep stosb's threshold from its no-allocate step, 64 MiB, is not "
                 "below glibc's own, 2 KiB (its memset runs rep stosb from there already)");
  // Above the sizes tuned: nothing to check.
  Findings f;
  f.nontemporal_stream = 29 * KiB;
  EXPECT_TRUE(candidate_lines(f, kAmd241, 32 * MiB, 16 * MiB, why).empty());
  EXPECT_NE(why.find("64 MiB, is above the sizes tuned"), std::string::npos) << why;
}

TEST(glibc_tunables, TheNoAllocateStepIsACandidateAboveTheHotLimit) {
  Findings f;
  f.stosb_no_allocate.size = 4 * MiB;
  std::string why;
  const auto lines = candidate_lines(f, kAmd241, 32 * MiB, GiB, why);
  ASSERT_EQ(lines.size(), 1u) << why;
  EXPECT_EQ(lines[0].text(), "glibc.cpu.x86_rep_stosb_threshold=0x4000000")
      << "the step is inside the L3: raised to above it";
}

TEST(glibc_tunables, LinesThatSendEverySizeTheSameWayAreOne) {
  // On AMD 2.41 rep stosb's threshold alone at 64 MiB goes non-temporal there too (glibc's own
  // memset threshold, 24 MiB, is below): the same paths as the two-tunable line.
  Findings f;
  f.nontemporal_stream = 29 * KiB;
  f.stosb_no_allocate.size = 64 * MiB;
  std::string why;
  const auto lines = candidate_lines(f, kAmd241, 32 * MiB, GiB, why);
  ASSERT_EQ(lines.size(), 3u) << why;
  EXPECT_EQ(lines[0].values.size(), 2u) << lines[0].text();
  EXPECT_NE(lines[0].why.find("memset above 64 MiB: non-temporal stores (was temporal stores)"),
            std::string::npos)
      << lines[0].why;
}

TEST(glibc_tunables, ACLibraryWithoutMemsetTunablesIsRefused) {
  EXPECT_NE(tunables_unsupported("musl 1.2.3", kAmd241).find("is not glibc"), std::string::npos);
  const std::string e = tunables_unsupported("glibc 2.17", {{"glibc.malloc.check", 0}});
  EXPECT_NE(e.find("has neither glibc.cpu.x86_memset_non_temporal_threshold nor"),
            std::string::npos)
      << e;
  EXPECT_EQ(tunables_unsupported("glibc 2.36", kGlibc236), "") << "one threshold is enough";
}

// memset's speeds by row and line: a base speed per row, times `effect` where the line sends the
// row's size to non-temporal stores, with seeded log-normal noise on every run.
class SyntheticRows final : public MemsetRowsBench {
public:
  SyntheticRows(Tunables defaults, double noise,
                std::function<double(const MemsetRow &, MemsetPath)> effect)
      : defaults_(std::move(defaults)), effect_(std::move(effect)), noise_(0, noise) {}

  Result<std::vector<double>> run(const std::vector<MemsetRow> &rows,
                                  const std::optional<std::string> &tunables) override {
    ++runs;
    if (fail_at && runs == fail_at) return Result<std::vector<double>>::fail("exit status 1");
    Tunables t = defaults_;
    if (tunables) { // parse NAME=0xVALUE:...
      size_t pos = 0;
      while (pos < tunables->size()) {
        const size_t end = std::min(tunables->find(':', pos), tunables->size());
        const std::string item = tunables->substr(pos, end - pos);
        const size_t eq = item.find('=');
        t[item.substr(0, eq)] = std::stoull(item.substr(eq + 1), nullptr, 0);
        pos = end + 1;
      }
    }
    std::vector<double> out;
    for (const MemsetRow &r : rows) {
      const double base = r.pattern == Pattern::hot ? 30 : 20;
      const MemsetPath was = memset_path(r.size, defaults_), is = memset_path(r.size, t);
      out.push_back(base * (was == is ? 1 : effect_(r, is)) * std::exp(noise_(rng_)));
    }
    return {out, {}};
  }
  double estimate_seconds(const std::vector<MemsetRow> &) const override { return 1; }

  int runs = 0;
  int fail_at = 0; //!< the run that fails (1-based; 0: none)

private:
  Tunables defaults_;
  std::function<double(const MemsetRow &, MemsetPath)> effect_;
  std::normal_distribution<double> noise_;
  std::mt19937_64 rng_{7};
};

// Non-temporal stores: 1.6x memset's speed cold, half of it on a hot buffer (Intel's 8 MiB line).
double nontemporal_effect(const MemsetRow &r, MemsetPath p) {
  if (p != MemsetPath::nontemporal) return 1;
  return r.pattern == Pattern::hot ? 0.5 : 1.6;
}

TEST(glibc_tunables, TheLowestLineThatKeepsHotBuffersTemporalIsChosen) {
  const CpuInfo cpu = cpu_with_l3(32 * MiB);
  const auto rows = memset_rows(cpu, 4 * KiB, GiB);
  SyntheticRows bench(kAmd241, 0.03, nontemporal_effect);
  const std::vector<TunablesLine> lines{
      line({{kMemsetNonTemporal, 16 * MiB}, {kRepStosb, 16 * MiB}}),
      line({{kMemsetNonTemporal, 32 * MiB}, {kRepStosb, 32 * MiB}}),
      line({{kMemsetNonTemporal, 64 * MiB}, {kRepStosb, 64 * MiB}})};
  const TunablesStudy s =
      check_lines(bench, rows, lines, kAmd241, "glibc 2.41", tunables_check_options(0.90));
  EXPECT_EQ(bench.runs, 4 * 4) << "every line and memset without, per round";
  ASSERT_TRUE(s.error.empty()) << s.error;
  ASSERT_EQ(s.tried.size(), 3u);
  EXPECT_FALSE(s.tried[0].passes) << s.tried[0].verdict << ": hot 32 MiB goes non-temporal";
  // At 32 MiB, rep stosb's threshold is strict: a hot buffer of exactly the L3 stays temporal.
  ASSERT_TRUE(s.chosen) << s.note;
  EXPECT_EQ(*s.chosen, 1u) << s.tried[1].verdict;
  EXPECT_TRUE(s.tried[2].passes) << s.tried[2].verdict;
  for (const RowCheck &r : s.tried[1].rows) {
    EXPECT_EQ(r.changed, r.row.size > 32 * MiB) << r.row.size;
    EXPECT_FALSE(r.lost);
  }
  const std::string file = tunables_file(s, "AMD test CPU", "2026-12-05T00:00:00Z");
  EXPECT_NE(file.find("# GLIBC_TUNABLES for glibc 2.41's memset on AMD test CPU"),
            std::string::npos);
  EXPECT_TRUE(file.ends_with("\nGLIBC_TUNABLES=glibc.cpu.x86_memset_non_temporal_threshold="
                             "0x2000000:glibc.cpu.x86_rep_stosb_threshold=0x2000000\n"))
      << file;
}

TEST(glibc_tunables, TheSummaryAndReportShowTheRowsWithAndWithoutTheLine) {
  const CpuInfo cpu = cpu_with_l3(32 * MiB);
  SyntheticRows bench(kAmd241, 0.03, nontemporal_effect);
  TuneResult r;
  r.level = "quick";
  r.glibc_tunables = check_lines(bench, memset_rows(cpu, 4 * KiB, GiB),
                                 {line({{kMemsetNonTemporal, 64 * MiB}, {kRepStosb, 64 * MiB}})},
                                 kAmd241, "glibc 2.41", tunables_check_options(0.90));
  const std::string text = summary_text(r), html = report_html(r, cpu);
  EXPECT_NE(text.find("glibc tunables (glibc 2.41, 4 rounds"), std::string::npos) << text;
  EXPECT_NE(text.find("1 GiB stream scattered"), std::string::npos) << text;
  EXPECT_NE(text.find("changed, wins"), std::string::npos) << text;
  EXPECT_NE(text.find("same path"), std::string::npos) << text;
  EXPECT_NE(html.find("<h2>GLIBC_TUNABLES for glibc 2.41's memset</h2>"), std::string::npos);
  EXPECT_NE(html.find("Written: <code>GLIBC_TUNABLES=glibc.cpu.x86_memset_non_temporal_threshold="
                      "0x4000000:glibc.cpu.x86_rep_stosb_threshold=0x4000000</code>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>changed, wins</td>"), std::string::npos);
  r.glibc_tunables->chosen.reset();
  r.glibc_tunables->note = "no line wins somewhere and loses nowhere";
  EXPECT_NE(report_html(r, cpu).find("No line written: no line wins somewhere"), std::string::npos);
}

TEST(glibc_tunables, ALineThatWinsNowhereIsNotWritten) {
  const CpuInfo cpu = cpu_with_l3(32 * MiB);
  const auto rows = memset_rows(cpu, 4 * KiB, GiB);
  SyntheticRows bench(kAmd241, 0.03, [](const MemsetRow &, MemsetPath) { return 1.0; });
  const TunablesStudy s =
      check_lines(bench, rows, {line({{kMemsetNonTemporal, 64 * MiB}, {kRepStosb, 64 * MiB}})},
                  kAmd241, "glibc 2.41", tunables_check_options(0.90));
  EXPECT_FALSE(s.chosen);
  EXPECT_NE(s.tried[0].verdict.find("wins at 0 rows"), std::string::npos) << s.tried[0].verdict;
}

TEST(glibc_tunables, NoiseWhereThePathIsTheSameJudgesNothing) {
  // Same-path rows 0.90x and 1.10x (memset against itself); changed rows 1.5x.
  const std::vector<MemsetRow> rows{{4 * KiB, Intent::reuse, Pattern::scattered},
                                    {128 * MiB, Intent::stream, Pattern::scattered}};
  const std::vector<std::vector<double>> with{{9, 30}, {9, 31}, {9, 29}, {9, 30}},
      without{{10, 20}, {10, 20}, {10, 20}, {10, 20}};
  const LineCheck c = judge_line(line({{kMemsetNonTemporal, 64 * MiB}, {kRepStosb, 64 * MiB}}),
                                 kAmd241, rows, with, without, 0.90, 1.03);
  EXPECT_FALSE(c.rows[0].changed);
  EXPECT_FALSE(c.rows[0].lost);
  EXPECT_TRUE(c.rows[1].won);
  EXPECT_TRUE(c.passes) << c.verdict;
  // A changed row with its median below 0.97x loses, even where its bound reaches above.
  const std::vector<std::vector<double>> slow{{9, 19}, {9, 21}, {9, 19}, {9, 19}};
  const LineCheck lost = judge_line(line({{kMemsetNonTemporal, 64 * MiB}, {kRepStosb, 64 * MiB}}),
                                    kAmd241, rows, slow, without, 0.90, 1.03);
  EXPECT_TRUE(lost.rows[1].lost);
  EXPECT_FALSE(lost.passes);
}

TEST(glibc_tunables, ACheckThatCannotRunChoosesNothing) {
  const CpuInfo cpu = cpu_with_l3(32 * MiB);
  SyntheticRows bench(kAmd241, 0.03, nontemporal_effect);
  bench.fail_at = 3;
  const TunablesStudy s =
      check_lines(bench, memset_rows(cpu, 4 * KiB, GiB),
                  {line({{kMemsetNonTemporal, 64 * MiB}, {kRepStosb, 64 * MiB}})}, kAmd241,
                  "glibc 2.41", tunables_check_options(0.90));
  EXPECT_FALSE(s.chosen);
  // Round 1: without, then the line; round 2 the other way round, so the third run is the line's.
  EXPECT_EQ(s.error, "memset under GLIBC_TUNABLES=" +
                         line({{kMemsetNonTemporal, 64 * MiB}, {kRepStosb, 64 * MiB}}).text() +
                         ": exit status 1");
}

TEST(glibc_tunables, RowsCoverEveryStateTheTunerRaces) {
  const CpuInfo cpu = cpu_with_l3(32 * MiB);
  const auto rows = memset_rows(cpu, 4 * KiB, GiB);
  auto has = [&](MemsetRow r) { return std::find(rows.begin(), rows.end(), r) != rows.end(); };
  EXPECT_TRUE(has({32 * MiB, Intent::reuse, Pattern::hot}));
  EXPECT_FALSE(has({64 * MiB, Intent::reuse, Pattern::hot})) << "hot up to the L3";
  EXPECT_TRUE(has({GiB, Intent::stream, Pattern::scattered}));
  EXPECT_FALSE(has({GiB, Intent::stream, Pattern::consecutive})) << "the arena holds one";
  EXPECT_TRUE(has({4 * KiB, Intent::stream, Pattern::consecutive}));
  const auto back = parse_rows(rows_text(rows));
  ASSERT_TRUE(back) << back.error;
  EXPECT_EQ(*back, rows);
  EXPECT_FALSE(parse_rows("4096:reuse"));
  EXPECT_FALSE(parse_rows("4096:reuse:lukewarm"));
  EXPECT_FALSE(parse_rows("4k:reuse:hot"));
}

TEST(glibc_tunables, TheChildsOutputIsReadOnlyWhenItIsWhatWasAsked) {
  const std::string ok = R"({"libc":"glibc 2.41","tunables":"a=1","gbps":[1.5,2.5]})";
  auto r = read_memset_rows(ok, 2, "glibc 2.41", "a=1");
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ((*r)[1], 2.5);
  EXPECT_NE(read_memset_rows("memset-rows --rows 4096", 2, "glibc 2.41", "a=1")
                .error.find("printed no result ('memset-rows --rows 4096')"),
            std::string::npos);
  EXPECT_EQ(read_memset_rows(ok, 2, "glibc 2.36", "a=1").error, "ran glibc 2.41, not glibc 2.36");
  EXPECT_NE(read_memset_rows(ok, 2, "glibc 2.41", std::nullopt).error.find("not unset"),
            std::string::npos);
  EXPECT_NE(read_memset_rows(ok, 3, "glibc 2.41", "a=1").error.find("2 positive speeds for 3"),
            std::string::npos);
}

TEST(glibc_tunables, AChildThatFailsOrPrintsGarbageIsAnError) {
  const MeasureOptions o{.repetitions = 1, .min_time = 0.001, .progress = false};
  const std::vector<MemsetRow> rows{{4096, Intent::reuse, Pattern::scattered}};
  ProcessMemsetRows fails({"/bin/false"}, "glibc 2.41", o, 10);
  const auto f = fails.run(rows, std::nullopt);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error, "exit status 1");
  ProcessMemsetRows garbage({"/bin/echo"}, "glibc 2.41", o, 10);
  const auto g = garbage.run(rows, "glibc.cpu.x86_rep_stosb_threshold=0x800");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error.find("printed no result"), std::string::npos) << g.error;
  ProcessMemsetRows missing({"/nonexistent/clearjit"}, "glibc 2.41", o, 10);
  EXPECT_NE(missing.run(rows, std::nullopt).error.find("No such file"), std::string::npos);
}

// The check's child runs under this loader, and its --list-tunables gives the defaults.
TEST(glibc_tunables, TheRunningLoaderIsTheLoaderNotThisExecutable) {
  const CLibrary &lib = running_c_library();
  EXPECT_TRUE(lib.loader.find("/ld-linux") != std::string::npos) << lib.loader;
  const auto listed = list_tunables(lib);
  ASSERT_TRUE(listed) << listed.error;
  EXPECT_TRUE(listed->contains(kRepStosb));
}

} // namespace
} // namespace cjit::detail::test
