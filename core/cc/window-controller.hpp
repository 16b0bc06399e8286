#pragma once
// Reaction of a segment-fetching consumer to Data, congestion marks and losses, on top of a
// CongestionWindow: Conservative Window Adaptation (at most one decrease per RTT, tracked with
// a recovery point in segment numbers) and the congestion-mark policy of ndncatchunks
// (pipeline-interests-adaptive.cpp). Pure state: the caller passes segment numbers and time.
//
// Two gates for a loss decrease exist in the wild and they differ a lot when losses are only
// found by timeout:
// - LostSegment (ndncatchunks): a loss decreases the window when the *lost segment* is above
//   the recovery point (the highest Interest sent at the previous decrease). A timeout
//   reports a segment sent one RTO ago, so after a decrease the next one waits about an RTO.
// - HighData (ndnSIM 2.x ConsumerPcon, which the BLEnD paper ran): any loss or mark decreases
//   the window once the *highest Data received* has passed the recovery point, set at each
//   decrease to next + AddRttSuppress x (next - highData), next being the next new segment:
//   at most one decrease per (1 + AddRttSuppress) RTTs, whatever segment was lost.
// - Transmission (ndnlab's default; TCP's recovery, RFC 6675/8985): a loss decreases the
//   window when the lost *transmission* was sent after the last decrease. Every Interest sent,
//   retransmissions included, gets the next transmission number; a decrease sets the recovery
//   point to the last number sent. The point always advances, so a loss episode that goes on
//   (retransmissions lost again, the window still above the path's BDP plus its queue) keeps
//   decreasing the window once per round trip; the segment-number gates above never count a
//   lost retransmission, since its segment lies below their point.
// Marks use the HighData test (as both ndncatchunks and ConsumerPcon do), and under the
// Transmission gate the transmission test: a mark on Data for an Interest sent after the last
// decrease.
//
// Optionally HyStart++ (RFC 9406) ends the initial slow start on a rise in RTT instead of on
// the first loss: rounds are delimited by segment numbers (a round ends when Data arrives for
// a segment first sent after the round began); when the minimum RTT of a round (over at least
// 8 samples) exceeds the previous round's by clamp(minRTT/8, minRttThresh, maxRttThresh), the
// window enters Conservative Slow Start (growth divided by 4), returns to slow start if the
// RTT falls back below the baseline, and after 5 CSS rounds enters congestion avoidance.
// Loss or a congestion mark ends it as usual. hystartCssRounds = 0 is Linux's HyStart delay
// rule instead: no CSS, and the rise is measured from the lowest RTT of the whole fetch, not
// from the previous round, so that a queue growing by less than the threshold per round (short
// rounds on a sub-millisecond path) still ends slow start. ndncatchunks has no HyStart;
// ndnlab's profile has it on with hystartCssRounds = 0.

#include "core/cc/congestion-window.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace ndnlab::cc {

/// Which test lets a loss decrease the window under Conservative Window Adaptation.
enum class CwaGate : uint8_t {
  LostSegment,  ///< the lost segment is above the recovery point (ndncatchunks)
  HighData,     ///< the highest Data received is above the recovery point (ndnSIM ConsumerPcon)
  Transmission, ///< the lost Interest was sent after the last decrease (TCP recovery; default)
};

std::string_view toString(CwaGate g);
std::optional<CwaGate> parseCwaGate(std::string_view s); ///< "lost-segment" | "high-data" | "transmission"

struct WindowControllerOptions
{
  bool ignoreMarks = false; ///< treat congestion-marked Data like unmarked Data (window grows)
  bool disableCwa = false;  ///< react to every loss/mark, not once per RTT
  CwaGate cwaGate = CwaGate::Transmission;
  /// HighData gate: the recovery point lies this share of the outstanding Interests beyond
  /// the next new segment (ConsumerPcon's AddRttSuppress; >= 0)
  double cwaRttSuppress = 0.5;
  /// HyStart++ (RFC 9406) delay-based exit from the initial slow start; on by default, off in
  /// the ndncatchunks profile (docs/results/bottleneck.md has the evidence)
  bool hystart = true;
  /// Lowest RTT rise that ends slow start (RFC 9406 MIN_RTT_THRESH: 4 ms). The rise is seen
  /// when a round begins with that much queue, and the window has about doubled again by the
  /// time 8 samples show it, so a rise of T overflows a drop-tail queue shorter than about 4T:
  /// at 4 ms, the 12.5 ms queues of docs/results/bottleneck.md overflowed in slow start.
  Duration hystartMinRttThresh = std::chrono::milliseconds(2);
  Duration hystartMaxRttThresh = std::chrono::milliseconds(16); ///< RFC 9406 MAX_RTT_THRESH
  /// Rounds of Conservative Slow Start after the RTT rise (RFC 9406 CSS_ROUNDS: 5); 0 (default)
  /// enters congestion avoidance at once, as Linux's HyStart does: over a drop-tail queue the
  /// five CSS rounds (x3 growth) overflowed a 50 ms queue that the direct exit never reached.
  uint32_t hystartCssRounds = 0;

  /// Throws std::invalid_argument when a value is out of range (cwaRttSuppress a finite >= 0).
  void validate() const;
};

/// Phase of HyStart++ (Done also when it is off or a decrease has happened).
enum class HyStartPhase : uint8_t { SlowStart, Conservative, Done };

struct WindowControllerCounters
{
  uint64_t marks = 0;           ///< congestion-marked Data received
  uint64_t markDecreases = 0;   ///< window decreases caused by marks
  uint64_t lossDecreases = 0;   ///< window decreases caused by loss events
  uint64_t hystartExits = 0;    ///< HyStart++ delay increases seen (entries into CSS)
  uint64_t hystartSpurious = 0; ///< CSS left for slow start again (RTT fell back)
};

class WindowController
{
public:
  using Options = WindowControllerOptions;

  WindowController(std::unique_ptr<CongestionWindow> window, Options opts = {});

  /// An Interest for `segment` was sent; first transmissions raise the highest-sent mark.
  /// Returns its transmission number (1, 2, ...; retransmissions included), which the caller
  /// passes back with the Data or the loss of that Interest.
  uint64_t onInterestSent(uint64_t segment, bool isRetransmission);

  /// A Data for `segment` arrived; `marked` when its CongestionMark is non-zero; `rttSample`
  /// is its RTT when it is a valid sample (Karn: never retransmitted), used by HyStart++.
  /// `transmission` is the number onInterestSent gave the Interest it answers (0: unknown,
  /// never past the recovery point). Grows or shrinks the window. Returns true when the window
  /// was decreased.
  bool onData(uint64_t segment, bool marked, TimePoint now, Duration srtt,
              std::optional<Duration> rttSample = std::nullopt, uint64_t transmission = 0);

  /// A loss event whose highest affected segment is `segment` and latest affected Interest is
  /// `transmission` (RTO expiry, Interest lifetime expiry, loss found by Data order, Nack
  /// Congestion). Returns true when the window was decreased.
  bool onLoss(uint64_t segment, TimePoint now, uint64_t transmission = 0);

  const CongestionWindow& window() const { return *m_window; }
  CongestionWindow& window() { return *m_window; }
  double cwnd() const { return m_window->cwnd(); }
  const WindowControllerCounters& counters() const { return m_counters; }
  uint64_t highInterest() const { return m_highInterest; }
  uint64_t highData() const { return m_highData; }
  uint64_t recoveryPoint() const { return m_recPoint; }
  /// Interests sent so far (the last transmission number given out).
  uint64_t transmissions() const { return m_transmissions; }
  HyStartPhase hystartPhase() const { return m_hs.phase; }

private:
  /// HyStart++ bookkeeping for one unmarked Data; returns false when CSS withholds growth.
  bool hystartOnData(uint64_t segment, TimePoint now, std::optional<Duration> rttSample);
  void hystartStartRound();
  /// Whether a loss of `segment` or a mark may decrease the window now (CWA).
  bool mayDecrease(std::optional<uint64_t> lostSegment, uint64_t transmission) const;
  /// Decreases the window and moves the recovery point.
  void decrease(TimePoint now);

  struct HyStart
  {
    HyStartPhase phase = HyStartPhase::Done;
    bool started = false;
    uint64_t windowEnd = 0; ///< the round ends with Data above this segment
    Duration lastRoundMinRtt = Duration::max();
    Duration currentRoundMinRtt = Duration::max();
    Duration minRtt = Duration::max(); ///< every sample of the fetch so far (Linux's delay_min)
    uint32_t samples = 0;              ///< RTT samples in the current round
    Duration cssBaselineMinRtt = Duration::max();
    uint32_t cssRounds = 0;
    uint32_t cssAcks = 0;
  };

  std::unique_ptr<CongestionWindow> m_window;
  Options m_opts;
  WindowControllerCounters m_counters;
  uint64_t m_highInterest = 0;    ///< highest segment sent for the first time
  uint64_t m_highData = 0;        ///< highest segment received
  uint64_t m_recPoint = 0;        ///< no decrease for events at or below this segment (CWA)
  uint64_t m_transmissions = 0;   ///< Interests sent (the last transmission number)
  uint64_t m_recTransmission = 0; ///< Transmission gate: last transmission number at the last decrease
  HyStart m_hs;
};

} // namespace ndnlab::cc
