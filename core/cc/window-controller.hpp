#pragma once
// Reaction of a segment-fetching consumer to Data, congestion marks and losses, on top of a
// CongestionWindow: Conservative Window Adaptation (at most one decrease per RTT, tracked with
// a recovery point in segment numbers) and the congestion-mark policy of ndncatchunks
// (pipeline-interests-adaptive.cpp). Pure state: the caller passes segment numbers and time.

#include "core/cc/congestion-window.hpp"

#include <cstdint>
#include <memory>

namespace ndnlab::cc {

struct WindowControllerOptions
{
  bool ignoreMarks = false; ///< treat congestion-marked Data like unmarked Data (window grows)
  bool disableCwa = false;  ///< react to every loss/mark, not once per RTT
};

struct WindowControllerCounters
{
  uint64_t marks = 0;          ///< congestion-marked Data received
  uint64_t markDecreases = 0;  ///< window decreases caused by marks
  uint64_t lossDecreases = 0;  ///< window decreases caused by loss events
};

class WindowController
{
public:
  using Options = WindowControllerOptions;

  WindowController(std::unique_ptr<CongestionWindow> window, Options opts = {});

  /// An Interest for `segment` was sent; first transmissions raise the highest-sent mark.
  void onInterestSent(uint64_t segment, bool isRetransmission);

  /// A Data for `segment` arrived; `marked` when its CongestionMark is non-zero. Grows or
  /// shrinks the window. Returns true when the window was decreased.
  bool onData(uint64_t segment, bool marked, TimePoint now, Duration srtt);

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

private:
  std::unique_ptr<CongestionWindow> m_window;
  Options m_opts;
  WindowControllerCounters m_counters;
  uint64_t m_highInterest = 0; ///< highest segment sent for the first time
  uint64_t m_highData = 0;     ///< highest segment received
  uint64_t m_recPoint = 0;     ///< no decrease for events at or below this segment (CWA)
};

} // namespace ndnlab::cc
