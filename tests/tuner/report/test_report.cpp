// The HTML report of a tune (tuner/report/report.cpp), from results made by hand: the host's
// facts escaped, the verification and the small-path study's tables.
#include "tests/support/small_study.hpp"
#include "tests/support/support.hpp"
#include "tuner/report/outputs.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cjit::detail::test {
namespace {

TEST(report, APageWithTheHostsFactsEscaped) {
  CpuInfo cpu;
  cpu.vendor = "GenuineIntel";
  cpu.brand = "<b>\"Fast\" & 'cheap'</b>";
  cpu.family = 6;
  cpu.model = 207;
  cpu.l2.size = 2 << 20;
  cpu.set(Feature::avx2);
  TuneResult r;
  r.level = "quick";
  r.date = "<now>";
  r.seconds = 12.34;
  r.notes = {"narrowed: <a> & <b>"};
  const std::string html = report_html(r, cpu);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>\n")) << html.substr(0, 100);
  EXPECT_TRUE(html.ends_with("</main>\n</body>\n</html>\n"));
  EXPECT_EQ(html.find("<b>"), std::string::npos) << "the brand is text, not markup";
  EXPECT_NE(html.find("<title>clearjit tuning report: &lt;b&gt;&quot;Fast&quot; &amp; "
                      "&#39;cheap&#39;&lt;/b&gt;</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<dt>Family / model / stepping</dt><dd>6 / 207 / 0 <span "
                      "class=\"muted\">(0x6 / 0xcf / 0x0)</span></dd>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<dt>Caches</dt><dd>L1d unknown &middot; L2 2 MiB &middot; L3 unknown</dd>"),
            std::string::npos);
  EXPECT_NE(html.find("<dt>Features</dt><dd>AVX2</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dt>Date</dt><dd>&lt;now&gt;</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dt>Duration</dt><dd>12.3 s, 0 measurements</dd>"), std::string::npos);
  EXPECT_NE(html.find("<li>narrowed: &lt;a&gt; &amp; &lt;b&gt;</li>"), std::string::npos);
  r.notes.clear();
  EXPECT_EQ(report_html(r, cpu).find("<strong>Notes</strong>"), std::string::npos);
}

TEST(report_Verification, TheWorstPointsAndWhatWasTakenBack) {
  TuneResult r;
  r.reuse = {{16384, *parse_spec("avx2:unroll=4")}, {0, *parse_spec("stosb")}};
  r.level = "quick";
  r.verification.measured = "42 points";
  r.verification.worst_warm = {{Intent::stream, 1.12}};
  r.verification.undone = {"stream small path masked -> branchless, taken back"};
  const std::string html = report_html(r, full_cpu());
  EXPECT_NE(html.find("<h2>Verification</h2>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>stream</td><td class=\"n\">1.12&times;</td><td "
                      "class=\"n\">&ndash;</td></tr>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<strong>Tried and taken back</strong></p>\n<ul>\n<li>stream small path "
                      "masked -&gt; branchless, taken back</li>"),
            std::string::npos);
  r.verification = {};
  EXPECT_EQ(report_html(r, full_cpu()).find("<h2>Verification</h2>"), std::string::npos);
}

TEST(report_Small, EachStrategyAgainstMemset) {
  // The study as the tuner hands it to --report: each strategy's worst ratio and mixes against
  // memset, the chosen one marked, the one out cold with its reason. masked is out at every cold
  // point, vec loses on the mixes: no band goes to either (band_small).
  std::vector<Measurement> ms;
  add_warm_study(ms, memset_spec(), 2.5, 2.5);
  add_warm_study(ms, "small:vec:256", 2.0, 3.0);
  add_warm_study(ms, "small:masked:256", 2.5, 2.6);
  add_warm_study(ms, "small:tree:256", 2.75, 2.5);
  for (int round = 0; round < 4; ++round)
    for (uint64_t size : small_cold_sizes())
      for (const char *label : {"libc", "small:vec:256", "small:masked:256", "small:tree:256"})
        ms.push_back(cold_point(label, size, std::string(label) == "small:masked:256" ? 5.8 : 3.2,
                                Intent::stream));
  TuneResult r;
  r.small = SmallStudy{ms, {Small::tree, 256}, choose_small(ms, Intent::stream, {})};
  ASSERT_EQ(r.small->stream.strategy, Small::tree)
      << "masked is out cold, vec 1.2x on the mixes, tree 1.1x";
  CpuInfo cpu;
  cpu.vendor = "AuthenticAMD";
  const std::string html = report_html(r, cpu);
  auto has = [&](const std::string &s) { return html.find(s) != std::string::npos; };
  EXPECT_TRUE(has("<h3>stream: tree, up to 256 B</h3>"));
  EXPECT_TRUE(has("<tr class=\"pick\"><td><code>tree</code></td><td class=\"n\"><span "
                  "class=\"down\">1.10&times;</span></td>"))
      << html;
  EXPECT_TRUE(has("<tr><td><code>vec</code></td><td class=\"n\"><span class=\"down\">1.20&times;"));
  // masked's own row says why it is out.
  const size_t masked = html.find("<td><code>masked</code>");
  ASSERT_NE(masked, std::string::npos);
  const std::string row = html.substr(masked, html.find("</tr>", masked) - masked);
  EXPECT_NE(
      row.find("<td>below memset: 8 B consecutive: 0.55x (at most 0.55x) memset&#39;s speed over 4 "
               "rounds</td>"),
      std::string::npos)
      << row;
  EXPECT_FALSE(has("<h3>reuse:")) << "nothing measured for reuse: no table";
}

} // namespace
} // namespace cjit::detail::test
