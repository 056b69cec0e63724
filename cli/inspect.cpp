// The commands that only inspect: cpu, list, asm, which and check.
#include "commands.hpp"
#include "verification_report.hpp"

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
using cjit::detail::Intent; // not clearjit.hpp's cjit::Intent

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

namespace {

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

} // namespace

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

} // namespace cjit::cli
