#pragma once
// The fields of StreamConsumerOptions, declared once (core/runtime/fields.hpp): the flags of
// `ndnlab stream play` (docs/tools.md, `ndnlab stream play --print-options-table`, checked);
// the attributes of the ns-3 stream consumer application will come from this list too.

#include "core/runtime/fields.hpp"
#include "core/stream/consumer.hpp"

namespace ndnlab::stream {

/// Calls `v` with every field of StreamConsumerOptions.
template<typename Visitor>
void visitFields(std::type_identity<StreamConsumerOptions>, Visitor&& v)
{
  using namespace ndnlab::fields;
  using O = StreamConsumerOptions;
  constexpr double MaxMs = 1e12;
  v(field<O>({.name = "stream", .doc = "The stream's name component under the prefix"}, NDNLAB_FIELD_REF(o.stream)));
  v(field<O>({.name = "thread", .doc = "Thread (bitrate) to start on; empty: the lowest bitrate"},
             NDNLAB_FIELD_REF(o.thread)));
  v(field<O>({.name = "initial-pipeline",
              .doc = "lambda_p^0, frames in the pipeline when Chasing starts; 0: Eq. (1) from initial-drd",
              .unit = "frames",
              .range = Range::closed(0, 4096),
              .flags = "--initial-pipeline,--lambda0"},
             NDNLAB_FIELD_REF(o.initialPipeline)));
  v(field<O>({.name = "initial-drd", .doc = "DRD estimate before any sample", .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.initialDrd)));
  v(field<O>({.name = "drd-window", .doc = "DRD' averaging window", .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.drdWindow)));
  v(field<O>({.name = "stability", .doc = "Latest-data detection parameter set (Eq. 3)"}, NDNLAB_FIELD_REF(o.stability),
             {"low", "medium", "high"}));
  v(field<O>({.name = "chase-at-demand",
              .doc = "Chasing raises a pipeline below Eq. (1)'s demand from the measured DRD at once"},
             NDNLAB_FIELD_REF(o.chaseAtDemand)));
  v(field<O>({.name = "early-playout",
              .doc = "Rendering may begin in Chasing once fresh data came and the buffer holds its target"},
             NDNLAB_FIELD_REF(o.earlyPlayout)));
  v(field<O>({.name = "detection-period",
              .doc = "Wait after each pipeline change; 0: automatic",
              .range = Range::nonNegative(MaxMs)},
             NDNLAB_FIELD_REF(o.detectionPeriod)));
  v(field<O>({.name = "max-pipeline",
              .doc = "Bursting stops at this many frames",
              .unit = "frames",
              .range = Range::closed(1, 4096)},
             NDNLAB_FIELD_REF(o.maxPipeline)));
  v(field<O>({.name = "alpha", .doc = "Jitter weight of the target playable size", .range = Range::nonNegative()},
             NDNLAB_FIELD_REF(o.alpha)));
  v(field<O>({.name = "beta", .doc = "DRD_est weight of the target playable size", .range = Range::nonNegative()},
             NDNLAB_FIELD_REF(o.beta)));
  v(field<O>({.name = "gamma",
              .doc = "Retransmission checkpoint, in DRD_est before the playout deadline",
              .range = Range::fraction(true)},
             NDNLAB_FIELD_REF(o.gamma)));
  v(field<O>({.name = "recovery",
              .doc = "Loss recovery: checkpoint (the paper: once, gamma x DRD_est before the deadline) or repeat "
                     "(until the deadline)"},
             NDNLAB_FIELD_REF(o.recovery), {"checkpoint", "repeat"}));
  v(field<O>({.name = "residual-loss",
              .doc = "Playout target with room for the Interest rounds that leave a segment missing with at most "
                     "this probability at the measured loss; 0: the paper's target",
              .range = Range::closed(0, 0.5)},
             NDNLAB_FIELD_REF(o.residualLoss)));
  v(field<O>({.name = "max-playout",
              .doc = "Bound of the playout target raised by residual-loss",
              .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.maxPlayout)));
  v(field<O>({.name = "spread-room",
              .doc = "Playout target with room for the spread of capture-to-whole frame delays over the last two "
                     "GOPs (a key frame's serialisation near the link's rate); off: the paper's target"},
             NDNLAB_FIELD_REF(o.spreadRoom)));
  v(field<O>({.name = "catch-up",
              .doc = "Playback may begin this far behind capture, at the oldest complete key frame captured within "
                     "it, and catches up at twice the sample rate; 0: at the newest complete key frame",
              .range = Range::nonNegative(MaxMs)},
             NDNLAB_FIELD_REF(o.catchUp)));
  v(field<O>({.name = "interest-lifetime", .doc = "Lifetime of segment Interests", .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.interestLifetime)));
  v(field<O>({.name = "metadata-lifetime",
              .doc = "Lifetime of metadata Interests, re-issued after it",
              .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.metadataLifetime)));
  v(field<O>({.name = "metadata-retries", .doc = "Metadata re-issues before giving up", .range = Range::closed(0, 1e6)},
             NDNLAB_FIELD_REF(o.metadataRetries)));
  v(field<O>({.name = "assumed-payload",
              .doc = "Segment payload assumed for the first segment-count estimates",
              .unit = "B",
              .range = Range::closed(1, 8800)},
             NDNLAB_FIELD_REF(o.assumedPayload)));
  v(field<O>({.name = "segment-history",
              .doc = "Frames averaged by the segment-count estimators",
              .unit = "frames",
              .range = Range::closed(1, 1000)},
             NDNLAB_FIELD_REF(o.segmentHistory)));
  v(field<O>({.name = "parity-ratio",
              .doc = "Parity Interests per data Interest before a frame tells its own",
              .range = Range::closed(0, 1)},
             NDNLAB_FIELD_REF(o.parityRatio)));
  v(field<O>({.name = "adaptive", .doc = "Bitrate adaptation by Challenge (Sect. 4.1.5)"},
             NDNLAB_FIELD_REF(o.adaptive)));
  v(field<O>({.name = "challenge-interval",
              .doc = "Fetching without congestion before a Challenge",
              .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.challengeInterval)));
  v(field<O>({.name = "challenge-duration", .doc = "Length of one Challenge", .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.challengeDuration)));
  v(field<O>({.name = "challenge-drd-rise",
              .doc = "Share by which DRD_est may grow in a Challenge that passes",
              .range = Range::nonNegative()},
             NDNLAB_FIELD_REF(o.challengeDrdRise)));
  v(field<O>({.name = "challenge-probe",
              .doc = "What a Challenge fetches of the higher thread: full (the paper) or increment (its extra share)"},
             NDNLAB_FIELD_REF(o.challengeProbe), {"full", "increment"}));
  v(field<O>({.name = "congestion-window",
              .doc = "Window over which losses, timeouts, Nacks and stalls are counted",
              .range = Range::positive(MaxMs)},
             NDNLAB_FIELD_REF(o.congestionWindow)));
  v(field<O>({.name = "congestion-events",
              .doc = "Events in the window that switch down or refuse a Challenge",
              .range = Range::closed(1, 1e6)},
             NDNLAB_FIELD_REF(o.congestionEvents)));
  v(field<O>({.name = "bitrate-from-rate",
              .doc =
                "With adaptive, while Data carry MIRCC's explicit rate: switch at the next key frame to the highest "
                "thread whose demand on the path fits under it, instead of the Challenge"},
             NDNLAB_FIELD_REF(o.bitrateFromRate)));
}

} // namespace ndnlab::stream
