#pragma once
// The "one Interest" upper bound of the BLEnD paper (Sec. I and II-A, Fig. 1): "the consumer
// sends only one Interest packet. Upon receiving, the producer continuously sends the data
// packets back." PushProducer and PushConsumer are that dummy application pair as sans-I/O
// engines. They are a measurement device, not an NDN protocol: the pushed Data match no PIT
// entry after the first, so their Endpoints must bypass the forwarders' PIT at both ends (the
// ns-3 module does this for one-hop topologies; see docs/mechanisms/ns3.md).
//
// PushProducer publishes an object exactly like SegmentServer (`<prefix>/v=<version>/seg=k`,
// FinalBlockId, freshness, signature) and answers:
// - the trigger, an Interest named `<prefix>` or `<prefix>/v=<version>`, by putting every
//   segment 0..N-1 back to back, in order, on its Endpoint. A trigger that arrives while a push
//   is running is counted and ignored; one after a push restarts it from segment 0;
// - any other Interest as SegmentServer does (a single segment, RDR metadata, Nack), which is
//   how a consumer repairs segments lost during the push.
// Back to back means: as fast as the owner accepts them. Before each segment the producer asks
// `canSend()` (the owner's view of its transmit queue); while it says no, the producer retries
// every `pollInterval`. `maxBurst` optionally caps the segments put per turn, which paces the
// push at maxBurst per pollInterval.
//
// Trace events: push_start (value = segments), push_done (value = segments pushed,
// value2 = push duration in s).

#include "core/app/segment-server.hpp"

namespace ndnlab::app {

struct PushProducerOptions
{
  SegmentServerOptions server;                          ///< segmenting, freshness, version
  Duration pollInterval = std::chrono::milliseconds(1); ///< retry period while canSend() is false
  size_t maxBurst = 0;                                  ///< segments per turn; 0 = until canSend() refuses

  /// Throws std::invalid_argument for out-of-range values.
  void validate() const;
};

struct PushProducerCounters
{
  uint64_t triggers = 0;        ///< trigger Interests received
  uint64_t ignoredTriggers = 0; ///< triggers received while a push was running
  uint64_t pushes = 0;          ///< pushes started
  uint64_t dataPushed = 0;      ///< segments put by pushes
  uint64_t stalls = 0;          ///< turns that ended because canSend() refused
};

class PushProducer
{
public:
  using Options = PushProducerOptions;

  /// Same arguments as SegmentServer; installs endpoint.onInterest (cleared by the destructor).
  PushProducer(Env& env, Endpoint& endpoint, const Name& name, const security::Signer& signer, Options opts = {});
  ~PushProducer();
  PushProducer(const PushProducer&) = delete;
  PushProducer& operator=(const PushProducer&) = delete;

  void publish(ByteSpan content) { m_server.publish(content); }
  void publish(const SegmentServer::Reader& read) { m_server.publish(read); }

  /// Asked before each pushed segment; false = no room now. Unset = always room.
  std::function<bool()> canSend;
  /// A push put its last segment.
  std::function<void()> onPushDone;

  /// Network input (installed on the endpoint).
  void handleInterest(const Interest& interest);

  bool pushing() const { return m_pushing; }
  const SegmentServer& server() const { return m_server; }
  const PushProducerCounters& counters() const { return m_counters; }
  const Options& options() const { return m_opts; }

private:
  bool isTrigger(const Name& name) const;
  void pushSome();

  Env& m_env;
  Endpoint& m_ep;
  Options m_opts;
  SegmentServer m_server;
  bool m_pushing = false;
  size_t m_next = 0;
  TimePoint m_pushStart;
  TimerId m_timer = 0;
  PushProducerCounters m_counters;
};

} // namespace ndnlab::app
