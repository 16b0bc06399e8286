#include "io/asio-env.hpp"
#include "io/stream-transport.hpp"
#include "io/tests/io-test-util.hpp"

#include <asio/local/connect_pair.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>

#include <gtest/gtest.h>

namespace ndnlab::io {
namespace {

using namespace std::chrono_literals;
using asio::local::stream_protocol;
using face::TransportState;
using test::makeFrame;
using test::runUntil;

TEST(CheckFrame, Statuses)
{
  Buffer f = makeFrame(tlv::Interest, 10);
  EXPECT_EQ(checkFrame(f, 8800).status, FrameStatus::Complete);
  EXPECT_EQ(checkFrame(f, 8800).size, f.size());
  // Any strict prefix needs more.
  for (size_t n = 0; n < f.size(); ++n)
    EXPECT_EQ(checkFrame(ByteSpan(f).first(n), 8800).status, FrameStatus::NeedMore) << n;
  // Two frames back to back: the first is reported.
  Buffer two = f;
  two.insert(two.end(), f.begin(), f.end());
  EXPECT_EQ(checkFrame(two, 8800).size, f.size());

  // 3-octet length form.
  Buffer big = makeFrame(tlv::Data, 1000);
  EXPECT_EQ(big[1], 0xFD);
  EXPECT_EQ(checkFrame(big, 8800).size, big.size());
  EXPECT_EQ(checkFrame(ByteSpan(big).first(2), 8800).status, FrameStatus::NeedMore);

  // Type 0, non-shortest VAR-NUMBERs.
  Buffer zero{0x00, 0x01, 0xAA};
  EXPECT_EQ(checkFrame(zero, 8800).status, FrameStatus::BadHeader);
  Buffer longType{0xFD, 0x00, 0x05, 0x00};
  EXPECT_EQ(checkFrame(longType, 8800).status, FrameStatus::BadHeader);
  Buffer longLen{0x05, 0xFD, 0x00, 0x10};
  EXPECT_EQ(checkFrame(longLen, 8800).status, FrameStatus::BadHeader);

  // Header announcing more than the limit: known as soon as the header is complete.
  Buffer huge{0x06, 0xFE, 0x00, 0x10, 0x00, 0x00};
  EXPECT_EQ(checkFrame(huge, 8800).status, FrameStatus::TooLarge);
  Buffer justOver = makeFrame(tlv::Data, 8797);
  EXPECT_EQ(justOver.size(), 8801u);
  EXPECT_EQ(checkFrame(justOver, 8800).status, FrameStatus::TooLarge);
  EXPECT_EQ(checkFrame(justOver, 8800).size, 8801u);
  // The value alone fits the limit, the header makes it too large: `size` stops one past the
  // limit, `announced` is the whole frame (found by fuzz/fuzz-io.cpp).
  Buffer valueFits{0x06, 0xFD, 0x22, 0x60};
  EXPECT_EQ(checkFrame(valueFits, 8800).status, FrameStatus::TooLarge);
  EXPECT_EQ(checkFrame(valueFits, 8800).size, 8801u);
  EXPECT_EQ(checkFrame(valueFits, 8800).announced, 8804u);
  Buffer exact = makeFrame(tlv::Data, 8796);
  EXPECT_EQ(checkFrame(exact, 8800).status, FrameStatus::Complete);
}

class StreamTransportTest : public ::testing::Test
{
protected:
  StreamTransportTest() { connect(options); }

  /// A new transport with `opts` over a new socket pair (the old transport and peer are gone).
  void connect(const StreamTransportOptions& opts)
  {
    transport.reset();
    stream_protocol::socket a(io);
    peer = stream_protocol::socket(io);
    asio::local::connect_pair(a, peer);
    TransportInfo info;
    info.localUri = "unix:///test";
    info.remoteUri = "fd://test";
    info.scope = face::FaceScope::Local;
    transport = std::make_unique<UnixStreamTransport>(env, std::move(a), info, opts);
    transport->onReceive = [this](ByteSpan f, face::EndpointId) { received.emplace_back(f.begin(), f.end()); };
    transport->onStateChange = [this](TransportState, TransportState s) { states.push_back(s); };
  }

  void writeRaw(ByteSpan bytes) { asio::write(peer, asio::buffer(bytes.data(), bytes.size())); }

  /// Writes `bytes` without blocking, as fast as the transport reads them, running the loop
  /// until `done` (false after `timeout`).
  bool writeStreamUntil(const Buffer& bytes, const std::function<bool()>& done, std::chrono::milliseconds timeout)
  {
    size_t written = 0;
    peer.non_blocking(true);
    return runUntil(
      io,
      [&] {
        if (written < bytes.size()) {
          std::error_code ec;
          written += peer.write_some(asio::buffer(bytes.data() + written, bytes.size() - written), ec);
        }
        return done();
      },
      timeout);
  }

  asio::io_context io;
  AsioEnv env{io, AsioEnvOptions{.seed = 1, .logLevel = LogLevel::Off}};
  StreamTransportOptions options;
  stream_protocol::socket peer{io};
  std::unique_ptr<UnixStreamTransport> transport;
  std::vector<Buffer> received;
  std::vector<TransportState> states;
};

TEST_F(StreamTransportTest, PacketSplitAcrossReads)
{
  Buffer f = makeFrame(tlv::Data, 3000, 7);
  // Deliver in pieces, letting the transport read between them.
  size_t cuts[] = {1, 2, 3, 500, 2999, f.size()};
  size_t prev = 0;
  for (size_t c : cuts) {
    writeRaw(ByteSpan(f).subspan(prev, c - prev));
    prev = c;
    test::runFor(io, 2ms);
    if (c < f.size()) {
      EXPECT_TRUE(received.empty());
    }
  }
  ASSERT_TRUE(runUntil(io, [&] { return received.size() == 1; }));
  EXPECT_EQ(received[0], f);
  EXPECT_EQ(transport->counters().nInPackets, 1u);
  EXPECT_EQ(transport->counters().nInBytes, f.size());
  EXPECT_EQ(transport->state(), TransportState::Up);
}

TEST_F(StreamTransportTest, SeveralPacketsInOneRead)
{
  Buffer all;
  std::vector<Buffer> frames;
  for (int i = 0; i < 50; ++i) {
    frames.push_back(makeFrame(i % 2 ? tlv::Interest : tlv::LpPacket, 10 + i * 37, static_cast<uint8_t>(i)));
    all.insert(all.end(), frames.back().begin(), frames.back().end());
  }
  // Plus the first half of one more, completed later.
  Buffer last = makeFrame(tlv::Data, 8000, 3);
  all.insert(all.end(), last.begin(), last.begin() + 4000);
  writeRaw(all);
  ASSERT_TRUE(runUntil(io, [&] { return received.size() == 50; }));
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(received[i], frames[i]);
  writeRaw(ByteSpan(last).subspan(4000));
  ASSERT_TRUE(runUntil(io, [&] { return received.size() == 51; }));
  EXPECT_EQ(received[50], last);
}

TEST_F(StreamTransportTest, ManyFramesLargerThanReceiveBuffer)
{
  // 4 MB of frames streamed through a 256 KiB buffer, written from a writer thread-free loop.
  std::vector<Buffer> frames;
  Buffer all;
  for (int i = 0; i < 500; ++i) {
    frames.push_back(makeFrame(tlv::Data, 8000 + i % 700, static_cast<uint8_t>(i)));
    all.insert(all.end(), frames.back().begin(), frames.back().end());
  }
  ASSERT_TRUE(writeStreamUntil(
    all, [&] { return received.size() == frames.size(); }, 10000ms));
  for (size_t i = 0; i < frames.size(); ++i)
    ASSERT_EQ(received[i], frames[i]) << i;
}

TEST_F(StreamTransportTest, ReceiveBacklogIsSampledWhenAReadFillsTheBuffer)
{
  // Queue far more than one 256 KiB read before the transport runs: while the first reads are
  // delivered, the socket still holds the rest, and receiveQueueLength() says so.
  Buffer all;
  size_t nFrames = 0;
  while (all.size() < 1'000'000) {
    Buffer f = makeFrame(tlv::Data, 8000, static_cast<uint8_t>(nFrames++));
    all.insert(all.end(), f.begin(), f.end());
  }
  peer.set_option(asio::socket_base::send_buffer_size(4 << 20));
  peer.non_blocking(true);
  std::error_code ec;
  size_t written = peer.write_some(asio::buffer(all), ec);
  if (written < 300 * 1024)
    GTEST_SKIP() << "socket buffer too small (net.core.wmem_max) to queue more than one read";
  size_t maxBacklog = 0;
  transport->onReceive = [&](ByteSpan f, face::EndpointId) {
    received.emplace_back(f.begin(), f.end());
    maxBacklog = std::max(maxBacklog, transport->receiveQueueLength());
  };
  ASSERT_TRUE(runUntil(
    io,
    [&] {
      if (written < all.size())
        written += peer.write_some(asio::buffer(all.data() + written, all.size() - written), ec);
      return received.size() == nFrames;
    },
    10000ms));
  EXPECT_GT(maxBacklog, 0u);

  // A read that drains the socket reports no backlog.
  writeRaw(makeFrame(tlv::Interest, 20));
  ASSERT_TRUE(runUntil(io, [&] { return received.size() == nFrames + 1; }));
  EXPECT_EQ(transport->receiveQueueLength(), 0u);
}

TEST_F(StreamTransportTest, OversizedHeaderClosesWithReason)
{
  Buffer good = makeFrame(tlv::Interest, 20);
  Buffer bad{0x06, 0xFE, 0x00, 0x01, 0x00, 0x00}; // Data of 65536 octets
  Buffer both = good;
  both.insert(both.end(), bad.begin(), bad.end());
  writeRaw(both);
  ASSERT_TRUE(runUntil(io, [&] { return transport->state() == TransportState::Closed; }));
  EXPECT_EQ(received.size(), 1u); // the frame before the bad header was delivered
  EXPECT_EQ(transport->closeReason(), "frame_too_large");
  EXPECT_EQ(transport->ioCounters().nFrameTooLarge, 1u);
  EXPECT_EQ(env.countingTrace().count(EventKind::FaceClose, toString(CloseReason::FrameTooLarge)), 1u);
  EXPECT_EQ(states, (std::vector<TransportState>{TransportState::Failed, TransportState::Closed}));
  // The peer sees the connection closed.
  std::error_code ec;
  uint8_t b;
  peer.non_blocking(false);
  peer.read_some(asio::buffer(&b, 1), ec);
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
}

TEST_F(StreamTransportTest, InvalidHeaderClosesWithReason)
{
  Buffer bad{0x00, 0x00};
  writeRaw(bad);
  ASSERT_TRUE(runUntil(io, [&] { return transport->state() == TransportState::Closed; }));
  EXPECT_EQ(transport->closeReason(), "bad_tlv_header");
  EXPECT_EQ(transport->ioCounters().nBadHeader, 1u);
  EXPECT_TRUE(received.empty());
}

TEST_F(StreamTransportTest, PeerEofCloses)
{
  writeRaw(makeFrame(tlv::Interest, 5));
  peer.close();
  ASSERT_TRUE(runUntil(io, [&] { return transport->state() == TransportState::Closed; }));
  EXPECT_EQ(received.size(), 1u);
  EXPECT_EQ(transport->closeReason(), "eof");
  EXPECT_EQ(states, (std::vector<TransportState>{TransportState::Closing, TransportState::Closed}));
}

TEST_F(StreamTransportTest, PeerEofMidFrameIsCountedWithTheDiscardedOctets)
{
  Buffer whole = makeFrame(tlv::Interest, 5);
  Buffer half = makeFrame(tlv::Interest, 30);
  half.resize(10);
  writeRaw(whole);
  writeRaw(half);
  peer.close();
  ASSERT_TRUE(runUntil(io, [&] { return transport->state() == TransportState::Closed; }));
  EXPECT_EQ(received.size(), 1u);
  EXPECT_EQ(transport->closeReason(), "eof_mid_frame");
  EXPECT_EQ(transport->ioCounters().nEofMidFrame, 1u);
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::EofMidFrame), 1u);
  EXPECT_EQ(env.countingTrace().count(EventKind::FaceClose, toString(CloseReason::EofMidFrame)), 1u);
  EXPECT_EQ(env.countingTrace().count(EventKind::FaceClose, toString(CloseReason::Eof)), 0u);
  // not an error: the peer closed
  EXPECT_EQ(states, (std::vector<TransportState>{TransportState::Closing, TransportState::Closed}));
}

TEST_F(StreamTransportTest, QueuedFramesDiscardedOnCloseAreCounted)
{
  // The peer does not read: frames pile up in the send queue, and closing discards them.
  StreamTransportOptions small;
  small.socketBufferSize = 16 * 1024;
  connect(small);
  Buffer f = makeFrame(tlv::Data, 4000);
  for (int i = 0; i < 200; ++i)
    transport->send(test::share(f));
  test::runFor(io, 20ms);
  size_t queued = transport->sendQueueLength();
  ASSERT_GT(queued, 100 * f.size()); // most of the 800 KB is still in our queue
  transport->close();
  ASSERT_TRUE(runUntil(io, [&] { return transport->state() == TransportState::Closed; }));
  uint64_t discarded = transport->ioCounters().nQueueDiscarded;
  EXPECT_GT(discarded, 100u);
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::SendQueueDiscarded), discarded);
  // What the peer can still read is exactly the frames that were not discarded (the last one
  // possibly cut short: it counts as discarded).
  peer.non_blocking(true);
  Buffer sink(1 << 20);
  size_t total = 0;
  std::error_code ec;
  do {
    total += peer.read_some(asio::buffer(sink), ec);
  } while (!ec);
  size_t complete = 200 - discarded;
  EXPECT_GE(total, complete * f.size());
  EXPECT_LT(total, (complete + 1) * f.size());
}

TEST_F(StreamTransportTest, OversizedFrameIsSkippedWhenConfigured)
{
  StreamTransportOptions skip;
  skip.skipOversizedFrames = true;
  connect(skip);
  Buffer before = makeFrame(tlv::Interest, 20, 1);
  Buffer huge = makeFrame(tlv::Data, 600000, 2); // larger than the 256 KiB receive buffer
  Buffer after = makeFrame(tlv::Data, 100, 3);
  Buffer all = before;
  all.insert(all.end(), huge.begin(), huge.end());
  all.insert(all.end(), after.begin(), after.end());
  ASSERT_TRUE(writeStreamUntil(
    all, [&] { return received.size() == 2; }, 3000ms));
  EXPECT_EQ(received[0], before);
  EXPECT_EQ(received[1], after);
  EXPECT_EQ(transport->ioCounters().nFrameTooLarge, 1u);
  EXPECT_EQ(env.countingTrace().count(EventKind::IoDrop, DropReason::FrameTooLarge), 1u);
  EXPECT_EQ(transport->state(), TransportState::Up);
  EXPECT_TRUE(transport->closeReason().empty());

  // A header announcing more than 1 MiB is not skipped: the transport closes.
  Buffer absurd{0x06, 0xFE, 0x10, 0x00, 0x00, 0x00};
  writeRaw(absurd);
  ASSERT_TRUE(runUntil(io, [&] { return transport->state() == TransportState::Closed; }));
  EXPECT_EQ(transport->closeReason(), "frame_too_large");
}

TEST_F(StreamTransportTest, SendCoalescesAndPreservesOrder)
{
  std::vector<Buffer> frames;
  Buffer expected;
  for (int i = 0; i < 300; ++i) {
    frames.push_back(makeFrame(tlv::Data, 100 + i, static_cast<uint8_t>(i)));
    expected.insert(expected.end(), frames.back().begin(), frames.back().end());
    transport->send(test::share(frames.back()));
  }
  EXPECT_GE(transport->sendQueueLength(), expected.size()); // queued until the loop runs
  Buffer got(expected.size());
  size_t have = 0;
  peer.non_blocking(true);
  ASSERT_TRUE(runUntil(io, [&] {
    std::error_code ec;
    have += peer.read_some(asio::buffer(got.data() + have, got.size() - have), ec);
    return have == got.size();
  }));
  EXPECT_EQ(got, expected);
  EXPECT_EQ(transport->counters().nOutPackets, 300u);
}

TEST_F(StreamTransportTest, SlowReaderBacklogIsBoundedAndDrains)
{
  // The peer does not read: the kernel buffer fills, then the internal queue, then drops.
  StreamTransportOptions small;
  small.maxSendQueueBytes = 200 * 1024;
  small.socketBufferSize = 64 * 1024;
  connect(small);
  Buffer f = makeFrame(tlv::Data, 8000);
  size_t sent = 0;
  for (int round = 0; round < 40; ++round) {
    for (int i = 0; i < 20; ++i)
      transport->send(test::share(f));
    sent += 20;
    test::runFor(io, 1ms);
  }
  EXPECT_GT(transport->ioCounters().nSendQueueFull, 0u);
  EXPECT_GT(transport->sendQueueLength(), 0u);
  // Now read everything: whole frames only, in order, and the queue empties.
  peer.non_blocking(true);
  Buffer sink(1 << 20);
  size_t total = 0;
  ASSERT_TRUE(runUntil(
    io,
    [&] {
      std::error_code ec;
      total += peer.read_some(asio::buffer(sink), ec);
      return transport->sendQueueLength() == 0 && ec == asio::error::would_block;
    },
    5000ms));
  size_t delivered = sent - transport->ioCounters().nSendQueueFull;
  EXPECT_EQ(total, delivered * f.size());
  EXPECT_EQ(transport->state(), TransportState::Up);
}

TEST_F(StreamTransportTest, LocalCloseIsDeferredAndFinal)
{
  transport->send(test::share(makeFrame(tlv::Data, 10)));
  transport->close();
  EXPECT_EQ(transport->state(), TransportState::Closing);
  ASSERT_TRUE(runUntil(io, [&] { return transport->state() == TransportState::Closed; }));
  EXPECT_EQ(transport->closeReason(), "closed_locally");
  // Sends after close are ignored.
  transport->send(test::share(makeFrame(tlv::Data, 10)));
  EXPECT_EQ(transport->counters().nOutPackets, 1u);
  // The frame queued before close() was flushed.
  Buffer got(12);
  std::error_code ec;
  size_t n = asio::read(peer, asio::buffer(got), ec);
  EXPECT_EQ(n, 12u);
}

TEST_F(StreamTransportTest, DestroyInsideCallbackIsSafe)
{
  // The face layer may destroy the transport when it reports Failed/Closed.
  transport->onStateChange = [this](TransportState, TransportState s) {
    if (s == TransportState::Failed)
      transport.reset();
  };
  Buffer frames = makeFrame(tlv::Interest, 4);
  Buffer bad{0x00};
  frames.insert(frames.end(), bad.begin(), bad.end());
  writeRaw(frames);
  ASSERT_TRUE(runUntil(io, [&] { return transport == nullptr; }));
  test::runFor(io, 10ms);
  EXPECT_EQ(received.size(), 1u);
}

TEST_F(StreamTransportTest, DestroyFromReceiveCallbackStopsDelivery)
{
  transport->onReceive = [this](ByteSpan f, face::EndpointId) {
    received.emplace_back(f.begin(), f.end());
    transport.reset();
  };
  Buffer two = makeFrame(tlv::Interest, 4);
  Buffer second = makeFrame(tlv::Interest, 5);
  two.insert(two.end(), second.begin(), second.end());
  writeRaw(two);
  ASSERT_TRUE(runUntil(io, [&] { return transport == nullptr; }));
  test::runFor(io, 10ms);
  EXPECT_EQ(received.size(), 1u);
}

} // namespace
} // namespace ndnlab::io
