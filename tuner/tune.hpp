// The tuner: plans what to measure at each level, measures it, chooses, and writes the profile.
#pragma once

#include "candidates.hpp"
#include "choose.hpp"
#include "measure.hpp"
#include "smallpath.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cjit {

struct TuneOptions {
  Level level = Level::default_;
  uint64_t min_size = 4096;
  uint64_t max_size = 1ull << 30;
  double time_limit = 0; //!< seconds; 0: the level's own budget
  std::vector<std::string> benchmark_flags;
  bool progress = true;
};

struct ChunkStudy {
  std::string method;              //!< stosb or stosq
  uint64_t size = 0;               //!< where it was measured (the largest size)
  std::map<uint64_t, double> gbps; //!< by chunk; 0 is the whole extent
  std::optional<uint64_t> smallest_90;
};

struct FenceStudy {
  std::string per_chunk, at_end;                      //!< the two specs compared
  std::map<uint64_t, std::pair<double, double>> gbps; //!< size -> (per 4 KiB chunk, at end)
};

struct Findings {
  NoAllocate stosb_no_allocate;
  std::string no_allocate_reference; //!< the temporal kernel stosb was compared with
  std::vector<ChunkStudy> chunks;
  std::optional<FenceStudy> fence;
  std::optional<uint64_t> nontemporal_reuse, nontemporal_stream;
};

struct TuneResult {
  std::vector<Measurement> measurements; //!< everything measured, for --json and --report
  std::vector<SizeClass> reuse, stream;
  std::vector<SizeClass> batch; //!< stream clears in batches; empty when not measured
  //! libc GB/s per grid size, as the tables' gbps (both patterns where both were measured)
  std::map<uint64_t, double> memset_reuse, memset_stream, memset_batch;
  //! The small-path study (warm, ns per call) and its choice per intent; written as [small.*].
  std::optional<SmallStudy> small;
  Findings findings;
  double seconds = 0;
  std::string level;
  std::string date;               //!< UTC, RFC 3339
  std::vector<std::string> notes; //!< what was narrowed to fit the time limit
  //! Grid sizes where scattered destinations alone would have chosen another kernel.
  std::vector<std::string> disagreements;
};

//! Measures on this host and chooses. Throws std::runtime_error when it cannot measure at all.
TuneResult tune(const TuneOptions &options, const CpuInfo &cpu);

//! The profile TOML for a result (the contract of the profile format).
std::string profile_toml(const TuneResult &r, const CpuInfo &cpu);
//! Every measurement with the host, as JSON.
std::string measurements_json(const TuneResult &r, const CpuInfo &cpu);
//! The human summary printed on stdout.
std::string summary_text(const TuneResult &r);
//! "amd-family26-model2.toml"
std::string default_profile_name(const CpuInfo &cpu);

} // namespace cjit

namespace cjit {
//! One self-contained HTML page with SVG charts of a tuning run (tuner/report.cpp).
std::string report_html(const TuneResult &r, const CpuInfo &cpu);
} // namespace cjit
