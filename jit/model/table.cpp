#include "jit/model/table.hpp"

#include <algorithm>

namespace cjit::detail {

std::string_view intent_name(Intent i) {
  switch (i) {
  case Intent::reuse: return "reuse";
  case Intent::stream: return "stream";
  }
  return "unknown";
}

void append_class(std::vector<SizeClass> &table, SizeClass c) {
  if (!table.empty() && table.back().kernel == c.kernel && table.back().stand_in == c.stand_in) {
    // One class: the bound that holds over both, in the states where both held.
    SizeClass &last = table.back();
    last.below = c.below;
    last.gain = std::min(last.gain, c.gain);
    std::erase_if(last.states, [&](const std::string &st) {
      return std::find(c.states.begin(), c.states.end(), st) == c.states.end();
    });
  } else
    table.push_back(std::move(c));
}

bool leave_untouched_from(std::vector<SizeClass> &table, uint64_t size) {
  uint64_t lower = 0;
  for (const SizeClass &c : table) { // the class holding `size` splits where it starts below
    if ((c.below == 0 || c.below > size) && c.kernel.untouched != Untouched::skip && lower < size &&
        table.size() >= kMaxClasses)
      return false;
    if (c.below == 0 || c.below > size) break;
    lower = c.below;
  }
  lower = 0;
  for (size_t k = 0; k < table.size(); ++k) {
    SizeClass &c = table[k];
    const bool above = c.below == 0 || c.below > size;
    if (above && c.kernel.untouched != Untouched::skip) {
      if (lower < size) { // [lower, size) keeps writing
        SizeClass below = c;
        below.below = size;
        table.insert(table.begin() + ptrdiff_t(k), below);
        ++k;
      }
      table[k].kernel.untouched = Untouched::skip;
    }
    lower = table[k].below;
  }
  return true;
}

bool write_untouched(std::vector<SizeClass> &table) {
  bool any = false;
  for (SizeClass &c : table) {
    any = any || c.kernel.untouched == Untouched::skip;
    c.kernel.untouched = Untouched::write;
  }
  return any;
}

const SizeClass &class_for(const std::vector<SizeClass> &table, uint64_t n) {
  // The last class is unbounded whatever its below says.
  for (size_t i = 0; i + 1 < table.size(); ++i)
    if (n < table[i].below) return table[i];
  return table.back();
}

} // namespace cjit::detail
