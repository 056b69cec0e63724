// `clearjit trace` records and histograms, and their JSON file.
#include "trace_format.hpp"

#include "format.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace cjit::detail {

std::string octave_range(int k) {
  if (k == 0) return "0 B";
  if (k == 1) return "1 B";
  // Built by appending: GCC 12 at -O3 warns (-Wrestrict, a false positive) on "[" + string&&.
  std::string range = "[";
  range += human_bytes(octave_min(k));
  range += ", ";
  range += human_bytes(octave_min(k) * 2);
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
    if (k == 0 || octave_min(k) * 2 <= size) t += calls[k];
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
  std::ostringstream o;
  o << "{\n  \"format\": \"clearjit-trace\",\n  \"version\": 1,\n  \"command\": [";
  for (size_t i = 0; i < command.size(); ++i)
    o << (i ? ", " : "") << json_string(command[i]);
  o << "],\n  \"processes\": " << h.processes << ",\n  \"octaves\": [";
  bool first = true;
  for (int k = 0; k < Histogram::kOctaves; ++k) {
    if (!h.calls[k]) continue;
    uint64_t max = k == 0 ? 0 : octave_min(k) * 2 - 1;
    o << (first ? "\n" : ",\n") << "    {\"min\": " << octave_min(k) << ", \"max\": " << max
      << ", \"calls\": " << h.calls[k] << ", \"bytes\": " << h.bytes[k] << "}";
    first = false;
  }
  o << "\n  ],\n  \"total_calls\": " << h.total_calls()
    << ",\n  \"total_bytes\": " << h.total_bytes()
    << ",\n  \"calls_below_256\": " << h.calls_below(256) << ",\n  \"fill_calls\": " << h.fill_calls
    << ",\n  \"fill_bytes\": " << h.fill_bytes << "\n}\n";
  return o.str();
}

namespace {

// A strict reader for the JSON subset histogram_json writes (objects, arrays, strings,
// unsigned integers, true/false/null): enough to read a trace back, with errors that say where.
struct JsonReader {
  const std::string &s;
  size_t i = 0;
  [[noreturn]] void fail(const std::string &what) {
    throw std::runtime_error("offset " + std::to_string(i) + ": " + what);
  }
  void ws() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
      ++i;
  }
  bool eat(char c) {
    ws();
    if (i < s.size() && s[i] == c) return ++i, true;
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i < s.size() && s[i] != '"') {
      if (s[i] == '\\') {
        if (++i >= s.size()) break;
        if (s[i] == 'u') { // kept as is: names only, never compared
          out += "\\u";
          ++i;
          continue;
        }
      }
      out += s[i++];
    }
    if (i >= s.size()) fail("unterminated string");
    ++i;
    return out;
  }
  uint64_t number() {
    ws();
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i])))
      fail("expected a non-negative integer");
    uint64_t v = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (v > (UINT64_MAX - 9) / 10) fail("integer too large");
      v = v * 10 + uint64_t(s[i++] - '0');
    }
    return v;
  }
  void skip() { // any value
    ws();
    if (i >= s.size()) fail("unexpected end");
    if (s[i] == '"') {
      string();
    } else if (s[i] == '{') {
      ++i;
      if (eat('}')) return;
      do {
        string();
        expect(':');
        skip();
      } while (eat(','));
      expect('}');
    } else if (s[i] == '[') {
      ++i;
      if (eat(']')) return;
      do
        skip();
      while (eat(','));
      expect(']');
    } else if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      number();
    } else {
      for (const char *w : {"true", "false", "null"})
        if (s.compare(i, std::strlen(w), w) == 0) {
          i += std::strlen(w);
          return;
        }
      fail("unexpected character");
    }
  }
};

} // namespace

Result<Histogram> histogram_from_json(const std::string &text) {
  Histogram h;
  JsonReader r{text};
  bool octaves = false, format = false;
  try {
    r.expect('{');
    if (!r.eat('}')) do {
        std::string key = r.string();
        r.expect(':');
        if (key == "format") {
          if (r.string() != "clearjit-trace") r.fail("\"format\" is not \"clearjit-trace\"");
          format = true;
        } else if (key == "processes") {
          h.processes = r.number();
        } else if (key == "fill_calls") {
          h.fill_calls = r.number();
        } else if (key == "fill_bytes") {
          h.fill_bytes = r.number();
        } else if (key == "octaves") {
          octaves = true;
          r.expect('[');
          if (!r.eat(']')) do {
              r.expect('{');
              uint64_t min = 0, calls = 0, bytes = 0;
              bool has_min = false, has_calls = false, has_bytes = false;
              do {
                std::string k = r.string();
                r.expect(':');
                if (k == "min")
                  min = r.number(), has_min = true;
                else if (k == "calls")
                  calls = r.number(), has_calls = true;
                else if (k == "bytes")
                  bytes = r.number(), has_bytes = true;
                else
                  r.skip();
              } while (r.eat(','));
              r.expect('}');
              if (!has_min || !has_calls || !has_bytes)
                r.fail("an octave needs \"min\", \"calls\" and \"bytes\"");
              if (min != 0 && (min & (min - 1))) r.fail("octave \"min\" is not a power of two");
              int k = min == 0 ? 0 : 64 - __builtin_clzll(min);
              uint64_t lo = octave_min(k), hi = k == 0 ? 0 : lo * 2 - 1;
              if (calls && (bytes / calls < lo || (bytes + calls - 1) / calls > hi))
                r.fail("octave from " + std::to_string(min) +
                       ": bytes / calls is outside the octave");
              h.calls[k] += calls;
              h.bytes[k] += bytes;
            } while (r.eat(','));
          r.expect(']');
        } else {
          r.skip();
        }
      } while (r.eat(','));
    r.expect('}');
    r.ws();
    if (r.i != text.size()) r.fail("text after the JSON object");
  } catch (const std::runtime_error &e) {
    return Result<Histogram>::fail(e.what());
  }
  if (!format)
    return Result<Histogram>::fail("not a clearjit trace (no \"format\": \"clearjit-trace\")");
  if (!octaves) return Result<Histogram>::fail("no \"octaves\"");
  return {h, {}};
}

} // namespace cjit::detail
