// Reading a tune's raw measurements back (raw.hpp): kept apart from the writer so that the fuzzer
// builds it without the tuner.
#include "tuner/formats/raw.hpp"

#include "jit/runtime/pool.hpp"
#include "tuner/stages/candidates.hpp"
#include "tuner/text/json_read.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace cjit::detail {

using nlohmann::json;

namespace {

// Bounds of what a raw file may hold: above an exhaustive tune's (a few hundred races of at most
// 16 contenders, 3 conditions and 30 rounds), and small enough that judging every race again
// (each round judged over the rounds before it) stays within seconds.
constexpr size_t kMaxRaces = 1024, kMaxContenders = 32, kMaxConditions = 8, kMaxRounds = 64;

Intent read_intent(const json &v, const std::string &path) {
  const std::string &s = json_string(v, path);
  for (Intent i : kIntents)
    if (s == intent_name(i)) return i;
  throw SchemaError{path + ": \"" + s + "\" is not reuse or stream"};
}

Pattern read_pattern(const json &v, const std::string &path) {
  const std::string &s = json_string(v, path);
  for (const auto &[pattern, name] : kPatternNames)
    if (s == name) return pattern;
  throw SchemaError{path + ": \"" + s + "\" is not a destination pattern"};
}

bool read_bool(const json &v, const std::string &path) {
  if (!v.is_boolean()) throw SchemaError{path + ": must be true or false, not " + v.type_name()};
  return v.get<bool>();
}

Spec read_spec(const json &v, const std::string &path) {
  const std::string &s = json_string(v, path);
  Result<Spec> spec = parse_spec(s);
  if (!spec) throw SchemaError{path + ": " + spec.error};
  return *spec;
}

// A contender: a thread count's label in a parallel race, a kernel's spec elsewhere.
Candidate read_candidate(const json &v, const std::string &path, bool parallel) {
  if (!parallel) return read_spec(v, path);
  const std::string name = json_string(v, path);
  const std::optional<Candidate> c = thread_count_named(name);
  if (!c || threads_of(*c) > kMaxThreads)
    throw SchemaError{path + ": \"" + name + "\" is not a thread count's label"};
  return *c;
}

std::vector<Candidate> read_candidates(const json &v, const std::string &path, bool parallel) {
  std::vector<Candidate> out;
  if (json_array(v, path).size() > kMaxContenders)
    throw SchemaError{path + ": more than " + std::to_string(kMaxContenders) + " contenders"};
  for (size_t k = 0; k < v.size(); ++k)
    out.push_back(read_candidate(v[k], path + "[" + std::to_string(k) + "]", parallel));
  return out;
}

SmallPath read_small_path(const json &v, const std::string &path, bool with_max) {
  const std::string &name = json_string(json_member(v, "strategy", path), path + ".strategy");
  const std::optional<Small> s = small_by_name(name);
  if (!s) throw SchemaError{path + ".strategy: \"" + name + "\" is no small-path strategy"};
  SmallPath p{*s, 256};
  if (with_max) {
    const uint64_t max = json_whole_number(json_member(v, "max", path), path + ".max");
    if (!valid_small_max(max))
      throw SchemaError{path + ".max: " + std::to_string(max) + " is no small-path max"};
    p.max = unsigned(max);
    if (v.contains("bands")) {
      const json &bands = json_array(v["bands"], path + ".bands");
      if (bands.size() > kSmallMaxBands)
        throw SchemaError{path + ".bands: more than " + std::to_string(kSmallMaxBands)};
      for (size_t k = 0; k < bands.size(); ++k) {
        const std::string at = path + ".bands[" + std::to_string(k) + "]";
        const SmallPath b = read_small_path(bands[k], at, false);
        const uint64_t below = json_whole_number(json_member(bands[k], "below", at), at + ".below");
        if (below > p.max) throw SchemaError{at + ".below: above max"};
        p.bands.push_back({unsigned(below), b.strategy});
      }
      if (std::string why = small_bands_error(p); !why.empty())
        throw SchemaError{path + ".bands: " + why};
    }
  }
  return p;
}

RaceRecord read_race(const json &v, const std::string &path) {
  RaceRecord r;
  r.race.name = json_string(json_member(v, "name", path), path + ".name");
  r.decides = json_string(json_member(v, "decides", path), path + ".decides");
  static const char *const kinds[] = {"reuse", "stream", "batch", "variants", "study", "parallel"};
  if (std::find(std::begin(kinds), std::end(kinds), r.decides) == std::end(kinds))
    throw SchemaError{path + ".decides: \"" + r.decides + "\" is not a kind of race"};
  const bool parallel = r.decides == "parallel";
  r.intent = read_intent(json_member(v, "intent", path), path + ".intent");
  r.size = json_whole_number(json_member(v, "size", path), path + ".size");
  r.race.incumbent =
      read_candidate(json_member(v, "incumbent", path), path + ".incumbent", parallel);
  r.race.candidates =
      read_candidates(json_member(v, "candidates", path), path + ".candidates", parallel);
  r.race.beside = read_candidates(json_member(v, "beside", path), path + ".beside", false);
  // What the ratios are against: memset for a table's races, one thread for the thread counts'.
  const Candidate incumbent = parallel ? parallel_label(1) : memset_candidate();
  if (r.decides != "study" && !(r.race.incumbent == incumbent))
    throw SchemaError{path + ".incumbent: \"" + r.race.incumbent.name() + "\", not \"" +
                      incumbent.name() + "\""};
  const std::vector<Candidate> all = contenders(r.race);
  for (size_t a = 0; a < all.size(); ++a)
    for (size_t b = 0; b < a; ++b)
      if (all[a] == all[b])
        throw SchemaError{path + ": \"" + all[a].name() + "\" is a contender twice"};
  const json &conditions = json_array(json_member(v, "conditions", path), path + ".conditions");
  if (conditions.empty() || conditions.size() > kMaxConditions)
    throw SchemaError{path + ".conditions: 1 to " + std::to_string(kMaxConditions) + " expected"};
  for (size_t k = 0; k < conditions.size(); ++k) {
    const std::string at = path + ".conditions[" + std::to_string(k) + "]";
    Job job(default_spec(Method::libc), r.size, r.intent);
    job.pattern = read_pattern(json_member(conditions[k], "pattern", at), at + ".pattern");
    job.batched = read_bool(json_member(conditions[k], "batched", at), at + ".batched");
    const bool required = read_bool(json_member(conditions[k], "required", at), at + ".required");
    // Files before "scored" (2026-12-04) scored every state; they are judged again by today's
    // rule, as the tuner races now: a stream race's hot state is recorded, not scored.
    const bool scored_today =
        !(r.intent == Intent::stream && job.pattern == Pattern::hot && !required);
    r.race.conditions.push_back({job, required,
                                 conditions[k].contains("scored")
                                     ? read_bool(conditions[k]["scored"], at + ".scored")
                                     : scored_today});
    if (r.race.conditions.back().required && !r.race.conditions.back().scored)
      throw SchemaError{at + ": required but not scored"};
  }
  r.race.min_gain = json_number(json_member(v, "min_gain", path), path + ".min_gain");
  if (r.race.min_gain <= 0 || r.race.min_gain > 100)
    throw SchemaError{path + ".min_gain: must be above 0"};
  const std::string sp = path + ".samples";
  const json &samples = json_array(json_member(v, "samples", path), sp);
  const size_t contenders = 1 + r.race.candidates.size() + r.race.beside.size();
  if (samples.size() != contenders)
    throw SchemaError{sp + ": " + std::to_string(samples.size()) + " contenders, not " +
                      std::to_string(contenders)};
  // Rounds as Racing runs them: every contender in every condition of a round it is in; the
  // incumbent and those beside in every round, a candidate until it leaves. A race of no rounds
  // (a tune cut short) has every array empty.
  size_t rounds = 0;
  for (size_t c = 0; c < contenders; ++c) {
    const std::string cp = sp + "[" + std::to_string(c) + "]";
    if (json_array(samples[c], cp).size() != conditions.size())
      throw SchemaError{cp + ": " + std::to_string(samples[c].size()) + " conditions, not " +
                        std::to_string(conditions.size())};
    r.samples.emplace_back();
    for (size_t k = 0; k < conditions.size(); ++k) {
      const std::string kp = cp + "[" + std::to_string(k) + "]";
      const size_t n = json_array(samples[c][k], kp).size();
      if (n > kMaxRounds)
        throw SchemaError{kp + ": more than " + std::to_string(kMaxRounds) + " rounds"};
      if (c == 0 && k == 0) rounds = n;
      const bool every_round = c == 0 || c > r.race.candidates.size();
      if (n > rounds || (every_round && n < rounds) || (n == 0 && rounds > 0) ||
          (k > 0 && n != samples[c][0].size()))
        throw SchemaError{kp + ": " + std::to_string(n) + " rounds, where " + sp + "[0][0] has " +
                          std::to_string(rounds) +
                          " (every contender has a sample in each condition of each round it "
                          "ran, the incumbent and those beside in every round)"};
      r.samples.back().emplace_back();
      for (size_t j = 0; j < n; ++j) {
        const double x = json_number(samples[c][k][j], kp + "[" + std::to_string(j) + "]");
        if (x < 0) throw SchemaError{kp + "[" + std::to_string(j) + "]: a speed below 0"};
        r.samples.back().back().push_back(x);
      }
    }
  }
  return r;
}

// [host], and the CPUs the tune could use.
void read_host(const json &doc, RawTune &t) {
  const json &host = json_member(doc, "host", "");
  t.host.vendor = json_string(json_member(host, "vendor", "host"), "host.vendor");
  t.host.brand = json_string(json_member(host, "brand", "host"), "host.brand");
  for (auto [key, field] : {std::pair{"family", &ProfileHost::family},
                            {"model", &ProfileHost::model},
                            {"stepping", &ProfileHost::stepping},
                            {"l1d", &ProfileHost::l1d},
                            {"l2", &ProfileHost::l2},
                            {"l3", &ProfileHost::l3}}) {
    const uint64_t v =
        json_whole_number(json_member(host, key, "host"), std::string("host.") + key);
    if (v > uint64_t(INT64_MAX)) throw SchemaError{std::string("host.") + key + ": too large"};
    t.host.*field = int64_t(v);
  }
  t.host.hypervisor = read_bool(json_member(host, "hypervisor", "host"), "host.hypervisor");
  const json &features = json_array(json_member(host, "features", "host"), "host.features");
  if (features.size() > 64) throw SchemaError{"host.features: more than 64"};
  for (size_t k = 0; k < features.size(); ++k)
    t.host.features.push_back(json_string(features[k], "host.features[" + std::to_string(k) + "]"));
  t.cpus = unsigned(std::min<uint64_t>(
      json_whole_number(json_member(host, "cpus", "host"), "host.cpus"), kMaxThreads));
}

// The classes the verification gave to memset.
void read_repairs(const json &doc, RawTune &t) {
  const json &repairs = json_array(json_member(doc, "memset_repairs", ""), "memset_repairs");
  if (repairs.size() > 2 * kMaxClasses) throw SchemaError{"memset_repairs: too many"};
  for (size_t k = 0; k < repairs.size(); ++k) {
    const std::string at = "memset_repairs[" + std::to_string(k) + "]";
    MemsetRepair m;
    m.intent = read_intent(json_member(repairs[k], "intent", at), at + ".intent");
    m.lower = json_whole_number(json_member(repairs[k], "lower", at), at + ".lower");
    m.below = json_whole_number(json_member(repairs[k], "below", at), at + ".below");
    m.kernel = read_spec(json_member(repairs[k], "kernel", at), at + ".kernel");
    if (m.below && m.below <= m.lower) throw SchemaError{at + ": below is not above lower"};
    t.memset_repairs.push_back(m);
  }
}

// Each intent's small path, its ranking and what the verification rejected.
void read_small(const json &doc, RawTune &t) {
  const json &small = json_member(doc, "small", "");
  for (Intent i : kIntents) {
    const std::string at = "small." + std::string(intent_name(i));
    const json &s = json_member(small, std::string(intent_name(i)).c_str(), "small");
    t.small[i] = read_small_path(s, at, true);
    // Absent in raw files written before rejections were kept (docs/design/fleet.md, `rejected`):
    // none.
    static const json kNone = json::array();
    const json &rejected =
        s.contains("rejected") ? json_array(s["rejected"], at + ".rejected") : kNone;
    if (rejected.size() > 64) throw SchemaError{at + ".rejected: more than 64"};
    for (size_t k = 0; k < rejected.size(); ++k) {
      const std::string rp = at + ".rejected[" + std::to_string(k) + "]";
      const std::optional<Small> s = small_by_name(json_string(rejected[k], rp));
      if (!s) throw SchemaError{rp + ": no small-path strategy"};
      t.small_rejected[i].push_back(*s);
    }
    t.small_ranking[i]; // present, if empty
    const json &ranking = json_array(json_member(s, "ranking", at), at + ".ranking");
    if (ranking.size() > 64) throw SchemaError{at + ".ranking: more than 64"};
    for (size_t k = 0; k < ranking.size(); ++k) {
      const std::string rp = at + ".ranking[" + std::to_string(k) + "]";
      t.small_ranking[i].push_back(
          {read_small_path(ranking[k], rp, false),
           json_number(json_member(ranking[k], "score", rp), rp + ".score")});
    }
  }
}

RawTune read_tune(const json &doc, std::span<const Stage *const> stages) {
  if (doc.contains("format") &&
      !(doc["format"].is_number_integer() && doc["format"].get<int64_t>() == kRawFormat))
    throw SchemaError{"format: " +
                      (doc["format"].is_number() ? doc["format"].dump()
                                                 : std::string(doc["format"].type_name())) +
                      ", where this reader understands the integer " + std::to_string(kRawFormat) +
                      " (or none: files before 2026-12-07)"};
  RawTune t;
  read_host(doc, t);
  t.level = json_string(json_member(doc, "level", ""), "level");
  if (!level_by_name(t.level))
    throw SchemaError{"level: \"" + t.level + "\" is not quick, default or exhaustive"};
  t.date = json_string(json_member(doc, "date", ""), "date");
  if (doc.contains("libc")) t.libc = json_string(doc["libc"], "libc"); // since 2026-12-05
  // As a profile's [tuning] libc, which `clearjit choose` writes it to.
  if (!t.libc.empty() && !valid_libc_name(t.libc))
    throw SchemaError{"libc: at most " + std::to_string(kMaxLibcName) +
                      " printable ASCII characters"};
  const json &options = json_member(doc, "race_options", "");
  t.options.confidence =
      json_number(json_member(options, "confidence", "race_options"), "race_options.confidence");
  t.options.tied = json_number(json_member(options, "tied", "race_options"), "race_options.tied");
  if (!(t.options.confidence > 0.5 && t.options.confidence < 1))
    throw SchemaError{"race_options.confidence: must be between 0.5 and 1"};
  if (!(t.options.tied >= 0 && t.options.tied < 1))
    throw SchemaError{"race_options.tied: must be between 0 and 1"};
  const json &races = json_array(json_member(doc, "races", ""), "races");
  if (races.size() > kMaxRaces) throw SchemaError{"races: more than " + std::to_string(kMaxRaces)};
  std::set<std::string> names;
  std::map<std::tuple<std::string, Intent, uint64_t>, size_t> decisions;
  for (size_t k = 0; k < races.size(); ++k) {
    const std::string at = "races[" + std::to_string(k) + "]";
    const RaceRecord &r = t.races.emplace_back(read_race(races[k], at));
    if (r.decides == "study") continue; // the studies' are not read again
    // A decision's race is found by its name, and a size's by its table and size: one of each.
    if (!names.insert(r.race.name).second)
      throw SchemaError{at + ".name: \"" + r.race.name + "\" twice"};
    if (auto [it, added] = decisions.emplace(std::tuple{r.decides, r.intent, r.size}, k); !added)
      throw SchemaError{at + ": a second race deciding " + r.decides +
                        (r.decides == intent_name(r.intent)
                             ? ""
                             : " (" + std::string(intent_name(r.intent)) + ")") +
                        " at " + std::to_string(r.size) + " bytes, after races[" +
                        std::to_string(it->second) + "]"};
  }
  read_repairs(doc, t);
  read_small(doc, t);
  const json &step = json_member(doc, "stosb_no_allocate", "");
  const json &size = json_member(step, "size", "stosb_no_allocate");
  if (!size.is_null()) t.stosb_no_allocate.size = json_whole_number(size, "stosb_no_allocate.size");
  t.stosb_no_allocate.reason =
      json_string(json_member(step, "note", "stosb_no_allocate"), "stosb_no_allocate.note");
  for (const Stage *stage : stages) {
    const std::string key(stage->raw_key());
    if (!doc.contains(key)) continue;
    stage->check_raw(doc[key], key);
    t.stage_sections[key] = doc[key];
  }
  return t;
}

// Whether `text` begins as a TOML profile does (a comment, `format`, a table header), which
// no JSON document does.
bool looks_like_toml(std::string_view text) {
  const size_t at = text.find_first_not_of(" \t\r\n");
  if (at == text.npos) return false;
  text.remove_prefix(at);
  return text.starts_with('#') || text.starts_with("format") || text.starts_with("[host]") ||
         text.starts_with("[[dispatch.");
}

} // namespace

Result<RawTune> read_raw(std::string_view text, std::string_view name,
                         std::span<const Stage *const> stages) {
  Result<RawTune> r = read_json_file<RawTune>(
      text, name, kRawJsonMaxBytes, "a tune's raw measurements",
      [&](const json &doc) {
        RawTune t = read_tune(doc, stages);
        t.name = std::string(name);
        return t;
      },
      " (clearjit choose reads the files of `clearjit tune --json`)");
  if (!r && looks_like_toml(text))
    r.error += "; this looks like a TOML profile; choose reads the raw JSON of `clearjit tune "
               "--json`";
  return r;
}

} // namespace cjit::detail
