// The studies beside the tables: where rep stosb stops allocating in the cache, how the chunk
// size changes the string instructions, whether a fence per chunk costs against one at the end,
// and from where non-temporal stores win. What each measures, and what it found.
#pragma once

#include "tuner/measure/measure.hpp"
#include "tuner/race/tables.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cjit::detail {

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
  Spec no_allocate_reference; //!< the temporal kernel stosb was compared with
  std::vector<ChunkStudy> chunks;
  std::optional<FenceStudy> fence;
  std::optional<uint64_t> nontemporal_reuse, nontemporal_stream;
  //! Where each table stores past the caches (nontemporal_runs), with memset's stand-ins.
  std::vector<NontemporalRun> nontemporal_reuse_runs, nontemporal_stream_runs;
};

//! The temporal kernel rep stosb is compared with: the widest temporal moves `cpu` runs.
Spec temporal_reference(const CpuInfo &cpu);

//! The studies of one tuning run over sizes [min_size, max_size].
class Studies {
public:
  Studies(const CpuInfo &cpu, uint64_t min_size, uint64_t max_size);

  //! rep stosb against temporal_reference, clearing only, from sweep_from() to 8x the L3,
  //! `steps` sizes per octave.
  std::vector<Job> no_allocate_jobs(int steps) const;
  //! Where the no-allocate sweep starts: the L2's size, or a quarter of the L3 where that is
  //! smaller, so that it starts below the step even where a VM's CPUID gives every CCD's L3.
  uint64_t sweep_from() const;
  //! rep stosb and rep stosq at the largest size in each of kStudyChunks.
  std::vector<Job> chunk_jobs() const;
  //! The widest non-temporal moves up to 32 bytes `cpu` runs (ntavx2 with AVX), with an sfence
  //! per 4 KiB chunk and with one at the end.
  std::vector<Job> fence_jobs() const;

  //! What the studies found in `all`; the non-temporal ones from the chosen tables.
  Findings findings(const std::vector<Measurement> &all, const std::vector<SizeClass> &reuse,
                    const std::vector<SizeClass> &stream) const;

private:
  struct Sweep {
    std::vector<Measurement> stosb, temporal;
  };
  Sweep no_allocate_sweep(const std::vector<Measurement> &all) const;
  Spec fence_at_end() const;
  std::vector<uint64_t> fence_sizes() const;

  const CpuInfo &cpu_;
  uint64_t min_size_, max_size_, l3_;
};

} // namespace cjit::detail
