// `clearjit trace` records and histograms, and their JSON file.
#include "tuner/formats/trace_format.hpp"

#include "tuner/text/format.hpp"
#include "tuner/text/json_read.hpp"

#include <cstdio>
#include <sstream>
#include <utility>

namespace cjit::detail {

std::string octave_range(int k) {
  if (k == 0) return "0 B";
  if (k == 1) return "1 B";
  // Built by appending: GCC 12 at -O3 warns (-Wrestrict, a false positive) on "[" + string&&.
  std::string range = "[";
  range += human_bytes(octave_min(k));
  range += ", ";
  // The last octave ends at 2^64 B, which is not a uint64_t: written as human_bytes would.
  range += k == Histogram::kOctaves - 1 ? "17179869184 GiB" : human_bytes(octave_min(k) * 2);
  return range + ")";
}

uint64_t Histogram::total_calls() const {
  uint64_t t = 0;
  for (uint64_t c : calls)
    t += c;
  return t;
}

uint64_t Histogram::total_bytes() const {
  uint64_t t = 0;
  for (uint64_t b : bytes)
    t += b;
  return t;
}

uint64_t Histogram::calls_below(uint64_t size) const {
  uint64_t t = 0;
  for (int k = 0; k < kOctaves; ++k)
    if (k == 0 || (k < kOctaves - 1 && octave_min(k) * 2 <= size)) // the last never: 2^64 wraps
      t += calls[k];
  return t;
}

uint64_t octave_min(int k) { return k == 0 ? 0 : uint64_t(1) << (k - 1); }

namespace {

std::string percent(uint64_t part, uint64_t whole) {
  return whole ? fmt("%.1f%%", 100.0 * double(part) / double(whole)) : "-";
}

} // namespace

std::string add_trace_records(Histogram &h, const std::string &text) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  bool open = false;
  Histogram add;
  while (std::getline(in, line)) {
    ++n;
    std::istringstream f(line);
    std::string key;
    f >> key;
    unsigned long long a = 0, b = 0;
    int k = 0;
    bool ok = true;
    if (key == "pid") {
      ok = !open && bool(f >> a);
      open = true;
      add = Histogram{};
    } else if (key == "zero") {
      ok = open && bool(f >> k >> a >> b) && k >= 0 && k < Histogram::kOctaves;
      if (ok) add.calls[k] += a, add.bytes[k] += b;
    } else if (key == "fill") {
      ok = open && bool(f >> a >> b);
      if (ok) add.fill_calls += a, add.fill_bytes += b;
    } else if (key == "end") {
      ok = open;
      open = false;
      if (ok) {
        for (int i = 0; i < Histogram::kOctaves; ++i)
          h.calls[i] += add.calls[i], h.bytes[i] += add.bytes[i];
        h.fill_calls += add.fill_calls;
        h.fill_bytes += add.fill_bytes;
        ++h.processes;
      }
    } else {
      ok = false;
    }
    if (!ok) return "line " + std::to_string(n) + ": not a trace record: '" + line + "'";
  }
  if (open) return "line " + std::to_string(n) + ": the last record is truncated";
  return {};
}

std::string histogram_text(const Histogram &h) {
  std::ostringstream o;
  const uint64_t calls = h.total_calls(), bytes = h.total_bytes();
  o << "zero fills by size (memset(p, 0, n), __memset_chk, bzero, explicit_bzero), " << h.processes
    << (h.processes == 1 ? " process\n" : " processes\n");
  char line[160];
  std::snprintf(line, sizeof line, "  %-22s %12s %7s %14s %7s\n", "size", "calls", "", "bytes", "");
  o << line;
  for (int k = 0; k < Histogram::kOctaves; ++k) {
    if (!h.calls[k]) continue;
    std::snprintf(line, sizeof line, "  %-22s %12llu %7s %14llu %7s\n", octave_range(k).c_str(),
                  (unsigned long long)h.calls[k], percent(h.calls[k], calls).c_str(),
                  (unsigned long long)h.bytes[k], percent(h.bytes[k], bytes).c_str());
    o << line;
  }
  const uint64_t small = h.calls_below(256);
  o << "calls below 256 B: " << small << " of " << calls << " (" << percent(small, calls) << ")\n";
  o << "total: " << calls << " zero fills, " << bytes << " bytes (" << human_bytes(bytes) << ")";
  o << "; non-zero memset: " << h.fill_calls << " calls, " << h.fill_bytes << " bytes\n";
  return o.str();
}

std::string histogram_json(const Histogram &h, const std::vector<std::string> &command) {
  nlohmann::ordered_json octaves = nlohmann::ordered_json::array();
  for (int k = 0; k < Histogram::kOctaves; ++k)
    if (h.calls[k])
      octaves.push_back({{"min", octave_min(k)},
                         {"max", k == 0 ? 0 : octave_min(k) * 2 - 1},
                         {"calls", h.calls[k]},
                         {"bytes", h.bytes[k]}});
  return json_text({{"format", "clearjit-trace"},
                    {"version", 1},
                    {"command", command},
                    {"processes", h.processes},
                    {"octaves", std::move(octaves)},
                    {"total_calls", h.total_calls()},
                    {"total_bytes", h.total_bytes()},
                    {"calls_below_256", h.calls_below(256)},
                    {"fill_calls", h.fill_calls},
                    {"fill_bytes", h.fill_bytes}});
}

namespace {

using nlohmann::json;

uint64_t add(uint64_t a, uint64_t b, const std::string &what) {
  uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) throw SchemaError{what + " add up to 2^64 or more"};
  return sum;
}

// One octave of "octaves", added to `h`. `sum_calls` and `sum_bytes` hold the totals so far.
void read_octave(const json &o, const std::string &path, Histogram &h, uint64_t &sum_calls,
                 uint64_t &sum_bytes) {
  if (!o.is_object()) throw SchemaError{path + ": must be an object, not " + o.type_name()};
  const uint64_t min = json_whole_number(json_member(o, "min", path), path + ".min");
  const uint64_t calls = json_whole_number(json_member(o, "calls", path), path + ".calls");
  const uint64_t bytes = json_whole_number(json_member(o, "bytes", path), path + ".bytes");
  if (min & (min - 1))
    throw SchemaError{path + ".min: " + std::to_string(min) + " is not 0 or a power of two"};
  const int k = min == 0 ? 0 : 64 - __builtin_clzll(min);
  const uint64_t lo = octave_min(k), hi = k == 0 ? 0 : lo * 2 - 1; // 2^64 - 1 for k == 64
  if (calls == 0 && bytes != 0) throw SchemaError{path + ": bytes without calls"};
  if (calls && (bytes / calls < lo || bytes / calls + (bytes % calls != 0) > hi))
    throw SchemaError{path + ": bytes / calls (" + std::to_string(bytes) + " / " +
                      std::to_string(calls) + ") is outside the octave from " +
                      std::to_string(min)};
  // The totals must fit, so every octave's sum does and total_calls() is exact.
  sum_calls = add(sum_calls, calls, path + ": the octaves' calls");
  sum_bytes = add(sum_bytes, bytes, path + ": the octaves' bytes");
  h.calls[k] += calls;
  h.bytes[k] += bytes;
}

Histogram read_trace(const json &doc) {
  if (!doc.is_object())
    throw SchemaError{std::string("the top level must be an object, not ") + doc.type_name()};
  auto format = doc.find("format");
  if (format == doc.end())
    throw SchemaError{"no \"format\": \"clearjit-trace\" (not a clearjit trace)"};
  if (*format != "clearjit-trace")
    throw SchemaError{"format: must be \"clearjit-trace\" (not a clearjit trace)"};
  Histogram h;
  for (auto [key, field] :
       {std::pair{"processes", &h.processes}, std::pair{"fill_calls", &h.fill_calls},
        std::pair{"fill_bytes", &h.fill_bytes}})
    if (auto it = doc.find(key); it != doc.end()) *field = json_whole_number(*it, key);
  const json &octaves = json_member(doc, "octaves", "");
  if (!octaves.is_array())
    throw SchemaError{std::string("octaves: must be an array, not ") + octaves.type_name()};
  uint64_t sum_calls = 0, sum_bytes = 0;
  for (size_t i = 0; i < octaves.size(); ++i)
    read_octave(octaves[i], "octaves[" + std::to_string(i) + "]", h, sum_calls, sum_bytes);
  return h;
}

} // namespace

Result<Histogram> histogram_from_json(std::string_view text, std::string_view name) {
  return read_json_file<Histogram>(text, name, kTraceJsonMaxBytes, "a clearjit trace", read_trace);
}

} // namespace cjit::detail
