#pragma once
// Direct in-process link between an application engine and the node's forwarder: a Face whose
// link service hands packet objects over without encoding them (ndnSIM's AppLinkService), and
// the app::Endpoint the engine talks to.
//
// - Engine -> forwarder (AppEndpoint::expressInterest/putData/putNack): the packet is copied
//   and enters the forwarder's pipelines at once (the forwarder is re-entrancy safe).
// - Forwarder -> engine (Face::sendInterest/...): packets are queued and delivered in order on
//   the next timer turn (zero simulated delay), so the engine is never called back from inside
//   its own send (app::Endpoint contract).
// Tags travel with the packets (PitToken, congestion mark, BundleTag, IncomingFaceId).
//
// Lifetime: the Face is owned by the forwarder's FaceTable, the AppEndpoint by the
// application; either may go first. Destroying the AppEndpoint closes the face; destroying
// the face (forwarder gone) turns the endpoint into a sink that drops what it is given.

#include "core/app/endpoint.hpp"
#include "core/face/face.hpp"
#include "core/runtime/env.hpp"

#include <deque>
#include <memory>
#include <variant>

namespace ndnlab::sim {

class AppLinkService;

/// State shared by the two ends; each end clears its pointer when it dies.
struct AppChannel
{
  class AppEndpoint* endpoint = nullptr;
  AppLinkService* service = nullptr;
};

class AppEndpoint final : public app::Endpoint
{
public:
  explicit AppEndpoint(std::shared_ptr<AppChannel> channel);
  ~AppEndpoint() override;

  void expressInterest(const Interest& interest) override;
  void putData(const Data& data) override;
  void putNack(const Nack& nack) override;

  /// FaceId of the app face in the node's forwarder (set by whoever adds the face).
  face::FaceId faceId() const { return m_faceId; }
  void setFaceId(face::FaceId id) { m_faceId = id; }
  /// False once the forwarder side is gone.
  bool connected() const { return m_channel->service != nullptr; }

  /// Observers of what the engine sends (tracing, tests); called before the packet enters
  /// the forwarder.
  std::function<void(const Interest&)> afterExpressInterest;
  std::function<void(const Data&)> afterPutData;

private:
  std::shared_ptr<AppChannel> m_channel;
  face::FaceId m_faceId = face::InvalidFaceId;
};

class AppLinkService final : public face::LinkService
{
public:
  AppLinkService(Env& env, std::shared_ptr<AppChannel> channel);
  ~AppLinkService() override;

  // upper interface (forwarder -> app)
  void sendInterest(const Interest& interest, face::EndpointId endpoint = 0) override;
  void sendData(const Data& data, face::EndpointId endpoint = 0) override;
  void sendNack(const Nack& nack, face::EndpointId endpoint = 0) override;
  void attach(face::Transport& transport) override { m_transport = &transport; }

  // from the app end
  void fromApp(Interest&& i)
  {
    if (onReceiveInterest)
      onReceiveInterest(std::move(i), 0);
  }
  void fromApp(Data&& d)
  {
    if (onReceiveData)
      onReceiveData(std::move(d), 0);
  }
  void fromApp(Nack&& n)
  {
    if (onReceiveNack)
      onReceiveNack(std::move(n), 0);
  }
  void closeFace();

private:
  using Item = std::variant<Interest, Data, Nack>;
  void enqueue(Item&& item);
  void flush();

  std::shared_ptr<AppChannel> m_channel;
  face::Transport* m_transport = nullptr;
  std::deque<Item> m_queue;
  TimerId m_flushTimer = 0;
};

/// Creates an app face (local scope, permanent, point-to-point, unlimited MTU, remote URI
/// `uri`) and its endpoint. Add the face to the forwarder, then call setFaceId on the endpoint.
std::pair<std::unique_ptr<face::Face>, std::unique_ptr<AppEndpoint>> makeAppLink(Env& env, std::string uri);

} // namespace ndnlab::sim
