#pragma once
// ConstantRateConsumer: Interests at a fixed frequency, whatever comes back (ndnSIM's
// ConsumerCbr): `<prefix>/seg=N` for N = firstSegment, firstSegment+1, ... Each Interest is
// timed out after its lifetime; a timed-out or Nacked segment is optionally re-expressed in the
// next send slot (before any new segment). There is no window and no congestion control.
// A Data answers a pending segment only under the exact name its Interest carried, and a Nack
// only with that transmission's Nonce; anything else is unexpected (counted, or ignored).
//
//
// Explicit rate (`followRate`): the paper's MIRCC consumer (Kato et al., Sec. III-A(4), ndnSIM's
// ConsumerLi): the frequency becomes the rate stamped in each Data or Nack (MirccRate,
// docs/mechanisms/mircc.md) over the size of one Data (`rateDataSize`, 0 = the Data's own
// wire size). With a coarse clock (`tick` > 0; Sec. III-B, Fig. 3) the Interests that fall due
// are held and all sent at the next tick; with `smoothening` (Sec. V) the held Interests also
// leave whenever a Data or Nack arrives. This is the paper's evaluation consumer: no
// retransmission unless asked, so loss = 1 - Data / Interests sent.
//
// Trace events: cbr_data (value = segment, value2 = RTT of the last transmission in s),
// cbr_timeout (value = segment), cbr_nack (value = segment, reason = Nack reason).

#include "core/app/endpoint.hpp"
#include "core/runtime/env.hpp"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

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
  /// MIRCC: send at the rate stamped in the latest Data or Nack (`frequency` until the first)
  bool followRate = false;
  /// followRate: bytes of one Data that turn the stamped bit rate into Interests per second;
  /// 0 = the wire size of the Data that carried the rate
  size_t rateDataSize = 0;
  /// The consumer's clock: 0 = every Interest leaves when it falls due; > 0 = those that fell
  /// due are held until the next tick (the paper's coarse-grained clock)
  Duration tick = Duration::zero();
  /// With a tick: held Interests also leave whenever a Data or Nack arrives (the paper's Sec. V)
  bool smoothening = false;
  /// followRate, beyond the paper (issue 28 8(a)): a higher stamped rate is taken at most
  /// doubling per smoothed RTT, so a newcomer does not jump to a share computed before it came
  bool rampUp = false;

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
  uint64_t ticks = 0;           ///< coarse-clock ticks that sent held Interests
  uint64_t smoothenedSends = 0; ///< held Interests sent on a Data or Nack arrival
  Bytes bytes;                  ///< content bytes received
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
  /// Sends nothing more (held Interests are discarded); Interests in flight still end in a
  /// Data, a Nack or a timeout, so every Interest sent is resolved.
  void stopSending();
  void stop();

  void handleData(const Data& data);
  void handleNack(const Nack& nack);

  /// Called for each Data: segment, RTT of its last transmission, content.
  std::function<void(uint64_t, Duration, ByteSpan)> onData;
  /// Called when an Interest sent at `sent` is resolved: answered by Data (true), or Nacked or
  /// timed out (false). Loss per send time, the paper's loss rate over time.
  std::function<void(TimePoint sent, bool answered)> onResolved;

  const ConstantRateConsumerCounters& counters() const { return m_counters; }
  const Options& options() const { return m_opts; }
  bool running() const { return m_running; }
  /// Interests per second now (`frequency`, or the followed rate).
  double frequency() const { return m_frequency; }
  /// Interests held for the next tick.
  size_t held() const { return m_held.size(); }

private:
  struct Pending
  {
    TimePoint sent;
    TimerId timer = 0;
    uint32_t nonce = 0; ///< of the transmission pending
  };

  /// The next Interest falls due: sent now, or with a tick held for the next one.
  void sendNext();
  Duration nextGap();
  /// Sends `interest` now: its lifetime timer starts, it counts as sent.
  void send(Interest&& interest);
  /// Sends every held Interest.
  void flushHeld();
  void onTick();
  /// A Data (of `wireSize` bytes) or a Nack (0) arrived: follow its rate, smoothen.
  void afterAnswer(const std::optional<Rate>& rate, size_t wireSize);
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
  TimePoint m_due{}; ///< when the Interest sent last was due (the schedule, not the timer)
  /// How far behind its schedule the consumer may catch up with a burst.
  static constexpr Duration kMaxCatchUp = std::chrono::milliseconds(10);
  TimerId m_tickTimer = 0;
  std::vector<Interest> m_held; ///< fell due, waiting for the tick
  double m_frequency;
  size_t m_lastDataSize = 0; ///< wire size of the latest Data (followRate with rateDataSize 0)
  Duration m_srtt{0};        ///< smoothed RTT of the Data (rampUp)
  TimePoint m_lastRate{};    ///< when the rate was last taken (rampUp)
  ConstantRateConsumerCounters m_counters;
};

} // namespace ndnlab::app
