#pragma once
// InternalTransport: an in-process pair of transports, for in-process applications and the
// management face. A frame sent on one end reaches the other end's onReceive asynchronously
// (through env.timers().schedule(0, ...)), in send order, so a send never recurses into the
// receiver. Both ends are local scope, permanent, point-to-point, with unlimited MTU.
// Closing or destroying one end closes the other (asynchronously).

#include "core/face/transport.hpp"
#include "core/runtime/env.hpp"

#include <deque>
#include <memory>
#include <utility>

namespace ndnlab::face {

class InternalTransport final : public Transport
{
public:
  using Pair = std::pair<std::unique_ptr<InternalTransport>, std::unique_ptr<InternalTransport>>;

  /// Creates two connected ends. End A has localUri `uriA` and remoteUri `uriB`; end B the
  /// reverse.
  static Pair makePair(Env& env, std::string uriA = "internal://", std::string uriB = "internal://");

  ~InternalTransport() override;

  /// Closes this end now (Closing -> Closed) and the peer on the next timer turn. Frames
  /// not yet delivered to a closed end are discarded.
  void close() override;

  /// Octets sent on this end and not yet delivered to the peer.
  size_t sendQueueLength() const override;

private:
  struct Channel
  {
    InternalTransport* ends[2] = {nullptr, nullptr};
  };

  InternalTransport(Env& env, std::shared_ptr<Channel> channel, int side, std::string localUri, std::string remoteUri);

  void doSend(SharedBuffer frame, EndpointId endpoint) override;
  /// Queues `frame` for delivery to this end and schedules a flush if none is pending.
  void enqueue(SharedBuffer frame);
  static void flush(const std::shared_ptr<Channel>& channel, int side);
  static void closeEnd(const std::shared_ptr<Channel>& channel, int side);

  Env& m_env;
  std::shared_ptr<Channel> m_channel;
  int m_side;
  std::deque<SharedBuffer> m_inbox; ///< frames waiting to be received by this end
  size_t m_inboxBytes = 0;
  TimerId m_flushTimer = 0; ///< 0 = no flush scheduled
};

} // namespace ndnlab::face
