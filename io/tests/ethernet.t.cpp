// Ethernet faces without privileges: MAC addresses, face URIs, frame building and checking,
// interface patterns. Traffic over veth pairs runs in tests/integration/test_ether.py (root).
#include "io/ethernet-frame.hpp"
#include "io/ethernet-socket.hpp"
#include "io/face-uri.hpp"
#include "io/tests/io-test-util.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

namespace ndnlab::io {
namespace {

const MacAddress Self{{0x02, 0x00, 0x00, 0x00, 0x00, 0x01}};
const MacAddress Peer{{0x02, 0x00, 0x00, 0x00, 0x00, 0x02}};

TEST(MacAddress, ParsesAndPrints)
{
  auto m = MacAddress::parse("02:AB:cd:00:17:aa");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->toString(), "02:ab:cd:00:17:aa");
  EXPECT_EQ(MacAddress::parse("02-ab-cd-00-17-aa"), m);
  EXPECT_FALSE(m->isMulticast());
  EXPECT_TRUE(DefaultEtherMulticastGroup.isMulticast());
  EXPECT_EQ(DefaultEtherMulticastGroup.toString(), "01:00:5e:00:17:aa");
  EXPECT_EQ(MacAddress::fromUint(m->toUint()), *m);
  EXPECT_NE(Peer.toUint(), Self.toUint());
  for (const char* bad : {"", "02:ab:cd:00:17", "02:ab:cd:00:17:aa:01", "02:ab-cd:00:17:aa", "0g:ab:cd:00:17:aa",
                          "2:ab:cd:00:17:aa0", "02:ab:cd:00:17:a"})
    EXPECT_FALSE(MacAddress::parse(bad)) << bad;
}

TEST(FaceUri, EtherAndDev)
{
  auto e = parseFaceUri("ether://[02:AB:CD:00:17:AA]");
  ASSERT_TRUE(e.ok()) << e.error();
  EXPECT_TRUE(e->isEther());
  EXPECT_EQ(e->host, "02:ab:cd:00:17:aa");
  EXPECT_EQ(e->toString(), "ether://[02:ab:cd:00:17:aa]");
  auto bare = parseFaceUri("ether://02:ab:cd:00:17:aa");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->toString(), "ether://[02:ab:cd:00:17:aa]");
  EXPECT_EQ(etherUri(DefaultEtherMulticastGroup), "ether://[01:00:5e:00:17:aa]");

  auto d = parseFaceUri("dev://veth0");
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_TRUE(d->isDev());
  EXPECT_EQ(d->host, "veth0");
  EXPECT_EQ(d->toString(), "dev://veth0");
  EXPECT_EQ(devUri("eth1"), "dev://eth1");

  for (const char* bad :
       {"ether://", "ether://[]", "ether://[02:ab:cd:00:17:aa", "ether://[02:ab:cd:00:17]",
        "ether://[02:ab:cd:00:17:aa]:6363", "dev://", "dev://a/b", "dev://eth0:1", "dev://a-very-long-interface"}) {
    auto r = parseFaceUri(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.error().find(bad), std::string::npos) << r.error(); // the message quotes the URI
    }
  }
}

TEST(EthernetFrame, EncodePadsToTheMinimumAndParsesBack)
{
  Buffer interest = test::makeInterest(4);
  ASSERT_LT(interest.size(), EthernetMinFrameSize - EthernetHeaderSize);
  Buffer f = encodeEthernetFrame(Peer, Self, interest);
  ASSERT_EQ(f.size(), EthernetMinFrameSize);
  EXPECT_EQ(f[12], 0x86);
  EXPECT_EQ(f[13], 0x24);
  // what Peer sees: the Interest without the padding
  EthernetRxFrame r = parseEthernetFrame(f, Peer, 1500);
  ASSERT_EQ(r.verdict, EthernetRx::Accept);
  EXPECT_EQ(r.destination, Peer);
  EXPECT_EQ(r.source, Self);
  EXPECT_EQ(Buffer(r.payload.begin(), r.payload.end()), interest);

  Buffer big = test::makeFrame(tlv::Data, 1400);
  Buffer g = encodeEthernetFrame(DefaultEtherMulticastGroup, Peer, big);
  EXPECT_EQ(g.size(), EthernetHeaderSize + big.size());
  EthernetRxFrame s = parseEthernetFrame(g, Self, 1500);
  ASSERT_EQ(s.verdict, EthernetRx::Accept);
  EXPECT_EQ(s.destination, DefaultEtherMulticastGroup);
  EXPECT_EQ(s.payload.size(), big.size());

  // the header EthernetSendQueue puts in front of a payload is the same
  auto h = ethernetHeader(Peer, Self);
  EXPECT_TRUE(std::equal(h.begin(), h.end(), f.begin()));
}

TEST(EthernetFrame, BadFramesAreDropsWithReasons)
{
  Buffer interest = test::makeInterest(4);
  Buffer ok = encodeEthernetFrame(Self, Peer, interest);

  // runt: shorter than the header
  EthernetRxFrame runt = parseEthernetFrame(ByteSpan(ok).first(13), Self, 1500);
  EXPECT_EQ(runt.verdict, EthernetRx::Runt);
  EXPECT_EQ(dropReason(runt.verdict), DropReason::RuntFrame);
  EXPECT_EQ(parseEthernetFrame(ByteSpan{}, Self, 1500).verdict, EthernetRx::Runt);

  // only a header: no TLV
  EthernetRxFrame empty = parseEthernetFrame(ByteSpan(ok).first(14), Self, 1500);
  EXPECT_EQ(empty.verdict, EthernetRx::BadPayload);
  EXPECT_EQ(dropReason(empty.verdict), DropReason::InvalidDatagram);

  // a TLV cut short
  Buffer data = test::makeFrame(tlv::Data, 200);
  Buffer cut = encodeEthernetFrame(Self, Peer, data);
  cut.resize(cut.size() - 1);
  EXPECT_EQ(parseEthernetFrame(cut, Self, 1500).verdict, EthernetRx::BadPayload);
  // zeros: TLV-TYPE 0 is invalid
  Buffer zeros(60, 0);
  std::copy(ok.begin(), ok.begin() + 14, zeros.begin());
  EXPECT_EQ(parseEthernetFrame(zeros, Self, 1500).verdict, EthernetRx::BadPayload);

  // oversize: payload above the MTU
  Buffer huge = encodeEthernetFrame(Self, Peer, test::makeFrame(tlv::Data, 1600));
  EthernetRxFrame over = parseEthernetFrame(huge, Self, 1500);
  EXPECT_EQ(over.verdict, EthernetRx::Oversize);
  EXPECT_EQ(dropReason(over.verdict), DropReason::OversizeFrame);
  EXPECT_EQ(parseEthernetFrame(huge, Self, 9000).verdict, EthernetRx::Accept);

  // our own frame looped back, and other EtherTypes: ignored, not drops
  Buffer own = encodeEthernetFrame(DefaultEtherMulticastGroup, Self, interest);
  EXPECT_EQ(parseEthernetFrame(own, Self, 1500).verdict, EthernetRx::OwnFrame);
  EXPECT_FALSE(dropReason(EthernetRx::OwnFrame));
  Buffer ip = ok;
  ip[12] = 0x08;
  ip[13] = 0x00;
  EXPECT_EQ(parseEthernetFrame(ip, Self, 1500).verdict, EthernetRx::OtherEtherType);
  EXPECT_FALSE(dropReason(EthernetRx::OtherEtherType));
}

TEST(NetworkInterfaces, PatternsSelectByNameOrMac)
{
  NetworkInterface veth;
  veth.name = "veth0";
  veth.mac = Peer;
  EXPECT_TRUE(interfaceMatches("*", veth));
  EXPECT_TRUE(interfaceMatches("veth*", veth));
  EXPECT_TRUE(interfaceMatches("veth?", veth));
  EXPECT_TRUE(interfaceMatches("veth0", veth));
  EXPECT_FALSE(interfaceMatches("eth*", veth));
  EXPECT_TRUE(interfaceMatches("02:00:00:00:00:02", veth));
  EXPECT_FALSE(interfaceMatches("02:00:00:00:00:01", veth));

  EXPECT_EQ(interfacePatternError("veth*"), "");
  EXPECT_EQ(interfacePatternError("02:00:00:00:00:01"), "");
  EXPECT_NE(interfacePatternError(""), "");
  EXPECT_NE(interfacePatternError("a/b"), "");
  EXPECT_NE(interfacePatternError("a-very-long-interface"), "");
}

TEST(NetworkInterfaces, LoopbackIsListedButCarriesNoEthernetFaces)
{
  auto all = listNetworkInterfaces();
  auto lo = std::find_if(all.begin(), all.end(), [](const auto& i) { return i.loopback; });
  if (lo == all.end())
    GTEST_SKIP() << "no loopback interface listed here";
  EXPECT_FALSE(lo->canCarryEthernetFaces());
  EXPECT_GT(lo->mtu, 0u);
  EXPECT_EQ(findNetworkInterface(lo->name)->index, lo->index);
  EXPECT_FALSE(findNetworkInterface("no-such-if0"));
}

/// A datagram socket pair standing in for an AF_PACKET socket (same send and receive calls).
struct DatagramPair
{
  explicit DatagramPair(asio::io_context& io) : sending(io)
  {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, fds), 0);
    sending.assign(ndnPacketProtocol(), fds[0]);
    receiving = fds[1];
  }
  ~DatagramPair()
  {
    if (receiving >= 0)
      ::close(receiving);
  }
  asio::generic::raw_protocol::socket sending;
  int receiving = -1;
};

struct CountingSink : EthernetSendQueue::Sink
{
  void countSendError(size_t bytes) override
  {
    ++errors;
    errorBytes += bytes;
  }
  size_t errors = 0, errorBytes = 0;
};

TEST(EthernetSendQueue, FirstFrameAtOnceTheTurnsOthersTogetherPaddedInOrder)
{
  asio::io_context io;
  DatagramPair pair(io);
  auto queue = std::make_shared<EthernetSendQueue>(pair.sending);
  auto guard = std::make_shared<char>(0);
  CountingSink sink;
  const EthernetHeader header = ethernetHeader(Peer, Self);
  std::vector<Buffer> sent;
  for (uint8_t i = 0; i < 5; ++i) {
    sent.push_back(i == 0 ? test::makeInterest(4, i) : test::makeFrame(tlv::Data, 100 * i, i));
    queue->send(header, test::share(sent.back()), guard, &sink);
  }
  EthernetReceiveBatch batch(64, 1500);
  ASSERT_EQ(batch.receive(pair.receiving), 1); // the first left at once
  EXPECT_EQ(batch.length(0), EthernetMinFrameSize);
  EXPECT_FALSE(batch.outgoing(0));
  EXPECT_EQ(Buffer(batch.frame(0).begin(), batch.frame(0).end()), encodeEthernetFrame(Peer, Self, sent[0]));
  io.poll(); // the end of the turn
  ASSERT_EQ(batch.receive(pair.receiving), 4);
  for (size_t i = 0; i < 4; ++i) {
    EthernetRxFrame f = parseEthernetFrame(batch.frame(i), Peer, 1500);
    ASSERT_EQ(f.verdict, EthernetRx::Accept);
    EXPECT_EQ(Buffer(f.payload.begin(), f.payload.end()), sent[i + 1]);
  }
  EXPECT_EQ(batch.receive(pair.receiving), -EAGAIN);
  EXPECT_EQ(sink.errors, 0u);

  // a frame longer than the batch's MTU is cut and shows its full length
  queue->send(header, test::share(test::makeFrame(tlv::Data, 1600)), guard, &sink);
  ASSERT_EQ(batch.receive(pair.receiving), 1);
  EXPECT_EQ(batch.length(0), EthernetHeaderSize + 1600 + 4);
  EXPECT_EQ(batch.frame(0).size(), EthernetHeaderSize + 1500 + 1);
  EXPECT_EQ(parseEthernetFrame(batch.frame(0), Peer, 1500).verdict, EthernetRx::Oversize);
}

TEST(EthernetSendQueue, RefusedFramesAreCountedByALiveSender)
{
  asio::io_context io;
  DatagramPair pair(io);
  auto queue = std::make_shared<EthernetSendQueue>(pair.sending);
  CountingSink sink, gone;
  auto guard = std::make_shared<char>(0);
  auto goneGuard = std::make_shared<char>(0);
  std::weak_ptr<char> expired = goneGuard;
  goneGuard.reset();
  ::close(pair.receiving); // the peer is gone: every send is refused
  pair.receiving = -1;
  const EthernetHeader header = ethernetHeader(Peer, Self);
  queue->send(header, test::share(test::makeFrame(tlv::Data, 100)), guard, &sink);
  queue->send(header, test::share(test::makeFrame(tlv::Data, 200)), guard, &sink);
  queue->send(header, test::share(test::makeFrame(tlv::Data, 300)), expired, &gone);
  io.poll();
  EXPECT_EQ(sink.errors, 2u);
  EXPECT_EQ(sink.errorBytes, 102u + 202u); // payload octets (TLV-TYPE, TLV-LENGTH, value)
  EXPECT_EQ(gone.errors, 0u);              // its sender no longer exists
}

} // namespace
} // namespace ndnlab::io
