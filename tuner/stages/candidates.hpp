// Which kernels the tuner measures at each level; also what `clearjit list` prints.
#pragma once

#include "jit/model/spec.hpp"

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace cjit::detail {

enum class Level : uint8_t { quick, default_, exhaustive };

std::optional<Level> level_by_name(std::string_view name);
std::string_view level_name(Level l);

//! The chunk study's chunks (Linux's clear_pages() posting: one string instruction per 4 KiB page,
//! per 2 MiB page and sizes between); 0 is the whole extent in one instruction.
constexpr uint64_t kStudyChunks[] = {0, 4u << 10, 64u << 10, 2u << 20, 8u << 20, 32u << 20};
//! The fence study's variant of a non-temporal spec: an sfence per 4 KiB chunk.
Spec fenced_per_chunk(Spec s);

//! The hot heads a non-temporal method is tried with (head=SIZE, reuse only, at sizes above
//! twice the head); docs/design/kernels.md, the hot head.
constexpr uint64_t kHotHeads[] = {2u << 20, 8u << 20};

//! Every spec the tuner considers at `level`, for every method (runnable or not), without
//! duplicates, in method-table order.
std::vector<Spec> candidates(Level level);

//! The widest method at its defaults among the rows `admits` takes that `cpu` runs (the first of
//! equal widths); none where it runs none of them.
std::optional<Spec> widest_runnable(const CpuInfo &cpu,
                                    const std::function<bool(const MethodInfo &)> &admits);

//! What batches of stream clears are measured with, from the method table's rows: memset; the
//! first string instruction `cpu` runs; the widest temporal and non-temporal moves (without their
//! fence); every other kind of store (clzero, movdir64b), whose fence a batch pays once.
std::vector<Spec> batch_candidates(const CpuInfo &cpu);

} // namespace cjit::detail
