#pragma once
// Client side of the tools: a transport connected to the local forwarder, to be wrapped in
// a face::Face with a GenericLinkService (allowLocalFields on, as NFD's client faces are local).

#include "io/face-uri.hpp"
#include "io/stream-transport.hpp"

#include <asio/io_context.hpp>

namespace ndnlab::io {

/// NFD's default client socket.
inline constexpr std::string_view DefaultForwarderSocket = "/run/nfd/nfd.sock";

/// $NDN_CLIENT_TRANSPORT when set (python-ndn / ndn-cxx convention), else
/// "unix:///run/nfd/nfd.sock".
std::string defaultClientTransportUri();

/// A forwarder URI as connectToForwarder() takes it: "unix:///path", a bare "/path" (made
/// unix://), "tcp4://host:port" or "tcp://host[:port]"; anything else is an error saying why.
Result<FaceUri, std::string> parseForwarderUri(std::string_view text);

/// Connects (blocking, for tool start-up) to "unix:///path", a bare "/path", or
/// "tcp4://host:port" / "tcp://host[:port]" (port 6363 by default). Empty `uri` = default.
/// The transport is Persistent with Local scope; reading starts when the io_context runs.
Result<std::unique_ptr<SocketTransport>, std::string> connectToForwarder(Env& env, asio::io_context& io,
                                                                         std::string_view uri = {},
                                                                         const StreamTransportOptions& options = {});

} // namespace ndnlab::io
