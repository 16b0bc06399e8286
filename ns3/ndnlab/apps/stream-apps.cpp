#include "ns3/ndnlab/apps/stream-apps.hpp"

#include "ns3/ndnlab/apps/producer-app.hpp"
#include "ns3/ndnlab/model/options-attributes.hpp"

#include <ns3/double.h>
#include <ns3/log.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <cstdlib>
#include <set>
#include <stdexcept>

NS_LOG_COMPONENT_DEFINE("ndnlab.StreamApps");

namespace ndnlab::sim {

NS_OBJECT_ENSURE_REGISTERED(StreamProducerApp);
NS_OBJECT_ENSURE_REGISTERED(StreamConsumerApp);

std::vector<stream::ThreadOptions> parseStreamBitrates(const std::string& text)
{
  std::vector<stream::ThreadOptions> out;
  std::set<std::string> seen;
  size_t from = 0;
  while (from <= text.size()) {
    size_t comma = text.find(',', from);
    if (comma == std::string::npos)
      comma = text.size();
    const std::string item = text.substr(from, comma - from);
    from = comma + 1;
    const std::string bad = "Bitrates: '" + item + "' is not a positive bit rate (a list such as 200k,1000k,3000k)";
    // digits with an optional point, then an optional k, M or G
    const size_t digits = item.find_first_not_of("0123456789.");
    if (item.empty() || digits == 0 || (digits != std::string::npos && digits + 1 != item.size()))
      throw std::invalid_argument(bad);
    double scale = 1;
    if (digits != std::string::npos) {
      const char unit = item[digits];
      scale = unit == 'k' ? 1e3 : unit == 'M' ? 1e6 : unit == 'G' ? 1e9 : 0;
    }
    char* end = nullptr;
    const std::string number = item.substr(0, digits);
    const double bits = std::strtod(number.c_str(), &end) * scale;
    if (end != number.c_str() + number.size() || !(bits >= 1) || bits > 1e12)
      throw std::invalid_argument(bad);
    if (!seen.insert(item).second)
      throw std::invalid_argument("Bitrates: " + item + " given twice");
    out.push_back({item, Rate::bitsPerSecond(bits)});
  }
  return out;
}

// --- producer ---

ns3::TypeId StreamProducerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    using O = stream::StreamProducerOptions;
    ns3::TypeId t =
      ns3::TypeId("ndnlab::StreamProducerApp")
        .SetParent<NdnApp>()
        .SetGroupName("Ndnlab")
        .AddConstructor<StreamProducerApp>()
        .AddAttribute("Signing", "Signature of the segments: digest | hmac | ecdsa | null", ns3::StringValue("digest"),
                      ns3::MakeStringAccessor(&StreamProducerApp::m_signing), ns3::MakeStringChecker())
        .AddAttribute("Bitrates", "Threads of synthetic frames, one per bitrate (200k,1000k,3000k)",
                      ns3::StringValue("1000k"), ns3::MakeStringAccessor(&StreamProducerApp::m_bitrates),
                      ns3::MakeStringChecker())
        .AddAttribute("SampleRate", "Frames per second", ns3::DoubleValue(O{}.sampleRate),
                      ns3::MakeDoubleAccessor(&StreamProducerApp::m_sampleRate),
                      ns3::MakeDoubleChecker<double>(0.1, 1000))
        .AddAttribute("Gop", "Frames per GOP, a key frame first", ns3::UintegerValue(30),
                      ns3::MakeUintegerAccessor(&StreamProducerApp::m_gop), ns3::MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("Frames", "Frames before the end-of-stream marker; 0: until the app stops", ns3::UintegerValue(0),
                      ns3::MakeUintegerAccessor(&StreamProducerApp::m_frames), ns3::MakeUintegerChecker<uint64_t>());
    return addOptionAttributes<O>(t, streamProducerFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<StreamProducerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
  }();
  return tid;
}

StreamProducerApp::StreamProducerApp() = default;

StreamProducerApp::~StreamProducerApp() = default;

stream::StreamProducerCounters StreamProducerApp::GetCounters() const
{
  return m_producer ? m_producer->counters() : m_last;
}

void StreamProducerApp::StartEngine()
{
  const Name prefix = GetPrefix();
  m_opts.threads = parseStreamBitrates(m_bitrates);
  m_opts.sampleRate = m_sampleRate;
  m_signer = makeSigner(m_signing, prefix);
  m_producer =
    std::make_unique<stream::StreamProducer>(GetStack()->GetEnv(), *GetEndpoint(), prefix, *m_signer, m_opts);
  m_feed = std::make_unique<stream::SyntheticFeed>(GetStack()->GetEnv(), *m_producer, m_gop, m_frames);
  m_feed->onEnd = [this] {
    NS_LOG_INFO("node " << GetNode()->GetId() << " stream ended after " << m_feed->published() << " frames");
  };
  RegisterPrefix(prefix);
  m_feed->start();
}

void StreamProducerApp::StopEngine()
{
  if (m_producer)
    m_last = m_producer->counters();
  m_feed.reset();
  m_producer.reset();
  m_signer.reset();
}

// --- consumer ---

ns3::TypeId StreamConsumerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    using O = stream::StreamConsumerOptions;
    ns3::TypeId t = ns3::TypeId("ndnlab::StreamConsumerApp")
                      .SetParent<NdnApp>()
                      .SetGroupName("Ndnlab")
                      .AddConstructor<StreamConsumerApp>()
                      .AddTraceSource("Frame", "Each rendered frame, in playout order",
                                      ns3::MakeTraceSourceAccessor(&StreamConsumerApp::m_frameTrace),
                                      "ndnlab::sim::StreamConsumerApp::FrameCallback")
                      .AddTraceSource("State", "Each state change (Fig. 10): from, to",
                                      ns3::MakeTraceSourceAccessor(&StreamConsumerApp::m_stateTrace),
                                      "ndnlab::sim::StreamConsumerApp::StateCallback")
                      .AddTraceSource("Arrival", "Each frame arrival the stability estimator sees (Fig. 21)",
                                      ns3::MakeTraceSourceAccessor(&StreamConsumerApp::m_arrivalTrace),
                                      "ndnlab::sim::StreamConsumerApp::ArrivalCallback");
    return addOptionAttributes<O>(t, streamConsumerFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<StreamConsumerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
  }();
  return tid;
}

StreamConsumerApp::StreamConsumerApp() = default;

StreamConsumerApp::~StreamConsumerApp() = default;

stream::StreamConsumerStats StreamConsumerApp::GetStats() const
{
  if (m_engine)
    return m_engine->stats();
  return m_last.value_or(stream::StreamConsumerStats{});
}

void StreamConsumerApp::StartEngine()
{
  m_last.reset();
  m_error.clear();
  m_engine = std::make_unique<stream::StreamConsumer>(GetStack()->GetEnv(), *GetEndpoint(), GetPrefix(), m_opts);
  m_engine->onFrame = [this](const stream::RenderedFrame& f) { m_frameTrace(f); };
  m_engine->onArrival = [this](const stream::FrameArrival& a) { m_arrivalTrace(a); };
  m_engine->onStateChange = [this](stream::StreamConsumer::State from, stream::StreamConsumer::State to) {
    m_state = to;
    m_stateTrace(std::string(toString(from)), std::string(toString(to)));
    if (IsFinished() && onFinished)
      onFinished();
  };
  m_engine->onError = [this](const std::string& why) {
    m_error = why;
    NS_LOG_WARN("node " << GetNode()->GetId() << " stream consumer failed: " << why);
  };
  m_engine->start();
}

void StreamConsumerApp::StopEngine()
{
  if (m_engine) {
    m_engine->stop();
    m_last = m_engine->stats();
    m_state = m_engine->state();
  }
  m_engine.reset();
}

} // namespace ndnlab::sim
