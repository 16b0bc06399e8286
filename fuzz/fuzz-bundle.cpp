// libFuzzer target for BLEnD Interest bundling (core/lp/interest-bundler.*): a BundleEncoder
// and a BundleDecoder joined by a lossless, in-order link, as on one Wi-Fi hop without loss.
// The input picks the options (bundle interval, table size and lifetime, loss detection,
// dynamic interval) and then a script for four consumers, two of one prefix and two of
// others (one nested in it): new segments in order with any window, retransmissions of segments sent before,
// Interests without a BundleTag or without a segment, re-bundled Interests from a previous hop,
// Data coming back (which drives loss detection and its recovery bundles), time passing (so
// table entries expire), and a new bundle interval.
// Checked: every header the encoder puts on a frame is one its decoder accepts (SS is the
// Interest's segment, SS <= ES, span <= MaxBundleSpan) and that never regenerates more than
// MaxBundleSpan Interests; regenerated Interests keep the bundle's name but for the segment;
// and, the property bundling must keep, once the encoder has taken an Interest (sent, bundled
// or absorbed) the decoder has handed up an Interest of that name: on a link that loses
// nothing, bundling loses no Interest. The paper's encoder rule (paperEncoder) stays off: it
// drops Interests no bundle requested by design (docs/mechanisms/bundling.md).

#include "core/lp/interest-bundler.hpp"
#include "core/runtime/manual-env.hpp"
#include "fuzz/check.hpp"
#include "fuzz/script.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace ndnlab;
using namespace std::chrono_literals;

using fuzz::require;

class Harness
{
public:
  explicit Harness(FuzzedDataProvider& in) : m_in(in)
  {
    lp::InterestBundlerOptions o;
    o.bundleInterval = in.ConsumeIntegralInRange<uint32_t>(0, 20);
    o.maxEntries = in.ConsumeIntegralInRange<size_t>(1, 4);
    o.entryLifetime = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(5, 10000));
    o.lossDetection = in.ConsumeBool();
    o.gapK = in.ConsumeIntegralInRange<int>(0, 8);
    o.gapMin = std::chrono::milliseconds(in.ConsumeIntegralInRange<int>(1, 50));
    o.maxRecoveries = in.ConsumeIntegralInRange<uint32_t>(0, 4);
    o.dynamicInterval = in.ConsumeBool();
    o.intervalMin = in.ConsumeIntegralInRange<uint32_t>(1, 8);
    o.cwndShare = in.ConsumeIntegralInRange<int>(1, 10) / 10.0;
    m_encoder = std::make_unique<lp::BundleEncoder>(m_env.rng(), o);
    m_decoder = std::make_unique<lp::BundleDecoder>(o);
    // two consumers of /a (e.g. two fetches of one object), one of /a/b, one of /c/d
    static const char* const prefixes[] = {"/a", "/a", "/a/b", "/c/d"};
    for (const char* p : prefixes) {
      Consumer c{Name(p), in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint64_t>() >> 8, {}};
      c.next = c.first;
      m_consumers.push_back(c);
    }
  }

  void step()
  {
    Consumer& c = m_consumers[m_in.ConsumeIntegralInRange<size_t>(0, m_consumers.size() - 1)];
    switch (m_in.ConsumeIntegralInRange<int>(0, 9)) {
      case 0:
      case 1:
      case 2: { // the pipeline sends its next segments
        uint32_t cwnd = m_in.ConsumeIntegralInRange<uint32_t>(0, 300);
        for (int n = m_in.ConsumeIntegralInRange<int>(1, 8); n > 0; --n)
          send(c, c.next++, BundleTag{false, cwnd, false});
        break;
      }
      case 3:                  // a retransmission of a segment sent before
        if (!c.sent.empty()) { // one of the latest 64 sent
          auto it = c.sent.rbegin();
          std::advance(it, m_in.ConsumeIntegralInRange<size_t>(0, std::min<size_t>(c.sent.size() - 1, 63)));
          send(c, *it, BundleTag{true, m_in.ConsumeIntegralInRange<uint32_t>(1, 64), false});
        }
        break;
      case 4: { // re-bundling on a relay: a decoded bundle's span, from the next segment
        uint32_t span = m_in.ConsumeIntegralInRange<uint32_t>(1, 300);
        send(c, c.next, BundleTag{false, span, true});
        c.next += m_in.ConsumeIntegralInRange<uint32_t>(1, span);
        break;
      }
      case 5: { // not bundleable: no tag, or a name that does not end in a segment
        Interest i(Name(c.prefix).append("x"));
        i.setNonce(m_env.rng().next32());
        take(i, m_in.ConsumeBool() ? std::optional<BundleTag>(BundleTag{}) : std::nullopt);
        break;
      }
      case 6:                  // Data for a segment sent comes back
        if (!c.sent.empty()) { // one of the latest 64 sent
          auto it = c.sent.rbegin();
          std::advance(it, m_in.ConsumeIntegralInRange<size_t>(0, std::min<size_t>(c.sent.size() - 1, 63)));
          m_encoder->onIncomingData(Name(c.prefix).appendSegment(*it), m_env.now());
        }
        break;
      case 7: m_encoder->setBundleInterval(m_in.ConsumeIntegralInRange<uint32_t>(0, 20)); break;
      default: advance(std::chrono::milliseconds(m_in.ConsumeIntegralInRange<int>(0, 3000))); break;
    }
  }

private:
  struct Consumer
  {
    Name prefix;
    uint64_t first = 0;
    std::set<uint64_t> sent;
    uint64_t next = 0;
  };

  void send(Consumer& c, uint64_t seq, BundleTag tag)
  {
    Interest i(Name(c.prefix).appendSegment(seq));
    i.setNonce(m_env.rng().next32()).setLifetime(std::chrono::milliseconds(1500));
    c.sent.insert(seq);
    take(i, tag);
  }

  /// The encoder takes one Interest; what it sends crosses the link at once.
  void take(const Interest& interest, const std::optional<BundleTag>& tag)
  {
    auto d = m_encoder->onOutgoingInterest(interest, tag, m_env.now());
    switch (d.action) {
      case lp::BundleEncoder::Action::Pass: m_delivered.insert(interest.name()); break;
      case lp::BundleEncoder::Action::Send: receive(interest, d.header); break;
      case lp::BundleEncoder::Action::Absorb: break;
    }
    require(m_delivered.count(interest.name()) == 1,
            "an Interest the encoder took was never handed up by the decoder (lossless link)");
  }

  void receive(const Interest& interest, const lp::BundleHeader& h)
  {
    auto seg = lp::splitSegment(interest.name());
    require(seg && seg->seq == h.startSeq && h.startSeq <= h.endSeq && h.span() <= lp::MaxBundleSpan,
            "the encoder put a header its decoder rejects");
    auto out = m_decoder->onIncomingBundle(interest, h, 1, m_env.now());
    require(out.status != lp::BundleDecoder::Status::Invalid, "the decoder rejected a valid header");
    if (out.status != lp::BundleDecoder::Status::Regenerate)
      return;
    require(out.first <= out.last && out.last - out.first < lp::MaxBundleSpan,
            "the decoder regenerates more than MaxBundleSpan Interests from one frame");
    for (uint64_t s = out.first;; ++s) {
      Interest r = s == h.startSeq ? interest : lp::regenerateInterest(interest, s);
      require(r.name().getPrefix(-1) == interest.name().getPrefix(-1) && r.name()[-1].isSegment() &&
                r.name()[-1].toNumber() == s,
              "a regenerated Interest with another prefix or segment");
      m_delivered.insert(r.name());
      if (s == out.last)
        break;
    }
  }

  /// Time passes; loss detection's recovery bundles go out when due.
  void advance(Duration d)
  {
    const TimePoint until = m_env.now() + d;
    for (int guard = 0; guard < 1000; ++guard) {
      auto next = m_encoder->nextDeadline(m_env.now());
      if (!next || *next > until)
        break;
      m_env.advance(std::max(*next - m_env.now(), Duration::zero()));
      for (auto& r : m_encoder->takeRecoveries(m_env.now()))
        receive(r.interest, r.header);
      if (m_env.now() >= until)
        break;
      m_env.advance(1ms); // a deadline not yet due at its own time does not loop here
    }
    if (m_env.now() < until)
      m_env.advance(until - m_env.now());
  }

  FuzzedDataProvider& m_in;
  ManualEnv m_env;
  std::unique_ptr<lp::BundleEncoder> m_encoder;
  std::unique_ptr<lp::BundleDecoder> m_decoder;
  std::vector<Consumer> m_consumers;
  std::set<Name> m_delivered;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  FuzzedDataProvider in(data, size);
  Harness h(in);
  fuzz::runScript(h, in, 300);
  return 0;
}
