// libFuzzer target for management input. Each input is decoded
//   1. as ControlParameters, ControlResponse and every status dataset (a decoded value must
//      re-encode and decode to the same value);
//   2. as a Name TLV-VALUE, turned into an Interest and run through the command parser and
//      the legacy command parser;
//   3. as ControlParameters bytes placed at the ControlParameters position of a
//      /localhost/nfd/<module>/<verb> command;
// and the Interests from 2 and 3 (and the input itself, if it decodes as an Interest) are fed
// to a Dispatcher with every NFD handler registered (Management over a Forwarder), which must
// neither crash nor hang. A faces/query with the input as its filter must be answered: when
// the filter decodes, with faces that all match it; otherwise with a 400 ContentType-Nack
// reply. The forwarder and management persist across inputs. An input that decodes as an
// Interest or a Data also has its signature checked by a verifier of each type (digest, HMAC,
// ECDSA, null), whatever SignatureInfo and value it carries.

#include "core/face/dummy-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/lp/packet.hpp"
#include "core/mgmt/command.hpp"
#include "core/mgmt/datasets.hpp"
#include "core/mgmt/management.hpp"
#include "core/runtime/manual-env.hpp"
#include "core/security/signed-interest.hpp"
#include "core/security/signer.hpp"
#include "fuzz/check.hpp"
#include "fuzz/script.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace {

using namespace ndnlab;

using fuzz::require;

template<typename T>
void checkDatasetEntry(ByteSpan in)
{
  auto v = T::decode(in);
  if (!v)
    return;
  Buffer again;
  v->encodeTo(again);
  auto w = T::decode(again);
  require(w && *w == *v, "dataset entry: re-encoding decodes to another value");
}

struct Harness
{
  ManualEnv env;
  // Small tables: the forwarder persists across inputs, so memory stays bounded.
  fw::Forwarder forwarder{env, fw::ForwarderOptions{.pitMaxEntries = 1024, .csCapacity = 256, .dnlCapacity = 4096}};
  mgmt::Management management{env, forwarder, mgmt::ManagementOptions{.rib = {.maxRoutes = 4096}}};
  face::DummyTransport* transport = nullptr;

  Harness()
  {
    fuzz::quiet(env);
    auto t = std::make_unique<face::DummyTransport>(face::FaceScope::Local);
    transport = t.get();
    forwarder.addFace(std::make_unique<face::Face>(env, std::make_unique<face::GenericLinkService>(env), std::move(t)));
  }

  void send(Interest& interest) { (void)exchange(interest); }

  /// Sends `interest` from the client face; returns the Data sent back to it, if any.
  std::optional<Data> exchange(Interest& interest)
  {
    interest.setNonce(env.rng().next32());
    transport->injectFrame(*interest.wireEncode());
    env.advance(std::chrono::milliseconds(1));
    std::optional<Data> reply;
    for (const auto& sent : transport->sent) {
      auto frame = lp::decodeFrame(sent.frame);
      if (frame && frame->fragment && !frame->nack && !frame->fragment->empty() && (*frame->fragment)[0] == tlv::Data) {
        if (auto d = Data::decode(*frame->fragment))
          reply = std::move(*d);
      }
    }
    transport->sent.clear();
    return reply;
  }
};

const Name topPrefix("/localhost/nfd");

/// One verifier of each signature type (an ECDSA key made once per process).
const std::vector<const security::Verifier*>& verifiers()
{
  static const security::DigestVerifier digest;
  static const security::HmacVerifier hmac(Buffer(32, 0x5a), Name("/fuzz/hmac-key"));
  static const security::EcdsaVerifier ecdsa(security::EcKey::generate());
  static const security::NullVerifier null;
  static const std::vector<const security::Verifier*> all{&digest, &hmac, &ecdsa, &null};
  return all;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static Harness h;
  ByteSpan in(data, size);

  // 1. Codecs.
  if (auto cp = mgmt::ControlParameters::decode(in)) {
    auto again = mgmt::ControlParameters::decode(cp->wireEncode());
    require(again && *again == *cp, "ControlParameters: re-encoding decodes to another value");
  }
  if (auto resp = mgmt::ControlResponse::decode(in)) {
    auto again = mgmt::ControlResponse::decode(resp->wireEncode());
    require(again && again->code == resp->code && again->text == resp->text && again->body == resp->body,
            "ControlResponse: re-encoding decodes to another value");
    (void)resp->bodyParameters();
  }
  if (auto fs = mgmt::ForwarderStatus::decode(in)) {
    Buffer again;
    fs->encodeTo(again);
    require(*mgmt::ForwarderStatus::decode(again) == *fs, "ForwarderStatus: re-encoding decodes to another value");
  }
  checkDatasetEntry<mgmt::FaceStatus>(in);
  checkDatasetEntry<mgmt::ChannelStatus>(in);
  checkDatasetEntry<mgmt::FibEntryStatus>(in);
  checkDatasetEntry<mgmt::RibEntryStatus>(in);
  checkDatasetEntry<mgmt::StrategyChoiceStatus>(in);
  checkDatasetEntry<mgmt::CsInfo>(in);
  checkDatasetEntry<mgmt::FaceQueryFilter>(in);
  (void)mgmt::decodeList<mgmt::FaceStatus>(in);

  // 2. Input as a name.
  if (auto name = Name::fromValue(in); name && !name->empty()) {
    Interest i(*name);
    (void)mgmt::parseCommand(topPrefix, i);
    (void)security::parseLegacyCommand(*name);
    (void)security::verifyLegacyCommand(*name, security::DigestVerifier());
    Name under = topPrefix;
    under.append(*name);
    Interest j(under);
    (void)mgmt::parseCommand(topPrefix, j);
    h.send(j);
  }

  // 3. Input as ControlParameters of each command (first byte picks the verb).
  static const std::pair<const char*, const char*> verbs[] = {
    {"rib", "register"},
    {"rib", "unregister"},
    {"fib", "add-nexthop"},
    {"fib", "remove-nexthop"},
    {"faces", "create"},
    {"faces", "destroy"},
    {"strategy-choice", "set"},
    {"strategy-choice", "unset"},
    {"cs", "config"},
    {"cs", "erase"},
    {"rib", "list"},
    {"status", "general"},
  };
  if (size > 0) {
    const auto& [module, verb] = verbs[data[0] % std::size(verbs)];
    Name n = topPrefix;
    n.append(module).append(verb);
    n.append(tlv::GenericNameComponent, in.subspan(1));
    Interest k(n);
    h.send(k);
  }

  // faces/query with the input as its filter component (a fresh request: CanBePrefix).
  {
    Name n = topPrefix;
    n.append("faces").append("query").append(tlv::GenericNameComponent, in);
    Interest q(n);
    q.setCanBePrefix(true);
    auto reply = h.exchange(q);
    require(reply.has_value(), "faces/query: no reply");
    if (auto filter = mgmt::FaceQueryFilter::decode(in)) {
      // The harness has two faces (internal and client): one segment holds them.
      require(reply->contentType() == 0 && reply->finalBlockId(), "faces/query: not one dataset segment");
      auto faces = mgmt::decodeList<mgmt::FaceStatus>(reply->content());
      require(faces.ok(), "faces/query: reply does not decode as FaceStatus entries");
      for (const auto& f : *faces)
        require(filter->matches(f), "faces/query: a face that does not match the filter");
    }
    else {
      auto resp = mgmt::ControlResponse::decode(reply->content());
      require(reply->contentType() == static_cast<uint64_t>(ContentType::Nack) && resp && resp->code == 400,
              "faces/query: a malformed filter is not refused with 400");
    }
  }

  // 4. Input as a whole Interest.
  if (auto i = Interest::decode(in)) {
    (void)mgmt::parseCommand(topPrefix, *i);
    for (const security::Verifier* v : verifiers())
      (void)security::verifyInterest(*i, *v);
    h.transport->injectFrame(in);
    h.env.advance(std::chrono::milliseconds(1));
    h.transport->sent.clear();
  }
  // 5. Input as a Data whose signature (any type, any bytes) every verifier checks.
  if (auto d = Data::decode(in)) {
    for (const security::Verifier* v : verifiers())
      (void)security::verifyData(*d, *v);
  }
  // Let RIB expirations and dataset storage age out now and then.
  if (size > 0 && data[size - 1] == 0xFF)
    h.env.advance(std::chrono::hours(1));
  return 0;
}
