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
//! twice the head): on a Zen 4 host an 8 MiB temporal head over 16 MiB ran 1.46x memset where
//! non-temporal alone ran 1.24x; on the Intel Xeon family 6 model 207 1..8 MiB never beat
//! non-temporal alone (docs/results/intel-family6-model207/hot-head.c); on AMD family 26 model 2
//! (Zen 5) 1..16 MiB moved within the noise, 0.88x..1.09x
//! (docs/results/amd-family26-model2/hot-head.txt).
constexpr uint64_t kHotHeads[] = {2u << 20, 8u << 20};

//! Every spec the tuner considers at `level`, for every method (runnable or not), without
//! duplicates, in method-table order.
std::vector<Spec> candidates(Level level);

//! The widest method at its defaults among the rows `admits` takes that `cpu` runs (the first of
//! equal widths); none where it runs none of them.
std::optional<Spec> widest_runnable(const CpuInfo &cpu,
                                    const std::function<bool(const MethodInfo &)> &admits);

//! What batches of stream clears are measured with, read off the method table's fields (a new
//! kind of store joins by its row): memset; the first string instruction `cpu` runs (rep stosb:
//! rep stosq is rep stosb in 8-byte units, left out to fit the default level's five minutes);
//! the widest temporal and the widest non-temporal move (without their fence, narrower moves
//! only add stores per line); every other store loop, the line stores (clzero, movdir64b),
//! which pay their fence once per batch there.
std::vector<Spec> batch_candidates(const CpuInfo &cpu);

} // namespace cjit::detail
