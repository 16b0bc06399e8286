// libFuzzer target: each input is one link frame received by two GenericLinkServices on
// DummyTransports with local fields, fragmentation, reassembly, congestion marking and MIRCC
// enabled, the second on a point-to-point link with link reliability on as well (Acks of its
// frames, TxSequences to acknowledge, duplicates). The services persist across inputs (so
// fragments of different inputs can meet), and the manual clock advances after each input (so
// reassembly timeouts, RTOs and idle Acks fire). Every packet a service delivers is sent back
// out, exercising encoding and fragmentation; each frame it sends must fit the MTU and decode
// again, and the reliable one never holds more octets for retransmission than its bound.

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
  face::DummyTransport transport;
  std::unique_ptr<face::GenericLinkService> service;

  explicit Harness(bool reliable)
    : transport(face::FaceScope::Local, reliable ? face::LinkType::PointToPoint : face::LinkType::MultiAccess, Mtu)
  {
    face::LinkServiceOptions o;
    o.allowLocalFields = true;
    o.allowFragmentation = true;
    o.allowReassembly = true;
    o.allowCongestionMarking = true;
    o.baseCongestionMarkingInterval = std::chrono::milliseconds(10);
    o.maxReassemblyBytes = 256 * 1024;
    o.mircc = true; // MirccRate (888) is re-encoded on the Data and Nacks sent back
    o.reliability.enabled = reliable;
    o.reliability.maxUnackedBytes = 64 * 1024;
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
    if (const auto* r = service->reliability())
      fuzz::require(r->unackedBytes() <= service->options().reliability.maxUnackedBytes,
                    "more octets held for retransmission than the bound");
  }

  void feed(const uint8_t* data, size_t size)
  {
    // Vary the endpoint and the send queue (congestion marking) with the input size.
    transport.setSendQueueLength((size % 3) * 40000);
    transport.injectFrame(ByteSpan(data, size), size % 4);
    checkSentFrames();
    env.advance(std::chrono::milliseconds(100));
    checkSentFrames(); // retransmissions and idle Acks
    env.logImpl.lines.clear();
    env.traceImpl.records.clear();
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static Harness plain(false);
  static Harness reliable(true);
  plain.feed(data, size);
  reliable.feed(data, size);
  return 0;
}
