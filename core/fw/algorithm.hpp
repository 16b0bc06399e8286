#pragma once
// Helpers shared by the forwarder and strategies (NFD daemon/fw/algorithm.hpp).

#include "core/face/face.hpp"
#include "core/table/fib.hpp"
#include "core/table/pit.hpp"

namespace ndnlab::fw {

/// True if `name` starts with the component "localhost" (scope-limited namespace).
bool isLocalhostName(const Name& name);
/// True if `name` starts with the component "localhop".
bool isLocalhopName(const Name& name);

/// NFD wouldViolateScope: forwarding `interest` from `inFace` to `outFace` would leak a
/// /localhost Interest to a non-local face, or a /localhop Interest that did not come from a
/// local face.
bool wouldViolateScope(const face::Face& inFace, const Interest& interest, const face::Face& outFace);

/// Where a Nonce was found in a PIT entry (bit set).
enum DuplicateNonceWhere : int {
  DuplicateNonceNone = 0,
  DuplicateNonceInSame = 1 << 0,   ///< in-record of the same face
  DuplicateNonceInOther = 1 << 1,  ///< in-record of another face
  DuplicateNonceOutSame = 1 << 2,  ///< out-record of the same face
  DuplicateNonceOutOther = 1 << 3, ///< out-record of another face
};
int findDuplicateNonce(const table::PitEntry& entry, uint32_t nonce, const face::Face& face);

/// An out-record that has not expired and has not been Nacked.
bool hasPendingOutRecords(const table::PitEntry& entry, TimePoint now);

/// The latest lastRenewed among out-records. Precondition: the entry has out-records.
TimePoint getLastOutgoing(const table::PitEntry& entry);

/// NFD isNextHopEligible: not back to the ingress (unless ad hoc), no scope violation, and,
/// when `wantUnused`, no unexpired out-record on that nexthop.
bool isNextHopEligible(const face::Face& inFace, const Interest& interest, const table::NextHop& nexthop,
                       const table::PitEntry& entry, bool wantUnused = false, TimePoint now = TimePoint::min());

/// The eligible nexthop whose out-record was renewed longest ago (a nexthop without
/// out-record counts as oldest), or nullptr.
const table::NextHop* findEligibleNextHopWithEarliestOutRecord(const face::Face& inFace, const Interest& interest,
                                                               const std::vector<table::NextHop>& nexthops,
                                                               const table::PitEntry& entry);

} // namespace ndnlab::fw
