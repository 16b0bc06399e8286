#pragma once
// Helpers of the daemon tests that run a real asio loop: a free local port, and running the
// loop until a condition holds.

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ip/udp.hpp>

#include <chrono>
#include <cstdint>
#include <functional>

namespace ndnlab::daemon::test {

/// A port on 127.0.0.1 that was free a moment ago (Protocol = asio::ip::tcp or udp).
template<typename Protocol>
uint16_t freePort(asio::io_context& io)
{
  typename Protocol::socket s(io, typename Protocol::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return s.local_endpoint().port();
}

/// Runs `io` until `pred` holds; false after `timeout` of wall-clock time.
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

} // namespace ndnlab::daemon::test
