#include "jit/profile/stand_ins.hpp"

#include "jit/model/size.hpp"

#include <gnu/libc-version.h>

namespace cjit::detail {

const std::string &running_libc() {
  static const std::string name = std::string("glibc ") + gnu_get_libc_version();
  return name;
}

namespace {

std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &s : items)
    out += (out.empty() ? "" : "; ") + s;
  return out;
}

} // namespace

StandInRouting route_to_stand_ins(Profile &p, std::string_view running) {
  StandInRouting r;
  bool has_stand_in = false;
  r.other_libc = !p.libc.empty() && p.libc != running;
  const std::pair<const char *, std::vector<SizeClass> *> tables[] = {
      {"reuse", &p.reuse}, {"stream", &p.stream}, {"batch", &p.batch}};
  for (auto &[name, table] : tables) {
    uint64_t lower = 0;
    for (SizeClass &c : *table) {
      const std::string range = std::string(name) + " " + human_bytes(lower) + " .. " +
                                (c.below ? human_bytes(c.below) : std::string("up"));
      lower = c.below;
      if (c.kernel.method != Method::libc) continue;
      has_stand_in = has_stand_in || c.stand_in;
      if (!c.stand_in) {
        r.lacking.push_back(range);
      } else if (r.other_libc) {
        const Untouched untouched = c.kernel.untouched; // the class's, whoever writes
        c.kernel = *c.stand_in;
        c.kernel.untouched = untouched;
        c.stand_in.reset(); // the class is the stand-in's now, not memset's
        r.routed.push_back(range + ": " + format_spec(c.kernel));
      }
    }
  }
  if (r.other_libc) {
    r.note = "tuned against " + p.libc + "'s memset, this process runs " + std::string(running);
    if (!r.routed.empty())
      r.note += ": memset's classes run their stand-ins (" + joined(r.routed) + ")";
    if (!r.lacking.empty())
      r.note += std::string(r.routed.empty() ? ":" : ";") +
                " memset's classes without one call this process's memset (" + joined(r.lacking) +
                ")";
  } else if (p.libc.empty() && !r.lacking.empty()) {
    // A profile from before [tuning] libc: nothing routes, and the step (if any) is memset's.
    r.note = "the profile does not record the C library it was measured against ([tuning] libc), "
             "so its memset classes (" +
             joined(r.lacking) +
             ") call whatever memset runs, also past a no-allocate step that memset takes under "
             "one C library and not another: `clearjit tune`, or `clearjit choose` on its raw "
             "file, records both";
  }
  if (p.libc.empty() && has_stand_in)
    r.note += std::string(r.note.empty() ? "" : "; ") +
              "the profile records no C library ([tuning] libc), so its stand-ins never run";
  return r;
}

} // namespace cjit::detail
