#include "tuner/formats/raw.hpp"

#include "tuner/text/format.hpp"
#include "tuner/text/json_read.hpp"

#include <stdexcept>

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

// `key` of `sections`, taken out of it; `fallback` where it has none.
ordered_json take(ordered_json &sections, const char *key, ordered_json fallback) {
  auto it = sections.find(key);
  if (it == sections.end()) return fallback;
  ordered_json out = std::move(*it);
  sections.erase(it);
  return out;
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
  ordered_json measurements = ordered_json::array(), races = ordered_json::array();
  for (const Measurement &m : r.measurements) {
    ordered_json samples = ordered_json::array();
    for (double x : m.samples)
      samples.push_back(round_to(x, 3));
    measurements.push_back(measurement_row(m));
    measurements.back()["samples"] = std::move(samples);
  }
  for (const RaceRecord &rec : r.race_records)
    races.push_back(race_json(rec));
  ordered_json sections = ordered_json::object();
  for (const Stage *stage : r.stages)
    stage->raw(r, sections);
  const NoAllocate &step = r.findings.stosb_no_allocate;
  ordered_json doc = {
      {"format", kRawFormat},
      {"host",
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
        {"cpus", r.cpus ? r.cpus : usable_cpus()}}},
      {"level", r.level},
      {"date", r.date},
      {"libc", r.libc},
      {"seconds", round_to(r.seconds, 1)},
      {"race_options", {{"confidence", r.race_options.confidence}, {"tied", r.race_options.tied}}},
      {"races", std::move(races)}};
  // The stages' sections: those every reader requires where they always were, even empty; then
  // any other stage's, before the measurements.
  doc["memset_repairs"] = take(sections, "memset_repairs", ordered_json::array());
  doc["small"] = take(sections, "small", ordered_json::object());
  doc["stosb_no_allocate"] = {
      {"size", step.size ? ordered_json(*step.size) : ordered_json(nullptr)},
      {"note", step.reason}};
  for (auto &[key, section] : sections.items()) {
    if (doc.contains(key) || key == "measurements")
      throw std::logic_error("a stage wrote the raw file's own key \"" + key + "\"");
    doc[key] = std::move(section);
  }
  doc["measurements"] = std::move(measurements);
  return json_text(doc);
}

} // namespace cjit::detail
