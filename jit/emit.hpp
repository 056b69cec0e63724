// The building blocks emit_kernel and emit_dispatcher (codegen.hpp) are made of, each emitted
// alone, so that each has one golden listing (tests/test_golden.cpp) and a change to one block
// rewrites one file. The full kernels and dispatchers are made of these same calls.
#pragma once

#include "profile.hpp"
#include "spec.hpp"

#include <asmjit/x86.h>

#include <cstdint>
#include <vector>

namespace cjit::detail {

//! A kernel's parts, in the order emit_kernel writes them.
enum class Block : uint8_t {
  frame,      //!< end pointer and zero registers, then (left out) the short tree and the main
              //!< path, then the exit (vzeroupper, ret)
  short_tree, //!< the size check and the short tree's branches (n up to 2*S), its leaves left out
  short_leaf, //!< one leaf of the short tree: head and tail stores for n in [size, 2*size]
  hot_head,   //!< the hot head (head=SIZE; none without it): n <= head straight to the hot part;
              //!< else the far part's bounds, then (left out) the method's main path over it,
              //!< then the hot part's bounds, then (left out) the head method's main path over it
  prologue,   //!< the alignment prologue (align=A): stores up to the boundary (none without it)
  chunks, //!< the extent split into chunks (chunk and fence options), each chunk's body left out
  body,   //!< the method's stores over one chunk: rep stos, or the store loops (unroll option)
  tail,   //!< the last store, overlapping what the body left, and the end fence
};

//! Emits block `b` of the kernel for `s` (with that kernel's encodings) alone, each part it
//! leaves out a listing comment (no bytes) where it would be. Labels it jumps to outside itself
//! (the exit, the main path) are bound at its end. Block::short_leaf takes the leaf's `leaf_size`,
//! a power of two up to S.
void emit_block(asmjit::x86::Assembler &a, Block b, const Spec &s, unsigned leaf_size = 0);

//! What emit_class_tree writes at each leaf, where a size class's main path goes.
enum class Leaf : uint8_t {
  main_path, //!< the class's main path (emit_dispatcher)
  stub,      //!< a listing comment naming the class's kernel instead (golden listings)
};

//! The dispatcher's part after its small path: end pointer and zero register, then a balanced
//! branch tree on n over the classes of `table` that sizes above `small_max` reach, each leaf
//! its class's main path with its own ret. emit_dispatcher binds the small path's `big` here.
void emit_class_tree(asmjit::x86::Assembler &a, const std::vector<SizeClass> &table,
                     unsigned small_max, const CpuInfo &cpu, Leaf leaf = Leaf::main_path);

} // namespace cjit::detail
