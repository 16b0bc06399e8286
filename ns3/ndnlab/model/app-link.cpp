#include "ns3/ndnlab/model/app-link.hpp"

namespace ndnlab::sim {

namespace {

/// The app face's transport: carries no frames (the link service short-circuits them).
class AppTransport final : public face::Transport
{
public:
  explicit AppTransport(std::string uri)
    : face::Transport("app://", std::move(uri), face::FaceScope::Local, face::FacePersistency::Permanent,
                      face::LinkType::PointToPoint, face::MtuUnlimited)
  {}

  void close() override
  {
    if (state() == face::TransportState::Closed)
      return;
    setState(face::TransportState::Closing);
    setState(face::TransportState::Closed);
  }

private:
  void doSend(SharedBuffer, face::EndpointId) override {}
};

} // namespace

// --- AppEndpoint ----------------------------------------------------------------------------

AppEndpoint::AppEndpoint(std::shared_ptr<AppChannel> channel) : m_channel(std::move(channel))
{
  m_channel->endpoint = this;
}

AppEndpoint::~AppEndpoint()
{
  m_channel->endpoint = nullptr;
  if (m_channel->service != nullptr)
    m_channel->service->closeFace();
}

void AppEndpoint::expressInterest(const Interest& interest)
{
  if (afterExpressInterest)
    afterExpressInterest(interest);
  if (AppLinkService* s = m_channel->service)
    s->fromApp(Interest(interest));
}

void AppEndpoint::putData(const Data& data)
{
  if (afterPutData)
    afterPutData(data);
  if (AppLinkService* s = m_channel->service)
    s->fromApp(Data(data));
}

void AppEndpoint::putNack(const Nack& nack)
{
  if (AppLinkService* s = m_channel->service)
    s->fromApp(Nack(nack));
}

// --- AppLinkService ---------------------------------------------------------------------------

AppLinkService::AppLinkService(Env& env, std::shared_ptr<AppChannel> channel)
  : face::LinkService(env, face::LinkServiceOptions{}), m_channel(std::move(channel))
{
  m_channel->service = this;
}

AppLinkService::~AppLinkService()
{
  m_channel->service = nullptr;
  if (m_flushTimer != 0)
    m_env.timers().cancel(m_flushTimer);
}

void AppLinkService::closeFace()
{
  m_queue.clear();
  if (m_transport != nullptr)
    m_transport->close(); // the FaceTable removes the face one timer turn later
}

void AppLinkService::sendInterest(const Interest& interest, face::EndpointId)
{
  enqueue(interest);
}

void AppLinkService::sendData(const Data& data, face::EndpointId)
{
  enqueue(data);
}

void AppLinkService::sendNack(const Nack& nack, face::EndpointId)
{
  enqueue(nack);
}

void AppLinkService::enqueue(Item&& item)
{
  if (m_channel->endpoint == nullptr)
    return;
  m_queue.push_back(std::move(item));
  if (m_flushTimer == 0)
    m_flushTimer = m_env.timers().schedule(Duration::zero(), [this] { flush(); });
}

void AppLinkService::flush()
{
  m_flushTimer = 0;
  // only what is queued now; packets queued during delivery wait for the next turn
  std::deque<Item> batch;
  batch.swap(m_queue);
  for (Item& item : batch) {
    AppEndpoint* ep = m_channel->endpoint;
    if (ep == nullptr)
      return;
    std::visit(
      [ep](auto& p) {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, Interest>)
          ep->deliverInterest(p);
        else if constexpr (std::is_same_v<P, Data>)
          ep->deliverData(p);
        else
          ep->deliverNack(p);
      },
      item);
  }
}

std::pair<std::unique_ptr<face::Face>, std::unique_ptr<AppEndpoint>> makeAppLink(Env& env, std::string uri)
{
  auto channel = std::make_shared<AppChannel>();
  auto service = std::make_unique<AppLinkService>(env, channel);
  auto transport = std::make_unique<AppTransport>(std::move(uri));
  auto face = std::make_unique<face::Face>(env, std::move(service), std::move(transport));
  auto endpoint = std::make_unique<AppEndpoint>(channel);
  return {std::move(face), std::move(endpoint)};
}

} // namespace ndnlab::sim
