#pragma once
// Reassembly of NDNLPv2 fragments (NFD lp-reassembler semantics, ndn-spec-facts.md 2.4),
// with a bound on the memory held in partial packets.
//
// Fragments of one network packet are identified by (endpoint, Sequence - FragIndex). A partial
// packet is dropped when no new fragment of it arrived for `timeout`, or, oldest first, when
// the bytes held by all partial packets would exceed `maxBytes`. A packet whose fragments add
// up to more than `maxPacketSize` is dropped as soon as that is known ("packet_too_large",
// once per packet): it never completes, its payload is released, and its remaining fragments
// are absorbed (Incomplete) until the last one arrives or the timeout passes.

#include "core/runtime/events.hpp"
#include "core/lp/packet.hpp"
#include "core/runtime/env.hpp"

#include <list>
#include <map>
#include <string_view>
#include <utility>

namespace ndnlab::lp {

struct ReassemblerOptions
{
  /// Maximum FragCount accepted (NFD nMaxFragments).
  size_t maxFragments = 400;
  /// A partial packet is dropped this long after its most recent fragment arrived.
  Duration timeout = std::chrono::milliseconds(500);
  /// Upper bound on bytes held in partial packets (payload plus bookkeeping estimate).
  size_t maxBytes = 4 * 1024 * 1024;
  /// Largest reassembled network packet, octets (ndn-cxx MAX_NDN_PACKET_SIZE).
  size_t maxPacketSize = MaxNdnPacketSize;
};

/// Why a fragment or a partial packet was dropped; stable names via dropReason().
enum class ReassemblyErrc : uint8_t {
  MissingSequence,  ///< fragment of a multi-fragment packet without Sequence
  BadFragIndex,     ///< FragIndex >= FragCount
  TooManyFragments, ///< FragCount > maxFragments
  FragCountChanged, ///< FragCount differs from earlier fragments of the same packet
  Duplicate,        ///< this FragIndex was already received
  MemoryLimit,      ///< partial packet dropped to respect maxBytes
  PacketTooLarge,   ///< the fragments add up to more than maxPacketSize; the partial packet is dropped
  Timeout,          ///< partial packet expired
};

/// The drop reason of `e` (core/runtime/events.hpp).
DropReason dropReason(ReassemblyErrc e);
inline std::string_view reasonName(ReassemblyErrc e)
{
  return toString(dropReason(e));
}

class Reassembler
{
public:
  /// Identifies the sender of a fragment (a link service's EndpointId).
  using Endpoint = uint64_t;

  struct Outcome
  {
    enum class Status : uint8_t { Incomplete, Complete, Dropped };
    Status status = Status::Incomplete;
    /// Why the fragment was dropped (Dropped only).
    ReassemblyErrc error = ReassemblyErrc::Timeout;
    /// Header fields of fragment 0, without Sequence/FragIndex/FragCount/fragment (Complete only).
    LpPacket header;
    /// The reassembled network packet (Complete only).
    SharedBuffer packet;
  };

  Reassembler(Env& env, ReassemblerOptions options = {});
  ~Reassembler();
  Reassembler(const Reassembler&) = delete;
  Reassembler& operator=(const Reassembler&) = delete;

  /// Accepts one received LpPacket that carries a fragment. A packet without FragIndex and
  /// FragCount (or with FragCount 1) completes at once. The fragment's bytes are copied.
  Outcome receive(Endpoint endpoint, const LpPacket& pkt);

  /// Called for each partial packet dropped as a whole outside receive()'s own outcome
  /// (Timeout, or MemoryLimit eviction of an older partial packet), with the number of
  /// fragments it held.
  std::function<void(ReassemblyErrc reason, Endpoint endpoint, size_t nFragments)> onPartialDropped;

  /// Partial packets currently held.
  size_t partialCount() const { return m_partials.size(); }
  /// Bytes accounted to partial packets (never above options().maxBytes).
  size_t bytesHeld() const { return m_bytesHeld; }
  const ReassemblerOptions& options() const { return m_options; }

private:
  using Key = std::pair<Endpoint, uint64_t>; ///< (endpoint, Sequence - FragIndex)

  struct Partial
  {
    size_t fragCount = 0;
    size_t nReceived = 0;
    size_t heldBytes = 0;
    size_t payloadBytes = 0;      ///< sum of the fragments received
    bool tooLarge = false;        ///< above maxPacketSize: payload released, fragments absorbed
    std::vector<Buffer> payloads; ///< by FragIndex
    std::vector<bool> received;   ///< by FragIndex
    LpPacket header;              ///< from fragment 0
    TimerId timer = 0;
    std::list<Key>::iterator age;
  };

  static size_t bookkeepingCost(size_t fragCount);
  void erase(std::map<Key, Partial>::iterator it);
  void onTimeout(Key key);
  /// Evicts the oldest partial packets other than `keep` until `extra` more bytes fit.
  /// Returns false if they cannot fit even then.
  bool makeRoom(size_t extra, const Partial* keep);

  Env& m_env;
  ReassemblerOptions m_options;
  std::map<Key, Partial> m_partials;
  std::list<Key> m_ageOrder; ///< oldest partial packet first
  size_t m_bytesHeld = 0;
};

} // namespace ndnlab::lp
