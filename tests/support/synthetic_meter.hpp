// A Meter of synthetic timings, for tests that drive the tuner's races and stages without
// measuring anything: each candidate's speed is memset's times a factor per destination state,
// with seeded log-normal noise on every sample.
#pragma once

#include "tuner/measure/measure.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace cjit::test {

class SyntheticMeter final : public detail::Meter {
public:
  //! `noise`: the standard deviation of a sample's log (0.05: about 5%).
  explicit SyntheticMeter(double noise, uint64_t seed = 1)
      : noise_(noise), seed_(seed), rng_(seed) {}

  //! Draws each kind of job's noise from a stream of its own, so that its samples do not depend
  //! on which other jobs run: a test over CPU kinds that run different strategies sees the same
  //! noise on the strategies they share.
  void noise_per_job() { per_job_ = true; }

  //! `candidate` runs at `factor` times memset's speed in `pattern` (1 where not set).
  void set(const std::string &candidate, detail::Pattern pattern, double factor) {
    factors_[{candidate, pattern}] = factor;
  }
  void set(const std::string &candidate, double factor) {
    for (detail::Pattern p :
         {detail::Pattern::scattered, detail::Pattern::consecutive, detail::Pattern::cached,
          detail::Pattern::hot, detail::Pattern::untouched})
      set(candidate, p, factor);
  }

  //! `candidate` runs at `factor` times memset's speed at `size`, in every pattern (before any
  //! factor per pattern).
  void set_at(const std::string &candidate, uint64_t size, double factor) {
    sized_[{candidate, size}] = factor;
  }

  //! `candidate` runs at `factor` times memset's speed from `size` up, in every pattern (a
  //! step, such as rep stosb's where it stops allocating; before any factor per pattern).
  void set_from(const std::string &candidate, uint64_t size, double factor) {
    from_[candidate].push_back({size, factor});
  }

  //! `candidate`'s warm ns per call are memset's divided by `factor` (before any other factor),
  //! so that its cold patterns can differ: a small path fast warm and slow cold.
  void set_warm(const std::string &candidate, double factor) { warm_[candidate] = factor; }

  //! Before every other factor: where `model` gives a job one, its candidate runs at that times
  //! memset's speed (a machine whose kernels differ by size, pattern and batching at once).
  void set_model(std::function<std::optional<double>(const detail::Job &)> model) {
    model_ = std::move(model);
  }

  std::vector<detail::Measurement> run(const std::vector<detail::Job> &jobs,
                                       const detail::MeasureOptions &o) override {
    std::vector<detail::Measurement> out;
    std::normal_distribution<double> n(0, noise_);
    for (const detail::Job &j : jobs) {
      detail::Measurement m;
      m.candidate = j.candidate;
      m.size = j.size;
      m.intent = j.intent;
      m.pattern = j.pattern;
      m.batched = j.batched;
      m.warm = j.warm;
      m.mix = j.mix;
      m.threads = j.threads;
      const auto warm = j.warm ? warm_.find(j.candidate.name()) : warm_.end();
      const std::optional<double> modelled = model_ ? model_(j) : std::nullopt;
      double f = factor(j.candidate.name(), j.size, j.pattern);
      if (warm != warm_.end()) f = warm->second;
      if (modelled) f = *modelled;
      const double speed = 10 * f;
      std::mt19937_64 &rng = per_job_ ? stream(j) : rng_;
      for (int r = 0; r < o.repetitions; ++r) {
        const double s = speed * std::exp(n(rng));
        m.samples.push_back(j.warm ? 1 / s : s); // warm: ns per call
      }
      detail::summarize(m);
      out.push_back(std::move(m));
      ++jobs_run;
    }
    ++runs;
    return out;
  }

  double estimate_seconds(const std::vector<detail::Job> &jobs,
                          const detail::MeasureOptions &o) const override {
    return double(jobs.size()) * o.repetitions * 0.001;
  }

  int runs = 0;        //!< calls of run()
  size_t jobs_run = 0; //!< jobs measured

private:
  // noise_per_job(): each stream seeded from the bench's seed and the job's description.
  std::mt19937_64 &stream(const detail::Job &j) {
    const std::string key = j.candidate.name() + "|" + std::to_string(j.size) + "|" +
                            std::to_string(int(j.intent)) + "|" + std::to_string(int(j.pattern)) +
                            "|" + std::to_string(j.batched) + std::to_string(j.warm) + "|" +
                            std::to_string(int(j.mix)) + "|" + std::to_string(j.place) + "|" +
                            std::to_string(j.draw) + "|" + std::to_string(j.threads);
    auto it = streams_.find(key);
    if (it == streams_.end())
      it = streams_.emplace(key, std::mt19937_64(seed_ ^ std::hash<std::string>{}(key))).first;
    return it->second;
  }

  // A kernel with untouched=skip runs as the kernel without it, unless told otherwise: the
  // model's look costs nothing and skips nothing.
  double factor(const std::string &candidate, uint64_t size, detail::Pattern p) const {
    const std::string_view skip = "untouched=skip";
    const bool own =
        sized_.count({candidate, size}) || from_.count(candidate) || factors_.count({candidate, p});
    if (!own && candidate.ends_with(skip)) {
      const std::string base = candidate.substr(0, candidate.size() - skip.size() - 1);
      return factor(base, size, p);
    }
    if (auto at = sized_.find({candidate, size}); at != sized_.end()) return at->second;
    if (auto steps = from_.find(candidate); steps != from_.end()) {
      double f = 0;
      for (auto [from, factor] : steps->second)
        if (size >= from) f = factor;
      if (f) return f;
    }
    auto it = factors_.find({candidate, p});
    return it == factors_.end() ? 1 : it->second;
  }
  double noise_;
  uint64_t seed_;
  std::mt19937_64 rng_;
  bool per_job_ = false;
  std::map<std::string, std::mt19937_64> streams_;
  std::map<std::pair<std::string, detail::Pattern>, double> factors_;
  std::map<std::pair<std::string, uint64_t>, double> sized_;
  std::map<std::string, std::vector<std::pair<uint64_t, double>>> from_;
  std::map<std::string, double> warm_;
  std::function<std::optional<double>(const detail::Job &)> model_;
};

//! Issue 41's machine, exaggerated (a model for SyntheticMeter::set_model): ntavx512 clears a
//! huge page (exactly 2 MiB or 1 GiB, one call per page) and 4 KiB pieces in a batch 2.4x faster
//! than memset at scattered and consecutive destinations and 0.3x at a hot one; at every other
//! size, the neighbouring octaves included, memset is faster (0.7x). Other kernels: memset's
//! speed.
inline std::optional<double> huge_page_machine(const detail::Job &j) {
  const detail::Spec *k = j.candidate.kernel();
  if (j.warm || !k || k->method != detail::Method::ntavx512) return std::nullopt;
  if (j.pattern == detail::Pattern::hot) return 0.3;
  const bool fast = j.batched ? j.size == 4096 : j.size == 2ull << 20 || j.size == 1ull << 30;
  return fast ? 2.4 : 0.7;
}

} // namespace cjit::test
