#pragma once
// The fields of ForwarderOptions, declared once (core/runtime/fields.hpp): ndnlabd's TOML keys
// ([tables], [forwarder]; `ndnlabd --print-config-reference` and docs/daemon.md) and the ns-3
// attributes of ndnlab::NdnStack (docs/mechanisms/ns3.md) come from this list. The default
// strategy (a Name) and the network regions (a list) are written by each host itself; MIRCC's
// knobs (ForwarderOptions::mircc) come from core/fw/mircc-fields.hpp.

#include "core/fw/mircc-fields.hpp"
#include "core/fw/forwarder.hpp"
#include "core/runtime/fields.hpp"
#include "core/runtime/units.hpp"
#include "core/table/dead-nonce-list.hpp"

#include <limits>

namespace ndnlab::fw {

/// Calls `v` with every field of ForwarderOptions, in the order of the daemon's reference.
template<typename Visitor>
void visitFields(std::type_identity<ForwarderOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = ForwarderOptions;
  constexpr double MaxCount = static_cast<double>(std::numeric_limits<int64_t>::max());
  constexpr unsigned Hosts = Ns3; // and ndnlabd's key in `section`
  v(field<O>({.name = "cs-max-packets",
              .doc = "Content Store capacity in Data packets; 0 disables caching",
              .range = Range::closed(0, MaxCount),
              .attribute = "CsSize",
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.csCapacity)));
  v(field<O>({.name = "cs-max-bytes",
              .doc = "Content Store bound on the total wire size of cached Data, bytes; 0 = none",
              .range = Range::closed(0, MaxCount),
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.csMaxBytes)));
  v(field<O>({.name = "cs-scan-limit",
              .doc = "CanBePrefix lookups examine at most this many cached Data; 0 = unlimited",
              .range = Range::closed(0, MaxCount),
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.csScanLimit)));
  v(field<O>(
    {.name = "cs-admit", .doc = "insert incoming Data into the Content Store", .hosts = Hosts, .section = "tables"},
    NDNLAB_FIELD_REF(o.csAdmit)));
  v(field<O>(
    {.name = "cs-serve", .doc = "answer Interests from the Content Store", .hosts = Hosts, .section = "tables"},
    NDNLAB_FIELD_REF(o.csServe)));
  v(enumField<O>({.name = "cs-unsolicited-policy",
                  .doc = "unsolicited Data: drop-all, admit-local, admit-network, admit-all",
                  .attribute = "UnsolicitedDataPolicy",
                  .hosts = Hosts,
                  .section = "tables"},
                 NDNLAB_FIELD_REF(o.unsolicitedDataPolicy), &toString, &parseUnsolicitedDataPolicy,
                 {UnsolicitedDataPolicy::DropAll, UnsolicitedDataPolicy::AdmitLocal,
                  UnsolicitedDataPolicy::AdmitNetwork, UnsolicitedDataPolicy::AdmitAll}));
  v(field<O>({.name = "pit-max-entries",
              .doc = "PIT capacity; Interests that would create more entries are dropped (pit_full)",
              .range = Range::closed(1, MaxCount),
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.pitMaxEntries)));
  v(field<O>({.name = "pit-max-in-records-per-face",
              .doc = "hard cap on the PIT in-records of one downstream face; 0 = none",
              .range = Range::closed(0, MaxCount),
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.pitMaxInRecordsPerFace)));
  v(field<O>({.name = "pit-share-factor",
              .doc = "PIT fair share: a face may hold at most this factor x the free PIT entries; 0 = off",
              .range = Range::closed(0, 1000),
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.pitShareFactor)));
  v(field<O>({.name = "pit-max-lifetime",
              .doc = "cap on the InterestLifetime used for PIT records",
              .range = Range::closed(1, 1e12),
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.pitMaxLifetime)));
  v(field<O>({.name = "dnl-lifetime",
              .doc = "how long the Dead Nonce List remembers a nonce",
              .range = Range::closed(toMillis(table::DeadNonceList::MinLifetime), 1e12),
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.dnlLifetime)));
  v(field<O>({.name = "dnl-max-entries",
              .doc = "Dead Nonce List capacity (oldest evicted first)",
              .range = Range::closed(1, MaxCount),
              .attribute = "DnlCapacity",
              .hosts = Hosts,
              .section = "tables"},
             NDNLAB_FIELD_REF(o.dnlCapacity)));
  v(field<O>({.name = "default-hop-limit",
              .doc = "HopLimit added to Interests that carry none; 0 = off",
              .range = Range::closed(0, 255),
              .hosts = Hosts,
              .section = "forwarder"},
             NDNLAB_FIELD_REF(o.defaultHopLimit)));
  // MIRCC on the faces where it is enabled (core/fw/mircc-fields.hpp)
  fw::visitMirccFields<O>(v, Hosts, "forwarder");
}

} // namespace ndnlab::fw
