#include "core/cc/window-controller.hpp"

#include <algorithm>
#include <stdexcept>

namespace ndnlab::cc {

WindowController::WindowController(std::unique_ptr<CongestionWindow> window, Options opts)
  : m_window(std::move(window))
  , m_opts(opts)
{
  if (!m_window)
    throw std::invalid_argument("WindowController needs a window");
}

void
WindowController::onInterestSent(uint64_t segment, bool isRetransmission)
{
  if (!isRetransmission)
    m_highInterest = segment;
}

bool
WindowController::onData(uint64_t segment, bool marked, TimePoint now, Duration srtt)
{
  m_highData = std::max(m_highData, segment);

  if (!marked || m_opts.ignoreMarks) {
    if (marked)
      ++m_counters.marks;
    m_window->increase(now, srtt);
    return false;
  }

  ++m_counters.marks;
  if (m_opts.disableCwa || m_highData > m_recPoint) {
    m_recPoint = m_highInterest;
    ++m_counters.markDecreases;
    m_window->decrease(now);
    return true;
  }
  return false;
}

bool
WindowController::onLoss(uint64_t segment, TimePoint now)
{
  if (m_opts.disableCwa || segment > m_recPoint) {
    // Interests still outstanding during this event must not cause another decrease.
    m_recPoint = m_highInterest;
    ++m_counters.lossDecreases;
    m_window->decrease(now);
    return true;
  }
  return false;
}

} // namespace ndnlab::cc
