#pragma once
// Reed-Solomon erasure coding of a frame's segments, for the real-time stream engines (issue 29:
// "per-frame Reed-Solomon parity through ISA-L, ratio 0.2 by default, 0 = off"; NDN-RTC's FEC,
// shared/reference/mechanism-facts.md section 3: Reed-Solomon over GF(2^8), parity segments =
// ceil(0.2 x data segments), at least 1).
//
// The code is systematic: the k data shards travel as they are and m parity shards are added;
// any k of the k + m shards give the data back. The arithmetic is ISA-L's (Intel's Intelligent
// Storage Acceleration Library, Debian's libisal-dev): a Cauchy generator matrix, whose every
// square sub-matrix is invertible, so any k shards suffice (docs/decisions/0006).
//
// Pure computation, no I/O, no clock: it belongs in core like the OpenSSL digests of codec/.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ndnlab::fec {

using Shard = std::vector<uint8_t>;
using ShardView = std::span<const uint8_t>;

/// Parity shards for a frame of `dataShards` at `ratio` (parity / data): ceil(ratio x data),
/// at least 1 when ratio > 0 and there is data; 0 when ratio is 0. Throws
/// std::invalid_argument for a negative or non-finite ratio.
size_t parityCount(size_t dataShards, double ratio);

/// A systematic (k + m, k) Reed-Solomon erasure code over GF(2^8).
class ReedSolomon
{
public:
  /// GF(2^8) has 255 non-zero elements: at most 255 shards in all.
  static constexpr size_t MaxShards = 255;

  /// `k` >= 1 data shards and `m` parity shards, k + m <= MaxShards; std::invalid_argument
  /// otherwise.
  ReedSolomon(size_t k, size_t m);

  size_t dataShards() const { return m_k; }
  size_t parityShards() const { return m_m; }

  /// The m parity shards of `data`: k shards, all of one size >= 1 (pad the last one; see
  /// split()). std::invalid_argument otherwise.
  std::vector<Shard> encode(std::span<const ShardView> data) const;

  /// The k data shards from `shards`: k + m entries, data first then parity, in the order
  /// encode() made them, nullopt for a shard that did not arrive. Those present must all have
  /// one size (std::invalid_argument otherwise). nullopt when fewer than k arrived.
  std::optional<std::vector<Shard>> recover(std::span<const std::optional<ShardView>> shards) const;

private:
  size_t m_k;
  size_t m_m;
  std::vector<uint8_t> m_matrix;       ///< (k + m) x k generator: identity over the Cauchy rows
  std::vector<uint8_t> m_parityTables; ///< ISA-L's expanded tables of the m parity rows
};

/// `payload` cut into shards of `shardSize` bytes (>= 1), the last one zero-padded to that size;
/// none for an empty payload. The receiver needs the payload's length to undo the padding.
std::vector<Shard> split(ShardView payload, size_t shardSize);

/// The first `length` bytes of the shards laid end to end (undoes split()); std::invalid_argument
/// when they hold fewer.
std::vector<uint8_t> join(std::span<const Shard> shards, size_t length);

} // namespace ndnlab::fec
