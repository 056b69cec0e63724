// How clearjit_clear_parallel cuts a region into pieces: the bounds that the profile's
// [parallel.<intent>] tables and the worker pool share. No include of clearjit's: the pool
// includes nothing more than it needs.
#pragma once

#include <cstdint>

namespace cjit::detail {

//! Huge pages are not shared between threads: pieces start and end on this boundary (but the
//! region's own start and end).
inline constexpr uint64_t kPieceAlign = 2u << 20;
//! Below this a region has no 2 MiB boundary to cut at (but its ends): one piece, one thread.
inline constexpr uint64_t kFewestParallelBytes = 2 * kPieceAlign;
//! The most threads one call uses (more are clamped): a bound on what a caller can start.
inline constexpr unsigned kMaxThreads = 256;

} // namespace cjit::detail
