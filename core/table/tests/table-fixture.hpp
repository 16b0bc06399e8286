#pragma once
// Helpers for table tests: faces over DummyTransport with a do-nothing link service.

#include "core/face/dummy-transport.hpp"
#include "core/face/face.hpp"
#include "core/runtime/manual-env.hpp"

#include <memory>

namespace ndnlab::table::tests {

class NullLinkService final : public face::LinkService
{
public:
  explicit NullLinkService(Env& env) : LinkService(env, {}) {}
  void sendInterest(const Interest&, face::EndpointId) override {}
  void sendData(const Data&, face::EndpointId) override {}
  void sendNack(const Nack&, face::EndpointId) override {}
  void attach(face::Transport&) override {}
};

inline std::unique_ptr<face::Face> makeFace(Env& env, face::FaceId id)
{
  auto f =
    std::make_unique<face::Face>(env, std::make_unique<NullLinkService>(env), std::make_unique<face::DummyTransport>());
  f->setId(id);
  return f;
}

inline std::shared_ptr<Interest> makeInterestPtr(const Name& name, uint32_t nonce, bool canBePrefix = false,
                                                 bool mustBeFresh = false,
                                                 Duration lifetime = Interest::DefaultLifetime)
{
  auto i = std::make_shared<Interest>(name);
  i->setNonce(nonce).setCanBePrefix(canBePrefix).setMustBeFresh(mustBeFresh).setLifetime(lifetime);
  return i;
}

inline std::shared_ptr<Data> makeDataPtr(const Name& name, Duration freshness = Duration::zero(),
                                         std::string_view content = "x")
{
  auto d = std::make_shared<Data>(name);
  d->setFreshnessPeriod(freshness);
  d->setContent(asBytes(content));
  return d;
}

} // namespace ndnlab::table::tests
