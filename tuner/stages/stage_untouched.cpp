// The untouched stage: whether each table's last class leaves untouched pages to the kernel
// (untouched=skip, jit/pages/untouched.hpp). Its kernel with the option races the kernel
// without, on memory just mapped (the clear and the first use of every page) and on memory in
// use (where the look is a cost and skips nothing); the option is taken where it wins the
// first and does not lose the second.
#include "jit/pages/untouched.hpp"
#include "tuner/stages/stage.hpp"
#include "tuner/stages/tune.hpp"
#include "tuner/text/format.hpp"
#include "tuner/text/html.hpp"
#include "tuner/text/json_read.hpp"

#include <algorithm>
#include <memory>
#include <sstream>

namespace cjit::detail {
namespace {

//! The least size raced: below it a clear is too short beside the look on memory in use, and
//! each sample of untouched memory costs page faults in proportion to its size.
constexpr uint64_t kRaceSize = uint64_t(64) << 20;

struct UntouchedDecision {
  Intent intent = Intent::reuse;
  uint64_t size = 0; //!< raced at; the option is taken from here up
  Spec kernel;       //!< the last class's, without the option
  bool taken = false;
  std::string race; //!< race_text
  //! The option's speed over the kernel's, medians of the rounds: on memory just mapped (with
  //! the first use) and on memory in use (0: not measured).
  double untouched = 0, in_use = 0;
};

struct UntouchedStudy final : StageResult {
  std::vector<UntouchedDecision> decisions;
  std::vector<std::string> not_raced; //!< "stream: the tune stops at 16 MiB"
};

const UntouchedStudy *study_of(const TuneResult &r) {
  auto it = r.stage_results.find("untouched");
  return it == r.stage_results.end() ? nullptr
                                     : dynamic_cast<const UntouchedStudy *>(it->second.get());
}

// "reuse: written, as by libc (at 64 MiB: 1.15x just mapped, 0.96x in use)".
std::string decision_text(const UntouchedDecision &d) {
  return std::string(intent_name(d.intent)) + ": " +
         (d.taken ? "left to the kernel from " + human_bytes(d.size)
                  : "written, as by " + format_spec(d.kernel)) +
         " (at " + human_bytes(d.size) + ": " + fmt("%.2fx just mapped, ", d.untouched) +
         fmt("%.2fx in use)", d.in_use);
}

std::vector<SizeClass> &table_of(TuneResult &r, Intent i) {
  return i == Intent::reuse ? r.reuse : r.stream;
}

// The lower bound of `table`'s last class.
uint64_t last_lower(const std::vector<SizeClass> &table) {
  return table.size() < 2 ? 0 : table[table.size() - 2].below;
}

Spec with_untouched(Spec s) {
  s.untouched = Untouched::skip;
  return s;
}

// Untouched memory scores, where the option is for; memory in use is a guard, required and not
// scored: the look there can at best tie, and a tie in the score's mean would halve the gain.
std::vector<Condition> conditions(uint64_t size, Intent intent, const Spec &kernel) {
  const Job base(kernel, size, intent);
  return {{in_pattern(base, Pattern::untouched), true},
          {in_pattern(base, Pattern::scattered), true, false}};
}

class UntouchedStage final : public Stage {
public:
  std::string_view name() const override { return "untouched"; }
  std::string_view measures() const override {
    return "each table's last kernel with untouched=skip against it, on memory just mapped and "
           "in use";
  }
  double seconds(const StageContext &c) const override {
    if (c.max_size < kRaceSize) return 0;
    std::vector<Job> jobs;
    for (Intent i : kIntents)
      for (const Condition &k : conditions(kRaceSize, i, default_spec(Method::libc)))
        jobs.push_back(k.job);
    return 2 * c.plan.max_rounds * c.meter.estimate_seconds(jobs, c.race_measure());
  }
  void run(const StageContext &c, TuneResult &r) const override {
    auto study = std::make_shared<UntouchedStudy>();
    r.stage_results["untouched"] = study;
    // Under a seccomp filter every handle writes its untouched pages (open_profile): a profile
    // tuned here would ask for what no program here runs.
    if (seccomp_filtered()) {
      study->not_raced.push_back("reuse and stream: this process runs under a seccomp filter");
      return;
    }
    Racing racing(c.meter, c.race_options, c.race_measure());
    std::vector<std::pair<UntouchedDecision, size_t>> raced;
    for (Intent i : kIntents) {
      const std::vector<SizeClass> &table = table_of(r, i);
      if (table.empty()) continue;
      const uint64_t size = std::max(last_lower(table), kRaceSize);
      if (size > c.max_size) {
        study->not_raced.push_back(std::string(intent_name(i)) + ": the tune stops at " +
                                   human_bytes(c.max_size) + ", below " + human_bytes(size));
        continue;
      }
      const Spec kernel = table.back().kernel;
      Race race{.name = "untouched " + std::string(intent_name(i)) + " " + human_bytes(size),
                .conditions = conditions(size, i, kernel),
                .candidates = {with_untouched(kernel)},
                .incumbent = kernel};
      raced.push_back({{i, size, kernel, false, {}}, racing.add(std::move(race))});
    }
    racing.run(c.seconds_left ? std::max(*c.seconds_left, seconds(c)) : 0);
    for (auto &[d, k] : raced) {
      const RaceOutcome &o = racing.outcome(k);
      d.taken = o.winner == Candidate(with_untouched(d.kernel));
      d.race = race_text(racing.race(k), o);
      if (!o.field.empty() && o.field[0].states.size() == 2) {
        d.untouched = o.field[0].states[0].median;
        d.in_use = o.field[0].states[1].median;
      }
      if (d.taken && !leave_untouched_from(table_of(r, d.intent), d.size))
        d.taken = false; // the table has no room for the class the split makes
      r.races.push_back(d.race);
      study->decisions.push_back(d);
    }
  }
  std::string summary(const TuneResult &r) const override {
    const UntouchedStudy *s = study_of(r);
    if (!s) return {};
    std::ostringstream out;
    out << "untouched pages (untouched=skip, raced on memory just mapped and in use):\n";
    for (const UntouchedDecision &d : s->decisions)
      out << "  " << decision_text(d) << "\n";
    for (const std::string &n : s->not_raced)
      out << "  " << n << ": not raced\n";
    return out.str();
  }
  std::string report_html(const TuneResult &r) const override {
    const UntouchedStudy *s = study_of(r);
    if (!s) return {};
    std::ostringstream h;
    h << "<h2>Untouched pages</h2>\n<div class=\"card\">\n<p>Each table's last kernel with "
         "<code>untouched=skip</code> raced it, timing the clear of a new mapping with the first "
         "use of every page, and the clear of memory in use.</p>\n<ul>\n";
    for (const UntouchedDecision &d : s->decisions)
      h << "<li>" << esc(decision_text(d)) << "<br><small>" << esc(d.race) << "</small></li>\n";
    for (const std::string &n : s->not_raced)
      h << "<li>" << esc(n) << ": not raced</li>\n";
    h << "</ul>\n</div>\n";
    return h.str();
  }
  void raw(const TuneResult &r, nlohmann::ordered_json &doc) const override {
    const UntouchedStudy *s = study_of(r);
    if (!s) return;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const UntouchedDecision &d : s->decisions)
      list.push_back({{"intent", intent_name(d.intent)},
                      {"size", d.size},
                      {"kernel", format_spec(d.kernel)},
                      {"taken", d.taken},
                      {"untouched", d.untouched},
                      {"in_use", d.in_use},
                      {"race", d.race}});
    doc["untouched"] = {{"decisions", list}};
  }
  void check_raw(const nlohmann::json &section, const std::string &path) const override {
    const nlohmann::json &list =
        json_array(json_member(section, "decisions", path), path + ".decisions");
    for (size_t k = 0; k < list.size(); ++k)
      read_decision(list[k], path + ".decisions[" + std::to_string(k) + "]");
  }
  //! `clearjit choose`: a table's last class takes the option where every host took it, from
  //! the largest size any of them raced.
  void merge(StageMerge &m) const override {
    for (Intent i : kIntents) {
      std::vector<SizeClass> &table = i == Intent::reuse ? m.profile.reuse : m.profile.stream;
      if (table.empty() || m.sections.empty()) continue;
      uint64_t from = 0;
      bool every = true;
      for (const nlohmann::json *section : m.sections) {
        bool took = false;
        if (section)
          for (const nlohmann::json &d :
               json_array(json_member(*section, "decisions", "untouched"), "untouched.decisions"))
            if (const UntouchedDecision u = read_decision(d, "untouched.decisions");
                u.intent == i && u.taken && u.kernel == table.back().kernel) {
              took = true;
              from = std::max(from, u.size);
            }
        every = every && took;
      }
      // From a size some host raced, never below the merged last class (sizes no host raced).
      from = std::max(from, last_lower(table));
      if (!every || !leave_untouched_from(table, from)) continue;
      m.notes.push_back(std::string(intent_name(i)) + ": untouched pages left to the kernel from " +
                        human_bytes(from) + ", as on every host");
    }
  }

private:
  static UntouchedDecision read_decision(const nlohmann::json &v, const std::string &path) {
    UntouchedDecision d;
    const std::string intent = json_string(json_member(v, "intent", path), path + ".intent");
    if (intent != "reuse" && intent != "stream")
      throw SchemaError{path + ".intent: must be \"reuse\" or \"stream\""};
    d.intent = intent == "reuse" ? Intent::reuse : Intent::stream;
    d.size = json_whole_number(json_member(v, "size", path), path + ".size");
    const std::string spec = json_string(json_member(v, "kernel", path), path + ".kernel");
    auto s = parse_spec(spec);
    if (!s) throw SchemaError{path + ".kernel: " + s.error};
    d.kernel = *s;
    const nlohmann::json &taken = json_member(v, "taken", path);
    if (!taken.is_boolean()) throw SchemaError{path + ".taken: must be true or false"};
    d.taken = taken.get<bool>();
    d.race = json_string(json_member(v, "race", path), path + ".race");
    d.untouched = json_number(json_member(v, "untouched", path), path + ".untouched");
    d.in_use = json_number(json_member(v, "in_use", path), path + ".in_use");
    return d;
  }
};

} // namespace

const Stage &untouched_stage() {
  static const UntouchedStage stage;
  return stage;
}

} // namespace cjit::detail
