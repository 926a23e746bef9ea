// The transpose at the heart of warp formation (flush_warp's common case): 32 lanes' logs of
// equal length, record k of every lane forming warp instruction k. One pass gathers row k
// (the 32 addresses of record k) and its spread (the OR of every lane's record ^ lane 0's,
// tag bits included): a spread below the tag bits says the lanes' tags agree, and it is then
// the lanes' address spread the models take (model::WarpAccess::spread). Vectorised: AVX2
// (4 lanes x 4 records a step) where the CPU has it, asked at run time, else SSE2 (2 x 2);
// a scalar loop finishes the rows the vector steps leave.
#pragma once
#include <cstddef>
#include <cstdint>

namespace tgsim::detail {

enum class TransposeLevel : std::uint8_t { kScalar, kSse2, kAvx2 };

// The widest level this build and CPU run.
TransposeLevel best_transpose_level();

// Rows 0..len-1 of data[0..31] (each `len` records): rows[k * 32 + l] = data[l][k]'s address,
// spread[k] = OR over l of data[l][k] ^ data[0][k]. True when every lane's tags equal lane
// 0's. `level` above best_transpose_level() is lowered to it.
bool transpose_lanes(const std::uint64_t* const* data, std::size_t len, std::uint64_t* rows,
                     std::uint64_t* spread, TransposeLevel level = best_transpose_level());

}  // namespace tgsim::detail
