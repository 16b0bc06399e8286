#include "ns3/dcib/helper/dcib-helper.hpp"

#include "ns3/dcib/helper/router-ack-header.hpp"

#include <ns3/boolean.h>
#include <ns3/inet-socket-address.h>
#include <ns3/node.h>
#include <ns3/pointer.h>
#include <ns3/traffic-control-layer.h>
#include <ns3/udp-socket-factory.h>

#include <stdexcept>

namespace ndnlab::dcib {

void setRootQueueDisc(ns3::Ptr<ns3::NetDevice> device, ns3::Ptr<ns3::QueueDisc> qdisc)
{
  auto tc = device->GetNode()->GetObject<ns3::TrafficControlLayer>();
  if (!tc)
    throw std::logic_error("setRootQueueDisc: node has no traffic control layer");
  if (tc->GetRootQueueDiscOnDevice(device))
    tc->DeleteRootQueueDiscOnDevice(device);
  tc->SetRootQueueDiscOnDevice(device, qdisc);
}

namespace {

void receiveAcks(ns3::Ptr<EdgeQueueDisc> qdisc, ns3::Ptr<ns3::Socket> socket)
{
  while (auto p = socket->Recv()) {
    if (p->GetSize() < RouterAckHeader::Size)
      continue;
    RouterAckHeader h;
    p->RemoveHeader(h);
    qdisc->ReceiveRouterAck(h.key());
  }
}

} // namespace

DcibEdges installDcib(ns3::Ptr<ns3::NetDevice> aDevice, ns3::Ipv4Address aAddress, ns3::Ptr<ns3::NetDevice> bDevice,
                      ns3::Ptr<EdgeQueueDisc> qdisc, ns3::Ptr<ns3::QueueDisc> main, ns3::Ptr<DciIngress> ingress,
                      const ReceiverOptions& receiver)
{
  DcibEdges e;
  e.source = qdisc;
  e.destination = ingress;
  qdisc->SetMainQueueDisc(main);
  setRootQueueDisc(aDevice, qdisc);

  ns3::BooleanValue enabled;
  qdisc->GetAttribute("Enabled", enabled);
  if (enabled.Get()) {
    auto tid = ns3::UdpSocketFactory::GetTypeId();
    e.ackReceiver = ns3::Socket::CreateSocket(aDevice->GetNode(), tid);
    e.ackReceiver->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), RouterAckPort));
    e.ackReceiver->SetRecvCallback(ns3::MakeBoundCallback(&receiveAcks, qdisc));
    e.ackSender = ns3::Socket::CreateSocket(bDevice->GetNode(), tid);
    e.ackSender->Bind();
    ingress->EnableEdgeReceiver(receiver, e.ackSender, aAddress, RouterAckPort);
    qdisc->ConnectTransmitEnd(aDevice);
  }
  bDevice->SetAttribute("ReceiveErrorModel", ns3::PointerValue(ingress));
  return e;
}

} // namespace ndnlab::dcib
