#pragma once
// Shared pieces of the DCIB tests that run a small ns-3 simulation: the fixture (a clean simulator
// around each test), the TCP defaults of those simulations and their topology.

#include "ns3/dcib/helper/dci-topology.hpp"
#include "ns3/dcib/helper/packet-key.hpp"
#include "ns3/dcib/model/types.hpp"
#include "ns3/runner/tests/sim-test.hpp"

#include <ns3/config.h>
#include <ns3/error-model.h>
#include <ns3/ipv4-header.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/tcp-header.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

#include <vector>

namespace ndnlab::dcib::test {

using SimTest = ndnlab::simtest::SimTest;

/// TCP of the small simulations: 1448-byte segments, 40 ms delayed ACK, 200 ms minimum RTO,
/// 1 MB socket buffers.
inline void setSmallTcpDefaults()
{
  using namespace ns3;
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
  Config::SetDefault("ns3::TcpSocket::DelAckTimeout", StringValue("40ms"));
  Config::SetDefault("ns3::TcpSocketBase::MinRto", StringValue("200ms"));
  Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 20));
  Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 20));
}

/// `pairs` host pairs on 1 Gbps links across a 1 Gbps, 1 ms DCI, 1500-byte MTU.
inline DciTopologyOptions smallDci(uint32_t pairs)
{
  DciTopologyOptions o;
  o.hostPairs = pairs;
  o.hostRate = ns3::DataRate("1Gbps");
  o.dciRate = ns3::DataRate("1Gbps");
  o.dciDelay = ns3::MilliSeconds(1);
  o.mtu = 1500;
  return o;
}

/// WAN loss of one chosen TCP data segment: the first copy of the segment to `port` that ends
/// at byte `endSeq` (the host's and the edge's later copies have other IP identifications).
class DropOneSegment : public ns3::ErrorModel
{
public:
  DropOneSegment(uint16_t port, uint32_t endSeq) : m_port(port), m_end(endSeq) {}
  bool dropped = false;
  bool droppedWasNotEct = false;
  PacketKey key;

private:
  bool DoCorrupt(ns3::Ptr<ns3::Packet> p) override
  {
    ns3::Ptr<ns3::Packet> rest;
    auto ip = parsePppIpv4(p, rest);
    if (dropped || !ip || ip->GetProtocol() != 6)
      return false;
    ns3::TcpHeader tcp;
    rest->RemoveHeader(tcp);
    if (tcp.GetDestinationPort() != m_port || rest->GetSize() == 0 ||
        tcp.GetSequenceNumber().GetValue() + rest->GetSize() != m_end)
      return false;
    dropped = true;
    droppedWasNotEct = ip->GetEcn() == ns3::Ipv4Header::ECN_NotECT;
    rest->AddHeader(tcp);
    key = makeKey(*ip, rest);
    return true;
  }
  void DoReset() override {}

  uint16_t m_port;
  uint32_t m_end;
};

/// Trace sink that appends each packet key to `v`.
inline void recordKey(std::vector<PacketKey>* v, const PacketKey& k)
{
  v->push_back(k);
}

} // namespace ndnlab::dcib::test
