// libFuzzer target: each input is decoded as an Interest, a Data and a Name. Decoding must
// never crash; whatever decodes must re-encode (from its fields, not the cached wire) to bytes
// that decode again to the same fields and re-encode identically. A Name's URI form must parse
// back to the same Name. Any mismatch aborts.

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "fuzz/check.hpp"

#include <cstdint>

namespace {

using namespace ndnlab;

using fuzz::require;

bool sameInterest(const Interest& a, const Interest& b)
{
  return a.name() == b.name() && a.canBePrefix() == b.canBePrefix() && a.mustBeFresh() == b.mustBeFresh() &&
         a.forwardingHint() == b.forwardingHint() && a.nonce() == b.nonce() && a.hasLifetime() == b.hasLifetime() &&
         a.lifetime() == b.lifetime() && a.hopLimit() == b.hopLimit() && a.appParameters() == b.appParameters() &&
         a.signatureInfo() == b.signatureInfo() && a.signatureValue() == b.signatureValue();
}

bool sameBytes(ByteSpan a, ByteSpan b)
{
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

bool sameData(const Data& a, const Data& b)
{
  auto fa = a.finalBlockId();
  auto fb = b.finalBlockId();
  bool sameFinal = fa.has_value() == fb.has_value() && (!fa || sameBytes(fa->wire(), fb->wire()));
  return a.name() == b.name() && a.contentType() == b.contentType() && a.freshnessPeriod() == b.freshnessPeriod() &&
         sameFinal && a.hasContent() == b.hasContent() && sameBytes(a.content(), b.content()) &&
         a.signatureInfo() == b.signatureInfo() && sameBytes(a.signatureValue(), b.signatureValue());
}

void fuzzInterest(ByteSpan input)
{
  auto wire = std::make_shared<const Buffer>(input.begin(), input.end());
  auto r = Interest::decode(wire);
  if (!r)
    return;
  require(r->wireEncode() == wire, "Interest: decoded wire not kept");
  (void)r->hasValidParamsDigest();
  (void)r->signedPortion();

  Interest fresh = *r;
  fresh.setName(fresh.name()); // drop the cached wire
  SharedBuffer once = fresh.wireEncode();
  auto again = Interest::decode(once);
  require(again.ok(), "Interest: re-encoding does not decode");
  require(sameInterest(*r, *again), "Interest: fields differ after re-encoding");
  Interest twice = *again;
  twice.setName(twice.name());
  require(*twice.wireEncode() == *once, "Interest: encoding not idempotent");
}

void fuzzData(ByteSpan input)
{
  auto wire = std::make_shared<const Buffer>(input.begin(), input.end());
  auto r = Data::decode(wire);
  if (!r)
    return;
  require(r->wireEncode() == wire, "Data: decoded wire not kept");
  (void)r->signedPortion();
  (void)r->fullName();

  Data fresh = *r;
  fresh.setName(fresh.name());
  SharedBuffer once = fresh.wireEncode();
  auto again = Data::decode(once);
  require(again.ok(), "Data: re-encoding does not decode");
  require(sameData(*r, *again), "Data: fields differ after re-encoding");
  Data twice = *again;
  twice.setName(twice.name());
  require(*twice.wireEncode() == *once, "Data: encoding not idempotent");

  // An Interest for the Data's full name matches it.
  Interest byFullName(r->fullName());
  require(byFullName.matchesData(*r), "Data: full-name Interest does not match");
}

void fuzzName(ByteSpan input)
{
  auto r = Name::decode(input);
  if (!r)
    return;
  require(sameBytes(r->wireEncode(), input), "Name: re-encoding differs from input");
  auto parsed = Name::parse(r->toUri());
  require(parsed.ok(), "Name: URI does not parse");
  require(*parsed == *r, "Name: URI round trip differs");
  for (size_t i = 0; i <= r->size(); ++i) {
    Name prefix = r->getPrefix(static_cast<ptrdiff_t>(i));
    require(prefix.isPrefixOf(*r), "Name: prefix not isPrefixOf");
    require(prefix.hash() == r->hashPrefix(i), "Name: hashPrefix differs");
    require(prefix.compare(*r) <= 0, "Name: prefix sorts after name");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  ByteSpan input(data, size);
  fuzzInterest(input);
  fuzzData(input);
  fuzzName(input);
  return 0;
}
