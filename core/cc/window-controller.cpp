#include "core/cc/window-controller.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::cc {

WindowController::WindowController(std::unique_ptr<CongestionWindow> window, Options opts)
  : m_window(std::move(window)), m_opts(opts)
{
  if (!m_window)
    throw std::invalid_argument("WindowController needs a window");
  m_opts.validate();
  if (m_opts.hystart && m_window->isAdaptive() && m_window->cwnd() < m_window->ssthresh())
    m_hs.phase = HyStartPhase::SlowStart;
}

void WindowControllerOptions::validate() const
{
  if (!(cwaRttSuppress >= 0) || !std::isfinite(cwaRttSuppress))
    throw std::invalid_argument("CWA RTT suppression must be a number >= 0");
}

std::string_view toString(CwaGate g)
{
  switch (g) {
    case CwaGate::LostSegment: return "lost-segment";
    case CwaGate::HighData: return "high-data";
    case CwaGate::Transmission: return "transmission";
  }
  return "?";
}

std::optional<CwaGate> parseCwaGate(std::string_view s)
{
  if (s == "lost-segment")
    return CwaGate::LostSegment;
  if (s == "high-data")
    return CwaGate::HighData;
  if (s == "transmission")
    return CwaGate::Transmission;
  return std::nullopt;
}

namespace {
// RFC 9406 section 4.2 constants
constexpr uint32_t NRttSample = 8;
constexpr uint32_t MinRttDivisor = 8;
constexpr uint32_t CssGrowthDivisor = 4;
} // namespace

void WindowController::hystartStartRound()
{
  m_hs.lastRoundMinRtt = m_hs.currentRoundMinRtt;
  m_hs.currentRoundMinRtt = Duration::max();
  m_hs.samples = 0;
  m_hs.windowEnd = m_highInterest;
}

bool WindowController::hystartOnData(uint64_t segment, TimePoint now, std::optional<Duration> rttSample)
{
  if (m_hs.phase == HyStartPhase::Done)
    return true;
  if (m_window->cwnd() >= m_window->ssthresh()) { // left slow start some other way
    m_hs.phase = HyStartPhase::Done;
    return true;
  }
  if (!m_hs.started) {
    m_hs.started = true;
    m_hs.windowEnd = m_highInterest;
  }
  else if (segment > m_hs.windowEnd) {
    hystartStartRound();
    if (m_hs.phase == HyStartPhase::Conservative && ++m_hs.cssRounds >= m_opts.hystartCssRounds) {
      m_window->exitSlowStart(now);
      m_hs.phase = HyStartPhase::Done;
      return false;
    }
  }

  if (rttSample) {
    m_hs.currentRoundMinRtt = std::min(m_hs.currentRoundMinRtt, *rttSample);
    m_hs.minRtt = std::min(m_hs.minRtt, *rttSample);
    ++m_hs.samples;
  }
  // RFC 9406 compares a round with the one before it; Linux's HyStart (no CSS) with the lowest
  // RTT seen, which also catches a queue that grows by less than the threshold per round.
  const bool linuxRule = m_opts.hystartCssRounds == 0;
  const Duration baseline = linuxRule ? m_hs.minRtt : m_hs.lastRoundMinRtt;
  const bool enoughSamples =
    m_hs.samples >= NRttSample && m_hs.currentRoundMinRtt != Duration::max() && m_hs.lastRoundMinRtt != Duration::max();
  if (m_hs.phase == HyStartPhase::SlowStart) {
    if (enoughSamples) {
      Duration thresh = std::clamp(baseline / MinRttDivisor, m_opts.hystartMinRttThresh, m_opts.hystartMaxRttThresh);
      if (m_hs.currentRoundMinRtt >= baseline + thresh) {
        ++m_counters.hystartExits;
        if (m_opts.hystartCssRounds == 0) { // straight to congestion avoidance (Linux's HyStart)
          m_window->exitSlowStart(now);
          m_hs.phase = HyStartPhase::Done;
          return false;
        }
        m_hs.phase = HyStartPhase::Conservative;
        m_hs.cssBaselineMinRtt = m_hs.currentRoundMinRtt;
        m_hs.cssRounds = 0;
        m_hs.cssAcks = 0;
      }
    }
    return true;
  }
  // Conservative Slow Start
  if (enoughSamples && m_hs.currentRoundMinRtt < m_hs.cssBaselineMinRtt) {
    m_hs.phase = HyStartPhase::SlowStart; // the RTT rise was spurious
    m_hs.cssBaselineMinRtt = Duration::max();
    ++m_counters.hystartSpurious;
    return true;
  }
  return ++m_hs.cssAcks % CssGrowthDivisor == 0;
}

uint64_t WindowController::onInterestSent(uint64_t segment, bool isRetransmission)
{
  if (!isRetransmission)
    m_highInterest = segment;
  return ++m_transmissions;
}

bool WindowController::onData(uint64_t segment, bool marked, TimePoint now, Duration srtt,
                              std::optional<Duration> rttSample, uint64_t transmission)
{
  m_highData = std::max(m_highData, segment);

  if (!marked || m_opts.ignoreMarks) {
    if (marked)
      ++m_counters.marks;
    if (hystartOnData(segment, now, rttSample))
      m_window->increase(now, srtt);
    return false;
  }

  ++m_counters.marks;
  if (!mayDecrease(std::nullopt, transmission))
    return false;
  ++m_counters.markDecreases;
  decrease(now);
  return true;
}

bool WindowController::onLoss(uint64_t segment, TimePoint now, uint64_t transmission)
{
  if (!mayDecrease(segment, transmission))
    return false;
  ++m_counters.lossDecreases;
  decrease(now);
  return true;
}

bool WindowController::mayDecrease(std::optional<uint64_t> lostSegment, uint64_t transmission) const
{
  if (m_opts.disableCwa)
    return true;
  if (m_opts.cwaGate == CwaGate::Transmission)
    return transmission > m_recTransmission;
  if (lostSegment && m_opts.cwaGate == CwaGate::LostSegment)
    return *lostSegment > m_recPoint;
  return m_highData > m_recPoint;
}

void WindowController::decrease(TimePoint now)
{
  // Interests still outstanding during this event must not cause another decrease.
  if (m_opts.cwaGate == CwaGate::HighData) {
    const uint64_t next = m_highInterest + 1;
    const uint64_t outstanding = next > m_highData ? next - m_highData : 0;
    m_recPoint = next + static_cast<uint64_t>(m_opts.cwaRttSuppress * static_cast<double>(outstanding));
  }
  else {
    m_recPoint = m_highInterest;
  }
  m_recTransmission = m_transmissions;
  m_hs.phase = HyStartPhase::Done;
  m_window->decrease(now);
}

} // namespace ndnlab::cc
