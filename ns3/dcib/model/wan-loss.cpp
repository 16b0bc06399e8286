#include "ns3/dcib/model/wan-loss.hpp"

#include <algorithm>
#include <stdexcept>

namespace ndnlab::dcib {

const char* toString(WanLossMode m)
{
  switch (m) {
    case WanLossMode::None: return "none";
    case WanLossMode::NonCooperative: return "non-cooperative";
    case WanLossMode::Cooperative: return "cooperative";
  }
  return "?";
}

WanLossMode parseWanLossMode(const std::string& s)
{
  if (s == "none")
    return WanLossMode::None;
  if (s == "non-cooperative")
    return WanLossMode::NonCooperative;
  if (s == "cooperative")
    return WanLossMode::Cooperative;
  throw std::invalid_argument("WAN loss mode '" + s + "': expected none, non-cooperative or cooperative");
}

void WanLossOptions::validate() const
{
  if (!(lossRate >= 0.0 && lossRate <= 1.0))
    throw std::invalid_argument("WAN loss rate must be in [0, 1]");
  if (!(notEctShare > 0.0 && notEctShare <= 1.0))
    throw std::invalid_argument("WAN Not-ECT share must be in (0, 1]");
}

WanLoss::WanLoss(WanLossOptions options) : m_options(options)
{
  m_options.validate();
}

double WanLoss::dropProbability(Ecn ecn) const
{
  switch (m_options.mode) {
    case WanLossMode::None: return 0.0;
    case WanLossMode::NonCooperative: return m_options.lossRate;
    case WanLossMode::Cooperative:
      return ecn == Ecn::NotEct ? std::min(1.0, m_options.lossRate / m_options.notEctShare) : 0.0;
  }
  return 0.0;
}

bool WanLoss::drop(Ecn ecn, double uniform01)
{
  ++m_counters.packets;
  if (ecn == Ecn::NotEct)
    ++m_counters.notEct;
  if (uniform01 >= dropProbability(ecn))
    return false;
  if (ecn == Ecn::NotEct)
    ++m_counters.dropsNotEct;
  else
    ++m_counters.dropsEct;
  return true;
}

} // namespace ndnlab::dcib
