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
// Marks always use the HighData test (as both ndncatchunks and ConsumerPcon do).
//
// Optionally HyStart++ (RFC 9406) ends the initial slow start on a rise in RTT instead of on
// the first loss: rounds are delimited by segment numbers (a round ends when Data arrives for
// a segment first sent after the round began); when the minimum RTT of a round (over at least
// 8 samples) exceeds the previous round's by clamp(minRTT/8, minRttThresh, maxRttThresh), the
// window enters Conservative Slow Start (growth divided by 4), returns to slow start if the
// RTT falls back below the baseline, and after 5 CSS rounds enters congestion avoidance.
// Loss or a congestion mark ends it as usual. ndncatchunks has no HyStart; it is off by default.

#include "core/cc/congestion-window.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace ndnlab::cc {

/// Which test lets a loss decrease the window under Conservative Window Adaptation.
enum class CwaGate : uint8_t {
  LostSegment, ///< the lost segment is above the recovery point (ndncatchunks)
  HighData,    ///< the highest Data received is above the recovery point (ndnSIM ConsumerPcon)
};

std::string_view toString(CwaGate g);
std::optional<CwaGate> parseCwaGate(std::string_view s); ///< "lost-segment" | "high-data"

struct WindowControllerOptions
{
  bool ignoreMarks = false; ///< treat congestion-marked Data like unmarked Data (window grows)
  bool disableCwa = false;  ///< react to every loss/mark, not once per RTT
  CwaGate cwaGate = CwaGate::LostSegment;
  /// HighData gate: the recovery point lies this share of the outstanding Interests beyond
  /// the next new segment (ConsumerPcon's AddRttSuppress; >= 0)
  double cwaRttSuppress = 0.5;
  bool hystart = false;     ///< HyStart++ (RFC 9406) delay-based exit from the initial slow start
  Duration hystartMinRttThresh = std::chrono::milliseconds(4);  ///< RFC 9406 MIN_RTT_THRESH
  Duration hystartMaxRttThresh = std::chrono::milliseconds(16); ///< RFC 9406 MAX_RTT_THRESH

  /// Throws std::invalid_argument when a value is out of range (cwaRttSuppress a finite >= 0).
  void validate() const;
};

/// Phase of HyStart++ (Done also when it is off or a decrease has happened).
enum class HyStartPhase : uint8_t { SlowStart, Conservative, Done };

struct WindowControllerCounters
{
  uint64_t marks = 0;          ///< congestion-marked Data received
  uint64_t markDecreases = 0;  ///< window decreases caused by marks
  uint64_t lossDecreases = 0;  ///< window decreases caused by loss events
  uint64_t hystartExits = 0;   ///< HyStart++ delay increases seen (entries into CSS)
  uint64_t hystartSpurious = 0; ///< CSS left for slow start again (RTT fell back)
};

class WindowController
{
public:
  using Options = WindowControllerOptions;

  WindowController(std::unique_ptr<CongestionWindow> window, Options opts = {});

  /// An Interest for `segment` was sent; first transmissions raise the highest-sent mark.
  void onInterestSent(uint64_t segment, bool isRetransmission);

  /// A Data for `segment` arrived; `marked` when its CongestionMark is non-zero; `rttSample`
  /// is its RTT when it is a valid sample (Karn: never retransmitted), used by HyStart++.
  /// Grows or shrinks the window. Returns true when the window was decreased.
  bool onData(uint64_t segment, bool marked, TimePoint now, Duration srtt,
              std::optional<Duration> rttSample = std::nullopt);

  /// A loss event whose highest affected segment is `segment` (RTO expiry, Interest lifetime
  /// expiry, Nack Congestion). Returns true when the window was decreased; the caller then
  /// backs off its RTO.
  bool onLoss(uint64_t segment, TimePoint now);

  const CongestionWindow& window() const { return *m_window; }
  CongestionWindow& window() { return *m_window; }
  double cwnd() const { return m_window->cwnd(); }
  const WindowControllerCounters& counters() const { return m_counters; }
  uint64_t highInterest() const { return m_highInterest; }
  uint64_t highData() const { return m_highData; }
  uint64_t recoveryPoint() const { return m_recPoint; }
  HyStartPhase hystartPhase() const { return m_hs.phase; }

private:
  /// HyStart++ bookkeeping for one unmarked Data; returns false when CSS withholds growth.
  bool hystartOnData(uint64_t segment, TimePoint now, std::optional<Duration> rttSample);
  void hystartStartRound();
  /// Whether a loss of `segment` or a mark may decrease the window now (CWA).
  bool mayDecrease(std::optional<uint64_t> lostSegment) const;
  /// Decreases the window and moves the recovery point.
  void decrease(TimePoint now);

  struct HyStart
  {
    HyStartPhase phase = HyStartPhase::Done;
    bool started = false;
    uint64_t windowEnd = 0;               ///< the round ends with Data above this segment
    Duration lastRoundMinRtt = Duration::max();
    Duration currentRoundMinRtt = Duration::max();
    uint32_t samples = 0;                 ///< RTT samples in the current round
    Duration cssBaselineMinRtt = Duration::max();
    uint32_t cssRounds = 0;
    uint32_t cssAcks = 0;
  };

  std::unique_ptr<CongestionWindow> m_window;
  Options m_opts;
  WindowControllerCounters m_counters;
  uint64_t m_highInterest = 0; ///< highest segment sent for the first time
  uint64_t m_highData = 0;     ///< highest segment received
  uint64_t m_recPoint = 0;     ///< no decrease for events at or below this segment (CWA)
  HyStart m_hs;
};

} // namespace ndnlab::cc
