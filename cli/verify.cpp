// `clearjit verify`: the tuner's verification stage alone, on an existing profile, on this host:
// what an operator runs after a BIOS, microcode or hypervisor update, and a fleet on every host
// that gets a merged profile.
#include "commands.hpp"

#include "jit/model/cpu.hpp"
#include "jit/profile/files.hpp"
#include "jit/runtime/runtime.hpp"
#include "tuner/stages/plan.hpp"
#include "tuner/stages/verify.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace cjit::cli {

using namespace cjit::detail;

namespace {

// Every point, its ratio to memset (its race's median) and whether it loses: beyond the noise
// by its bound (`lost`), or below the floor by its median alone.
std::string points_table(const Verification &v) {
  std::string t = "\n  point                                        vs memset\n";
  for (const auto &[point, ratio] : v.ratios) {
    const std::string name = point_name(point);
    const bool noise = std::any_of(v.noise.begin(), v.noise.end(), [&](const std::string &l) {
      return l.starts_with(name + ": ");
    });
    const bool counted = std::find(v.lost.begin(), v.lost.end(), point) != v.lost.end();
    char row[200];
    std::snprintf(row, sizeof row, "  %-44s %6.2fx %s%s\n", name.c_str(), ratio,
                  point.warm ? "time " : "speed",
                  counted               ? "  loses"
                  : noise               ? "  lost, inside memset's own noise"
                  : loses(point, ratio) ? "  below by its median, not beyond the noise"
                                        : "");
    t += row;
  }
  return t;
}

} // namespace

int cmd_verify(const VerifyArgs &a, const std::vector<std::string> &extras) {
  auto level = level_by_name(a.level);
  if (!level) {
    std::cerr << "clearjit verify: unknown level '" << a.level
              << "' (quick, default, exhaustive)\n";
    return 2;
  }
  if (!only_benchmark_flags("verify", extras)) return 2;
  if (!a.output.empty())
    if (std::string e = check_output_path(a.output); !e.empty()) {
      std::cerr << "clearjit verify: " << e << "\n";
      return 2;
    }
  const CpuInfo &cpu = host_cpu();
  // The text as it is, for -o: the tables the loader does not read ([tuning], [findings]) stay.
  const Result<std::string> text = read_small_file(a.profile);
  if (!text) {
    std::cerr << "clearjit verify: " << text.error << "\n";
    return 2;
  }
  Result<Profile> p = parse_profile(*text, a.profile, cpu);
  if (!p) {
    std::cerr << "clearjit verify: " << p.error << "\n";
    return 2;
  }
  if (!same_cpu(p->host, cpu))
    std::cout << "warning: " << a.profile << ": measured on " << other_cpu_text(p->host)
              << ", this CPU is " << other_cpu_text(profile_host(cpu)) << "\n";
  // The class boundaries the verification measures lie within the sizes a tune covers.
  const uint64_t min_size = 4096,
                 max_size = std::min<uint64_t>(
                     1ull << 30, std::max<uint64_t>(available_memory() / 4, 1u << 20));
  const LevelPlan plan = plan_for(*level);
  const MeasureOptions o{.repetitions = plan.repetitions,
                         .min_time = plan.min_time,
                         .benchmark_flags = extras,
                         .progress = true,
                         .label = "verifying " + a.profile};
  // What runs here is verified: under another memset than the profile's, memset's classes are
  // their stand-ins', as clearjit_open routes them.
  const std::string running = running_memset();
  Profile routed = *p;
  if (const StandInRouting r = route_to_stand_ins(routed, running); !r.note.empty())
    std::cout << "note: " << a.profile << ": " << r.note << "\n";
  Profile measured = routed;
  Verification v;
  std::vector<StandInSpeed> stand_ins;
  try {
    HostMeter bench(cpu, max_size);
    RaceOptions race;
    race.confidence = plan.confidence;
    race.max_rounds = plan.max_rounds;
    v = verify(bench, measured, cpu, o, race, {}, min_size, max_size, /*repairs_allowed=*/false);
    MeasureOptions so = o;
    so.label = "stand-ins of " + a.profile;
    stand_ins = stand_in_speeds(bench, *p, cpu, so, race, min_size, max_size);
  } catch (const std::exception &e) { // measuring failed: the work's failure
    std::cerr << "clearjit verify: " << e.what() << "\n";
    return 1;
  }
  std::cout << a.profile << " on " << other_cpu_text(profile_host(cpu)) << " (" << cpu.brand
            << "), --level " << level_name(*level) << ":" << verification_text(v) << points_table(v)
            << stand_in_text(stand_ins, running);
  if (!a.output.empty()) {
    const std::string written = with_verification(*text, v);
    // What is written must load as the profile did (a hand-edited file could defeat the edit).
    if (Result<Profile> back = parse_profile(written, a.output, cpu);
        !back || back->reuse != p->reuse ||
        back->table(Intent::stream) != p->table(Intent::stream)) {
      std::cerr << "clearjit verify: " << a.output << ": not written: the profile with its "
                << "[verification] table would not read back as this one"
                << (back ? "" : " (" + back.error + ")") << "\n";
      return 2;
    }
    if (std::string e = write_file_atomically(a.output, written); !e.empty()) {
      std::cerr << "clearjit verify: " << e << "\n";
      return 2;
    }
    std::cout << "profile with its [verification] table: " << a.output << "\n";
  }
  if (!v.lost.empty()) {
    std::cout << "the profile loses to memset beyond the noise on this host, in:\n";
    for (const std::string &part : losing_parts(routed, cpu, v))
      std::cout << "  " << part << "\n";
    return 1;
  }
  std::cout << "the profile holds against memset on this host\n";
  return 0;
}

} // namespace cjit::cli
