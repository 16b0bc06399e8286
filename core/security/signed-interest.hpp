#pragma once
// Signed Interests: packet format v0.3 (spec signed-interest.rst) and the legacy v0.2
// "command Interest" that NFD still accepts (name + timestamp + nonce + SignatureInfo +
// SignatureValue as the last four components; ndn-cxx security-common.hpp positions -4..-1).

#include "core/codec/interest.hpp"
#include "core/runtime/env.hpp"
#include "core/security/signer.hpp"

#include <string_view>

namespace ndnlab::security {

/// Outcome of checking a signed Interest; every value except Ok is a drop reason.
enum class CheckResult : uint8_t {
  Ok,
  NotSigned,       ///< no (Interest)SignatureInfo/Value, or malformed legacy components
  BadParamsDigest, ///< last component is not a correct ParametersSha256DigestComponent
  BadSignature,    ///< the verifier rejected type, KeyLocator or value
  NoReplayFields,  ///< none of SignatureTime, SignatureNonce, SignatureSeqNum
  TimeOutOfGrace,  ///< SignatureTime further than the grace period from now
  TimeReordered,   ///< SignatureTime not after the last one seen for this key
  NonceReused,     ///< SignatureNonce already seen for this key
  SeqNumReordered, ///< SignatureSeqNum not after the last one seen for this key
};

std::string_view reasonName(CheckResult r);

/// Replay-protection fields put into InterestSignatureInfo.
struct InterestSignatureFields
{
  std::optional<Buffer> nonce;  ///< SignatureNonce (>= 8 octets recommended)
  std::optional<uint64_t> time; ///< SignatureTime, ms since the Unix epoch
  std::optional<uint64_t> seqNum;
};

/// Signs `interest` in place per signed-interest.rst: strips params-digest components, adds
/// empty ApplicationParameters if absent, sets InterestSignatureInfo = signer.info() + `fields`,
/// signs the signed portion, sets InterestSignatureValue, appends the params digest last.
void signInterest(Interest& interest, const Signer& signer, const InterestSignatureFields& fields);

/// Checks structure (params digest last and correct, signature present) and the signature.
/// Replay checks are separate (ReplayChecker).
CheckResult verifyInterest(const Interest& interest, const Verifier& verifier);

/// Signs Interests with replay fields taken from the Env: an `nonceSize`-octet random
/// SignatureNonce, SignatureTime = clock.unixNow() made strictly increasing per signer, and an
/// optional SignatureSeqNum counter.
class InterestSigner
{
public:
  struct Options
  {
    /// Add SignatureNonce.
    bool useNonce = true;
    /// SignatureNonce length, octets.
    size_t nonceSize = 8;
    /// Add SignatureTime (ms since the Unix epoch).
    bool useTime = true;
    /// Add SignatureSeqNum (starting at firstSeqNum, +1 per Interest).
    bool useSeqNum = false;
    uint64_t firstSeqNum = 0;
  };

  InterestSigner(const Signer& signer, const Clock& clock, Rng& rng, Options options);
  InterestSigner(const Signer& signer, const Clock& clock, Rng& rng) : InterestSigner(signer, clock, rng, Options{}) {}

  /// v0.3 signed Interest.
  void sign(Interest& interest);
  /// Legacy v0.2 command name: `prefix` + timestamp + 64-bit nonce + SignatureInfo + value.
  Name makeLegacyCommandName(Name prefix);

private:
  uint64_t nextTime();

  const Signer& m_signer;
  const Clock& m_clock;
  Rng& m_rng;
  Options m_options;
  uint64_t m_lastTime = 0;
  uint64_t m_nextSeq;
};

// --- legacy v0.2 command Interest --------------------------------------------------------------

/// The four trailing components of a v0.2 command Interest name.
struct LegacyCommand
{
  size_t prefixSize = 0;  ///< components before the timestamp
  uint64_t timestamp = 0; ///< ms since the Unix epoch (NonNegativeInteger component)
  Buffer nonce;           ///< the random component's value (64 bits by convention)
  SignatureInfo sigInfo;  ///< decoded from the SignatureInfo (22) TLV component
  Buffer sigValue;        ///< the SignatureValue (23) TLV component's value

  /// The same replay fields as a v0.3 InterestSignatureInfo: time = timestamp, nonce.
  SignatureInfo asInterestSignatureInfo() const;
};

/// Parses the last four components; fails when there are fewer or they are malformed.
DecodeResult<LegacyCommand> parseLegacyCommand(const Name& name);

/// Appends timestamp (NonNegativeInteger), 8-octet nonce, SignatureInfo TLV and SignatureValue
/// TLV components to `name`. The signature covers the name's component TLVs up to and
/// including the SignatureInfo component.
void appendLegacyCommandSignature(Name& name, const Signer& signer, uint64_t timestampMs, uint64_t nonce);

/// Checks a legacy command name's signature.
CheckResult verifyLegacyCommand(const Name& name, const Verifier& verifier);

} // namespace ndnlab::security
