#include "core/stream/estimators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ndnlab::stream {

size_t interestDemand(Duration drdEst, Duration period)
{
  if (period <= Duration::zero())
    throw std::invalid_argument("the sample period must be positive");
  const double ratio = toSeconds(std::max(drdEst, Duration::zero())) / toSeconds(period);
  return std::max<size_t>(1, static_cast<size_t>(std::ceil(ratio - 1e-9)));
}

size_t burst(size_t lambda)
{
  return std::max<size_t>(1, 2 * lambda);
}

size_t withhold(size_t lambda)
{
  return std::max<size_t>(1, lambda * 3 / 4);
}

DrdEstimator::DrdEstimator(Duration window, Duration initial) : m_window(window), m_initial(initial)
{
  if (window <= Duration::zero())
    throw std::invalid_argument("the DRD window must be positive");
}

void DrdEstimator::add(TimePoint now, Duration drd, bool cached)
{
  Samples& s = cached ? m_cached : m_original;
  s.window.emplace_back(now, drd);
  s.sum += drd;
  m_lastCached = cached;
}

Duration DrdEstimator::mean(Samples& s, TimePoint now)
{
  while (!s.window.empty() && s.window.front().first < now - m_window) {
    s.sum -= s.window.front().second;
    s.window.pop_front();
  }
  if (!s.window.empty())
    s.last = s.sum / static_cast<int64_t>(s.window.size());
  return s.last.value_or(m_initial); // a quiet window keeps the last mean, not the initial guess
}

Duration DrdEstimator::original(TimePoint now)
{
  return mean(m_original, now);
}

Duration DrdEstimator::cached(TimePoint now)
{
  return mean(m_cached, now);
}

Duration DrdEstimator::latest(TimePoint now)
{
  return m_lastCached ? cached(now) : original(now);
}

StabilityParams StabilityParams::named(const std::string& name)
{
  if (name == "low")
    return low();
  if (name == "medium")
    return medium();
  if (name == "high")
    return high();
  throw std::invalid_argument("stability estimator \"" + name + "\": low, medium or high");
}

StabilityEstimator::StabilityEstimator(StabilityParams params, Duration period) : m_params(params), m_period(0)
{
  if (!(params.theta1 >= 0) || !(params.theta2 >= 0 && params.theta2 <= 1) || params.n == 0 || params.k == 0)
    throw std::invalid_argument("stability estimator: theta1 >= 0, 0 <= theta2 <= 1, N >= 1, K >= 1");
  setPeriod(period);
}

void StabilityEstimator::setPeriod(Duration period)
{
  if (period <= Duration::zero())
    throw std::invalid_argument("the sample period must be positive");
  m_period = toSeconds(period);
}

void StabilityEstimator::reset()
{
  m_deltas.clear();
  m_run = 0;
}

bool StabilityEstimator::add(Duration delta)
{
  m_deltas.push_back(toSeconds(std::max(delta, Duration::zero())));
  const size_t n = m_params.n;
  if (m_deltas.size() > 2 * n)
    m_deltas.pop_front();
  bool stable = false;
  if (m_deltas.size() == 2 * n) {
    const double m2 = std::accumulate(m_deltas.begin(), m_deltas.begin() + static_cast<std::ptrdiff_t>(n), 0.0) /
                      static_cast<double>(n);
    const double m1 =
      std::accumulate(m_deltas.begin() + static_cast<std::ptrdiff_t>(n), m_deltas.end(), 0.0) / static_cast<double>(n);
    const bool settled = m2 > 0 && std::abs(m1 / m2 - 1) <= m_params.theta1;
    const bool atPeriod = 1 - std::abs(m1 - m_period) / m_period >= m_params.theta2;
    stable = settled && atPeriod;
  }
  m_run = stable ? m_run + 1 : 0;
  return stable;
}

} // namespace ndnlab::stream
