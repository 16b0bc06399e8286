#pragma once
// Face = Transport + LinkService, identified by a FaceId. The forwarder sees only this class:
// it sends network packets down and receives them through the callbacks below.

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/codec/nack.hpp"
#include "core/face/link-service.hpp"
#include "core/face/transport.hpp"

#include <memory>

namespace ndnlab::face {

class Face
{
public:
  /// Per-face network-layer counters (NFD FaceStatus fields).
  struct Counters
  {
    uint64_t nInInterests = 0, nInData = 0, nInNacks = 0;
    uint64_t nOutInterests = 0, nOutData = 0, nOutNacks = 0;
  };

  Face(Env& env, std::unique_ptr<LinkService> linkService, std::unique_ptr<Transport> transport);
  ~Face();
  Face(const Face&) = delete;
  Face& operator=(const Face&) = delete;

  FaceId id() const { return m_id; }
  void setId(FaceId id)
  {
    m_id = id;
    m_linkService->setFaceId(id);
  } ///< assigned by FaceTable

  // --- upper interface (called by the forwarder) ---
  void sendInterest(const Interest& interest);
  void sendData(const Data& data);
  void sendNack(const Nack& nack);

  /// Installed by the forwarder (FaceTable::add wires them).
  std::function<void(Face&, Interest&&, EndpointId)> afterReceiveInterest;
  std::function<void(Face&, Data&&, EndpointId)> afterReceiveData;
  std::function<void(Face&, Nack&&, EndpointId)> afterReceiveNack;
  /// Called once when the transport reaches Closed or Failed.
  std::function<void(Face&)> afterClose;

  void close() { m_transport->close(); }

  // --- properties ---
  Transport& transport() { return *m_transport; }
  const Transport& transport() const { return *m_transport; }
  LinkService& linkService() { return *m_linkService; }
  const LinkService& linkService() const { return *m_linkService; }
  FaceScope scope() const { return m_transport->scope(); }
  bool isLocal() const { return scope() == FaceScope::Local; }
  FacePersistency persistency() const { return m_transport->persistency(); }
  LinkType linkType() const { return m_transport->linkType(); }
  TransportState state() const { return m_transport->state(); }
  const std::string& localUri() const { return m_transport->localUri(); }
  const std::string& remoteUri() const { return m_transport->remoteUri(); }
  const Counters& counters() const { return m_counters; }
  /// Time the face was last used (for idle timeout of on-demand faces).
  TimePoint lastActivity() const { return m_lastActivity; }

private:
  Env& m_env;
  FaceId m_id = InvalidFaceId;
  std::unique_ptr<LinkService> m_linkService;
  std::unique_ptr<Transport> m_transport;
  Counters m_counters;
  TimePoint m_lastActivity{};
};

} // namespace ndnlab::face
