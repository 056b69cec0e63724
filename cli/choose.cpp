// `clearjit choose`: one profile from the raw measurements (`clearjit tune --json`) of several
// hosts of one CPU model, with the tuner's own rules on the worst host's standings (fleet.hpp).
#include "commands.hpp"

#include "jit/profile/files.hpp"
#include "tuner/choose/fleet.hpp"
#include "tuner/race/race.hpp"

#include <iostream>

namespace cjit::cli {

using namespace cjit::detail;

namespace {

// What the choice says of itself: the hosts, every merged race, the notes; each line after
// `prefix`.
std::string report_text(const FleetChoice &c, const std::string &prefix) {
  std::string t = prefix + "clearjit choose: " + std::to_string(c.each.size()) + " host" +
                  (c.each.size() > 1 ? "s" : "") + ", features every host has:";
  for (const std::string &f : c.profile.host.features)
    t += " " + f;
  t += "\n" + prefix + "\n" + prefix +
       "races (each candidate's worst host; bounds at the tunes' confidence)\n";
  for (const std::string &r : c.races)
    t += race_lines(r, prefix + "  ");
  for (const std::string &n : c.notes)
    t += prefix + "note: " + n + "\n";
  return t;
}

} // namespace

int cmd_choose(const ChooseArgs &a) {
  if (!a.output.empty())
    if (std::string e = check_output_path(a.output); !e.empty()) {
      std::cerr << "clearjit choose: " << e << "\n";
      return 2;
    }
  std::vector<RawTune> runs;
  for (const std::string &path : a.raw) {
    // A pipe is read as `check` reads one (`clearjit choose <(ssh host cat raw.json)`): given on
    // the command line, bounded in size and time.
    Result<std::string> text =
        read_small_file(path, {.max_bytes = kRawJsonMaxBytes,
                               .allow_pipe = true,
                               .what = "a raw measurements file (tune --json)"});
    if (!text) {
      std::cerr << "clearjit choose: " << text.error << "\n";
      return 2;
    }
    Result<RawTune> run = read_raw(*text, path);
    if (!run) {
      std::cerr << "clearjit choose: " << run.error << "\n";
      return 2;
    }
    runs.push_back(std::move(*run.value));
  }
  Result<FleetChoice> choice = Result<FleetChoice>::fail("");
  try {
    choice = choose_fleet(runs);
  } catch (const std::exception &e) { // not expected: the reader checks what the chooser reads
    choice = Result<FleetChoice>::fail(std::string("internal error: ") + e.what());
  }
  if (!choice) {
    std::cerr << "clearjit choose: " << choice.error << "\n";
    return 2;
  }
  const std::string toml = fleet_toml(*choice);
  // What is written loads: the profile reader's own checks, for the hosts' common features.
  if (Result<Profile> back = parse_profile(toml, "the chosen profile", choice->cpu); !back) {
    std::cerr << "clearjit choose: internal error: " << back.error << "\n";
    return 2;
  }
  // The report, before the profile on stdout (as TOML comments, so that the output stays a
  // profile) or before writing it.
  const std::string report = report_text(*choice, a.output.empty() ? "# " : "");
  if (a.output.empty()) {
    std::cout << report << "\n" << toml;
    return 0;
  }
  std::cout << report;
  if (std::string e = write_file_atomically(a.output, toml); !e.empty()) {
    std::cerr << "clearjit choose: " << e << "\n";
    return 2;
  }
  std::cout << "\nwrote " << a.output << " (verify it on each host: clearjit verify " << a.output
            << ")\n";
  return 0;
}

} // namespace cjit::cli
