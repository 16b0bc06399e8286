#pragma once
// Interest pacing around any window: at most one Interest per interval srtt / (gain x cwnd),
// so a window is spread over one smoothed RTT instead of leaving in a burst (BLEnD VI-A; the
// pacer of quiche's and Linux's TCP, which wraps any congestion controller). Pure: the caller
// passes the time and arms its own timer for the wait it is given.

#include "core/runtime/units.hpp"

#include <algorithm>
#include <optional>

namespace ndnlab::cc {

class Pacer
{
public:
  /// `gain` > 0: the paced rate is gain x cwnd / srtt.
  explicit Pacer(double gain) : m_gain(gain) {}

  /// Whether an Interest may leave at `now` for a window `cwnd` (segments, at least 1 counts)
  /// over a smoothed RTT `srtt` > 0. Yes (nullopt): the slot is booked and the next one is an
  /// interval after `now`, so an idle period does not bank a burst. No: how long to wait.
  std::optional<Duration> wait(TimePoint now, double cwnd, Duration srtt)
  {
    if (now < m_next)
      return m_next - now;
    const double rate = m_gain * std::max(1.0, cwnd) / toSeconds(srtt);
    m_next = now + Duration(static_cast<Duration::rep>(1e9 / rate));
    return std::nullopt;
  }

private:
  double m_gain;
  TimePoint m_next{};
};

} // namespace ndnlab::cc
