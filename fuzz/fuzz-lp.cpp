// libFuzzer target: each input is one link frame received by a GenericLinkService on a
// DummyTransport with local fields, fragmentation, reassembly, congestion marking and MIRCC
// enabled. The service persists across inputs (so fragments of different inputs can meet), and the
// manual clock advances after each input (so reassembly timeouts fire). Every packet the
// service delivers is sent back out, exercising encoding and fragmentation; each frame it
// sends must fit the MTU and decode again.

#include "core/face/dummy-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/lp/packet.hpp"
#include "core/runtime/manual-env.hpp"
#include "fuzz/check.hpp"

#include <cstdint>
#include <memory>

namespace {

using namespace ndnlab;

constexpr ssize_t Mtu = 600;

struct Harness
{
  ManualEnv env;
  face::DummyTransport transport{face::FaceScope::Local, face::LinkType::MultiAccess, Mtu};
  std::unique_ptr<face::GenericLinkService> service;

  Harness()
  {
    face::LinkServiceOptions o;
    o.allowLocalFields = true;
    o.allowFragmentation = true;
    o.allowReassembly = true;
    o.allowCongestionMarking = true;
    o.baseCongestionMarkingInterval = std::chrono::milliseconds(10);
    o.maxReassemblyBytes = 256 * 1024;
    o.mircc = true; // MirccRate (888) is re-encoded on the Data and Nacks sent back
    service = std::make_unique<face::GenericLinkService>(env, o);
    service->attach(transport);
    service->onReceiveInterest = [this](Interest&& i, face::EndpointId ep) {
      service->sendInterest(i, ep);
      service->sendNack(Nack{std::move(i), NackReason::Congestion}, ep);
    };
    service->onReceiveData = [this](Data&& d, face::EndpointId ep) { service->sendData(d, ep); };
    service->onReceiveNack = [this](Nack&& n, face::EndpointId ep) { service->sendNack(n, ep); };
  }

  void checkSentFrames()
  {
    for (const auto& s : transport.sent) {
      fuzz::require(s.frame.size() <= static_cast<size_t>(Mtu), "a frame sent exceeds the MTU");
      fuzz::require(lp::decodeFrame(s.frame).ok(), "a frame sent does not decode");
    }
    transport.sent.clear();
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static Harness h;
  // Vary the endpoint and the send queue (congestion marking) with the input size.
  h.transport.setSendQueueLength((size % 3) * 40000);
  h.transport.injectFrame(ByteSpan(data, size), size % 4);
  h.checkSentFrames();
  h.env.advance(std::chrono::milliseconds(100));
  h.env.logImpl.lines.clear();
  h.env.traceImpl.records.clear();
  return 0;
}
