#include "tuner/measure/memset_rows.hpp"

#include "jit/model/cpu.hpp"
#include "tuner/text/format.hpp"

#include <cctype>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace cjit::detail {
namespace {

constexpr const char *kTunablesVariable = "GLIBC_TUNABLES";

std::optional<Pattern> pattern_by_name(std::string_view name) {
  for (const auto &[pattern, n] : kPatternNames)
    if (n == name) return pattern;
  return std::nullopt;
}

std::optional<Intent> intent_by_name(std::string_view name) {
  for (Intent i : kIntents)
    if (intent_name(i) == name) return i;
  return std::nullopt;
}

} // namespace

std::vector<MemsetRow> memset_rows(const CpuInfo &cpu, uint64_t min_size, uint64_t max_size) {
  std::vector<uint64_t> sizes;
  for (uint64_t s = min_size; s < max_size && s <= max_size / 2; s *= 2)
    sizes.push_back(s);
  sizes.push_back(max_size);
  const uint64_t arena = arena_bytes_for(cpu, max_size);
  std::vector<MemsetRow> out;
  for (uint64_t size : sizes)
    for (Intent intent : kIntents) {
      out.push_back({size, intent, Pattern::scattered});
      if (4 * size <= arena) out.push_back({size, intent, Pattern::consecutive});
      if (size <= hot_limit(cpu)) out.push_back({size, intent, Pattern::hot});
    }
  return out;
}

std::string rows_text(const std::vector<MemsetRow> &rows) {
  std::string out;
  for (const MemsetRow &r : rows) {
    if (!out.empty()) out += ',';
    out.append(std::to_string(r.size)).append(":").append(intent_name(r.intent));
    out.append(":").append(pattern_name(r.pattern));
  }
  return out;
}

Result<std::vector<MemsetRow>> parse_rows(const std::string &text) {
  using R = Result<std::vector<MemsetRow>>;
  std::vector<MemsetRow> out;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t a = item.find(':'), b = item.find(':', a == std::string::npos ? a : a + 1);
    if (a == std::string::npos || b == std::string::npos)
      return R::fail("row " + detail::quoted(item) + " is not SIZE:INTENT:PATTERN");
    char *end = nullptr;
    const unsigned long long size = std::strtoull(item.c_str(), &end, 10);
    const auto intent = intent_by_name(std::string_view(item).substr(a + 1, b - a - 1));
    const auto pattern = pattern_by_name(std::string_view(item).substr(b + 1));
    if (!std::isdigit(static_cast<unsigned char>(item[0])) || end != item.c_str() + a ||
        size == 0 || size > (uint64_t(1) << 40) || !intent || !pattern || out.size() >= 4096)
      return R::fail("row " + detail::quoted(item) + " is not SIZE:INTENT:PATTERN");
    out.push_back({size, *intent, *pattern});
  }
  if (out.empty()) return R::fail("no rows");
  return {out, {}};
}

std::string measure_memset_rows(const std::vector<MemsetRow> &rows, const MeasureOptions &o) {
  const CpuInfo &cpu = host_cpu();
  uint64_t largest = 0;
  std::vector<Job> jobs;
  for (const MemsetRow &r : rows) {
    jobs.push_back(in_pattern(Job(*memset_candidate().kernel(), r.size, r.intent), r.pattern));
    largest = std::max(largest, r.size);
  }
  HostMeter bench(cpu, largest);
  const std::vector<Measurement> ms = bench.run(jobs, o);
  nlohmann::ordered_json j;
  j["libc"] = running_c_library().name;
  const char *tunables = std::getenv(kTunablesVariable);
  j["tunables"] = tunables ? nlohmann::ordered_json(tunables) : nlohmann::ordered_json(nullptr);
  j["gbps"] = nlohmann::ordered_json::array();
  for (const Measurement &m : ms)
    j["gbps"].push_back(round_to(m.gbps, 3));
  return j.dump() + "\n";
}

Result<std::vector<double>> read_memset_rows(const std::string &json, size_t rows,
                                             const std::string &libc,
                                             const std::optional<std::string> &tunables) {
  using R = Result<std::vector<double>>;
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("gbps") || !j["gbps"].is_array() ||
      !j.contains("libc") || !j["libc"].is_string())
    return R::fail("printed no result (" + detail::quoted(json.substr(0, json.find('\n'))) + ")");
  if (j["libc"] != libc) return R::fail("ran " + j["libc"].get<std::string>() + ", not " + libc);
  const bool had = j.contains("tunables") && j["tunables"].is_string();
  if (had != tunables.has_value() || (had && j["tunables"] != *tunables))
    return R::fail("ran with GLIBC_TUNABLES " +
                   (had ? detail::quoted(j["tunables"].get<std::string>()) : std::string("unset")) +
                   ", not " + (tunables ? detail::quoted(*tunables) : std::string("unset")));
  std::vector<double> out;
  for (const auto &v : j["gbps"])
    if (v.is_number() && v.get<double>() > 0) out.push_back(v.get<double>());
  if (out.size() != rows)
    return R::fail("printed " + std::to_string(out.size()) + " positive speeds for " +
                   std::to_string(rows) + " rows");
  return {out, {}};
}

ProcessMemsetRows::ProcessMemsetRows(std::vector<std::string> command, std::string libc,
                                     MeasureOptions o, double timeout_s)
    : command_(std::move(command)), libc_(std::move(libc)), options_(std::move(o)),
      timeout_s_(timeout_s) {}

std::vector<std::string> ProcessMemsetRows::self_command() {
  return command_under(running_c_library(), self_executable(), {"memset-rows"});
}

Result<std::vector<double>> ProcessMemsetRows::run(const std::vector<MemsetRow> &rows,
                                                   const std::optional<std::string> &tunables) {
  std::vector<std::string> argv = command_;
  argv.insert(argv.end(),
              {"--rows", rows_text(rows), "--repetitions", std::to_string(options_.repetitions),
               "--min-time", fmt("%.4f", options_.min_time)});
  const std::vector<std::string> env{tunables ? std::string(kTunablesVariable) + "=" + *tunables
                                              : std::string(kTunablesVariable)};
  Result<std::string> out = run_capture(argv, env, timeout_s_);
  if (!out) return Result<std::vector<double>>::fail(out.error);
  return read_memset_rows(*out, rows.size(), libc_, tunables);
}

double ProcessMemsetRows::estimate_seconds(const std::vector<MemsetRow> &rows) const {
  // An estimate for the budget only, at assumed speeds: the process's start, the arena's
  // prefault with its page faults, then each row's repetitions (at least min_time, at least
  // one clear).
  constexpr double kStartSeconds = 0.3, kPrefaultBytesPerSecond = 5e9, kClearBytesPerSecond = 20e9;
  uint64_t largest = 0;
  double seconds = kStartSeconds;
  for (const MemsetRow &r : rows) {
    largest = std::max(largest, r.size);
    seconds +=
        options_.repetitions * std::max(options_.min_time, double(r.size) / kClearBytesPerSecond);
  }
  return seconds + double(arena_bytes_for(host_cpu(), largest)) / kPrefaultBytesPerSecond;
}

} // namespace cjit::detail
