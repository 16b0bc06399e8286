#include "core/fw/mircc.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::fw {

namespace {

/// d is floored inside the queue term (the implementation's 1 ms), so g/d stays finite.
constexpr double MinDelaySeconds = 1e-3;

} // namespace

void MirccOptions::validate() const
{
  if (interval <= Duration::zero())
    throw std::invalid_argument("mircc interval must be positive");
  if (!(ewmaWeight >= 0 && ewmaWeight < 1))
    throw std::invalid_argument("mircc EWMA weight must be in [0, 1)");
  if (!(eta > 0 && eta <= 1))
    throw std::invalid_argument("mircc eta must be in (0, 1]");
  if (!(beta >= 0 && std::isfinite(beta)))
    throw std::invalid_argument("mircc beta must be >= 0");
  if (!(delayGain > 0 && delayGain <= 1))
    throw std::invalid_argument("mircc delay gain must be in (0, 1]");
  if (initialDelay <= Duration::zero())
    throw std::invalid_argument("mircc initial delay must be positive");
  if (!(initialShare > 0 && initialShare <= 1))
    throw std::invalid_argument("mircc initial share must be in (0, 1]");
  if (!(capacity.bps() > 0 && std::isfinite(capacity.bps())))
    throw std::invalid_argument("mircc capacity must be positive");
  if (dataSize == 0)
    throw std::invalid_argument("mircc data size must be positive");
  if (!(minRate.bps() > 0))
    throw std::invalid_argument("mircc minimum rate must be positive");
  if (!(minRate.bps() <= eta * capacity.bps()))
    throw std::invalid_argument("mircc minimum rate must not exceed eta x capacity");
  if (shaperDepth == 0)
    throw std::invalid_argument("mircc shaper depth must be at least 1");
  if (shaperHold < Duration::zero())
    throw std::invalid_argument("mircc shaper hold must not be negative");
}

size_t MirccOptions::shaperDepthFor(Rate capacity) const
{
  if (shaperHold <= Duration::zero() || !(capacity.bps() > 0) || dataSize == 0)
    return shaperDepth;
  // Interests whose Data fill `capacity` for shaperHold, capped far above any real queue
  const double held = toSeconds(shaperHold) * capacity.bps() / (8.0 * static_cast<double>(dataSize));
  constexpr double Cap = 1e7;
  return std::max(shaperDepth, static_cast<size_t>(std::ceil(std::min(held, Cap))));
}

MirccRateController::MirccRateController(const MirccOptions& opts, TimePoint start)
  : m_opts(opts), m_lastUpdate(start), m_delay(opts.initialDelay)
{
  m_opts.validate();
  const double c = m_opts.eta * m_opts.capacity.bps();
  m_rate = std::clamp(m_opts.initialShare * c, m_opts.minRate.bps(), c);
  m_base = m_rate;
  m_excess = 0;
}

void MirccRateController::onInterestForwarded(TimePoint /*now*/)
{
  ++m_interests;
}

void MirccRateController::onDataDelay(Duration sample)
{
  if (sample < Duration::zero())
    return;
  // d <- (1-g)*d + g*sample (implementation: g = 0.3; the paper: "smoothed RTT", no weight)
  const double d = (1 - m_opts.delayGain) * static_cast<double>(m_delay.count()) +
                   m_opts.delayGain * static_cast<double>(sample.count());
  m_delay = Duration(static_cast<Duration::rep>(d));
}

void MirccRateController::setCapacity(Rate capacity)
{
  if (!(capacity.bps() > 0 && std::isfinite(capacity.bps())) || m_opts.eta * capacity.bps() < m_opts.minRate.bps())
    throw std::invalid_argument("mircc capacity must be positive and at least the minimum rate");
  m_opts.capacity = capacity;
  const double c = m_opts.eta * capacity.bps();
  m_rate = std::clamp(m_rate, m_opts.minRate.bps(), c);
  m_base = std::min(m_base, c);
  m_excess = std::min(m_excess, c - m_base);
}

bool MirccRateController::update(TimePoint now, size_t queuedInterests)
{
  if (now < nextUpdateTime())
    return false;

  const double elapsed = toSeconds(now - m_lastUpdate); // >= T > 0
  const double bitsPerData = m_opts.dataBytes().bits();
  const double c = m_opts.eta * m_opts.capacity.bps(); // eta*C (paper: eta = 1)
  const double minRate = m_opts.minRate.bps();
  const double prevRate = std::max(m_rate, minRate); // R(t-T), floored as in the implementation

  // y(t): Interests received over T, as the Data bits they will bring back (paper Sec. III-A:
  // "the number of received Interest packets divided by T"; implementation: x DATA_SIZE).
  const double y = static_cast<double>(m_interests) * bitsPerData / elapsed;
  // g(t): the shaper's backlog (paper: "the leaky bucket size is used as g(t)"), in bits.
  const double g = static_cast<double>(queuedInterests) * bitsPerData;
  const double d = std::max(toSeconds(m_delay), MinDelaySeconds);

  // (1) flow count: N(t) = max(1, max(eta*C, y(t)) / R(t-T)) (implementation's form; RCP's
  //     N = C/R when the link is not overloaded, y/R when it is).
  const double n = std::max(1.0, std::max(c, y) / prevRate);

  // (3) beta(t) = max(beta0, (y(t) - y(t-T)) / y(t)) while y grows, else beta0 (implementation,
  //     dynamicBeta); constant beta0 by default.
  double beta = m_opts.beta;
  if (m_opts.dynamicBeta && y > 0 && y >= m_y)
    beta = std::max(beta, (y - m_y) / y);

  // (2) base_rate*(t) = min(max((eta*C - beta*g(t)/d) / N(t), 0), eta*C / N(t)): the capacity
  //     split among the flows, less what drains the queue within d (paper eq. 2, its terms in
  //     Sec. II-C; form and clamps from the implementation).
  const double baseStar = std::min(std::max((c - beta * g / d) / n, 0.0), c / n);

  // (4) excess_rate*(t) = min(max(R(t-T) - y(t)/N(t), 0), eta*C - base_rate*(t)): the unused
  //     capacity shared out (paper eq. 4; implementation's form). R - y/N = R(1 - y/max(C,y)).
  const double excessStar = std::min(std::max(prevRate - y / n, 0.0), std::max(c - baseStar, 0.0));

  // EWMA on both (paper: weight 0.5; implementation a = 0.8 on the old value).
  const double a = m_opts.ewmaWeight;
  m_base = a * m_base + (1 - a) * baseStar;
  m_excess = a * m_excess + (1 - a) * excessStar;

  // (5) R(t) = base_rate(t) + excess_rate(t), kept in [minRate, eta*C].
  m_rate = std::min(std::max(m_base + m_excess, minRate), c);

  m_y = y;
  m_flows = n;
  m_interests = 0;
  m_lastUpdate = now;
  ++m_updates;
  return true;
}

Duration shaperInterval(size_t depth, Bytes dataSize, Rate rate)
{
  if (depth == 0)
    throw std::invalid_argument("shaper depth must be at least 1");
  if (dataSize.count() == 0)
    throw std::invalid_argument("shaper data size must be positive");
  if (!(rate.bps() > 0 && std::isfinite(rate.bps())))
    throw std::invalid_argument("shaper rate must be positive");
  // one Interest per dataSize/rate: the returning Data fills `rate` (at least 1 ns apart)
  return std::max(rate.transmissionTime(dataSize), Duration(1));
}

} // namespace ndnlab::fw
