#include "core/cc/congestion-window.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::cc {

void WindowOptions::validate() const
{
  if (!(initCwnd >= 1))
    throw std::invalid_argument("initial cwnd must be >= 1");
  if (!(initSsthresh > 0))
    throw std::invalid_argument("initial ssthresh must be positive");
  if (!(fixedSize >= 1))
    throw std::invalid_argument("fixed pipeline size must be >= 1");
  if (!(aimd.step > 0))
    throw std::invalid_argument("aimd step must be positive");
  if (!(aimd.beta > 0 && aimd.beta < 1))
    throw std::invalid_argument("aimd beta must be in (0, 1)");
  if (!(cubic.beta > 0 && cubic.beta < 1))
    throw std::invalid_argument("cubic beta must be in (0, 1)");
  if (!(cubic.c > 0))
    throw std::invalid_argument("cubic C must be positive");
  if (!(aimd.minSsthresh >= 1))
    throw std::invalid_argument("AIMD minimum ssthresh must be at least 1");
}

// --- AIMD ---------------------------------------------------------------------------------

AimdWindow::AimdWindow(const WindowOptions& o)
  : CongestionWindow(o.initCwnd, o.initSsthresh), m_initCwnd(o.initCwnd), m_opts(o.aimd)
{}

void AimdWindow::increase(TimePoint, Duration)
{
  if (m_cwnd < m_ssthresh)
    m_cwnd += m_opts.step; // slow start
  else
    m_cwnd += m_opts.step / (m_opts.floorIncrease ? std::floor(m_cwnd) : m_cwnd); // avoidance
}

void AimdWindow::decrease(TimePoint)
{
  m_ssthresh = std::max(m_opts.minSsthresh, m_cwnd * m_opts.beta);
  m_cwnd = m_opts.resetToInit ? m_initCwnd : m_ssthresh;
}

// --- CUBIC --------------------------------------------------------------------------------

CubicWindow::CubicWindow(const WindowOptions& o, TimePoint start)
  : CongestionWindow(o.initCwnd, o.initSsthresh), m_initCwnd(o.initCwnd), m_opts(o.cubic), m_lastDecrease(start)
{}

void CubicWindow::increase(TimePoint now, Duration srtt)
{
  if (m_cwnd < m_ssthresh) {
    m_cwnd += 1.0;
    return;
  }

  if (m_wmax < m_initCwnd)
    m_wmax = m_cwnd;

  const double beta = m_opts.beta;
  const double t = toSeconds(now - m_lastDecrease);
  const double k = std::cbrt(m_wmax * (1 - beta) / m_opts.c);
  const double wCubic = m_opts.c * std::pow(t - k, 3) + m_wmax;
  double target = wCubic;
  if (m_opts.tcpFriendly && srtt > Duration::zero()) {
    const double wEst = m_wmax * beta + (3 * (1 - beta) / (1 + beta)) * (t / toSeconds(srtt));
    target = std::max(target, wEst);
  }
  m_cwnd += std::max(0.0, target - m_cwnd) / m_cwnd;
}

void CubicWindow::decrease(TimePoint now)
{
  if (m_opts.fastConvergence && m_cwnd < m_lastWmax) {
    m_lastWmax = m_cwnd;
    m_wmax = m_cwnd * (1.0 + m_opts.beta) / 2.0;
  }
  else {
    m_lastWmax = m_cwnd;
    m_wmax = m_cwnd;
  }
  m_ssthresh = std::max(m_initCwnd, m_cwnd * m_opts.beta);
  m_cwnd = m_ssthresh;
  m_lastDecrease = now;
}

void CubicWindow::exitSlowStart(TimePoint now)
{
  m_ssthresh = m_cwnd;
  m_wmax = m_cwnd;
  m_lastWmax = m_cwnd;
  m_lastDecrease = now;
}

// --- registry -----------------------------------------------------------------------------

namespace {

struct Entry
{
  const char* name;
  std::unique_ptr<CongestionWindow> (*make)(const WindowOptions&, TimePoint);
};

// Issue 3 adds "mircc" here.
const Entry kRegistry[] = {
  {"fixed",
   [](const WindowOptions& o, TimePoint) -> std::unique_ptr<CongestionWindow> {
     return std::make_unique<FixedWindow>(o);
   }},
  {"aimd",
   [](const WindowOptions& o, TimePoint) -> std::unique_ptr<CongestionWindow> {
     return std::make_unique<AimdWindow>(o);
   }},
  {"cubic",
   [](const WindowOptions& o, TimePoint now) -> std::unique_ptr<CongestionWindow> {
     return std::make_unique<CubicWindow>(o, now);
   }},
};

} // namespace

const std::vector<std::string>& windowAlgorithms()
{
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& e : kRegistry)
      v.emplace_back(e.name);
    return v;
  }();
  return names;
}

bool isWindowAlgorithm(std::string_view name)
{
  return std::any_of(std::begin(kRegistry), std::end(kRegistry), [name](const Entry& e) { return name == e.name; });
}

std::unique_ptr<CongestionWindow> makeWindow(std::string_view name, const WindowOptions& opts, TimePoint now)
{
  opts.validate();
  for (const auto& e : kRegistry) {
    if (name == e.name)
      return e.make(opts, now);
  }
  std::string known;
  for (const auto& n : windowAlgorithms())
    known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown congestion control '" + std::string(name) + "' (known: " + known + ")");
}

} // namespace ndnlab::cc
