#include "core/security/signed-interest.hpp"

namespace ndnlab::security {

std::string_view reasonName(CheckResult r)
{
  switch (r) {
    case CheckResult::Ok: return "ok";
    case CheckResult::NotSigned: return "not-signed";
    case CheckResult::BadParamsDigest: return "bad-params-digest";
    case CheckResult::BadSignature: return "bad-signature";
    case CheckResult::NoReplayFields: return "no-replay-fields";
    case CheckResult::TimeOutOfGrace: return "time-out-of-grace";
    case CheckResult::TimeReordered: return "time-reordered";
    case CheckResult::NonceReused: return "nonce-reused";
    case CheckResult::SeqNumReordered: return "seqnum-reordered";
  }
  return "unknown";
}

// --- v0.3 ------------------------------------------------------------------------------------

void signInterest(Interest& interest, const Signer& signer, const InterestSignatureFields& fields)
{
  // (1) Strip every ParametersSha256DigestComponent.
  Name stripped;
  const Name& original = interest.name();
  for (size_t i = 0; i < original.size(); ++i) {
    ComponentRef c = original[static_cast<ptrdiff_t>(i)];
    if (c.type() != tlv::ParametersSha256DigestComponent)
      stripped.append(c);
  }
  // (2) Empty ApplicationParameters when absent.
  Buffer params = interest.appParameters().value_or(Buffer{});
  // (3) InterestSignatureInfo.
  SignatureInfo si = signer.info();
  si.nonce = fields.nonce;
  si.time = fields.time;
  si.seqNum = fields.seqNum;

  // (4) Signed portion: name components (no digest) + ApplicationParameters..InterestSignatureInfo.
  Buffer tail;
  appendTlv(tail, tlv::ApplicationParameters, params);
  si.encodeTo(tail, tlv::InterestSignatureInfo);
  Buffer portion(stripped.value().begin(), stripped.value().end());
  portion.insert(portion.end(), tail.begin(), tail.end());
  Buffer value = signer.sign(portion);

  // (5) InterestSignatureValue; (6) params digest over ApplicationParameters..end, last.
  appendTlv(tail, tlv::InterestSignatureValue, value);
  auto digest = sha256(tail);
  interest.setAppParameters(std::move(params));
  interest.setSignature(std::move(si), std::move(value));
  stripped.appendParamsDigest(digest);
  interest.setName(std::move(stripped));
}

CheckResult verifyInterest(const Interest& interest, const Verifier& verifier)
{
  const auto& si = interest.signatureInfo();
  const auto& value = interest.signatureValue();
  if (!si || !value || !interest.appParameters())
    return CheckResult::NotSigned;
  const Name& name = interest.name();
  if (name.empty() || !name[-1].isParamsDigest() || !interest.hasValidParamsDigest())
    return CheckResult::BadParamsDigest;
  if (!verifier.verify(*si, interest.signedPortion(), *value))
    return CheckResult::BadSignature;
  return CheckResult::Ok;
}

InterestSigner::InterestSigner(const Signer& signer, const Clock& clock, Rng& rng, Options options)
  : m_signer(signer), m_clock(clock), m_rng(rng), m_options(options), m_nextSeq(options.firstSeqNum)
{}

uint64_t InterestSigner::nextTime()
{
  auto now = static_cast<uint64_t>(std::max<int64_t>(0, m_clock.unixNow().count()));
  m_lastTime = std::max(now, m_lastTime + 1);
  return m_lastTime;
}

void InterestSigner::sign(Interest& interest)
{
  InterestSignatureFields f;
  if (m_options.useNonce) {
    Buffer nonce(m_options.nonceSize);
    for (size_t i = 0; i < nonce.size(); i += 8) {
      uint64_t r = m_rng.next64();
      for (size_t j = i; j < nonce.size() && j < i + 8; ++j, r >>= 8)
        nonce[j] = static_cast<uint8_t>(r);
    }
    f.nonce = std::move(nonce);
  }
  if (m_options.useTime)
    f.time = nextTime();
  if (m_options.useSeqNum)
    f.seqNum = m_nextSeq++;
  signInterest(interest, m_signer, f);
}

Name InterestSigner::makeLegacyCommandName(Name prefix)
{
  appendLegacyCommandSignature(prefix, m_signer, nextTime(), m_rng.next64());
  return prefix;
}

// --- legacy v0.2 -----------------------------------------------------------------------------

SignatureInfo LegacyCommand::asInterestSignatureInfo() const
{
  SignatureInfo si = sigInfo;
  si.time = timestamp;
  si.nonce = nonce;
  return si;
}

DecodeResult<LegacyCommand> parseLegacyCommand(const Name& name)
{
  if (name.size() < 4)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::SignatureInfo});
  LegacyCommand cmd;
  cmd.prefixSize = name.size() - 4;

  auto ts = readNonNegInt(name[-4].value());
  if (!ts)
    return fail(ts.error());
  cmd.timestamp = *ts;

  ByteSpan nonce = name[-3].value();
  cmd.nonce.assign(nonce.begin(), nonce.end());

  auto sie = readSingleTlv(name[-2].value());
  if (!sie)
    return fail(sie.error());
  if (sie->type != tlv::SignatureInfo)
    return fail(DecodeError{DecodeErrc::UnexpectedType, tlv::SignatureInfo});
  auto si = SignatureInfo::fromValue(sie->value);
  if (!si)
    return fail(si.error());
  cmd.sigInfo = std::move(*si);

  auto sve = readSingleTlv(name[-1].value());
  if (!sve)
    return fail(sve.error());
  if (sve->type != tlv::SignatureValue)
    return fail(DecodeError{DecodeErrc::UnexpectedType, tlv::SignatureValue});
  cmd.sigValue.assign(sve->value.begin(), sve->value.end());
  return cmd;
}

void appendLegacyCommandSignature(Name& name, const Signer& signer, uint64_t timestampMs, uint64_t nonce)
{
  name.appendNumber(tlv::GenericNameComponent, timestampMs);
  uint8_t nonceBytes[8];
  for (int i = 0; i < 8; ++i)
    nonceBytes[i] = static_cast<uint8_t>(nonce >> (56 - 8 * i));
  name.append(tlv::GenericNameComponent, ByteSpan(nonceBytes, 8));
  Buffer siTlv;
  signer.info().encodeTo(siTlv, tlv::SignatureInfo);
  name.append(tlv::GenericNameComponent, siTlv);
  Buffer svTlv;
  appendTlv(svTlv, tlv::SignatureValue, signer.sign(name.value()));
  name.append(tlv::GenericNameComponent, svTlv);
}

CheckResult verifyLegacyCommand(const Name& name, const Verifier& verifier)
{
  auto cmd = parseLegacyCommand(name);
  if (!cmd)
    return CheckResult::NotSigned;
  Name signedName = name.getPrefix(-1);
  if (!verifier.verify(cmd->sigInfo, signedName.value(), cmd->sigValue))
    return CheckResult::BadSignature;
  return CheckResult::Ok;
}

} // namespace ndnlab::security
