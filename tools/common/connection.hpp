#pragma once
// The tools' connection to the local forwarder (ndnlabd, NFD or ndnd): a face over the Unix
// socket or TCP, exposed to engines as an app::Endpoint, plus request/response for management
// commands.

#include "core/app/endpoint.hpp"
#include "core/face/face.hpp"
#include "io/asio-env.hpp"

#include <CLI/CLI.hpp>

#include <list>
#include <memory>
#include <string>

namespace ndnlab::tools {

class ToolRuntime;

struct ConnectionOptions
{
  std::string socket;  ///< Unix socket path (--socket); default $NDNLAB_SOCKET, else /run/nfd/nfd.sock
  std::string connect; ///< forwarder URI (--connect), e.g. tcp4://127.0.0.1:6363; wins over socket
  /// NDNLPv2 congestion marking of what this tool sends, on its own send queue toward the
  /// forwarder (--mark-interval, ms; 0 = off): CoDel-like like NFD's faces (threshold 64 KiB),
  /// with a base interval suited to a local socket. A producer that outruns the forwarder
  /// then marks its Data and consumers slow down before the queue overflows.
  double markIntervalMs = 5;

  /// The URI to connect to, after applying the defaults above.
  std::string uri() const;
  /// Where uri() came from, for error messages: "from --connect", "from --socket", "from
  /// $NDNLAB_SOCKET", "from $NDN_CLIENT_TRANSPORT" or "NFD's default socket".
  std::string uriOrigin() const;
};

/// Adds --socket and --connect to a command.
void addConnectionOptions(CLI::App& app, ConnectionOptions& opts);

class ForwarderConnection final : public app::Endpoint
{
public:
  /// Connects (blocking). On failure prints "ERROR: <reason>" ("interrupted" if SIGINT/SIGTERM
  /// cut it short) and returns null; the caller exits with rt.failureExitCode().
  static std::unique_ptr<ForwarderConnection> open(ToolRuntime& rt, const ConnectionOptions& opts);
  ~ForwarderConnection() override;

  void expressInterest(const Interest& interest) override;
  void putData(const Data& data) override;
  void putNack(const Nack& nack) override;

  /// Result of request(): exactly one of data/nack is set, or neither on timeout.
  using RequestCallback = std::function<void(const Data* data, const Nack* nack)>;
  /// Sends `interest` and resolves with the first matching Data or Nack, or with a timeout
  /// after the Interest lifetime. Matching packets are not passed to onData/onNack.
  void request(const Interest& interest, RequestCallback done);

  /// The forwarder closed the connection (or it failed); `reason` is printable, e.g.
  /// "connection failed (bad_tlv_header)".
  std::function<void(const std::string& reason)> onClose;
  /// onClose for a tool that just ends when the forwarder goes: prints the reason, sets `rc` to
  /// exitcode::Failure and stops `rt`.
  void failOnClose(ToolRuntime& rt, int& rc);

  const std::string& uri() const { return m_uri; }
  /// Packets this side did not send: its send queue was full, they were too large for the
  /// link, or they were still queued when the connection closed.
  uint64_t outgoingDrops() const;
  face::Face& face() { return *m_face; }

private:
  ForwarderConnection(io::AsioEnv& env, std::unique_ptr<face::Face> face, std::string uri);

  struct Pending
  {
    Interest interest;
    RequestCallback done;
    TimerId timer = 0;
  };

  io::AsioEnv& m_env;
  std::unique_ptr<face::Face> m_face;
  std::string m_uri;
  std::list<Pending> m_pending;
};

} // namespace ndnlab::tools
