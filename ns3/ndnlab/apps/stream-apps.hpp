#pragma once
// The real-time stream engines of issue 29 (core/stream) as ns-3 applications, the objects
// `ndnlab stream publish --synthetic` and `ndnlab stream play` run:
// - StreamProducerApp: stream::StreamProducer under Prefix, routed to itself on its node, fed
//   by a stream::SyntheticFeed (Bitrates: one thread per bitrate, in lockstep, Gop frames per
//   key frame, Frames frames before the end-of-stream marker; 0: until the app stops).
// - StreamConsumerApp: stream::StreamConsumer of `<Prefix>/<Stream>`; its result is
//   GetStats() (stream::visitMetrics lists it); trace sources "Frame" (each rendered frame),
//   "State" (each state change, as toString names) and "Arrival" (each frame arrival the
//   stability estimator sees, stream::visitArrival lists its fields).
//
// Attributes: Prefix, and the fields of StreamProducerOptions (producer-fields.hpp; with
// Signing, Bitrates, SampleRate, Gop, Frames) and StreamConsumerOptions (consumer-fields.hpp).

#include "ns3/ndnlab/apps/ndn-app.hpp"

#include "core/security/signer.hpp"
#include "core/stream/consumer.hpp"
#include "core/stream/producer.hpp"
#include "core/stream/synthetic.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ndnlab::sim {

/// "200k,1000k,3000k": one thread per bitrate (k, M, G = 10^3, 10^6, 10^9 bit/s), named as
/// written. Throws std::invalid_argument for an empty list, a bad or zero bitrate, or a
/// bitrate given twice.
std::vector<stream::ThreadOptions> parseStreamBitrates(const std::string& text);

class StreamProducerApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  StreamProducerApp();
  ~StreamProducerApp() override;

  stream::StreamProducerOptions& OptionsRef() { return m_opts; }
  const stream::StreamProducerOptions& GetOptions() const { return m_opts; }
  /// Counters of the current or last run.
  stream::StreamProducerCounters GetCounters() const;

private:
  void StartEngine() override;
  void StopEngine() override;

  stream::StreamProducerOptions m_opts;
  std::string m_signing;
  std::string m_bitrates;
  double m_sampleRate = stream::StreamProducerOptions{}.sampleRate;
  uint32_t m_gop = 30;
  uint64_t m_frames = 0;
  std::unique_ptr<security::Signer> m_signer;
  std::unique_ptr<stream::StreamProducer> m_producer;
  std::unique_ptr<stream::SyntheticFeed> m_feed;
  stream::StreamProducerCounters m_last;
};

class StreamConsumerApp : public NdnApp
{
public:
  using FrameCallback = void (*)(const stream::RenderedFrame&);
  using StateCallback = void (*)(const std::string& from, const std::string& to);
  using ArrivalCallback = void (*)(const stream::FrameArrival&);

  static ns3::TypeId GetTypeId();
  StreamConsumerApp();
  ~StreamConsumerApp() override;

  stream::StreamConsumerOptions& OptionsRef() { return m_opts; }
  const stream::StreamConsumerOptions& GetOptions() const { return m_opts; }
  /// The statistics of the current or last run.
  stream::StreamConsumerStats GetStats() const;
  /// The engine's state (Inactive before the start, Stopped after).
  stream::StreamConsumer::State GetState() const { return m_state; }
  /// Ended or Failed: the consumer will do nothing more.
  bool IsFinished() const
  {
    return m_state == stream::StreamConsumer::State::Ended || m_state == stream::StreamConsumer::State::Failed;
  }
  /// Why the consumer failed (empty unless Failed).
  const std::string& GetError() const { return m_error; }

  /// Called on Ended and Failed.
  std::function<void()> onFinished;

private:
  void StartEngine() override;
  void StopEngine() override;

  stream::StreamConsumerOptions m_opts;
  std::unique_ptr<stream::StreamConsumer> m_engine;
  stream::StreamConsumer::State m_state = stream::StreamConsumer::State::Inactive;
  std::string m_error;
  std::optional<stream::StreamConsumerStats> m_last;
  ns3::TracedCallback<const stream::RenderedFrame&> m_frameTrace;
  ns3::TracedCallback<const std::string&, const std::string&> m_stateTrace;
  ns3::TracedCallback<const stream::FrameArrival&> m_arrivalTrace;
};

} // namespace ndnlab::sim
