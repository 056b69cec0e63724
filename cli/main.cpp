// The clearjit command: the command line, and the commands that only inspect (cpu, list, asm,
// which, check); tune, bench and trace are in their own files (commands.hpp).
#include "commands.hpp"

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
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace {

using namespace cjit;
using namespace cjit::detail;

int cmd_cpu() {
  std::cout << describe(host_cpu());
  // What clearjit_clear_parallel can use: this process's affinity mask, not the machine's count.
  std::cout << "CPUs        " << usable_cpus() << " usable by this process (affinity), of "
            << sysconf(_SC_NPROCESSORS_ONLN) << " online\n";
  return 0;
}

int cmd_list(const std::string &level_text) {
  auto level = level_by_name(level_text);
  if (!level) {
    std::cerr << "clearjit list: unknown level '" << level_text
              << "' (quick, default, exhaustive)\n";
    return 2;
  }
  const CpuInfo &cpu = host_cpu();
  size_t runnable = 0, total = 0;
  for (const Spec &s : candidates(*level)) {
    ++total;
    std::string spec = format_spec(s), why = unsupported_reason(s, cpu);
    std::string stores(s.info().stores);
    if (s.head)
      stores += "; the first " + human_bytes(s.head) + " last, by " +
                std::string(info(s.info().head_method).stores);
    std::printf("%-34s %s\n", spec.c_str(),
                why.empty() ? stores.c_str() : ("cannot run: " + why).c_str());
    runnable += why.empty();
  }
  std::printf("%zu specs at level %s, %zu runnable on this CPU\n", total,
              std::string(level_name(*level)).c_str(), runnable);
  std::printf(
      "\nsmall-path strategies ([small.<intent>] strategy = ...; max 128, 256, 512, 1024):\n");
  for (const SmallInfo &i : small_strategies()) {
    std::string why = small_unsupported_reason(i.strategy, cpu);
    std::printf("%-34s %s\n", std::string(i.name).c_str(),
                why.empty() ? std::string(i.description).c_str() : ("cannot run: " + why).c_str());
  }
  return 0;
}

int cmd_asm(const std::string &spec) {
  std::string error;
  auto k = Kernel::compile(spec, &error);
  if (!k) {
    std::cerr << "clearjit asm: " << error << "\n";
    return 2; // the spec is the invocation's
  }
  std::cout << "; " << k->spec() << "\n" << k->listing();
  return 0;
}

// What a profile's memset peer means for this process: said when it is not this C library,
// whose memset programs call beside clearjit.
std::string libc_line(const std::string &recorded) {
  const std::string &running = running_c_library().name;
  if (recorded.empty())
    return "memset: the profile does not say which C library it was measured against; this "
           "process runs " +
           running + "\n";
  if (recorded == running) return "memset: measured against " + recorded + "'s, which runs here\n";
  return "memset: measured against " + recorded + "'s, but this process runs " + running +
         ": the profile's wins over memset were measured against another memset (clearjit "
         "verify measures them against this one)\n";
}

int cmd_which() {
  const CpuInfo &cpu = host_cpu();
  Lookup l = default_lookup(cpu);
  std::printf("default profile lookup for %s:\n", other_cpu_text(profile_host(cpu)).c_str());
  int i = 1;
  for (const LookupStep &s : l.steps) {
    std::printf("  %d. %-40s %s\n", i++, s.step.c_str(), s.result.c_str());
    if (!s.path.empty() && s.path != s.step) std::printf("     %s\n", s.path.c_str());
  }
  if (!l.profile) {
    std::printf(
        "chosen: none; clearjit_open(NULL) fails and clearjit_zero uses the built-in default\n");
    return 1;
  }
  std::printf("chosen: %s\n", l.profile->source.c_str());
  // One class a line, each bound as `check` and the tuner print sizes, its bytes beside where
  // the unit rounds them (the profile's `below` is bytes).
  auto size = [](uint64_t b) {
    return human_bytes(b) == human_bytes(b, true) ? human_bytes(b)
                                                  : human_bytes(b) + " (" + std::to_string(b) + " B)";
  };
  for (Intent intent : kIntents) {
    std::printf("  %s: small path %s\n", std::string(intent_name(intent)).c_str(),
                describe(l.profile->small(intent, cpu)).c_str());
    uint64_t lower = 0;
    for (const SizeClass &c : l.profile->table(intent)) {
      const std::string sizes = c.below ? "below " + size(c.below)
                                : lower ? "from " + size(lower) + " on"
                                        : std::string("every size");
      std::printf("    %-32s %s\n", sizes.c_str(), format_spec(c.kernel).c_str());
      lower = c.below;
    }
  }
  if (auto text = read_small_file(l.profile->source))
    std::printf("%s", libc_line(recorded_libc(*text)).c_str());
  return 0;
}

int cmd_check(const std::string &path) {
  const CpuInfo &cpu = host_cpu();
  // Read once, as load_profile reads (a pipe too): the text also gives the [verification].
  ReadLimits limits;
  limits.allow_pipe = true;
  // Checking is the work: a profile that reads but is invalid is its finding (1); a file that
  // cannot be read is the invocation's (2).
  const Result<std::string> text = read_small_file(path, limits);
  if (!text) {
    std::cerr << "clearjit check: " << text.error << "\n";
    return 2;
  }
  Result<Profile> p = parse_profile(*text, path, cpu);
  if (!p) {
    std::cerr << p.error << "\n";
    return 1;
  }
  for (const std::string &w : p->warnings)
    std::cout << "warning: " << w << "\n";
  if (!same_cpu(p->host, cpu))
    std::cout << "warning: " << path << ": measured on " << other_cpu_text(p->host)
              << ", this CPU is " << other_cpu_text(profile_host(cpu))
              << " (it loads, but the default lookup skips it)\n";
  auto classes = [](size_t n, const char *intent) {
    return std::to_string(n) + " " + intent + (n == 1 ? " class" : " classes");
  };
  std::cout << path << ": valid for this CPU (" << classes(p->reuse.size(), "reuse") << ", "
            << classes(p->table(Intent::stream).size(), "stream");
  for (Intent i : kIntents)
    if (const ParallelTable *t = p->parallel(i))
      std::cout << "; " << intent_name(i)
                << (t->from() ? " on several threads from " + human_bytes(t->from())
                              : std::string(" never on several threads"));
  std::cout << ")\n"
            << verification_report(recorded_verification(*text), p->host, cpu)
            << libc_line(recorded_libc(*text));
  return 0;
}

constexpr const char *kLibcHelp =
    "measure against the memset of the glibc unpacked in DIR (scripts/fetch-libc.sh fetches "
    "Debian 13's): clearjit runs itself again under that glibc's loader";

// `--libc DIR`: this command again, under DIR's loader, without --libc. Returns only on an
// error (2: the invocation's), said first. `tunables`: tune's --glibc-tunables was given, so
// DIR's loader must list a memset threshold (asked of it here, before the new process).
int run_under_libc(const char *command, const std::string &dir, int argc, char **argv,
                   bool tunables) {
  Result<CLibrary> lib = c_library_in(dir);
  if (!lib) {
    std::cerr << "clearjit " << command << ": " << lib.error << "\n";
    return 2;
  }
  if (tunables) {
    Result<std::map<std::string, uint64_t>> listed = list_tunables(*lib);
    std::string e = listed ? tunables_unsupported(lib->name, *listed) : listed.error;
    if (!e.empty()) {
      std::cerr << "clearjit " << command << ": --glibc-tunables: --libc " << dir << ": " << e
                << "\n";
      return 2;
    }
  }
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--libc")
      ++i; // and its value
    else if (!a.starts_with("--libc="))
      args.emplace_back(a);
  }
  setenv("CLEARJIT_LIBC_DIR", dir.c_str(), 1); // for bench's --markdown header
  std::cerr << "clearjit " << command << ": memset is " << lib->name << "'s, from "
            << lib->library_dir << "\n";
  std::cerr << "clearjit " << command << ": " << run_self_under(*lib, args) << "\n";
  return 2;
}

// The one exit-code rule, for every command (README, Command line): 0 success; 1 the work ran
// and found a failure; 2 the invocation was wrong, said before any work where it can be.
constexpr const char *kExitRule =
    "Exit status: 0 success; 1 the work found a failure; 2 the invocation was wrong (usage, an "
    "unreadable or malformed input file, an unwritable output).";

// `help` first (if any), then the rule and what 1 and 2 mean for this command.
void footer(CLI::App *command, const std::string &help, const std::string &codes) {
  command->footer((help.empty() ? "" : help + "\n") + kExitRule + "\n" + codes);
}

} // namespace

using namespace cjit::cli;

int main(int argc, char **argv) {
  CLI::App app{"clearjit: generate, tune and use memory-clearing kernels for this x86-64 CPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "clearjit " CLEARJIT_VERSION);
  app.footer(kExitRule);

  auto *cpu =
      app.add_subcommand("cpu", "Print this CPU's vendor, model, caches and clearing features");
  std::string level = "default";
  auto *list = app.add_subcommand(
      "list", "Print every kernel spec the tuner considers, marking those this CPU cannot run");
  list->add_option("--level", level, "quick, default or exhaustive")->capture_default_str();
  std::string spec;
  auto *asm_ = app.add_subcommand("asm", "Generate the kernel named by SPEC and print its code");
  asm_->add_option("SPEC", spec, "a kernel spec, e.g. avx2:unroll=4 or movnti:chunk=4K,fence=chunk")
      ->required();
  std::string method_names;
  for (const cjit::detail::MethodInfo &m : cjit::detail::methods())
    method_names += (method_names.empty() ? "" : ", ") + std::string(m.name);
  footer(asm_,
         "Spec grammar: method[:option,...]. Methods: " + method_names +
             ". Options: unroll=N, chunk=SIZE, fence=none|end|chunk, align=N, "
             "head=SIZE (fence=none is for measurement: non-temporal stores left unfenced).",
         "Here: 2 for a SPEC that does not parse or does not run on this CPU.");

  auto *which = app.add_subcommand(
      "which", "Show the default profile lookup: what each step found and what was chosen");
  std::string check_path;
  auto *check = app.add_subcommand(
      "check", "Validate a profile against this CPU (exit 0, or 1 with the first error)");
  check->add_option("PROFILE", check_path, "a profile TOML file")->required();

  TuneArgs tune_args;
  auto *tune = app.add_subcommand("tune", "Measure every kernel on this CPU and write a profile");
  tune->add_option("--level", tune_args.level, "quick (< 60 s), default (< 5 min) or exhaustive")
      ->capture_default_str();
  tune->add_option("--min-size", tune_args.min_size, "smallest size tuned, e.g. 4K")
      ->capture_default_str();
  tune->add_option("--max-size", tune_args.max_size,
                   "largest size tuned, e.g. 1G (capped at a quarter of available memory)")
      ->capture_default_str();
  tune->add_option("--time-limit", tune_args.time_limit,
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
  tune->add_option(
      "-o,--output", tune_args.output,
      "profile to write (default: named after the CPU, e.g. amd-family26-model2.toml)");
  tune->add_option("--json", tune_args.json, "write every raw measurement as JSON");
  tune->add_option("--report", tune_args.report, "write an HTML report with charts");
  tune->add_option("--libc", tune_args.libc, kLibcHelp);
  tune->add_option("--glibc-tunables", tune_args.glibc_tunables,
                   "also write a GLIBC_TUNABLES line for glibc's memset thresholds, checked "
                   "against memset without it (for programs that do not link clearjit)");
  tune->allow_extras();
  footer(tune, "Google Benchmark's own --benchmark_* flags are passed through.",
         "Here: 1 measuring failed, or --glibc-tunables found no line that wins and never "
         "loses (nothing written); 2 a bad option or --benchmark_* flag, an unwritable output, "
         "a C library without memset tunables or a tunables check that cannot start.");

  // The tunables check's child (tune --glibc-tunables): hidden from --help.
  MemsetRowsArgs rows_args;
  auto *memset_rows = app.add_subcommand("memset-rows", "memset alone at rows, as JSON");
  memset_rows->group("");
  memset_rows->add_option("--rows", rows_args.rows, "SIZE:INTENT:PATTERN,...")->required();
  memset_rows->add_option("--repetitions", rows_args.repetitions)->check(CLI::Range(1, 1000));
  memset_rows->add_option("--min-time", rows_args.min_time)->check(CLI::Range(0.0, 10.0));

  VerifyArgs verify_args;
  auto *verify = app.add_subcommand(
      "verify", "Measure an existing profile against memset on this host, as the tuner's last "
                "stage does (exit 0: it holds; 1: it loses beyond the noise)");
  verify->add_option("PROFILE", verify_args.profile, "a profile TOML file")->required();
  verify
      ->add_option("--level", verify_args.level,
                   "quick, default or exhaustive: the races' confidence and rounds")
      ->capture_default_str();
  verify->add_option("-o,--output", verify_args.output,
                     "write the profile back with its [verification] table (every other line "
                     "as it was)");
  verify->add_option("--libc", verify_args.libc, kLibcHelp);
  verify->allow_extras();
  footer(verify, "Google Benchmark's own --benchmark_* flags are passed through.",
         "Here: 1 the profile loses to memset, or measuring failed; 2 an unreadable or invalid "
         "PROFILE, a bad option, an unwritable output.");

  ChooseArgs choose_args;
  auto *choose = app.add_subcommand(
      "choose", "Choose one profile from several hosts' raw measurements (clearjit tune --json) "
                "of one CPU model: kernels every host runs, each class's worst host decides");
  choose->add_option("RAW", choose_args.raw, "raw measurement files (JSON; a pipe too)")
      ->required();
  choose->add_option("-o,--output", choose_args.output,
                     "profile to write (default: print it, after the races and notes as "
                     "TOML comments)");

  BenchArgs bench_args;
  auto *bench = app.add_subcommand(
      "bench", "Measure a profile's dispatcher against memset and every kernel, side by side");
  bench->add_option("PROFILE", bench_args.profile,
                    "profile to measure (default: the default lookup, see `clearjit which`)");
  bench->add_option(
      "--sizes", bench_args.sizes,
      "comma-separated sizes (default: 8,64,256,4K,16K,64K,256K,1M,4M,16M,32M,64M,256M,1G)");
  bench->add_option("--intent", bench_args.intent, "reuse, stream or both")->capture_default_str();
  bench
      ->add_option("--repetitions", bench_args.repetitions,
                   "interleaved repetitions per point; medians are reported")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  bench->add_option("--json", bench_args.json, "write every measurement as JSON");
  bench->add_option("--markdown", bench_args.markdown,
                    "write the results as Markdown tables (the README's), headed by the date, "
                    "commit, CPU and this command");
  bench->add_flag("--warm-only", bench_args.warm_only,
                  "only the warm small sizes and mixes (ns per call against memset)");
  bench->add_flag("--no-warm", bench_args.no_warm,
                  "only the size rows (cold and cached destinations), no warm small sizes");
  bench->add_flag(
      "--small", bench_args.small,
      "the tuner's small-path study: every strategy and limit, warm and cold, beside memset");
  bench->add_flag("--seeds", bench_args.seeds,
                  "rerun the published experiments: Linux's clear_pages chunk study over 1 GiB, "
                  "movnti against rep stosb");
  bench->add_option("--mix", bench_args.mix,
                    "a trace from `clearjit trace --json FILE`: memset against the dispatcher on "
                    "its sizes (warm below the L2, cold above)");
  bench->add_option("--libc", bench_args.libc, kLibcHelp);
  bench->allow_extras();
  footer(bench, "Google Benchmark's own --benchmark_* flags are passed through.",
         "Here: 1 measuring failed; 2 an unreadable or invalid PROFILE or --mix file, a bad "
         "option, an unwritable output.");

  TraceArgs trace_args;
  auto *trace = app.add_subcommand(
      "trace", "Run PROGRAM with libclearjit-preload.so counting, then show what it cleared");
  trace->add_option("--json", trace_args.json,
                    "also write the histogram as JSON (for bench --mix)");
  trace->add_option("--preload", trace_args.preload,
                    "libclearjit-preload.so to use (default: beside clearjit, or installed)");
  trace->add_option("PROGRAM", trace_args.command, "-- PROGRAM [ARGS...]")->required();
  footer(trace,
         "Example: clearjit trace --json zstd.json -- zstd -q -f -o /dev/null FILE\n"
         "The histogram goes to stderr.",
         "Here: the program's status once it ran; 1 its trace could not be read; 2 a bad option, "
         "no preload, a PROGRAM that cannot run, an unwritable output.");
  footer(cpu, "", "Here: 2 a bad option.");
  footer(list, "", "Here: 2 a bad option or level.");
  footer(which, "", "Here: 1 no profile is chosen; 2 a bad option.");
  footer(check, "",
         "Here: 1 the profile is invalid (checking is the work); 2 an unreadable file, a bad "
         "option.");
  footer(choose, "",
         "Here: 2 an unreadable, malformed or mismatched RAW file, a bad option, an unwritable "
         "output.");

  // CLI11 would call an unknown first word "a missing subcommand"; name it instead.
  const auto commands = app.get_subcommands([](const CLI::App *) { return true; });
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(),
                   [&](const CLI::App *c) { return c->check_name(argv[1]); })) {
    std::cerr
        << "clearjit: unknown command '" << quoted(argv[1], 0)
        << "' (commands: cpu, list, asm, which, check, tune, verify, choose, bench, trace; see "
           "clearjit --help)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2; // usage errors exit 2
  }
  // Under another glibc (--libc): the process that re-executed itself checks it got it.
  if (std::string mismatch = libc_mismatch(); !mismatch.empty()) {
    std::cerr << "clearjit: " << mismatch << "\n";
    return 2;
  }
  for (auto [command, dir] :
       {std::pair{tune, &tune_args.libc}, {verify, &verify_args.libc}, {bench, &bench_args.libc}})
    if (*command && !dir->empty())
      return run_under_libc(command->get_name().c_str(), *dir, argc, argv,
                            command == tune && !tune_args.glibc_tunables.empty());
  if (*cpu) return cmd_cpu();
  if (*list) return cmd_list(level);
  if (*asm_) return cmd_asm(spec);
  if (*tune) return cmd_tune(tune_args, tune->remaining());
  if (*memset_rows) return cmd_memset_rows(rows_args);
  if (*verify) return cmd_verify(verify_args, verify->remaining());
  if (*choose) return cmd_choose(choose_args);
  if (*which) return cmd_which();
  if (*bench) {
    bench_args.command = "clearjit";
    for (int i = 1; i < argc; ++i) {
      bench_args.command += " " + shell_word(argv[i]);
      if (const char *dir = std::getenv("CLEARJIT_LIBC_DIR"); dir && i == 1)
        bench_args.command += " --libc " + shell_word(dir); // the --libc this run came from
    }
    return cmd_bench(bench_args, bench->remaining());
  }
  if (*check) return cmd_check(check_path);
  if (*trace) return cmd_trace(trace_args);
  return 2;
}
