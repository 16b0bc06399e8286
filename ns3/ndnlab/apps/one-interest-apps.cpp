#include "ns3/ndnlab/apps/one-interest-apps.hpp"

#include "ns3/ndnlab/apps/content.hpp"
#include "ns3/ndnlab/apps/producer-app.hpp"
#include "ns3/ndnlab/model/options-attributes.hpp"

#include <ns3/log.h>
#include <ns3/string.h>
#include <ns3/trace-source-accessor.h>
#include <ns3/uinteger.h>

NS_LOG_COMPONENT_DEFINE("ndnlab.OneInterestApps");

namespace ndnlab::sim {

// --- producer -------------------------------------------------------------------------------

/// The producer's Endpoint: Interests and Nacks through the app face; Data straight out of the
/// NetDevice face the last Interest came in on.
class OneInterestProducerApp::DirectEndpoint final : public app::Endpoint
{
public:
  DirectEndpoint(NdnStack& stack, AppEndpoint& inner) : m_stack(stack), m_inner(inner)
  {
    m_inner.onInterest = [this](const Interest& i) {
      if (i.tags.incomingFaceId && m_stack.GetTransport(*i.tags.incomingFaceId) != nullptr)
        m_replyFace = *i.tags.incomingFaceId;
      deliverInterest(i);
    };
  }
  ~DirectEndpoint() override { m_inner.onInterest = nullptr; }

  void expressInterest(const Interest& interest) override { m_inner.expressInterest(interest); }
  void putNack(const Nack& nack) override { m_inner.putNack(nack); }
  void putData(const Data& data) override
  {
    if (m_replyFace != face::InvalidFaceId) {
      if (m_inner.afterPutData)
        m_inner.afterPutData(data);
      if (m_stack.SendDataDirect(m_replyFace, data))
        return;
    }
    m_inner.putData(data);
  }

  /// Bytes queued on the reply face's device (0 when unknown).
  size_t queuedBytes() const
  {
    const NetDeviceTransport* t = m_stack.GetTransport(m_replyFace);
    return t ? t->sendQueueLength() : 0;
  }

private:
  NdnStack& m_stack;
  AppEndpoint& m_inner;
  face::FaceId m_replyFace = face::InvalidFaceId;
};

NS_OBJECT_ENSURE_REGISTERED(OneInterestProducerApp);

ns3::TypeId OneInterestProducerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    ns3::TypeId t =
      ns3::TypeId("ndnlab::OneInterestProducerApp")
        .SetParent<NdnApp>()
        .SetGroupName("Ndnlab")
        .AddConstructor<OneInterestProducerApp>()
        .AddAttribute("FileSize", "Bytes of content published", ns3::UintegerValue(1024 * 1024),
                      ns3::MakeUintegerAccessor(&OneInterestProducerApp::m_fileSize),
                      ns3::MakeUintegerChecker<uint64_t>())
        .AddAttribute("ContentSeed", "Seed of the synthetic content stream", ns3::UintegerValue(1),
                      ns3::MakeUintegerAccessor(&OneInterestProducerApp::m_seed), ns3::MakeUintegerChecker<uint64_t>())
        .AddAttribute("Signing", "Signature of segments: digest | hmac | ecdsa | null", ns3::StringValue("digest"),
                      ns3::MakeStringAccessor(&OneInterestProducerApp::m_signing), ns3::MakeStringChecker())
        .AddAttribute("QueueThreshold",
                      "A segment is pushed only while the reply face's device queue holds fewer bytes "
                      "than this (0 = no limit: the whole file at once)",
                      ns3::UintegerValue(16 * 1024),
                      ns3::MakeUintegerAccessor(&OneInterestProducerApp::m_queueThreshold),
                      ns3::MakeUintegerChecker<uint64_t>());
    return addOptionAttributes<app::PushProducerOptions>(t, pushProducerFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<OneInterestProducerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
  }();
  return tid;
}

OneInterestProducerApp::OneInterestProducerApp() = default;

OneInterestProducerApp::~OneInterestProducerApp() = default;

void OneInterestProducerApp::StartEngine()
{
  Name prefix = GetPrefix();
  m_signer = makeSigner(m_signing, prefix);
  m_direct = std::make_unique<DirectEndpoint>(*GetStack(), *GetEndpoint());
  m_producer = std::make_unique<app::PushProducer>(GetStack()->GetEnv(), *m_direct, prefix, *m_signer, m_opts);
  if (m_queueThreshold != 0)
    m_producer->canSend = [this] { return m_direct->queuedBytes() < m_queueThreshold; };
  uint64_t offset = 0;
  m_producer->publish([this, &offset](uint8_t* buf, size_t size) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(size, m_fileSize - offset));
    fillContent(m_seed, offset, buf, n);
    offset += n;
    return n;
  });
  RegisterPrefix(m_producer->server().prefix());
}

void OneInterestProducerApp::StopEngine()
{
  m_producer.reset();
  m_direct.reset();
  m_signer.reset();
}

// --- consumer -------------------------------------------------------------------------------

NS_OBJECT_ENSURE_REGISTERED(OneInterestConsumerApp);

ns3::TypeId OneInterestConsumerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    ns3::TypeId t =
      ns3::TypeId("ndnlab::OneInterestConsumerApp")
        .SetParent<NdnApp>()
        .SetGroupName("Ndnlab")
        .AddConstructor<OneInterestConsumerApp>()
        .AddAttribute("ExpectedSize", "Expected content size in bytes; 0 = unknown", ns3::UintegerValue(0),
                      ns3::MakeUintegerAccessor(&OneInterestConsumerApp::m_expectedSize),
                      ns3::MakeUintegerChecker<uint64_t>())
        .AddTraceSource("Bytes", "Content bytes delivered in order (pointer, length)",
                        ns3::MakeTraceSourceAccessor(&OneInterestConsumerApp::m_bytesTrace),
                        "ndnlab::sim::ConsumerApp::BytesCallback")
        .AddTraceSource("Complete", "Statistics of a completed fetch",
                        ns3::MakeTraceSourceAccessor(&OneInterestConsumerApp::m_completeTrace),
                        "ndnlab::sim::ConsumerApp::StatsCallback")
        .AddTraceSource("Failed", "Statistics and error of a failed fetch",
                        ns3::MakeTraceSourceAccessor(&OneInterestConsumerApp::m_failedTrace),
                        "ndnlab::sim::ConsumerApp::FailedCallback");
    return addOptionAttributes<app::PushConsumerOptions>(t, pushConsumerFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<OneInterestConsumerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
  }();
  return tid;
}

OneInterestConsumerApp::OneInterestConsumerApp() = default;

OneInterestConsumerApp::~OneInterestConsumerApp() = default;

app::FetchStats OneInterestConsumerApp::GetStats() const
{
  return m_consumer ? m_consumer->stats() : m_lastStats;
}

void OneInterestConsumerApp::StartEngine()
{
  Name prefix = GetPrefix();
  m_complete = m_failed = false;
  m_received = 0;
  m_consumer = std::make_unique<app::PushConsumer>(GetStack()->GetEnv(), *GetEndpoint(), m_opts);
  app::PushConsumer* c = m_consumer.get();
  m_tap = GetStack()->AddDataTap(prefix, [c](const Data& d) { c->handleData(d); });
  m_consumer->onBytes = [this](ByteSpan b) {
    m_received += b.size();
    EmitEvent({EventKind::AppBytes, 0, {}, static_cast<int64_t>(b.size()), 0});
    m_bytesTrace(b.data(), b.size());
  };
  m_consumer->onComplete = [this] {
    m_complete = true;
    m_lastStats = m_consumer->stats();
    if (m_expectedSize != 0 && m_lastStats.bytes.count() != m_expectedSize)
      EmitEvent({EventKind::FetchSizeMismatch,
                 0,
                 {},
                 static_cast<int64_t>(m_lastStats.bytes.count()),
                 static_cast<double>(m_expectedSize)});
    m_completeTrace(m_lastStats);
  };
  m_consumer->onError = [this](const app::FetchError& e) {
    m_failed = true;
    m_lastStats = m_consumer->stats();
    m_failedTrace(m_lastStats, e.message);
  };
  m_consumer->start(prefix);
}

void OneInterestConsumerApp::StopEngine()
{
  if (m_tap != 0) {
    GetStack()->RemoveDataTap(m_tap);
    m_tap = 0;
  }
  if (m_consumer) {
    m_lastStats = m_consumer->stats();
    m_consumer.reset();
  }
}

} // namespace ndnlab::sim
