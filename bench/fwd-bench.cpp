// ndnlab-fwd-bench: Interest/Data exchanges per second through a running forwarder.
//
// Two clients connect to the forwarder's socket: a producer registers a prefix (rib/register)
// and answers every Interest under it with a Data of --payload octets (DigestSha256-signed,
// built from a pre-encoded template), and a consumer keeps --window Interests outstanding for
// unique names <prefix>/seq=<n>, replacing each one as soon as its Data, Nack or timeout comes
// back. After --warmup the consumer counts exchanges for --duration and reports the rate, RTT
// percentiles and losses. Producer and consumer can run in one process (one event loop, or
// --threads 2) or as two processes (--producer-only / --consumer-only).
//
// Client paths (--client): "face" sends and receives every packet through face::Face +
// GenericLinkService with full Interest/Data decoding and encoding; "lean" (default) keeps the
// same connection and link service but handles the exchange packets on the transport directly:
// the consumer patches sequence number and Nonce into a pre-encoded Interest, the producer copies
// the Interest's Name into a pre-encoded Data and signs it; anything unexpected (Nacks,
// fragments, PIT tokens, management replies) still goes through the link service. Both put the
// same packets on the wire; lean leaves more CPU to the forwarder under test.
//
// --flood RATE|max sends Interests for random names under --flood-prefix, routed to a sink face
// that never answers, so every Interest occupies a PIT entry until it expires: a PIT memory
// bound test. It reports the rate achieved and the Nacks received.
//
// Output: a human-readable summary on stderr, and with --json one JSON object on stdout.

#include "core/codec/data.hpp"
#include "core/face/face.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/mgmt/command.hpp"
#include "core/mgmt/control-parameters.hpp"
#include "core/security/signed-interest.hpp"
#include "core/security/signer.hpp"
#include "io/asio-env.hpp"
#include "io/client-connector.hpp"

#include <CLI/CLI.hpp>
#include <asio/signal_set.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>
#include <unordered_map>

namespace ndnlab::bench {
namespace {

struct BenchOptions
{
  /// Forwarder URI or socket path; empty = $NDNLAB_SOCKET, else the client default.
  std::string socket;
  /// Interests kept outstanding by the consumer.
  size_t window = 256;
  /// Measurement period, seconds (after the warm-up).
  double duration = 10.0;
  /// Warm-up period, seconds (not counted).
  double warmup = 1.0;
  /// Data content size, octets.
  size_t payload = 1024;
  /// Name prefix the producer registers and the consumer asks for.
  std::string prefix = "/bench";
  /// InterestLifetime of consumer Interests, milliseconds.
  int64_t lifetimeMs = 1000;
  bool producerOnly = false;
  bool consumerOnly = false;
  /// Event loops when producer and consumer share the process: 1 or 2 (one thread each).
  int threads = 1;
  /// Flood: "" = off, "max" or Interests per second.
  std::string flood;
  std::string floodPrefix = "/bench-flood";
  /// Faces the flood is sent on (each is bounded by the forwarder's per-face PIT quota).
  size_t floodFaces = 1;
  /// Lifetime of flood Interests, milliseconds (how long each occupies the PIT).
  int64_t floodLifetimeMs = 4000;
  /// Producer: sign each Data with DigestSha256 (false: a zero signature value, no hashing).
  bool sign = true;
  /// Client packet path: "lean" parses and builds exchange packets directly on the transport
  /// (pre-encoded templates; anything else falls back to the link service), "face" sends and
  /// receives every packet through Face + GenericLinkService + full decoding.
  std::string client = "lean";
  bool json = false;
};

/// A forwarder URI: a path (relative or absolute) becomes unix://<absolute path>.
std::string resolveSocket(const BenchOptions& o)
{
  std::string s = o.socket;
  if (s.empty())
    if (const char* env = std::getenv("NDNLAB_SOCKET"); env != nullptr)
      s = env;
  if (s.empty() || s.find("://") != std::string::npos)
    return s;
  return "unix://" + std::filesystem::absolute(s).string();
}

/// One client face: a connected transport + GenericLinkService (local fields on).
std::unique_ptr<face::Face> connect(io::AsioEnv& env, const BenchOptions& o)
{
  auto t = io::connectToForwarder(env, env.ioContext(), resolveSocket(o));
  if (!t) {
    std::cerr << "fwd-bench: " << t.error() << "\n";
    std::exit(2);
  }
  face::LinkServiceOptions lso;
  lso.allowLocalFields = true;
  auto ls = std::make_unique<face::GenericLinkService>(env, lso);
  auto f = std::make_unique<face::Face>(env, std::move(ls), std::move(*t));
  f->afterClose = [](face::Face&) {
    std::cerr << "fwd-bench: the forwarder closed the connection\n";
    std::exit(3);
  };
  return f;
}

/// Sequence numbers start at 2^56 so that every seq= component has the same (8-octet, shortest)
/// encoding, which lets the lean consumer patch a pre-encoded Interest in place.
constexpr uint64_t SeqBase = uint64_t(1) << 56;

/// The network packet inside `frame` when it is either a bare packet or a single-fragment
/// LpPacket without a Nack header; nullopt otherwise (the link service handles those).
std::optional<ByteSpan> unwrapFrame(ByteSpan frame)
{
  if (frame.empty())
    return std::nullopt;
  if (frame[0] != tlv::LpPacket)
    return frame;
  auto lp = readSingleTlv(frame);
  if (!lp || lp->type != tlv::LpPacket)
    return std::nullopt;
  TlvReader r(lp->value);
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      return std::nullopt;
    switch (e->type) {
      case tlv::Fragment: return e->value;
      case tlv::LpNack:
      case tlv::FragIndex:
      case tlv::FragCount:
      case tlv::PitToken: return std::nullopt;
      default: break; // IncomingFaceId, CongestionMark, Sequence, ...: irrelevant here
    }
  }
  return std::nullopt;
}

/// Routes frames of `f`'s transport through `fast` first; frames it declines (returns false)
/// go to the link service as usual.
void interceptFrames(face::Face& f, std::function<bool(ByteSpan)> fast)
{
  auto slow = std::move(f.transport().onReceive);
  f.transport().onReceive = [fast = std::move(fast), slow = std::move(slow)](ByteSpan frame, face::EndpointId ep) {
    if (!fast(frame))
      slow(frame, ep);
  };
}

/// Sends rib/register for `prefix` on `face` (signed v0.3 command, DigestSha256) and calls
/// `done` once the forwarder answers 200; exits on failure.
class Registrar
{
public:
  Registrar(io::AsioEnv& env, face::Face& face) : m_env(env), m_face(face), m_signer(m_digest, env.clock(), env.rng())
  {}

  void registerPrefix(const Name& prefix, std::function<void()> done)
  {
    mgmt::ControlParameters cp;
    cp.name = prefix;
    cp.origin = 0;
    cp.cost = 0;
    Interest i(mgmt::makeCommandName(Name("/localhost/nfd"), "rib", "register", cp));
    i.setLifetime(std::chrono::seconds(4));
    i.setNonce(m_env.rng().next32());
    m_signer.sign(i);
    m_pending = i.name();
    m_done = std::move(done);
    m_face.sendInterest(i);
    m_timer = m_env.timers().schedule(std::chrono::seconds(5), [] {
      std::cerr << "fwd-bench: rib/register timed out\n";
      std::exit(2);
    });
  }

  /// Returns true if `d` answered the pending command.
  bool onData(const Data& d)
  {
    if (!m_done || d.name() != m_pending)
      return false;
    m_env.timers().cancel(m_timer);
    auto resp = mgmt::ControlResponse::decode(d.content());
    if (!resp || resp->code != mgmt::status::Ok) {
      std::cerr << "fwd-bench: rib/register failed: "
                << (resp ? std::to_string(resp->code) + " " + resp->text : std::string("bad reply")) << "\n";
      std::exit(2);
    }
    auto done = std::move(m_done);
    m_done = nullptr;
    done();
    return true;
  }

private:
  io::AsioEnv& m_env;
  face::Face& m_face;
  security::DigestSigner m_digest;
  security::InterestSigner m_signer;
  Name m_pending;
  std::function<void()> m_done;
  TimerId m_timer = 0;
};

/// Answers every Interest under the prefix with a Data built from a pre-encoded template:
/// Data = 06 L | Name (copied from the Interest) | MetaInfo? | Content | SignatureInfo |
/// SignatureValue (SHA-256 of Name..SignatureInfo, or zeros with sign = false).
class Producer
{
public:
  Producer(io::AsioEnv& env, const BenchOptions& o, std::function<void()> onReady)
    : m_env(env), m_options(o), m_face(connect(env, o)), m_registrar(env, *m_face)
  {
    Buffer payload(o.payload);
    for (size_t k = 0; k < payload.size(); ++k)
      payload[k] = static_cast<uint8_t>(k * 131 + 7);
    appendTlv(m_tail, tlv::Content, payload);
    m_signedTailSize = m_tail.size();
    Buffer sigInfoValue;
    appendTlvNonNegInt(sigInfoValue, tlv::SignatureType, 0); // DigestSha256
    appendTlv(m_tail, tlv::SignatureInfo, sigInfoValue);
    m_signedTailSize = m_tail.size();
    appendTlvHeader(m_tail, tlv::SignatureValue, 32);
    m_tail.resize(m_tail.size() + 32, 0);

    m_face->afterReceiveInterest = [this](face::Face&, Interest&& i, face::EndpointId) { onInterest(i); };
    m_face->afterReceiveData = [this](face::Face&, Data&& d, face::EndpointId) { m_registrar.onData(d); };
    m_registrar.registerPrefix(m_prefix = Name(o.prefix), [this, onReady = std::move(onReady)] {
      if (m_options.client == "lean")
        interceptFrames(*m_face, [this](ByteSpan frame) { return fastInterest(frame); });
      onReady();
    });
  }

  uint64_t answered() const { return m_answered; }
  uint64_t ignored() const { return m_ignored; }

private:
  /// Data wire for the Name TLV `nameWire`: template header + name + tail, signed.
  std::shared_ptr<Buffer> makeData(ByteSpan nameWire)
  {
    size_t valueSize = nameWire.size() + m_tail.size();
    auto wire = std::make_shared<Buffer>();
    wire->reserve(tlvSize(tlv::Data, valueSize));
    appendTlvHeader(*wire, tlv::Data, valueSize);
    size_t signedStart = wire->size();
    wire->insert(wire->end(), nameWire.begin(), nameWire.end());
    wire->insert(wire->end(), m_tail.begin(), m_tail.end());
    if (m_options.sign) {
      ByteSpan signedPortion(wire->data() + signedStart, nameWire.size() + m_signedTailSize);
      auto digest = sha256(signedPortion);
      std::copy(digest.begin(), digest.end(), wire->end() - 32);
    }
    return wire;
  }

  /// Lean path: answers an Interest under the prefix straight from the frame.
  bool fastInterest(ByteSpan frame)
  {
    auto pkt = unwrapFrame(frame);
    if (!pkt)
      return false;
    auto interest = readSingleTlv(*pkt);
    if (!interest || interest->type != tlv::Interest)
      return false;
    TlvReader r(interest->value);
    auto name = r.next();
    if (!name || name->type != tlv::Name)
      return false;
    ByteSpan prefix = m_prefix.value();
    if (name->value.size() < prefix.size() || !std::equal(prefix.begin(), prefix.end(), name->value.begin()))
      return false;
    m_face->transport().send(makeData(name->wire));
    ++m_answered;
    return true;
  }

  void onInterest(const Interest& i)
  {
    if (!m_prefix.isPrefixOf(i.name())) {
      ++m_ignored;
      return;
    }
    auto data = Data::decode(SharedBuffer(makeData(i.name().wireEncode())));
    if (!data) {
      std::cerr << "fwd-bench: bad Data template\n";
      std::exit(4);
    }
    m_face->sendData(*data);
    ++m_answered;
  }

  io::AsioEnv& m_env;
  const BenchOptions& m_options;
  std::unique_ptr<face::Face> m_face;
  Registrar m_registrar;
  Name m_prefix;
  Buffer m_tail;               ///< Content .. SignatureValue
  size_t m_signedTailSize = 0; ///< octets of m_tail covered by the signature
  uint64_t m_answered = 0;
  uint64_t m_ignored = 0;
};

struct ConsumerResult
{
  double seconds = 0;
  uint64_t exchanges = 0;
  uint64_t payloadBytes = 0;
  uint64_t sent = 0;
  uint64_t timeouts = 0;
  uint64_t late = 0;
  std::map<std::string, uint64_t> nacks;
  std::vector<uint32_t> rttsUs; ///< sorted at the end
};

/// Keeps `window` Interests for unique names outstanding.
class Consumer
{
public:
  Consumer(io::AsioEnv& env, const BenchOptions& o) : m_env(env), m_options(o), m_face(connect(env, o))
  {
    m_prefix = Name(o.prefix);
    m_lifetime = std::chrono::milliseconds(o.lifetimeMs);
    m_outstanding.reserve(o.window * 2);
    m_face->afterReceiveData = [this](face::Face&, Data&& d, face::EndpointId) {
      auto seq = seqOf(d.name());
      onData(seq, d.content().size());
    };
    m_face->afterReceiveNack = [this](face::Face&, Nack&& n, face::EndpointId) { onNack(n); };
    if (o.client == "lean") {
      buildTemplate();
      interceptFrames(*m_face, [this](ByteSpan frame) { return fastData(frame); });
    }
  }

  /// Starts sending; after `warmup` counts for `duration`, then calls `done`.
  void start(Duration warmup, Duration duration, std::function<void()> done)
  {
    m_done = std::move(done);
    fill();
    sweep();
    m_env.timers().schedule(warmup, [this, duration] {
      m_measuring = true;
      m_result = ConsumerResult{};
      m_result.rttsUs.reserve(1 << 20);
      m_start = m_env.now();
      m_env.timers().schedule(duration, [this] {
        m_measuring = false;
        m_result.seconds = toSeconds(m_env.now() - m_start);
        m_stopped = true;
        std::sort(m_result.rttsUs.begin(), m_result.rttsUs.end());
        if (m_done)
          m_done();
      });
    });
  }

  ConsumerResult& result() { return m_result; }

private:
  Interest makeInterest(uint64_t seq, uint32_t nonce) const
  {
    Name n = m_prefix;
    n.appendSequenceNumber(seq);
    Interest i(std::move(n));
    i.setLifetime(m_lifetime);
    i.setNonce(nonce);
    return i;
  }

  /// Pre-encodes an Interest and finds where its sequence number and Nonce sit.
  void buildTemplate()
  {
    m_template = *makeInterest(SeqBase, 0).wireEncode();
    auto outer = readSingleTlv(m_template);
    TlvReader r(outer->value);
    while (!r.atEnd()) {
      auto e = r.next();
      if (e->type == tlv::Name)
        m_seqOffset = static_cast<size_t>(e->wire.data() + e->wire.size() - 8 - m_template.data());
      else if (e->type == tlv::Nonce)
        m_nonceOffset = static_cast<size_t>(e->value.data() - m_template.data());
    }
  }

  void sendOne(uint64_t seq)
  {
    uint32_t nonce = m_env.rng().next32();
    if (m_template.empty()) {
      m_face->sendInterest(makeInterest(seq, nonce));
      return;
    }
    auto wire = std::make_shared<Buffer>(m_template);
    for (int k = 0; k < 8; ++k)
      (*wire)[m_seqOffset + k] = static_cast<uint8_t>(seq >> (56 - 8 * k));
    for (int k = 0; k < 4; ++k)
      (*wire)[m_nonceOffset + k] = static_cast<uint8_t>(nonce >> (24 - 8 * k));
    m_face->transport().send(std::move(wire));
  }

  void fill()
  {
    while (!m_stopped && m_outstanding.size() < m_options.window) {
      uint64_t seq = SeqBase + m_nextSeq++;
      m_outstanding.emplace(seq, m_env.now());
      sendOne(seq);
      if (m_measuring)
        ++m_result.sent;
    }
  }

  /// Lean path: a Data <prefix>/seq=<n> straight from the frame.
  bool fastData(ByteSpan frame)
  {
    auto pkt = unwrapFrame(frame);
    if (!pkt)
      return false;
    auto data = readSingleTlv(*pkt);
    if (!data || data->type != tlv::Data)
      return false;
    TlvReader r(data->value);
    auto name = r.next();
    if (!name || name->type != tlv::Name)
      return false;
    ByteSpan prefix = m_prefix.value();
    ByteSpan v = name->value;
    // <prefix> + 3A 08 <8 octets>
    if (v.size() != prefix.size() + 10 || !std::equal(prefix.begin(), prefix.end(), v.begin()) ||
        v[prefix.size()] != tlv::SequenceNumNameComponent || v[prefix.size() + 1] != 8)
      return false;
    uint64_t seq = 0;
    for (size_t k = 0; k < 8; ++k)
      seq = (seq << 8) | v[prefix.size() + 2 + k];
    size_t contentSize = 0;
    while (!r.atEnd()) {
      auto e = r.next();
      if (!e)
        return false;
      if (e->type == tlv::Content) {
        contentSize = e->value.size();
        break;
      }
    }
    onData(seq, contentSize);
    return true;
  }

  std::optional<uint64_t> seqOf(const Name& name) const
  {
    if (name.size() != m_prefix.size() + 1 || !m_prefix.isPrefixOf(name))
      return std::nullopt;
    auto c = name[-1];
    if (!c.isSequenceNumber())
      return std::nullopt;
    return c.toNumber();
  }

  void onData(std::optional<uint64_t> seq, size_t contentSize)
  {
    auto it = seq ? m_outstanding.find(*seq) : m_outstanding.end();
    if (it == m_outstanding.end()) {
      if (m_measuring)
        ++m_result.late;
      return;
    }
    Duration rtt = m_env.now() - it->second;
    m_outstanding.erase(it);
    if (m_measuring) {
      ++m_result.exchanges;
      m_result.payloadBytes += contentSize;
      m_result.rttsUs.push_back(static_cast<uint32_t>(
        std::min<int64_t>(std::chrono::duration_cast<std::chrono::microseconds>(rtt).count(), UINT32_MAX)));
    }
    fill();
  }

  void onNack(const Nack& n)
  {
    auto seq = seqOf(n.interest.name());
    if (!seq || m_outstanding.erase(*seq) == 0)
      return;
    if (m_measuring)
      ++m_result.nacks[std::string(toString(n.reason))];
    // Back off briefly on Nacks (e.g. no route yet) instead of spinning.
    m_env.timers().schedule(std::chrono::milliseconds(1), [this] { fill(); });
  }

  void sweep()
  {
    if (m_stopped)
      return;
    TimePoint deadline = m_env.now() - m_lifetime;
    for (auto it = m_outstanding.begin(); it != m_outstanding.end();) {
      if (it->second <= deadline) {
        it = m_outstanding.erase(it);
        if (m_measuring)
          ++m_result.timeouts;
      }
      else {
        ++it;
      }
    }
    fill();
    m_env.timers().schedule(std::chrono::milliseconds(20), [this] { sweep(); });
  }

  io::AsioEnv& m_env;
  const BenchOptions& m_options;
  std::unique_ptr<face::Face> m_face;
  Name m_prefix;
  Duration m_lifetime;
  uint64_t m_nextSeq = 0;
  std::unordered_map<uint64_t, TimePoint> m_outstanding;
  Buffer m_template; ///< lean path: pre-encoded Interest
  size_t m_seqOffset = 0, m_nonceOffset = 0;
  bool m_measuring = false;
  bool m_stopped = false;
  TimePoint m_start{};
  ConsumerResult m_result;
  std::function<void()> m_done;
};

struct FloodResult
{
  double seconds = 0;
  uint64_t sent = 0;
  uint64_t data = 0;
  std::map<std::string, uint64_t> nacks;
};

/// Sends Interests for random names under floodPrefix, routed to a sink face that never
/// answers. rate 0 = as fast as the socket accepts.
class Flooder
{
public:
  Flooder(io::AsioEnv& env, const BenchOptions& o, double rate)
    : m_env(env), m_options(o), m_rate(rate), m_sink(connect(env, o)), m_registrar(env, *m_sink)
  {
    for (size_t k = 0; k < std::max<size_t>(o.floodFaces, 1); ++k)
      m_faces.push_back(connect(env, o));
    m_prefix = Name(o.floodPrefix);
    m_sink->afterReceiveData = [this](face::Face&, Data&& d, face::EndpointId) { m_registrar.onData(d); };
    m_sink->afterReceiveInterest = [this](face::Face&, Interest&&, face::EndpointId) { ++m_sunk; };
    for (auto& f : m_faces) {
      f->afterReceiveData = [this](face::Face&, Data&&, face::EndpointId) { ++m_result.data; };
      f->afterReceiveNack = [this](face::Face&, Nack&& n, face::EndpointId) {
        ++m_result.nacks[std::string(toString(n.reason))];
      };
    }
  }

  void start(Duration duration, std::function<void()> done)
  {
    m_registrar.registerPrefix(m_prefix, [this, duration, done = std::move(done)] {
      m_start = m_env.now();
      m_end = m_start + duration;
      m_done = done;
      tick();
    });
  }

  const FloodResult& result() const { return m_result; }
  uint64_t sunk() const { return m_sunk; }

private:
  void sendOne(face::Face& f)
  {
    Name n = m_prefix;
    n.appendNumber(tlv::GenericNameComponent, m_env.rng().next64());
    Interest i(std::move(n));
    i.setLifetime(std::chrono::milliseconds(m_options.floodLifetimeMs));
    i.setNonce(m_env.rng().next32());
    f.sendInterest(i);
    ++m_result.sent;
  }

  face::Face& nextFace() { return *m_faces[m_next++ % m_faces.size()]; }

  void tick()
  {
    TimePoint now = m_env.now();
    if (now >= m_end) {
      m_result.seconds = toSeconds(now - m_start);
      if (m_done)
        m_done();
      return;
    }
    if (m_rate > 0) {
      // Paced: catch up to rate * elapsed every millisecond.
      auto due = static_cast<uint64_t>(m_rate * toSeconds(now - m_start));
      while (m_result.sent < due)
        sendOne(nextFace());
      m_env.timers().schedule(std::chrono::milliseconds(1), [this] { tick(); });
      return;
    }
    // As fast as possible, without growing the client's own send queue without bound.
    for (auto& f : m_faces) {
      if (f->transport().sendQueueLength() < 256 * 1024) {
        for (int k = 0; k < 256; ++k)
          sendOne(*f);
      }
    }
    m_env.timers().schedule(Duration::zero(), [this] { tick(); });
  }

  io::AsioEnv& m_env;
  const BenchOptions& m_options;
  double m_rate;
  std::unique_ptr<face::Face> m_sink;
  Registrar m_registrar;
  std::vector<std::unique_ptr<face::Face>> m_faces;
  size_t m_next = 0;
  Name m_prefix;
  TimePoint m_start{}, m_end{};
  FloodResult m_result;
  uint64_t m_sunk = 0;
  std::function<void()> m_done;
};

// --- reporting -------------------------------------------------------------------------------

uint32_t percentile(const std::vector<uint32_t>& sorted, double p)
{
  if (sorted.empty())
    return 0;
  auto idx = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  idx = std::clamp<size_t>(idx, 1, sorted.size());
  return sorted[idx - 1];
}

std::string jsonMap(const std::map<std::string, uint64_t>& m)
{
  std::ostringstream os;
  os << "{";
  bool first = true;
  for (const auto& [k, v] : m) {
    os << (first ? "" : ", ") << "\"" << k << "\": " << v;
    first = false;
  }
  os << "}";
  return os.str();
}

uint64_t total(const std::map<std::string, uint64_t>& m)
{
  uint64_t n = 0;
  for (const auto& kv : m)
    n += kv.second;
  return n;
}

void reportConsumer(const BenchOptions& o, const ConsumerResult& r, std::optional<uint64_t> answered)
{
  double rate = r.seconds > 0 ? static_cast<double>(r.exchanges) / r.seconds : 0;
  double mbps = r.seconds > 0 ? static_cast<double>(r.payloadBytes) * 8 / r.seconds / 1e6 : 0;
  const auto& v = r.rttsUs;
  fprintf(stderr,
          "fwd-bench: window %zu, payload %zu B, %.2f s measured\n"
          "  exchanges     %llu (%.0f /s, payload %.1f Mbit/s)\n"
          "  rtt us        p50 %u  p90 %u  p99 %u  p99.9 %u  max %u\n"
          "  losses        timeouts %llu, nacks %llu, late/unexpected Data %llu\n",
          o.window, o.payload, r.seconds, static_cast<unsigned long long>(r.exchanges), rate, mbps, percentile(v, 50),
          percentile(v, 90), percentile(v, 99), percentile(v, 99.9), v.empty() ? 0u : v.back(),
          static_cast<unsigned long long>(r.timeouts), static_cast<unsigned long long>(total(r.nacks)),
          static_cast<unsigned long long>(r.late));
  if (o.json) {
    std::cout << "{\"mode\": \"exchange\", \"client\": \"" << o.client
              << "\", \"threads\": " << (o.consumerOnly ? 0 : o.threads) << ", \"window\": " << o.window
              << ", \"payload\": " << o.payload << ", \"seconds\": " << r.seconds << ", \"exchanges\": " << r.exchanges
              << ", \"exchanges_per_second\": " << rate << ", \"payload_mbps\": " << mbps
              << ", \"interests_sent\": " << r.sent << ", \"rtt_us\": {\"p50\": " << percentile(v, 50)
              << ", \"p90\": " << percentile(v, 90) << ", \"p99\": " << percentile(v, 99)
              << ", \"p999\": " << percentile(v, 99.9) << ", \"max\": " << (v.empty() ? 0u : v.back())
              << "}, \"timeouts\": " << r.timeouts << ", \"nacks\": " << jsonMap(r.nacks) << ", \"late\": " << r.late;
    if (answered)
      std::cout << ", \"producer_answered\": " << *answered;
    std::cout << "}" << std::endl;
  }
}

void reportFlood(const BenchOptions& o, const FloodResult& r, uint64_t sunk)
{
  double rate = r.seconds > 0 ? static_cast<double>(r.sent) / r.seconds : 0;
  fprintf(stderr,
          "fwd-bench flood: %llu Interests in %.2f s (%.0f /s), %llu reached the sink, %llu Data, "
          "%llu Nacks\n",
          static_cast<unsigned long long>(r.sent), r.seconds, rate, static_cast<unsigned long long>(sunk),
          static_cast<unsigned long long>(r.data), static_cast<unsigned long long>(total(r.nacks)));
  if (o.json) {
    std::cout << "{\"mode\": \"flood\", \"seconds\": " << r.seconds << ", \"sent\": " << r.sent
              << ", \"interests_per_second\": " << rate << ", \"reached_sink\": " << sunk << ", \"data\": " << r.data
              << ", \"nacks\": " << jsonMap(r.nacks) << "}" << std::endl;
  }
}

Duration seconds(double s)
{
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

io::AsioEnvOptions envOptions()
{
  io::AsioEnvOptions eo;
  eo.logLevel = LogLevel::Warn;
  eo.traceCounters = false;
  return eo;
}

/// Stops `io` on SIGINT/SIGTERM.
void stopOnSignals(asio::signal_set& signals, asio::io_context& io)
{
  signals.async_wait([&io](const std::error_code& ec, int) {
    if (!ec)
      io.stop();
  });
}

int runFlood(const BenchOptions& o)
{
  double rate = 0;
  if (o.flood != "max") {
    char* end = nullptr;
    rate = std::strtod(o.flood.c_str(), &end);
    if (end == o.flood.c_str() || *end != '\0' || !std::isfinite(rate) || !(rate > 0)) {
      std::cerr << "fwd-bench: --flood takes a positive rate (Interests/s) or 'max'\n";
      return 2;
    }
  }
  asio::io_context io;
  io::AsioEnv env(io, envOptions());
  asio::signal_set signals(io, SIGINT, SIGTERM);
  stopOnSignals(signals, io);
  Flooder flooder(env, o, rate);
  bool finished = false;
  flooder.start(seconds(o.duration), [&] {
    finished = true;
    io.stop();
  });
  io.run();
  reportFlood(o, flooder.result(), flooder.sunk());
  return finished ? 0 : 1;
}

int runProducerOnly(const BenchOptions& o)
{
  asio::io_context io;
  io::AsioEnv env(io, envOptions());
  asio::signal_set signals(io, SIGINT, SIGTERM);
  stopOnSignals(signals, io);
  Producer producer(env, o, [] { std::cout << "READY" << std::endl; });
  io.run();
  std::cerr << "fwd-bench producer: answered " << producer.answered() << " Interests\n";
  return 0;
}

int runConsumer(const BenchOptions& o)
{
  asio::io_context io;
  io::AsioEnv env(io, envOptions());
  asio::signal_set signals(io, SIGINT, SIGTERM);
  stopOnSignals(signals, io);

  std::unique_ptr<Producer> producer;
  std::thread producerThread;
  std::unique_ptr<asio::io_context> producerIo;
  std::unique_ptr<io::AsioEnv> producerEnv;
  std::atomic<bool> ready{o.consumerOnly};

  if (!o.consumerOnly) {
    if (o.threads >= 2) {
      producerIo = std::make_unique<asio::io_context>();
      producerEnv = std::make_unique<io::AsioEnv>(*producerIo, envOptions());
      producer = std::make_unique<Producer>(*producerEnv, o, [&] { ready = true; });
      producerThread = std::thread([&] {
        auto guard = asio::make_work_guard(*producerIo);
        producerIo->run();
      });
    }
    else {
      producer = std::make_unique<Producer>(env, o, [&] { ready = true; });
    }
  }

  Consumer consumer(env, o);
  bool finished = false;
  std::function<void()> waitReady = [&] {
    if (!ready) {
      env.timers().schedule(std::chrono::milliseconds(5), waitReady);
      return;
    }
    consumer.start(seconds(o.warmup), seconds(o.duration), [&] {
      finished = true;
      io.stop();
    });
  };
  waitReady();
  io.run();

  std::optional<uint64_t> answered;
  if (producerThread.joinable()) {
    producerIo->stop();
    producerThread.join();
  }
  if (producer)
    answered = producer->answered();
  reportConsumer(o, consumer.result(), answered);
  return finished ? 0 : 1;
}

/// A number of seconds: finite, and > 0 (or >= 0 with `zeroAllowed`), at most a day.
CLI::Validator secondsOption(bool zeroAllowed)
{
  return CLI::Validator(
    [zeroAllowed](std::string& text) -> std::string {
      char* end = nullptr;
      double x = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(x) || x < 0 || (x == 0 && !zeroAllowed) ||
          x > 86400)
        return std::string("expected seconds ") + (zeroAllowed ? ">= 0" : "> 0") + ", at most 86400, got '" + text +
               "'";
      return {};
    },
    zeroAllowed ? "SECONDS>=0" : "SECONDS>0");
}

} // namespace
} // namespace ndnlab::bench

int main(int argc, char** argv)
{
  using namespace ndnlab::bench;
  BenchOptions o;
  CLI::App app{"Interest/Data exchanges per second through a running ndnlabd (or NFD/ndnd)", "ndnlab-fwd-bench"};
  app.add_option("--socket", o.socket,
                 "forwarder socket path or URI (default $NDNLAB_SOCKET, else $NDN_CLIENT_TRANSPORT "
                 "or /run/nfd/nfd.sock)");
  app.add_option("--window", o.window, "Interests kept outstanding")
    ->capture_default_str()
    ->check(CLI::Range(size_t(1), size_t(1) << 20));
  app.add_option("--duration", o.duration, "measurement (or flood) period, seconds")
    ->capture_default_str()
    ->check(secondsOption(false));
  app.add_option("--warmup", o.warmup, "warm-up before measuring, seconds")
    ->capture_default_str()
    ->check(secondsOption(true));
  app.add_option("--payload", o.payload, "Data content size, octets")
    ->capture_default_str()
    ->check(CLI::Range(size_t(0), size_t(8000)));
  app.add_option("--prefix", o.prefix, "prefix registered by the producer")->capture_default_str();
  app.add_option("--lifetime", o.lifetimeMs, "consumer InterestLifetime, ms")
    ->capture_default_str()
    ->check(CLI::Range(int64_t(1), int64_t(60000)));
  auto* po = app.add_flag("--producer-only", o.producerOnly,
                          "run only the producer (prints READY once registered; stops on SIGINT/SIGTERM)");
  auto* co = app.add_flag("--consumer-only", o.consumerOnly, "run only the consumer (a producer must be running)");
  po->excludes(co);
  app
    .add_option("--threads", o.threads, "producer and consumer in one process: 1 = one event loop, 2 = one thread each")
    ->capture_default_str()
    ->check(CLI::Range(1, 2));
  app
    .add_option("--client", o.client,
                "client packet path: lean (pre-encoded templates, frames parsed in place) or face "
                "(Face + GenericLinkService + full decoding)")
    ->capture_default_str()
    ->check(CLI::IsMember({"lean", "face"}));
  app.add_flag("--sign,!--no-sign", o.sign, "sign each Data with DigestSha256 (default on)");
  app.add_option("--flood", o.flood, "flood mode: RATE Interests/s or 'max' for random names nobody answers");
  app.add_option("--flood-prefix", o.floodPrefix, "prefix of flood Interests (routed to a sink)")
    ->capture_default_str();
  app.add_option("--flood-faces", o.floodFaces, "faces the flood is spread over")
    ->capture_default_str()
    ->check(CLI::Range(size_t(1), size_t(64)));
  app.add_option("--flood-lifetime", o.floodLifetimeMs, "InterestLifetime of flood Interests, ms")
    ->capture_default_str()
    ->check(CLI::Range(int64_t(1), int64_t(60000)));
  app.add_flag("--json", o.json, "print one JSON object with the results on stdout");
  try {
    app.parse(argc, argv);
  }
  catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2; // --help is 0; every bad command line is 2
  }
  for (const auto& [option, uri] : {std::pair{"--prefix", o.prefix}, std::pair{"--flood-prefix", o.floodPrefix}}) {
    auto name = ndnlab::Name::parse(uri);
    if (uri.empty() || !name || name.value().size() == 0) {
      std::cerr << "fwd-bench: " << option << " '" << uri << "': expected a non-root NDN name such as /bench\n";
      return 2;
    }
  }

  try {
    if (!o.flood.empty())
      return runFlood(o);
    if (o.producerOnly)
      return runProducerOnly(o);
    return runConsumer(o);
  }
  catch (const std::exception& e) {
    std::cerr << "fwd-bench: " << e.what() << "\n";
    return 1;
  }
}
