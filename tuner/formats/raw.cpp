#include "tuner/formats/raw.hpp"

#include "jit/runtime/pool.hpp"
#include "tuner/text/format.hpp"
#include "tuner/text/json_read.hpp"

namespace cjit::detail {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json race_json(const RaceRecord &r) {
  ordered_json conditions = ordered_json::array(), candidates = ordered_json::array(),
               beside = ordered_json::array();
  for (const Condition &c : r.race.conditions) {
    conditions.push_back({{"pattern", std::string(pattern_name(c.job.pattern))},
                          {"batched", c.job.batched},
                          {"required", c.required},
                          {"scored", c.scored}}); // absent in older files: raw_read.cpp
  }
  for (const Candidate &c : r.race.candidates)
    candidates.push_back(c.name());
  for (const Candidate &c : r.race.beside)
    beside.push_back(c.name());
  return {{"name", r.race.name},
          {"decides", r.decides},
          {"intent", std::string(intent_name(r.intent))},
          {"size", r.size},
          {"incumbent", r.race.incumbent.name()},
          {"candidates", std::move(candidates)},
          {"beside", std::move(beside)},
          {"conditions", std::move(conditions)},
          {"min_gain", r.race.min_gain},
          // [contender][condition][round], a speed (GB/s, or calls per ns warm), unrounded:
          // judged again, they must give the same outcome.
          {"samples", r.samples}};
}

} // namespace

nlohmann::ordered_json measurement_row(const Measurement &m) {
  return {{"kernel", m.candidate.name()},
          {"size", m.size},
          {"intent", std::string(intent_name(m.intent))},
          {"pattern", std::string(pattern_name(m.pattern))},
          {"batched", m.batched},
          {"gbps", round_to(m.gbps, 3)},
          {"cv", round_to(m.cv, 4)}};
}

std::string measurements_json(const TuneResult &r, const CpuInfo &cpu) {
  const ProfileHost h = profile_host(cpu);
  ordered_json measurements = ordered_json::array(), races = ordered_json::array(),
               repairs = ordered_json::array(), small = ordered_json::object();
  for (const Measurement &m : r.measurements) {
    ordered_json samples = ordered_json::array();
    for (double x : m.samples)
      samples.push_back(round_to(x, 3));
    measurements.push_back(measurement_row(m));
    measurements.back()["samples"] = std::move(samples);
  }
  for (const RaceRecord &rec : r.race_records)
    races.push_back(race_json(rec));
  for (const MemsetRepair &m : r.memset_repairs)
    repairs.push_back({{"intent", std::string(intent_name(m.intent))},
                       {"lower", m.lower},
                       {"below", m.below},
                       {"kernel", format_spec(m.kernel)}});
  if (r.small)
    for (Intent i : kIntents) {
      const SmallPath chosen = i == Intent::reuse ? r.small->reuse : r.small->stream;
      ordered_json ranking = ordered_json::array();
      // Only those that keep the promise: a fleet chooses among strategies ranked on every host.
      for (const SmallScore &sc : small_scores(r.small->stage1_measurements(), i))
        if (sc.kept)
          ranking.push_back(
              {{"strategy", std::string(info(sc.path.strategy).name)}, {"score", sc.score}});
      ordered_json rejected = ordered_json::array();
      if (auto it = r.verification.small_tried.find(i); it != r.verification.small_tried.end())
        for (const SmallPath &p : it->second)
          rejected.push_back(std::string(info(p.strategy).name));
      ordered_json &out = small[std::string(intent_name(i))];
      out = {{"strategy", std::string(info(chosen.strategy).name)}, {"max", chosen.max}};
      if (!chosen.bands.empty()) { // absent without bands: such files stay as they were
        ordered_json bands = ordered_json::array();
        for (const SmallBand &b : chosen.bands)
          bands.push_back({{"below", b.below}, {"strategy", std::string(info(b.strategy).name)}});
        out["bands"] = std::move(bands);
      }
      out["ranking"] = std::move(ranking);
      out["rejected"] = std::move(rejected);
    }
  const NoAllocate &step = r.findings.stosb_no_allocate;
  return json_text(
      {{"host",
        {{"vendor", h.vendor},
         {"family", h.family},
         {"model", h.model},
         {"stepping", h.stepping},
         {"brand", h.brand},
         {"l1d", h.l1d},
         {"l2", h.l2},
         {"l3", h.l3},
         {"hypervisor", h.hypervisor},
         {"features", h.features},
         {"cpus", r.parallel ? r.parallel->cpus : usable_cpus()}}},
       {"level", r.level},
       {"date", r.date},
       {"libc", r.libc},
       {"seconds", round_to(r.seconds, 1)},
       {"race_options", {{"confidence", r.race_options.confidence}, {"tied", r.race_options.tied}}},
       {"races", std::move(races)},
       {"memset_repairs", std::move(repairs)},
       {"small", std::move(small)},
       {"stosb_no_allocate",
        {{"size", step.size ? ordered_json(*step.size) : ordered_json(nullptr)},
         {"note", step.reason}}},
       {"measurements", std::move(measurements)}});
}

} // namespace cjit::detail
