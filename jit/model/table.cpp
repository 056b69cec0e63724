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

const SizeClass &class_for(const std::vector<SizeClass> &table, uint64_t n) {
  // The last class is unbounded whatever its below says.
  for (size_t i = 0; i + 1 < table.size(); ++i)
    if (n < table[i].below) return table[i];
  return table.back();
}

} // namespace cjit::detail
