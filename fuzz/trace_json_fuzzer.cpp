// libFuzzer target for the trace reader (`clearjit bench --mix FILE`): any bytes must give a
// histogram or an error naming the file, never a crash, a leak or undefined behaviour; a histogram
// read must come back the same through histogram_json.
#include "tuner/formats/trace_format.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace cjit::detail;
  auto h = histogram_from_json(std::string_view(reinterpret_cast<const char *>(data), size),
                               "fuzz.json");
  if (!h) {
    if (!std::string_view(h.error).starts_with("fuzz.json: ")) __builtin_trap();
    return 0;
  }
  (void)histogram_text(*h);
  auto again = histogram_from_json(histogram_json(*h, {"fuzz", "\xff"}), "again.json");
  if (!again || again->processes != h->processes || again->fill_calls != h->fill_calls ||
      again->fill_bytes != h->fill_bytes)
    __builtin_trap();
  for (int k = 0; k < Histogram::kOctaves; ++k)
    if (again->calls[k] != h->calls[k] || again->bytes[k] != h->bytes[k]) __builtin_trap();
  return 0;
}
