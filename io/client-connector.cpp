#include "io/client-connector.hpp"
#include "io/face-uri.hpp"
#include "io/tcp-transport.hpp"

#include <asio/connect.hpp>

#include <cstdlib>

namespace ndnlab::io {

std::string defaultClientTransportUri()
{
  if (const char* env = std::getenv("NDN_CLIENT_TRANSPORT"); env != nullptr && *env != '\0')
    return env;
  return "unix://" + std::string(DefaultForwarderSocket);
}

Result<FaceUri, std::string> parseForwarderUri(std::string_view text)
{
  auto uri = parseFaceUri(!text.empty() && text[0] == '/' ? "unix://" + std::string(text) : std::string(text));
  if (!uri)
    return fail(uri.error() + " (use unix:///PATH, tcp4://HOST:PORT or tcp://HOST[:PORT])");
  if (!uri->isUnix() && !uri->isTcp())
    return fail("a forwarder URI must be unix:// or tcp://, got '" + std::string(text) + "'");
  return uri;
}

Result<std::unique_ptr<SocketTransport>, std::string>
connectToForwarder(Env& env, asio::io_context& io, std::string_view uriText, const StreamTransportOptions& options)
{
  auto uri = parseForwarderUri(uriText.empty() ? defaultClientTransportUri() : std::string(uriText));
  if (!uri)
    return fail(uri.error());

  TransportInfo info;
  info.scope = face::FaceScope::Local;
  info.persistency = face::FacePersistency::Persistent;
  std::error_code ec;

  if (uri->isUnix()) {
    asio::local::stream_protocol::socket s(io);
    s.connect(asio::local::stream_protocol::endpoint(uri->path), ec);
    if (ec)
      return fail("cannot connect to forwarder at " + uri->toString() + ": " + ec.message());
    info.kind = TransportKind::UnixStream;
    info.localUri = "fd://" + std::to_string(s.native_handle());
    info.remoteUri = uri->toString();
    return std::unique_ptr<SocketTransport>(std::make_unique<UnixStreamTransport>(env, std::move(s), info, options));
  }
  // tcp:// (parseForwarderUri accepts nothing else)
  asio::ip::tcp::resolver resolver(io);
  auto proto = uri->scheme == "tcp6" ? asio::ip::tcp::v6() : asio::ip::tcp::v4();
  std::string port = std::to_string(uri->port != 0 ? uri->port : 6363);
  auto results =
    uri->scheme == "tcp" ? resolver.resolve(uri->host, port, ec) : resolver.resolve(proto, uri->host, port, ec);
  if (ec)
    return fail("cannot resolve " + uri->host + ": " + ec.message());
  asio::ip::tcp::socket s(io);
  asio::connect(s, results, ec);
  if (ec)
    return fail("cannot connect to forwarder at " + uri->toString() + ": " + ec.message());
  info.kind = TransportKind::Tcp;
  info.localUri = tcpUri(s.local_endpoint(ec));
  info.remoteUri = tcpUri(s.remote_endpoint(ec));
  return std::unique_ptr<SocketTransport>(std::make_unique<TcpTransport>(env, std::move(s), info, options));
}

} // namespace ndnlab::io
