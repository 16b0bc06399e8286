#pragma once
// The fields of MirccOptions, declared once (core/runtime/fields.hpp), for the hosts that hold
// them: the forwarder (ForwarderOptions::mircc, listed by core/fw/forwarder-fields.hpp), whose
// fields become ndnlabd's [forwarder] mircc_* keys and NdnStack's Mircc* ns-3 attributes.
//
// Not listed: `capacity` (each face's own: its link's rate, given per face by `ndnlab ctl` and
// taken from the device's DataRate in ns-3) and `minRate` (the hosts have no Rate field kind;
// its default is the implementation's).

#include "core/fw/mircc.hpp"
#include "core/runtime/fields.hpp"

#include <limits>
#include <string_view>

namespace ndnlab::fw {

/// Calls `v` with every field of the MirccOptions that `O` holds as `o.mircc`, for the hosts
/// `hosts` and in ndnlabd's `section`.
template<typename O, typename Visitor>
void visitMirccFields(Visitor&& v, unsigned hosts, std::string_view section)
{
  using namespace ndnlab::fields;
  constexpr double MaxMs = 1e12;
  constexpr double MaxCount = static_cast<double>(std::numeric_limits<int64_t>::max());

  v(field<O>({.name = "mircc-interval",
              .doc = "router interval T: the rate R(t) is recomputed once per T",
              .range = Range::positive(MaxMs),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.interval)));
  v(field<O>({.name = "mircc-ewma-weight",
              .doc = "EWMA weight of the previous base and excess rates (paper 0.5, mircc-1 0.8)",
              .range = Range{0, 1, false, true},
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.ewmaWeight)));
  v(field<O>({.name = "mircc-eta",
              .doc = "share of the capacity the rates fill, eta (paper 1, mircc-1 0.99)",
              .range = Range::fraction(true),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.eta)));
  v(field<O>({.name = "mircc-beta",
              .doc = "gain of the queue term beta x g(t) / d of the base rate",
              .range = Range::nonNegative(),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.beta)));
  v(field<O>({.name = "mircc-dynamic-beta",
              .doc = "raise beta to the relative growth of y(t) while y grows (mircc-1)",
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.dynamicBeta)));
  v(field<O>({.name = "mircc-delay-gain",
              .doc = "weight of a new Interest-to-Data delay sample in the smoothed delay d",
              .range = Range::fraction(true),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.delayGain)));
  v(field<O>({.name = "mircc-initial-delay",
              .doc = "smoothed Interest-to-Data delay d before the first sample",
              .range = Range::positive(MaxMs),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.initialDelay)));
  v(field<O>({.name = "mircc-initial-share",
              .doc = "rate before the first update, as a share of eta x capacity",
              .range = Range::fraction(true),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.initialShare)));
  v(field<O>({.name = "mircc-data-size",
              .doc = "size of one Data on the link, which turns Interest counts into bits: y(t), g(t) and the "
                     "shaper's pace C / size (paper 1,250)",
              .unit = "bytes",
              .range = Range::closed(1, 1e6),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.dataSize)));
  v(field<O>({.name = "mircc-shaper-depth",
              .doc = "Interests the per-face shaper holds; more are dropped (shaper_full)",
              .unit = "Interests",
              .range = Range::closed(1, MaxCount),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.shaperDepth)));
  v(field<O>({.name = "mircc-shaper-hold",
              .doc = "the shaper holds at least this long of Interests at the face's capacity, beyond "
                     "mircc-shaper-depth (a coarse clock's tick); 0 = the depth alone",
              .range = Range::nonNegative(MaxMs),
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.shaperHold)));
  v(field<O>({.name = "mircc-update-on-arrival",
              .doc = "recompute the rate on the first Interest or Data after T, with no timer of its own",
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.updateOnArrival)));
  v(field<O>({.name = "mircc-queue-stamping",
              .doc = "stamp the rate x the free share of the shaper, so a filling shaper lowers it before the next "
                     "update",
              .hosts = hosts,
              .section = section},
             NDNLAB_FIELD_REF(o.mircc.queueStamping)));
}

} // namespace ndnlab::fw
