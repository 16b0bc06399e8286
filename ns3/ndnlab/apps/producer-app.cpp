#include "ns3/ndnlab/apps/producer-app.hpp"

#include "ns3/ndnlab/apps/content.hpp"
#include "ns3/ndnlab/model/options-attributes.hpp"

#include "core/security/crypto.hpp"

#include <ns3/log.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <stdexcept>

NS_LOG_COMPONENT_DEFINE("ndnlab.ProducerApp");

namespace ndnlab::sim {

std::unique_ptr<security::Signer> makeSigner(std::string_view kind, const Name& identity)
{
  if (kind == "digest")
    return std::make_unique<security::DigestSigner>();
  if (kind == "null")
    return std::make_unique<security::NullSigner>();
  if (kind == "hmac") {
    std::string uri = identity.toUri();
    Buffer key(32);
    for (size_t i = 0; i < key.size(); ++i)
      key[i] = contentByte(0x484d4143, i) ^ static_cast<uint8_t>(uri[i % uri.size()]);
    Name keyName = identity;
    keyName.append("KEY").append("hmac");
    return std::make_unique<security::HmacSigner>(std::move(key), std::move(keyName));
  }
  if (kind == "ecdsa") {
    Name keyName = identity;
    keyName.append("KEY").append("ecdsa");
    return std::make_unique<security::EcdsaSigner>(security::EcKey::generate(), std::move(keyName));
  }
  throw std::invalid_argument("unknown Signing '" + std::string(kind) + "' (digest | hmac | ecdsa | null)");
}

NS_OBJECT_ENSURE_REGISTERED(ProducerApp);

ns3::TypeId ProducerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    ns3::TypeId t =
      ns3::TypeId("ndnlab::ProducerApp")
        .SetParent<NdnApp>()
        .SetGroupName("Ndnlab")
        .AddConstructor<ProducerApp>()
        .AddAttribute("FileSize", "Bytes of content published", ns3::UintegerValue(1024 * 1024),
                      ns3::MakeUintegerAccessor(&ProducerApp::m_fileSize), ns3::MakeUintegerChecker<uint64_t>())
        .AddAttribute("ContentSeed", "Seed of the synthetic content stream", ns3::UintegerValue(1),
                      ns3::MakeUintegerAccessor(&ProducerApp::m_seed), ns3::MakeUintegerChecker<uint64_t>())
        .AddAttribute("Signing", "Signature of segments: digest | hmac | ecdsa | null", ns3::StringValue("digest"),
                      ns3::MakeStringAccessor(&ProducerApp::m_signing), ns3::MakeStringChecker());
    return addOptionAttributes<app::SegmentServerOptions>(t, serverFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<ProducerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
  }();
  return tid;
}

ProducerApp::ProducerApp() = default;

ProducerApp::~ProducerApp() = default;

void ProducerApp::StartEngine()
{
  Name prefix = GetPrefix();
  m_signer = makeSigner(m_signing, prefix);
  m_server = std::make_unique<app::SegmentServer>(GetStack()->GetEnv(), *GetEndpoint(), prefix, *m_signer, m_opts);
  uint64_t offset = 0;
  m_server->publish([this, &offset](uint8_t* buf, size_t size) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(size, m_fileSize - offset));
    fillContent(m_seed, offset, buf, n);
    offset += n;
    return n;
  });
  NS_LOG_INFO("node " << GetNode()->GetId() << " serves " << m_server->versionedName().toUri() << " ("
                      << m_server->segmentCount() << " segments)");
  RegisterPrefix(m_server->prefix());
}

void ProducerApp::StopEngine()
{
  m_server.reset();
  m_signer.reset();
}

} // namespace ndnlab::sim
