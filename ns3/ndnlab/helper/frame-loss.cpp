#include "ns3/ndnlab/helper/frame-loss.hpp"

namespace ndnlab::sim {

ns3::Ptr<ns3::RateErrorModel> frameLossModel(double rate, int64_t stream)
{
  auto em = ns3::CreateObject<ns3::RateErrorModel>();
  em->SetUnit(ns3::RateErrorModel::ERROR_UNIT_PACKET);
  em->SetRate(rate);
  em->AssignStreams(stream);
  return em;
}

} // namespace ndnlab::sim
