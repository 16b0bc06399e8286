// libFuzzer target for the forwarding plane. Each input is a script run on a fresh Forwarder with
// four faces (an application's local face; a wired point-to-point face that fragments; a wireless
// multi-access face and a wireless ad hoc face, both bundling Interests), a few routes and both
// strategies. The script's steps, chosen by the input:
//   - a raw link frame on a face;
//   - an Interest or Data built from the input (names from a small pool so that they meet in
//     the PIT and the CS), with NDNLPv2 fields: PitToken, NextHopFaceId, CachePolicy, BundleTag,
//     BundleHeader, CongestionMark;
//   - answers to what the forwarder sent on a face: Data (exact or longer name), a Nack, or
//     nothing, with the PitToken echoed;
//   - time passing; a face closed and replaced; a strategy set or unset; a route added or removed.
// Checked after every step: each frame the forwarder sent decodes, and fits the MTU of a
// fragmenting face. Checked at the end, after every lifetime has passed: the PIT is empty, no face
// holds in-records, and the NameTree has no entry left without a table entry or a child.

#include "core/face/dummy-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/fw/forwarder.hpp"
#include "core/lp/packet.hpp"
#include "core/runtime/manual-env.hpp"
#include "fuzz/check.hpp"
#include "fuzz/script.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstdint>
#include <memory>

namespace {

using namespace ndnlab;

using fuzz::require;

constexpr size_t NFaces = 4;
constexpr ssize_t FragmentingMtu = 400;
const std::array<Name, 3> Strategies = {
  Name("/localhost/nfd/strategy/best-route"),
  Name("/localhost/nfd/strategy/multicast"),
  Name("/localhost/nfd/strategy/no-such-strategy"),
};
const std::array<const char*, 6> Components = {"a", "m", "b", "localhost", "x", "seg"};

class Harness
{
public:
  explicit Harness(FuzzedDataProvider& in) : m_in(in)
  {
    fuzz::quiet(env);
    for (size_t i = 0; i < NFaces; ++i)
      addFace(i);
    fw.setStrategy(Name("/m"), Strategies[1]);
  }

  void step()
  {
    switch (m_in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0: {
        size_t f = pickFace();
        auto frame = m_in.ConsumeBytes<uint8_t>(m_in.ConsumeIntegralInRange<size_t>(0, 1200));
        m_transports[f]->injectFrame(frame, m_in.ConsumeIntegralInRange<face::EndpointId>(0, 2));
        break;
      }
      case 1: injectInterest(pickFace()); break;
      case 2: injectData(pickFace(), makeName(), std::nullopt); break;
      case 3: answer(pickFace()); break;
      case 4: env.advance(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 5000))); break;
      case 5: {
        // Close a face with PIT records on it and put a new one in its place.
        size_t f = pickFace();
        m_transports[f]->close();
        env.advance(Duration::zero());
        addFace(f);
        break;
      }
      case 6: {
        Name prefix = makeName(2);
        if (m_in.ConsumeBool())
          (void)fw.setStrategy(prefix, Strategies[m_in.ConsumeIntegralInRange<size_t>(0, Strategies.size() - 1)]);
        else
          (void)fw.unsetStrategy(prefix);
        break;
      }
      case 7: {
        Name prefix = makeName(2);
        face::FaceId id = m_ids[pickFace()];
        if (m_in.ConsumeBool())
          (void)fw.addNextHop(prefix, id, m_in.ConsumeIntegral<uint8_t>());
        else
          (void)fw.removeNextHop(prefix, id);
        break;
      }
    }
    checkSent();
  }

  /// Lets every PIT entry and dead nonce expire, then checks that nothing is left behind.
  void finish()
  {
    for (int i = 0; i < 3; ++i)
      env.advance(fw.options().pitMaxLifetime + fw.options().dnlLifetime);
    require(fw.pit().size() == 0, "PIT entries left after every lifetime");
    for (face::FaceId id : m_ids)
      require(fw.pit().inRecordCount(id) == 0, "in-records left on a face after every lifetime");
    fw.nameTree().forEach(
      [](const table::NameTreeEntry& e) { require(!e.isEmpty(), "an empty NameTree entry is left"); });
  }

  ManualEnv env;
  fw::Forwarder fw{env, fw::ForwarderOptions{
                          .pitMaxEntries = 256,
                          .pitMaxInRecordsPerFace = 128,
                          .pitMaxLifetime = std::chrono::seconds(30),
                          .csCapacity = 32,
                          .dnlCapacity = 512,
                          .unsolicitedDataPolicy = fw::UnsolicitedDataPolicy::AdmitLocal,
                        }};

private:
  void addFace(size_t slot)
  {
    face::LinkServiceOptions o;
    face::FaceScope scope = face::FaceScope::NonLocal;
    face::LinkType linkType = face::LinkType::PointToPoint;
    ssize_t mtu = face::MtuUnlimited;
    switch (slot) {
      case 0:
        scope = face::FaceScope::Local;
        o.allowLocalFields = true;
        break;
      case 1:
        mtu = FragmentingMtu;
        o.allowFragmentation = o.allowReassembly = true;
        o.maxReassemblyBytes = 64 * 1024;
        o.allowCongestionMarking = true;
        break;
      default:
        linkType = slot == 2 ? face::LinkType::MultiAccess : face::LinkType::AdHoc;
        o.bundling = true;
        o.bundler.bundleInterval = 4;
        break;
    }
    auto t = std::make_unique<face::DummyTransport>(scope, linkType, mtu);
    if (slot >= 2)
      t->setMedium(face::Medium::Wireless);
    m_transports[slot] = t.get();
    m_ids[slot] =
      fw.addFace(std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env, o), std::move(t)));
    // Routes: "/" over the wired face then the multi-access face, "/a" over the ad hoc face,
    // "/m" (multicast) over all three network faces.
    if (slot == 1 || slot == 2)
      fw.addNextHop(Name("/"), m_ids[slot], slot * 10);
    if (slot == 3)
      fw.addNextHop(Name("/a"), m_ids[slot], 0);
    if (slot >= 1)
      fw.addNextHop(Name("/m"), m_ids[slot], slot);
  }

  size_t pickFace() { return m_in.ConsumeIntegralInRange<size_t>(0, NFaces - 1); }

  Name makeName(size_t maxDepth = 4)
  {
    Name n;
    size_t depth = m_in.ConsumeIntegralInRange<size_t>(0, maxDepth);
    for (size_t i = 0; i < depth; ++i) {
      size_t pick = m_in.ConsumeIntegralInRange<size_t>(0, Components.size());
      if (pick < Components.size())
        n.append(Components[pick]);
      else
        n.appendSegment(m_in.ConsumeIntegralInRange<uint64_t>(0, 3));
    }
    return n;
  }

  std::optional<PitToken> makeToken()
  {
    if (!m_in.ConsumeBool())
      return std::nullopt;
    PitToken t;
    t.size = m_in.ConsumeIntegralInRange<uint8_t>(1, 8);
    for (size_t i = 0; i < t.size; ++i)
      t.bytes[i] = m_in.ConsumeIntegral<uint8_t>();
    return t;
  }

  void injectInterest(size_t f)
  {
    Interest i(makeName());
    i.setCanBePrefix(m_in.ConsumeBool()).setMustBeFresh(m_in.ConsumeBool());
    i.setNonce(m_in.ConsumeIntegralInRange<uint32_t>(0, 7));
    i.setLifetime(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 60000)));
    if (m_in.ConsumeBool())
      i.setHopLimit(m_in.ConsumeIntegralInRange<uint8_t>(0, 2));
    if (m_in.ConsumeBool())
      i.setForwardingHint({makeName(2)});
    if (i.name().empty())
      return; // not encodable
    lp::LpPacket p;
    p.pitToken = makeToken();
    if (m_in.ConsumeBool())
      p.nextHopFaceId = m_in.ConsumeBool() ? m_ids[pickFace()] : m_in.ConsumeIntegral<uint16_t>();
    if (m_in.ConsumeBool())
      p.congestionMark = 1;
    if (m_in.ConsumeBool())
      p.bundleTag =
        BundleTag{.retransmission = m_in.ConsumeBool(), .cwnd = m_in.ConsumeIntegralInRange<uint32_t>(0, 64)};
    if (m_in.ConsumeBool()) {
      lp::BundleHeader h;
      h.startSeq = m_in.ConsumeIntegralInRange<uint64_t>(0, 40);
      h.endSeq = h.startSeq + m_in.ConsumeIntegralInRange<uint64_t>(0, 20);
      h.flow = m_in.ConsumeIntegralInRange<uint32_t>(0, 2);
      p.bundle = h;
    }
    inject(f, p, i.wireEncode());
  }

  void injectData(size_t f, Name name, std::optional<PitToken> token)
  {
    if (name.empty())
      return;
    Data d(std::move(name));
    d.setFreshnessPeriod(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 2000)));
    auto content = m_in.ConsumeBytes<uint8_t>(m_in.ConsumeIntegralInRange<size_t>(0, 700));
    d.setContent(content);
    lp::LpPacket p;
    p.pitToken = token ? token : makeToken();
    if (m_in.ConsumeBool())
      p.cachePolicy = lp::CachePolicyType::NoCache;
    if (m_in.ConsumeBool())
      p.congestionMark = 1;
    inject(f, p, d.wireEncode());
  }

  /// Answers the Interests the forwarder sent on face `f` since the last answer.
  void answer(size_t f)
  {
    std::vector<face::DummyTransport::Sent> sent;
    sent.swap(m_sent[f]);
    for (const auto& s : sent) {
      auto frame = lp::decodeFrame(s.frame);
      if (!frame.ok() || !frame->fragment || frame->nack)
        continue;
      auto interest = Interest::decode(*frame->fragment);
      if (!interest.ok())
        continue;
      switch (m_in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: break; // lost
        case 1: {
          Name name = interest->name();
          if (interest->canBePrefix() && m_in.ConsumeBool())
            name.appendSegment(m_in.ConsumeIntegralInRange<uint64_t>(0, 3));
          injectData(f, std::move(name), frame->pitToken);
          break;
        }
        default: {
          lp::LpPacket p;
          p.pitToken = frame->pitToken;
          p.nack = m_in.ConsumeIntegralInRange<uint64_t>(0, 200);
          inject(f, p, interest->wireEncode());
          break;
        }
      }
    }
  }

  void inject(size_t f, lp::LpPacket& p, const SharedBuffer& wire)
  {
    if (!p.hasHeaderFields() && m_in.ConsumeBool()) {
      m_transports[f]->injectFrame(*wire);
      return;
    }
    p.fragment = ByteSpan(*wire);
    m_transports[f]->injectFrame(*lp::encode(p));
  }

  /// Every frame sent must decode; the fragmenting face's must fit its MTU. Frames are kept
  /// for answer().
  void checkSent()
  {
    for (size_t f = 0; f < NFaces; ++f) {
      for (auto& s : m_transports[f]->sent) {
        require(lp::decodeFrame(s.frame).ok(), "a frame sent does not decode");
        require(f != 1 || s.frame.size() <= static_cast<size_t>(FragmentingMtu),
                "a frame sent on the fragmenting face exceeds its MTU");
        if (m_sent[f].size() < 64)
          m_sent[f].push_back(std::move(s));
      }
      m_transports[f]->sent.clear();
    }
  }

  FuzzedDataProvider& m_in;
  std::array<face::DummyTransport*, NFaces> m_transports{};
  std::array<face::FaceId, NFaces> m_ids{};
  std::array<std::vector<face::DummyTransport::Sent>, NFaces> m_sent;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  FuzzedDataProvider in(data, size);
  Harness h(in);
  fuzz::runScript(h, in, 64);
  return 0;
}
