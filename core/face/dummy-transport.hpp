#pragma once
// A Transport that records sent frames and lets a test inject received ones.
// Used by unit tests of the link service, forwarder and management.

#include "core/face/transport.hpp"

#include <vector>

namespace ndnlab::face {

class DummyTransport final : public Transport
{
public:
  explicit DummyTransport(FaceScope scope = FaceScope::NonLocal, LinkType linkType = LinkType::PointToPoint,
                          ssize_t mtu = MtuUnlimited, std::string remoteUri = "dummy://",
                          std::string localUri = "dummy://")
    : Transport(std::move(localUri), std::move(remoteUri), scope, FacePersistency::Persistent, linkType, mtu)
  {}

  /// Delivers a frame as if received from the link.
  void injectFrame(ByteSpan frame, EndpointId endpoint = 0) { receive(frame, endpoint); }
  void close() override
  {
    setState(TransportState::Closing);
    setState(TransportState::Closed);
  }
  void setDown(bool down) { setState(down ? TransportState::Down : TransportState::Up); }
  void setSendQueueLength(size_t n) { m_queue = n; }
  size_t sendQueueLength() const override { return m_queue; }
  void setReceiveQueueLength(size_t n) { m_rxQueue = n; }
  size_t receiveQueueLength() const override { return m_rxQueue; }
  using Transport::setMtu;

  struct Sent
  {
    Buffer frame;
    EndpointId endpoint;
  };
  std::vector<Sent> sent;

protected:
  void doSend(SharedBuffer frame, EndpointId endpoint) override { sent.push_back({*frame, endpoint}); }

private:
  size_t m_queue = 0;
  size_t m_rxQueue = 0;
};

} // namespace ndnlab::face
