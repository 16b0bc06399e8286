#pragma once
// BLEnD link-layer Interest bundling (Rahman, Liang, Zhang, arXiv:2110.01168, sections IV-A
// and IV-B; docs/mechanisms/bundling.md). Sans-I/O: the link service asks the encoder what to
// do with each outgoing Interest and the decoder which Interests a received bundle stands for;
// time comes in as arguments, randomness through the Rng given at construction.
//
// Encoder (sender side), one EIT entry <prefix, BI, LSS, LES, flow> per name prefix, where
// prefix = the Interest name minus its last component, which must be a segment number (seq),
// and the Interest must carry a BundleTag {retransmission, cwnd} from the consumer:
//   - a retransmission goes out alone: SS = ES = seq. The entry also keeps the frontier, the
//     highest seq it sent under its flow (LES, or an RTx beyond it), which is the decoder's
//     PES on a lossless link;
//   - seq in [LSS, LES] is covered by the last bundle sent: the Interest is absorbed;
//   - LES < seq <= frontier (past the last bundle, not past an RTx the decoder took as its
//     PES) goes out alone: a bundle from there would be stale or regenerated only above PES;
//   - seq > frontier (equal to seq >= LSS + BI whenever the last bundle was full and no RTx
//     went beyond it) starts a new bundle SS = seq, ES - SS + 1 = min(cwnd, BI);
//     LSS, LES, frontier := SS, ES, ES;
//   - seq < LSS (behind the last bundle, e.g. a second consumer of the same prefix) goes out
//     alone and leaves the entry as it is.
// The paper absorbs every seq below LSS + BI; absorbing only what the last bundle covers
// differs when that bundle was short (cwnd < BI), where the paper's rule would drop Interests
// that no bundle requested. `paperEncoder` applies the paper's rule instead (a new bundle
// starts at the Interest's own seq, which is the paper's SS = LSS + BI for a consumer that
// sends in order, and keeps the header in agreement with its Interest).
//
// Decoder (receiver side), one DIT entry <endpoint, prefix, PSS, PES, flow>:
//   - SS == ES (a retransmission or a bundle of one): regenerate SS only; PES := SS if the
//     flow matches and SS > PES;
//   - a bundle from an unknown flow (new or forgotten entry, or a restarted sender): regenerate
//     SS..ES and start the entry there;
//   - ES <= PES: stale (already decoded), dropped;
//   - otherwise DSS = PES + 1 (fills the range of a lost bundle, Fig. 6), DES = ES, bounded so
//     that DES - DSS + 1 <= MaxBundleSpan; PSS, PES := SS, ES.
// PES never decreases. Regenerated Interests keep every field of the bundle Interest (lifetime,
// hop limit, MustBeFresh, ...) with the name's segment replaced; the Interest for SS is the
// received one, the others get a Nonce derived from the bundle's (regeneratedNonce()).
//
// Both tables are bounded (maxEntries, least recently used forgotten first) and forget a prefix
// unused for entryLifetime. The flow id in every header lets the decoder notice that the
// encoder forgot or restarted a prefix, so the two tables need not expire in step.
//
// Beyond the paper (its section VI-B), both off by default:
//   - loss detection: the encoder watches the Data of each prefix coming back on its face.
//     While the bundles sent ask for segments beyond the highest Data seen (outstanding), each
//     inter-Data gap is a sample of a moving average and deviation (RFC 6298 gains). When no
//     Data comes for max(gapMin, mean + gapK x deviation) after the last Data, nor for the link
//     round trip (sampled from bundle sent to its first Data, same estimator) after the last
//     bundle sent, the bundle (or the Data) is taken as lost and the encoder re-requests the
//     unanswered range [highest Data + 1, LES] in one recovery bundle. The recovery carries a new flow id, so the
//     decoder regenerates the whole range whether the bundle or its Data were lost (a stale check would drop it
//     otherwise), and the next bundles continue under that flow. The wait doubles after each recovery; at most
//     maxRecoveries per stall. This removes the idle period of Fig. 6 (until the next bundle, or until the consumer's
//     RTO when the window is stuck).
//   - dynamic interval: a new bundle stands for min(cwnd, clamp(ceil(cwnd x cwndShare),
//     intervalMin, BI)) Interests instead of min(cwnd, BI): with cwndShare < 1 every window is
//     cut into several bundles, so a lost bundle is gap-filled by the next one of the same
//     window, while BI, now a maximum, can be larger to save Interest frames. Interests a
//     decoder regenerated (BundleTag::decoded, a relay) are re-bundled by min(span, BI).

#include "core/codec/interest.hpp"
#include "core/lp/packet.hpp"
#include "core/runtime/env.hpp"

#include <deque>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ndnlab::lp {

/// Most Interests one bundle header may stand for, and most Interests the decoder regenerates
/// from one frame (gap fill included). A protocol constant, so peers agree on it.
inline constexpr uint64_t MaxBundleSpan = 256;

struct InterestBundlerOptions
{
  /// Bundle interval BI: most Interests one bundle stands for (paper default 15),
  /// 1..MaxBundleSpan; 0 makes the encoder pass every Interest through.
  uint32_t bundleInterval = 15;
  /// Prefixes remembered by each table (EIT, DIT); the least recently used is forgotten beyond.
  size_t maxEntries = 256;
  /// A prefix not used for this long is forgotten.
  Duration entryLifetime = std::chrono::seconds(10);
  /// Encoder-side loss detection from the inter-Data gap (paper VI-B); off = the paper.
  bool lossDetection = false;
  /// Loss detection: a stall is a gap above mean + gapK x mean deviation of the samples.
  double gapK = 4;
  /// Loss detection: lower bound of the stall threshold (also the threshold before samples);
  /// before the first round-trip sample a bundle is given 10 x gapMin.
  Duration gapMin = std::chrono::milliseconds(10);
  /// Loss detection: recovery bundles per stall (the wait doubles after each); 0 = none.
  uint32_t maxRecoveries = 3;
  /// Dynamic interval: bundles of ceil(cwnd x cwndShare) within [intervalMin, bundleInterval]
  /// Interests (never above cwnd); off = min(cwnd, bundleInterval), the paper.
  bool dynamicInterval = false;
  /// Dynamic interval: smallest bundle (when cwnd allows), 1..bundleInterval.
  uint32_t intervalMin = 4;
  /// Dynamic interval: share of the consumer's window one bundle stands for, (0, 1].
  double cwndShare = 0.5;
  /// The paper's encoder rule exactly (IV-A): a new bundle only at seq >= LSS + BI, every other
  /// Interest of the prefix but a retransmission absorbed, also past a last bundle shorter than
  /// BI and behind LSS. Off = ndnlab's rule above (absorb only what the last bundle covers).
  bool paperEncoder = false;
  /// Hold Data a bundle asked for ahead of the consumer's Interest until that Interest comes
  /// down (the link service's side, BundlingService); off = the paper, whose forwarder drops
  /// such Data as unsolicited.
  bool holdEarlyData = true;
};

/// An Interest name split into <prefix, seq>: `prefix` is the TLV-VALUE of all components but
/// the last (a view into the Name), `seq` the last component's segment number.
struct SegmentedName
{
  ByteSpan prefix;
  uint64_t seq = 0;
};

/// nullopt unless the last component of `name` is a segment number (typed, tlv 50).
std::optional<SegmentedName> splitSegment(const Name& name);

/// Nonce of the Interest for segment `seq` regenerated from a bundle whose Interest carries
/// `bundleNonce`. Deterministic, so every decoder of one bundle regenerates identical
/// Interests (a forwarder reached by two of them still sees one Interest); distinct per seq.
uint32_t regeneratedNonce(uint32_t bundleNonce, uint64_t seq);

/// The Interest for segment `seq` regenerated from `bundle`: same fields, last name component
/// replaced by segment `seq`, Nonce regeneratedNonce() (kept absent when the bundle has none).
/// Tags are cleared. Precondition: splitSegment(bundle.name()) succeeds.
Interest regenerateInterest(const Interest& bundle, uint64_t seq);

namespace detail {

/// LRU table of per-prefix bundling state with idle expiry; keys are opaque byte strings.
class BundleStateTable
{
public:
  struct Entry
  {
    uint64_t start = 0;    ///< LSS (encoder) or PSS (decoder)
    uint64_t end = 0;      ///< LES or PES
    uint64_t frontier = 0; ///< encoder only: max(LES, highest RTx sent under the flow)
    uint32_t interval = 0; ///< BI (encoder only)
    uint32_t flow = 0;
    /// Highest seq of a non-retransmitted Interest the encoder has seen (encoder only).
    std::optional<uint64_t> maxSeen;
    // loss detection (encoder only)
    uint64_t origin = 0;             ///< SS of the entry's first bundle
    std::optional<uint64_t> maxData; ///< highest seq whose Data came back
    TimePoint gapStart{};            ///< last Data, or the bundle that reopened the pipe
    Duration gapMean{0};             ///< moving average of the inter-Data gap
    Duration gapDev{0};              ///< its mean deviation
    bool hasGap = false;             ///< gapMean/gapDev hold at least one sample
    uint32_t recoveries = 0;         ///< recovery bundles since the last Data
    std::optional<Interest> last;    ///< Interest of the last bundle sent (recovery template)
    TimePoint lastBundleAt{};        ///< when the last bundle (or recovery) was sent
    /// Bundles sent whose Data have not started to come back: <SS, sent at>, oldest first
    /// (link round-trip samples: bundle sent -> Data SS).
    std::deque<std::pair<uint64_t, TimePoint>> inFlight;
    Duration rttMean{0}; ///< moving average of the link round trip
    Duration rttDev{0};  ///< its mean deviation
    bool hasRtt = false;
  };

  BundleStateTable(size_t maxEntries, Duration lifetime);

  /// The live entry for `key` or nullptr; an expired one is erased. `refresh` marks it used.
  Entry* find(std::string_view key, TimePoint now, bool refresh);
  /// A fresh entry for `key` (replacing any), marked used; evicts the least recently used
  /// entry beyond maxEntries.
  Entry& insert(std::string_view key, TimePoint now);
  size_t size() const { return m_map.size(); }
  /// Calls fn(key, entry) for every entry not expired at `now`; does not refresh them.
  template<typename Fn>
  void forEachLive(TimePoint now, Fn&& fn)
  {
    for (auto& [key, node] : m_map) {
      if (now - node.lastUsed < m_lifetime)
        fn(std::string_view(key), node.entry);
    }
  }
  /// Entries forgotten because the table was full.
  uint64_t nEvicted() const { return m_nEvicted; }

private:
  struct Node
  {
    Entry entry;
    TimePoint lastUsed;
    std::list<std::string>::iterator lru;
  };
  struct KeyHash
  {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  void touch(Node& n, TimePoint now);

  size_t m_maxEntries;
  Duration m_lifetime;
  std::unordered_map<std::string, Node, KeyHash, std::equal_to<>> m_map;
  std::list<std::string> m_lru; ///< most recently used first
  uint64_t m_nEvicted = 0;
};

} // namespace detail

/// Sender side (EIT). One per face.
class BundleEncoder
{
public:
  enum class Action : uint8_t {
    Pass,   ///< not bundleable (no BundleTag, name not ending in a segment, BI 0): send as is
    Send,   ///< send with `header`: a new bundle, or a single (SS == ES)
    Absorb, ///< covered by the last bundle sent: do not send
  };
  struct Decision
  {
    Action action = Action::Pass;
    BundleHeader header; ///< Send only
  };

  explicit BundleEncoder(Rng& rng, InterestBundlerOptions options = {});

  /// Decides for one Interest about to be sent; `tag` is its BundleTag, if any.
  Decision onOutgoingInterest(const Interest& interest, const std::optional<BundleTag>& tag, TimePoint now);

  /// True if `dataName` is a segment that the last bundle of its prefix requested but whose
  /// Interest has not reached the encoder yet (maxSeen < seq <= LES): Data that outran the
  /// consumer's Interest. Does not refresh the entry.
  bool isAhead(const Name& dataName, TimePoint now);

  /// Loss detection: Data `dataName` came back on the face at `now` (samples the inter-Data
  /// gap of its prefix). No effect with lossDetection off or for unknown prefixes.
  void onIncomingData(const Name& dataName, TimePoint now);

  /// A recovery bundle: send `interest` with `header` (a new flow; SS = the Interest's segment).
  struct Recovery
  {
    Interest interest;
    BundleHeader header;
  };
  /// Loss detection: the recovery bundles due at `now` (prefixes whose Data stalled), each
  /// for the range its bundles requested beyond the highest Data seen. Call at nextDeadline().
  std::vector<Recovery> takeRecoveries(TimePoint now);
  /// Loss detection: the earliest time a recovery may be due; nullopt when no prefix has
  /// outstanding bundled segments (or lossDetection is off). O(entries).
  std::optional<TimePoint> nextDeadline(TimePoint now);
  /// Stall threshold of the prefix of `name` now (tests, diagnostics); nullopt if unknown.
  std::optional<Duration> gapThreshold(const Name& name, TimePoint now);

  /// New bundles use this BI (entries keep the BI they were created with until they expire).
  void setBundleInterval(uint32_t bi) { m_options.bundleInterval = bi; }
  const InterestBundlerOptions& options() const { return m_options; }
  /// EIT entries.
  size_t size() const { return m_table.size(); }

private:
  uint32_t newFlow();
  /// Interests the new bundle of an entry with interval `bi` stands for, for window `cwnd`
  /// (`decoded`: cwnd is the span of a bundle decoded on a previous hop).
  uint64_t bundleSpan(uint32_t cwnd, uint32_t bi, bool decoded) const;
  /// Outstanding: the bundles sent ask for segments beyond the highest Data seen.
  static bool isOutstanding(const detail::BundleStateTable::Entry& e);
  Duration threshold(const detail::BundleStateTable::Entry& e) const;
  Duration rttThreshold(const detail::BundleStateTable::Entry& e) const;
  /// Bundles remembered per prefix for round-trip samples.
  static constexpr size_t MaxInFlightSamples = 64;
  /// When the stall of an outstanding entry is declared.
  TimePoint deadline(const detail::BundleStateTable::Entry& e) const;

  Rng& m_rng;
  InterestBundlerOptions m_options;
  detail::BundleStateTable m_table;
};

/// Receiver side (DIT). One per face.
class BundleDecoder
{
public:
  enum class Status : uint8_t {
    Regenerate, ///< hand up segments first..last, in order
    Stale,      ///< ES <= PES: already decoded, drop
    Invalid,    ///< header inconsistent with the Interest, or span above MaxBundleSpan: drop
  };
  struct Outcome
  {
    Status status = Status::Invalid;
    uint64_t first = 0;      ///< DSS (Regenerate)
    uint64_t last = 0;       ///< DES (Regenerate)
    uint64_t gapFilled = 0;  ///< segments in [first, SS) (a lost bundle's range)
    std::string_view reason; ///< why Invalid: stable drop reason detail
  };

  explicit BundleDecoder(InterestBundlerOptions options = {});

  /// Decides for one received Interest carrying `header`, from link endpoint `endpoint`.
  Outcome onIncomingBundle(const Interest& interest, const BundleHeader& header, uint64_t endpoint, TimePoint now);

  /// DIT entries.
  size_t size() const { return m_table.size(); }

private:
  InterestBundlerOptions m_options;
  detail::BundleStateTable m_table;
  std::string m_key; ///< scratch: endpoint + prefix
};

} // namespace ndnlab::lp
