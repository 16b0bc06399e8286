// IVF (core/stream/ivf.hpp): the reader takes frames and their key flags out of a stream fed in
// any pieces, the writer's bytes read back the same, and each kind of malformed input is refused
// with an IvfError that says what is wrong.

#include "core/stream/ivf.hpp"

#include <gtest/gtest.h>

namespace ndnlab::stream::tests {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes ivf(const IvfHeader& h, const std::vector<std::pair<uint64_t, Bytes>>& frames)
{
  Bytes out = ivfFileHeader(h);
  for (const auto& [ts, data] : frames) {
    Bytes fh = ivfFrameHeader(static_cast<uint32_t>(data.size()), ts);
    out.insert(out.end(), fh.begin(), fh.end());
    out.insert(out.end(), data.begin(), data.end());
  }
  return out;
}

// VP8 frame tags: bit 0 clear = key frame
const Bytes Vp8Key{0x50, 0x42, 0x00, 0x9d, 0x01, 0x2a}, Vp8Delta{0x51, 0x02, 0x00};

TEST(Ivf, ReadsFramesAndKeyFlagsFedInAnyPieces)
{
  IvfHeader h{.fourcc = "VP80", .width = 640, .height = 360, .rate = 30, .scale = 1, .frameCount = 3};
  const Bytes file = ivf(h, {{0, Vp8Key}, {1, Vp8Delta}, {2, Vp8Delta}});
  for (size_t piece : {file.size(), size_t{1}, size_t{7}}) {
    IvfReader r;
    std::vector<IvfFrame> got;
    for (size_t off = 0; off < file.size(); off += piece) {
      r.feed(std::span(file).subspan(off, std::min(piece, file.size() - off)));
      while (auto f = r.next())
        got.push_back(std::move(*f));
    }
    EXPECT_NO_THROW(r.finish());
    ASSERT_TRUE(r.header());
    EXPECT_EQ(r.header()->fourcc, "VP80");
    EXPECT_EQ(r.header()->width, 640);
    EXPECT_EQ(r.header()->rate, 30u);
    ASSERT_EQ(got.size(), 3u) << "pieces of " << piece;
    EXPECT_EQ(got[0].data, Vp8Key);
    EXPECT_EQ(got[0].key, true);
    EXPECT_EQ(got[1].key, false);
    EXPECT_EQ(got[2].timestamp, 2u);
  }
}

TEST(Ivf, Vp9KeyFlagFromTheUncompressedHeader)
{
  EXPECT_EQ(isKeyFrame("VP90", Bytes{0x80}), true) << "marker 10, profile 0, shown, KEY_FRAME";
  EXPECT_EQ(isKeyFrame("VP90", Bytes{0x84}), false) << "NON_KEY_FRAME";
  EXPECT_EQ(isKeyFrame("VP90", Bytes{0x88}), false) << "show_existing_frame";
  EXPECT_EQ(isKeyFrame("VP90", Bytes{0xB0}), true) << "profile 3 has a reserved bit first";
  EXPECT_EQ(isKeyFrame("VP90", Bytes{0x40}), std::nullopt) << "bad frame marker";
  EXPECT_EQ(isKeyFrame("AV01", Bytes{0x12}), std::nullopt) << "another codec";
  EXPECT_EQ(isKeyFrame("VP80", Bytes{}), std::nullopt);
}

TEST(Ivf, LongerHeaderIsSkipped)
{
  Bytes file = ivf({}, {{5, Vp8Key}});
  file[6] = 40; // header length 40: eight more bytes before the first frame
  file.insert(file.begin() + 32, 8, 0xee);
  IvfReader r;
  r.feed(file);
  auto f = r.next();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->timestamp, 5u);
  EXPECT_EQ(f->data, Vp8Key);
}

void expectRefused(const Bytes& file, const std::string& fragment, size_t maxFrame = IvfReader::DefaultMaxFrame)
{
  IvfReader r(maxFrame);
  try {
    r.feed(file);
    while (r.next()) {}
    r.finish();
    ADD_FAILURE() << "accepted; expected an error containing \"" << fragment << "\"";
  }
  catch (const IvfError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Ivf, MalformedInputIsRefusedWithWhatIsWrong)
{
  const Bytes good = ivf({}, {{0, Vp8Key}, {1, Vp8Delta}});
  Bytes bad = good;
  bad[0] = 'X';
  expectRefused(bad, "DKIF");
  bad = good;
  bad[4] = 1;
  expectRefused(bad, "version 1");
  bad = good;
  bad[6] = 20;
  expectRefused(bad, "below 32");
  bad = good;
  bad[16] = bad[17] = bad[18] = bad[19] = 0;
  expectRefused(bad, "time base");
  expectRefused(Bytes(good.begin(), good.begin() + 20), "inside the IVF header");
  expectRefused(Bytes(good.begin(), good.begin() + 38), "inside the header of frame 0");
  expectRefused(Bytes(good.begin(), good.end() - 1), "inside frame 1");
  expectRefused(Bytes{}, "empty input");
  expectRefused(good, "more than the limit", 4); // a 6-byte frame against a 4-byte limit
}

TEST(Ivf, WriterRefusesABadFourcc)
{
  EXPECT_THROW(ivfFileHeader(IvfHeader{.fourcc = "VP8"}), std::invalid_argument);
}

} // namespace
} // namespace ndnlab::stream::tests
