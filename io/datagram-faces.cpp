#include "io/datagram-faces.hpp"
#include "io/tlv-framer.hpp"

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/lp/packet.hpp"

namespace ndnlab::io {

std::optional<DropReason> newFaceRejection(ByteSpan datagram)
{
  FrameCheck c = checkFrame(datagram, datagram.size());
  if (c.status != FrameStatus::Complete || c.size != datagram.size())
    return DropReason::InvalidDatagram;
  auto pkt = lp::decodeFrame(datagram);
  if (!pkt || pkt->isIdle())
    return DropReason::InvalidDatagram;
  if (pkt->fragCount.value_or(1) > 1)
    return std::nullopt; // one fragment of a larger packet: its LpPacket decoded, nothing more to check
  ByteSpan net = *pkt->fragment;
  if (net.size() > MaxNdnPacketSize)
    return DropReason::PacketTooLarge;
  if (net.empty())
    return DropReason::InvalidDatagram;
  uint32_t type = TlvReader(net).peekType();
  if (type == ndnlab::tlv::Interest)
    return Interest::decode(net) ? std::nullopt : std::optional(DropReason::InvalidDatagram);
  if (type == ndnlab::tlv::Data)
    return Data::decode(net) ? std::nullopt : std::optional(DropReason::InvalidDatagram);
  return DropReason::InvalidDatagram;
}

void countChannelDrop(Env& env, uint64_t& counter, DropReason reason, size_t bytes)
{
  ++counter;
  env.emit(TraceEvent::dropped(EventKind::IoDrop, 0, reason, static_cast<int64_t>(bytes)));
}

bool OnDemandAdmission::admit(ByteSpan payload, size_t bytes, const std::string& remoteUri,
                              const std::string& channelUri, size_t onDemandFaces, size_t maxFaces,
                              OnDemandCounters& counters)
{
  // Faces only for what would be accepted (docs/daemon.md "Faces"): garbage creates nothing.
  if (std::optional<DropReason> rejection = newFaceRejection(payload)) {
    countChannelDrop(m_env,
                     *rejection == DropReason::PacketTooLarge ? counters.nPacketTooLarge : counters.nInvalidDatagram,
                     *rejection, bytes);
    NDNLAB_LOG(m_env, LogLevel::Debug, "io", remoteUri, " ", toString(*rejection), " (no face) DROP");
    return false;
  }
  if (onDemandFaces >= maxFaces) {
    countChannelDrop(m_env, counters.nTooManyFaces, DropReason::TooManyFaces, bytes);
    if (!m_limitLogged) {
      m_limitLogged = true;
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", channelUri, ": ", maxFaces, " on-demand faces (", m_limitKey,
                 "); packets from new remotes are dropped (too_many_faces) until faces close");
    }
    NDNLAB_LOG(m_env, LogLevel::Debug, "io", remoteUri, " too_many_faces DROP");
    return false;
  }
  m_limitLogged = false;
  ++counters.nFacesCreated;
  NDNLAB_LOG(m_env, LogLevel::Debug, "io", "new on-demand face ", remoteUri, " on ", channelUri);
  return true;
}

} // namespace ndnlab::io
