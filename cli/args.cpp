// What the commands share: sizes as users type them, pass-through flags, shell quoting.
#include "commands.hpp"

#include "jit/model/size.hpp"
#include "tuner/measure/measure.hpp"

#include <unistd.h>

#include <fstream>
#include <iostream>

namespace cjit::cli {

using namespace cjit::detail;

std::optional<uint64_t> parse_size_arg(const std::string &t, std::string &why) {
  return parse_size(t, &why);
}

bool only_benchmark_flags(const char *command, const std::vector<std::string> &extras) {
  for (const std::string &e : extras)
    if (e.rfind("--benchmark_", 0) != 0) {
      std::cerr << "clearjit " << command << ": unexpected argument '" << e << "' (see --help)\n";
      return false;
    }
  if (std::string e = benchmark_flags_error(extras); !e.empty()) {
    std::cerr << "clearjit " << command << ": " << e << "\n";
    return false;
  }
  return true;
}

std::string shell_word(const std::string &arg) {
  bool plain =
      !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                                            "VWXYZ0123456789-_=./,:+@%") == std::string::npos;
  if (plain) return arg;
  std::string q = "'";
  for (char c : arg)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return uint64_t(sysconf(_SC_AVPHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
}

} // namespace cjit::cli
