#pragma once
// Version discovery of a segmented object: the versioned name is found before segments are
// fetched, by RDR metadata (`<name>/32=metadata`, ndnget and ndncatchunks) or by asking for
// the first segment under the name (ndn-cxx's SegmentFetcher). Timeouts and Nacks Duplicate
// retry at once, Nacks Congestion after a backoff doubling from 1 ms to 10 s, each up to the
// retry limit. Used by SegmentFetcher; sans-I/O like it (time and timers from the Env).

#include "core/app/endpoint.hpp"
#include "core/runtime/env.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ndnlab::app {

/// How the versioned name is found before segments are fetched.
enum class VersionDiscovery : uint8_t {
  Rdr,          ///< `<name>/32=metadata` with CanBePrefix+MustBeFresh (ndnget, ndncatchunks)
  FirstSegment, ///< `<name>` with CanBePrefix+MustBeFresh; the reply is segment 0 of the versioned
                ///< object (ndn-cxx SegmentFetcher; NFD status datasets)
  None,         ///< segments are fetched under the name as given
};

std::string_view toString(VersionDiscovery d);
std::optional<VersionDiscovery> parseVersionDiscovery(std::string_view s); ///< "rdr" | "first-segment" | "none"

/// Congestion backoffs (Nack Congestion) double up to this.
inline constexpr Duration MaxCongestionBackoff = std::chrono::seconds(10);

class VersionDiscoverer
{
public:
  struct Options
  {
    VersionDiscovery mode = VersionDiscovery::Rdr; ///< Rdr or FirstSegment
    Duration lifetime = std::chrono::seconds(4);   ///< InterestLifetime, and the timeout
    int retries = 15;                              ///< per kind (timeouts, Nacks); -1 = unlimited
  };
  enum class Failure : uint8_t { BadMetadata, RetriesExhausted, Nack };

  VersionDiscoverer(Env& env, Endpoint& endpoint, Options opts);
  ~VersionDiscoverer() { stop(); }
  VersionDiscoverer(const VersionDiscoverer&) = delete;
  VersionDiscoverer& operator=(const VersionDiscoverer&) = delete;

  /// Sends the first discovery Interest for `name` (a prefix without version).
  void start(const Name& name);
  /// Cancels the pending timer; no further callbacks.
  void stop();

  /// Network input, passed on by the owner of the endpoint.
  void handleData(const Data& data);
  void handleNack(const Nack& nack);

  /// The versioned name; with FirstSegment also the reply, which is segment 0 of it.
  std::function<void(const Name& versioned, const Data* firstSegment)> onFound;
  std::function<void(Failure, std::string message)> onFailure;

  /// Nonce of the latest discovery Interest.
  uint32_t nonce() const { return m_nonce; }

private:
  void send();
  void onTimeout();
  bool retriesExceeded(uint32_t n) const { return m_opts.retries >= 0 && n > static_cast<uint32_t>(m_opts.retries); }
  void fail(Failure f, std::string message);

  Env& m_env;
  Endpoint& m_ep;
  Options m_opts;
  Name m_name; ///< what the Interests ask for
  uint32_t m_nonce = 0;
  uint32_t m_timeouts = 0;
  uint32_t m_nacks = 0;
  uint32_t m_congestion = 0;
  TimerId m_timer = 0;
  bool m_active = false;
};

} // namespace ndnlab::app
