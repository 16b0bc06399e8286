// libFuzzer target for the application engines that answer or count what the network sends
// them: the producers (SegmentServer of `ndnlab put`/`serve`, PushProducer of the one-Interest
// bound, PingServer) and the counting consumers (PingClient, ConstantRateConsumer). The input
// picks the engine and its options, then a script: Interests (decoded from raw bytes, or built
// around the engine's names: the prefix, the versioned name, segments in and out of range,
// full names with an implicit digest, the RDR discovery name, ping names, names beside or above
// the prefix), Data and Nacks for what a consumer sent (or for names near it), time passing,
// and the push's transmit queue filling or draining.
// Checked for a producer, Interest by Interest: nothing for a name outside its prefix; at most
// one reply, a Data that satisfies the Interest (decodes again, echoes the PitToken, carries
// the right bytes and FinalBlockId, or the versioned name for discovery) or a Nack of that very
// Interest; a Data whenever a published segment satisfies the Interest. A push puts segments
// 0..N-1 in order, each once, and ends once the queue drains. For a consumer: a reply counts
// only when it satisfies an Interest still pending, and once the network falls silent every
// Interest sent is resolved once (reply, Nack or timeout) and a counted run finishes once.

#include "core/app/constant-rate-consumer.hpp"
#include "core/app/ping.hpp"
#include "core/app/push-producer.hpp"
#include "core/app/tests/test-link.hpp"
#include "fuzz/check.hpp"
#include "fuzz/script.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>

namespace {

using namespace ndnlab;
using namespace std::chrono_literals;

using fuzz::bug;
using fuzz::require;

const Name Prefix("/fuzz/object");
constexpr uint64_t Version = 7;

Buffer objectBytes(size_t size)
{
  Buffer b(size);
  for (size_t i = 0; i < size; ++i)
    b[i] = static_cast<uint8_t>(i * 7 + i / 251);
  return b;
}

/// Names a script draws from: the engine's own names and names that are almost its own.
Name pickName(FuzzedDataProvider& in, const std::vector<Data>& segments)
{
  const Name versioned = Name(Prefix).appendVersion(Version);
  const uint64_t n = segments.size();
  Name name;
  switch (in.ConsumeIntegralInRange<int>(0, 12)) {
    case 0: name = Prefix; break;
    case 1: name = versioned; break;
    case 2: name = Name(versioned).appendSegment(in.ConsumeIntegralInRange<uint64_t>(0, n + 1)); break;
    case 3: { // a full name, with the right digest or not
      uint64_t k = in.ConsumeIntegralInRange<uint64_t>(0, n);
      if (k < n && in.ConsumeBool())
        return segments[k].fullName();
      auto digest = in.ConsumeBytes<uint8_t>(32);
      digest.resize(32);
      name = Name(versioned).appendSegment(k).appendImplicitDigest(digest);
      break;
    }
    case 4: name = Name(Prefix).appendKeyword("metadata"); break;
    case 5: name = Name(Prefix).appendKeyword("metadata").appendVersion(1); break;
    case 6: name = Name(Prefix).appendVersion(in.ConsumeIntegralInRange<uint64_t>(0, 9)); break;
    case 7: name = Prefix.getPrefix(-1); break; // above the prefix
    case 8: name = Name("/fuzz/other"); break;
    case 9: { // ping names: decimal, with leading zeros, or not a number
      name = Name(Prefix).append("ping");
      switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: break;
        case 1: name.append(std::to_string(in.ConsumeIntegralInRange<uint64_t>(0, 12))); break;
        case 2: name.append("0" + std::to_string(in.ConsumeIntegralInRange<uint64_t>(0, 12))); break;
        default: name.append(in.ConsumeRandomLengthString(24)); break;
      }
      break;
    }
    case 10: { // a segment component whose value is not a minimal NonNegativeInteger
      auto value = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 9));
      name = Name(versioned).append(tlv::SegmentNameComponent, value);
      break;
    }
    case 11: name = Name(Prefix).appendSegment(in.ConsumeIntegralInRange<uint64_t>(0, n)); break;
    default: {
      auto wire = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 48));
      if (auto decoded = Name::decode(wire))
        name = std::move(*decoded);
      break;
    }
  }
  for (int extra = in.ConsumeIntegralInRange<int>(0, 4) - 2; extra > 0; --extra)
    name.append(in.ConsumeRandomLengthString(8));
  return name;
}

/// An Interest from the wire, or built around a picked name.
std::optional<Interest> makeInterest(FuzzedDataProvider& in, const std::vector<Data>& segments)
{
  if (in.ConsumeIntegralInRange<int>(0, 5) == 0) {
    auto wire = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 200));
    auto decoded = Interest::decode(wire);
    if (!decoded)
      return std::nullopt;
    return std::move(*decoded);
  }
  Interest i(pickName(in, segments));
  i.setCanBePrefix(in.ConsumeBool());
  i.setMustBeFresh(in.ConsumeBool());
  i.setNonce(in.ConsumeIntegral<uint32_t>());
  if (in.ConsumeBool())
    i.setLifetime(std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(1, 10000)));
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0)
    i.setAppParameters(in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 8)));
  if (in.ConsumeBool()) {
    PitToken t;
    t.size = in.ConsumeIntegralInRange<uint8_t>(1, PitToken::MaxSize);
    for (size_t k = 0; k < t.size; ++k)
      t.bytes[k] = in.ConsumeIntegral<uint8_t>();
    i.tags.pitToken = t;
  }
  // as it would arrive: decoded from its own encoding
  if (i.name().empty())
    return std::nullopt; // not a valid Interest: the packet format requires a component
  auto decoded = Interest::decode(i.wireEncode());
  if (!decoded)
    bug("own Interest does not decode");
  decoded->tags = i.tags;
  return std::move(*decoded);
}

// ---------------------------------------------------------------------------------------------
// Producers

/// A Data a producer put, checked against the object it published.
void checkData(const Data& data, const std::vector<Data>& segments, ByteSpan object, size_t segmentSize)
{
  auto again = Data::decode(data.wireEncode());
  require(again.ok(), "a Data put does not decode");
  const Name versioned = Name(Prefix).appendVersion(Version);
  const Name& name = data.name();
  if (name.size() == versioned.size() + 1 && versioned.isPrefixOf(name)) {
    auto k = name[-1].toNumber();
    require(name[-1].isSegment() && k && *k < segments.size(), "a Data put for a segment not published");
    size_t begin = std::min(object.size(), static_cast<size_t>(*k) * segmentSize);
    size_t end = std::min(object.size(), begin + segmentSize);
    require(std::equal(data.content().begin(), data.content().end(), object.begin() + begin, object.begin() + end) &&
              data.content().size() == end - begin,
            "a segment put with the wrong bytes");
    auto final = data.finalBlockId();
    require(final && final->isSegment() && final->toNumber() == segments.size() - 1,
            "a segment put without the object's FinalBlockId");
    return;
  }
  const Name discovery = Name(Prefix).appendKeyword("metadata");
  require(discovery.isPrefixOf(name) && name.size() == discovery.size() + 2,
          "a Data put that is neither a segment nor metadata");
  auto content = Name::decode(data.content());
  require(content && *content == versioned, "metadata that does not name the versioned object");
}

template<typename Producer>
class ProducerHarness
{
public:
  explicit ProducerHarness(FuzzedDataProvider& in) : m_in(in)
  {
    fuzz::quiet(env);
    app::SegmentServerOptions so;
    so.segmentSize = in.ConsumeIntegralInRange<size_t>(1, 8800);
    so.version = Version;
    so.nackUnsatisfiable = in.ConsumeBool();
    so.freshness = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(0, 20000));
    m_segmentSize = so.segmentSize;
    // an object of up to 40 segments (and at most 64 KiB), possibly empty
    size_t maxSize = std::min<size_t>(64 * 1024, so.segmentSize * 40);
    m_object = objectBytes(in.ConsumeIntegralInRange<size_t>(0, maxSize));
    const Name name = in.ConsumeBool() ? Name(Prefix).appendVersion(Version) : Prefix;
    if constexpr (std::is_same_v<Producer, app::PushProducer>) {
      app::PushProducerOptions po;
      po.server = so;
      po.pollInterval = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(1, 10));
      po.maxBurst = in.ConsumeIntegralInRange<size_t>(0, 4);
      producer = std::make_unique<Producer>(env, endpoint, name, m_signer, po);
      producer->canSend = [this] { return m_room; };
      producer->onPushDone = [this] { ++m_pushesDone; };
      producer->publish(m_object);
      for (size_t k = 0; k < producer->server().segmentCount(); ++k)
        m_segments.push_back(producer->server().segment(k));
    }
    else {
      producer = std::make_unique<Producer>(env, endpoint, name, m_signer, so);
      producer->publish(m_object);
      for (size_t k = 0; k < producer->segmentCount(); ++k)
        m_segments.push_back(producer->segment(k));
    }
    m_nackUnsatisfiable = so.nackUnsatisfiable;
  }

  void step()
  {
    switch (m_in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: m_room = m_in.ConsumeBool(); break;
      case 1:
        env.advance(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 50)));
        takePushed();
        break;
      default:
        if (auto interest = makeInterest(m_in, m_segments))
          deliver(*interest);
        break;
    }
  }

  /// The queue drains and time passes: a push in progress must end.
  void finish()
  {
    m_room = true;
    for (int i = 0; i < 10000 && pushing(); ++i)
      env.advance(10ms);
    takePushed();
    require(!pushing(), "a push still running after its queue drained");
    if constexpr (std::is_same_v<Producer, app::PushProducer>)
      require(m_pushesDone == static_cast<int>(producer->counters().pushes),
              "a push ended without onPushDone, or twice");
  }

  ManualEnv env;
  app::test::FakeEndpoint endpoint;
  std::unique_ptr<Producer> producer;

private:
  bool pushing() const
  {
    if constexpr (std::is_same_v<Producer, app::PushProducer>)
      return producer->pushing();
    return false;
  }

  bool isTrigger(const Name& name) const
  {
    if constexpr (std::is_same_v<Producer, app::PushProducer>)
      return name == Prefix || name == Name(Prefix).appendVersion(Version);
    return false;
  }

  void deliver(const Interest& interest)
  {
    const bool wasPushing = pushing();
    endpoint.deliverInterest(interest);
    if (isTrigger(interest.name())) {
      if (!wasPushing)
        m_nextPushed = 0; // a new push starts from segment 0
      takePushed();
      require(endpoint.sentNacks.empty(), "a Nack for a trigger");
      return;
    }
    const auto& data = endpoint.sentData;
    const auto& nacks = endpoint.sentNacks;
    require(data.size() + nacks.size() <= 1, "more than one reply to one Interest");
    if (!Prefix.isPrefixOf(interest.name()))
      require(data.empty() && nacks.empty(), "a reply to an Interest outside the prefix");
    for (const auto& d : data) {
      checkData(d, m_segments, m_object, m_segmentSize);
      require(interest.matchesData(d), "a Data that does not satisfy the Interest");
      require(d.tags.pitToken == interest.tags.pitToken, "the PitToken not echoed");
    }
    for (const auto& n : nacks) {
      require(m_nackUnsatisfiable, "a Nack although Nacks are off");
      require(n.interest.name() == interest.name() && n.interest.nonce() == interest.nonce(),
              "a Nack for another Interest");
    }
    // (a forwarder hands the producer only Interests under its registered prefix)
    bool satisfiable =
      Prefix.isPrefixOf(interest.name()) &&
      std::any_of(m_segments.begin(), m_segments.end(), [&](const Data& s) { return interest.matchesData(s); });
    if (satisfiable)
      require(data.size() == 1, "no Data for an Interest a published segment satisfies");
    bool discovery = interest.canBePrefix() && interest.name() == Name(Prefix).appendKeyword("metadata");
    if (discovery)
      require(data.size() == 1, "no metadata for a discovery Interest");
    endpoint.sentData.clear();
    endpoint.sentNacks.clear();
  }

  /// Data put by a push (no Interest asked for them): segments in order, each once per push.
  void takePushed()
  {
    for (const auto& d : endpoint.sentData) {
      checkData(d, m_segments, m_object, m_segmentSize);
      require(m_nextPushed < m_segments.size() && d.name() == m_segments[m_nextPushed].name(),
              "a push put a segment out of order");
      ++m_nextPushed;
    }
    endpoint.sentData.clear();
    if (!pushing() && m_nextPushed != 0)
      require(m_nextPushed == m_segments.size(), "a push ended before its last segment");
  }

  FuzzedDataProvider& m_in;
  security::DigestSigner m_signer;
  Buffer m_object;
  size_t m_segmentSize = 0;
  std::vector<Data> m_segments;
  bool m_nackUnsatisfiable = true;
  bool m_room = true;
  size_t m_nextPushed = 0;
  int m_pushesDone = 0;
};

class PingServerHarness
{
public:
  explicit PingServerHarness(FuzzedDataProvider& in) : m_in(in)
  {
    fuzz::quiet(env);
    app::PingServerOptions o;
    o.payloadSize = in.ConsumeIntegralInRange<size_t>(0, 100);
    o.maxPings = in.ConsumeIntegralInRange<uint64_t>(0, 5);
    server = std::make_unique<app::PingServer>(env, endpoint, Prefix, m_signer, o);
    server->onFinish = [this] { ++m_finishes; };
    m_opts = o;
  }

  void step()
  {
    auto interest = makeInterest(m_in, {});
    if (!interest)
      return;
    const uint64_t before = server->answered();
    endpoint.deliverInterest(*interest);
    const Name pingPrefix = Name(Prefix).append("ping");
    bool ours = pingPrefix.isPrefixOf(interest->name()) && interest->name().size() > pingPrefix.size();
    bool answers = ours && (m_opts.maxPings == 0 || before < m_opts.maxPings);
    require(endpoint.sentData.size() == (answers ? 1u : 0u) && endpoint.sentNacks.empty(),
            "a ping answered that should not be, or not answered");
    for (const auto& d : endpoint.sentData) {
      require(d.name() == interest->name() && interest->matchesData(d), "a ping reply for another name");
      require(d.content().size() == m_opts.payloadSize, "a ping reply with the wrong payload size");
      require(d.tags.pitToken == interest->tags.pitToken, "the PitToken not echoed");
      require(Data::decode(d.wireEncode()).ok(), "a ping reply does not decode");
    }
    endpoint.sentData.clear();
    require(m_finishes == (m_opts.maxPings > 0 && server->answered() >= m_opts.maxPings ? 1 : 0),
            "onFinish not called exactly once on reaching maxPings");
  }

  void finish() {}

  ManualEnv env;
  app::test::FakeEndpoint endpoint;
  std::unique_ptr<app::PingServer> server;

private:
  FuzzedDataProvider& m_in;
  security::DigestSigner m_signer;
  app::PingServerOptions m_opts;
  int m_finishes = 0;
};

// ---------------------------------------------------------------------------------------------
// Consumers that count replies

/// Answers what a consumer sent, or something near it: the Interest's own name, the name with
/// its last component spelled differently or a component added, the last component under
/// another prefix, or any name; as Data, or as a Nack with the Interest's Nonce or another.
/// Records the packet being delivered, so that the consumer's callbacks can check it answers
/// an Interest that was sent.
class ConsumerScript
{
protected:
  explicit ConsumerScript(FuzzedDataProvider& in) : m_in(in) { fuzz::quiet(env); }

  /// One step of the network: time passes, or a Data or Nack near what was sent arrives.
  void network()
  {
    for (auto& i : endpoint.sentInterests)
      m_sent.push_back(i);
    endpoint.sentInterests.clear();
    if (m_sent.empty() || m_in.ConsumeIntegralInRange<int>(0, 3) == 0) {
      env.advance(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 3000)));
      return;
    }
    const Interest& asked = m_sent[m_in.ConsumeIntegralInRange<size_t>(0, m_sent.size() - 1)];
    Name name = asked.name();
    switch (m_in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: // the same number spelled with a leading zero (generic) or non-minimally (segment)
        if (name[-1].isSegment()) {
          Buffer v(8, 0); // eight octets: valid, and not minimal below 2^56
          uint64_t k = *name[-1].toNumber();
          for (int b = 0; b < 8; ++b)
            v[7 - b] = static_cast<uint8_t>(k >> (8 * b));
          name = name.getPrefix(-1).append(tlv::SegmentNameComponent, v);
        }
        else {
          std::string digits(reinterpret_cast<const char*>(name[-1].value().data()), name[-1].value().size());
          name = name.getPrefix(-1).append("0" + digits);
        }
        break;
      case 1: name.append("x"); break;
      case 2: name = Name(Prefix).append("x").append(name[-1]); break;
      case 3: name = pickName(m_in, {}); break;
      default: break;
    }
    m_inFlight = true;
    if (m_in.ConsumeIntegralInRange<int>(0, 3) == 0) {
      Nack n{asked, static_cast<NackReason>(m_in.PickValueInArray({0, 50, 100, 150}))};
      n.interest.setName(name);
      if (m_in.ConsumeBool())
        n.interest.setNonce(asked.nonce().value_or(0) + 1);
      m_nack = n;
      m_data.reset();
      m_nackAnswers = deliveringNackFor(name);
      endpoint.deliverNack(n);
    }
    else {
      auto decoded = Data::decode(Data(name).wireEncode());
      if (!decoded)
        bug("own Data does not decode");
      m_data = std::move(*decoded);
      m_nack.reset();
      endpoint.deliverData(*m_data);
    }
    m_inFlight = false;
  }

  /// The packet being delivered is a Data that satisfies the last Interest sent for `name`.
  bool deliveringDataFor(const Name& name) const
  {
    const Interest* last = lastSent(name);
    return m_inFlight && m_data && last && last->matchesData(*m_data);
  }

  /// The packet being delivered is a Nack of the last Interest sent for `name`.
  bool deliveringNackFor(const Name& name) const
  {
    const Interest* last = lastSent(name);
    return m_inFlight && m_nack && last && m_nack->interest.name() == name && m_nack->interest.nonce() == last->nonce();
  }

public:
  ManualEnv env;
  app::test::FakeEndpoint endpoint;

protected:
  const Interest* lastSent(const Name& name) const
  {
    for (auto it = m_sent.rbegin(); it != m_sent.rend(); ++it)
      if (it->name() == name)
        return &*it;
    return nullptr;
  }

  FuzzedDataProvider& m_in;
  std::vector<Interest> m_sent;
  bool m_inFlight = false;
  std::optional<Data> m_data;
  std::optional<Nack> m_nack;
  bool m_nackAnswers = false; ///< the last Nack delivered answered the last Interest of its name
};

class PingClientHarness : public ConsumerScript
{
public:
  explicit PingClientHarness(FuzzedDataProvider& in) : ConsumerScript(in)
  {
    app::PingClientOptions o;
    o.count = in.ConsumeIntegralInRange<uint64_t>(1, 10);
    o.interval = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(1, 2000));
    o.timeout = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(1, 4000));
    if (in.ConsumeBool())
      o.startSeq = in.ConsumeBool() ? UINT64_MAX - 2 : in.ConsumeIntegralInRange<uint64_t>(0, 20);
    o.allowStale = in.ConsumeBool();
    m_timeout = o.timeout;
    client = std::make_unique<app::PingClient>(env, endpoint, Prefix, o);
    client->onReply = [this](uint64_t seq, Duration rtt) {
      require(deliveringDataFor(client->makeName(seq)), "a ping resolved by a Data that does not answer it");
      require(rtt >= Duration::zero() && rtt <= m_timeout, "a ping reply after its timeout");
      resolved(seq);
    };
    client->onNackReply = [this](uint64_t seq, Duration, NackReason) {
      require(deliveringNackFor(client->makeName(seq)), "a ping resolved by a Nack of another Interest");
      resolved(seq);
    };
    client->onTimeout = [this](uint64_t seq) {
      require(!m_inFlight, "a ping timed out on a packet");
      resolved(seq);
    };
    client->onFinish = [this] { ++m_finishes; };
    client->start();
  }

  void step() { network(); }

  void finish()
  {
    for (int i = 0; i < 100 && m_finishes == 0; ++i)
      env.advance(1s);
    const auto& s = client->stats();
    require(m_finishes == 1, "a counted ping run did not finish exactly once");
    require(s.received + s.nacked + s.timeouts == s.sent && m_resolved.size() == s.sent,
            "pings sent and pings resolved differ");
  }

  std::unique_ptr<app::PingClient> client;

private:
  void resolved(uint64_t seq) { require(m_resolved.insert(seq).second, "a ping resolved twice"); }

  Duration m_timeout{};
  std::set<uint64_t> m_resolved;
  int m_finishes = 0;
};

class CbrHarness : public ConsumerScript
{
public:
  explicit CbrHarness(FuzzedDataProvider& in) : ConsumerScript(in)
  {
    app::ConstantRateConsumerOptions o;
    o.frequency = in.ConsumeIntegralInRange<int>(1, 200);
    o.randomize = in.PickValueInArray({"none", "uniform", "exponential"});
    o.lifetime = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(1, 3000));
    o.maxCount = in.ConsumeIntegralInRange<uint64_t>(1, 20);
    o.firstSegment = in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint64_t>() >> 1;
    o.retransmit = in.ConsumeBool();
    m_opts = o;
    consumer = std::make_unique<app::ConstantRateConsumer>(env, endpoint, o);
    consumer->onData = [this](uint64_t seg, Duration, ByteSpan) {
      require(deliveringDataFor(Name(Prefix).appendSegment(seg)),
              "a segment counted from a Data that does not answer it");
    };
    consumer->start(Prefix);
  }

  void step()
  {
    const auto before = consumer->counters();
    network();
    const auto& after = consumer->counters();
    if (after.nacks > before.nacks)
      require(m_nackAnswers, "a Nack counted that answers no Interest sent");
  }

  /// The network is silent. Without retransmissions every segment is sent and each Interest
  /// resolves once; with them (which take every send slot before new segments, as in ndnSIM),
  /// each transmission but the last of a segment resolves once.
  void finish()
  {
    const auto& c = consumer->counters();
    if (!m_opts.retransmit) {
      for (int i = 0; i < 3600 && c.interestsSent < m_opts.maxCount; ++i)
        env.advance(1s);
      env.advance(m_opts.lifetime + 1ms);
      require(c.interestsSent == m_opts.maxCount, "not every segment was sent");
      require(c.data + c.nacks + c.timeouts == c.interestsSent, "an Interest not resolved once");
      return;
    }
    env.advance(std::chrono::seconds(m_in.ConsumeIntegralInRange<int>(0, 60)));
    const uint64_t resolved = c.data + c.nacks + c.timeouts;
    require(resolved <= c.interestsSent && c.interestsSent - resolved <= m_opts.maxCount,
            "an Interest resolved twice, or more than one transmission pending per segment");
    require(c.interestsSent - c.retransmissions <= m_opts.maxCount, "more segments than maxCount");
  }

  std::unique_ptr<app::ConstantRateConsumer> consumer;

private:
  app::ConstantRateConsumerOptions m_opts;
};

template<typename Harness>
void run(FuzzedDataProvider& in)
{
  Harness h(in);
  fuzz::runScript(h, in, 300);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: run<ProducerHarness<app::SegmentServer>>(in); break;
    case 1: run<ProducerHarness<app::PushProducer>>(in); break;
    case 2: run<PingServerHarness>(in); break;
    case 3: run<PingClientHarness>(in); break;
    default: run<CbrHarness>(in); break;
  }
  return 0;
}
