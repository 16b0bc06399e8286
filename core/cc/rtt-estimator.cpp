#include "core/cc/rtt-estimator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::cc {

void RttEstimatorOptions::validate() const
{
  if (!(alpha > 0 && alpha <= 1))
    throw std::invalid_argument("rtt alpha must be in (0, 1]");
  if (!(beta > 0 && beta <= 1))
    throw std::invalid_argument("rtt beta must be in (0, 1]");
  if (!(k >= 0))
    throw std::invalid_argument("rto k must be >= 0");
  if (minRto <= Duration::zero())
    throw std::invalid_argument("min rto must be positive");
  if (maxRto < minRto)
    throw std::invalid_argument("max rto must be >= min rto");
  if (!(backoffMultiplier >= 1))
    throw std::invalid_argument("rto backoff multiplier must be >= 1");
}

RttEstimator::RttEstimator(Options opts) : m_opts(opts)
{
  m_opts.validate();
  m_rto = std::clamp(m_opts.initialRto, m_opts.minRto, m_opts.maxRto);
}

Duration RttEstimator::clampRto(double ns) const
{
  double lo = static_cast<double>(m_opts.minRto.count());
  double hi = static_cast<double>(m_opts.maxRto.count());
  if (!(ns >= lo)) // also catches NaN
    ns = lo;
  if (ns > hi)
    ns = hi;
  return Duration(static_cast<Duration::rep>(ns));
}

void RttEstimator::addMeasurement(Duration rtt, size_t nExpectedSamples)
{
  if (rtt < Duration::zero())
    rtt = Duration::zero();
  if (nExpectedSamples == 0)
    nExpectedSamples = 1;

  if (m_nSamples == 0) {
    m_srtt = rtt;
    m_rttVar = rtt / 2;
  }
  else {
    double a = m_opts.alpha / static_cast<double>(nExpectedSamples);
    double b = m_opts.beta / static_cast<double>(nExpectedSamples);
    double srtt = static_cast<double>(m_srtt.count());
    double var = static_cast<double>(m_rttVar.count());
    double r = static_cast<double>(rtt.count());
    var = (1 - b) * var + b * std::abs(srtt - r);
    srtt = (1 - a) * srtt + a * r;
    m_rttVar = Duration(static_cast<Duration::rep>(var));
    m_srtt = Duration(static_cast<Duration::rep>(srtt));
  }
  m_rto = clampRto(static_cast<double>(m_srtt.count()) + m_opts.k * static_cast<double>(m_rttVar.count()));

  ++m_nSamples;
  m_backoffs = 0;
  m_min = std::min(m_min, rtt);
  m_max = std::max(m_max, rtt);
  m_sumNs += static_cast<double>(rtt.count());
}

void RttEstimator::backoffRto()
{
  m_rto = clampRto(static_cast<double>(m_rto.count()) * m_opts.backoffMultiplier);
  ++m_backoffs;
}

Duration RttEstimator::avgRtt() const
{
  if (m_nSamples == 0)
    return Duration::zero();
  return Duration(static_cast<Duration::rep>(m_sumNs / static_cast<double>(m_nSamples)));
}

} // namespace ndnlab::cc
