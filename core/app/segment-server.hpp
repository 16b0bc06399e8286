#pragma once
// SegmentServer: the producer of ndnputchunks/ndnserve as a sans-I/O engine.
//
// Publishes bytes as `<prefix>/v=<version>/seg=0..N-1`: every segment carries FinalBlockId =
// seg=N-1 and the configured FreshnessPeriod, and is signed by the given Signer; there is at
// least one (possibly empty) segment. It answers, like ndnputchunks (putchunks/producer.cpp):
// - `<versioned>/seg=k` with segment k, and its full name (with the implicit digest of segment k)
//   too, which ndnputchunks Nacks for k > 0;
// - any other Interest that matches segment 0 (e.g. the bare prefix or the versioned name with
//   CanBePrefix) with segment 0;
// - the RDR discovery Interest `<prefix>/32=metadata` (CanBePrefix required, else a Nack) with
//   `<prefix>/32=metadata/v=<unix ms>/seg=0`, Content = the versioned Name TLV, a short
//   FreshnessPeriod, signed by the same Signer;
// - other Interests under the prefix or the versioned prefix with a Nack (reason None).
// Interests outside the prefix are ignored. A PitToken on the Interest is echoed on the reply.
//
// Memory: segments are encoded and signed once, when published, and kept as Data objects whose
// content is a view into the encoded wire, so a file costs about its size plus ~1% of TLV
// overhead (a 100 MB file holds ~101 MB). Input is read segment by segment; the raw copy of a
// segment is released as soon as it is encoded.

#include "core/app/endpoint.hpp"
#include "core/runtime/env.hpp"
#include "core/security/signer.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace ndnlab::app {

struct SegmentServerOptions
{
  size_t segmentSize = 8000; ///< max content bytes per segment (1..8800)
  /// When non-zero, replaces segmentSize: each segment carries as much content as keeps its
  /// Data (name, metadata and signature included) within this many bytes (256..8800).
  /// `ndnlab serve` uses 1420, which fits a UDP/IPv4 datagram in a 1500-byte MTU with room
  /// for NDNLPv2 headers, so no Data is fragmented (docs/decisions/0004).
  size_t packetSize = 0;
  Duration freshness = std::chrono::milliseconds(10000);      ///< FreshnessPeriod of segments
  Duration metadataFreshness = std::chrono::milliseconds(10); ///< FreshnessPeriod of metadata replies (ndn-cxx default)
  std::optional<uint64_t> version; ///< version number; default: the name's, else Unix time in ms
  bool nackUnsatisfiable = true;   ///< Nack Interests under the prefix that match no segment

  /// Throws std::invalid_argument for out-of-range values.
  void validate() const;
};

struct SegmentServerCounters
{
  uint64_t interests = 0;    ///< Interests under the prefix
  uint64_t dataSent = 0;     ///< segments sent
  uint64_t metadataSent = 0; ///< metadata replies sent
  uint64_t nacksSent = 0;    ///< Nacks sent
  uint64_t ignored = 0;      ///< Interests outside the prefix
};

class SegmentServer
{
public:
  using Options = SegmentServerOptions;
  /// Fills up to `size` bytes at `buf`, returns how many; 0 means end of input.
  using Reader = std::function<size_t(uint8_t* buf, size_t size)>;

  /// `name` is the prefix, or a versioned name (last component a version), in which case the
  /// prefix is the name without it. Installs endpoint.onInterest (cleared by the destructor).
  /// `signer` must outlive the server.
  SegmentServer(Env& env, Endpoint& endpoint, const Name& name, const security::Signer& signer, Options opts = {});
  ~SegmentServer();
  SegmentServer(const SegmentServer&) = delete;
  SegmentServer& operator=(const SegmentServer&) = delete;

  /// Segments, encodes and signs `content`; replaces anything published before.
  void publish(ByteSpan content);
  /// Same, reading the content from `read` until it returns 0.
  void publish(const Reader& read);

  /// Answers one Interest (installed on the endpoint; public for owners that demultiplex).
  void handleInterest(const Interest& interest);

  /// The registered (unversioned) prefix.
  const Name& prefix() const { return m_prefix; }
  const Name& versionedName() const { return m_versioned; }
  size_t segmentCount() const { return m_segments.size(); }
  /// Content bytes published.
  Bytes contentSize() const { return m_contentSize; }
  /// Encoded bytes held.
  Bytes storedSize() const { return m_storedSize; }
  /// Segment `i` (precondition: i < segmentCount()).
  const Data& segment(size_t i) const { return m_segments.at(i); }
  const SegmentServerCounters& counters() const { return m_counters; }

  /// Content bytes per segment (segmentSize, or what packetSize leaves).
  size_t segmentSize() const { return m_opts.segmentSize; }
  /// The discovery name `<prefix>/32=metadata`.
  static Name discoveryName(const Name& prefix);

private:
  /// The most content a segment of this server can carry within `packetSize` bytes.
  size_t contentFitting(size_t packetSize) const;
  void finishPublish(std::vector<Buffer>& raw);
  void reply(const Interest& interest, const Data& data);
  void sendNack(const Interest& interest);
  void answerDiscovery(const Interest& interest);

  Env& m_env;
  Endpoint& m_ep;
  const security::Signer& m_signer;
  Options m_opts;
  Name m_prefix;
  Name m_versioned;
  Name m_discovery;
  std::vector<Data> m_segments;
  Bytes m_contentSize;
  Bytes m_storedSize;
  SegmentServerCounters m_counters;
};

} // namespace ndnlab::app
