// libFuzzer target for the engines of `ndnlab perf` (core/app/perf-*.hpp). The input picks one
// and its options, then a script:
// - PerfServer: Interests from raw bytes or built around perf names (sessions, flows, payloads
//   up to and past the limit, totals, segments in and out of a flow, the stats name, numbers
//   with leading zeros or beyond 64 bits, extra components, names beside the prefix).
//   Checked, Interest by Interest: nothing for a name outside the prefix; otherwise exactly
//   one reply, a Data of the Interest's name whose content has the size the name asks for
//   (and its FinalBlockId), or for the stats name a report that decodes, or a Nack of that very
//   Interest; the counters add up.
// - PerfClient (window or paced, 1-4 flows, a duration or a byte count): the network answers
//   each Interest with nothing, its Data (any payload size, FinalBlockId, congestion mark), a
//   Data of another name near it, garbage content for the stats, or a Nack; time passes.
//   Checked: once the network falls silent the report comes, exactly once, within a bounded
//   time; with a byte count it never takes more segments than that count needs.

#include "core/app/perf-client.hpp"
#include "core/app/perf-server.hpp"
#include "core/app/tests/test-link.hpp"
#include "fuzz/check.hpp"
#include "fuzz/script.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <memory>
#include <optional>

namespace {

using namespace ndnlab;
using namespace std::chrono_literals;

using fuzz::require;

const Name Prefix("/fuzz/perf");

/// A decimal component, sometimes with a leading zero or past 64 bits.
std::string number(FuzzedDataProvider& in, uint64_t max)
{
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return "0" + std::to_string(in.ConsumeIntegralInRange<uint64_t>(0, max));
    case 1: return "99999999999999999999";
    case 2: return in.ConsumeRandomLengthString(6);
    default: return std::to_string(in.ConsumeIntegralInRange<uint64_t>(0, max));
  }
}

Name pickName(FuzzedDataProvider& in)
{
  Name n = in.ConsumeIntegralInRange<int>(0, 9) == 0 ? Name("/fuzz/other") : Prefix;
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: { // raw component TLVs
      auto wire = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 48));
      if (auto decoded = Name::fromValue(wire))
        n.append(*decoded);
      return n;
    }
    case 1:
      n.append(in.ConsumeBool() ? app::perf::sessionText(in.ConsumeIntegral<uint64_t>())
                                : in.ConsumeRandomLengthString(18));
      n.append(in.ConsumeBool() ? std::string("stats") : in.ConsumeRandomLengthString(6));
      break;
    default:
      n = app::perf::flowName(n, in.ConsumeIntegralInRange<uint64_t>(0, 3), in.ConsumeIntegralInRange<uint64_t>(0, 4),
                              in.ConsumeIntegralInRange<uint64_t>(0, 9000),
                              in.ConsumeIntegralInRange<uint64_t>(0, 50'000));
      if (in.ConsumeIntegralInRange<int>(0, 5) == 0) { // one component replaced
        Name m = n.getPrefix(Prefix.size() + 1);
        m.append(number(in, 10)).append(number(in, 9000)).append(number(in, 50'000));
        n = m;
      }
      n.appendSegment(in.ConsumeIntegralInRange<uint64_t>(0, 60));
      break;
  }
  for (int extra = in.ConsumeIntegralInRange<int>(0, 5) - 3; extra > 0; --extra)
    n.append(in.ConsumeRandomLengthString(6));
  return n;
}

class ServerHarness
{
public:
  explicit ServerHarness(FuzzedDataProvider& in) : m_in(in)
  {
    fuzz::quiet(env);
    app::PerfServerOptions o;
    o.maxPayload = in.ConsumeIntegralInRange<size_t>(1, 8400);
    o.maxSessions = in.ConsumeIntegralInRange<size_t>(1, 3);
    m_maxPayload = o.maxPayload;
    server = std::make_unique<app::PerfServer>(env, ep, Prefix, signer, o);
    server->cpuTimes = [this] { return app::perf::CpuTimes{env.now().time_since_epoch(), 0ns}; };
  }

  void step()
  {
    if (m_in.ConsumeIntegralInRange<int>(0, 7) == 0) {
      env.advance(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 1000)));
      return;
    }
    std::optional<Interest> interest;
    if (m_in.ConsumeIntegralInRange<int>(0, 5) == 0) {
      auto wire = m_in.ConsumeBytes<uint8_t>(m_in.ConsumeIntegralInRange<size_t>(0, 200));
      if (auto decoded = Interest::decode(wire))
        interest = std::move(*decoded);
    }
    else {
      Name n = pickName(m_in);
      if (n.empty())
        return;
      interest.emplace(n);
      interest->setNonce(m_in.ConsumeIntegral<uint32_t>());
      interest->setMustBeFresh(m_in.ConsumeBool());
    }
    if (!interest)
      return;
    const size_t data = ep.sentData.size();
    const size_t nacks = ep.sentNacks.size();
    server->handleInterest(*interest);
    const size_t replies = ep.sentData.size() - data + ep.sentNacks.size() - nacks;
    if (!Prefix.isPrefixOf(interest->name())) {
      require(replies == 0, "a reply to an Interest outside the prefix");
      return;
    }
    require(replies == 1, "not exactly one reply to an Interest under the prefix");
    if (ep.sentNacks.size() > nacks) {
      require(ep.sentNacks.back().interest.name() == interest->name(), "a Nack of another Interest");
      require(!app::perf::parseRequest(Prefix, interest->name()) ||
                !app::perf::parseRequest(Prefix, interest->name())->stats,
              "a Nack of a stats Interest");
      return;
    }
    const Data& d = ep.sentData.back();
    require(d.name() == interest->name(), "a Data of another name");
    require(Data::decode(d.wireEncode()).ok(), "a Data that does not decode");
    auto req = app::perf::parseRequest(Prefix, d.name());
    require(req.has_value(), "a Data for a name that is no perf request");
    if (req->stats) {
      ByteSpan c = d.content();
      require(
        app::perf::decodeServerReport(std::string_view(reinterpret_cast<const char*>(c.data()), c.size())).has_value(),
        "a stats reply that does not decode");
      return;
    }
    require(req->payload >= 1 && req->payload <= m_maxPayload, "a Data of a payload beyond the limit");
    size_t expected = req->payload;
    if (req->total > 0) {
      const uint64_t last = (req->total - 1) / req->payload;
      require(req->segment <= last, "a Data past the flow's end");
      require(d.finalBlockSegment() == last, "a Data without the flow's FinalBlockId");
      if (req->segment == last)
        expected = req->total - last * req->payload;
    }
    else {
      require(!d.finalBlockSegment(), "a FinalBlockId in an endless flow");
    }
    require(d.content().size() == expected, "a Data of the wrong size");
  }

  void finish()
  {
    const auto& c = server->counters();
    require(c.nacks == c.malformed + c.tooLarge + c.beyondEnd, "Nacks that no reason counts");
    require(c.data + c.statsSent + c.nacks == ep.sentData.size() + ep.sentNacks.size(),
            "replies the counters do not count");
  }

  ManualEnv env;
  app::test::FakeEndpoint ep;
  security::NullSigner signer;
  std::unique_ptr<app::PerfServer> server;

private:
  FuzzedDataProvider& m_in;
  size_t m_maxPayload = 0;
};

class ClientHarness
{
public:
  explicit ClientHarness(FuzzedDataProvider& in) : m_in(in)
  {
    fuzz::quiet(env);
    app::PerfClientOptions o;
    o.parallel = in.ConsumeIntegralInRange<size_t>(1, 4);
    o.payload = in.ConsumeIntegralInRange<size_t>(16, 3000);
    if (in.ConsumeBool())
      o.bytes = in.ConsumeIntegralInRange<uint64_t>(1, 30'000);
    else
      o.duration = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(1, 3000));
    o.interval = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(0, 1000));
    if (in.ConsumeBool())
      o.bitrate = in.ConsumeIntegralInRange<uint64_t>(1000, 2'000'000);
    const char* pipelines[] = {"fixed", "aimd", "cubic", "mircc"};
    o.fetch.pipeline = pipelines[in.ConsumeIntegralInRange<int>(0, 3)];
    o.fetch.lifetime = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(10, 2000));
    o.fetch.retries = in.ConsumeIntegralInRange<int>(0, 3);
    o.statsTimeout = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(1, 1000));
    m_opts = o;
    client = std::make_unique<app::PerfClient>(env, ep, o);
    client->onDone = [this](const app::PerfReport& r) {
      ++m_done;
      m_report = r;
    };
    client->start(Prefix);
  }

  void step()
  {
    switch (m_in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: env.advance(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 500))); return;
      default: break;
    }
    if (m_next >= ep.sentInterests.size())
      return;
    const Interest i = ep.sentInterests[m_next++];
    switch (m_in.ConsumeIntegralInRange<int>(0, 6)) {
      case 0: return; // lost
      case 1: ep.deliverNack(Nack{i, static_cast<NackReason>(m_in.ConsumeIntegralInRange<int>(0, 3) * 50)}); return;
      case 2: { // a Data of a name near it
        Data d(pickName(m_in));
        d.setContent(m_in.ConsumeBytes<uint8_t>(m_in.ConsumeIntegralInRange<size_t>(0, 40)));
        ep.deliverData(d);
        return;
      }
      default: break;
    }
    // its own Data, as a server would make it, or not quite
    Data d(i.name());
    auto req = app::perf::parseRequest(Prefix, i.name());
    require(req.has_value(), "the client sent an Interest that is no perf request");
    if (req->stats) {
      std::string text = m_in.ConsumeBool() ? app::perf::encodeServerReport({}) : m_in.ConsumeRandomLengthString(40);
      d.setContent(asBytes(text));
    }
    else {
      require(req->payload == m_opts.payload, "an Interest for another payload size");
      size_t size = m_in.ConsumeBool() ? req->payload : m_in.ConsumeIntegralInRange<size_t>(0, 3000);
      if (req->total > 0) {
        const uint64_t last = (req->total - 1) / req->payload;
        if (req->segment == last)
          size = static_cast<size_t>(req->total - last * req->payload);
        if (m_in.ConsumeIntegralInRange<int>(0, 7) != 0) {
          Name end;
          end.appendSegment(m_in.ConsumeIntegralInRange<int>(0, 7) != 0 ? last : req->segment);
          d.setFinalBlockId(end[0]);
        }
      }
      Buffer content(size);
      app::perf::writeHeader(content.data(), content.size(), env.now().time_since_epoch(), req->segment);
      d.setContent(content);
    }
    d.tags.congestionMark = m_in.ConsumeIntegralInRange<int>(0, 7) == 0 ? 1 : 0;
    env.timers().schedule(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 50)),
                          [this, d] { ep.deliverData(d); });
  }

  void finish()
  {
    // silence: every lifetime, retry limit, drain and stats timeout runs out
    for (int i = 0; i < 100 && m_done == 0; ++i)
      env.advance(10min);
    require(m_done == 1, "the report did not come exactly once after the network fell silent");
    if (m_opts.bytes > 0) {
      // each flow fetches at most its ceil(total / payload) segments, whatever sizes they come in
      const uint64_t segments = m_opts.bytes / m_opts.payload + m_opts.parallel;
      require(m_report->sum.segments <= segments, "more segments than the byte count needs");
    }
  }

  ManualEnv env;
  app::test::FakeEndpoint ep;
  std::unique_ptr<app::PerfClient> client;

private:
  FuzzedDataProvider& m_in;
  app::PerfClientOptions m_opts;
  size_t m_next = 0;
  int m_done = 0;
  std::optional<app::PerfReport> m_report;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  FuzzedDataProvider in(data, size);
  if (in.ConsumeBool()) {
    ServerHarness h(in);
    fuzz::runScript(h, in, 300);
  }
  else {
    ClientHarness h(in);
    fuzz::runScript(h, in, 300);
  }
  return 0;
}
