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
      if (!c.stand_in) {
        r.lacking.push_back(range);
      } else if (r.other_libc) {
        c.kernel = *c.stand_in;
        c.stand_in.reset(); // the class is the stand-in's now, not memset's
        r.routed.push_back(range + ": " + format_spec(c.kernel));
      }
    }
  }
  const std::string lacking = joined(r.lacking);
  const std::string again = ": `clearjit tune`, or `clearjit choose` on its raw file, writes them";
  if (r.other_libc) {
    r.note = "measured against " + p.libc + "'s memset, this process runs " + std::string(running);
    if (!r.routed.empty())
      r.note += ": memset's classes run their stand-ins (" + joined(r.routed) + ")";
    if (!r.lacking.empty())
      r.note += std::string(r.routed.empty() ? ":" : ";") +
                " memset's classes without a stand-in (" + lacking +
                ") call this process's memset, which the profile was not measured against" + again;
  } else if (!r.lacking.empty()) {
    r.note = "memset's classes have no stand-in (" + lacking + "), so under " +
             (p.libc.empty() ? std::string("any C library they call its memset, and the profile "
                                           "does not record which it was measured against")
                             : "another C library than " + p.libc + " they call its memset") +
             again;
  }
  return r;
}

} // namespace cjit::detail
