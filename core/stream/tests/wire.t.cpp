// The stream's names and wire formats (core/stream/wire.hpp): typed components in the Fig. 9
// names, the segment header and the metadata round trip, and malformed ones refused with a
// reason that names the field.

#include "core/stream/wire.hpp"

#include <gtest/gtest.h>

namespace ndnlab::stream::tests {
namespace {

using namespace std::chrono_literals;

TEST(StreamWire, NamesCarryTypedComponents)
{
  const Name base = streamBase("/alice", "camera");
  EXPECT_EQ(base, Name("/alice/camera"));
  const Name n = segmentName(base, "hi", FrameType::Delta, 17, SegmentKind::Parity, 2);
  EXPECT_EQ(n, Name("/alice/camera/hi/delta/seq=17/parity/seg=2"));
  EXPECT_TRUE(n[-3].isSequenceNumber());
  EXPECT_EQ(n[-3].toNumber(), std::optional<uint64_t>(17));
  EXPECT_TRUE(n[-1].isSegment());
  EXPECT_TRUE(n[-2].isGeneric());
  EXPECT_EQ(frameName(base, "lo", FrameType::Key, 3), Name("/alice/camera/lo/key/seq=3"));
  EXPECT_EQ(metaName(base), Name("/alice/camera/_meta"));

  auto p = parseStreamName(base, n);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_FALSE(p->meta);
  EXPECT_EQ(p->thread, "hi");
  EXPECT_EQ(p->type, FrameType::Delta);
  EXPECT_EQ(p->frame, 17u);
  EXPECT_EQ(p->kind, std::optional<SegmentKind>(SegmentKind::Parity));
  EXPECT_EQ(p->segment, std::optional<uint64_t>(2));

  auto frameOnly = parseStreamName(base, Name("/alice/camera/hi/key/seq=4"));
  ASSERT_TRUE(frameOnly.ok());
  EXPECT_EQ(frameOnly->type, FrameType::Key);
  EXPECT_FALSE(frameOnly->kind);
  EXPECT_TRUE(parseStreamName(base, Name("/alice/camera/_meta")).value().meta);
}

TEST(StreamWire, BadNamesRefusedWithTheReason)
{
  const Name base("/alice/camera");
  auto refused = [&](const char* uri, std::string_view why) {
    auto p = parseStreamName(base, Name(uri));
    ASSERT_FALSE(p.ok()) << uri;
    EXPECT_NE(p.error().message.find(why), std::string::npos) << p.error().message;
  };
  refused("/alice/camera", "names no frame");
  refused("/alice/camera/hi/delta", "names no frame");
  refused("/alice/camera/hi/audio/seq=1", "`key` or `delta` expected");
  refused("/alice/camera/hi/delta/1", "not a sequence number");
  refused("/alice/camera/hi/delta/seq=1/fec/seg=0", "`data` or `parity` expected");
  refused("/alice/camera/hi/delta/seq=1/data/0", "not a segment number");
  refused("/alice/camera/hi/delta/seq=1/data/seg=0/extra", "unexpected component");
}

SegmentHeader sample()
{
  SegmentHeader h;
  h.dataSegments = 3;
  h.paritySegments = 1;
  h.frameLength = 2500;
  h.generationDelay = 41ms + 250us;
  h.playbackNumber = 1234;
  h.gopKey = 41;
  h.captureTime = UnixMillis(1'700'000'000'123);
  return h;
}

Buffer contentOf(const SegmentHeader& h, size_t payload)
{
  Buffer c;
  encodeSegmentHeader(c, h);
  c.insert(c.end(), payload, 0xAB);
  return c;
}

TEST(StreamWire, SegmentHeaderRoundTrip)
{
  const SegmentHeader h = sample();
  Buffer c = contentOf(h, 834);
  auto d = decodeSegmentContent(c);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->header, h);
  EXPECT_EQ(d->payload.size(), 834u);
  EXPECT_EQ(d->payload.data(), c.data() + c.size() - 834) << "the payload is a view into the Content";

  SegmentHeader noGop = h;
  noGop.gopKey.reset();
  noGop.generationDelay = 0ms;
  auto d2 = decodeSegmentContent(contentOf(noGop, 834));
  ASSERT_TRUE(d2.ok()) << d2.error().message;
  EXPECT_EQ(d2->header, noGop);

  SegmentHeader empty;
  empty.frameLength = 0;
  auto d3 = decodeSegmentContent(contentOf(empty, 0));
  ASSERT_TRUE(d3.ok()) << "an empty frame is one empty segment: " << d3.error().message;
}

TEST(StreamWire, SegmentHeaderUnknownNonCriticalFieldSkipped)
{
  Buffer v;
  appendTlvNonNegInt(v, tlv::DataSegmentCount, 1);
  appendTlvNonNegInt(v, 200, 7); // even: not critical
  appendTlvNonNegInt(v, tlv::ParitySegmentCount, 0);
  appendTlvNonNegInt(v, tlv::FrameLength, 10);
  appendTlvNonNegInt(v, tlv::GenerationDelay, 0);
  appendTlvNonNegInt(v, tlv::PlaybackNumber, 0);
  appendTlvNonNegInt(v, tlv::CaptureTime, 0);
  Buffer c;
  appendTlv(c, tlv::StreamSegmentHeader, v);
  c.insert(c.end(), 10, 1);
  EXPECT_TRUE(decodeSegmentContent(c).ok());
}

TEST(StreamWire, MalformedSegmentHeaderRefusedWithTheField)
{
  auto refused = [](const Buffer& c, std::string_view why) {
    auto d = decodeSegmentContent(c);
    ASSERT_FALSE(d.ok()) << why;
    EXPECT_NE(d.error().message.find(why), std::string::npos) << d.error().message;
  };
  const Buffer good = contentOf(sample(), 834);

  refused(Buffer(), "truncated");
  refused(Buffer(good.begin(), good.begin() + 5), "in StreamSegmentHeader (161)");
  Buffer payloadOnly(834, 0xAB);
  payloadOnly[0] = 0x15; // Content without a header
  refused(payloadOnly, "not StreamSegmentHeader");

  auto withFields = [](auto&& fill, size_t payload) {
    Buffer v;
    fill(v);
    Buffer c;
    appendTlv(c, tlv::StreamSegmentHeader, v);
    c.insert(c.end(), payload, 0);
    return c;
  };
  auto all = [](Buffer& v, uint64_t k, uint64_t m, uint64_t len) {
    appendTlvNonNegInt(v, tlv::DataSegmentCount, k);
    appendTlvNonNegInt(v, tlv::ParitySegmentCount, m);
    appendTlvNonNegInt(v, tlv::FrameLength, len);
    appendTlvNonNegInt(v, tlv::GenerationDelay, 0);
    appendTlvNonNegInt(v, tlv::PlaybackNumber, 0);
    appendTlvNonNegInt(v, tlv::CaptureTime, 0);
  };
  refused(withFields(
            [](Buffer& v) {
              appendTlvNonNegInt(v, tlv::DataSegmentCount, 1);
              appendTlvNonNegInt(v, tlv::ParitySegmentCount, 0);
            },
            10),
          "FrameLength (167) missing");
  refused(withFields(
            [&](Buffer& v) {
              all(v, 1, 0, 10);
              appendTlvNonNegInt(v, 201, 1); // odd: critical
            },
            10),
          "unknown critical field 201");
  refused(withFields(
            [&](Buffer& v) {
              all(v, 1, 0, 10);
              appendTlvNonNegInt(v, tlv::FrameLength, 10);
            },
            10),
          "FrameLength (167) repeated");
  refused(withFields(
            [&](Buffer& v) {
              appendTlv(v, tlv::DataSegmentCount, Buffer{1, 2, 3});
            },
            10),
          "DataSegmentCount (163) is not a NonNegativeInteger");
  refused(withFields([&](Buffer& v) { all(v, 0, 0, 0); }, 0), "DataSegmentCount is 0");
  refused(withFields([&](Buffer& v) { all(v, 200, 56, 200); }, 1), "exceed 255");
  refused(withFields([&](Buffer& v) { all(v, 2, 1, 2500); }, 834), "takes 3 data segments, yet DataSegmentCount is 2");
  refused(withFields([&](Buffer& v) { all(v, 4, 1, 2500); }, 834), "takes 3 data segments, yet DataSegmentCount is 4");
  refused(withFields([&](Buffer& v) { all(v, 1, 0, 5); }, 0), "empty payload");
}

TEST(StreamWire, MetadataRoundTripAndRefusal)
{
  StreamMeta m;
  m.sampleRate = 29.97;
  m.threads.push_back({"lo", Rate::kbps(200), 3, 91});
  m.threads.push_back({"hi", Rate::kbps(3000), std::nullopt, std::nullopt});
  Buffer wire = encodeStreamMeta(m);
  auto d = decodeStreamMeta(wire);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(*d, m);

  auto refused = [](const Buffer& c, std::string_view why) {
    auto r = decodeStreamMeta(c);
    ASSERT_FALSE(r.ok()) << why;
    EXPECT_NE(r.error().message.find(why), std::string::npos) << r.error().message;
  };
  StreamMeta none;
  refused(encodeStreamMeta(none), "no StreamThread");
  Buffer noRate;
  Buffer t;
  appendTlv(t, tlv::ThreadName, asBytes("x"));
  appendTlvNonNegInt(t, tlv::Bitrate, 1);
  Buffer v;
  appendTlv(v, tlv::StreamThread, t);
  appendTlv(noRate, tlv::StreamMeta, v);
  refused(noRate, "SampleRate (179) missing");
  Buffer trailing = wire;
  trailing.push_back(0);
  refused(trailing, "stream metadata");
}

TEST(StreamWire, EndMarkerIsMetadataWithFrameCount)
{
  StreamMeta m;
  m.threads.push_back({"lo", Rate::kbps(200), 3, 91, 96});
  Buffer wire = encodeStreamMeta(m);
  auto d = decodeStreamMeta(wire);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->threads[0].frameCount, std::optional<uint64_t>(96));
  EXPECT_TRUE(isEndMarker(wire));
  Buffer seg;
  encodeSegmentHeader(seg, SegmentHeader{});
  EXPECT_FALSE(isEndMarker(seg)) << "a segment is not the marker";
  EXPECT_FALSE(isEndMarker(Buffer{})) << "nor is an empty Content";
}

} // namespace
} // namespace ndnlab::stream::tests
