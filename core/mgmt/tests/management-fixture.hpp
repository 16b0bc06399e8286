#pragma once
// Fixture of the end-to-end management tests: a Forwarder with Management on the manual
// clock, DummyTransport faces, signed commands and segmented dataset fetches through the
// forwarder.

#include "core/mgmt/datasets.hpp"
#include "core/mgmt/management.hpp"
#include "core/mgmt/tests/captures.hpp"

#include "core/face/dummy-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/lp/packet.hpp"
#include "core/runtime/manual-env.hpp"
#include "core/security/signed-interest.hpp"

#include <gtest/gtest.h>

namespace ndnlab::mgmt::test {

using face::DummyTransport;
using face::FaceScope;

struct Received
{
  std::optional<PitToken> pitToken;
  std::optional<Interest> interest;
  std::optional<Data> data;
  std::optional<Nack> nack;
};

class ManagementTest : public ::testing::Test
{
protected:
  struct Client
  {
    face::FaceId id;
    DummyTransport* transport;
  };

  Client addFace(FaceScope scope = FaceScope::Local)
  {
    auto t = std::make_unique<DummyTransport>(scope);
    DummyTransport* raw = t.get();
    auto f = std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env), std::move(t));
    face::FaceId id = forwarder.addFace(std::move(f));
    return {id, raw};
  }

  /// Lets InternalTransport deliveries and zero-delay timers run.
  void pump() { env.advance(Duration::zero()); }

  void inject(const Client& c, const Buffer& frame)
  {
    c.transport->injectFrame(frame);
    pump();
  }

  void sendInterest(const Client& c, const Interest& i) { inject(c, *i.wireEncode()); }

  /// Signs (v0.3, DigestSha256) and sends a command; returns the decoded response, if any.
  std::optional<ControlResponse> command(const Client& c, std::string_view module, std::string_view verb,
                                         const ControlParameters& cp)
  {
    Interest i(makeCommandName(Name("/localhost/nfd"), module, verb, cp));
    signer.sign(i);
    size_t before = c.transport->sent.size();
    sendInterest(c, i);
    if (c.transport->sent.size() == before)
      return std::nullopt;
    Received r = decodeFrame(c.transport->sent.back().frame);
    if (!r.data)
      return std::nullopt;
    EXPECT_EQ(r.data->name(), i.name());
    auto resp = ControlResponse::decode(r.data->content());
    EXPECT_TRUE(resp.ok());
    if (!resp)
      return std::nullopt;
    return *resp;
  }

  static Received decodeFrame(const Buffer& frame)
  {
    Received r;
    auto pkt = lp::decodeFrame(frame);
    EXPECT_TRUE(pkt.ok());
    if (!pkt || !pkt->fragment)
      return r;
    r.pitToken = pkt->pitToken;
    ByteSpan net = *pkt->fragment;
    if (pkt->nack) {
      auto i = Interest::decode(net);
      if (i)
        r.nack = Nack{*i, nackReasonFromCode(*pkt->nack)};
    }
    else if (net[0] == ndnlab::tlv::Interest) {
      auto i = Interest::decode(net);
      if (i)
        r.interest = *i;
    }
    else {
      auto d = Data::decode(net);
      if (d)
        r.data = *d;
    }
    return r;
  }

  /// Sends a dataset request (CanBePrefix, MustBeFresh, as clients do) for `prefix`; returns the
  /// reply: segment 0, or a refusal.
  Received requestDataset(const Client& c, const Name& prefix)
  {
    Interest first(prefix);
    first.setCanBePrefix(true);
    first.setMustBeFresh(true);
    first.setNonce(env.rng().next32());
    sendInterest(c, first);
    return decodeFrame(c.transport->sent.back().frame);
  }

  /// Fetches every segment of a dataset through the forwarder; returns the concatenation.
  Buffer fetchDataset(const Client& c, const Name& prefix)
  {
    Received r = requestDataset(c, prefix);
    EXPECT_TRUE(r.data.has_value());
    if (!r.data)
      return {};
    Buffer all(r.data->content().begin(), r.data->content().end());
    Name versioned = r.data->name().getPrefix(-1);
    EXPECT_TRUE(versioned[-1].isVersion());
    auto last = r.data->finalBlockSegment();
    for (uint64_t seg = 1; !last || seg <= *last; ++seg) {
      Name n = versioned;
      n.appendSegment(seg);
      Interest i(n);
      i.setNonce(env.rng().next32());
      sendInterest(c, i);
      Received s = decodeFrame(c.transport->sent.back().frame);
      EXPECT_TRUE(s.data.has_value());
      if (!s.data)
        break;
      EXPECT_EQ(s.data->name(), n);
      all.insert(all.end(), s.data->content().begin(), s.data->content().end());
      last = s.data->finalBlockSegment();
    }
    return all;
  }

  /// Face `id` as faces/list describes it to client `c`.
  FaceStatus faceStatus(const Client& c, face::FaceId id)
  {
    auto faces = decodeList<FaceStatus>(fetchDataset(c, Name("/localhost/nfd/faces/list")));
    EXPECT_TRUE(faces);
    if (faces) {
      for (const FaceStatus& f : *faces)
        if (f.faceId == id)
          return f;
    }
    ADD_FAILURE() << "face " << id << " not listed";
    return {};
  }

  ManualEnv env;
  fw::Forwarder forwarder{env};
  Management management{env, forwarder};
  security::DigestSigner digest;
  security::InterestSigner signer{digest, env.clock(), env.rng()};
};

} // namespace ndnlab::mgmt::test
