// The testable pieces of `ndnlab stream publish/play` (tools/stream/stream-pieces.hpp): the
// --input and --synthetic syntax, synthetic frame sizes, the IVF output that ffprobe reads back
// (through our own reader here), and the status line.

#include "tools/stream/stream-pieces.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

namespace ndnlab::tools::streamtool {
namespace {

using namespace std::chrono_literals;

TEST(StreamPieces, InputSpecs)
{
  std::string why;
  auto a = parseInputSpec("200k=low.ivf", why);
  ASSERT_TRUE(a) << why;
  EXPECT_EQ(a->thread, "200k");
  EXPECT_EQ(a->bitrate.bps(), 200e3);
  EXPECT_EQ(a->path, "low.ivf");
  auto b = parseInputSpec("1.5M=-", why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->bitrate.bps(), 1.5e6);
  EXPECT_EQ(b->path, "-");
  auto c = parseInputSpec("1000k=dir/a=b.ivf", why);
  ASSERT_TRUE(c) << why;
  EXPECT_EQ(c->path, "dir/a=b.ivf") << "the first '=' splits";
  for (const char* bad : {"low.ivf", "=low.ivf", "0k=low.ivf", "fast=low.ivf", "200k=", "-5k=x"}) {
    why.clear();
    EXPECT_FALSE(parseInputSpec(bad, why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

TEST(StreamPieces, SyntheticLists)
{
  std::string why;
  auto t = parseSyntheticList("200k,1000k,3000k", why);
  ASSERT_TRUE(t) << why;
  ASSERT_EQ(t->size(), 3u);
  EXPECT_EQ((*t)[0].name, "200k");
  EXPECT_EQ((*t)[2].bitrate.bps(), 3e6);
  for (const char* bad : {"", "200k,", ",200k", "200k,200k", "200k,0", "x"}) {
    why.clear();
    EXPECT_FALSE(parseSyntheticList(bad, why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

TEST(StreamPieces, SyntheticSizesAverageTheBitrateOverAGop)
{
  for (size_t gop : {1, 10, 30, 60}) {
    const auto s = syntheticSizes(Rate::kbps(1000), 30, gop);
    const double gopBytes = static_cast<double>(s.key) + static_cast<double>(gop - 1) * static_cast<double>(s.delta);
    EXPECT_NEAR(gopBytes * 8 / (static_cast<double>(gop) / 30), 1e6, 1e6 * 0.01) << gop;
    if (gop > 1) {
      EXPECT_NEAR(static_cast<double>(s.key) / static_cast<double>(s.delta), SyntheticSizes::KeyToDelta, 0.01);
    }
  }
  const auto tiny = syntheticSizes(Rate::bitsPerSecond(1), 30, 30);
  EXPECT_GE(tiny.delta, 1u) << "never an empty frame";
}

TEST(StreamPieces, IvfFrameRateFromTheTimeBase)
{
  stream::IvfHeader h;
  h.rate = 30;
  h.scale = 1;
  EXPECT_EQ(ivfFrameRate(h), std::optional<double>(30));
  h.rate = 30000;
  h.scale = 1001;
  EXPECT_NEAR(*ivfFrameRate(h), 29.97, 0.01);
  h.rate = 1000; // a millisecond time base says nothing of the frame rate
  h.scale = 1;
  EXPECT_EQ(ivfFrameRate(h), std::nullopt);
  h.rate = 0;
  EXPECT_EQ(ivfFrameRate(h), std::nullopt);
}

std::vector<uint8_t> vp8KeyFrame(uint16_t w, uint16_t h)
{
  // frame tag (key: bit 0 clear), start code 9d 01 2a, 14-bit width and height, then bytes
  std::vector<uint8_t> f = {0x10,
                            0x02,
                            0x00,
                            0x9d,
                            0x01,
                            0x2a,
                            static_cast<uint8_t>(w),
                            static_cast<uint8_t>(w >> 8),
                            static_cast<uint8_t>(h),
                            static_cast<uint8_t>(h >> 8),
                            1,
                            2,
                            3};
  return f;
}

TEST(StreamPieces, IvfHeaderReadFromTheFirstFrame)
{
  auto vp8 = ivfHeaderFor(vp8KeyFrame(320, 240), 30);
  EXPECT_EQ(vp8.fourcc, "VP80");
  EXPECT_EQ(vp8.width, 320);
  EXPECT_EQ(vp8.height, 240);
  EXPECT_EQ(static_cast<double>(vp8.rate) / vp8.scale, 30);
  const std::vector<uint8_t> vp9 = {0x82, 0x49, 0x83, 0x42, 0x00};
  EXPECT_EQ(ivfHeaderFor(vp9, 25).fourcc, "VP90");
  const std::vector<uint8_t> other = {0x11, 0x22};
  EXPECT_EQ(ivfHeaderFor(other, 30).fourcc, "VP80");
  EXPECT_EQ(ivfHeaderFor(other, 30).width, 0);
}

TEST(StreamPieces, IvfOutputReadsBackWithTheFrameCount)
{
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  IvfOutput out(f, 30);
  const auto key = vp8KeyFrame(320, 240);
  const std::vector<uint8_t> delta = {0x01, 0x02, 0x03, 0x04};
  ASSERT_TRUE(out.write(60, key));
  ASSERT_TRUE(out.write(61, delta));
  ASSERT_TRUE(out.write(63, delta)); // 62 was skipped: the timestamps keep the gap
  ASSERT_TRUE(out.finish());
  EXPECT_EQ(out.frames(), 3u);

  std::rewind(f);
  std::vector<uint8_t> bytes;
  int c;
  while ((c = std::fgetc(f)) != EOF)
    bytes.push_back(static_cast<uint8_t>(c));
  std::fclose(f);
  stream::IvfReader r;
  r.feed(bytes);
  std::vector<uint64_t> ts;
  while (auto fr = r.next())
    ts.push_back(fr->timestamp);
  r.finish(); // nothing left over: whole frames only
  ASSERT_TRUE(r.header());
  EXPECT_EQ(r.header()->frameCount, 3u);
  EXPECT_EQ(r.header()->width, 320);
  EXPECT_EQ(ts, (std::vector<uint64_t>{0, 1, 3}));
}

TEST(StreamPieces, IvfOutputWithoutFramesIsAValidEmptyFile)
{
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  IvfOutput out(f, 30);
  ASSERT_TRUE(out.finish());
  EXPECT_EQ(std::ftell(f), 32);
  std::fclose(f);
}

TEST(StreamPieces, StatusLineShowsStateBitrateBufferLatencyLosses)
{
  PlayStatus s{stream::StreamConsumer::State::Fetching, "500k", Rate::kbps(520), 200ms, 180ms, 120.0, 30, 1, 0};
  EXPECT_EQ(statusLine(s),
            "fetching 500k  0.52 Mbit/s  buffer 200/180 ms  latency 120 ms  rendered 30  lost 1  stalls 0");
  s.latencyMs.reset();
  s.thread.clear();
  s.state = stream::StreamConsumer::State::WaitInitial;
  EXPECT_EQ(statusLine(s).rfind("wait-initial  0.52 Mbit/s", 0), 0u) << statusLine(s);
}

TEST(StreamPieces, ReceivedOctetsFromProcNetDev)
{
  // Linux's header and three interfaces, each line cut after its transmitted bytes
  const std::string_view dev = "Inter-|   Receive                                                |  Transmit\n"
                               " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets\n"
                               "    lo:  900000     100    0    0    0     0          0         0   900000\n"
                               "  tap0:    1500      10    0    0    0     0          0         0      700\n"
                               "veth-r:12345678901      20    0    0    0     0          0         0       1\n";
  EXPECT_EQ(receivedOctets(dev, "tap0"), 1500u);
  EXPECT_EQ(receivedOctets(dev, "veth-r"), 12345678901u) << "no space after the colon";
  EXPECT_EQ(receivedOctets(dev), 1500u + 12345678901u) << "every interface but the loopback";
  EXPECT_EQ(receivedOctets(dev, "lo"), 900000u);
  EXPECT_EQ(receivedOctets(dev, "eth9"), std::nullopt);
  EXPECT_EQ(receivedOctets("  eth0: x 1 2\n", "eth0"), std::nullopt);
  EXPECT_EQ(receivedOctets(""), 0u) << "no interface but the loopback: nothing received";
}

} // namespace
} // namespace ndnlab::tools::streamtool
