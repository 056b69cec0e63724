// The golden listings' cases, shared by the tests that check them (tests/jit/emit/test_emit.cpp:
// blocks and class trees; tests/jit/emit/test_emit_small.cpp: small paths) and
// tests/generated/test_golden.cpp, which finds stale files and cross-checks every kernel.
//
// tests/golden/ holds AsmJit's listing (text and bytes per instruction) of each block once, so a
// change to one block rewrites one file; CLEARJIT_UPDATE_GOLDEN=1 writes them. The blocks are
// enumerated from the method table (every method at its defaults, libc aside) and the option
// variants below, from the small-path table, and from the golden profiles, so a new method or
// strategy gets its files by running with CLEARJIT_UPDATE_GOLDEN=1. A file's name says what its
// block depends on, and kernels that share a block share its file. A part a listing leaves out
// is a comment line ("; the main path") where it would be; put together there, the blocks are
// the kernel (emit_BlockFiles.KernelIsItsBlocks). <isa> is gp (general registers),
// sse (xmm0, legacy encodings) or avx (VEX); <unit> the widest head or tail store.
//   frame/<isa>.asm               a kernel's end pointer and zero registers, then its short
//                                 tree and main path (left out), then its exit
//   short_tree/<2S>.asm           the size check and the short tree's branches for n up
//                                 to 2S, its leaves left out
//   short_leaf/<size>_<width>_<isa>.asm  one leaf of the short tree: n in [size, 2*size] by head
//                                 and tail stores <width> bytes wide
//   hot_head/<head>_far<F>_<method>[_rax].asm  the hot head's split (head=SIZE): n <= head on to
//                                 the hot part; else the far part's bounds (at least F bytes), its
//                                 main path (left out), the hot part's bounds ([dst, dst+head),
//                                 _rax: rax zeroed again), then <method>'s main path (left out)
//   prologue/align<A>_<unit>_<isa>.asm  the alignment prologue's stores, cursor to the boundary
//   chunks/4K[_fence].asm         the chunk loop, its body left out (any size: only the
//                                 immediate differs); chunks/whole.asm: no chunks
//   body/<method>[_unroll_<u>].asm  the method's stores over one chunk: rep stos or store loops
//   tail/<width>_<unit>_<isa>[_sfence].asm  the last store over what the body left, end fence
//   tree/<profile>_<intent>.asm   a dispatcher's class tree for tests/profiles/runtime/<profile>,
//                                 each class's main path a "; main path of <spec>" comment
//   small/<strategy>_256_<cpus>.asm  a dispatcher's small path alone, on the synthetic CPUs
//                                 (sse, avx, avx512) on which it is that listing
#pragma once

#include "jit/emit/emit.hpp"
#include "jit/model/small.hpp"
#include "jit/profile/profile.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail::test {

// "movnti:chunk=4K,fence=chunk" -> "movnti_chunk_4K_fence_chunk": a file name and a gtest name.
inline std::string file_stem(std::string_view spec) {
  std::string out(spec);
  for (char &c : out)
    if (c == ':' || c == ',' || c == '=') c = '_';
  return out;
}

// Code that is decoded here, never run: generated whatever this CPU has.
inline std::unique_ptr<GeneratedCode> generated(const EmitFn &emit, const std::string &name) {
  auto code = generate(emit, name);
  if (!code) throw std::runtime_error(code.error);
  return std::move(*code.value);
}

inline std::unique_ptr<GeneratedCode> compile_or_throw(std::string_view text) {
  auto spec = parse_spec(text);
  if (!spec) throw std::runtime_error(spec.error);
  auto code = compile_kernel(*spec, host_cpu());
  if (!code) throw std::runtime_error(code.error);
  return std::move(*code.value);
}

// ---------------------------------------------------------------------------------------------
// Golden listings per block (the layout is described at the top of this file)

//! "gp", "sse" or "avx": the encodings a kernel's blocks use (emit.cpp: VEX for AVX methods,
//! xmm0 only where heads, tails or main stores are 16 bytes or wider).
inline std::string isa(const MethodInfo &mi) {
  if (mi.feature == Feature::avx2 || mi.feature == Feature::avx512f) return "avx";
  return std::max(mi.width, mi.tail_width) >= 16 ? "sse" : "gp";
}

// Options that change a block's code, on top of every method at its defaults.
inline const char *const kOptionSpecs[] = {
    "avx2:unroll=4",   "stosb:chunk=2M",    "movnti:chunk=4K,fence=chunk", "sse:align=64",
    "clzero:unroll=4", "ntavx512:unroll=2", "stosq:chunk=4K,align=16",     "mov:unroll=1,fence=end",
    "ntavx2:head=8K",
};

//! The kernels whose blocks have golden files. libc is left out: its listing embeds the
//! address of memset, which ASLR moves (emit_Libc.ListingShape covers it).
inline std::vector<Spec> block_specs() {
  std::vector<Spec> out;
  for (const MethodInfo &mi : methods())
    if (mi.store != Store::memset) out.push_back(default_spec(mi.method));
  for (const char *text : kOptionSpecs)
    out.push_back(*parse_spec(text));
  return out;
}

struct BlockCase {
  Block block;
  Spec spec;         //!< the first kernel in block_specs() with this block
  unsigned size = 0; //!< Block::short_leaf's
  std::string file;  //!< "" when the block emits nothing for `spec`
};
inline void PrintTo(const BlockCase &c, std::ostream *os) { *os << c.file; }

//! The blocks of kernel `s`, each with its golden file, named by what the block depends on.
inline std::vector<BlockCase> blocks_of(const Spec &s) {
  const MethodInfo &mi = s.info();
  const std::string unit_isa = std::to_string(mi.tail_width) + "_" + isa(mi);
  const unsigned limit = std::max({mi.tail_width, s.align, mi.width}); // S, as emit_kernel's
  std::vector<BlockCase> out;
  auto add = [&](Block b, std::string file, unsigned size = 0) {
    out.push_back({b, s, size, file.empty() ? file : file + ".asm"});
  };
  add(Block::frame, "frame/" + isa(mi));
  add(Block::short_tree, "short_tree/" + std::to_string(2 * limit));
  // Stores up to 8 bytes are general-register moves whatever the method's encodings.
  for (unsigned size = 1; size <= limit; size *= 2) {
    const unsigned w = std::min(size, mi.tail_width);
    add(Block::short_leaf,
        "short_leaf/" + std::to_string(size) + "_" + std::to_string(w) + "_" +
            (w < 16 ? "gp" : isa(mi)),
        size);
  }
  const bool rax = mi.store == Store::clzero || mi.store == Store::movdir64b; // its address
  add(Block::hot_head, s.head ? "hot_head/" + format_size(s.head) + "_far" +
                                    std::to_string(2 * limit + 1) + "_" +
                                    std::string(info(mi.head_method).name) + (rax ? "_rax" : "")
                              : "");
  add(Block::prologue, s.align ? "prologue/align" + std::to_string(s.align) + "_" + unit_isa : "");
  // Every chunk size is listed at 4K: the size is only the immediate of the loop's first mov.
  add(Block::chunks, s.chunk ? std::string("chunks/4K") + (s.fence == Fence::chunk ? "_fence" : "")
                             : "chunks/whole");
  if (s.chunk) out.back().spec.chunk = 4096;
  Spec loop = default_spec(s.method);
  loop.unroll = s.unroll;
  add(Block::body, "body/" + file_stem(format_spec(loop)));
  const bool no_tail = mi.width == 1 && s.fence == Fence::none; // rep stosb leaves none
  add(Block::tail, no_tail ? ""
                           : "tail/" + std::to_string(mi.width) + "_" + unit_isa +
                                 (s.fence != Fence::none ? "_sfence" : ""));
  return out;
}

//! One case per golden block file.
inline std::vector<BlockCase> block_cases() {
  std::vector<BlockCase> out;
  std::set<std::string> seen;
  for (const Spec &s : block_specs())
    for (const BlockCase &c : blocks_of(s))
      if (!c.file.empty() && seen.insert(c.file).second) out.push_back(c);
  return out;
}

inline std::unique_ptr<GeneratedCode> block_code(const BlockCase &c) {
  return generated([&](asmjit::x86::Assembler &a) { emit_block(a, c.block, c.spec, c.size); },
                   "block_" + file_stem(format_spec(c.spec)));
}

//! The listing without its comment lines, which stand for parts left out and carry no bytes.
inline std::string without_comments(std::string_view listing) {
  std::string out;
  for (const std::string &line : split_lines(listing))
    if (!line.starts_with(";")) out += line + "\n";
  return out;
}

//! What `emit` writes, as generate() lists it, without mapping it (a block may be empty).
inline std::string listing_of(const std::function<void(asmjit::x86::Assembler &)> &emit) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment::host());
  asmjit::StringLogger logger;
  logger.addFlags(asmjit::FormatFlags::kMachineCode);
  code.setLogger(&logger);
  asmjit::x86::Assembler a(&code);
  emit(a);
  return logger.data();
}

// ---------------------------------------------------------------------------------------------
// The class trees of tests/profiles/runtime/golden_*.toml (test_runtime's golden
// profiles) with each class's main path a comment, and the whole dispatcher against Zydis.

struct TreeCase {
  const char *profile; // tests/profiles/runtime/<profile>.toml
  Intent intent;
  bool avx;
  std::string stem() const { return std::string(profile) + "_" + std::string(intent_name(intent)); }
  // Loaded for a synthetic CPU so the listing is the same on every machine; without AVX the
  // minimal CPU makes the loader refuse any AVX kernel.
  CpuInfo cpu() const { return avx ? test::full_cpu() : test::minimal_cpu(); }
  std::vector<SizeClass> table() const {
    const std::filesystem::path file = std::filesystem::path(CLEARJIT_SOURCE_DIR) / "tests" /
                                       "profiles" / "runtime" / (std::string(profile) + ".toml");
    auto p = load_profile(file.string(), cpu());
    if (!p) throw std::runtime_error(p.error);
    return p->table(intent);
  }
};
inline void PrintTo(const TreeCase &c, std::ostream *os) { *os << c.stem(); }

inline const TreeCase kTreeCases[] = {
    {"golden_avx", Intent::reuse, true},
    {"golden_avx", Intent::stream, true},
    {"golden_sse", Intent::reuse, false},
};

// ---------------------------------------------------------------------------------------------
// Small-path strategies, generated for synthetic CPUs so the listing is the same on every
// machine: the small path alone has a golden file, and a dispatcher made of it and one class
// (stosb) is cross-checked against Zydis.

inline CpuInfo small_cpu(std::string_view kind) {
  CpuInfo c;
  c.vendor = "AuthenticAMD";
  c.family = 26;
  c.model = 2;
  for (Feature f : {Feature::sse2, Feature::erms, Feature::fsrm})
    c.set(f);
  if (kind != "sse")
    for (Feature f : {Feature::avx, Feature::avx2})
      c.set(f);
  if (kind == "avx512")
    for (Feature f : {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::bmi2})
      c.set(f);
  return c;
}

struct SmallCase {
  Small strategy;
  unsigned max;
  const char *cpu; // sse, avx, avx512
  std::string stem() const {
    return std::string(info(strategy).name) + "_" + std::to_string(max) + "_" + cpu;
  }
};

inline std::vector<SmallCase> small_cases() {
  std::vector<SmallCase> out;
  for (const SmallInfo &i : small_strategies())
    for (unsigned max : kSmallMaxes)
      for (const char *cpu : {"sse", "avx", "avx512"})
        if (small_unsupported_reason(i.strategy, small_cpu(cpu)).empty())
          out.push_back({i.strategy, max, cpu});
  return out;
}

//! The small path alone; sizes above max jump to the label bound at its end.
inline std::unique_ptr<GeneratedCode> small_path(const SmallCase &c) {
  return generated(
      [&](asmjit::x86::Assembler &a) {
        asmjit::Label big = a.newLabel();
        emit_small(a, {c.strategy, c.max}, small_cpu(c.cpu), big);
        a.bind(big);
      },
      "small_" + c.stem());
}

inline void PrintTo(const SmallCase &c, std::ostream *os) { *os << c.stem(); }

//! The golden file of case `c`: small/<strategy>_<max>_<cpus>.asm, where <cpus> names every
//! synthetic CPU on which the strategy's listing is the same as on c's (one file serves every
//! CPU a strategy emits the same code for).
inline std::filesystem::path small_file(const SmallCase &c) {
  const std::string listing = small_path(c)->listing;
  std::string cpus;
  for (const SmallCase &o : small_cases())
    if (o.strategy == c.strategy && o.max == c.max && small_path(o)->listing == listing)
      cpus += std::string("_") + o.cpu;
  return std::filesystem::path("small") /
         (std::string(info(c.strategy).name) + "_" + std::to_string(c.max) + cpus + ".asm");
}

} // namespace cjit::detail::test
