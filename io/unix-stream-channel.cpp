#include "io/unix-stream-channel.hpp"

#include <filesystem>
#include <stdexcept>

#include <sys/stat.h>

namespace ndnlab::io {

namespace fs = std::filesystem;
using asio::local::stream_protocol;

UnixStreamChannel::UnixStreamChannel(Env& env, asio::io_context& io, UnixChannelOptions options)
  : m_env(env), m_io(io), m_options(std::move(options)), m_acceptor(io), m_retry(io)
{}

UnixStreamChannel::~UnixStreamChannel()
{
  close();
}

void UnixStreamChannel::listen(TransportCallback onCreated)
{
  if (m_acceptor.is_open())
    return;
  m_onCreated = std::move(onCreated);
  const std::string& path = m_options.path;
  if (path.empty())
    throw std::runtime_error("unix socket path is empty");

  fs::path parent = fs::path(path).parent_path();
  std::error_code fec;
  if (!parent.empty()) {
    fs::create_directories(parent, fec);
    if (fec)
      throw std::runtime_error("cannot create directory " + parent.string() + " for unix socket: " + fec.message());
  }

  auto st = fs::symlink_status(path, fec);
  if (!fec && fs::exists(st)) {
    if (!fs::is_socket(st))
      throw std::runtime_error(path + " exists and is not a socket");
    stream_protocol::socket probe(m_io);
    std::error_code ec;
    probe.connect(stream_protocol::endpoint(path), ec);
    if (!ec)
      throw std::runtime_error("unix socket " + path + " is in use by another process");
    NDNLAB_LOG(m_env, LogLevel::Info, "io", "removing stale unix socket ", path);
    fs::remove(path, fec);
  }

  std::error_code ec;
  m_acceptor.open(stream_protocol(), ec);
  if (!ec)
    m_acceptor.bind(stream_protocol::endpoint(path), ec);
  if (!ec)
    m_acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    std::error_code ignore;
    m_acceptor.close(ignore);
    throw std::runtime_error("cannot listen on unix socket " + path + ": " + ec.message());
  }
  m_ownsFile = true;
  // Any local user may connect, as with NFD.
  ::chmod(path.c_str(), 0666);
  NDNLAB_LOG(m_env, LogLevel::Info, "io", "listening on ", uri());
  m_admission.emplace(m_env, FaceLimits{.maxFaces = m_options.maxFaces}, uri());
  accept();
}

void UnixStreamChannel::accept()
{
  m_acceptor.async_accept([this](const std::error_code& ec, stream_protocol::socket socket) {
    if (ec == asio::error::operation_aborted || !m_acceptor.is_open())
      return;
    if (ec) {
      // e.g. EMFILE: back off briefly instead of spinning.
      NDNLAB_LOG(m_env, LogLevel::Warn, "io", "accept on ", uri(), " failed: ", ec.message());
      m_retry.expires_after(std::chrono::milliseconds(100));
      m_retry.async_wait([this](const std::error_code& e) {
        if (!e && m_acceptor.is_open())
          accept();
      });
      return;
    }
    auto ticket = m_admission->admit({});
    if (!ticket) {
      std::error_code e;
      socket.close(e); // refused: counted and logged by the admission
      accept();
      return;
    }
    ++m_nAccepted;
    TransportInfo info;
    info.kind = TransportKind::UnixStream;
    info.localUri = uri();
    info.remoteUri = "fd://" + std::to_string(socket.native_handle());
    info.scope = face::FaceScope::Local;
    info.persistency = face::FacePersistency::OnDemand;
    auto transport = std::make_unique<UnixStreamTransport>(m_env, std::move(socket), info, m_options.stream);
    transport->holdAdmission(std::move(ticket));
    accept();
    if (m_onCreated)
      m_onCreated(std::move(transport));
  });
}

void UnixStreamChannel::close()
{
  std::error_code ec;
  m_retry.cancel();
  if (m_acceptor.is_open())
    m_acceptor.close(ec);
  if (m_ownsFile) {
    fs::remove(m_options.path, ec);
    m_ownsFile = false;
  }
}

} // namespace ndnlab::io
