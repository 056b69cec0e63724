// `clearjit tune --glibc-tunables FILE`: from the tune's findings, GLIBC_TUNABLES lines for the
// running glibc's memset thresholds (candidate_lines, a pure function), and the check of each:
// memset under the line raced against memset without it, in processes of their own, side by side
// (check_lines). Programs that never link clearjit get the line in their environment.
#pragma once

#include "tuner/measure/memset_rows.hpp"
#include "tuner/measure/stats.hpp"
#include "tuner/stages/findings.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {

//! The tunables a line may set: glibc's memset thresholds on x86-64.
constexpr const char *kMemsetNonTemporal = "glibc.cpu.x86_memset_non_temporal_threshold";
constexpr const char *kRepStosb = "glibc.cpu.x86_rep_stosb_threshold";

//! Tunable name -> value, as `ld.so --list-tunables` gives them (list_tunables).
using Tunables = std::map<std::string, uint64_t>;

//! "" where `listed` (a glibc's tunables) has a memset threshold a line can set; else why not.
std::string tunables_unsupported(const std::string &libc, const Tunables &listed);

//! How glibc's memset stores a clear of `size` bytes (sizes above four vectors) under `t`:
//! a temporal vector loop; rep stosb above x86_rep_stosb_threshold; and, where the glibc has
//! x86_memset_non_temporal_threshold (2.40+), non-temporal stores from it, reached only through
//! the rep stosb path (memset-vec-unaligned-erms.S).
enum class MemsetPath : uint8_t { temporal, stosb, nontemporal };
MemsetPath memset_path(uint64_t size, const Tunables &t);
std::string_view path_name(MemsetPath p);

//! One GLIBC_TUNABLES line: the thresholds it sets.
struct TunablesLine {
  Tunables values;
  std::string why; //!< where its thresholds come from
  //! "glibc.cpu.x86_memset_non_temporal_threshold=0x4000000:glibc.cpu.x86_rep_stosb_threshold=..."
  std::string text() const;
  //! The running glibc's tunables with this line's values over them.
  Tunables over(const Tunables &defaults) const;
};

//! The lines worth checking, lowest thresholds first, from the tune's findings: the memset
//! non-temporal threshold at or above the size where reuse with a hot buffer stops preferring
//! temporal stores (`nontemporal_reuse`; never: above `hot_limit`, the largest hot size), and
//! where non-temporal stores win for stream (`nontemporal_stream`); that and 2x, 4x above it,
//! below glibc's own and up to `max_size`; rep stosb's threshold lowered to it where the
//! non-temporal path is reached only through rep stosb. Where the glibc has no memset
//! non-temporal threshold, or besides it: rep stosb from the no-allocate step, if above the hot
//! limit. Empty, with `why`, when the findings give none.
std::vector<TunablesLine> candidate_lines(const Findings &f, const Tunables &defaults,
                                          uint64_t hot_limit, uint64_t max_size, std::string &why);

//! One row of a check: memset with the line over memset without it, per round.
struct RowCheck {
  MemsetRow row;
  bool changed = false;                   //!< the line changes memset's path at this size
  Interval ratio = {};                    //!< speed with / without, per round
  double with_gbps = 0, without_gbps = 0; //!< medians
  bool lost = false, won = false;
};

//! A line's check.
struct LineCheck {
  TunablesLine line;
  std::vector<RowCheck> rows = {};
  bool passes = false;      //!< wins somewhere, loses nowhere
  std::string verdict = {}; //!< a sentence: why it passes or not
};

//! The decision rule, on the speeds of `rounds` rounds ([round][row], with and without the
//! line): at a row where the line changes memset's path, it loses where its median ratio is
//! below kColdFloor (0.97) and wins where the lower bound of the ratio at `confidence` exceeds
//! `min_gain`; rows where the path is the same are memset against itself and judge nothing.
//! It passes when it wins at a row and loses at none.
LineCheck judge_line(const TunablesLine &line, const Tunables &defaults,
                     const std::vector<MemsetRow> &rows,
                     const std::vector<std::vector<double>> &with,
                     const std::vector<std::vector<double>> &without, double confidence,
                     double min_gain);

//! The whole check: every candidate line and memset without any, in `rounds` rounds, each
//! round one process per line and one without, in an order that alternates between rounds.
struct TunablesStudy {
  std::string libc;
  Tunables defaults; //!< the running glibc's own values of the memset thresholds
  std::vector<LineCheck> tried = {};
  std::optional<size_t> chosen = {}; //!< into tried: the lowest line that passes
  std::string note = {};             //!< why no line was chosen
  int rounds = 0;
  double seconds = 0;
  std::string error = {}; //!< the check could not run (a child failed): nothing is chosen
};

struct TunablesCheckOptions {
  int rounds = 4;
  double confidence = 0.90;
  double min_gain = 1.03;
};

TunablesStudy check_lines(MemsetRowsBench &bench, const std::vector<MemsetRow> &rows,
                          const std::vector<TunablesLine> &lines, const Tunables &defaults,
                          const std::string &libc, const TunablesCheckOptions &o);

//! The rounds a level's check runs, and its confidence: the fewest that bound a median.
TunablesCheckOptions tunables_check_options(double confidence);

//! The file: a comment header (glibc, CPU, date, the check's numbers), then GLIBC_TUNABLES=...
//! Only for a study with a chosen line.
std::string tunables_file(const TunablesStudy &s, const std::string &cpu, const std::string &date);

//! The summary's lines: the check, each line tried, and its rows with and without it.
std::string tunables_text(const TunablesStudy &s);

} // namespace cjit::detail
