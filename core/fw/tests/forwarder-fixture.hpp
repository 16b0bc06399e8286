#pragma once
// Test fixture for forwarder pipeline tests: faces are DummyTransport + GenericLinkService,
// packets enter as NDNLPv2 frames and what the forwarder sends is decoded back from the
// transport, so every test exercises the real face path.

#include "core/face/dummy-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/fw/forwarder.hpp"
#include "core/lp/packet.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab::fw::tests {

inline PitToken makeToken(std::initializer_list<uint8_t> bytes)
{
  PitToken t;
  for (uint8_t b : bytes)
    t.bytes[t.size++] = b;
  return t;
}

inline Interest makeInterest(const Name& name, uint32_t nonce, bool canBePrefix = false, bool mustBeFresh = false,
                             Duration lifetime = Interest::DefaultLifetime)
{
  Interest i(name);
  i.setNonce(nonce).setCanBePrefix(canBePrefix).setMustBeFresh(mustBeFresh).setLifetime(lifetime);
  return i;
}

inline Data makeData(const Name& name, Duration freshness = Duration::zero(), std::string_view content = "hello")
{
  Data d(name);
  d.setFreshnessPeriod(freshness);
  d.setContent(asBytes(content));
  return d;
}

/// One packet the forwarder sent on a face, decoded from the frame.
struct SentPacket
{
  enum class Kind { Interest, Data, Nack } kind;
  std::optional<Interest> interest; ///< Interest, or the Interest inside a Nack
  std::optional<Data> data;
  NackReason reason = NackReason::None;
  std::optional<PitToken> pitToken;
  std::optional<uint64_t> incomingFaceId;
  uint64_t congestionMark = 0;
  std::optional<Rate> mirccRate;
};

class TestFace
{
public:
  TestFace(face::Face& face, face::DummyTransport& transport) : m_face(&face), m_transport(&transport) {}

  face::Face& face() const { return *m_face; }
  face::FaceId id() const { return m_face->id(); }
  face::DummyTransport& transport() const { return *m_transport; }

  void receiveInterest(const Interest& i, std::optional<PitToken> token = std::nullopt,
                       std::optional<uint64_t> nextHopFaceId = std::nullopt)
  {
    lp::LpPacket p;
    p.pitToken = token;
    p.nextHopFaceId = nextHopFaceId;
    inject(p, i.wireEncode());
  }

  void receiveData(const Data& d, std::optional<PitToken> token = std::nullopt, bool noCache = false,
                   std::optional<Rate> mirccRate = std::nullopt)
  {
    lp::LpPacket p;
    p.pitToken = token;
    if (noCache)
      p.cachePolicy = lp::CachePolicyType::NoCache;
    p.mirccRate = mirccRate;
    inject(p, d.wireEncode());
  }

  void receiveNack(const Interest& i, NackReason reason, std::optional<PitToken> token = std::nullopt,
                   std::optional<Rate> mirccRate = std::nullopt)
  {
    lp::LpPacket p;
    p.pitToken = token;
    p.nack = static_cast<uint64_t>(reason);
    p.mirccRate = mirccRate;
    inject(p, i.wireEncode());
  }

  /// Everything sent so far, decoded.
  std::vector<SentPacket> sent() const
  {
    std::vector<SentPacket> out;
    for (const auto& s : m_transport->sent) {
      auto lp = lp::decodeFrame(s.frame);
      EXPECT_TRUE(lp.ok());
      if (!lp.ok() || !lp->fragment)
        continue;
      SentPacket p{SentPacket::Kind::Interest};
      p.pitToken = lp->pitToken;
      p.incomingFaceId = lp->incomingFaceId;
      p.congestionMark = lp->congestionMark.value_or(0);
      p.mirccRate = lp->mirccRate;
      ByteSpan net = *lp->fragment;
      if (!net.empty() && net[0] == tlv::Interest) {
        auto i = Interest::decode(net);
        EXPECT_TRUE(i.ok());
        if (!i.ok())
          continue;
        p.interest = std::move(*i);
        if (lp->nack) {
          p.kind = SentPacket::Kind::Nack;
          p.reason = nackReasonFromCode(*lp->nack);
        }
      }
      else {
        auto d = Data::decode(net);
        EXPECT_TRUE(d.ok());
        if (!d.ok())
          continue;
        p.kind = SentPacket::Kind::Data;
        p.data = std::move(*d);
      }
      out.push_back(std::move(p));
    }
    return out;
  }

  std::vector<SentPacket> sentOf(SentPacket::Kind k) const
  {
    std::vector<SentPacket> out;
    for (auto& p : sent()) {
      if (p.kind == k)
        out.push_back(std::move(p));
    }
    return out;
  }
  std::vector<SentPacket> sentInterests() const { return sentOf(SentPacket::Kind::Interest); }
  std::vector<SentPacket> sentData() const { return sentOf(SentPacket::Kind::Data); }
  std::vector<SentPacket> sentNacks() const { return sentOf(SentPacket::Kind::Nack); }
  void clearSent() { m_transport->sent.clear(); }

private:
  void inject(lp::LpPacket& p, SharedBuffer wire)
  {
    if (!p.hasHeaderFields()) {
      m_transport->injectFrame(*wire);
      return;
    }
    p.fragment = ByteSpan(*wire);
    SharedBuffer frame = lp::encode(p);
    m_transport->injectFrame(*frame);
  }

  face::Face* m_face;
  face::DummyTransport* m_transport;
};

/// Link service options with MIRCC's rate field on.
inline face::LinkServiceOptions mirccOn()
{
  face::LinkServiceOptions o;
  o.mircc = true;
  return o;
}

class ForwarderFixture : public ::testing::Test
{
protected:
  explicit ForwarderFixture(ForwarderOptions options = {})
  {
    fw = std::make_unique<Forwarder>(env, std::move(options));
  }

  TestFace addFace(face::FaceScope scope = face::FaceScope::NonLocal,
                   face::LinkType linkType = face::LinkType::PointToPoint, face::LinkServiceOptions lsOptions = {})
  {
    if (scope == face::FaceScope::Local)
      lsOptions.allowLocalFields = true;
    auto transport = std::make_unique<face::DummyTransport>(scope, linkType);
    face::DummyTransport* t = transport.get();
    auto ls = std::make_unique<face::GenericLinkService>(env, lsOptions);
    auto f = std::make_unique<face::Face>(env, std::move(ls), std::move(transport));
    face::Face* raw = f.get();
    fw->addFace(std::move(f));
    return TestFace(*raw, *t);
  }

  void addRoute(const Name& prefix, const TestFace& face, uint64_t cost = 0)
  {
    ASSERT_EQ(fw->addNextHop(prefix, face.id(), cost), FibStatus::Ok);
  }

  /// Lets due timers run (e.g. deferred face removal, PIT expiry at "now").
  void advance(Duration d) { env.advance(d); }

  ManualEnv env;
  std::unique_ptr<Forwarder> fw;
};

} // namespace ndnlab::fw::tests
