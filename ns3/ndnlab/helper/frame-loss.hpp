#pragma once
// Random frame loss for simulated links: the one error model behind p2p-chain's Loss,
// dumbbell's *Loss and wifi-one-hop's FrameLoss.

#include <ns3/error-model.h>
#include <ns3/ptr.h>

#include <cstdint>

namespace ndnlab::sim {

/// A RateErrorModel that corrupts each packet with probability `rate`, drawing from ns-3 random
/// stream `stream` (it uses exactly that one stream).
ns3::Ptr<ns3::RateErrorModel> frameLossModel(double rate, int64_t stream);

} // namespace ndnlab::sim
