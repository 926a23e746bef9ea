// The transpose at the heart of warp formation (flush_warp's common case): 32 lanes' logs of
// equal length, record k of every lane forming warp instruction k. Two steps, so that a row
// the counters take by its spread alone is never gathered:
//   lane_spreads: per row k the spread, the OR of every lane's record ^ lane 0's (tag bits
//     included): a spread below the tag bits says the lanes' tags agree, and it is then the
//     lanes' address spread the models take (model::WarpAccess::spread);
//   transpose_rows: rows k..: the 32 addresses of record k, for the rows a sink must read.
// Vectorised: AVX2 (4 lanes x 4 records a step) where the CPU has it, asked at run time, else
// SSE2 (2 x 2); a scalar loop finishes the rows the vector steps leave.
#pragma once
#include <cstddef>
#include <cstdint>

namespace tgsim::detail {

enum class TransposeLevel : std::uint8_t { kScalar, kSse2, kAvx2 };

// The widest level this build and CPU run.
TransposeLevel best_transpose_level();

// spread[k] = OR over l of data[l][k] ^ data[0][k], for k < len (each data[l] holds `len`
// records). True when every lane's tags equal lane 0's. `level` above best_transpose_level()
// is lowered to it.
bool lane_spreads(const std::uint64_t* const* data, std::size_t len, std::uint64_t* spread,
                  TransposeLevel level = best_transpose_level());

// rows[k * 32 + l] = data[l][k]'s address, for from <= k < to.
void transpose_rows(const std::uint64_t* const* data, std::size_t from, std::size_t to, std::uint64_t* rows,
                    TransposeLevel level = best_transpose_level());

}  // namespace tgsim::detail
