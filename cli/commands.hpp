// The commands, in files of their own (inspect.cpp: cpu, list, asm, which, check; tune.cpp,
// verify.cpp, choose.cpp, bench.cpp, trace.cpp), and what they share; command_line.cpp declares
// the command line, and main.cpp parses it and runs the command it names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cjit::cli {

struct TuneArgs {
  std::string level = "default", min_size = "4K", max_size = "1G", output, json, report;
  std::string glibc_tunables; //!< --glibc-tunables FILE: the checked GLIBC_TUNABLES line
  std::string libc;           //!< --libc DIR: handled in main, before the command runs
  double time_limit = 0;
};

struct BenchArgs {
  std::string profile, intent = "both", json, mix, markdown;
  std::string libc;                 //!< --libc DIR: handled in main, before the command runs
  std::string command;              //!< the command line, for --markdown's header
  std::optional<std::string> sizes; // given but empty is a usage error, not the default
  bool seeds = false, warm_only = false, no_warm = false, small = false;
  int repetitions = 5;
};

struct VerifyArgs {
  std::string profile, level = "default", output;
  std::string libc; //!< --libc DIR: handled in main, before the command runs
};

struct ChooseArgs {
  std::vector<std::string> raw;
  std::string output;
};

struct TraceArgs {
  std::string json, preload;
  std::vector<std::string> command;
};

// The commands that only inspect (inspect.cpp): 0 done; 1 `which` found no profile, `check` found
// the profile invalid here; 2 a bad argument (a level, a spec) or a file `check` cannot read.
int cmd_cpu();
int cmd_list(const std::string &level_text);
int cmd_asm(const std::string &spec);
int cmd_which();
int cmd_check(const std::string &path);

int cmd_tune(const TuneArgs &a, const std::vector<std::string> &extras);
//! `clearjit memset-rows` (hidden): memset alone at rows, JSON on stdout, for the tunables check
//! of `tune --glibc-tunables`, which runs it under a GLIBC_TUNABLES value and without.
struct MemsetRowsArgs {
  std::string rows;
  int repetitions = 1;
  double min_time = 0.001;
};
int cmd_memset_rows(const MemsetRowsArgs &a);
int cmd_bench(const BenchArgs &a, const std::vector<std::string> &extras);
int cmd_trace(const TraceArgs &a);
//! 0: the profile was chosen; 2: a file is bad, or the hosts are of different models.
int cmd_choose(const ChooseArgs &a);
//! 0: the profile holds against memset here; 1: it loses beyond the noise; 2: an error.
int cmd_verify(const VerifyArgs &a, const std::vector<std::string> &extras);

// A byte count as users type it (jit/model/size_text.hpp: 4096, 4K, 4k, 4KiB); nullopt with
// `why` set to follow the quoted text otherwise.
std::optional<uint64_t> parse_size_arg(const std::string &t, std::string &why);
// What CLI11 left over may only be Google Benchmark's own flags, which are passed through;
// false (said on stderr) for anything else, checked before any work.
bool only_benchmark_flags(const char *command, const std::vector<std::string> &extras);
// Memory available now (/proc/meminfo's MemAvailable): what a destination arena may take.
uint64_t available_memory();
// An argument as a shell would need it typed: as it is when plain, else in single quotes.
std::string shell_word(const std::string &arg);

} // namespace cjit::cli
