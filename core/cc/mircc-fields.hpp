#pragma once
// The fields of MirccOptions, declared once (core/runtime/fields.hpp), for the hosts that will
// expose MIRCC: the forwarder's face options in ndnlabd, the ns-3 attributes and the
// mircc-dumbbell scenario parameters (issue 28). No host walks this list yet.
//
// Not listed: `capacity` and `minRate` (Rate) and `dataSize` (Bytes), because the hosts have no
// Rate or Bytes field kind yet; and `capacity` is each face's own (its link's rate, the
// device's DataRate), not one knob for every face, as LinkServiceOptions leaves out what each
// face decides for itself.

#include "core/cc/mircc.hpp"
#include "core/runtime/fields.hpp"

#include <limits>
#include <type_traits>

namespace ndnlab::cc {

/// Calls `v` with every field of MirccOptions that a host can expose.
template<typename Visitor>
void visitFields(std::type_identity<MirccOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = MirccOptions;
  constexpr double MaxMs = 1e12;
  constexpr double MaxCount = static_cast<double>(std::numeric_limits<int64_t>::max());

  v(field<O>({.name = "mircc-interval",
              .doc = "router interval T: the rate R(t) is recomputed once per T",
              .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.interval)));
  v(field<O>({.name = "mircc-ewma-weight",
              .doc = "EWMA weight of the previous base and excess rates (paper 0.5, mircc-1 0.8)",
              .range = Range{0, 1, false, true}},
             NDNLAB_FIELD_REF(o.ewmaWeight)));
  v(field<O>({.name = "mircc-eta",
              .doc = "share of the capacity the rates fill, eta (paper 1, mircc-1 0.99)",
              .range = Range::fraction(true)},
             NDNLAB_FIELD_REF(o.eta)));
  v(field<O>({.name = "mircc-beta",
              .doc = "gain of the queue term beta x g(t) / d of the base rate",
              .range = Range::nonNegative()},
             NDNLAB_FIELD_REF(o.beta)));
  v(field<O>({.name = "mircc-dynamic-beta", .doc = "raise beta to the relative growth of y(t) while y grows (mircc-1)"},
             NDNLAB_FIELD_REF(o.dynamicBeta)));
  v(field<O>({.name = "mircc-delay-gain",
              .doc = "weight of a new Interest-to-Data delay sample in the smoothed delay d",
              .range = Range::fraction(true)},
             NDNLAB_FIELD_REF(o.delayGain)));
  v(field<O>({.name = "mircc-initial-delay",
              .doc = "smoothed Interest-to-Data delay d before the first sample",
              .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.initialDelay)));
  v(field<O>({.name = "mircc-initial-share",
              .doc = "rate before the first update, as a share of eta x capacity",
              .range = Range::fraction(true)},
             NDNLAB_FIELD_REF(o.initialShare)));
  v(field<O>({.name = "mircc-shaper-depth",
              .doc = "Interests the per-face shaper holds; more are dropped (shaper_full)",
              .unit = "Interests",
              .range = Range::closed(1, MaxCount)},
             NDNLAB_FIELD_REF(o.shaperDepth)));
}

} // namespace ndnlab::cc
