// libFuzzer target for DCIB's decision classes (ns3/dcib/model: plain C++, time passed in, no
// simulator). The first byte picks one of two harnesses.
//
// Edge routers: an EdgeSender (Q_snd) and an EdgeReceiver (Q_rcv) joined by a FIFO DCI that
// loses what the input says, and a router-ACK path that may lose ACKs too. Hosts send segments
// of four flows (any size, host retransmissions of earlier sequence numbers); the edge sender
// retransmits on router ACKs and on duplicate ACKs (retransmitNow), hands out idle-time copies,
// and time passes. Checked against a mirror of the clones kept: the packets and bytes kept, never
// beyond the buffer; a router ACK for a kept clone hands out exactly the clones kept before it,
// oldest first, and removes them and its own; an ACK for anything else changes nothing; a clone
// leaves once (ACK, retransmission or copy), and the counters add up. The receiver ACKs a
// selected packet once, forwards every packet it does not drop, and drops only a key it has
// forwarded within its window.
//
// Duplicate-ACK interceptor: three flows (sequence numbers that may wrap), clones stored,
// repaired and delivered, the edge's own drops, host ACKs (pure or not, repeating or moving the
// cumulative ACK, with SACK blocks on segment boundaries or anywhere), time, expiry. Checked:
// an ACK is held only when it is a pure duplicate and either its hole is held already or its
// segment is repairable and the host has had its allowance of duplicates, and (with the SACK
// check) its blocks show no hole the edge cannot repair, overlapping blocks counting as their
// union; a held ACK is handed back once, in arrival order, and only after its hole's hold
// timeout; every hole whose hold timed out has been released by expire(); the counters account
// for every held ACK (released, absorbed, overflowed, flushed or still held); nextDeadline() is
// the oldest hold's deadline; and, once every clone has left and the hold time has passed, the
// interceptor tracks nothing.

#include "fuzz/check.hpp"
#include "fuzz/script.hpp"
#include "ns3/dcib/model/dupack-interceptor.hpp"
#include "ns3/dcib/model/edge-receiver.hpp"
#include "ns3/dcib/model/edge-sender.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

using namespace ndnlab::dcib;
using namespace std::chrono_literals;
using ndnlab::fuzz::require;
namespace fuzz = ndnlab::fuzz;

constexpr int MaxSteps = 400;

constexpr uint32_t FirstSource = 0x0a000001; // 10.0.0.1: the source of flow 0

PacketKey keyOf(uint32_t flow, uint32_t seq, uint16_t ipId)
{
  PacketKey k;
  k.src = FirstSource + flow;
  k.dst = 0x0a010001 + flow;
  k.srcPort = static_cast<uint16_t>(49152 + flow);
  k.dstPort = 5000;
  k.protocol = TcpProtocol;
  k.seq = seq;
  k.ipId = ipId;
  return k;
}

/// The flow of a key made by keyOf().
uint32_t flowOf(const PacketKey& k)
{
  return k.src - FirstSource;
}

/// The head of a FIFO path arrives: taken off `path` and returned, or nothing when the path is
/// empty or `lost` drops it on the way.
template<typename T>
std::optional<T> arrive(std::deque<T>& path, bool lost)
{
  if (path.empty())
    return std::nullopt;
  T head = std::move(path.front());
  path.pop_front();
  if (lost)
    return std::nullopt;
  return head;
}

// ---------------------------------------------------------------------------------------------
// EdgeSender + EdgeReceiver over a lossy FIFO DCI

class EdgeHarness
{
public:
  explicit EdgeHarness(FuzzedDataProvider& in)
    : m_in(in),
      m_sender(senderOptions(in), in.ConsumeIntegral<uint64_t>()),
      m_rxOptions(receiverOptions(in)),
      m_receiver(m_rxOptions)
  {
    for (uint32_t f = 0; f < m_flows.size(); ++f) {
      m_flows[f].seq = in.ConsumeIntegral<uint32_t>();
      m_flows[f].ipId = in.ConsumeIntegral<uint16_t>();
    }
  }

  void step()
  {
    switch (m_in.ConsumeIntegralInRange<int>(0, 11)) {
      case 0:
      case 1:
      case 2: { // a host sends its next segment
        Flow& f = m_flows[pickFlow()];
        uint32_t bytes = m_in.ConsumeIntegralInRange<uint32_t>(0, 9000);
        send(f, f.seq, bytes);
        f.seq += bytes;
        break;
      }
      case 3: { // a host retransmits an earlier segment: same sequence number, new IP ID
        Flow& f = m_flows[pickFlow()];
        if (!f.sent.empty()) {
          auto [seq, bytes] = f.sent[m_in.ConsumeIntegralInRange<size_t>(0, f.sent.size() - 1)];
          send(f, seq, bytes);
        }
        break;
      }
      case 4:
      case 5: deliverDci(m_in.ConsumeIntegralInRange<int>(0, 3) == 0); break;
      case 6:
      case 7: deliverAck(m_in.ConsumeIntegralInRange<int>(0, 7) == 0); break;
      case 8: repairNow(); break;
      case 9: idleCopy(); break;
      case 10: {
        double mean = m_sender.meanStalledBytes(m_now);
        require(mean >= 0.0 && mean <= double(m_sender.counters().peakBytes) + 1.0,
                "mean stalled bytes outside [0, peak]");
        break;
      }
      default: m_now += std::chrono::microseconds(m_in.ConsumeIntegralInRange<int>(0, 20000)); break;
    }
    checkAccounts();
  }

  /// The DCI and the ACK path deliver everything left, without loss.
  void finish()
  {
    for (int guard = 0; guard < 100000 && (!m_dci.empty() || !m_acks.empty()); ++guard) {
      while (!m_dci.empty())
        deliverDci(false);
      while (!m_acks.empty())
        deliverAck(false);
      checkAccounts();
    }
    require(m_dci.empty() && m_acks.empty(), "edge copies kept crossing a lossless DCI");
  }

private:
  struct Clone
  {
    uint64_t id;
    PacketKey key;
    uint32_t bytes;
    TimePoint storedAt;
  };
  struct Wire
  {
    PacketKey key;
    Ecn ecn;
  };
  struct Flow
  {
    uint32_t seq = 0;
    uint16_t ipId = 0;
    std::vector<std::pair<uint32_t, uint32_t>> sent; ///< (seq, bytes), the latest 64
  };
  using Sender = EdgeSender<Clone>;

  static SenderOptions senderOptions(FuzzedDataProvider& in)
  {
    SenderOptions o;
    o.selectionRatio = in.ConsumeIntegralInRange<int>(0, 20) / 20.0;
    o.selection = in.ConsumeBool() ? SelectionMode::Even : SelectionMode::Random;
    o.bufferBytes = in.ConsumeIntegralInRange<uint64_t>(0, 60000);
    o.interRouterRtt = std::chrono::microseconds(in.ConsumeIntegralInRange<int>(1, 20000));
    o.linkRate = BitRate{in.ConsumeIntegralInRange<uint64_t>(1, 10'000'000'000)};
    o.enforceBound = in.ConsumeBool();
    o.adaptiveRatio = in.ConsumeBool();
    o.buffer = in.ConsumeBool() ? BufferMode::Stalled : BufferMode::LowPriority;
    o.minEligibleBytes = in.ConsumeIntegralInRange<uint32_t>(0, 200);
    return o;
  }

  static ReceiverOptions receiverOptions(FuzzedDataProvider& in)
  {
    ReceiverOptions o;
    o.suppressDuplicates = in.ConsumeBool();
    o.dedupWindow = in.ConsumeIntegralInRange<size_t>(1, 64);
    return o;
  }

  size_t pickFlow() { return m_in.ConsumeIntegralInRange<size_t>(0, m_flows.size() - 1); }
  uint32_t index(const Flow& f) const { return static_cast<uint32_t>(&f - m_flows.data()); }

  void send(Flow& f, uint32_t seq, uint32_t bytes)
  {
    PacketKey key = keyOf(index(f), seq, f.ipId++);
    const uint64_t keptBefore = m_sender.stalledBytes();
    const bool selected = m_sender.select(bytes, m_now);
    require(!selected || bytes >= m_sender.options().minEligibleBytes,
            "a packet shorter than minEligibleBytes was selected");
    require(!selected || keptBefore + bytes <= m_sender.options().bufferBytes,
            "a packet was selected whose clone does not fit the buffer");
    if (selected) {
      Clone c{m_nextId++, key, bytes, m_now};
      m_sender.store(key, bytes, c, m_now);
      m_kept.push_back(c);
    }
    m_dci.push_back(Wire{key, selected ? Ecn::NotEct : Ecn::Ect0});
    f.sent.emplace_back(seq, bytes);
    if (f.sent.size() > 64)
      f.sent.erase(f.sent.begin());
  }

  /// The head of the DCI reaches the destination edge router, or is lost.
  void deliverDci(bool lost)
  {
    auto arrived = arrive(m_dci, lost);
    if (!arrived)
      return;
    const Wire w = *arrived;
    const bool keyed = EdgeReceiver::needsKey(w.ecn);
    const bool duplicate = keyed && m_rxOptions.suppressDuplicates && remembered(w.key);
    auto action = m_receiver.onPacket(w.ecn, w.key, m_now);
    if (duplicate) {
      require(action == ReceiveAction::Drop, "a packet already forwarded was forwarded again");
      return;
    }
    require(action != ReceiveAction::Drop, "the destination edge dropped a packet it had not forwarded");
    require((action == ReceiveAction::ForwardAndAck) == (w.ecn == Ecn::NotEct),
            "a router ACK for anything but a selected packet, or none for one");
    if (keyed)
      remember(w.key);
    if (action == ReceiveAction::ForwardAndAck)
      m_acks.push_back(w.key);
  }

  /// The head of the router-ACK path reaches the source edge router, or is lost.
  void deliverAck(bool lost)
  {
    auto arrived = arrive(m_acks, lost);
    if (!arrived)
      return;
    const PacketKey key = *arrived;
    auto pos = std::find_if(m_kept.begin(), m_kept.end(), [&](const Clone& c) { return c.key == key; });
    const uint64_t unmatchedBefore = m_sender.counters().acksUnmatched;
    std::vector<Clone> out;
    auto r = m_sender.onAck(key, m_now, [&](Clone&& c) { out.push_back(c); });
    if (pos == m_kept.end()) {
      require(!r.matched && r.retransmitted == 0 && out.empty(),
              "a router ACK for no kept clone retransmitted or discarded one");
      require(m_sender.counters().acksUnmatched == unmatchedBefore + 1, "an unmatched ACK not counted");
      return;
    }
    const size_t before = static_cast<size_t>(pos - m_kept.begin());
    require(r.matched && r.retransmitted == before && out.size() == before,
            "a router ACK did not retransmit exactly the clones kept before its own");
    for (size_t i = 0; i < before; ++i)
      require(out[i].id == m_kept[i].id, "a router ACK retransmitted clones out of order");
    m_kept.erase(m_kept.begin(), pos + 1);
    for (auto& c : out)
      m_dci.push_back(Wire{c.key, Ecn::Ect1});
  }

  /// A duplicate ACK asks for the clone of one segment now (retransmitNow).
  void repairNow()
  {
    Flow& f = m_flows[pickFlow()];
    if (f.sent.empty())
      return;
    const uint32_t seq = f.sent[m_in.ConsumeIntegralInRange<size_t>(0, f.sent.size() - 1)].first;
    const PacketKey like = keyOf(index(f), seq, 0);
    auto match = [&](const PacketKey& k) { return k.seq == like.seq && FlowId::ofData(k) == FlowId::ofData(like); };
    const Duration minAge = std::chrono::microseconds(m_in.ConsumeIntegralInRange<int>(0, 20000));
    auto pos = std::find_if(m_kept.begin(), m_kept.end(), [&](const Clone& c) { return match(c.key); });
    std::vector<Clone> out;
    bool sent = m_sender.retransmitNow(match, m_now, minAge, [&](Clone&& c) { out.push_back(c); });
    const bool expected = pos != m_kept.end() && m_now - pos->storedAt >= minAge;
    require(sent == expected && out.size() == (expected ? 1u : 0u),
            "retransmitNow did not send exactly the oldest matching clone old enough");
    if (!sent)
      return;
    require(out[0].id == pos->id, "retransmitNow sent another clone than the oldest matching one");
    m_kept.erase(pos);
    m_dci.push_back(Wire{out[0].key, Ecn::Ect1});
  }

  void idleCopy()
  {
    auto c = m_sender.takeIdleCopy(m_now);
    const bool expected = m_sender.options().buffer == BufferMode::LowPriority && !m_kept.empty();
    require(c.has_value() == expected, "an idle copy handed out when none was due, or none when due");
    if (!c)
      return;
    require(c->id == m_kept.front().id, "the idle copy is not the oldest clone");
    m_kept.pop_front();
    m_dci.push_back(Wire{c->key, Ecn::Ect1});
  }

  void checkAccounts()
  {
    uint64_t bytes = 0;
    for (const auto& c : m_kept)
      bytes += c.bytes;
    const auto& k = m_sender.counters();
    require(m_sender.stalledPackets() == m_kept.size() && m_sender.stalledBytes() == bytes,
            "the stalled queue's packets or bytes differ from the clones kept");
    require(bytes <= m_sender.options().bufferBytes, "the clones kept exceed the buffer");
    require(k.selections == k.ackedDiscards + k.edgeRetransmissions + k.idleCopies + m_kept.size(),
            "selections != discarded + retransmitted + copied + kept");
    require(k.peakBytes >= bytes && k.peakPackets >= m_kept.size(), "the peak is below the occupancy");
    require(m_kept.empty() || (m_sender.isStored(m_kept.front().key) && m_sender.isStored(m_kept.back().key)),
            "a kept clone is not found by its key");
    const double r = m_sender.currentRatio();
    require(r >= 0.0 && r <= m_sender.options().selectionRatio + 1e-12, "the selection ratio left [0, r]");
  }

  bool remembered(const PacketKey& k) const { return m_seen.count(k) != 0; }

  void remember(const PacketKey& k)
  {
    m_seen.insert(k);
    m_seenOrder.push_back(k);
    if (m_seenOrder.size() > m_rxOptions.dedupWindow) {
      m_seen.erase(m_seenOrder.front());
      m_seenOrder.pop_front();
    }
  }

  FuzzedDataProvider& m_in;
  Sender m_sender;
  ReceiverOptions m_rxOptions;
  EdgeReceiver m_receiver;
  std::array<Flow, 4> m_flows;
  TimePoint m_now{1s};
  uint64_t m_nextId = 0;
  std::deque<Clone> m_kept;
  std::deque<Wire> m_dci;
  std::deque<PacketKey> m_acks;
  std::unordered_set<PacketKey, PacketKeyHash> m_seen;
  std::deque<PacketKey> m_seenOrder;
};

// ---------------------------------------------------------------------------------------------
// DupAckInterceptor

class InterceptorHarness
{
public:
  explicit InterceptorHarness(FuzzedDataProvider& in) : m_in(in), m_x(options(in))
  {
    for (uint32_t f = 0; f < m_flows.size(); ++f) {
      Flow& fl = m_flows[f];
      fl.id = FlowId::ofData(keyOf(f, 0, 0));
      fl.mss = in.ConsumeIntegralInRange<uint32_t>(1, 9000);
      // near the wrap of the sequence space, or anywhere
      fl.isn =
        in.ConsumeBool() ? 0u - fl.mss * in.ConsumeIntegralInRange<uint32_t>(0, 8) : in.ConsumeIntegral<uint32_t>();
    }
  }

  void step()
  {
    Flow& f = m_flows[m_in.ConsumeIntegralInRange<size_t>(0, m_flows.size() - 1)];
    switch (m_in.ConsumeIntegralInRange<int>(0, 11)) {
      case 0:
      case 1: { // a clone of a segment is stored (the segment leaves Not-ECT)
        uint32_t seq = f.seqOf(m_in.ConsumeIntegralInRange<uint32_t>(0, Segments - 1));
        PacketKey k = keyOf(index(f), seq, m_nextIpId++);
        m_x.onStored(k);
        ++m_segments[{index(f), seq}].stalled;
        m_outstanding.push_back(k);
        break;
      }
      case 2:
      case 3: { // a clone leaves: edge retransmission or idle copy, or its own router ACK
        if (m_outstanding.empty())
          break;
        size_t i = m_in.ConsumeIntegralInRange<size_t>(0, m_outstanding.size() - 1);
        PacketKey k = m_outstanding[i];
        m_outstanding.erase(m_outstanding.begin() + static_cast<ptrdiff_t>(i));
        leave(k, m_in.ConsumeBool());
        break;
      }
      case 4: { // the edge's own queue drops a selected segment
        uint32_t seq = f.seqOf(m_in.ConsumeIntegralInRange<uint32_t>(0, Segments - 1));
        m_x.onLocalDrop(keyOf(index(f), seq, 0));
        break;
      }
      case 5:
      case 6:
      case 7:
      case 8: hostAck(f); break;
      case 9: expire(); break;
      default:
        m_now += std::chrono::microseconds(
          m_in.ConsumeIntegralInRange<int64_t>(0, 2 * m_x.options().holdTimeout.count() / 1000));
        break;
    }
    checkHolds();
  }

  /// Every clone leaves, the hold time passes: nothing is held or tracked any more.
  void finish()
  {
    while (!m_outstanding.empty()) {
      leave(m_outstanding.front(), false);
      m_outstanding.pop_front();
    }
    m_now += m_x.options().holdTimeout;
    expire();
    // any host ACK lets the interceptor forget expired repairs: the first of a new flow
    HostAck a;
    a.flow = FlowId::ofData(keyOf(99, 0, 0));
    a.ack = 1;
    require(m_x.onHostAck(a, m_now, [&] { return uint64_t(0); }) == AckVerdict::Forward,
            "the first ACK of a flow was held");
    require(m_x.heldNow() == 0, "ACKs still held after every hold timed out");
    require(m_x.trackedSegments() == 0, "segments still tracked after every clone left and the hold time passed");
  }

private:
  static constexpr uint32_t Segments = 24;

  struct Flow
  {
    FlowId id;
    uint32_t isn = 0;
    uint32_t mss = 1;
    bool hasAck = false;
    uint32_t highest = 0;
    uint32_t dups = 0;         ///< duplicates the host got since it last reset its count
    std::deque<uint64_t> held; ///< ACKs held for the current hole, oldest first
    TimePoint holeStart{};
    uint32_t seqOf(uint32_t n) const { return isn + n * mss; }
  };
  struct Segment
  {
    uint32_t stalled = 0;
    std::optional<TimePoint> repairAt;
  };

  static InterceptorOptions options(FuzzedDataProvider& in)
  {
    InterceptorOptions o;
    o.allowance = in.ConsumeIntegralInRange<uint32_t>(0, 4);
    o.holdTimeout = std::chrono::microseconds(in.ConsumeIntegralInRange<int>(1, 20000));
    o.maxHeldPerHole = in.ConsumeIntegralInRange<uint32_t>(1, 8);
    o.checkSackGaps = in.ConsumeBool();
    o.holdLocalDrops = in.ConsumeBool();
    o.repairOnDupAck = in.ConsumeBool();
    return o;
  }

  uint32_t index(const Flow& f) const { return static_cast<uint32_t>(&f - m_flows.data()); }

  void leave(const PacketKey& k, bool repaired)
  {
    Segment& s = m_segments[{flowOf(k), k.seq}];
    if (s.stalled > 0)
      --s.stalled;
    if (repaired) {
      m_x.onRepairSent(k, m_now);
      s.repairAt = m_now;
    }
    else {
      m_x.onDelivered(k);
    }
  }

  bool repairable(const Flow& f, uint32_t seq) const
  {
    auto it = m_segments.find({index(f), seq});
    if (it == m_segments.end())
      return false;
    return it->second.stalled > 0 || (it->second.repairAt && m_now - *it->second.repairAt < m_x.options().holdTimeout);
  }

  uint32_t pickSeq(const Flow& f)
  {
    switch (m_in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: return f.highest;
      case 1: return f.highest + f.mss * m_in.ConsumeIntegralInRange<uint32_t>(1, 4);
      case 2: return m_in.ConsumeIntegral<uint32_t>();
      default: return f.seqOf(m_in.ConsumeIntegralInRange<uint32_t>(0, Segments));
    }
  }

  void hostAck(Flow& f)
  {
    HostAck a;
    a.flow = f.id;
    a.ack = pickSeq(f);
    a.pure = m_in.ConsumeIntegralInRange<int>(0, 5) != 0;
    for (int n = m_in.ConsumeIntegralInRange<int>(0, 4); n > 0; --n) {
      uint32_t left = pickSeq(f);
      uint32_t right = m_in.ConsumeBool() ? left + f.mss * m_in.ConsumeIntegralInRange<uint32_t>(1, 3)
                                          : m_in.ConsumeIntegral<uint32_t>();
      a.blocks.push_back(SackBlock{left, right});
    }
    a.sack = !a.blocks.empty();

    // what the host and the interceptor know before this ACK
    const bool stale = f.hasAck && seqAfter(f.highest, a.ack);
    const bool advances = !f.hasAck || a.ack != f.highest;
    const bool duplicate = a.pure && (a.sack || !advances);

    if (m_x.repairDue(a)) {
      auto s = m_segments.find({index(f), a.ack});
      require(m_x.options().repairOnDupAck && !stale && duplicate && s != m_segments.end() && s->second.stalled > 0,
              "repairDue for an ACK that is no duplicate, or for a segment with no clone stalled");
      // the glue retransmits the oldest clone of that segment, if old enough
      if (m_in.ConsumeBool()) {
        auto it = std::find_if(m_outstanding.begin(), m_outstanding.end(),
                               [&](const PacketKey& k) { return flowOf(k) == index(f) && k.seq == a.ack; });
        if (it != m_outstanding.end()) {
          PacketKey k = *it;
          m_outstanding.erase(it);
          leave(k, true);
        }
      }
    }

    const bool wasHolding = !f.held.empty();
    const bool wasRepairable = repairable(f, a.ack);
    const uint64_t flushedHolesBefore = m_x.counters().holesFlushed;
    int made = 0;
    const uint64_t id = m_nextAckId++;
    auto verdict = m_x.onHostAck(a, m_now, [&] {
      ++made;
      return id;
    });
    require(made == (verdict == AckVerdict::Hold ? 1 : 0), "a payload made for an ACK not held, or twice");

    if (stale) {
      require(verdict == AckVerdict::Forward, "an ACK older than the highest cumulative ACK was held");
      return;
    }
    if (advances) { // a hole held is filled: its ACKs are absorbed
      f.held.clear();
      f.hasAck = true;
      f.highest = a.ack;
    }
    if (!a.pure) {
      require(verdict == AckVerdict::Forward, "an ACK carrying data or SYN/FIN/RST was held");
      return;
    }
    if (!duplicate) {
      require(verdict == AckVerdict::Forward, "an ACK the host does not count as a duplicate was held");
      f.dups = 0;
      return;
    }
    if (m_x.counters().holesFlushed != flushedHolesBefore) {
      require(verdict == AckVerdict::Forward && wasHolding && !advances,
              "a hold flushed by an ACK that did not repeat its hole");
      f.held.clear();
    }
    if (verdict == AckVerdict::Forward) {
      ++f.dups;
      return;
    }
    if (f.held.empty()) { // a new hole
      require(wasRepairable, "ACKs held for a segment the edge router cannot repair");
      require(f.dups >= m_x.options().allowance, "ACKs held before the host had its allowance of duplicates");
      f.holeStart = m_now;
    }
    if (m_x.options().checkSackGaps)
      require(sackHolesRepairable(f, a), "an ACK held whose SACK blocks show a hole the edge cannot repair");
    f.held.push_back(id);
    if (f.held.size() > m_x.options().maxHeldPerHole)
      f.held.pop_front();
    ++m_holdsSeen;
  }

  /// False when the SACK blocks above the cumulative ACK show a missing segment (the byte after
  /// the data the blocks cover, with another block above it) that is not repairable. Judged
  /// only when every block that ends above the ACK starts less than 2^30 above it and before
  /// its end, where sequence order is the integer order of the offsets from the ACK.
  bool sackHolesRepairable(const Flow& f, const HostAck& a) const
  {
    std::vector<std::pair<uint32_t, uint32_t>> above; // offsets from the ACK: [left, right)
    for (const auto& b : a.blocks) {
      uint32_t left = b.left - a.ack, right = b.right - a.ack;
      if (!seqAfter(b.right, a.ack))
        continue; // below the ACK (a D-SACK block)
      if (left >= (1u << 30) || left >= right)
        return true; // starts below the ACK or too far above it, or malformed: not judged here
      above.emplace_back(left, right);
    }
    std::sort(above.begin(), above.end());
    uint32_t covered = above.empty() ? 0 : above[0].second;
    for (const auto& [left, right] : above) {
      if (left > covered && !repairable(f, a.ack + covered))
        return false;
      covered = std::max(covered, right);
    }
    return true;
  }

  void expire()
  {
    m_x.expire(m_now, [&](uint64_t&& id) {
      auto it = std::find_if(m_flows.begin(), m_flows.end(),
                             [&](const Flow& f) { return !f.held.empty() && f.held.front() == id; });
      require(it != m_flows.end(), "an ACK released that was not held, twice, or out of its order");
      require(m_now - it->holeStart >= m_x.options().holdTimeout, "an ACK released before its hold timed out");
      it->held.pop_front();
      ++it->dups; // the host gets it now
      ++m_released;
    });
    for (const Flow& f : m_flows)
      require(f.held.empty() || m_now - f.holeStart < m_x.options().holdTimeout,
              "a hole still held after its hold timed out");
  }

  void checkHolds()
  {
    size_t held = 0;
    std::optional<TimePoint> first;
    for (const Flow& f : m_flows) {
      held += f.held.size();
      if (!f.held.empty() && (!first || f.holeStart < *first))
        first = f.holeStart;
    }
    const auto& c = m_x.counters();
    require(m_x.heldNow() == held, "the interceptor holds other ACKs than those it said it held");
    require(c.held == c.released + c.absorbed + c.overflow + c.flushed + held,
            "held != released + absorbed + overflowed + flushed + still held");
    require(c.held == m_holdsSeen && c.released == m_released, "held or released ACKs miscounted");
    auto next = m_x.nextDeadline();
    require(next.has_value() == first.has_value() && (!next || *next == *first + m_x.options().holdTimeout),
            "nextDeadline() is not the oldest hold's deadline");
  }

  FuzzedDataProvider& m_in;
  DupAckInterceptor<uint64_t> m_x;
  std::array<Flow, 3> m_flows;
  std::map<std::pair<uint32_t, uint32_t>, Segment> m_segments;
  std::deque<PacketKey> m_outstanding;
  TimePoint m_now{1s};
  uint16_t m_nextIpId = 1;
  uint64_t m_nextAckId = 1;
  uint64_t m_holdsSeen = 0;
  uint64_t m_released = 0;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  FuzzedDataProvider in(data, size);
  if (in.ConsumeBool()) {
    EdgeHarness h(in);
    fuzz::runScript(h, in, MaxSteps);
  }
  else {
    InterceptorHarness h(in);
    fuzz::runScript(h, in, MaxSteps);
  }
  return 0;
}
