#pragma once
// ConstantRateConsumer: Interests at a fixed frequency, whatever comes back (ndnSIM's
// ConsumerCbr): `<prefix>/seg=N` for N = firstSegment, firstSegment+1, ... Each Interest is
// timed out after its lifetime; a timed-out or Nacked segment is optionally re-expressed in the
// next send slot (before any new segment). There is no window and no congestion control.
// A Data answers a pending segment only under the exact name its Interest carried, and a Nack
// only with that transmission's Nonce; anything else is unexpected (counted, or ignored).
//
// Trace events: cbr_data (value = segment, value2 = RTT of the last transmission in s),
// cbr_timeout (value = segment), cbr_nack (value = segment, reason = Nack reason).

#include "core/app/endpoint.hpp"
#include "core/runtime/env.hpp"

#include <deque>
#include <map>
#include <optional>
#include <string>

namespace ndnlab::app {

struct ConstantRateConsumerOptions
{
  double frequency = 1.0;                              ///< Interests per second (ndnSIM ConsumerCbr default)
  std::string randomize = "none";                      ///< gaps: none | uniform (U[0, 2/f]) | exponential (mean 1/f)
  Duration lifetime = std::chrono::milliseconds(2000); ///< InterestLifetime (ndnSIM default)
  uint64_t maxCount = 0;                               ///< distinct segments to request; 0 = unlimited
  uint64_t firstSegment = 0;                           ///< first segment number
  bool retransmit = false;                             ///< re-express timed-out or Nacked segments
  bool mustBeFresh = false;                            ///< MustBeFresh on every Interest

  /// Throws std::invalid_argument for out-of-range values.
  void validate() const;
};

struct ConstantRateConsumerCounters
{
  uint64_t interestsSent = 0;
  uint64_t retransmissions = 0;
  uint64_t data = 0;
  uint64_t nacks = 0;
  uint64_t timeouts = 0;
  uint64_t unexpectedData = 0;
  Bytes bytes; ///< content bytes received
};

class ConstantRateConsumer
{
public:
  using Options = ConstantRateConsumerOptions;

  /// Installs endpoint.onData and endpoint.onNack (cleared by the destructor).
  ConstantRateConsumer(Env& env, Endpoint& endpoint, Options opts = {});
  ~ConstantRateConsumer();
  ConstantRateConsumer(const ConstantRateConsumer&) = delete;
  ConstantRateConsumer& operator=(const ConstantRateConsumer&) = delete;

  /// Starts sending under `prefix` (first Interest at once).
  void start(const Name& prefix);
  void stop();

  void handleData(const Data& data);
  void handleNack(const Nack& nack);

  /// Called for each Data: segment, RTT of its last transmission, content.
  std::function<void(uint64_t, Duration, ByteSpan)> onData;

  const ConstantRateConsumerCounters& counters() const { return m_counters; }
  const Options& options() const { return m_opts; }
  bool running() const { return m_running; }

private:
  struct Pending
  {
    TimePoint sent;
    TimerId timer = 0;
    uint32_t nonce = 0; ///< of the transmission pending
  };

  void sendNext();
  Duration nextGap();
  void onTimeout(uint64_t seg);
  /// The segment of a name `<prefix>/seg=N` as this consumer spells it; nullopt for any other.
  std::optional<uint64_t> segmentOf(const Name& name) const;

  Env& m_env;
  Endpoint& m_ep;
  Options m_opts;
  Name m_prefix;
  bool m_running = false;
  uint64_t m_nextSeg = 0;
  uint64_t m_newSent = 0;
  std::deque<uint64_t> m_retxQueue;
  std::map<uint64_t, Pending> m_pending;
  TimerId m_sendTimer = 0;
  ConstantRateConsumerCounters m_counters;
};

} // namespace ndnlab::app
