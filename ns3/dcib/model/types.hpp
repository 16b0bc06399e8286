#pragma once
// Vocabulary of the DCIB model classes: simulated time, the ECN codepoint and the identity of
// an IP packet and of a TCP flow as both edge routers see them. No ns-3 here: the model is
// driven by plain calls that carry the current time, so it runs unchanged under the simulator
// and in unit tests.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace ndnlab::dcib {

/// Tag clock of simulated time (no now(): time is always passed in).
struct SimClock
{
  using rep = int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<SimClock>;
  static constexpr bool is_steady = true;
};
using Duration = SimClock::duration;
using TimePoint = SimClock::time_point;

/// The two ECN bits of the IP header (RFC 3168 section 5); the values are the codepoints.
enum class Ecn : uint8_t {
  NotEct = 0, ///< "ECN-disabled": the packets DCIB selects; RED drops them under congestion
  Ect1 = 1,   ///< DCIB marks its edge copies (retransmissions, idle copies) with ECT(1)
  Ect0 = 2,   ///< every packet DCIB does not select
  Ce = 3,     ///< congestion experienced (set by RED on ECT packets)
};

/// Identity of one IP packet, equal at both edge routers: the paper's "head.header ==
/// ack.header" match (Fig. 8). The IPv4 Identification makes a host retransmission of the same
/// TCP segment a different packet, so edge recovery and host recovery never alias.
struct PacketKey
{
  uint32_t src = 0;  ///< IPv4 source address
  uint32_t dst = 0;  ///< IPv4 destination address
  uint32_t seq = 0;  ///< TCP sequence number (0 for other protocols)
  uint16_t ipId = 0; ///< IPv4 Identification
  uint16_t srcPort = 0;
  uint16_t dstPort = 0;
  uint8_t protocol = 0; ///< IP protocol number (6 = TCP, 17 = UDP)

  friend bool operator==(const PacketKey&, const PacketKey&) = default;
};

struct PacketKeyHash
{
  size_t operator()(const PacketKey& k) const noexcept
  {
    // 64-bit mix of the fields (splitmix64 finaliser); collisions only cost a map probe.
    uint64_t h = (uint64_t(k.src) << 32 | k.dst) ^ (uint64_t(k.seq) << 32 | uint64_t(k.ipId) << 16 | k.srcPort);
    h ^= uint64_t(k.dstPort) << 40 ^ uint64_t(k.protocol) << 56;
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return static_cast<size_t>(h);
  }
};

/// Link capacity, in bits per second.
struct BitRate
{
  uint64_t bitsPerSecond = 0;
};

/// IP protocol number of TCP (PacketKey::protocol).
constexpr uint8_t TcpProtocol = 6;

/// A TCP connection in its data direction (sending host -> receiving host).
struct FlowId
{
  uint32_t src = 0; ///< sending host address
  uint32_t dst = 0; ///< receiving host address
  uint16_t srcPort = 0;
  uint16_t dstPort = 0;

  friend bool operator==(const FlowId&, const FlowId&) = default;
  /// The flow a data packet (or its clone) belongs to.
  static FlowId ofData(const PacketKey& k) { return {k.src, k.dst, k.srcPort, k.dstPort}; }
};

struct FlowIdHash
{
  size_t operator()(const FlowId& f) const noexcept
  {
    PacketKey k;
    k.src = f.src;
    k.dst = f.dst;
    k.srcPort = f.srcPort;
    k.dstPort = f.dstPort;
    return PacketKeyHash{}(k);
  }
};

} // namespace ndnlab::dcib
