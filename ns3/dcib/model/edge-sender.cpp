#include "ns3/dcib/model/edge-sender.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::dcib {

const char* toString(SelectionMode m)
{
  return m == SelectionMode::Even ? "even" : "random";
}

const char* toString(BufferMode m)
{
  return m == BufferMode::Stalled ? "stalled" : "lowprio";
}

SelectionMode parseSelectionMode(const std::string& s)
{
  if (s == "even")
    return SelectionMode::Even;
  if (s == "random")
    return SelectionMode::Random;
  throw std::invalid_argument("selection mode '" + s + "': expected even or random");
}

BufferMode parseBufferMode(const std::string& s)
{
  if (s == "stalled")
    return BufferMode::Stalled;
  if (s == "lowprio")
    return BufferMode::LowPriority;
  throw std::invalid_argument("buffer mode '" + s + "': expected stalled or lowprio");
}

void SenderOptions::validate() const
{
  if (!(selectionRatio >= 0.0 && selectionRatio <= 1.0))
    throw std::invalid_argument("DCIB selection ratio must be in [0, 1]");
  if (interRouterRtt <= Duration::zero())
    throw std::invalid_argument("DCIB inter-router RTT must be positive");
  if (linkRate.bitsPerSecond == 0)
    throw std::invalid_argument("DCIB link rate must be positive");
}

double SenderOptions::boundRatio() const
{
  double seconds = std::chrono::duration<double>(interRouterRtt).count();
  return double(bufferBytes) * 8.0 / (seconds * double(linkRate.bitsPerSecond));
}

double SenderOptions::effectiveRatio() const
{
  if (adaptiveRatio)
    return selectionRatio; // the start value; adapt() takes over after one tau
  return enforceBound ? std::min(selectionRatio, boundRatio()) : selectionRatio;
}

Selector::Selector(double ratio, SelectionMode mode, uint64_t seed)
  : m_ratio(ratio), m_mode(mode), m_step(static_cast<uint64_t>(std::llround(ratio * double(Scale)))), m_rng(seed)
{}

void Selector::setRatio(double ratio)
{
  m_ratio = std::clamp(ratio, 0.0, 1.0);
  m_step = static_cast<uint64_t>(std::llround(m_ratio * double(Scale)));
}

bool Selector::next()
{
  if (m_mode == SelectionMode::Random)
    return m_u(m_rng) < m_ratio;
  m_credit += m_step;
  if (m_credit >= Scale) {
    m_credit -= Scale;
    return true;
  }
  return false;
}

} // namespace ndnlab::dcib
