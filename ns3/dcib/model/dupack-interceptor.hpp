#pragma once
// Duplicate-ACK interception at the source edge router (beyond the paper: its section VI leaves
// "intercepting duplicate ACKs at the edge router" for future work).
//
// Problem: when a selected (Not-ECT) packet is lost, the receiving host answers every later
// segment with a duplicate ACK. Those reach the sending host after about one round trip, as
// does the router ACK that makes the edge router retransmit the clone; the host's third
// duplicate ACK usually wins, so it fast-retransmits and cuts its window for a loss the edge
// router repairs anyway.
//
// Rule. The host ACKs cross the source edge router on their way back. For each TCP connection
// (FlowId, data direction) the interceptor follows the highest cumulative ACK and the number of
// duplicate ACKs it let through since the host last had reason to reset its own count. A host
// ACK is a *duplicate* when it carries no data and no SYN/FIN/RST and either repeats the
// highest cumulative ACK (RFC 5681) or carries a SACK block (RFC 6675: an ACK that SACKs new
// data counts as a duplicate even when it also advances the cumulative ACK; ns-3.37 counts it
// and does not reset its count). A duplicate ACK whose ACK number N is the first byte of a
// *repairable* segment is held back once `allowance` duplicates have been let through:
//   - repairable: the edge router keeps a clone of the segment of this flow starting at N that
//     its destination edge has not acknowledged (stalled), or sent such a clone as an edge
//     retransmission or idle-time copy less than `holdTimeout` ago (repair in flight).
//     A duplicate ACK for N means the receiver got later segments but not N; the DCI is FIFO,
//     so the copy of N that left the edge router was lost, and the clone will be sent.
//   - the hole at N is *filled* when a cumulative ACK beyond N arrives: the held ACKs are
//     discarded (the newer ACK carries everything they said; released after it they would be
//     stale, and before it they would be the duplicates the hold avoids).
//   - if no ACK beyond N arrives within `holdTimeout` of the first held one, every held ACK is
//     released in arrival order and later duplicates for N pass: a loss the edge router did not
//     repair (its copy was lost too, or no router ACK ever revealed the gap) is then recovered
//     by the host, late by at most `holdTimeout`.
//   - an ACK that carries no SACK block and advances the cumulative ACK resets the count of
//     duplicates let through (the host resets its own then).
//
// Drops at the edge router's own queue: a selected packet its own AQM dropped is a congestion
// signal of the edge's egress. Unless `holdLocalDrops`, its hole is repaired by the edge as
// usual but its duplicates are not held (the host reduces its window, as without the hold);
// holding them hides the congestion from hosts that ignore ECN (as the paper's hosts do), whose
// only remaining signal is then the queue overflowing.
//
// SACK blocks say two things. (1) The host counts the ACK as a duplicate (above). (2) Where
// else the receiver has holes: the byte after a reported block is missing whenever another
// reported block lies above it (blocks are maximal runs; a D-SACK block may lie inside the
// next one, RFC 2883, so overlapping blocks count as their union; the highest reported block's
// end may just be the data in flight, and a receiver reports at most 3 blocks beside
// timestamps, so nothing is known above it). With `checkSackGaps`, a duplicate that shows
// such a hole starting at a segment the edge cannot repair is let through, and so are the ones
// held for its hole (dropped: the ACK let through says more): the host has to enter recovery
// for that hole anyway, and holding would only delay it. Holes the SACK blocks do not show
// (several losses in one gap, or below an unreported block) are recovered by the host after
// the hole at N fills or its hold expires, at most `holdTimeout` late. `allowance` 2 keeps a
// host with the standard threshold of 3 below it as long as each let-through duplicate SACKs
// one new segment (a receiver acknowledges every out-of-order segment at once); 0 holds them
// all.
//
// Payload is whatever the caller keeps to forward a held ACK later (the received frame in the
// simulator, an int in tests). Time is passed in; nothing here reads a clock.

#include "ns3/dcib/model/types.hpp"

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ndnlab::dcib {

/// One SACK block: sequence numbers [left, right) the receiver holds (RFC 2018).
struct SackBlock
{
  uint32_t left = 0;
  uint32_t right = 0;
};

/// What the interceptor reads from a host ACK travelling back towards the sending host.
struct HostAck
{
  FlowId flow;                   ///< the data direction: the ACK's addresses and ports swapped
  uint32_t ack = 0;              ///< cumulative acknowledgement number
  bool pure = true;              ///< no payload and no SYN, FIN or RST
  bool sack = false;             ///< carries a SACK option with at least one block
  std::vector<SackBlock> blocks; ///< the SACK blocks, as sent (only read with checkSackGaps)
};

struct InterceptorOptions
{
  /// Duplicate ACKs let through per flow before holding (the host's threshold minus one).
  uint32_t allowance = 2;
  /// Longest hold of a hole's ACKs, and how long an edge retransmission counts as in flight.
  /// The campaigns use two inter-router round trips (one for the router ACK that reveals the
  /// gap, one for the retransmission and the ACK it causes).
  Duration holdTimeout = std::chrono::milliseconds(12);
  /// ACKs held per hole; beyond it the oldest held one is discarded (the newest says more).
  uint32_t maxHeldPerHole = 256;
  /// Let duplicates through when their SACK blocks show a hole the edge cannot repair.
  bool checkSackGaps = true;
  /// Hold duplicates for segments the edge's own queue dropped too (false: the host sees them).
  bool holdLocalDrops = false;
  /// Beyond the paper's own future work ("retransmit on a duplicate ACK"): a duplicate ACK
  /// whose hole starts a segment the edge still keeps stalled asks the edge to retransmit that
  /// clone at once (repairDue()), instead of waiting for the router ACK of a later selected
  /// packet, which never comes when none follows before the flow pauses or the DCI idles.
  bool repairOnDupAck = false;

  /// Throws std::invalid_argument for a non-positive holdTimeout or maxHeldPerHole 0.
  void validate() const;
};

struct InterceptorCounters
{
  uint64_t acks = 0;                   ///< host ACKs examined
  uint64_t duplicates = 0;             ///< of which duplicate ACKs
  uint64_t forwardedAllowed = 0;       ///< duplicates let through within the allowance
  uint64_t forwardedNotRepairable = 0; ///< duplicates let through: no repair of that hole known
  uint64_t forwardedReleasedHole = 0;  ///< duplicates let through: that hole's hold expired
  uint64_t forwardedSackGap = 0;       ///< duplicates let through: SACK shows a hole A cannot repair
  uint64_t forwardedLocalDrop = 0;     ///< duplicates let through: A's own queue dropped the segment
  uint64_t held = 0;                   ///< duplicates held back
  uint64_t released = 0;               ///< held ACKs forwarded when the hold expired
  uint64_t absorbed = 0;               ///< held ACKs discarded: a cumulative ACK beyond the hole came
  uint64_t overflow = 0;               ///< held ACKs discarded: the hole's hold list was full
  uint64_t flushed = 0;                ///< held ACKs discarded: a later one showed a hole A cannot repair
  uint64_t holes = 0;                  ///< holes with at least one held ACK
  uint64_t holesFilled = 0;            ///< ... filled within the hold time
  uint64_t holesExpired = 0;           ///< ... whose hold expired (ACKs released)
  uint64_t holesFlushed = 0;           ///< ... let go because the host must recover another hole
  uint64_t repairRequests = 0;         ///< repairOnDupAck: duplicates that asked for a clone's repair
};

enum class AckVerdict {
  Forward, ///< send the ACK on now
  Hold,    ///< the interceptor keeps it (the caller drops its own copy)
};

/// Wrap-around comparison of TCP sequence numbers: a after b.
inline bool seqAfter(uint32_t a, uint32_t b)
{
  return static_cast<int32_t>(a - b) > 0;
}

template<class Payload>
class DupAckInterceptor
{
public:
  /// Throws std::invalid_argument on bad options.
  explicit DupAckInterceptor(InterceptorOptions options) : m_options((options.validate(), options)) {}

  const InterceptorOptions& options() const { return m_options; }
  const InterceptorCounters& counters() const { return m_counters; }
  /// ACKs held right now, over all flows.
  size_t heldNow() const { return m_heldNow; }
  /// Segments the interceptor currently counts as repairable or recently repaired.
  size_t trackedSegments() const { return m_segments.size(); }

  // --- what the edge router does with its clones (TCP segments only) ---

  /// A clone of data segment `key` was stored (the segment leaves Not-ECT).
  void onStored(const PacketKey& key) { ++m_segments[SegmentId{FlowId::ofData(key), key.seq}].stalled; }

  /// The clone of `key` left the buffer as an edge retransmission or idle-time copy.
  void onRepairSent(const PacketKey& key, TimePoint now)
  {
    expireRepairs(now);
    SegmentId id{FlowId::ofData(key), key.seq};
    auto& s = m_segments[id];
    if (s.stalled > 0)
      --s.stalled;
    s.repairAt = now;
    m_repairs.push_back({id, now});
  }

  /// The edge router's own queue dropped the packet `key` (whose clone it keeps).
  void onLocalDrop(const PacketKey& key)
  {
    auto it = m_segments.find(SegmentId{FlowId::ofData(key), key.seq});
    if (it != m_segments.end())
      it->second.localDrop = true;
  }

  /// The destination edge router acknowledged the clone's own packet `key` (it got through).
  void onDelivered(const PacketKey& key)
  {
    auto it = m_segments.find(SegmentId{FlowId::ofData(key), key.seq});
    if (it == m_segments.end())
      return;
    if (it->second.stalled > 0)
      --it->second.stalled;
    if (it->second.stalled == 0 && !it->second.repairAt)
      m_segments.erase(it);
  }

  // --- host ACKs ---

  /// repairOnDupAck: true when `a`, about to be passed to onHostAck(), is a duplicate ACK
  /// whose hole starts a segment whose clone is still stalled (stored, no repair sent). The
  /// caller then retransmits that clone now; its onRepairSent() makes later duplicates for
  /// the hole find the repair in flight, so one hole asks once per clone.
  bool repairDue(const HostAck& a)
  {
    if (!m_options.repairOnDupAck)
      return false;
    static const Flow noAckYet;
    auto it = m_flows.find(a.flow);
    const Flow& f = it != m_flows.end() ? it->second : noAckYet;
    if (f.isStale(a) || !f.isDuplicate(a))
      return false;
    auto s = m_segments.find(SegmentId{a.flow, a.ack});
    if (s == m_segments.end() || s->second.stalled == 0)
      return false;
    ++m_counters.repairRequests;
    return true;
  }

  /// One host ACK. Hold: `makePayload()` is called and the result kept until the hole fills
  /// (discarded) or its hold expires (handed to expire()'s callback). Forward: nothing kept.
  template<class MakePayload>
  AckVerdict onHostAck(const HostAck& a, TimePoint now, MakePayload&& makePayload)
  {
    ++m_counters.acks;
    expireRepairs(now);
    Flow& f = m_flows[a.flow];
    if (f.isStale(a))
      return AckVerdict::Forward; // older than what the host already has
    const bool advanced = f.advances(a);
    const bool duplicate = f.isDuplicate(a); // judged before highestAck moves
    if (advanced) {
      if (f.holding) { // the hole at highestAck is filled
        m_counters.absorbed += f.held.size();
        m_heldNow -= f.held.size();
        ++m_counters.holesFilled;
        f.held.clear();
        f.holding = false;
      }
      f.releasedHole.reset();
      f.hasAck = true;
      f.highestAck = a.ack;
    }
    if (!a.pure)
      return AckVerdict::Forward;
    if (!duplicate) {
      f.dupsForwarded = 0;
      return AckVerdict::Forward;
    }
    ++m_counters.duplicates;
    if (f.releasedHole && *f.releasedHole == a.ack) {
      ++m_counters.forwardedReleasedHole;
      ++f.dupsForwarded;
      return AckVerdict::Forward;
    }
    if (!f.holding && !repairable(a.flow, a.ack, now)) {
      ++m_counters.forwardedNotRepairable;
      ++f.dupsForwarded;
      return AckVerdict::Forward;
    }
    if (!f.holding && !m_options.holdLocalDrops && localDrop(a.flow, a.ack)) {
      ++m_counters.forwardedLocalDrop;
      ++f.dupsForwarded;
      return AckVerdict::Forward;
    }
    if (m_options.checkSackGaps && !sackGapsRepairable(a, now)) {
      ++m_counters.forwardedSackGap;
      if (f.holding) { // the host must recover: the held ACKs would only repeat this one
        m_counters.flushed += f.held.size();
        m_heldNow -= f.held.size();
        ++m_counters.holesFlushed;
        f.held.clear();
        f.holding = false;
        f.releasedHole = f.highestAck;
      }
      ++f.dupsForwarded;
      return AckVerdict::Forward;
    }
    if (f.holding) { // invariant: holding implies holeSeq == highestAck == a.ack
      hold(f, makePayload());
      return AckVerdict::Hold;
    }
    if (f.dupsForwarded < m_options.allowance) {
      ++m_counters.forwardedAllowed;
      ++f.dupsForwarded;
      return AckVerdict::Forward;
    }
    f.holding = true;
    f.deadline = now + m_options.holdTimeout;
    ++m_counters.holes;
    m_deadlines.push_back({a.flow, f.deadline});
    hold(f, makePayload());
    return AckVerdict::Hold;
  }

  /// Releases the ACKs of every hole whose hold expired at or before `now`: `release(Payload&&)`
  /// is called for each, oldest first per hole, holes in the order their holds started.
  template<class F>
  void expire(TimePoint now, F&& release)
  {
    while (!m_deadlines.empty() && m_deadlines.front().second <= now) {
      auto [flow, deadline] = m_deadlines.front();
      m_deadlines.pop_front();
      auto it = m_flows.find(flow);
      if (it == m_flows.end())
        continue;
      Flow& f = it->second;
      if (!f.holding || f.deadline != deadline)
        continue; // that hold already ended (filled); a later one has its own deadline
      ++m_counters.holesExpired;
      f.holding = false;
      f.releasedHole = f.highestAck;
      std::deque<Payload> held;
      held.swap(f.held);
      m_heldNow -= held.size();
      m_counters.released += held.size();
      f.dupsForwarded += static_cast<uint32_t>(held.size());
      for (auto& p : held)
        release(std::move(p));
    }
  }

  /// The earliest pending hold deadline (for the caller's timer), if any hold is active.
  std::optional<TimePoint> nextDeadline() const
  {
    for (const auto& [flow, deadline] : m_deadlines) {
      auto it = m_flows.find(flow);
      if (it != m_flows.end() && it->second.holding && it->second.deadline == deadline)
        return deadline;
    }
    return std::nullopt;
  }

  /// True when the segment of `flow` starting at `seq` is stalled or its repair is in flight.
  bool repairable(const FlowId& flow, uint32_t seq, TimePoint now) const
  {
    auto it = m_segments.find(SegmentId{flow, seq});
    if (it == m_segments.end())
      return false;
    const Segment& s = it->second;
    return s.stalled > 0 || (s.repairAt && now - *s.repairAt < m_options.holdTimeout);
  }

  /// True when the edge's own queue dropped the segment of `flow` starting at `seq`.
  bool localDrop(const FlowId& flow, uint32_t seq) const
  {
    auto it = m_segments.find(SegmentId{flow, seq});
    return it != m_segments.end() && it->second.localDrop;
  }

  /// True unless the SACK blocks of `a` show a hole (the byte after the data the blocks cover,
  /// with another block above it) that does not start a repairable segment of the flow, or
  /// (unless holdLocalDrops) starts one the edge's own queue dropped.
  bool sackGapsRepairable(const HostAck& a, TimePoint now) const
  {
    if (a.blocks.size() < 2)
      return true;
    // blocks above the cumulative ACK, in sequence order (a D-SACK block lies below it)
    SackBlock above[8];
    size_t n = 0;
    for (const auto& b : a.blocks)
      if (seqAfter(b.right, a.ack) && n < 8)
        above[n++] = b;
    for (size_t i = 1; i < n; ++i) // insertion sort: at most a handful of blocks
      for (size_t j = i; j > 0 && seqAfter(above[j - 1].left, above[j].left); --j)
        std::swap(above[j - 1], above[j]);
    // walk the union of the blocks (a D-SACK block may lie inside the next one, RFC 2883):
    // `covered` is the end of the data received so far; a block starting after it shows the
    // hole at `covered`
    uint32_t covered = n > 0 ? above[0].right : 0;
    for (size_t i = 1; i < n; ++i) {
      if (seqAfter(above[i].left, covered) &&
          (!repairable(a.flow, covered, now) || (!m_options.holdLocalDrops && localDrop(a.flow, covered))))
        return false;
      if (seqAfter(above[i].right, covered))
        covered = above[i].right;
    }
    return true;
  }

private:
  struct SegmentId
  {
    FlowId flow;
    uint32_t seq = 0;
    friend bool operator==(const SegmentId&, const SegmentId&) = default;
  };
  struct SegmentIdHash
  {
    size_t operator()(const SegmentId& s) const noexcept
    {
      return FlowIdHash{}(s.flow) ^ (size_t(s.seq) * 0x9e3779b97f4a7c15ULL);
    }
  };
  struct Segment
  {
    uint32_t stalled = 0;              ///< clones of it in the buffer
    std::optional<TimePoint> repairAt; ///< last edge retransmission or copy
    bool localDrop = false;            ///< the edge's own queue dropped it
  };
  struct Flow
  {
    bool hasAck = false;
    uint32_t highestAck = 0;
    uint32_t dupsForwarded = 0;
    bool holding = false; ///< ACKs for the hole at highestAck are held
    TimePoint deadline{};
    std::deque<Payload> held;
    std::optional<uint32_t> releasedHole; ///< hole let go (expired, flushed): duplicates pass

    /// `a` is older than the highest cumulative ACK seen.
    bool isStale(const HostAck& a) const { return hasAck && seqAfter(highestAck, a.ack); }
    /// `a` moves the highest cumulative ACK (or is the flow's first).
    bool advances(const HostAck& a) const { return !hasAck || a.ack != highestAck; }
    /// `a` is what the host counts as a duplicate: a pure ACK that repeats the highest
    /// cumulative ACK (RFC 5681) or carries a SACK block (RFC 6675).
    bool isDuplicate(const HostAck& a) const { return a.pure && (a.sack || !advances(a)); }
  };

  void hold(Flow& f, Payload&& p)
  {
    ++m_counters.held;
    if (f.held.size() >= m_options.maxHeldPerHole) {
      f.held.pop_front();
      ++m_counters.overflow;
      --m_heldNow;
    }
    f.held.push_back(std::move(p));
    ++m_heldNow;
  }

  /// Forgets repairs older than the hold timeout, and the segments nothing else refers to. A
  /// segment with clones still stalled only loses its repair time, so that onDelivered() of
  /// its last clone forgets it.
  void expireRepairs(TimePoint now)
  {
    while (!m_repairs.empty() && now - m_repairs.front().second >= m_options.holdTimeout) {
      auto [id, at] = m_repairs.front();
      m_repairs.pop_front();
      auto it = m_segments.find(id);
      if (it == m_segments.end() || it->second.repairAt != at)
        continue; // forgotten already, or repaired again since
      if (it->second.stalled == 0)
        m_segments.erase(it);
      else
        it->second.repairAt.reset();
    }
  }

  InterceptorOptions m_options;
  InterceptorCounters m_counters;
  std::unordered_map<SegmentId, Segment, SegmentIdHash> m_segments;
  std::deque<std::pair<SegmentId, TimePoint>> m_repairs;
  std::unordered_map<FlowId, Flow, FlowIdHash> m_flows;
  std::deque<std::pair<FlowId, TimePoint>> m_deadlines;
  size_t m_heldNow = 0;
};

} // namespace ndnlab::dcib
