// `clearjit bench`: a profile against memset and every kernel, the studies, a recorded trace.
#include "commands.hpp"

#include "jit/model/cpu.hpp"
#include "jit/model/spec.hpp"
#include "jit/profile/files.hpp"
#include "jit/runtime/runtime.hpp"
#include "tuner/bench/bench.hpp"
#include "tuner/bench/mix.hpp"
#include "tuner/bench/seeds.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

namespace cjit::cli {

using namespace cjit::detail;

namespace {

// `clearjit bench --mix FILE`: memset against the dispatcher on a recorded trace's sizes.
int cmd_bench_mix(const BenchArgs &a) {
  auto text = read_small_file(a.mix, {.max_bytes = kTraceJsonMaxBytes, .what = "a trace file"});
  if (!text) {
    std::cerr << "clearjit bench --mix: " << text.error << "\n";
    return 2;
  }
  auto h = histogram_from_json(*text, a.mix);
  if (!h) {
    std::cerr << "clearjit bench --mix: " << h.error
              << " (write one with clearjit trace --json FILE -- PROGRAM)\n";
    return 2;
  }
  char err[512];
  std::unique_ptr<clearjit, void (*)(clearjit *)> cj(
      clearjit_open(a.profile.empty() ? nullptr : a.profile.c_str(), err, sizeof err),
      clearjit_close);
  if (!cj) {
    std::cerr << "clearjit bench --mix: " << err << "\n";
    return 2;
  }
  try {
    const CpuInfo &cpu = host_cpu();
    MixResult r = measure_mix(*h, cj.get(), cpu.l2_bytes(), cpu.l3_bytes(), a.repetitions);
    r.preload_min = kPreloadMin;
    std::cout << histogram_text(*h) << "\n" << mix_text(r);
  } catch (const std::exception &e) {
    std::cerr << "clearjit bench --mix: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

// --sizes: sizes of at least 1 that the destination arena can hold within `cap`, comma-separated;
// false (said on stderr) for anything else.
bool parse_sizes(const std::string &text, uint64_t cap, std::vector<uint64_t> &sizes) {
  auto usage = [](const std::string &why) {
    std::cerr << "clearjit bench: --sizes: " << why << "\n";
    return false;
  };
  if (text.empty()) return usage("empty; give sizes like 8,4K,1GiB");
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    std::string why;
    auto v = parse_size_arg(item, why);
    if (!v) return usage("'" + quoted(item, 0) + "' is not a size: " + why);
    if (*v == 0) return usage("sizes must be at least 1, got '" + quoted(item, 0) + "'");
    if (*v > cap)
      return usage(quoted(item, 0) + " is more than a quarter of the available memory (" +
                   human_bytes(cap) + "), which the destination arena may use");
    sizes.push_back(*v);
  }
  if (!text.empty() && text.back() == ',') return usage("a trailing comma");
  return true;
}

// The sizes to measure: only the warm ones with --warm-only, else --sizes where given, else the
// README's that fit. False (said on stderr) for a usage error.
bool choose_sizes(const BenchArgs &a, BenchOptions &o) {
  // The destination arena holds the largest size: keep it within a quarter of free memory.
  const uint64_t cap = available_memory() / 4;
  if (a.warm_only) {
    if (a.sizes) {
      std::cerr << "clearjit bench: --warm-only measures its own sizes; leave out --sizes\n";
      return false;
    }
    o.batch_sizes.clear(); // warm rows only
    return true;
  }
  if (a.sizes) return parse_sizes(*a.sizes, cap, o.sizes);
  for (uint64_t size : default_bench_sizes())
    if (size <= cap)
      o.sizes.push_back(size);
    else
      std::cerr << "clearjit bench: skipping " << format_size(size)
                << " (more than a quarter of available memory)\n";
  return true;
}

// The run's options from the arguments; none (said on stderr) for a usage error.
std::optional<BenchOptions> bench_options(const BenchArgs &a,
                                          const std::vector<std::string> &extras) {
  BenchOptions o;
  o.profile = a.profile;
  o.repetitions = a.repetitions;
  if (!only_benchmark_flags("bench", extras)) return std::nullopt;
  o.benchmark_flags = extras;
  if (a.intent == "reuse")
    o.intents = {Intent::reuse};
  else if (a.intent == "stream")
    o.intents = {Intent::stream};
  else if (a.intent != "both") {
    std::cerr << "clearjit bench: --intent must be reuse, stream or both, got '" << a.intent
              << "'\n";
    return std::nullopt;
  }
  o.warm = !a.no_warm;
  if (a.warm_only && a.no_warm) {
    std::cerr << "clearjit bench: --warm-only and --no-warm exclude each other\n";
    return std::nullopt;
  }
  if (!choose_sizes(a, o)) return std::nullopt;
  return o;
}

// The output files can be written and PROFILE opens: what is the invocation's to get wrong (2),
// said before any measuring. False (said on stderr) where not.
bool outputs_and_profile_usable(const BenchArgs &a) {
  for (const std::string &path : {a.json, a.markdown})
    if (!path.empty())
      if (std::string e = check_output_path(path); !e.empty()) {
        std::cerr << "clearjit bench: " << e << "\n";
        return false;
      }
  if (!a.profile.empty()) {
    char err[512];
    clearjit *cj = clearjit_open(a.profile.c_str(), err, sizeof err);
    if (!cj) {
      std::cerr << "clearjit bench: " << err << "\n";
      return false;
    }
    clearjit_close(cj);
  }
  return true;
}

// Measures what the arguments ask (a study, or the rows), prints it and writes --json and
// --markdown: 0; 1 where measuring failed, 2 where a file could not be written.
int measure_and_write(const BenchArgs &a, const BenchOptions &o) {
  try {
    const CpuInfo &cpu = host_cpu();
    if (a.seeds) {
      std::cout << run_seeds(cpu, o);
      return 0;
    }
    if (a.small) {
      std::cout << small_study(cpu, o);
      return 0;
    }
    BenchResult r = run_bench(o, cpu);
    std::cout << bench_text(r);
    if (!a.json.empty()) {
      if (std::string e = write_file_atomically(a.json, bench_json(r, cpu)); !e.empty()) {
        std::cerr << "clearjit bench: " << e << "\n";
        return 2;
      }
      std::cout << "measurements: " << a.json << "\n";
    }
    if (!a.markdown.empty()) {
      if (std::string e = write_file_atomically(a.markdown, bench_markdown(r, cpu, a.command));
          !e.empty()) {
        std::cerr << "clearjit bench: " << e << "\n";
        return 2;
      }
      std::cout << "tables: " << a.markdown << "\n";
    }
  } catch (const std::exception &e) {
    std::cerr << "clearjit bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

} // namespace

int cmd_bench(const BenchArgs &a, const std::vector<std::string> &extras) {
  // The studies measure their own sizes and intents and print no JSON: a flag they would ignore
  // is refused, not dropped silently.
  const bool row_flags = a.sizes || !a.json.empty() || !a.markdown.empty() || a.intent != "both" ||
                         a.warm_only || a.no_warm;
  if (!a.mix.empty()) {
    if (a.seeds || a.small || row_flags || !extras.empty()) {
      std::cerr << "clearjit bench: --mix takes only PROFILE and --repetitions\n";
      return 2;
    }
    return cmd_bench_mix(a);
  }
  if (a.small && (a.seeds || row_flags)) {
    std::cerr << "clearjit bench: --small takes only PROFILE, --repetitions and --benchmark_* "
                 "flags\n";
    return 2;
  }
  if (a.seeds && (row_flags || !a.profile.empty())) {
    std::cerr << "clearjit bench: --seeds takes only --repetitions and --benchmark_* flags\n";
    return 2;
  }
  const std::optional<BenchOptions> o = bench_options(a, extras);
  if (!o || !outputs_and_profile_usable(a)) return 2;
  return measure_and_write(a, *o);
}

} // namespace cjit::cli
