// The profile: which kernel clears each size class, per intent, on one CPU (a TOML file).
#pragma once

#include "jit/model/small.hpp"
#include "jit/model/spec.hpp"
#include "jit/model/table.hpp"
#include "jit/profile/defaults.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {

struct ProfileHost {
  std::string vendor, brand;
  int64_t family = 0, model = 0, stepping = 0;
  std::vector<std::string> features;
  int64_t l1d = 0, l2 = 0, l3 = 0;
  bool hypervisor = false;
  //! Hosts whose measurements chose the profile (`clearjit choose`); written when more than one.
  int64_t hosts = 1;
  bool operator==(const ProfileHost &) const = default;
};

//! Describes `cpu` as a profile's [host] table.
ProfileHost profile_host(const CpuInfo &cpu);
//! Same vendor, family and model.
bool same_cpu(const ProfileHost &host, const CpuInfo &cpu);
//! "AuthenticAMD family 26 model 2": the CPU a profile was measured on, in messages.
std::string other_cpu_text(const ProfileHost &h);

//! [parallel.<intent>]: how many threads clearjit_clear_parallel takes when called with
//! threads == 0. threads[i] holds from sizes[i] up to the next size; below sizes[0], and below
//! from(), one thread (the single-thread call).
struct ParallelTable {
  std::vector<uint64_t> sizes;   //!< strictly increasing
  std::vector<unsigned> threads; //!< one per size, 1..kMaxThreads
  std::vector<double> speedup;   //!< informational: that count's speed / one thread's, measured
  //! The first size with more than one thread (the file's `from`), 0 when there is none.
  uint64_t from() const;
  //! The count for a clear of n bytes.
  unsigned at(uint64_t n) const;
  bool operator==(const ParallelTable &) const = default;
};

//! Most sizes a [parallel.<intent>] table may list (the tuner writes one per octave, 2 MiB..1 GiB).
constexpr size_t kMaxParallelSizes = 64;
//! The largest speedup a [parallel.<intent>] table may state (kMaxThreads with room to spare).
constexpr double kMaxSpeedup = 1000;

//! The longest C library name a profile's [tuning] libc may hold ("glibc 2.41" is 10).
constexpr size_t kMaxLibcName = 64;
//! Whether NAME may be a profile's [tuning] libc: 1..kMaxLibcName printable ASCII characters.
bool valid_libc_name(std::string_view name);

struct Profile {
  ProfileHost host;
  //! [tuning] libc: the C library whose memset the tuner raced against ("glibc 2.36"); "" when
  //! not recorded. Where another runs, memset's classes take their stand-ins (stand_ins.hpp).
  std::string libc;
  std::vector<SizeClass> reuse, stream; //!< stream empty: use reuse
  //! Stream clears in batches (clearjit_batch_*), one fence per batch; empty: the stream table.
  //! Specs keep their fence as written; the batch dispatcher leaves the fences out.
  std::vector<SizeClass> batch;
  //! [small.reuse] / [small.stream]: the small path per intent; absent: stream takes reuse's
  //! when that is given, else each intent gets the best default for the CPU (default_small).
  std::optional<SmallPath> small_reuse, small_stream;
  //! [parallel.reuse] / [parallel.stream]; absent: stream takes reuse's, and without either
  //! threads == 0 means one thread. `parallel_cpus`: the CPUs the tuner could use (informational).
  std::optional<ParallelTable> parallel_reuse, parallel_stream;
  unsigned parallel_cpus = 0;
  std::string source;                //!< path it came from, or "built-in"
  std::vector<std::string> warnings; //!< accepted but worth saying (another CPU)

  const std::vector<SizeClass> &table(Intent i) const {
    return i == Intent::stream && !stream.empty() ? stream : reuse;
  }
  const std::vector<SizeClass> &batch_table() const {
    return batch.empty() ? table(Intent::stream) : batch;
  }
  SmallPath small(Intent i, const CpuInfo &cpu) const {
    if (i == Intent::stream && small_stream) return *small_stream;
    return small_reuse ? *small_reuse : default_small(cpu, i);
  }
  const ParallelTable *parallel(Intent i) const {
    if (i == Intent::stream && parallel_stream) return &*parallel_stream;
    return parallel_reuse ? &*parallel_reuse : nullptr;
  }
  bool operator==(const Profile &) const = default;
};

//! Parses and validates a profile file for `cpu`; errors name the file, line and key. The file
//! is read as read_small_file does (at most 1 MiB, never blocking); `allow_pipe` for explicit
//! paths such as `clearjit check <(generate)`. Adjacent classes with the same kernel merge.
Result<Profile> load_profile(const std::string &path, const CpuInfo &cpu, bool allow_pipe = true);
//! The same from text (`name` is used in messages).
Result<Profile> parse_profile(std::string_view text, const std::string &name, const CpuInfo &cpu);
//! load_profile without checking that a CPU runs its kernels and small paths (never a pipe):
//! the default lookup checks that itself (missing_features), to pass over a profile of this CPU
//! model measured where the hypervisor exposed more features.
Result<Profile> load_profile_for_any_cpu(const std::string &path);
//! Empty when `cpu` runs every kernel and small path of `p`; else the first it cannot, as
//! "needs AVX512F, which this CPU lacks (dispatch.reuse: ntavx512:unroll=4)".
std::string missing_features(const Profile &p, const CpuInfo &cpu);

//! What the tuner's [verification] recorded (tuner/stages/verify.hpp writes it): the points it
//! measured, the repairs it made and the losses to memset it left. Informational: the loader
//! neither reads nor checks it.
struct RecordedVerification {
  std::string measured;
  std::vector<std::string> repaired, left;
  //! Losses no repair settles, measured inside memset's own noise there (not counted).
  std::vector<std::string> noise = {};
};
//! The [verification] table of a profile's text, nullopt without one (or when the text is not
//! TOML). Values of another type than the tuner writes are skipped: the table's keys are free.
std::optional<RecordedVerification> recorded_verification(std::string_view text);
//! The C library whose memset the profile was measured against ([verification] libc, else
//! [tuning] libc, e.g. "glibc 2.41"); "" where none is recorded.
std::string recorded_libc(std::string_view text);
//! What a writer adds that the reader does not use: `comments` ("# ..." lines) after the first
//! line, `host` (tables under [host], such as [[host.each]]) after [host]'s keys, `tuning` (the
//! keys of [tuning] but libc, one a line) and `tables` ([findings], ..., each starting with a
//! blank line) after [tuning].
struct ProfileAnnotations {
  std::string comments, host, tuning, tables;
};
//! The profile as TOML that parse_profile reads back to `p` (but source and warnings): every
//! key it reads, sizes in bytes, gbps with one decimal.
std::string format_profile(const Profile &p, const ProfileAnnotations &annotations = {});
//! The keys of a [host] table as format_profile writes them, one a line.
std::string format_host(const ProfileHost &h);
//! The name of `known` nearest to `name` (at most two edits: insert, delete, change, or swap two
//! neighbours), "" when none is that near: for "did you mean" in messages. Costs at most a few
//! hundred steps per known name, whatever `name`'s length: a name whose length differs from a
//! known one's by more than two is not compared, and one over kMaxSuggested bytes not at all.
std::string nearest_name(std::string_view name, std::initializer_list<std::string_view> known);
//! The longest name nearest_name compares.
constexpr size_t kMaxSuggested = 64;
//! A TOML basic string, quotes included: for annotations' values.
std::string toml_string(std::string_view s);

} // namespace cjit::detail
