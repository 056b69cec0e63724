// The small-path stage (smallpath.hpp): whole dispatchers over the chosen tables at small
// sizes, warm; it chooses each intent's small path.
#include "tuner/stages/smallpath.hpp"
#include "tuner/stages/stage.hpp"
#include "tuner/stages/tune.hpp"

namespace cjit::detail {
namespace {

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
