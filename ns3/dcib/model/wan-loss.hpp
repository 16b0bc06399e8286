#pragma once
// Artificial WAN loss on the DCI (paper section IV-A), selective by ECN codepoint.
//
//  - NonCooperative: the WAN drops every packet with probability p ("5% from both ECN-enabled
//    and ECN-disabled traffic").
//  - Cooperative: the WAN drops the same share p of the traffic, but only among Not-ECT packets:
//    each Not-ECT packet with probability min(1, p / s), s the share of Not-ECT packets
//    (paper: p = 5%, s = 10% -> "drop 50% of the 10% ECN-disabled traffic"). Without DCIB every
//    host packet is Not-ECT (s = 1) and the cooperative WAN drops 5% of all packets, exactly
//    like the non-cooperative one, so both variants share one baseline.
//  - None: no artificial loss.

#include "ns3/dcib/model/types.hpp"

#include <cstdint>
#include <string>

namespace ndnlab::dcib {

enum class WanLossMode { None, NonCooperative, Cooperative };

/// "none", "non-cooperative", "cooperative"; parse throws std::invalid_argument.
const char* toString(WanLossMode m);
WanLossMode parseWanLossMode(const std::string& s);

struct WanLossOptions
{
  WanLossMode mode = WanLossMode::None;
  /// p: share of the DCI traffic the WAN drops.
  double lossRate = 0.05;
  /// s: share of Not-ECT packets in the traffic (Cooperative only): DCIB's selection ratio
  /// with DCIB, 1 without.
  double notEctShare = 1.0;

  /// Throws std::invalid_argument for p outside [0, 1] or s outside (0, 1].
  void validate() const;
};

struct WanLossCounters
{
  uint64_t packets = 0;
  uint64_t notEct = 0; ///< Not-ECT packets seen
  uint64_t dropsNotEct = 0;
  uint64_t dropsEct = 0; ///< ECT(0), ECT(1) or CE packets dropped
};

class WanLoss
{
public:
  explicit WanLoss(WanLossOptions options);

  /// Drop probability of a packet with codepoint `ecn`.
  double dropProbability(Ecn ecn) const;
  /// Decides for one packet, `uniform01` a fresh U[0,1) sample; true = drop.
  bool drop(Ecn ecn, double uniform01);

  const WanLossOptions& options() const { return m_options; }
  const WanLossCounters& counters() const { return m_counters; }

private:
  WanLossOptions m_options;
  WanLossCounters m_counters;
};

} // namespace ndnlab::dcib
