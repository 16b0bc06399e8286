#pragma once
// Random frame loss for simulated links: the one error model behind p2p-chain's Loss,
// dumbbell's *Loss and wifi-one-hop's FrameLoss.

#include <ns3/error-model.h>
#include <ns3/ptr.h>

#include <cstddef>
#include <cstdint>

namespace ndnlab::sim {

/// A RateErrorModel that corrupts each packet with probability `rate`, drawing from ns-3 random
/// stream `stream` (it uses exactly that one stream).
ns3::Ptr<ns3::RateErrorModel> frameLossModel(double rate, int64_t stream);

/// The random stream of point-to-point link `linkIndex`'s losses at its first end (frames from
/// the second end to the first); the other direction uses the next stream. Fixed per link, not
/// per lossy link, so `ndnlab emu` draws the same losses (Scenario::network's `loss_stream`).
constexpr int64_t linkLossStream(size_t linkIndex)
{
  return 3'000'000 + 2 * static_cast<int64_t>(linkIndex);
}

} // namespace ndnlab::sim
