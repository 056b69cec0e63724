// The clearjit command: parses the command line (command_line.hpp) and runs the command, under
// another glibc's loader where --libc says so; the commands are in their own files.
#include "command_line.hpp"

#include "clearjit/clearjit.hpp"
#include "jit/model/cpu.hpp"
#include "jit/model/spec.hpp"
#include "jit/profile/files.hpp"
#include "jit/runtime/runtime.hpp"
#include "tuner/measure/c_library.hpp"
#include "tuner/stages/candidates.hpp"
#include "tuner/stages/glibc_tunables.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace {

using namespace cjit::detail;
using namespace cjit::cli;

// `--libc DIR`: this command again, under DIR's loader, without --libc. Returns only on an
// error (2: the invocation's), said first. `tunables`: tune's --glibc-tunables was given, so
// DIR's loader must list a memset threshold (asked of it here, before the new process).
int run_under_libc(const char *command, const std::string &dir, int argc, char **argv,
                   bool tunables) {
  Result<CLibrary> lib = c_library_in(dir);
  if (!lib) {
    std::cerr << "clearjit " << command << ": " << lib.error << "\n";
    return 2;
  }
  if (tunables) {
    Result<std::map<std::string, uint64_t>> listed = list_tunables(*lib);
    std::string e = listed ? tunables_unsupported(lib->name, *listed) : listed.error;
    if (!e.empty()) {
      std::cerr << "clearjit " << command << ": --glibc-tunables: --libc " << dir << ": " << e
                << "\n";
      return 2;
    }
  }
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--libc")
      ++i; // and its value
    else if (!a.starts_with("--libc="))
      args.emplace_back(a);
  }
  // A loader that starts may still not run clearjit (a glibc older than the one libstdc++
  // needs): asked first, so that the failure is exit 2 and says so, not the loader's 127.
  if (Result<std::string> starts = run_capture(
          command_under(*lib, self_executable(), {"--version"}), {}, 10, 1 << 20, lib->loader_fd);
      !starts) {
    std::cerr << "clearjit " << command << ": --libc " << dir << ": clearjit does not start under "
              << lib->name << "'s loader: " << starts.error << "\n";
    return 2;
  }
  std::cerr << "clearjit " << command << ": memset is " << lib->name << "'s, from "
            << lib->library_dir << "\n";
  const std::string error = run_self_under(*lib, dir, args);
  std::cerr << "clearjit " << command << ": " << error << "\n";
  return 2;
}

// The parsed command, run; `argv` for --libc's re-execution and bench's --markdown header.
int run(Commands &c, int argc, char **argv) {
  // What the user's environment does to memset is measured with it: said, not hidden.
  const auto measuring = c.measuring();
  if (libc_dir_given().empty() &&
      std::any_of(measuring.begin(), measuring.end(), [](auto m) { return bool(*m.first); }))
    for (const char *variable : {"GLIBC_TUNABLES", "LD_PRELOAD"})
      if (const char *value = std::getenv(variable); value && *value)
        std::cerr << "clearjit: warning: " << variable << "=" << value
                  << " is set: every memset figure is memset's under it\n";
  // Under another glibc (--libc): the process that re-executed itself checks it got it.
  if (std::string mismatch = libc_mismatch(); !mismatch.empty()) {
    std::cerr << "clearjit: " << mismatch << "\n";
    return 2;
  }
  for (auto [command, dir] : measuring)
    if (*command && !dir->empty())
      return run_under_libc(command->get_name().c_str(), *dir, argc, argv,
                            command == c.tune && !c.tune_args.glibc_tunables.empty());
  if (*c.cpu) return cmd_cpu();
  if (*c.list) return cmd_list(c.level);
  if (*c.asm_) return cmd_asm(c.spec);
  if (*c.tune) return cmd_tune(c.tune_args, c.tune->remaining());
  if (*c.memset_rows) return cmd_memset_rows(c.rows_args);
  if (*c.verify) return cmd_verify(c.verify_args, c.verify->remaining());
  if (*c.choose) return cmd_choose(c.choose_args);
  if (*c.which) return cmd_which();
  if (*c.bench) {
    c.bench_args.command = "clearjit";
    for (int i = 1; i < argc; ++i) {
      c.bench_args.command += " " + shell_word(argv[i]);
      if (const std::string dir = libc_dir_given(); !dir.empty() && i == 1)
        c.bench_args.command += " --libc " + shell_word(dir); // the --libc this run came from
    }
    return cmd_bench(c.bench_args, c.bench->remaining());
  }
  if (*c.check) return cmd_check(c.check_path);
  if (*c.trace) return cmd_trace(c.trace_args);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  // Under --libc, the re-executed process's own arguments say what it runs (run_self_under).
  std::string re_executed;
  argc = take_re_execution(argc, argv, re_executed);
  if (argc < 0) {
    std::cerr << "clearjit: " << re_executed << "\n";
    return 2;
  }
  CLI::App app{"clearjit: generate, tune and use memory-clearing kernels for this x86-64 CPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "clearjit " CLEARJIT_VERSION);
  Commands c;
  add_commands(app, c);

  // CLI11 would call an unknown first word "a missing subcommand"; name it instead.
  const auto all = app.get_subcommands([](const CLI::App *) { return true; });
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(all.begin(), all.end(),
                   [&](const CLI::App *command) { return command->check_name(argv[1]); })) {
    std::cerr
        << "clearjit: unknown command '" << quoted(argv[1], 0)
        << "' (commands: cpu, list, asm, which, check, tune, verify, choose, bench, trace; see "
           "clearjit --help)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2; // usage errors exit 2
  }
  return run(c, argc, argv);
}