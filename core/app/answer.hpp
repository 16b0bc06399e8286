#pragma once
// Answering an Interest through an Endpoint with a Data an engine keeps (SegmentServer's segments,
// StreamProducer's frames): the answer carries the Interest's PIT token (NDNLPv2 PitToken), which
// a forwarder that sent one needs to match the answer to its PIT entry.

#include "core/app/endpoint.hpp"

namespace ndnlab::app {

/// Sends `data` as the answer to `interest`, with the Interest's PIT token if it had one; the
/// stored Data is not changed (the copy that carries the token shares its wire).
inline void putDataFor(Endpoint& ep, const Interest& interest, const Data& data)
{
  if (!interest.tags.pitToken) {
    ep.putData(data);
    return;
  }
  Data copy = data;
  copy.tags.pitToken = interest.tags.pitToken;
  ep.putData(copy);
}

} // namespace ndnlab::app
