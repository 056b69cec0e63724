// The clearjit command: inspect the CPU, list and print kernels, tune, bench, check profiles.
#include "candidates.hpp"
#include "clearjit/clearjit.hpp"
#include "compare.hpp"
#include "cpu.hpp"
#include "files.hpp"
#include "format.hpp"
#include "mix.hpp"
#include "outputs.hpp"
#include "runtime.hpp"
#include "spec.hpp"
#include "tune.hpp"

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sched.h>
#include <sstream>
#include <sys/stat.h>
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
    return 1;
  }
  std::cout << "; " << k->spec() << "\n" << k->listing();
  return 0;
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
  for (Intent intent : kIntents) {
    std::printf("  %s: small path %s;", std::string(intent_name(intent)).c_str(),
                describe(l.profile->small(intent, cpu)).c_str());
    uint64_t lower = 0;
    for (const SizeClass &c : l.profile->table(intent)) {
      std::printf(" [%s..%s) %s", format_size(lower).c_str(),
                  c.below ? format_size(c.below).c_str() : "", format_spec(c.kernel).c_str());
      lower = c.below;
    }
    std::printf("\n");
  }
  return 0;
}

int cmd_check(const std::string &path) {
  const CpuInfo &cpu = host_cpu();
  auto p = load_profile(path, cpu);
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
  std::cout << path << ": valid for this CPU (" << p->reuse.size() << " reuse classes, "
            << p->table(Intent::stream).size() << " stream classes";
  for (Intent i : kIntents)
    if (const ParallelTable *t = p->parallel(i))
      std::cout << "; " << intent_name(i) << " on several threads "
                << (t->from() ? "from " + human_bytes(t->from()) : std::string("never"));
  std::cout << ")\n";
  return 0;
}

// A byte count as users type it: 4096, 4K, 4KiB, 1G, 1GiB.
std::optional<uint64_t> parse_size_arg(std::string t) {
  if (t.size() > 3 && t.compare(t.size() - 2, 2, "iB") == 0) t.erase(t.size() - 2);
  return parse_size(t);
}

uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return uint64_t(sysconf(_SC_AVPHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
}

// What CLI11 left over may only be Google Benchmark's own flags, which are passed through.
bool only_benchmark_flags(const char *command, const std::vector<std::string> &extras) {
  for (const std::string &e : extras)
    if (e.rfind("--benchmark_", 0) != 0) {
      std::cerr << "clearjit " << command << ": unexpected argument '" << e << "' (see --help)\n";
      return false;
    }
  return true;
}

struct TuneArgs {
  std::string level = "default", min_size = "4K", max_size = "1G", output, json, report;
  double time_limit = 0;
};

int cmd_tune(const TuneArgs &a, const std::vector<std::string> &extras) {
  TuneOptions o;
  auto level = level_by_name(a.level);
  if (!level) {
    std::cerr << "clearjit tune: unknown level '" << a.level << "' (quick, default, exhaustive)\n";
    return 2;
  }
  o.level = *level;
  auto lo = parse_size_arg(a.min_size), hi = parse_size_arg(a.max_size);
  if (!lo || !hi || *lo < 64 || *lo > *hi) {
    std::cerr << "clearjit tune: --min-size and --max-size must be sizes like 4K or 1GiB, 64 <= "
                 "min <= max\n";
    return 2;
  }
  if (!only_benchmark_flags("tune", extras)) return 2;
  o.benchmark_flags = extras;
  o.min_size = *lo;
  o.max_size = *hi;
  const CpuInfo &cpu = host_cpu();
  // The destination pool is at least the largest size: keep it within a quarter of free memory.
  uint64_t cap = available_memory() / 4;
  if (o.max_size > cap) {
    uint64_t p = 1;
    while (p * 2 <= cap)
      p *= 2;
    std::cerr << "clearjit tune: --max-size capped at " << format_size(p)
              << " (a quarter of available memory)\n";
    o.max_size = std::max(p, o.min_size);
  }
  o.time_limit = a.time_limit;
  o.progress = true;
  std::string output = a.output.empty() ? default_profile_name(cpu) : a.output;
  for (const std::string &path : {output, a.json, a.report})
    if (!path.empty())
      if (std::string e = check_output_path(path); !e.empty()) {
        std::cerr << "clearjit tune: " << e << "\n";
        return 1;
      }

  TuneResult r;
  try {
    r = tune(o, cpu);
  } catch (const std::exception &e) {
    std::cerr << "clearjit tune: " << e.what() << "\n";
    return 1;
  }
  std::cout << summary_text(r);
  int rc = 0;
  auto save = [&](const std::string &path, const std::string &text, const char *what) {
    if (path.empty()) return;
    if (std::string e = write_file_atomically(path, text); !e.empty()) {
      std::cerr << "clearjit tune: " << e << "\n";
      rc = 1;
    } else {
      std::cout << what << ": " << path << "\n";
    }
  };
  std::cout << "\n";
  save(output, profile_toml(r, cpu), "profile");
  save(a.json, measurements_json(r, cpu), "measurements");
  save(a.report, report_html(r, cpu), "report");
  return rc;
}

// An argument as a shell would need it typed: as it is when plain, else in single quotes.
std::string shell_word(const std::string &arg) {
  bool plain =
      !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                                            "VWXYZ0123456789-_=./,:+@%") == std::string::npos;
  if (plain) return arg;
  std::string q = "'";
  for (char c : arg)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct BenchArgs {
  std::string profile, intent = "both", json, mix, markdown;
  std::string command;              //!< the command line, for --markdown's header
  std::optional<std::string> sizes; // given but empty is a usage error, not the default
  bool seeds = false, warm_only = false, no_warm = false, small = false;
  int repetitions = 5;
};

// `clearjit bench --mix FILE`: memset against the dispatcher on a recorded trace's sizes.
int cmd_bench_mix(const BenchArgs &a) {
  auto text = read_small_file(a.mix);
  if (!text) {
    std::cerr << "clearjit bench --mix: " << text.error << "\n";
    return 1;
  }
  auto h = histogram_from_json(*text);
  if (!h) {
    std::cerr << "clearjit bench --mix: " << a.mix << ": " << h.error
              << " (write one with clearjit trace --json FILE -- PROGRAM)\n";
    return 1;
  }
  char err[512];
  std::unique_ptr<clearjit, void (*)(clearjit *)> cj(
      clearjit_open(a.profile.empty() ? nullptr : a.profile.c_str(), err, sizeof err),
      clearjit_close);
  if (!cj) {
    std::cerr << "clearjit bench --mix: " << err << "\n";
    return 1;
  }
  try {
    const CpuInfo &cpu = host_cpu();
    MixResult r = measure_mix(*h, cj.get(), cpu.l2_bytes(), cpu.l3_bytes(), a.repetitions);
    r.preload_min = kPreloadMin;
    std::cout << histogram_text(*h) << "\n" << mix_text(r);
  } catch (const std::exception &e) {
    std::cerr << "clearjit bench --mix: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

struct TraceArgs {
  std::string json, preload;
  std::vector<std::string> command;
};

// libclearjit-preload.so beside this binary (the build tree), in ../lib (an installed prefix), or
// where this build installs it.
std::string find_preload() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  std::string dir = n > 0 ? std::string(buf, size_t(n)) : "";
  dir = dir.substr(0, dir.rfind('/'));
  for (const std::string &c :
       {dir + "/libclearjit-preload.so", dir + "/../" CLEARJIT_LIBDIR "/libclearjit-preload.so",
        std::string(CLEARJIT_INSTALLED_PRELOAD)})
    if (access(c.c_str(), R_OK) == 0) return c;
  return {};
}

// `clearjit trace`: runs the program with the preload counting (CLEARJIT_TRACE=FILE), then
// prints what it cleared on stderr (the program's own output stays as it was). Exits with the
// program's status.
int cmd_trace(const TraceArgs &a) {
  std::string preload = a.preload.empty() ? find_preload() : a.preload;
  char resolved[PATH_MAX];
  if (preload.empty() || !realpath(preload.c_str(), resolved)) {
    std::cerr << "clearjit trace: "
              << (preload.empty() ? "libclearjit-preload.so not found (--preload PATH)"
                                  : preload + ": " + std::strerror(errno))
              << "\n";
    return 1;
  }
  if (!a.json.empty())
    if (std::string e = check_output_path(a.json); !e.empty()) {
      std::cerr << "clearjit trace: " << e << "\n";
      return 1;
    }
  const char *tmp = std::getenv("TMPDIR");
  std::string trace = std::string(tmp && *tmp == '/' ? tmp : "/tmp") + "/clearjit-trace-XXXXXX";
  int fd = mkstemp(trace.data());
  if (fd < 0) {
    std::cerr << "clearjit trace: cannot create " << trace << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  close(fd);
  std::string ld_preload = resolved;
  if (const char *old = std::getenv("LD_PRELOAD"); old && *old)
    ld_preload += std::string(":") + old;
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    std::cerr << "clearjit trace: pipe: " << std::strerror(errno) << "\n";
    return 1;
  }
  std::vector<char *> argv;
  for (const std::string &arg : a.command)
    argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  // The terminal's ^C goes to the program; the report still follows.
  struct sigaction ignore = {}, old_int, old_quit;
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  pid_t pid = fork();
  if (pid == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    setenv("CLEARJIT_TRACE", trace.c_str(), 1);
    setenv("LD_PRELOAD", ld_preload.c_str(), 1);
    execvp(argv[0], argv.data());
    int e = errno;
    ssize_t w = write(pipefd[1], &e, sizeof e);
    (void)w;
    _exit(127);
  }
  close(pipefd[1]);
  int exec_errno = 0, status = 0;
  bool exec_failed =
      pid > 0 && read(pipefd[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
  close(pipefd[0]);
  if (pid > 0)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  ReadLimits limits;
  limits.max_bytes = 64 << 20;
  auto read = read_small_file(trace, limits);
  std::string error = read ? "" : read.error, text = read ? *read : "";
  unlink(trace.c_str());
  if (pid < 0 || exec_failed) {
    std::cerr << "clearjit trace: cannot run '" << a.command[0]
              << "': " << std::strerror(pid < 0 ? errno : exec_errno) << "\n";
    return 1;
  }
  Histogram h;
  if (error.empty()) error = add_trace_records(h, text);
  if (!error.empty()) {
    std::cerr << "clearjit trace: " << trace << ": " << error << "\n";
    return 1;
  }
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::cerr << "\nclearjit trace: " << a.command[0] << " exited with status " << rc << "\n"
            << histogram_text(h);
  if (h.processes == 0)
    std::cerr << "(no record: the program ended without running exit handlers, e.g. _exit or a "
                 "signal, or it is statically linked)\n";
  if (!a.json.empty()) {
    if (std::string e = write_file_atomically(a.json, histogram_json(h, a.command)); !e.empty()) {
      std::cerr << "clearjit trace: " << e << "\n";
      return 1;
    }
    std::cerr << "trace: " << a.json << " (clearjit bench --mix " << a.json << ")\n";
  }
  return rc;
}

int cmd_bench(const BenchArgs &a, const std::vector<std::string> &extras) {
  // The studies measure their own sizes and intents and print no JSON: a flag they would ignore
  // is refused, not dropped silently.
  const bool row_flags = a.sizes || !a.json.empty() || !a.markdown.empty() || a.intent != "both" ||
                         a.warm_only || a.no_warm;
  if (!a.mix.empty()) {
    if (a.seeds || a.small || row_flags || !extras.empty()) {
      std::cerr << "clearjit bench: --mix takes only PROFILE and --repetitions\n";
      return 2;
    }
    return cmd_bench_mix(a);
  }
  if (a.small && (a.seeds || row_flags)) {
    std::cerr << "clearjit bench: --small takes only PROFILE, --repetitions and --benchmark_* "
                 "flags\n";
    return 2;
  }
  if (a.seeds && (row_flags || !a.profile.empty())) {
    std::cerr << "clearjit bench: --seeds takes only --repetitions and --benchmark_* flags\n";
    return 2;
  }
  CompareOptions o;
  o.profile = a.profile;
  o.repetitions = a.repetitions;
  if (!only_benchmark_flags("bench", extras)) return 2;
  o.benchmark_flags = extras;
  if (a.intent == "reuse")
    o.intents = {Intent::reuse};
  else if (a.intent == "stream")
    o.intents = {Intent::stream};
  else if (a.intent != "both") {
    std::cerr << "clearjit bench: --intent must be reuse, stream or both, got '" << a.intent
              << "'\n";
    return 2;
  }
  o.warm = !a.no_warm;
  if (a.warm_only && a.no_warm) {
    std::cerr << "clearjit bench: --warm-only and --no-warm exclude each other\n";
    return 2;
  }
  // The destination pool holds the largest size: keep it within a quarter of free memory.
  const uint64_t cap = available_memory() / 4;
  if (a.warm_only) {
    if (a.sizes) {
      std::cerr << "clearjit bench: --warm-only measures its own sizes; leave out --sizes\n";
      return 2;
    }
    o.batch_sizes.clear(); // warm rows only
  } else if (!a.sizes) {
    for (uint64_t size : default_compare_sizes())
      if (size <= cap)
        o.sizes.push_back(size);
      else
        std::cerr << "clearjit bench: skipping " << format_size(size)
                  << " (more than a quarter of available memory)\n";
  } else {
    auto usage = [](const std::string &why) {
      std::cerr << "clearjit bench: --sizes: " << why << "\n";
      return 2;
    };
    if (a.sizes->empty()) return usage("empty; give sizes like 8,4K,1GiB");
    std::string item;
    std::istringstream in(*a.sizes);
    while (std::getline(in, item, ',')) {
      auto v = parse_size_arg(item);
      if (!v || *v == 0)
        return usage("'" + quoted(item, 0) + "' is not a size like 8, 4K or 1GiB (at least 1)");
      if (*v > cap)
        return usage(quoted(item, 0) + " is more than a quarter of the available memory (" +
                     human_bytes(cap) + "), which the destination pool may use");
      o.sizes.push_back(*v);
    }
    if (!a.sizes->empty() && a.sizes->back() == ',') return usage("a trailing comma");
  }
  for (const std::string &path : {a.json, a.markdown})
    if (!path.empty())
      if (std::string e = check_output_path(path); !e.empty()) {
        std::cerr << "clearjit bench: " << e << "\n";
        return 1;
      }
  try {
    const CpuInfo &cpu = host_cpu();
    if (a.seeds) {
      std::cout << run_seeds(cpu, o);
      return 0;
    }
    if (a.small) {
      std::cout << small_study(cpu, o);
      return 0;
    }
    CompareResult r = compare(o, cpu);
    std::cout << compare_text(r);
    if (!a.json.empty()) {
      if (std::string e = write_file_atomically(a.json, compare_json(r, cpu)); !e.empty()) {
        std::cerr << "clearjit bench: " << e << "\n";
        return 1;
      }
      std::cout << "measurements: " << a.json << "\n";
    }
    if (!a.markdown.empty()) {
      if (std::string e = write_file_atomically(a.markdown, compare_markdown(r, cpu, a.command));
          !e.empty()) {
        std::cerr << "clearjit bench: " << e << "\n";
        return 1;
      }
      std::cout << "tables: " << a.markdown << "\n";
    }
  } catch (const std::exception &e) {
    std::cerr << "clearjit bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"clearjit: generate, tune and use memory-clearing kernels for this x86-64 CPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "clearjit " CLEARJIT_VERSION);

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
  asm_->footer("Spec grammar: method[:option,...]; methods and options: see README.md.");

  auto *which = app.add_subcommand(
      "which", "Show the default profile lookup: what each step found and what was chosen");
  std::string check_path;
  auto *check = app.add_subcommand(
      "check", "Validate a profile against this CPU (exit 0, or 1 with the errors)");
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
  tune->allow_extras();
  tune->footer("Google Benchmark's own --benchmark_* flags are passed through.");

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
  bench->allow_extras();
  bench->footer("Google Benchmark's own --benchmark_* flags are passed through.");

  TraceArgs trace_args;
  auto *trace = app.add_subcommand(
      "trace", "Run PROGRAM with libclearjit-preload.so counting, then show what it cleared");
  trace->add_option("--json", trace_args.json,
                    "also write the histogram as JSON (for bench --mix)");
  trace->add_option("--preload", trace_args.preload,
                    "libclearjit-preload.so to use (default: beside clearjit, or installed)");
  trace->add_option("PROGRAM", trace_args.command, "-- PROGRAM [ARGS...]")->required();
  trace->footer("Example: clearjit trace --json zstd.json -- zstd -q -f -o /dev/null FILE\n"
                "The histogram goes to stderr; the exit status is the program's.");

  // CLI11 would call an unknown first word "a missing subcommand"; name it instead.
  const auto commands = app.get_subcommands([](const CLI::App *) { return true; });
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(),
                   [&](const CLI::App *c) { return c->check_name(argv[1]); })) {
    std::cerr << "clearjit: unknown command '" << quoted(argv[1], 0)
              << "' (commands: cpu, list, asm, which, check, tune, bench, trace; see clearjit "
                 "--help)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2; // usage errors exit 2
  }
  if (*cpu) return cmd_cpu();
  if (*list) return cmd_list(level);
  if (*asm_) return cmd_asm(spec);
  if (*tune) return cmd_tune(tune_args, tune->remaining());
  if (*which) return cmd_which();
  if (*bench) {
    bench_args.command = "clearjit";
    for (int i = 1; i < argc; ++i)
      bench_args.command += " " + shell_word(argv[i]);
    return cmd_bench(bench_args, bench->remaining());
  }
  if (*check) return cmd_check(check_path);
  if (*trace) return cmd_trace(trace_args);
  return 2;
}
