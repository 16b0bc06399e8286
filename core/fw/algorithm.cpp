#include "core/fw/algorithm.hpp"

#include <algorithm>
#include <cstring>

namespace ndnlab::fw {

namespace {

bool firstComponentIs(const Name& name, std::string_view text)
{
  if (name.empty())
    return false;
  ComponentRef c = name[0];
  return c.isGeneric() && c.value().size() == text.size() &&
         std::memcmp(c.value().data(), text.data(), text.size()) == 0;
}

} // namespace

bool isLocalhostName(const Name& name)
{
  return firstComponentIs(name, "localhost");
}

bool isLocalhopName(const Name& name)
{
  return firstComponentIs(name, "localhop");
}

bool wouldViolateScope(const face::Face& inFace, const Interest& interest, const face::Face& outFace)
{
  if (outFace.isLocal())
    return false;
  if (isLocalhostName(interest.name()))
    return true;
  if (isLocalhopName(interest.name()))
    return !inFace.isLocal();
  return false;
}

int findDuplicateNonce(const table::PitEntry& entry, uint32_t nonce, const face::Face& face)
{
  int where = DuplicateNonceNone;
  for (const table::PitInRecord& r : entry.inRecords()) {
    if (r.lastNonce == nonce)
      where |= r.face == &face ? DuplicateNonceInSame : DuplicateNonceInOther;
  }
  for (const table::PitOutRecord& r : entry.outRecords()) {
    if (r.lastNonce == nonce)
      where |= r.face == &face ? DuplicateNonceOutSame : DuplicateNonceOutOther;
  }
  return where;
}

bool hasPendingOutRecords(const table::PitEntry& entry, TimePoint now)
{
  return std::any_of(entry.outRecords().begin(), entry.outRecords().end(),
                     [&](const table::PitOutRecord& r) { return r.expiry >= now && !r.incomingNack; });
}

TimePoint getLastOutgoing(const table::PitEntry& entry)
{
  TimePoint last = TimePoint::min();
  for (const table::PitOutRecord& r : entry.outRecords())
    last = std::max(last, r.lastRenewed);
  return last;
}

bool isNextHopEligible(const face::Face& inFace, const Interest& interest, const table::NextHop& nexthop,
                       const table::PitEntry& entry, bool wantUnused, TimePoint now)
{
  const face::Face& outFace = *nexthop.face;
  if (&outFace == &inFace && outFace.linkType() != face::LinkType::AdHoc)
    return false;
  if (wouldViolateScope(inFace, interest, outFace))
    return false;
  if (wantUnused) {
    const table::PitOutRecord* r = entry.findOutRecord(outFace);
    if (r != nullptr && r->expiry > now)
      return false;
  }
  return true;
}

const table::NextHop* findEligibleNextHopWithEarliestOutRecord(const face::Face& inFace, const Interest& interest,
                                                               const std::vector<table::NextHop>& nexthops,
                                                               const table::PitEntry& entry)
{
  const table::NextHop* found = nullptr;
  TimePoint earliest = TimePoint::max();
  for (const table::NextHop& nh : nexthops) {
    if (!isNextHopEligible(inFace, interest, nh, entry))
      continue;
    const table::PitOutRecord* r = entry.findOutRecord(*nh.face);
    TimePoint renewed = r != nullptr ? r->lastRenewed : TimePoint::min();
    if (found == nullptr || renewed < earliest) {
      found = &nh;
      earliest = renewed;
    }
  }
  return found;
}

} // namespace ndnlab::fw
