#pragma once
// BLEnD link-layer Interest bundling (Rahman, Liang, Zhang, arXiv:2110.01168, sections IV-A
// and IV-B; docs/mechanisms/bundling.md). Sans-I/O: the link service asks the encoder what to
// do with each outgoing Interest and the decoder which Interests a received bundle stands for;
// time comes in as arguments, randomness through the Rng given at construction.
//
// Encoder (sender side), one EIT entry <prefix, BI, LSS, LES, flow> per name prefix, where
// prefix = the Interest name minus its last component, which must be a segment number (seq),
// and the Interest must carry a BundleTag {retransmission, cwnd} from the consumer:
//   - a retransmission goes out alone: SS = ES = seq;
//   - seq in [LSS, LES] is covered by the last bundle sent: the Interest is absorbed;
//   - seq > LES (equal to seq >= LSS + BI whenever the last bundle was full) starts a new
//     bundle SS = seq, ES - SS + 1 = min(cwnd, BI); LSS, LES := SS, ES;
//   - seq < LSS (behind the last bundle, e.g. a second consumer of the same prefix) goes out
//     alone and leaves the entry as it is.
// The paper absorbs every seq below LSS + BI; absorbing only what the last bundle covers
// differs when that bundle was short (cwnd < BI), where the paper's rule would drop Interests
// that no bundle requested.
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

#include "core/codec/interest.hpp"
#include "core/lp/packet.hpp"
#include "core/runtime/env.hpp"

#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

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
    uint32_t interval = 0; ///< BI (encoder only)
    uint32_t flow = 0;
    /// Highest seq of a non-retransmitted Interest the encoder has seen (encoder only).
    std::optional<uint64_t> maxSeen;
  };

  BundleStateTable(size_t maxEntries, Duration lifetime);

  /// The live entry for `key` or nullptr; an expired one is erased. `refresh` marks it used.
  Entry* find(std::string_view key, TimePoint now, bool refresh);
  /// A fresh entry for `key` (replacing any), marked used; evicts the least recently used
  /// entry beyond maxEntries.
  Entry& insert(std::string_view key, TimePoint now);
  size_t size() const { return m_map.size(); }
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
  Decision onOutgoingInterest(const Interest& interest, const std::optional<BundleTag>& tag,
                              TimePoint now);

  /// True if `dataName` is a segment that the last bundle of its prefix requested but whose
  /// Interest has not reached the encoder yet (maxSeen < seq <= LES): Data that outran the
  /// consumer's Interest. Does not refresh the entry.
  bool isAhead(const Name& dataName, TimePoint now);

  /// New bundles use this BI (entries keep the BI they were created with until they expire).
  void setBundleInterval(uint32_t bi) { m_options.bundleInterval = bi; }
  const InterestBundlerOptions& options() const { return m_options; }
  /// EIT entries.
  size_t size() const { return m_table.size(); }

private:
  uint32_t newFlow();

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
    uint64_t first = 0;        ///< DSS (Regenerate)
    uint64_t last = 0;         ///< DES (Regenerate)
    uint64_t gapFilled = 0;    ///< segments in [first, SS) (a lost bundle's range)
    std::string_view reason;   ///< why Invalid: stable drop reason detail
  };

  explicit BundleDecoder(InterestBundlerOptions options = {});

  /// Decides for one received Interest carrying `header`, from link endpoint `endpoint`.
  Outcome onIncomingBundle(const Interest& interest, const BundleHeader& header,
                           uint64_t endpoint, TimePoint now);

  /// DIT entries.
  size_t size() const { return m_table.size(); }

private:
  InterestBundlerOptions m_options;
  detail::BundleStateTable m_table;
  std::string m_key; ///< scratch: endpoint + prefix
};

} // namespace ndnlab::lp
