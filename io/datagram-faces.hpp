#pragma once
// The unicast faces of a datagram channel (UDP, Ethernet): one socket serves every face, so the
// channel demultiplexes what it receives by the remote's address (a UDP endpoint, a MAC
// address) through a DatagramFaces map, and the first packet from an unknown remote may create
// an on-demand face, which OnDemandAdmission decides:
// - it must decode as an LpPacket carrying a fragment, or as an Interest or Data (bare or in an
//   LpPacket) of at most MaxNdnPacketSize octets (newFaceRejection()); anything else is a
//   counted drop ("invalid_datagram", "packet_too_large") and creates nothing;
// - at most maxOnDemandFaces on-demand faces exist at once; packets from further new remotes
//   are dropped ("too_many_faces", logged once until a face is created again).
// Faces from faces/create (the channel's connect()) are not bounded: connect() to a remote that
// has a face returns that face, its persistency raised (DatagramFaces::upgrade()).

#include "core/runtime/env.hpp"
#include "core/face/transport.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ndnlab::io {

/// Packets from unknown remotes that created no face, per reason (trace event "io_drop" with
/// the same reason, face 0), and the on-demand faces created.
struct OnDemandCounters
{
  uint64_t nInvalidDatagram = 0; ///< "invalid_datagram": not a valid LpPacket/Interest/Data
  uint64_t nPacketTooLarge = 0;  ///< "packet_too_large": network packet above MaxNdnPacketSize
  uint64_t nTooManyFaces = 0;    ///< "too_many_faces": maxOnDemandFaces reached
  uint64_t nFacesCreated = 0;    ///< on-demand faces created
};

/// Why a packet from an unknown remote may not create a face ("invalid_datagram",
/// "packet_too_large"), or an empty view when it may.
std::optional<DropReason> newFaceRejection(ByteSpan datagram);

/// A packet of `bytes` that reached no face, dropped for `reason`: counted in `counter` and
/// traced (io_drop, face 0).
void countChannelDrop(Env& env, uint64_t& counter, DropReason reason, size_t bytes);

/// The on-demand admission of one channel.
class OnDemandAdmission
{
public:
  /// `limitKey` is the configuration key of the bound, named in the log line
  /// ("face_system.udp.max_on_demand_faces").
  OnDemandAdmission(Env& env, std::string limitKey) : m_env(env), m_limitKey(std::move(limitKey)) {}

  /// Whether `payload`, the first packet (`bytes` on the wire) from `remoteUri`, may create an
  /// on-demand face on channel `channelUri`, where `onDemandFaces` exist and `maxFaces` may:
  /// not when newFaceRejection() refuses it, nor at the bound; each refusal is a drop counted
  /// in `counters`. An admission counts nFacesCreated.
  bool admit(ByteSpan payload, size_t bytes, const std::string& remoteUri, const std::string& channelUri,
             size_t onDemandFaces, size_t maxFaces, OnDemandCounters& counters);

private:
  Env& m_env;
  std::string m_limitKey;
  bool m_limitLogged = false; ///< the bound was logged for this incident
};

/// The faces of a channel by remote address. Each transport add()s itself when made and
/// remove()s itself when it closes or is destroyed; the map lives in the state the channel and
/// its faces share, since faces may outlive the channel.
template<typename Key, typename Transport>
class DatagramFaces
{
public:
  void add(const Key& remote, Transport* t) { m_faces[remote] = t; }

  /// Forgets `t`, if it is still the face of `remote`.
  void remove(const Key& remote, const Transport* t)
  {
    auto it = m_faces.find(remote);
    if (it != m_faces.end() && it->second == t)
      m_faces.erase(it);
  }

  Transport* find(const Key& remote) const
  {
    auto it = m_faces.find(remote);
    return it == m_faces.end() ? nullptr : it->second;
  }

  size_t size() const { return m_faces.size(); }

  /// The on-demand faces (the ones maxOnDemandFaces bounds).
  size_t onDemand() const
  {
    size_t n = 0;
    for (const auto& [remote, t] : m_faces)
      n += t->persistency() == face::FacePersistency::OnDemand ? 1 : 0;
    return n;
  }

  /// Every face, as a copy: what a caller does to one (fail(), close()) may remove it.
  std::vector<Transport*> all() const
  {
    std::vector<Transport*> v;
    v.reserve(m_faces.size());
    for (const auto& [remote, t] : m_faces)
      v.push_back(t);
    return v;
  }

  /// The face of `remote` with its persistency raised to `p` when that is stronger (a
  /// connect() to a known remote), or null when `remote` has none.
  Transport* upgrade(const Key& remote, face::FacePersistency p) const
  {
    Transport* t = find(remote);
    if (t != nullptr)
      t->upgradePersistency(p);
    return t;
  }

private:
  std::map<Key, Transport*> m_faces;
};

} // namespace ndnlab::io
