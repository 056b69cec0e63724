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
#include <array>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace {

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
  auto k = cjit::Kernel::compile(spec, &error);
  if (!k) {
    std::cerr << "clearjit asm: " << error << "\n";
    return 2; // the spec is the invocation's
  }
  std::cout << "; " << k->spec() << "\n" << k->listing();
  return 0;
}

// What a profile's memset peer means for this process: said when it is not this C library,
// whose memset programs call beside clearjit.
std::string libc_line(const std::string &recorded, const std::string &running) {
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
    return human_bytes(b) == human_bytes(b, true)
               ? human_bytes(b)
               : human_bytes(b) + " (" + std::to_string(b) + " B)";
  };
  // The classes as they run here: memset's by their stand-ins under another C library.
  Profile runs = *l.profile;
  const std::string running = running_memset();
  const StandInRouting routing = route_to_stand_ins(runs, running);
  for (Intent intent : kIntents) {
    std::printf("  %s: small path %s\n", std::string(intent_name(intent)).c_str(),
                describe(runs.small(intent, cpu)).c_str());
    uint64_t lower = 0;
    const std::vector<SizeClass> &tuned = l.profile->table(intent);
    for (size_t k = 0; k < tuned.size(); ++k) {
      const SizeClass &c = runs.table(intent)[k]; // routing replaces kernels, never classes
      const std::string sizes = c.below ? "below " + size(c.below)
                                : lower ? "from " + size(lower) + " on"
                                        : std::string("every size");
      const std::string note = tuned[k].kernel == c.kernel ? "" : " (memset's stand-in)";
      const std::string stand_in =
          c.stand_in ? " (stand-in under another C library: " + format_spec(*c.stand_in) + ")" : "";
      std::printf("    %-32s %s%s%s\n", sizes.c_str(), format_spec(c.kernel).c_str(), note.c_str(),
                  stand_in.c_str());
      lower = c.below;
    }
  }
  if (auto text = read_small_file(l.profile->source))
    std::printf("%s", libc_line(recorded_libc(*text), running).c_str());
  if (!routing.note.empty()) std::printf("stand-ins: %s\n", routing.note.c_str());
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
  const std::string running = running_memset();
  std::cout << ")\n"
            << verification_report(recorded_verification(*text), p->host, cpu)
            << libc_line(recorded_libc(*text), running);
  Profile runs = *p;
  if (const StandInRouting r = route_to_stand_ins(runs, running); !r.note.empty())
    std::cout << "stand-ins: " << r.note << "\n";
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
  // A loader that starts may still not run clearjit (a glibc older than the one libstdc++
  // needs): asked first, so that the failure is exit 2 and says so, not the loader's 127.
  if (Result<std::string> starts = run_capture(
          command_under(*lib, self_executable(), {"--version"}), {}, 10, 1 << 20, lib->loader_fd);
      !starts) {
    std::cerr << "clearjit " << command << ": --libc " << dir << ": clearjit does not start under "
              << lib->name << "'s loader: " << starts.error << "\n";
    return 2;
  }
  std::cerr << "clearjit " << command << ": memset is " << lib->name << "'s, from "
            << lib->library_dir << "\n";
  const std::string error = run_self_under(*lib, dir, args);
  std::cerr << "clearjit " << command << ": " << error << "\n";
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

namespace {

// Every command's CLI11 object and the arguments CLI11 binds to: built once, never moved.
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

// The parsed command, run; `argv` for --libc's re-execution and bench's --markdown header.
int run(Commands &c, int argc, char **argv) {
  // What the user's environment does to memset is measured with it: said, not hidden.
  const auto measuring = c.measuring();
  if (libc_dir_given().empty() &&
      std::any_of(measuring.begin(), measuring.end(), [](auto m) { return bool(*m.first); }))
    for (const char *variable : {"GLIBC_TUNABLES", "LD_PRELOAD"})
      if (const char *value = std::getenv(variable); value && *value)
        std::cerr << "clearjit: warning: " << variable << "=" << value
                  << " is set: every memset figure is memset's under it\n";
  // Under another glibc (--libc): the process that re-executed itself checks it got it.
  if (std::string mismatch = libc_mismatch(); !mismatch.empty()) {
    std::cerr << "clearjit: " << mismatch << "\n";
    return 2;
  }
  for (auto [command, dir] : measuring)
    if (*command && !dir->empty())
      return run_under_libc(command->get_name().c_str(), *dir, argc, argv,
                            command == c.tune && !c.tune_args.glibc_tunables.empty());
  if (*c.cpu) return cmd_cpu();
  if (*c.list) return cmd_list(c.level);
  if (*c.asm_) return cmd_asm(c.spec);
  if (*c.tune) return cmd_tune(c.tune_args, c.tune->remaining());
  if (*c.memset_rows) return cmd_memset_rows(c.rows_args);
  if (*c.verify) return cmd_verify(c.verify_args, c.verify->remaining());
  if (*c.choose) return cmd_choose(c.choose_args);
  if (*c.which) return cmd_which();
  if (*c.bench) {
    c.bench_args.command = "clearjit";
    for (int i = 1; i < argc; ++i) {
      c.bench_args.command += " " + shell_word(argv[i]);
      if (const std::string dir = libc_dir_given(); !dir.empty() && i == 1)
        c.bench_args.command += " --libc " + shell_word(dir); // the --libc this run came from
    }
    return cmd_bench(c.bench_args, c.bench->remaining());
  }
  if (*c.check) return cmd_check(c.check_path);
  if (*c.trace) return cmd_trace(c.trace_args);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  // Under --libc, the re-executed process's own arguments say what it runs (run_self_under).
  std::string re_executed;
  argc = take_re_execution(argc, argv, re_executed);
  if (argc < 0) {
    std::cerr << "clearjit: " << re_executed << "\n";
    return 2;
  }
  CLI::App app{"clearjit: generate, tune and use memory-clearing kernels for this x86-64 CPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "clearjit " CLEARJIT_VERSION);
  app.footer(kExitRule);
  Commands c;
  add_inspecting(app, c);
  add_tune(app, c);
  add_verify_and_choose(app, c);
  add_bench(app, c);
  add_trace(app, c);

  // CLI11 would call an unknown first word "a missing subcommand"; name it instead.
  const auto all = app.get_subcommands([](const CLI::App *) { return true; });
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(all.begin(), all.end(),
                   [&](const CLI::App *command) { return command->check_name(argv[1]); })) {
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
  return run(c, argc, argv);
}
