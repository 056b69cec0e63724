// The small-path stage (smallpath.hpp): whole dispatchers over the chosen tables at small
// sizes, warm; it chooses each intent's small path.
#include "tuner/stages/smallpath.hpp"
#include "tuner/stages/stage.hpp"
#include "tuner/stages/tune.hpp"
#include "tuner/text/format.hpp"
#include "tuner/text/html.hpp"

#include <sstream>

namespace cjit::detail {
namespace {

// One intent's table of the small strategies; empty where none was measured for it.
std::string small_path_table(const SmallStudy &study, Intent i,
                             const std::vector<Measurement> &stage1) {
  const SmallPath chosen = i == Intent::reuse ? study.reuse : study.stream;
  const SmallCold cold = small_cold(study.measurements, i);
  std::ostringstream rows;
  for (const SmallInfo &s : small_strategies()) {
    const Candidate candidate = SmallPath{s.strategy, 256};
    const auto ratios = ratios_to_memset(stage1, i, candidate);
    if (ratios.empty()) continue; // not run on this CPU
    auto mix = [&](Mix m) -> std::optional<double> {
      auto it = ratios.find({int(m), 0});
      if (it == ratios.end()) return std::nullopt;
      return it->second;
    };
    const auto out = cold.out.find(candidate);
    rows << "<tr" << (s.strategy == chosen.strategy ? " class=\"pick\"" : "") << "><td><code>"
         << s.name << "</code></td>" << time_ratio_cell(worst_band(ratios))
         << time_ratio_cell(mix(Mix::log_uniform)) << time_ratio_cell(mix(Mix::objects)) << "<td>"
         << (out == cold.out.end() ? "in" : "below memset: " + esc(out->second)) << "</td></tr>\n";
  }
  if (rows.str().empty()) return {};
  std::ostringstream h;
  h << "<h3>" << intent_name(i) << ": " << esc(describe(chosen)) << "</h3>\n<table>\n<tr><th>"
    << "strategy</th><th class=\"n\">worst band / memset</th><th class=\"n\">log-uniform</th>"
    << "<th class=\"n\">objects</th><th>cold</th></tr>\n"
    << rows.str() << "</table>\n";
  return h.str();
}

// The small path: each strategy's warm time against memset's, and why any is out cold; nothing
// where the small path was not studied.
std::string small_path_html(const TuneResult &r) {
  if (!r.small) return {};
  const std::vector<Measurement> stage1 = r.small->stage1_measurements(); // what chose
  std::ostringstream h;
  h << "<h2>Small sizes</h2>\n<div class=\"card\">\n<p>Sizes up to the small path's max are "
       "cleared by the dispatcher itself. Each strategy, warm, at "
    << small_strategy_sizes().size()
    << " sizes from 1 to 256 B and two mixes, memset beside at the same code places. Ratios "
       "are time / memset's; a band is the geometric mean over neighbouring sizes (1..3, "
       "4..15, 16..63, 64..128, 129..256 B) or one mix, and the strategy with the lowest "
       "worst band is chosen among those that keep the promise: within "
    << fmt("%.2f", kWarmNoise) << "&times; memset's time warm, and never below "
    << fmt("%.2f", kColdFloor) << "&times; its speed at a cold point, consecutive or "
    << "scattered, at " << fmt("%.0f%%", 100 * kSmallColdConfidence)
    << " confidence over paired rounds; cold weighs against warm as 1 to 9. Where none keeps "
       "it, the smallest loss, warm or cold, is chosen.</p>\n";
  for (Intent i : kIntents)
    h << small_path_table(*r.small, i, stage1);
  h << "</div>\n";
  return h.str();
}

using nlohmann::ordered_json;

// The raw file's "small" section of one intent: the chosen path, stage 1's ranking and the
// strategies the verification replaced (a fleet chooses among strategies ranked on every host,
// and none that a host's verification left losing).
ordered_json small_json(const TuneResult &r, Intent i) {
  const SmallPath chosen = i == Intent::reuse ? r.small->reuse : r.small->stream;
  ordered_json ranking = ordered_json::array();
  for (const SmallScore &sc : small_scores(r.small->stage1_measurements(), i))
    if (sc.kept) // only those that keep the promise
      ranking.push_back(
          {{"strategy", std::string(info(sc.path.strategy).name)}, {"score", sc.score}});
  ordered_json rejected = ordered_json::array();
  if (auto it = r.verification.small_tried.find(i); it != r.verification.small_tried.end())
    for (const SmallPath &p : it->second)
      rejected.push_back(std::string(info(p.strategy).name));
  ordered_json out = {{"strategy", std::string(info(chosen.strategy).name)}, {"max", chosen.max}};
  if (!chosen.bands.empty()) { // absent without bands: such files stay as they were
    ordered_json bands = ordered_json::array();
    for (const SmallBand &b : chosen.bands)
      bands.push_back({{"below", b.below}, {"strategy", std::string(info(b.strategy).name)}});
    out["bands"] = std::move(bands);
  }
  out["ranking"] = std::move(ranking);
  out["rejected"] = std::move(rejected);
  return out;
}

class SmallPathStage final : public Stage {
public:
  std::string_view name() const override { return "small path"; }
  std::string_view raw_key() const override { return "small"; }
  std::string_view measures() const override {
    return "whole dispatchers over the chosen tables at small sizes, warm: the small paths";
  }
  double seconds(const StageContext &c) const override {
    return small_study_seconds(c.meter, c.cpu, c.measure, c.plan.confidence);
  }
  // Its candidates are whole dispatchers over the chosen tables.
  void run(const StageContext &c, TuneResult &r) const override {
    Profile tables;
    tables.reuse = r.reuse;
    tables.stream = r.stream;
    r.small = study_small(c.meter, tables, c.cpu, c.measure, c.race_options);
    for (Intent i : kIntents)
      r.races.push_back(small_race_text(*r.small, i));
  }
  void profile(const TuneResult &r, Profile &p) const override {
    if (!r.small) return; // warm ns per call: see `clearjit bench --small`
    p.small_reuse = r.small->reuse;
    p.small_stream = r.small->stream;
  }
  std::string report_html(const TuneResult &r) const override { return small_path_html(r); }
  std::string summary(const TuneResult &r) const override {
    return r.small ? small_study_text(*r.small) : "";
  }
  void raw(const TuneResult &r, ordered_json &doc) const override {
    ordered_json small = ordered_json::object();
    if (r.small)
      for (Intent i : kIntents)
        small[std::string(intent_name(i))] = small_json(r, i);
    doc["small"] = std::move(small);
  }
};

} // namespace

const Stage &small_path_stage() {
  static const SmallPathStage stage;
  return stage;
}

} // namespace cjit::detail
