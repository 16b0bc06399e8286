#pragma once
// What management needs from the daemon's face system (channels and face creation live in
// io/ and daemon/, which implement this interface; core never opens sockets).

#include "core/face/face.hpp"
#include "core/mgmt/control-parameters.hpp"
#include "core/mgmt/datasets.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace ndnlab::mgmt {

class FaceSystem
{
public:
  virtual ~FaceSystem() = default;

  /// faces/create (NFD FaceManager::createFace). `params` has Uri (checked present) and
  /// optionally LocalUri, FacePersistency, Flags+Mask, BaseCongestionMarkingInterval,
  /// DefaultCongestionThreshold, Mtu. Must call `done` exactly once, now or later, with:
  /// 200 and ControlParameters{FaceId, Uri, LocalUri, FacePersistency, Flags, [congestion
  /// fields], [Mtu]} of the new face; 409 with the same body for an existing face; 406 for an
  /// unsupported scheme or MTU below 64; 400 for a non-canonical or invalid Uri; 408/504 when
  /// the connection fails.
  virtual void createFace(const ControlParameters& params, std::function<void(ControlResponse)> done) = 0;

  /// faces/channels: every listening channel.
  virtual std::vector<ChannelStatus> channels() const = 0;

  /// FaceStatus ExpirationPeriod of a face (on-demand faces: idle time left); nullopt = none.
  virtual std::optional<std::chrono::milliseconds> expirationPeriod(const face::Face& face) const
  {
    return std::nullopt;
  }
};

/// Adds a face's BLEnD settings to a faces/create|update reply body: the Bundling bit of
/// Flags, Medium and BundleInterval (ndnlab extensions, tlv-nfd.hpp).
void addBundlingParameters(const face::Face& face, ControlParameters& p);

} // namespace ndnlab::mgmt
