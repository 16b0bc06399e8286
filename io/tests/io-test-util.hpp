#pragma once
// Helpers of the io tests: running an io_context until a condition holds (real time, bounded),
// and building TLV frames.

#include "core/codec/interest.hpp"
#include "core/codec/tlv.hpp"

#include <asio/io_context.hpp>

#include <chrono>
#include <functional>

namespace ndnlab::io::test {

/// Runs `io` until `pred` holds or `timeout` passes; returns pred().
inline bool runUntil(asio::io_context& io, const std::function<bool()>& pred,
                     std::chrono::milliseconds timeout = std::chrono::milliseconds(3000))
{
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    io.restart();
    io.run_one_for(std::chrono::milliseconds(5));
  }
  return true;
}

/// Runs `io` for `d` (handlers only; used to check that something does NOT happen).
inline void runFor(asio::io_context& io, std::chrono::milliseconds d)
{
  auto deadline = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < deadline) {
    io.restart();
    io.run_one_for(std::chrono::milliseconds(5));
  }
}

/// A TLV of `type` with a `valueSize`-octet value whose bytes are (seed + i) mod 256.
inline Buffer makeFrame(uint32_t type, size_t valueSize, uint8_t seed = 0)
{
  Buffer value(valueSize);
  for (size_t i = 0; i < valueSize; ++i)
    value[i] = static_cast<uint8_t>(seed + i);
  Buffer out;
  appendTlv(out, type, value);
  return out;
}

/// The wire of a valid Interest /io-test/<seed>/<pad x 'p'> (what a UDP channel accepts from
/// an unknown endpoint).
inline Buffer makeInterest(size_t pad = 10, uint8_t seed = 0)
{
  Name name("/io-test");
  name.append(std::to_string(seed)).append(std::string(pad, 'p'));
  Interest i{std::move(name)};
  i.setNonce(0x01020300u + seed);
  return *i.wireEncode();
}

inline SharedBuffer share(Buffer b)
{
  return std::make_shared<const Buffer>(std::move(b));
}

} // namespace ndnlab::io::test
