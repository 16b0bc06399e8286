#pragma once
// How an application engine (SegmentFetcher, SegmentServer, Ping, ...) talks to the network.
// The same engine runs over a connection to ndnlabd in the tools, over an application face
// inside an ns-3 node, and over a scripted fake in unit tests; only the Endpoint differs.
//
// Contract:
// - Lower interface (engine -> network): expressInterest/putData/putNack hand one packet to the
//   network. They never call back into the engine synchronously (an implementation that
//   loops packets back must defer delivery), so engines may send from inside their handlers.
//   Packet tags (tags.bundle, tags.pitToken, ...) travel with the packet as NDNLPv2 fields
//   where the implementation supports them.
// - Upper interface (network -> engine): the owner of the engine, or the engine itself, sets the
//   on* callbacks; an unset callback drops the packet. Incoming packets carry their tags
//   (e.g. Data tags.congestionMark).
// - Interest timeouts are the engine's business (via Env timers), not the Endpoint's.

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/codec/nack.hpp"

#include <functional>

namespace ndnlab::app {

class Endpoint
{
public:
  virtual ~Endpoint() = default;

  // --- lower interface: engine -> network ---
  virtual void expressInterest(const Interest& interest) = 0;
  virtual void putData(const Data& data) = 0;
  virtual void putNack(const Nack& nack) = 0;

  // --- upper interface: network -> engine ---
  std::function<void(const Interest&)> onInterest;
  std::function<void(const Data&)> onData;
  std::function<void(const Nack&)> onNack;

  /// Delivery helpers for implementations: call the callback if set.
  void deliverInterest(const Interest& i)
  {
    if (onInterest)
      onInterest(i);
  }
  void deliverData(const Data& d)
  {
    if (onData)
      onData(d);
  }
  void deliverNack(const Nack& n)
  {
    if (onNack)
      onNack(n);
  }
};

} // namespace ndnlab::app
