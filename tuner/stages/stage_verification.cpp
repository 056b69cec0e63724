// The verification stage (verify.hpp): the profile about to be written against memset, apart
// from what chose it; it repairs the classes and small paths where the profile loses.
#include "tuner/stages/smallpath.hpp"
#include "tuner/stages/stage.hpp"
#include "tuner/stages/tune.hpp"
#include "tuner/stages/verify.hpp"
#include "tuner/text/format.hpp"
#include "tuner/text/html.hpp"

#include <sstream>

#include <stdexcept>

namespace cjit::detail {
namespace {

// The verification: the profile's own dispatchers against memset, and what it repaired;
// nothing where it did not run.
std::string verification_html(const TuneResult &r) {
  const Verification &v = r.verification;
  if (v.measured.empty()) return {};
  std::ostringstream h;
  h << "<h2>Verification</h2>\n<div class=\"card\">\n<p>The last stage measured the profile's "
       "dispatchers, as an application calls them, against memset at points the other "
       "stages did not use: "
    << esc(v.measured) << " (" << fmt("%.1f", v.seconds) << " s, " << v.rounds
    << " rounds). A loss beyond the noise in two measurements is repaired: a class or a band "
       "of the small path to memset, kept; a small path to the next strategy, kept only if it "
       "measures better. A loss where memset itself clears the point is raced once more "
       "against memset measured beside itself: memset's own noise where it is no slower than "
       "that.</p>\n<table>\n<tr><th>intent</th><th class=\"n\">worst warm (time / memset)</th>"
       "<th class=\"n\">worst cold (speed / memset)</th></tr>\n";
  for (Intent i : kIntents) {
    auto cell = [](const std::map<Intent, double> &m, Intent i) {
      auto it = m.find(i);
      return it == m.end() ? std::string("&ndash;") : fmt("%.2f&times;", it->second);
    };
    h << "<tr><td>" << intent_name(i) << "</td><td class=\"n\">" << cell(v.worst_warm, i)
      << "</td><td class=\"n\">" << cell(v.worst_cold, i) << "</td></tr>\n";
  }
  h << "</table>\n";
  const std::pair<const char *, const std::vector<std::string> *> lists[] = {
      {"Repaired", &v.repaired},
      {"Tried and taken back", &v.undone},
      {"Left", &v.left},
      {"memset's own noise", &v.noise}};
  for (const auto &[title, items] : lists) {
    if (items->empty()) continue;
    h << "<p><strong>" << title << "</strong></p>\n<ul>\n";
    for (const std::string &x : *items)
      h << "<li>" << esc(x) << "</li>\n";
    h << "</ul>\n";
  }
  if (v.repaired.empty() && v.undone.empty() && v.left.empty())
    h << "<p>Nothing lost to memset beyond the noise.</p>\n";
  h << "</div>\n";
  return h.str();
}

using nlohmann::ordered_json;

// Class boundaries per intent the verification's time is reserved for, before the tables
// exist: a typical grid tune has 2 for reuse and 4 for stream.
constexpr int kTypicalBoundaries = 5;

// The classes `after` gave to memset that `before` ran a kernel in.
void note_repairs(Intent intent, const std::vector<SizeClass> &before,
                  const std::vector<SizeClass> &after, std::vector<MemsetRepair> &out) {
  uint64_t lower = 0;
  for (const SizeClass &c : before) {
    if (c.kernel.method != Method::libc && class_for(after, lower).kernel.method == Method::libc)
      out.push_back({intent, lower, c.below, c.kernel});
    lower = c.below;
  }
}

// memset's classes: memset's own speed over them, as the tables say. A class the verification
// gave to memset has none, and one merged with memset's neighbours would keep the first part's.
// The batch table's too, as `clearjit choose` gives them.
void memset_speeds(TuneResult &r) {
  for (auto [table, memset] : {std::pair{&r.reuse, &r.memset_reuse},
                               {&r.stream, &r.memset_stream},
                               {&r.batch, &r.memset_batch}}) {
    uint64_t lower = 0;
    for (SizeClass &c : *table) {
      if (c.kernel.method == Method::libc) c.gbps = memset_over_class(*memset, lower, c.below);
      lower = c.below;
    }
  }
}

class VerificationStage final : public Stage {
public:
  std::string_view name() const override { return "verification"; }
  std::string_view raw_key() const override { return "memset_repairs"; }
  std::string_view measures() const override {
    return "the profile about to be written against memset, apart from what chose it; repairs "
           "the classes and small paths where it loses";
  }
  double seconds(const StageContext &c) const override {
    return verify_seconds(c.meter, c.cpu, c.measure, c.plan.confidence, kTypicalBoundaries);
  }
  // The result's tables and small paths become the repaired ones.
  void run(const StageContext &c, TuneResult &r) const override {
    if (!r.small) throw std::logic_error("the verification stage runs after the small path's");
    Profile p;
    p.host = profile_host(c.cpu);
    p.reuse = r.reuse;
    p.stream = r.stream;
    p.batch = r.batch;
    p.small_reuse = r.small->reuse;
    p.small_stream = r.small->stream;
    std::map<Intent, std::vector<SmallPath>> ranking;
    const std::vector<Measurement> stage1 = r.small->stage1_measurements();
    for (Intent i : kIntents)
      ranking[i] = rank_small(stage1, i);
    r.verification =
        verify(c.meter, p, c.cpu, c.measure, c.race_options, ranking, c.min_size, c.max_size);
    note_repairs(Intent::reuse, r.reuse, p.reuse, r.memset_repairs);
    note_repairs(Intent::stream, r.stream, p.stream, r.memset_repairs);
    r.reuse = p.reuse;
    r.stream = p.stream;
    r.small->reuse = *p.small_reuse;
    r.small->stream = *p.small_stream;
    memset_speeds(r);
  }
  std::string profile_toml(const TuneResult &r) const override {
    return r.verification.measured.empty() ? "" : verification_toml(r.verification);
  }
  std::string report_html(const TuneResult &r) const override { return verification_html(r); }
  std::string summary(const TuneResult &r) const override {
    return r.verification.measured.empty() ? "" : verification_text(r.verification);
  }
  void raw(const TuneResult &r, ordered_json &doc) const override {
    ordered_json repairs = ordered_json::array();
    for (const MemsetRepair &m : r.memset_repairs)
      repairs.push_back({{"intent", std::string(intent_name(m.intent))},
                         {"lower", m.lower},
                         {"below", m.below},
                         {"kernel", format_spec(m.kernel)}});
    doc["memset_repairs"] = std::move(repairs);
  }
};

} // namespace

const Stage &verification_stage() {
  static const VerificationStage stage;
  return stage;
}

} // namespace cjit::detail
