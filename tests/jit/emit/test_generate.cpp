// Debug aids: the perf map names both dispatchers, a dump writes .bin and .asm, and dispatcher
// listings are kept only for a dump.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

namespace fs = std::filesystem;
using namespace test;

struct Mapping {
  uintptr_t begin = 0, end = 0;
  std::string perms, line;
};

std::vector<Mapping> read_maps() {
  std::vector<Mapping> out;
  std::ifstream in("/proc/self/maps");
  for (std::string line; std::getline(in, line);) {
    Mapping m;
    m.line = line;
    char perms[8] = {};
    unsigned long b = 0, e = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx %7s", &b, &e, perms) == 3) {
      m.begin = b, m.end = e, m.perms = perms;
      out.push_back(m);
    }
  }
  return out;
}

//! The checks of the perf-map child; "" or what went wrong.
std::string perf_map_check() {
  const std::string map = "/tmp/perf-" + std::to_string(getpid()) + ".map";
  std::remove(map.c_str());
  write_file(map, "0 1 preexisting\n"); // perf maps are appended to, never rewritten
  TempDir dir;
  const std::string path = dir / "perf.toml";
  write_file(path, profile_text(host_cpu(), runnable_all({{4096, "avx2:unroll=4"}, {0, "stosb"}}),
                                runnable_all({{65600, "sse"}, {0, "ntavx2"}})));
  setenv("CLEARJIT_PERF_MAP", "1", 1);
  std::vector<char> err(4096, '\0');
  clearjit *cj = clearjit_open(path.c_str(), err.data(), err.size());
  unsetenv("CLEARJIT_PERF_MAP");
  std::unique_ptr<clearjit, decltype(&clearjit_close)> guard(cj, clearjit_close);
  const std::string text = read_file(map).value_or("");
  std::remove(map.c_str());
  if (!cj) return "open failed: " + errbuf_text(err);

  std::string error;
  const auto maps = read_maps();
  const Profile p = load_or_throw(path, host_cpu());
  std::map<std::string, int> seen;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string addr_hex, size_hex, name, extra;
    if (!(fields >> addr_hex >> size_hex >> name) || (fields >> extra)) {
      error += "malformed line '" + line + "'\n";
      continue;
    }
    ++seen[name];
    if (name == "preexisting") continue;
    const uintptr_t addr = std::stoull(addr_hex, nullptr, 16);
    const size_t size = std::stoull(size_hex, nullptr, 16);
    auto m = std::find_if(maps.begin(), maps.end(),
                          [&](const Mapping &x) { return x.begin <= addr && addr < x.end; });
    if (m == maps.end() || m->perms.substr(0, 3) != "r-x" || addr + size > m->end) {
      error += name + " at " + addr_hex + " size " + size_hex + " is not inside an r-x mapping\n";
      continue;
    }
    // The bytes there are the dispatcher for that table (no libc class: no embedded address).
    const Intent i = name == "clearjit_dispatch_reuse" ? Intent::reuse : Intent::stream;
    std::vector<SizeClass> table = p.table(i);
    if (name == "clearjit_dispatch_batch") { // the batch table without its fences
      table = p.batch_table();
      for (SizeClass &c : table)
        c.kernel.fence = Fence::none;
    }
    auto g = make_dispatcher(table, host_cpu(), p.small(i, host_cpu()));
    if (g->size != size || std::memcmp(reinterpret_cast<const void *>(addr),
                                       reinterpret_cast<const void *>(g->fn), size))
      error += name + ": the code at " + addr_hex + " is not the " + std::string(intent_name(i)) +
               " dispatcher\n";
  }
  for (const char *name : {"preexisting", "clearjit_dispatch_reuse", "clearjit_dispatch_stream",
                           "clearjit_dispatch_batch"})
    if (seen[name] != 1)
      error += std::string(name) + ": " + std::to_string(seen[name]) + " lines, expected 1\n";
  if (seen.size() != 4) error += "unexpected lines:\n" + text;
  return error;
}

TEST(generate_DebugAidsDeathTest, PerfMapNamesBothDispatchers) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // A fresh process, so /tmp/perf-<pid>.map is this test's alone.
  EXPECT_EXIT(child_exit(perf_map_check()), ::testing::ExitedWithCode(0), "^$");
}

TEST(generate_DebugAids, DumpWritesBinAndAsm) {
  TempDir dir;
  const std::string spec = runnable("avx2:unroll=4");
  const std::string stem = spec == "sse" ? "sse" : "avx2_unroll_4";
  {
    ScopedEnv dump("CLEARJIT_DUMP", dir.path().string());
    ScopedEnv perf("CLEARJIT_PERF_MAP", nullptr);
    auto code = compile_kernel(*parse_spec(spec), host_cpu());
    ASSERT_TRUE(code) << code.error;
    const GeneratedCode &g = **code;
    auto bin = read_file(dir.path() / (stem + ".bin"));
    ASSERT_TRUE(bin) << "no " << stem << ".bin";
    EXPECT_EQ(*bin, std::string(reinterpret_cast<const char *>(g.fn), g.size));
    auto asm_text = read_file(dir.path() / (stem + ".asm"));
    ASSERT_TRUE(asm_text) << "no " << stem << ".asm";
    EXPECT_EQ(*asm_text, "; " + spec + "\n" + g.listing);

    // Through the C API too, and for a profile's dispatchers.
    std::vector<char> err(4096, '\0');
    clearjit_kernel *k = clearjit_kernel_compile(spec.c_str(), err.data(), err.size());
    ASSERT_NE(k, nullptr) << errbuf_text(err);
    EXPECT_EQ(read_file(dir.path() / (stem + ".asm")).value_or(""),
              "; " + spec + "\n" + clearjit_kernel_asm(k));
    clearjit_kernel_free(k);

    const std::string path = dir / "dump.toml";
    write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
    std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(
        clearjit_open(path.c_str(), err.data(), err.size()), clearjit_close);
    ASSERT_TRUE(cj) << errbuf_text(err);
    const Profile loaded = load_or_throw(path, host_cpu());
    auto d = make_dispatcher(loaded.reuse, host_cpu(), loaded.small(Intent::reuse, host_cpu()));
    EXPECT_EQ(read_file(dir.path() / "clearjit_dispatch_reuse.bin").value_or(""),
              std::string(reinterpret_cast<const char *>(d->fn), d->size));
    EXPECT_EQ(read_file(dir.path() / "clearjit_dispatch_reuse.asm").value_or(""),
              "; clearjit_dispatch_reuse\n" + d->listing);
    // No stream table: a stream dispatcher only where the intents' small paths differ.
    EXPECT_EQ(fs::exists(dir.path() / "clearjit_dispatch_stream.bin"),
              loaded.small(Intent::stream, host_cpu()) != loaded.small(Intent::reuse, host_cpu()))
        << "no stream table and the same small path: no stream dispatcher";
  }
  // Without CLEARJIT_DUMP nothing is written.
  fs::remove(dir.path() / (stem + ".bin"));
  ScopedEnv dump("CLEARJIT_DUMP", nullptr);
  auto again = compile_kernel(*parse_spec(spec), host_cpu());
  ASSERT_TRUE(again);
  EXPECT_FALSE(fs::exists(dir.path() / (stem + ".bin")));
}

TEST(generate_DebugAids, DispatcherListingsAreKeptOnlyForADump) {
  // A 15,000-class profile kept a 68 MB listing per handle; now none unless CLEARJIT_DUMP.
  const std::vector<SizeClass> table = {{4096, *parse_spec("mov"), 0},
                                        {0, *parse_spec("stosb"), 0}};
  auto emit = [&](asmjit::x86::Assembler &a) {
    emit_dispatcher(a, table, kTestSmall, host_like(false));
  };
  ScopedEnv dump("CLEARJIT_DUMP", nullptr);
  auto plain = generate(emit, "quiet", Listing::if_dumped);
  ASSERT_TRUE(plain) << plain.error;
  EXPECT_EQ((*plain.value)->listing, "");
  auto kept = generate(emit, "kept", Listing::keep);
  ASSERT_TRUE(kept) << kept.error;
  EXPECT_NE((*kept.value)->listing, "");
  EXPECT_EQ((*kept.value)->size, (*plain.value)->size) << "the same code either way";

  TempDir dir;
  ScopedEnv to_dir("CLEARJIT_DUMP", dir.path().string());
  auto dumped = generate(emit, "dumped", Listing::if_dumped);
  ASSERT_TRUE(dumped) << dumped.error;
  EXPECT_EQ((*dumped.value)->listing, "") << "written to the dump, then dropped";
  EXPECT_EQ(read_file(dir.path() / "dumped.asm").value_or(""),
            "; dumped\n" + (*kept.value)->listing);
}

} // namespace
} // namespace cjit::detail
