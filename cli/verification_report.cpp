#include "verification_report.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

namespace cjit::detail {

std::string verification_report(const std::optional<RecordedVerification> &v,
                                const ProfileHost &host, const CpuInfo &cpu) {
  if (!v) return "";
  std::string where;
  if (!same_cpu(host, cpu)) {
    where = "verified on " + other_cpu_text(host) + ", not on this CPU (" +
            other_cpu_text(profile_host(cpu)) + "): `clearjit verify` measures it here";
  } else {
    // The same model with other features exposed (a hypervisor hiding AVX-512) ran other
    // kernels and small paths in its races.
    std::vector<std::string> mine = profile_host(cpu).features, theirs = host.features, lacks, adds;
    std::sort(theirs.begin(), theirs.end()); // sorted as written by the tuner, maybe not by hand
    std::set_difference(theirs.begin(), theirs.end(), mine.begin(), mine.end(),
                        std::back_inserter(lacks));
    std::set_difference(mine.begin(), mine.end(), theirs.begin(), theirs.end(),
                        std::back_inserter(adds));
    auto list = [](const std::vector<std::string> &names) {
      std::string out;
      for (const std::string &n : names)
        out += (out.empty() ? "" : " ") + n;
      return out;
    };
    where = "verified on this CPU model (" + other_cpu_text(host) + ")";
    if (host.features.empty())
      where += "; its [host] lists no features to compare";
    else if (!lacks.empty() || !adds.empty())
      where += ", with other features: this CPU " +
               (lacks.empty() ? "" : "lacks " + list(lacks) + (adds.empty() ? "" : " and ")) +
               (adds.empty() ? "" : "has " + list(adds) + " besides");
  }
  const std::string repaired =
      v->repaired.empty() ? "" : " (" + std::to_string(v->repaired.size()) + " repaired)";
  std::string out = "verification: " + where + "\nverification: ";
  if (v->left.empty())
    out += "no loss to memset left" + repaired + "\n";
  else
    out += std::to_string(v->left.size()) + (v->left.size() == 1 ? " loss" : " losses") +
           " to memset left" + repaired + ":\n";
  for (const std::string &l : v->left)
    out += "  " + l + "\n";
  if (!v->noise.empty())
    out += "verification: " + std::to_string(v->noise.size()) +
           (v->noise.size() == 1 ? " point" : " points") +
           " measured below memset, inside memset's own noise there (not counted)\n";
  return out;
}

} // namespace cjit::detail
