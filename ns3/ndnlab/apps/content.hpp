#pragma once
// Synthetic file content for simulated producers: a deterministic byte stream per seed, cheap
// to generate at any offset, so a 100 MB producer never holds a raw copy and a test can check
// the consumer's bytes without asking the producer.

#include "core/codec/tlv.hpp"

#include <cstdint>
#include <cstring>

namespace ndnlab::sim {

/// The 8 bytes of block `block` of the stream of `seed` (splitmix64 of seed and block).
inline uint64_t contentBlock(uint64_t seed, uint64_t block)
{
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + block + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Byte `offset` of the stream of `seed`.
inline uint8_t contentByte(uint64_t seed, uint64_t offset)
{
  return static_cast<uint8_t>(contentBlock(seed, offset >> 3) >> ((offset & 7) * 8));
}

/// Fills `out[0..n)` with bytes offset..offset+n of the stream of `seed`.
inline void fillContent(uint64_t seed, uint64_t offset, uint8_t* out, size_t n)
{
  size_t i = 0;
  while (i < n) {
    uint64_t pos = offset + i;
    uint64_t z = contentBlock(seed, pos >> 3);
    for (unsigned b = static_cast<unsigned>(pos & 7); b < 8 && i < n; ++b, ++i)
      out[i] = static_cast<uint8_t>(z >> (b * 8));
  }
}

/// The first `size` bytes of the stream of `seed`.
inline Buffer makeContent(uint64_t seed, size_t size)
{
  Buffer b(size);
  fillContent(seed, 0, b.data(), size);
  return b;
}

} // namespace ndnlab::sim
