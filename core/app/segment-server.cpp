#include "core/app/segment-server.hpp"

#include "core/app/answer.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace ndnlab::app {

namespace {
constexpr std::string_view kModule = "server";
constexpr size_t kMaxSegmentSize = 8800; // ndnputchunks limit (ndn-cxx MAX_NDN_PACKET_SIZE)
constexpr size_t kMinPacketSize = 256;   // room for a long name, a signature and some content
constexpr size_t kSignatureSlack = 8;    // ECDSA signatures (DER) differ by a few bytes
} // namespace

void SegmentServerOptions::validate() const
{
  if (segmentSize < 1 || segmentSize > kMaxSegmentSize)
    throw std::invalid_argument("segment size must be in [1, 8800]");
  if (packetSize != 0 && (packetSize < kMinPacketSize || packetSize > kMaxSegmentSize))
    throw std::invalid_argument("packet size must be 0 (off) or in [256, 8800]");
  if (freshness < Duration::zero())
    throw std::invalid_argument("freshness must not be negative");
  if (metadataFreshness < Duration::zero())
    throw std::invalid_argument("metadata freshness must not be negative");
}

Name SegmentServer::discoveryName(const Name& prefix)
{
  Name n = prefix;
  n.appendKeyword("metadata");
  return n;
}

SegmentServer::SegmentServer(Env& env, Endpoint& endpoint, const Name& name, const security::Signer& signer,
                             Options opts)
  : m_env(env), m_ep(endpoint), m_signer(signer), m_opts(std::move(opts))
{
  m_opts.validate();
  if (!name.empty() && name[-1].isVersion()) {
    m_prefix = name.getPrefix(-1);
    m_versioned = name;
  }
  else {
    m_prefix = name;
    m_versioned = name;
    m_versioned.appendVersion(m_opts.version ? *m_opts.version : static_cast<uint64_t>(env.clock().unixNow().count()));
  }
  m_discovery = discoveryName(m_prefix);
  if (m_opts.packetSize != 0)
    m_opts.segmentSize = contentFitting(m_opts.packetSize);
  m_ep.onInterest = [this](const Interest& i) { handleInterest(i); };
}

size_t SegmentServer::contentFitting(size_t packetSize) const
{
  // The largest segment: the widest segment numbers, and content long enough that its length
  // fields take their 3-byte form.
  Name name = m_versioned;
  name.appendSegment(UINT64_MAX);
  Data data(std::move(name));
  data.setFreshnessPeriod(m_opts.freshness);
  data.setFinalBlockId(data.name()[-1]);
  data.setContent(std::make_shared<const Buffer>(Buffer(packetSize)));
  security::signData(data, m_signer);
  const size_t overhead = data.wireEncode()->size() - packetSize + kSignatureSlack;
  if (overhead >= packetSize)
    throw std::invalid_argument(strcat("packet size ", packetSize, " leaves no room for content under ",
                                       m_versioned.toUri(), " (", overhead, " bytes of name and signature)"));
  return std::min(packetSize - overhead, kMaxSegmentSize);
}

SegmentServer::~SegmentServer()
{
  m_ep.onInterest = nullptr;
}

void SegmentServer::publish(ByteSpan content)
{
  size_t pos = 0;
  publish([&](uint8_t* buf, size_t size) {
    size_t n = std::min(size, content.size() - pos);
    if (n > 0)
      std::memcpy(buf, content.data() + pos, n);
    pos += n;
    return n;
  });
}

void SegmentServer::publish(const Reader& read)
{
  std::vector<Buffer> raw;
  for (;;) {
    Buffer seg(m_opts.segmentSize);
    size_t filled = 0;
    while (filled < seg.size()) {
      size_t n = read(seg.data() + filled, seg.size() - filled);
      if (n == 0)
        break;
      filled += n;
    }
    if (filled == 0)
      break;
    seg.resize(filled);
    raw.push_back(std::move(seg));
    if (filled < m_opts.segmentSize)
      break; // end of input
  }
  finishPublish(raw);
}

void SegmentServer::finishPublish(std::vector<Buffer>& raw)
{
  if (raw.empty())
    raw.emplace_back(); // at least one, possibly empty, segment

  m_segments.clear();
  m_segments.reserve(raw.size());
  m_contentSize = Bytes();
  m_storedSize = Bytes();

  Name lastName;
  lastName.appendSegment(raw.size() - 1);
  const ComponentRef finalBlock = lastName[0];

  for (size_t i = 0; i < raw.size(); ++i) {
    Name name = m_versioned;
    name.appendSegment(i);
    Data data(std::move(name));
    data.setFreshnessPeriod(m_opts.freshness);
    data.setFinalBlockId(finalBlock);
    m_contentSize += Bytes(raw[i].size());
    data.setContent(std::make_shared<const Buffer>(std::move(raw[i])));
    raw[i] = Buffer();
    security::signData(data, m_signer);
    SharedBuffer wire = data.wireEncode();
    auto decoded = Data::decode(wire); // content becomes a view into the wire
    if (!decoded)
      throw std::logic_error("SegmentServer: own segment does not decode");
    m_storedSize += Bytes(wire->size());
    m_segments.push_back(std::move(decoded.value()));
  }
  raw.clear();
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, "published ", m_segments.size(), " segments (", m_contentSize.count(),
             " bytes) under ", m_versioned);
}

void SegmentServer::handleInterest(const Interest& interest)
{
  const Name& name = interest.name();
  if (!m_prefix.isPrefixOf(name)) {
    ++m_counters.ignored;
    return;
  }
  ++m_counters.interests;

  if (m_discovery.isPrefixOf(name)) {
    if (name.size() == m_discovery.size()) {
      answerDiscovery(interest);
      return;
    }
    // names under the discovery name are not ours to answer (ndnputchunks has no filter for them)
    ++m_counters.ignored;
    return;
  }

  if (!m_versioned.isPrefixOf(name) && name.size() != m_prefix.size()) {
    ++m_counters.ignored; // under the prefix, but neither versioned nor the bare prefix
    return;
  }

  if (m_segments.empty()) {
    sendNack(interest);
    return;
  }

  // `<versioned>/seg=k`, or its full name `<versioned>/seg=k/<implicit digest>` (which
  // ndnputchunks Nacks for k > 0), answered only when segment k satisfies it: a number spelled
  // non-minimally (seg=%00%03) or another segment's digest gets a Nack, not a Data that every
  // forwarder on the way back would drop as unsolicited
  const bool fullName = name.size() == m_versioned.size() + 2 && name[-1].isImplicitDigest();
  const size_t segIndex = name.size() - (fullName ? 2 : 1);
  if (m_versioned.isPrefixOf(name) && segIndex == m_versioned.size() && name[segIndex].isSegment()) {
    uint64_t seg = *name[segIndex].toNumber();
    if (seg < m_segments.size() && interest.matchesData(m_segments[seg])) {
      reply(interest, m_segments[seg]);
      return;
    }
  }
  else if (interest.matchesData(m_segments.front())) {
    reply(interest, m_segments.front());
    return;
  }
  sendNack(interest);
}

void SegmentServer::answerDiscovery(const Interest& interest)
{
  if (!interest.canBePrefix()) {
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, "discovery Interest without CanBePrefix, Nack");
    sendNack(interest);
    return;
  }
  Name name = m_discovery;
  name.appendVersion(static_cast<uint64_t>(m_env.clock().unixNow().count()));
  name.appendSegment(0);
  Data data(std::move(name));
  data.setFreshnessPeriod(m_opts.metadataFreshness);
  data.setContent(m_versioned.wireEncode());
  security::signData(data, m_signer);
  data.tags.pitToken = interest.tags.pitToken;
  ++m_counters.metadataSent;
  m_ep.putData(data);
}

void SegmentServer::reply(const Interest& interest, const Data& data)
{
  ++m_counters.dataSent;
  app::putDataFor(m_ep, interest, data);
}

void SegmentServer::sendNack(const Interest& interest)
{
  if (!m_opts.nackUnsatisfiable)
    return;
  ++m_counters.nacksSent;
  Nack nack{interest, NackReason::None};
  m_ep.putNack(nack);
}

} // namespace ndnlab::app
