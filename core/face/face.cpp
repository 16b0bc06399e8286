#include "core/face/face.hpp"

namespace ndnlab::face {

Face::Face(Env& env, std::unique_ptr<LinkService> linkService, std::unique_ptr<Transport> transport)
  : m_env(env), m_linkService(std::move(linkService)), m_transport(std::move(transport))
{
  m_lastActivity = m_env.now();
  m_linkService->onReceiveInterest = [this](Interest&& i, EndpointId ep) {
    ++m_counters.nInInterests;
    m_lastActivity = m_env.now();
    if (afterReceiveInterest)
      afterReceiveInterest(*this, std::move(i), ep);
  };
  m_linkService->onReceiveData = [this](Data&& d, EndpointId ep) {
    ++m_counters.nInData;
    m_lastActivity = m_env.now();
    if (afterReceiveData)
      afterReceiveData(*this, std::move(d), ep);
  };
  m_linkService->onReceiveNack = [this](Nack&& n, EndpointId ep) {
    ++m_counters.nInNacks;
    m_lastActivity = m_env.now();
    if (afterReceiveNack)
      afterReceiveNack(*this, std::move(n), ep);
  };
  m_linkService->attach(*m_transport);
  m_transport->onStateChange = [this](TransportState, TransportState s) {
    if ((s == TransportState::Closed || s == TransportState::Failed) && afterClose) {
      auto cb = std::move(afterClose);
      afterClose = nullptr;
      cb(*this);
    }
  };
}

Face::~Face()
{
  if (m_transport)
    m_transport->onStateChange = nullptr;
}

void Face::sendInterest(const Interest& interest)
{
  ++m_counters.nOutInterests;
  m_lastActivity = m_env.now();
  m_linkService->sendInterest(interest);
}

void Face::sendData(const Data& data)
{
  ++m_counters.nOutData;
  m_lastActivity = m_env.now();
  m_linkService->sendData(data);
}

void Face::sendNack(const Nack& nack)
{
  ++m_counters.nOutNacks;
  m_lastActivity = m_env.now();
  m_linkService->sendNack(nack);
}

} // namespace ndnlab::face
