#pragma once
// Destination edge router of DCIB (Q_rcv, paper section III-C and Fig. 9).
//
// For every packet arriving from the DCI:
//  - Not-ECT (a selected packet): send a router-to-router ACK carrying its key to the source
//    edge router, then forward it (ForwardAndAck);
//  - ECT(1) (an edge copy: a retransmission or an idle-time copy): forward it, no ACK;
//  - anything else: forward.
// Duplicate suppression (beyond the paper, needed by the idle-copy variant and harmless
// otherwise): the keys of the last `dedupWindow` selected packets and copies forwarded are
// remembered, and a second arrival of the same key is dropped, so hosts never see an edge
// copy of a packet they already received (a TCP receiver would answer it with a duplicate
// ACK, and three of those trigger a spurious fast retransmit).

#include "ns3/dcib/model/types.hpp"

#include <cstdint>
#include <deque>
#include <unordered_set>

namespace ndnlab::dcib {

struct ReceiverOptions
{
  /// Drop a selected packet or edge copy whose key was already forwarded.
  bool suppressDuplicates = true;
  /// Keys remembered for duplicate suppression (the most recent ones).
  size_t dedupWindow = 1 << 16;
};

struct ReceiverCounters
{
  uint64_t packets = 0;              ///< packets seen
  uint64_t selected = 0;             ///< Not-ECT packets (selected by the source edge router)
  uint64_t acks = 0;                 ///< router-to-router ACKs requested
  uint64_t copies = 0;               ///< ECT(1) edge copies forwarded
  uint64_t duplicatesSuppressed = 0; ///< selected packets or copies dropped as duplicates
};

enum class ReceiveAction { Forward, ForwardAndAck, Drop };

class EdgeReceiver
{
public:
  explicit EdgeReceiver(ReceiverOptions options = {});

  /// True when onPacket needs the packet's key (so a host need not parse other packets).
  static bool needsKey(Ecn ecn) { return ecn == Ecn::NotEct || ecn == Ecn::Ect1; }

  /// Fig. 9 for one packet from the DCI; `key` is only read when needsKey(ecn).
  ReceiveAction onPacket(Ecn ecn, const PacketKey& key, TimePoint now);

  const ReceiverCounters& counters() const { return m_counters; }
  void countPacketWithoutKey() { ++m_counters.packets; }

private:
  /// True when `key` was already forwarded; otherwise remembers it.
  bool seenBefore(const PacketKey& key);

  ReceiverOptions m_options;
  ReceiverCounters m_counters;
  std::unordered_set<PacketKey, PacketKeyHash> m_seen;
  std::deque<PacketKey> m_order;
};

} // namespace ndnlab::dcib
