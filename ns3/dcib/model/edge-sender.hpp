#pragma once
// Source edge router of DCIB (Q_snd, paper section III-A and III-D, Fig. 7-8).
//
// For every packet leaving the data center towards the DCI:
//  - select(bytes, now): a share r of the eligible packets is selected. A selected packet is sent
//    ECN-disabled (Not-ECT) and its clone is kept (store()); every other packet is sent ECT(0).
//    Intermediate routers running RED with ECN then drop selected packets and only mark the
//    others, so losses fall on packets the edge router can recover.
//  - onAck(key): a router-to-router ACK from the destination edge router for the selected
//    packet `key`. Every clone stored before it was lost (the path is FIFO and B acknowledges
//    each selected packet it receives): each is handed to `retransmit`, in order, and removed;
//    then the clone of `key` is discarded. An ACK for a key that is not stored (already
//    discarded, or never stored) changes nothing and is counted as unmatched.
//  - Limited-buffer variant (section IV-C, BufferMode::LowPriority): the stored clones also
//    form a low-priority queue; takeIdleCopy() hands out the oldest one whenever the egress
//    link would otherwise be idle, so the buffer drains without waiting for ACKs.
//
// Buffer bound (section III-D a): r <= B / (tau * C), B the clone buffer, tau the inter-router
// round trip, C the DCI capacity. With enforceBound the ratio used is min(r, bound); the bound
// is reported either way. When the buffer is full a packet that would be selected is sent ECT
// instead (counted as skippedFull): a packet is never selected unless its clone is kept.
//
// Adaptive ratio (beyond the paper, adaptiveRatio): the bound assumes the DCI runs at C, but
// a lossy WAN keeps TCP far below C and the buffer mostly empty. With adaptiveRatio the ratio
// is re-evaluated once per tau from what the buffer actually has to cover: min(r, B / (R * D)),
// R the eligible bytes per second of the last tau and D the larger of tau and the smoothed
// store-to-ACK delay. With r = 1 every packet is protected while the link is lightly used and
// the share falls towards B/(tau*C) as the traffic grows.
//
// Payload is whatever the host keeps for a retransmission (an ns-3 packet and its IP header in
// the simulator, an int in tests). Time is passed in; nothing here reads a clock.

#include "ns3/dcib/model/types.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>

namespace ndnlab::dcib {

enum class SelectionMode {
  Even,   ///< credit counter: exactly one selection per 1/r eligible packets, evenly spaced
  Random, ///< independent Bernoulli(r) per eligible packet
};

enum class BufferMode {
  Stalled,     ///< paper Fig. 7-8: clones wait for router-to-router ACKs
  LowPriority, ///< section IV-C: clones are also sent as copies when the egress is idle
};

/// "even"/"random", "stalled"/"lowprio"; parse* throw std::invalid_argument.
const char* toString(SelectionMode m);
const char* toString(BufferMode m);
SelectionMode parseSelectionMode(const std::string& s);
BufferMode parseBufferMode(const std::string& s);

struct SenderOptions
{
  /// r: share of eligible packets selected (sent Not-ECT, clone kept). Paper: 0.1.
  double selectionRatio = 0.1;
  /// How the selected packets are spread.
  SelectionMode selection = SelectionMode::Even;
  /// B: bytes of clones the edge router keeps (paper's example: 2 MB).
  uint64_t bufferBytes = 2'000'000;
  /// tau: round trip between the two edge routers (for the bound).
  Duration interRouterRtt = std::chrono::milliseconds(6);
  /// C: DCI capacity (for the bound).
  BitRate linkRate{10'000'000'000};
  /// Use min(r, B/(tau*C)) instead of r; the bound is reported either way.
  bool enforceBound = true;
  /// Bound from the measured rate instead of C (see the header comment); r is then the upper
  /// limit of the ratio. Off: the paper's static ratio.
  bool adaptiveRatio = false;
  /// Stalled (ACK-driven only) or LowPriority (also idle-time copies).
  BufferMode buffer = BufferMode::Stalled;
  /// Packets shorter than this (IP payload bytes: TCP pure ACKs, SYN/FIN) are never selected.
  uint32_t minEligibleBytes = 100;

  /// Throws std::invalid_argument for r outside [0, 1], a zero tau or C.
  void validate() const;
  /// B*8 / (tau*C): the largest ratio the buffer covers for one inter-router round trip.
  double boundRatio() const;
  /// The ratio used: min(r, bound) with enforceBound, else r; with adaptiveRatio the ratio of
  /// the first tau (r), EdgeSender::currentRatio() after that.
  double effectiveRatio() const;
};

struct SenderCounters
{
  uint64_t packets = 0;               ///< packets offered to select()
  uint64_t eligible = 0;              ///< of which long enough to be selected
  uint64_t selections = 0;            ///< selected and stored (sent Not-ECT)
  uint64_t skippedFull = 0;           ///< would have been selected, buffer full: sent ECT
  uint64_t acks = 0;                  ///< router-to-router ACKs received
  uint64_t acksUnmatched = 0;         ///< ... for a key not stored
  uint64_t edgeRetransmissions = 0;   ///< clones retransmitted because a later ACK arrived (or a
                                      ///< duplicate ACK, below)
  uint64_t dupAckRetransmissions = 0; ///< of which retransmitNow(): a host duplicate ACK asked
  uint64_t dupAckTooYoung = 0;        ///< retransmitNow() refused: the clone was younger than minAge
  uint64_t ackedDiscards = 0;         ///< clones discarded because their own ACK arrived
  uint64_t idleCopies = 0;            ///< LowPriority: clones sent while the egress was idle
  uint64_t peakPackets = 0;           ///< stalled-queue occupancy peak
  uint64_t peakBytes = 0;
  Duration ackDelaySum{0}; ///< store -> own ACK, summed over ackedDiscards
  Duration ackDelayMax{0};
  uint64_t ratioUpdates = 0; ///< adaptiveRatio: re-evaluations of the ratio
  double ratioMin = 1.0;     ///< adaptiveRatio: smallest and largest ratio used
  double ratioMax = 0.0;
};

/// Non-template part: the selection decision (credit counter or Bernoulli).
class Selector
{
public:
  Selector(double ratio, SelectionMode mode, uint64_t seed);
  /// One eligible packet: selected or not.
  bool next();
  double ratio() const { return m_ratio; }
  /// A new ratio in [0, 1] from the next packet on; the credit carried over keeps the spacing.
  void setRatio(double ratio);

private:
  /// Credit counter in units of 1e-12 packets: decimal ratios (0.1, 0.05) are exact.
  static constexpr uint64_t Scale = 1'000'000'000'000;
  double m_ratio;
  SelectionMode m_mode;
  uint64_t m_step;
  uint64_t m_credit = 0;
  std::mt19937_64 m_rng;
  std::uniform_real_distribution<double> m_u{0.0, 1.0};
};

struct AckResult
{
  bool matched = false;
  uint32_t retransmitted = 0;
};

template<class Payload>
class EdgeSender
{
public:
  /// `seed` feeds SelectionMode::Random. Throws std::invalid_argument on bad options.
  EdgeSender(SenderOptions options, uint64_t seed)
    : m_options((options.validate(), options)), m_selector(m_options.effectiveRatio(), m_options.selection, seed)
  {}

  const SenderOptions& options() const { return m_options; }
  const SenderCounters& counters() const { return m_counters; }
  size_t stalledPackets() const { return m_queue.size(); }
  /// True while the clone of `key` is kept (the packet was selected and is not yet acknowledged).
  bool isStored(const PacketKey& key) const { return m_index.count(key) != 0; }
  uint64_t stalledBytes() const { return m_bytes; }

  /// The selection ratio in use (options().effectiveRatio() unless adaptiveRatio).
  double currentRatio() const { return m_selector.ratio(); }

  /// Fig. 7 line 1-2 for one outgoing packet of `bytes` (IP payload) at `now`. True: send it
  /// Not-ECT and call store() with its clone before the next select(). False: send it ECT(0).
  bool select(uint32_t bytes, TimePoint now)
  {
    ++m_counters.packets;
    if (bytes < m_options.minEligibleBytes)
      return false;
    ++m_counters.eligible;
    if (m_options.adaptiveRatio)
      adapt(bytes, now);
    if (!m_selector.next())
      return false;
    if (m_bytes + bytes > m_options.bufferBytes) {
      ++m_counters.skippedFull;
      return false;
    }
    return true;
  }

  /// Fig. 7 line 3-5: keeps the clone of the packet select() just chose.
  void store(const PacketKey& key, uint32_t bytes, Payload clone, TimePoint now)
  {
    advance(now);
    uint64_t id = m_nextId++;
    m_index.emplace(key, id); // a repeated key keeps its first position
    m_queue.push_back(Entry{id, key, bytes, now, std::move(clone)});
    m_bytes += bytes;
    ++m_counters.selections;
    m_counters.peakPackets = std::max<uint64_t>(m_counters.peakPackets, m_queue.size());
    m_counters.peakBytes = std::max(m_counters.peakBytes, m_bytes);
  }

  /// Fig. 8: router-to-router ACK for `key`. `retransmit(Payload&&)` is called for every clone
  /// stored before it (head first); they are removed, and so is the clone of `key`.
  template<class F>
  AckResult onAck(const PacketKey& key, TimePoint now, F&& retransmit)
  {
    ++m_counters.acks;
    AckResult result;
    auto it = m_index.find(key);
    if (it == m_index.end()) {
      ++m_counters.acksUnmatched;
      return result;
    }
    advance(now);
    const uint64_t target = it->second;
    while (!m_queue.empty() && m_queue.front().id < target) {
      Entry e = popFront();
      ++m_counters.edgeRetransmissions;
      ++result.retransmitted;
      retransmit(std::move(e.clone));
    }
    // the head is now the acknowledged clone (ids only grow, and target is still indexed)
    Entry e = popFront();
    ++m_counters.ackedDiscards;
    Duration d = now - e.storedAt;
    m_counters.ackDelaySum += d;
    m_counters.ackDelayMax = std::max(m_counters.ackDelayMax, d);
    result.matched = true;
    // smoothed store-to-ACK delay for the adaptive ratio (gain 1/8, as TCP's SRTT)
    m_ackDelay = m_ackDelay == Duration::zero() ? d : m_ackDelay + (d - m_ackDelay) / 8;
    return result;
  }

  /// Beyond the paper: retransmits now the oldest stored clone whose key satisfies `match`
  /// (a receiver's duplicate ACK showed its packet lost) and removes it; the clones before it
  /// stay (their router ACKs may still come). A clone stored less than `minAge` ago is left
  /// alone: a duplicate ACK reaching the edge sooner than one round trip after the packet
  /// left was sent before that packet could arrive (it is about an earlier copy, typically
  /// the one the host is retransmitting now). False when no clone is sent.
  template<class Match, class F>
  bool retransmitNow(Match&& match, TimePoint now, Duration minAge, F&& retransmit)
  {
    auto it = std::find_if(m_queue.begin(), m_queue.end(), [&](const Entry& e) { return match(e.key); });
    if (it == m_queue.end())
      return false;
    if (now - it->storedAt < minAge) {
      ++m_counters.dupAckTooYoung;
      return false;
    }
    advance(now);
    Entry e = std::move(*it);
    m_queue.erase(it);
    forget(e);
    ++m_counters.edgeRetransmissions;
    ++m_counters.dupAckRetransmissions;
    retransmit(std::move(e.clone));
    return true;
  }

  /// LowPriority only: true when a clone can be sent as an idle-time copy.
  bool hasIdleCopy() const { return m_options.buffer == BufferMode::LowPriority && !m_queue.empty(); }

  /// LowPriority only: removes the oldest clone and returns it for sending while the egress
  /// is idle; nullopt when empty or in Stalled mode.
  std::optional<Payload> takeIdleCopy(TimePoint now)
  {
    if (!hasIdleCopy())
      return std::nullopt;
    advance(now);
    Entry e = popFront();
    ++m_counters.idleCopies;
    return std::optional<Payload>(std::move(e.clone));
  }

  /// Time-averaged stalled-queue occupancy in bytes from the first store() until `now`.
  double meanStalledBytes(TimePoint now)
  {
    advance(now);
    auto span = (m_last - m_first).count();
    return span > 0 ? m_byteNanos / double(span) : double(m_bytes);
  }

private:
  struct Entry
  {
    uint64_t id;
    PacketKey key;
    uint32_t bytes;
    TimePoint storedAt;
    Payload clone;
  };

  /// adaptiveRatio: counts `bytes` into the current interval of length tau; at its end sets the
  /// ratio to min(r, B / (R * max(tau, smoothed ACK delay))).
  void adapt(uint32_t bytes, TimePoint now)
  {
    if (!m_intervalStarted) {
      m_intervalStarted = true;
      m_intervalStart = now;
    }
    const Duration tau = m_options.interRouterRtt;
    if (now - m_intervalStart >= tau) {
      double seconds = std::chrono::duration<double>(now - m_intervalStart).count();
      double rate = double(m_intervalBytes) / seconds; // bytes per second
      double cover = std::chrono::duration<double>(std::max(tau, m_ackDelay)).count();
      double ratio = m_options.selectionRatio;
      if (rate > 0.0)
        ratio = std::min(ratio, double(m_options.bufferBytes) / (rate * cover));
      m_selector.setRatio(ratio);
      ++m_counters.ratioUpdates;
      m_counters.ratioMin = std::min(m_counters.ratioMin, ratio);
      m_counters.ratioMax = std::max(m_counters.ratioMax, ratio);
      m_intervalStart = now;
      m_intervalBytes = 0;
    }
    m_intervalBytes += bytes;
  }

  Entry popFront()
  {
    Entry e = std::move(m_queue.front());
    m_queue.pop_front();
    forget(e);
    return e;
  }

  /// Accounting of an entry just taken out of the queue.
  void forget(const Entry& e)
  {
    m_bytes -= e.bytes;
    auto it = m_index.find(e.key);
    if (it != m_index.end() && it->second == e.id)
      m_index.erase(it);
  }

  void advance(TimePoint now)
  {
    if (!m_started) {
      m_started = true;
      m_first = m_last = now;
      return;
    }
    if (now > m_last) {
      m_byteNanos += double(m_bytes) * double((now - m_last).count());
      m_last = now;
    }
  }

  SenderOptions m_options;
  Selector m_selector;
  SenderCounters m_counters;
  std::deque<Entry> m_queue;
  std::unordered_map<PacketKey, uint64_t, PacketKeyHash> m_index;
  uint64_t m_nextId = 0;
  uint64_t m_bytes = 0;
  bool m_started = false;
  TimePoint m_first{};
  TimePoint m_last{};
  double m_byteNanos = 0;
  // adaptiveRatio
  bool m_intervalStarted = false;
  TimePoint m_intervalStart{};
  uint64_t m_intervalBytes = 0;
  Duration m_ackDelay{0};
};

} // namespace ndnlab::dcib
