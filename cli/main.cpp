// The clearjit command: inspect the CPU, list and print kernels (tune, bench, check come later).
#include "candidates.hpp"
#include "clearjit/clearjit.hpp"
#include "cpu.hpp"
#include "spec.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

namespace {

using namespace clearjit;

int cmd_cpu() {
  std::cout << describe(host_cpu());
  return 0;
}

int cmd_list(const std::string &level_text) {
  auto level = level_by_name(level_text);
  if (!level) {
    std::cerr << "clearjit list: unknown level '" << level_text << "' (quick, default, exhaustive)\n";
    return 2;
  }
  const CpuInfo &cpu = host_cpu();
  size_t runnable = 0, total = 0;
  for (const Spec &s : candidates(*level)) {
    ++total;
    std::string spec = format_spec(s), why = unsupported_reason(s, cpu);
    std::printf("%-34s %s\n", spec.c_str(), why.empty() ? std::string(s.info().stores).c_str()
                                                        : ("cannot run: " + why).c_str());
    runnable += why.empty();
  }
  std::printf("%zu specs at level %s, %zu runnable on this CPU\n", total,
              std::string(level_name(*level)).c_str(), runnable);
  return 0;
}

int cmd_asm(const std::string &spec) {
  std::string error;
  auto k = Kernel::compile(spec, &error);
  if (!k) {
    std::cerr << "clearjit asm: " << error << "\n";
    return 1;
  }
  std::cout << "; " << k->spec() << "\n" << k->listing();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"clearjit: generate, tune and use memory-clearing kernels for this x86-64 CPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "clearjit " CLEARJIT_VERSION);

  auto *cpu = app.add_subcommand("cpu", "Print this CPU's vendor, model, caches and clearing features");
  std::string level = "default";
  auto *list = app.add_subcommand("list", "Print every kernel spec the tuner considers, marking those this CPU cannot run");
  list->add_option("--level", level, "quick, default or exhaustive")->capture_default_str();
  std::string spec;
  auto *asm_ = app.add_subcommand("asm", "Generate the kernel named by SPEC and print its code");
  asm_->add_option("SPEC", spec, "a kernel spec, e.g. avx2:unroll=4 or movnti:chunk=4K,fence=chunk")->required();
  asm_->footer("Spec grammar: method[:option,...]; methods and options: see README.md.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2; // usage errors exit 2
  }
  if (*cpu) return cmd_cpu();
  if (*list) return cmd_list(level);
  if (*asm_) return cmd_asm(spec);
  return 2;
}
