// The command line: each command's CLI11 object and the arguments it binds to (main.cpp runs
// the one parsed; command_line.cpp declares them).
#pragma once

#include "commands.hpp"

#include <CLI/CLI.hpp>

#include <array>
#include <string>
#include <utility>

namespace cjit::cli {

// The one exit-code rule, for every command (README, Command line): 0 success; 1 the work ran
// and found a failure; 2 the invocation was wrong, said before any work where it can be.
constexpr const char *kExitRule =
    "Exit status: 0 success; 1 the work found a failure; 2 the invocation was wrong (usage, an "
    "unreadable or malformed input file, an unwritable output).";

//! Every command's CLI11 object and the arguments CLI11 binds to: built once, never moved.
struct Commands {
  CLI::App *cpu, *list, *asm_, *which, *check, *tune, *memset_rows, *verify, *choose, *bench,
      *trace;
  std::string level = "default", spec, check_path;
  TuneArgs tune_args;
  MemsetRowsArgs rows_args;
  VerifyArgs verify_args;
  ChooseArgs choose_args;
  BenchArgs bench_args;
  TraceArgs trace_args;

  //! The commands that measure memset, with their --libc.
  std::array<std::pair<CLI::App *, std::string *>, 3> measuring() {
    return {{{tune, &tune_args.libc}, {verify, &verify_args.libc}, {bench, &bench_args.libc}}};
  }
};

//! Adds every command to `app`, binding its arguments to `c`.
void add_commands(CLI::App &app, Commands &c);

} // namespace cjit::cli
