// The command line: every command's options, help and exit codes (CLI11), parsed into Commands.
#include "command_line.hpp"

#include "clearjit/clearjit.hpp"
#include "jit/model/cpu.hpp"
#include "jit/model/spec.hpp"
#include "jit/profile/files.hpp"
#include "jit/runtime/runtime.hpp"
#include "tuner/measure/c_library.hpp"
#include "tuner/stages/candidates.hpp"
#include "tuner/stages/glibc_tunables.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace cjit::cli {

using namespace cjit::detail;

namespace {

constexpr const char *kLibcHelp =
    "measure against the memset of the glibc unpacked in DIR (scripts/fetch-libc.sh fetches "
    "Debian 13's): clearjit runs itself again under that glibc's loader";

// `help` first (if any), then the rule and what 1 and 2 mean for this command.
void footer(CLI::App *command, const std::string &help, const std::string &codes) {
  command->footer((help.empty() ? "" : help + "\n") + kExitRule + "\n" + codes);
}

// What every command that measures memset takes: --libc, Google Benchmark's flags; `codes`
// says what its exit statuses 1 and 2 mean.
void measures_memset(CLI::App *command, std::string &libc, const std::string &codes) {
  command->add_option("--libc", libc, kLibcHelp)->type_name("DIR");
  command->allow_extras();
  footer(command, "Google Benchmark's own --benchmark_* flags are passed through.", codes);
}

// cpu, list, asm, which and check: the commands that only inspect.
void add_inspecting(CLI::App &app, Commands &c) {
  c.cpu = app.add_subcommand("cpu", "Print this CPU's vendor, model, caches and clearing features");
  c.list = app.add_subcommand(
      "list", "Print every kernel spec the tuner considers, marking those this CPU cannot run");
  c.list->add_option("--level", c.level, "quick, default or exhaustive")->capture_default_str();
  c.asm_ = app.add_subcommand("asm", "Generate the kernel named by SPEC and print its code");
  c.asm_
      ->add_option("SPEC", c.spec,
                   "a kernel spec, e.g. avx2:unroll=4 or movnti:chunk=4K,fence=chunk")
      ->required();
  std::string method_names;
  for (const cjit::detail::MethodInfo &m : cjit::detail::methods())
    method_names += (method_names.empty() ? "" : ", ") + std::string(m.name);
  footer(c.asm_,
         "Spec grammar: method[:option,...]. Methods: " + method_names +
             ". Options: unroll=N, chunk=SIZE, fence=none|end|chunk, align=N, "
             "head=SIZE (fence=none is for measurement: non-temporal stores left unfenced).",
         "Here: 2 for a SPEC that does not parse or does not run on this CPU.");

  c.which = app.add_subcommand(
      "which", "Show the default profile lookup: what each step found and what was chosen");
  c.check = app.add_subcommand(
      "check", "Validate a profile against this CPU (exit 0, or 1 with the first error)");
  c.check->add_option("PROFILE", c.check_path, "a profile TOML file")->required();

  footer(c.cpu, "", "Here: 2 a bad option.");
  footer(c.list, "", "Here: 2 a bad option or level.");
  footer(c.which, "", "Here: 1 no profile is chosen; 2 a bad option.");
  footer(c.check, "",
         "Here: 1 the profile is invalid (checking is the work); 2 an unreadable file, a bad "
         "option.");
}

// tune, and its tunables check's hidden child.
void add_tune(CLI::App &app, Commands &c) {
  c.tune = app.add_subcommand("tune", "Measure every kernel on this CPU and write a profile");
  c.tune
      ->add_option("--level", c.tune_args.level, "quick (< 60 s), default (< 5 min) or exhaustive")
      ->capture_default_str();
  c.tune->add_option("--min-size", c.tune_args.min_size, "smallest size tuned, e.g. 4K")
      ->capture_default_str();
  c.tune
      ->add_option("--max-size", c.tune_args.max_size,
                   "largest size tuned, e.g. 1G (capped at a quarter of available memory)")
      ->capture_default_str();
  c.tune
      ->add_option("--time-limit", c.tune_args.time_limit,
                   "seconds for the whole run; narrows the search to fit")
      ->check(CLI::Validator(
          [](std::string &text) -> std::string {
            char *end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end || !std::isfinite(v) || v <= 0)
              return "must be a positive number of seconds, got '" + quoted(text, 0) + "'";
            return {};
          },
          "SECONDS"));
  c.tune->add_option(
      "-o,--output", c.tune_args.output,
      "profile to write (default: named after the CPU, e.g. amd-family26-model2.toml)");
  c.tune->add_option("--json", c.tune_args.json, "write every raw measurement as JSON");
  c.tune->add_option("--report", c.tune_args.report, "write an HTML report with charts");
  c.tune
      ->add_option("--glibc-tunables", c.tune_args.glibc_tunables,
                   "also write a GLIBC_TUNABLES line for glibc's memset thresholds, checked "
                   "against memset without it (for programs that do not link clearjit)")
      ->type_name("FILE");
  measures_memset(
      c.tune, c.tune_args.libc,
      "Here: 1 measuring failed, or --glibc-tunables found no line that wins and never "
      "loses (nothing written); 2 a bad option or --benchmark_* flag, an unwritable output, "
      "a C library without memset tunables or a tunables check that cannot start.");

  // The tunables check's child (tune --glibc-tunables): hidden from --help.
  c.memset_rows = app.add_subcommand("memset-rows", "memset alone at rows, as JSON");
  c.memset_rows->group("");
  c.memset_rows->add_option("--rows", c.rows_args.rows, "SIZE:INTENT:PATTERN,...")->required();
  c.memset_rows->add_option("--repetitions", c.rows_args.repetitions)->check(CLI::Range(1, 1000));
  c.memset_rows->add_option("--min-time", c.rows_args.min_time)->check(CLI::Range(0.0, 10.0));
}

void add_verify_and_choose(CLI::App &app, Commands &c) {
  c.verify = app.add_subcommand(
      "verify", "Measure an existing profile against memset on this host, as the tuner's last "
                "stage does (exit 0: it holds; 1: it loses beyond the noise)");
  c.verify->add_option("PROFILE", c.verify_args.profile, "a profile TOML file")->required();
  c.verify
      ->add_option("--level", c.verify_args.level,
                   "quick, default or exhaustive: the races' confidence and rounds")
      ->capture_default_str();
  c.verify->add_option("-o,--output", c.verify_args.output,
                       "write the profile back with its [verification] table (every other line "
                       "as it was)");
  measures_memset(
      c.verify, c.verify_args.libc,
      "Here: 1 the profile loses to memset, or measuring failed; 2 an unreadable or invalid "
      "PROFILE, a bad option, an unwritable output.");

  c.choose = app.add_subcommand(
      "choose", "Choose one profile from several hosts' raw measurements (clearjit tune --json) "
                "of one CPU model: kernels every host runs, each class's worst host decides");
  c.choose->add_option("RAW", c.choose_args.raw, "raw measurement files (JSON; a pipe too)")
      ->required();
  c.choose->add_option("-o,--output", c.choose_args.output,
                       "profile to write (default: print it, after the races and notes as "
                       "TOML comments)");

  footer(c.choose, "",
         "Here: 2 an unreadable, malformed or mismatched RAW file, a bad option, an unwritable "
         "output.");
}

void add_bench(CLI::App &app, Commands &c) {
  c.bench = app.add_subcommand(
      "bench", "Measure a profile's dispatcher against memset and every kernel, side by side");
  c.bench->add_option("PROFILE", c.bench_args.profile,
                      "profile to measure (default: the default lookup, see `clearjit which`)");
  c.bench->add_option(
      "--sizes", c.bench_args.sizes,
      "comma-separated sizes (default: 8,64,256,4K,16K,64K,256K,1M,4M,16M,32M,64M,256M,1G)");
  c.bench->add_option("--intent", c.bench_args.intent, "reuse, stream or both")
      ->capture_default_str();
  c.bench
      ->add_option("--repetitions", c.bench_args.repetitions,
                   "interleaved repetitions per point; medians are reported")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  c.bench->add_option("--json", c.bench_args.json, "write every measurement as JSON");
  c.bench->add_option("--markdown", c.bench_args.markdown,
                      "write the results as Markdown tables (the README's), headed by the date, "
                      "commit, CPU and this command");
  c.bench->add_flag("--warm-only", c.bench_args.warm_only,
                    "only the warm small sizes and mixes (ns per call against memset)");
  c.bench->add_flag("--no-warm", c.bench_args.no_warm,
                    "only the size rows (cold and cached destinations), no warm small sizes");
  c.bench->add_flag(
      "--small", c.bench_args.small,
      "the tuner's small-path study: every strategy and limit, warm and cold, beside memset");
  c.bench->add_flag("--seeds", c.bench_args.seeds,
                    "rerun the published experiments: Linux's clear_pages chunk study over 1 GiB, "
                    "movnti against rep stosb");
  c.bench->add_option("--mix", c.bench_args.mix,
                      "a trace from `clearjit trace --json FILE`: memset against the dispatcher on "
                      "its sizes (warm below the L2, cold above)");
  measures_memset(
      c.bench, c.bench_args.libc,
      "Here: 1 measuring failed; 2 an unreadable or invalid PROFILE or --mix file, a bad "
      "option, an unwritable output.");
}

void add_trace(CLI::App &app, Commands &c) {
  c.trace = app.add_subcommand(
      "trace", "Run PROGRAM with libclearjit-preload.so counting, then show what it cleared");
  c.trace->add_option("--json", c.trace_args.json,
                      "also write the histogram as JSON (for bench --mix)");
  c.trace->add_option("--preload", c.trace_args.preload,
                      "libclearjit-preload.so to use (default: beside clearjit, or installed)");
  c.trace->add_option("PROGRAM", c.trace_args.command, "-- PROGRAM [ARGS...]")->required();
  footer(c.trace,
         "Example: clearjit trace --json zstd.json -- zstd -q -f -o /dev/null FILE\n"
         "The histogram goes to stderr.",
         "Here: the program's status once it ran; 1 its trace could not be read; 2 a bad option, "
         "no preload, a PROGRAM that cannot run, an unwritable output.");
}

} // namespace

void add_commands(CLI::App &app, Commands &c) {
  app.footer(kExitRule);
  add_inspecting(app, c);
  add_tune(app, c);
  add_verify_and_choose(app, c);
  add_bench(app, c);
  add_trace(app, c);
}

} // namespace cjit::cli
