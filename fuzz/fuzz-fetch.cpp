// libFuzzer target for the consumer engines against a producer the input controls: the
// SegmentFetcher of `ndnlab get` and the simulated consumers, and the PushConsumer of the
// BLEnD one-Interest bound. The input picks the engine and its options (pipeline, version
// discovery, retries, reorder bound, pacing; trigger retries, repair window), then, Interest by
// Interest, what the network does with it: nothing, a Data after a delay (with any
// FinalBlockId, a NACK ContentType, a congestion mark; for discovery, metadata that may be
// garbage), Data for other segments (a push), or a Nack with any reason and either Nonce. Each
// segment's content is fixed the first time it is sent, so the object is well defined.
// Checked: whatever arrives, the fetch ends (done or failed) once the network falls silent,
// within a bound of simulated time; the bytes delivered are segments 0, 1, 2, ... of that
// object, in order, each once; and a fetch that reports success delivered every segment up to
// a FinalBlockId it was sent.

#include "core/app/push-consumer.hpp"
#include "core/app/segment-fetcher.hpp"
#include "core/app/tests/test-link.hpp"
#include "fuzz/check.hpp"
#include "fuzz/script.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <map>
#include <set>
#include <type_traits>

namespace {

using namespace ndnlab;
using namespace std::chrono_literals;

using fuzz::bug;

const Name Prefix("/fuzz/object");

template<typename Consumer>
class Harness
{
public:
  explicit Harness(FuzzedDataProvider& in) : m_in(in)
  {
    fuzz::quiet(env);
    Name name = Prefix;
    if constexpr (std::is_same_v<Consumer, app::SegmentFetcher>) {
      app::SegmentFetcherOptions o;
      static const char* const pipelines[] = {"fixed", "aimd", "cubic"};
      o.pipeline = pipelines[in.ConsumeIntegralInRange<int>(0, 2)];
      o.discovery = static_cast<app::VersionDiscovery>(in.ConsumeIntegralInRange<int>(0, 2));
      o.retries = in.ConsumeIntegralInRange<int>(0, 3);
      o.lifetime = 1s;
      o.rtt.maxRto = 2s;
      o.maxReorderSegments = in.ConsumeBool() ? 4 : 16384;
      o.pacing = in.ConsumeBool();
      o.rtoBackoffPerTimeout = in.ConsumeBool();
      o.window.fixedSize = in.ConsumeIntegralInRange<int>(1, 8);
      o.window.initCwnd = in.ConsumeIntegralInRange<int>(1, 8);
      if (o.discovery == app::VersionDiscovery::None)
        name.appendVersion(1);
      consumer = std::make_unique<Consumer>(env, endpoint, o);
    }
    else {
      app::PushConsumerOptions o;
      o.lifetime = 1s;
      o.triggerRetries = in.ConsumeIntegralInRange<int>(0, 3);
      o.repairWindow = in.ConsumeIntegralInRange<size_t>(1, 8);
      o.retries = in.ConsumeIntegralInRange<int>(0, 3);
      consumer = std::make_unique<Consumer>(env, endpoint, o);
    }
    consumer->onBytes = [this](ByteSpan b) { delivered.push_back(Buffer(b.begin(), b.end())); };
    consumer->onComplete = [this] { ++completions; };
    consumer->onError = [this](const app::FetchError&) { ++errors; };
    consumer->start(name);
  }

  /// Answers (or not) the Interests sent so far, then lets time pass.
  void step()
  {
    std::vector<Interest> sent;
    sent.swap(endpoint.sentInterests);
    for (const auto& interest : sent) {
      if (m_in.remaining_bytes() == 0)
        break;
      switch (m_in.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: break; // lost
        case 1:
        case 2: reply(interest, std::nullopt); break;
        case 3: // a push: Data for other segments
          for (int n = m_in.ConsumeIntegralInRange<int>(1, 8); n > 0; --n)
            reply(interest, m_in.ConsumeIntegralInRange<uint64_t>(0, 24));
          break;
        default: {
          Nack n{interest, static_cast<NackReason>(m_in.PickValueInArray({0, 50, 100, 150}))};
          if (m_in.ConsumeBool())
            n.interest.setNonce(interest.nonce().value_or(0) + 1);
          later([this, n] { endpoint.deliverNack(n); });
          break;
        }
      }
    }
    env.advance(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 1500)));
  }

  /// The network falls silent: the fetch must end, and what it delivered must be the object.
  void finish()
  {
    for (int i = 0; i < 3600 && !ended(); ++i) {
      endpoint.sentInterests.clear();
      env.advance(1s);
    }
    if (!ended())
      bug("still fetching an hour after the last packet");
    if (completions + errors != 1)
      bug("not exactly one onComplete or onError");
    for (size_t k = 0; k < delivered.size(); ++k) {
      auto it = m_content.find(k);
      if (it == m_content.end() || delivered[k] != it->second)
        bug("a segment out of order, twice, or not the one the producer sent");
    }
    if (completions == 1) {
      bool sawFinal = false;
      for (uint64_t f : m_finalBlocks)
        sawFinal |= delivered.size() == f + 1;
      if (!sawFinal)
        bug("success without the segments up to a FinalBlockId that was sent");
    }
  }

  ManualEnv env;
  app::test::FakeEndpoint endpoint;
  std::unique_ptr<Consumer> consumer;
  std::vector<Buffer> delivered;
  int completions = 0;
  int errors = 0;

private:
  bool ended() const
  {
    auto s = consumer->state();
    return s == Consumer::State::Done || s == Consumer::State::Failed;
  }

  void later(std::function<void()> f)
  {
    env.timers().schedule(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 3000)), std::move(f));
  }

  const Buffer& contentOf(uint64_t segment)
  {
    auto it = m_content.find(segment);
    if (it == m_content.end()) {
      Buffer b(m_in.ConsumeIntegralInRange<size_t>(0, 64));
      for (size_t i = 0; i < b.size(); ++i)
        b[i] = static_cast<uint8_t>(segment * 31 + i);
      it = m_content.emplace(segment, std::move(b)).first;
    }
    return it->second;
  }

  /// A Data for `interest`, or for segment `other` of the object when given.
  void reply(const Interest& interest, std::optional<uint64_t> other)
  {
    const Name& asked = interest.name();
    Name name;
    uint64_t segment = 0;
    bool metadata = !asked.empty() && asked[-1].isKeyword("metadata");
    if (!metadata && !asked.empty() && asked[-1].isSegment()) {
      segment = other.value_or(asked[-1].toNumber().value_or(0));
      name = asked.getPrefix(-1).appendSegment(segment);
    }
    else {
      segment = other.value_or(0);
      name = Name(asked).appendVersion(m_in.ConsumeIntegralInRange<uint64_t>(1, 2)).appendSegment(segment);
    }
    Data d(name);
    if (metadata) {
      if (m_in.ConsumeBool()) {
        Name versioned = Name(Prefix).appendVersion(1);
        if (m_in.ConsumeBool())
          versioned = Name(Prefix).append("not-a-version");
        d.setContent(versioned.wireEncode());
      }
      else {
        auto junk = m_in.ConsumeBytes<uint8_t>(m_in.ConsumeIntegralInRange<size_t>(0, 16));
        d.setContent(junk);
      }
    }
    else {
      d.setContent(contentOf(segment));
      if (m_in.ConsumeBool()) {
        uint64_t last = m_in.ConsumeIntegralInRange<uint64_t>(0, 24);
        m_finalBlocks.insert(last);
        Name n;
        n.appendSegment(last);
        d.setFinalBlockId(n[0]);
      }
    }
    if (m_in.ConsumeIntegralInRange<int>(0, 15) == 0)
      d.setContentType(m_in.ConsumeBool() ? static_cast<uint64_t>(ContentType::Nack) : 7);
    // Data as it comes off the wire (the fetcher keeps views into it).
    auto decoded = Data::decode(d.wireEncode());
    if (!decoded)
      bug("own Data does not decode");
    if (m_in.ConsumeBool())
      decoded->tags.congestionMark = 1;
    later([this, data = std::move(*decoded)] { endpoint.deliverData(data); });
  }

  FuzzedDataProvider& m_in;
  std::map<uint64_t, Buffer> m_content;
  std::set<uint64_t> m_finalBlocks;
};

template<typename Consumer>
void run(FuzzedDataProvider& in)
{
  Harness<Consumer> h(in);
  fuzz::runScript(h, in, 200);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  FuzzedDataProvider in(data, size);
  if (in.ConsumeBool())
    run<app::PushConsumer>(in);
  else
    run<app::SegmentFetcher>(in);
  return 0;
}
