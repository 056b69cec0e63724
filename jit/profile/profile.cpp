// Reading, validating and writing profiles (TOML). The format is a contract with the tuner,
// applications and outside tools, so the reader is strict about what it uses and refuses tables and
// keys it does not know (a typo must not drop a setting), but in the tuner's informational reports.
//
// Sizes are TOML integers (bytes) or strings in the one size grammar (jit/model/size_text.hpp:
// "4096", "2K", "2k", "2KiB", powers of 1024). "2KB" is refused because "KB" is 1000 or 1024
// depending on who wrote it, and a profile must mean one thing.
#include "jit/profile/profile.hpp"
#include "jit/model/pieces.hpp"

#include "jit/profile/files.hpp"
#include "jit/profile/toml_guard.hpp"

#define TOML_HEADER_ONLY 1
// A second bound behind toml_guard's depth check (toml++'s own default is 256).
#define TOML_MAX_NESTED_VALUES 64
#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <sstream>
#include <system_error>

namespace cjit::detail {
namespace {

// A profile is a few kilobytes; the cap keeps a wrong path (a log, a device) from eating memory.
constexpr size_t kMaxFileBytes = 1u << 20;

// Thrown inside the parser only, caught in parse_profile: the message is already complete.
struct Refusal {
  std::string message;
};

std::string number_text(double v) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, p) : std::string("?");
}

std::string_view type_name(const toml::node &n) {
  switch (n.type()) {
  case toml::node_type::table: return "a table";
  case toml::node_type::array: return "an array";
  case toml::node_type::string: return "a string";
  case toml::node_type::integer: return "an integer";
  case toml::node_type::floating_point: return "a float";
  case toml::node_type::boolean: return "a boolean";
  case toml::node_type::date: return "a date";
  case toml::node_type::time: return "a time";
  case toml::node_type::date_time: return "a date-time";
  default: return "nothing";
  }
}

// A size string as documented at the top of this file; nullopt plus a reason otherwise.
std::optional<uint64_t> parse_size_string(std::string_view text, std::string &why) {
  const std::string text_quoted = quoted(text, '"');
  if (!text.empty() && text.front() == '-') {
    why = "must not be negative, got " + text_quoted;
    return std::nullopt;
  }
  std::string reason;
  if (auto v = parse_size(text, &reason)) return v;
  why = "unreadable size " + text_quoted + ": " + reason;
  return std::nullopt;
}

// Optimal string alignment distance: Levenshtein with a swap of two neighbours as one edit, so
// "stratgy" and "stragety" are both one or two from "strategy".
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

} // namespace

std::string nearest_name(std::string_view name, std::initializer_list<std::string_view> known) {
  std::string_view best;
  size_t best_d = SIZE_MAX;
  if (name.size() > kMaxSuggested) return std::string();
  for (std::string_view k : known) {
    // The distance is at least the difference in length: more than two edits apart.
    if (name.size() > k.size() + 2 || k.size() > name.size() + 2) continue;
    if (size_t d = edit_distance(name, k); d < best_d) best = k, best_d = d;
  }
  // Two edits at most, and fewer than the name has letters: "x" is no typo of "l2".
  return best_d <= 2 && best_d < name.size() ? std::string(best) : std::string();
}

std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (uint8_t(c) < 0x20 || c == 0x7f) { // TOML wants DEL escaped too
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", unsigned(c));
      out += b;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

namespace {

// gbps as the tuner has always written it: informational, one decimal is enough.
std::string gbps_text(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

class Reader {
public:
  //! `cpu`: the CPU whose features the kernels and small paths must have; null: any CPU.
  Reader(const std::string &name, const CpuInfo *cpu) : name_(name), cpu_(cpu) {}

  Profile read(const toml::table &root) {
    Profile p;
    // [tuning], [findings] and [verification] are the tuner's report: read by people, never by
    // the runtime, so their keys are free (a newer tuner may say more) but they must be tables.
    only_known(
        root, "",
        {"format", "host", "dispatch", "small", "parallel", "tuning", "findings", "verification"});
    for (const char *info : {"tuning", "findings", "verification"})
      if (const toml::node *n = root.get(info); n && !n->is_table())
        refuse(n, info, "must be a table, got " + std::string(type_name(*n)));
    read_format(root);
    p.host = read_host(root);
    p.libc = read_libc(root);
    const toml::node *dispatch = root.get("dispatch");
    if (!dispatch)
      refuse(nullptr, "dispatch.reuse",
             "missing: a profile needs at least one [[dispatch.reuse]] class");
    const toml::table *dt = dispatch->as_table();
    if (!dt)
      refuse(dispatch, "dispatch", "must be a table, got " + std::string(type_name(*dispatch)));
    only_known(*dt, "dispatch", {"reuse", "stream", "batch"});
    const toml::node *reuse = dt->get("reuse");
    if (!reuse)
      refuse(dt, "dispatch.reuse",
             "missing: a profile needs at least one [[dispatch.reuse]] class");
    p.reuse = read_classes(*reuse, "reuse");
    // Optional: without it the stream intent uses the reuse table (Profile::table).
    if (const toml::node *stream = dt->get("stream")) p.stream = read_classes(*stream, "stream");
    // Optional: without it, batches use the stream table (Profile::batch_table).
    if (const toml::node *batch = dt->get("batch")) p.batch = read_classes(*batch, "batch");
    read_small(root, p);
    read_parallel(root, p);
    p.source = name_;
    return p;
  }

private:
  const std::string &name_;
  const CpuInfo *cpu_;

  // name:line: key: message, without the line when the node (or its position) is unknown.
  std::string where(const toml::node *at) const {
    std::string out = name_;
    if (at && at->source().begin.line) out += ":" + std::to_string(at->source().begin.line);
    return out;
  }

  [[noreturn]] void refuse(const toml::node *at, const std::string &key,
                           const std::string &msg) const {
    throw Refusal{where(at) + ": " + key + ": " + msg};
  }

  // Refuses the first key of `t` (the table at `path`: "" for the root, "dispatch.reuse[0]") that
  // is not in `known`, with the nearest known name: a typo must not silently drop a setting.
  // Tables are named by their dotted path (`dispatch.steam`), other keys by their own name.
  void only_known(const toml::table &t, const std::string &path,
                  std::initializer_list<std::string_view> known) const {
    for (const auto &[key, node] : t) {
      const std::string_view k = key.str();
      if (std::find(known.begin(), known.end(), k) != known.end()) continue;
      const bool table = node.is_table() || node.is_array_of_tables();
      // Suggestions and names leave out an index: `dispatch.reuse[0]` holds plain keys only.
      const std::string prefix = table && !path.empty() ? path + "." : "";
      std::string known_list;
      for (std::string_view n : known)
        known_list += (known_list.empty() ? "" : ", ") + std::string(n);
      const std::string near = nearest_name(k, known);
      refuse(&node, (path.empty() ? "" : path + ".") + quoted(k, 0),
             std::string(table ? "unknown table `" : "unknown key `") + prefix + quoted(k, 0) +
                 "`" +
                 (near.empty() ? " (known here: " + known_list + ")"
                               : "; did you mean `" + prefix + near + "`?"));
    }
  }

  void read_format(const toml::table &root) const {
    const toml::node *f = root.get("format");
    if (!f) refuse(nullptr, "format", "missing: a profile starts with format = 1");
    const auto *i = f->as_integer();
    if (!i) refuse(f, "format", "must be an integer, got " + std::string(type_name(*f)));
    if (i->get() != 1)
      refuse(f, "format",
             "unsupported version " + std::to_string(i->get()) +
                 " (this reader understands format = 1)");
  }

  std::optional<std::string> opt_string(const toml::table &t, const std::string &prefix,
                                        const char *key) const {
    const toml::node *n = t.get(key);
    if (!n) return std::nullopt;
    if (const auto *s = n->as_string()) return s->get();
    refuse(n, prefix + key, "must be a string, got " + std::string(type_name(*n)));
  }

  // CPUID values and cache sizes: integers that cannot be negative.
  std::optional<int64_t> opt_count(const toml::table &t, const std::string &prefix,
                                   const char *key) const {
    const toml::node *n = t.get(key);
    if (!n) return std::nullopt;
    const auto *i = n->as_integer();
    if (!i) refuse(n, prefix + key, "must be an integer, got " + std::string(type_name(*n)));
    if (i->get() < 0)
      refuse(n, prefix + key, "must not be negative, got " + std::to_string(i->get()));
    return i->get();
  }

  uint64_t size(const toml::node &n, const std::string &key) const {
    if (const auto *i = n.as_integer()) {
      if (i->get() < 0) refuse(&n, key, "must not be negative, got " + std::to_string(i->get()));
      return uint64_t(i->get());
    }
    if (const auto *f = n.as_floating_point())
      refuse(&n, key,
             "must be a whole number of bytes, got a float (" + number_text(f->get()) + ")");
    if (const auto *s = n.as_string()) {
      std::string why;
      if (auto v = parse_size_string(s->get(), why)) return *v;
      refuse(&n, key, why);
    }
    refuse(&n, key,
           "must be a size in bytes (an integer, or a string such as \"32KiB\"), got " +
               std::string(type_name(n)));
  }

  ProfileHost read_host(const toml::table &root) const {
    const toml::node *hn = root.get("host");
    if (!hn)
      refuse(nullptr, "host",
             "missing: a profile needs a [host] table (the CPU it was measured on)");
    const toml::table *t = hn->as_table();
    if (!t) refuse(hn, "host", "must be a table, got " + std::string(type_name(*hn)));
    const std::string pre = "host.";
    // `each`: `clearjit choose`'s [[host.each]].
    only_known(*t, "host",
               {"vendor", "brand", "family", "model", "stepping", "features", "l1d", "l2", "l3",
                "hypervisor", "hosts", "each"});
    read_each(*t);
    ProfileHost h;

    auto vendor = opt_string(*t, pre, "vendor");
    if (!vendor)
      refuse(t, "host.vendor", "missing: the CPUID vendor string, e.g. \"AuthenticAMD\"");
    if (vendor->empty()) refuse(t->get("vendor"), "host.vendor", "must not be empty");
    h.vendor = *vendor;
    h.brand = opt_string(*t, pre, "brand").value_or("");
    auto family = opt_count(*t, pre, "family");
    if (!family) refuse(t, "host.family", "missing: the display family, an integer");
    auto model = opt_count(*t, pre, "model");
    if (!model) refuse(t, "host.model", "missing: the display model, an integer");
    h.family = *family;
    h.model = *model;
    h.stepping = opt_count(*t, pre, "stepping").value_or(0);

    if (const toml::node *fn = t->get("features")) {
      const toml::array *a = fn->as_array();
      if (!a)
        refuse(fn, "host.features",
               "must be an array of strings, got " + std::string(type_name(*fn)));
      for (size_t i = 0; i < a->size(); ++i) {
        const toml::node &e = *a->get(i);
        const auto *s = e.as_string();
        if (!s)
          refuse(&e, "host.features[" + std::to_string(i) + "]",
                 "must be a string, got " + std::string(type_name(e)));
        // Unknown feature names are kept: a newer tuner may record features this build lacks.
        h.features.push_back(s->get());
      }
    }
    const std::pair<const char *, int64_t ProfileHost::*> caches[] = {
        {"l1d", &ProfileHost::l1d}, {"l2", &ProfileHost::l2}, {"l3", &ProfileHost::l3}};
    for (auto [key, field] : caches)
      if (const toml::node *n = t->get(key)) {
        const uint64_t v = size(*n, pre + key);
        if (v > uint64_t(INT64_MAX))
          refuse(n, pre + key, "too large: " + std::to_string(v) + " bytes");
        h.*field = int64_t(v);
      }
    if (const toml::node *n = t->get("hypervisor")) {
      const auto *b = n->as_boolean();
      if (!b)
        refuse(n, "host.hypervisor",
               "must be a boolean (true or false), got " + std::string(type_name(*n)));
      h.hypervisor = b->get();
    }
    if (t->get("hosts")) {
      const std::optional<int64_t> hosts = opt_count(*t, pre, "hosts");
      if (!hosts || *hosts < 1) refuse(t->get("hosts"), "host.hosts", "must be 1 or more");
      h.hosts = *hosts;
    }
    return h;
  }

  // [[host.each]] (`clearjit choose`): one table per host whose tune went into the profile, with
  // that file's [host] keys. Informational: only the names of its keys are checked.
  void read_each(const toml::table &host) const {
    const toml::node *n = host.get("each");
    if (!n) return;
    const toml::array *a = n->as_array();
    if (!a || !a->is_array_of_tables())
      refuse(n, "host.each",
             "must be an array of tables ([[host.each]] sections), got " +
                 std::string(type_name(*n)));
    for (size_t i = 0; i < a->size(); ++i) {
      const std::string k = "host.each[" + std::to_string(i) + "]";
      only_known(*a->get(i)->as_table(), k,
                 {"file", "level", "date", "libc", "cpus", "vendor", "family", "model", "stepping",
                  "brand", "features", "l1d", "l2", "l3", "hypervisor", "hosts"});
    }
  }

  // bands = [{ below = <bytes>, strategy = "<name>" }, ...]: the sizes below each band's `below`
  // (from the band before it) cleared by its strategy, the rest up to max by the path's own.
  void read_bands(const toml::node &n, const std::string &k, SmallPath &out) const {
    const toml::array *a = n.as_array();
    if (!a)
      refuse(&n, k,
             "must be an array of tables such as { below = 64, strategy = \"libc\" }, got " +
                 std::string(type_name(n)));
    for (size_t b = 0; b < a->size(); ++b) {
      const toml::node &e = *a->get(b);
      const std::string at = k + "[" + std::to_string(b) + "]";
      const toml::table *bt = e.as_table();
      if (!bt) refuse(&e, at, "must be a table, got " + std::string(type_name(e)));
      only_known(*bt, at, {"below", "strategy"});
      const toml::node *below = bt->get("below");
      if (!below) refuse(bt, at + ".below", "missing: the size the band ends below");
      const uint64_t v = size(*below, at + ".below");
      if (v > out.max)
        refuse(below, at + ".below",
               std::to_string(v) + " is above the path's max (" + std::to_string(out.max) + ")");
      out.bands.push_back({unsigned(v), strategy_of(*bt, at)});
    }
    // Once all are read (a band is checked against the one above it), refused at the band.
    size_t bad = 0;
    if (std::string why = small_bands_error(out, &bad); !why.empty())
      refuse(a->get(bad), k + "[" + std::to_string(bad) + "]", why);
  }

  // A table's `strategy`: a known small-path strategy that this CPU runs (any CPU without one).
  Small strategy_of(const toml::table &t, const std::string &k) const {
    const toml::node *sv = t.get("strategy");
    if (!sv) refuse(&t, k + ".strategy", "missing: the small-path strategy, e.g. \"tree\"");
    const auto *ss = sv->as_string();
    if (!ss) refuse(sv, k + ".strategy", "must be a string, got " + std::string(type_name(*sv)));
    auto strategy = small_by_name(ss->get());
    if (!strategy) {
      std::string names;
      for (const SmallInfo &i : small_strategies())
        names += (names.empty() ? "" : ", ") + std::string(i.name);
      refuse(sv, k + ".strategy",
             "unknown strategy " + quoted(ss->get(), '"') + " (known: " + names + ")");
    }
    if (std::string why = cpu_ ? small_unsupported_reason(*strategy, *cpu_) : ""; !why.empty())
      refuse(sv, k + ".strategy", "cannot run on this CPU: " + why);
    return *strategy;
  }

  // Optional [small.<intent>] tables: strategy = "<name>", max = <bytes>, optional bands. A profile
  // without them (format 1 before the small path was tuned) gets the best default for the CPU.
  void read_small(const toml::table &root, Profile &p) const {
    const toml::node *sn = root.get("small");
    if (!sn) return;
    const toml::table *st = sn->as_table();
    if (!st) refuse(sn, "small", "must be a table, got " + std::string(type_name(*sn)));
    only_known(*st, "small", {"reuse", "stream"});
    for (const auto &[key, node] : *st) {
      const std::string k = "small." + std::string(key.str());
      const toml::table *t = node.as_table();
      if (!t) refuse(&node, k, "must be a table, got " + std::string(type_name(node)));
      only_known(*t, k, {"strategy", "max", "bands"});
      SmallPath out;
      out.strategy = strategy_of(*t, k);
      const toml::node *mv = t->get("max");
      if (!mv) refuse(t, k + ".max", "missing: the largest size the small path clears");
      const uint64_t max = size(*mv, k + ".max");
      if (!valid_small_max(max)) {
        std::string values;
        for (unsigned v : kSmallMaxes)
          values += (values.empty() ? "" : ", ") + std::to_string(v);
        refuse(mv, k + ".max", "must be one of " + values + ", got " + std::to_string(max));
      }
      out.max = unsigned(max);
      if (const toml::node *bn = t->get("bands")) read_bands(*bn, k + ".bands", out);
      (key.str() == "reuse" ? p.small_reuse : p.small_stream) = out;
    }
  }

  // Optional [parallel]: cpus = <count>, and [parallel.<intent>] tables: from = <bytes>,
  // sizes = [<bytes>...], threads = [<count>...], speedup = [<ratio>...].
  void read_parallel(const toml::table &root, Profile &p) const {
    const toml::node *pn = root.get("parallel");
    if (!pn) return;
    const toml::table *pt = pn->as_table();
    if (!pt) refuse(pn, "parallel", "must be a table, got " + std::string(type_name(*pn)));
    only_known(*pt, "parallel", {"cpus", "reuse", "stream"});
    for (const auto &[key, node] : *pt) {
      const std::string k = "parallel." + std::string(key.str());
      if (key.str() == "cpus")
        p.parallel_cpus = unsigned(count_in(node, k, 1, kMaxThreads));
      else
        (key.str() == "reuse" ? p.parallel_reuse : p.parallel_stream) = parallel_table(node, k);
    }
  }

  // An integer in [lo, hi].
  int64_t count_in(const toml::node &n, const std::string &key, int64_t lo, int64_t hi) const {
    const auto *i = n.as_integer();
    if (!i) refuse(&n, key, "must be an integer, got " + std::string(type_name(n)));
    if (i->get() < lo || i->get() > hi)
      refuse(&n, key,
             "must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                 std::to_string(i->get()));
    return i->get();
  }

  // An array of at most kMaxParallelSizes values, one per size when `length` is set.
  const toml::array &bounded_array(const toml::table &t, const std::string &k, const char *name,
                                   std::optional<size_t> length) const {
    const toml::node *n = t.get(name);
    if (!n) refuse(&t, k + "." + name, "missing");
    const toml::array *a = n->as_array();
    if (!a) refuse(n, k + "." + name, "must be an array, got " + std::string(type_name(*n)));
    if (a->size() > kMaxParallelSizes)
      refuse(n, k + "." + name,
             "has " + std::to_string(a->size()) + " entries, more than the " +
                 std::to_string(kMaxParallelSizes) + " a table may have");
    if (length && a->size() != *length)
      refuse(n, k + "." + name,
             "has " + std::to_string(a->size()) + " entries, one per size needs " +
                 std::to_string(*length));
    return *a;
  }

  ParallelTable parallel_table(const toml::node &node, const std::string &k) const {
    const toml::table *t = node.as_table();
    if (!t) refuse(&node, k, "must be a table, got " + std::string(type_name(node)));
    only_known(*t, k, {"from", "sizes", "threads", "speedup"});
    ParallelTable out;
    const toml::array &sizes = bounded_array(*t, k, "sizes", std::nullopt);
    if (sizes.empty()) refuse(&sizes, k + ".sizes", "is empty: it needs at least one size");
    for (size_t i = 0; i < sizes.size(); ++i) {
      const std::string ik = k + ".sizes[" + std::to_string(i) + "]";
      const uint64_t v = size(*sizes.get(i), ik);
      if (v == 0) refuse(sizes.get(i), ik, "must be at least 1, got 0");
      if (i > 0 && v <= out.sizes.back())
        refuse(sizes.get(i), ik,
               "must be greater than the size before it (" + std::to_string(out.sizes.back()) +
                   "), got " + std::to_string(v));
      out.sizes.push_back(v);
    }
    const toml::array &threads = bounded_array(*t, k, "threads", sizes.size());
    for (size_t i = 0; i < threads.size(); ++i)
      out.threads.push_back(unsigned(
          count_in(*threads.get(i), k + ".threads[" + std::to_string(i) + "]", 1, kMaxThreads)));
    if (t->get("speedup")) {
      const toml::array &speedup = bounded_array(*t, k, "speedup", sizes.size());
      for (size_t i = 0; i < speedup.size(); ++i) {
        const toml::node &g = *speedup.get(i);
        auto v = g.value<double>();
        if (!v || !(g.is_integer() || g.is_floating_point()) || !std::isfinite(*v) || *v < 0 ||
            *v > kMaxSpeedup)
          refuse(&g, k + ".speedup[" + std::to_string(i) + "]",
                 "must be a number 0.." + std::to_string(int(kMaxSpeedup)) + ", got " +
                     (v ? number_text(*v) : std::string(type_name(g))));
        out.speedup.push_back(*v);
      }
    }
    // `from` says in one word what the arrays say: it must agree with them.
    const toml::node *from = t->get("from");
    const uint64_t first = out.from();
    if (first && !from)
      refuse(t, k + ".from",
             "missing: the first size with more than one thread (" + std::to_string(first) + ")");
    if (from && (!first || size(*from, k + ".from") != first))
      refuse(from, k + ".from",
             first
                 ? "must be " + std::to_string(first) + ", the first size with more than one thread"
                 : std::string("must be left out: every size has one thread"));
    return out;
  }

  // A class's kernel spec (`kernel` or `stand_in`): valid, runnable here, fenced if non-temporal.
  Spec kernel(const toml::node &kn, const std::string &key) const {
    const auto *ks = kn.as_string();
    if (!ks)
      refuse(&kn, key, "must be a string (a kernel spec), got " + std::string(type_name(kn)));
    const std::string spec_text = quoted(ks->get(), '"');
    auto spec = parse_spec(ks->get());
    if (!spec) refuse(&kn, key, "invalid kernel spec " + spec_text + ": " + spec.error);
    if (std::string why = cpu_ ? unsupported_reason(*spec, *cpu_) : ""; !why.empty())
      refuse(&kn, key, "kernel " + spec_text + " cannot run on this CPU: " + why);
    if (spec->info().nontemporal && spec->fence == Fence::none)
      refuse(&kn, key,
             "kernel " + spec_text +
                 " is non-temporal with fence=none, which is for measurement "
                 "only (without an sfence its weakly ordered stores may land after later ones); "
                 "use fence=end or fence=chunk");
    return *spec;
  }

  // [tuning] libc: the C library whose memset the tuner raced against, "" when not recorded.
  // The rest of [tuning] is free; this key is read, so it is checked.
  std::string read_libc(const toml::table &root) const {
    const toml::node *n = root["tuning"]["libc"].node();
    if (!n) return "";
    const auto *s = n->as_string();
    if (!s)
      refuse(n, "tuning.libc",
             "must be a string such as \"glibc 2.41\", got " + std::string(type_name(*n)));
    const std::string &v = s->get();
    if (!valid_libc_name(v))
      refuse(n, "tuning.libc",
             "must be a C library's name such as \"glibc 2.41\": 1.." +
                 std::to_string(kMaxLibcName) + " printable ASCII characters");
    return v;
  }

  std::vector<SizeClass> read_classes(const toml::node &n, const std::string &intent) const {
    const std::string key = "dispatch." + intent;
    const toml::array *a = n.as_array();
    if (a && a->empty())
      refuse(
          &n, key,
          "has no classes: it needs at least one [[" + key + "]] table" +
              (intent == "stream" ? " (or leave dispatch.stream out to use dispatch.reuse)" : ""));
    if (!a || !a->is_array_of_tables())
      refuse(&n, key,
             "must be an array of tables ([[" + key + "]] sections), got " +
                 std::string(type_name(n)) + (a ? " holding other values" : ""));

    if (a->size() > kMaxClasses)
      refuse(&n, key,
             "has " + std::to_string(a->size()) + " classes, more than the " +
                 std::to_string(kMaxClasses) + " a profile may have");

    std::vector<SizeClass> out;
    uint64_t prev = 0;
    for (size_t i = 0; i < a->size(); ++i) {
      const toml::table &t = *a->get(i)->as_table();
      const std::string ck = key + "[" + std::to_string(i) + "]";
      const bool last = i + 1 == a->size();
      SizeClass c;
      only_known(t, ck, {"below", "kernel", "stand_in", "gbps", "gain", "states"});

      const toml::node *below = t.get("below");
      if (last && below)
        refuse(below, ck + ".below",
               "must be left out on the last class, which takes every larger size");
      if (!last) {
        if (!below)
          refuse(&t, ck + ".below",
                 "missing: every class but the last needs an exclusive upper bound in bytes");
        c.below = size(*below, ck + ".below");
        if (i == 0 && c.below == 0) refuse(below, ck + ".below", "must be at least 1, got 0");
        if (i > 0 && c.below <= prev)
          refuse(below, ck + ".below",
                 "must be greater than the previous class's below (" + std::to_string(prev) +
                     "), got " + std::to_string(c.below));
        prev = c.below;
      }

      const toml::node *kn = t.get("kernel");
      if (!kn)
        refuse(&t, ck + ".kernel",
               "missing: each class needs a kernel spec, e.g. \"avx2:unroll=4\"");
      c.kernel = kernel(*kn, ck + ".kernel");
      if (const toml::node *sn = t.get("stand_in")) {
        if (c.kernel.method != Method::libc)
          refuse(sn, ck + ".stand_in",
                 "must be left out: only a memset (libc) class has a stand-in, this class's kernel "
                 "is " +
                     quoted(format_spec(c.kernel), '"'));
        c.stand_in = kernel(*sn, ck + ".stand_in");
        if (c.stand_in->method == Method::libc)
          refuse(sn, ck + ".stand_in",
                 "must be a generated kernel, not libc: it serves the class where the running C "
                 "library is not the one the profile was tuned under");
        if (c.stand_in->untouched != Untouched::write)
          refuse(sn, ck + ".stand_in",
                 "takes no untouched option: the class's kernel says whether its untouched pages "
                 "are written, and its stand-in follows it");
      }

      // Informational numbers: integers are accepted too.
      for (auto [key, to] : {std::pair{"gbps", &c.gbps}, {"gain", &c.gain}})
        if (const toml::node *g = t.get(key)) {
          auto v = g->value<double>();
          if (!v || !(g->is_integer() || g->is_floating_point()))
            refuse(g, ck + "." + key, "must be a number, got " + std::string(type_name(*g)));
          if (!std::isfinite(*v) || *v < 0)
            refuse(g, ck + "." + key, "must be a finite number >= 0, got " + number_text(*v));
          *to = *v;
        }
      if (const toml::node *st = t.get("states")) {
        const toml::array *a = st->as_array();
        if (!a || a->size() > 8)
          refuse(st, ck + ".states", "must be an array of at most 8 destination states");
        for (const toml::node &e : *a) {
          const auto *name = e.as_string();
          if (!name || name->get().size() > 16)
            refuse(&e, ck + ".states", "must hold state names (scattered, consecutive, hot)");
          c.states.push_back(name->get());
        }
      }
      append_class(out, std::move(c));
    }
    return out;
  }
};

} // namespace

ProfileHost profile_host(const CpuInfo &cpu) {
  ProfileHost h;
  h.vendor = cpu.vendor;
  h.brand = cpu.brand;
  h.family = cpu.family;
  h.model = cpu.model;
  h.stepping = cpu.stepping;
  for (size_t f = size_t(Feature::none) + 1; f < size_t(Feature::count_); ++f)
    if (cpu.has(Feature(f))) h.features.emplace_back(feature_key(Feature(f)));
  std::sort(h.features.begin(), h.features.end());
  h.l1d = int64_t(cpu.l1d.size);
  h.l2 = int64_t(cpu.l2.size);
  h.l3 = int64_t(cpu.l3.size);
  h.hypervisor = cpu.hypervisor;
  return h;
}

bool valid_libc_name(std::string_view name) {
  return !name.empty() && name.size() <= kMaxLibcName &&
         std::all_of(name.begin(), name.end(), [](char c) { return c >= ' ' && c <= '~'; });
}

bool same_cpu(const ProfileHost &host, const CpuInfo &cpu) {
  return host.vendor == cpu.vendor && host.family == int64_t(cpu.family) &&
         host.model == int64_t(cpu.model);
}

std::string other_cpu_text(const ProfileHost &h) {
  return h.vendor + " family " + std::to_string(h.family) + " model " + std::to_string(h.model);
}

std::optional<RecordedVerification> recorded_verification(std::string_view text) {
  try {
    if (!toml_guard(text, "profile").empty()) return std::nullopt;
    const toml::table root = toml::parse(text);
    const toml::table *t = root["verification"].as_table();
    if (!t) return std::nullopt;
    RecordedVerification v;
    v.measured = t->get("measured") ? t->get("measured")->value_or(std::string()) : "";
    for (auto [key, to] :
         {std::pair{"repaired", &v.repaired}, {"left", &v.left}, {"noise", &v.noise}})
      if (const toml::array *a = t->get(key) ? t->get(key)->as_array() : nullptr)
        for (const toml::node &e : *a)
          if (const auto *s = e.as_string()) to->push_back(s->get());
    return v;
  } catch (...) { // not TOML, or out of memory: nothing to report
    return std::nullopt;
  }
}

std::string recorded_libc(std::string_view text) {
  try {
    if (!toml_guard(text, "profile").empty()) return {};
    const toml::table root = toml::parse(text);
    // The verification measured last, where it ran (`clearjit verify -o` on a tuned profile).
    for (const char *table : {"verification", "tuning"})
      if (auto libc = root[table]["libc"].value<std::string>()) return *libc;
  } catch (...) { // not TOML, or out of memory: nothing recorded
  }
  return {};
}

uint64_t ParallelTable::from() const {
  for (size_t i = 0; i < sizes.size() && i < threads.size(); ++i)
    if (threads[i] > 1) return sizes[i];
  return 0;
}

unsigned ParallelTable::at(uint64_t n) const {
  unsigned count = 1;
  for (size_t i = 0; i < sizes.size() && i < threads.size() && sizes[i] <= n; ++i)
    count = threads[i];
  return count;
}

namespace {

Result<Profile> parse(std::string_view text, const std::string &name, const CpuInfo *cpu) {
  using R = Result<Profile>;
  try {
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }))
      return R::fail(name + ": empty file: expected a TOML profile starting with format = 1");
    if (std::string why = toml_guard(text, name); !why.empty()) return R::fail(why);
    toml::table root;
    try {
      root = toml::parse(text, std::string_view(name));
    } catch (const toml::parse_error &e) {
      const auto &pos = e.source().begin;
      return R::fail(name + ":" + std::to_string(pos.line) + ": not valid TOML: " +
                     std::string(e.description()) + " (column " + std::to_string(pos.column) + ")");
    }
    return {Reader(name, cpu).read(root), {}};
  } catch (const Refusal &r) {
    return R::fail(r.message);
  } catch (const std::exception &e) {
    return R::fail(name + ": cannot read the profile: " + e.what());
  } catch (...) {
    return R::fail(name + ": cannot read the profile: unknown error");
  }
}

Result<Profile> load(const std::string &path, const CpuInfo *cpu, bool allow_pipe) {
  using R = Result<Profile>;
  try {
    ReadLimits limits;
    limits.max_bytes = kMaxFileBytes;
    limits.allow_pipe = allow_pipe;
    auto text = read_small_file(path, limits);
    if (!text) return R::fail(text.error);
    return parse(*text, path, cpu);
  } catch (const std::exception &e) {
    return R::fail(path + ": cannot read the profile: " + e.what());
  } catch (...) {
    return R::fail(path + ": cannot read the profile: unknown error");
  }
}

} // namespace

Result<Profile> parse_profile(std::string_view text, const std::string &name, const CpuInfo &cpu) {
  return parse(text, name, &cpu);
}

Result<Profile> load_profile(const std::string &path, const CpuInfo &cpu, bool allow_pipe) {
  return load(path, &cpu, allow_pipe);
}

Result<Profile> load_profile_for_any_cpu(const std::string &path) {
  return load(path, nullptr, /*allow_pipe=*/false);
}

std::string missing_features(const Profile &p, const CpuInfo &cpu) {
  auto lacks = [&](Feature f, const std::string &what) {
    return "needs " + std::string(feature_name(f)) + ", which this CPU lacks (" + what + ")";
  };
  for (Intent i : kIntents)
    if (const std::optional<SmallPath> &s = i == Intent::reuse ? p.small_reuse : p.small_stream)
      for (Small strategy : strategies_of(*s))
        for (Feature f : info(strategy).needs)
          if (!cpu.has(f))
            return lacks(f, "small." + std::string(intent_name(i)) + ": " +
                                std::string(info(strategy).name));
  const std::pair<const char *, const std::vector<SizeClass> *> tables[] = {
      {"reuse", &p.reuse}, {"stream", &p.stream}, {"batch", &p.batch}};
  for (const auto &[name, table] : tables)
    for (const SizeClass &c : *table)
      for (const Spec *k : {&c.kernel, c.stand_in ? &*c.stand_in : nullptr})
        if (k && !cpu.has(k->info().feature))
          return lacks(k->info().feature, "dispatch." + std::string(name) + ": " + format_spec(*k));
  return "";
}

// `bands = [...]` of a small path with bands, one line; "" without.
static std::string small_bands_toml(const SmallPath &s) {
  if (s.bands.empty()) return "";
  std::string t = "bands = [";
  for (size_t k = 0; k < s.bands.size(); ++k)
    t += (k ? ", " : "") + std::string("{ below = ") + std::to_string(s.bands[k].below) +
         ", strategy = " + toml_string(info(s.bands[k].strategy).name) + " }";
  return t + "]\n";
}

std::string format_host(const ProfileHost &h) {
  std::ostringstream t;
  t << "vendor = " << toml_string(h.vendor) << "\n"
    << "family = " << h.family << "\nmodel = " << h.model << "\nstepping = " << h.stepping << "\n"
    << "brand = " << toml_string(h.brand) << "\nfeatures = [";
  for (size_t i = 0; i < h.features.size(); ++i)
    t << (i ? ", " : "") << toml_string(h.features[i]);
  t << "]\nl1d = " << h.l1d << "\nl2 = " << h.l2 << "\nl3 = " << h.l3
    << "\nhypervisor = " << (h.hypervisor ? "true" : "false") << "\n";
  if (h.hosts > 1) t << "hosts = " << h.hosts << "\n";
  return t.str();
}

std::string format_profile(const Profile &p, const ProfileAnnotations &annotations) {
  std::ostringstream t;
  t << "# clearjit profile: which kernel clears each size fastest on this CPU.\n"
    << annotations.comments << "format = 1\n\n[host]\n"
    << format_host(p.host) << annotations.host;
  if (!p.libc.empty() || !annotations.tuning.empty()) {
    t << "\n[tuning]\n";
    if (!p.libc.empty()) t << "libc = " << toml_string(p.libc) << "\n";
    t << annotations.tuning;
  }
  t << annotations.tables;
  for (Intent i : kIntents)
    if (const std::optional<SmallPath> &s = i == Intent::reuse ? p.small_reuse : p.small_stream)
      t << "\n[small." << intent_name(i) << "]\nstrategy = " << toml_string(info(s->strategy).name)
        << "\nmax = " << s->max << "\n"
        << small_bands_toml(*s);
  if (p.parallel_reuse || p.parallel_stream || p.parallel_cpus) {
    t << "\n[parallel]\n";
    if (p.parallel_cpus) t << "cpus = " << p.parallel_cpus << "\n";
  }
  for (Intent i : kIntents)
    if (const std::optional<ParallelTable> &pt =
            i == Intent::reuse ? p.parallel_reuse : p.parallel_stream) {
      t << "\n[parallel." << intent_name(i) << "]\n";
      if (uint64_t from = pt->from()) t << "from = " << from << "\n";
      auto list = [&](const char *key, const auto &values, auto text) {
        t << key << " = [";
        for (size_t k = 0; k < values.size(); ++k)
          t << (k ? ", " : "") << text(values[k]);
        t << "]\n";
      };
      list("sizes", pt->sizes, [](uint64_t v) { return std::to_string(v); });
      list("threads", pt->threads, [](unsigned v) { return std::to_string(v); });
      if (!pt->speedup.empty())
        list("speedup", pt->speedup, [](double v) {
          char b[32];
          std::snprintf(b, sizeof b, "%.2f", v);
          return std::string(b);
        });
    }
  const std::pair<const char *, const std::vector<SizeClass> *> tables[] = {
      {"reuse", &p.reuse}, {"stream", &p.stream}, {"batch", &p.batch}};
  for (const auto &[name, table] : tables)
    for (const SizeClass &c : *table) {
      t << "\n[[dispatch." << name << "]]\n";
      if (c.below) t << "below = " << c.below << "\n";
      t << "kernel = " << toml_string(format_spec(c.kernel)) << "\n";
      if (c.stand_in) t << "stand_in = " << toml_string(format_spec(*c.stand_in)) << "\n";
      t << "gbps = " << gbps_text(c.gbps) << "\n";
      if (c.gain > 0) {
        char g[32];
        std::snprintf(g, sizeof g, "%.2f", c.gain);
        t << "gain = " << g << "\nstates = [";
        for (size_t k = 0; k < c.states.size(); ++k)
          t << (k ? ", " : "") << toml_string(c.states[k]);
        t << "]\n";
      }
    }
  return t.str();
}

} // namespace cjit::detail
