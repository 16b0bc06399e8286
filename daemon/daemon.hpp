#pragma once
// One ndnlabd instance: AsioEnv -> Forwarder -> FaceSystem (channels, faces/create) ->
// Management (NFD-compatible commands and datasets on /localhost/nfd). main.cpp only parses
// options, builds this, installs signal handlers and runs the io_context.

#include "daemon/face-system.hpp"
#include "daemon/options.hpp"
#include "io/asio-env.hpp"

#include "core/fw/forwarder.hpp"
#include "core/mgmt/management.hpp"

#include <asio/io_context.hpp>

#include <memory>

namespace ndnlab::daemon {

class Daemon
{
public:
  /// Builds the forwarder and management. Throws ConfigError for options the forwarder rejects
  /// (e.g. an unknown default strategy).
  Daemon(asio::io_context& io, const DaemonOptions& options);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  /// Opens the channels. Throws std::runtime_error (socket path in use, port taken, ...).
  void start();
  /// Stops listening, removes the Unix socket file, closes every socket face. Idempotent.
  void stop();

  io::AsioEnv& env() { return *m_env; }
  fw::Forwarder& forwarder() { return *m_forwarder; }
  FaceSystem& faceSystem() { return *m_faceSystem; }
  mgmt::Management& management() { return *m_management; }

  /// One line per non-zero forwarder counter and trace counter, for the shutdown log.
  std::string summary() const;
  /// Counted events of the drop kinds (drop, io_drop, impair_drop, face_close) by reason:
  /// the shutdown summary and, while running, the ndnlab/drops dataset (`ndnlab ctl drops`).
  std::vector<mgmt::DropCounterStatus> dropCounters() const;

private:
  DaemonOptions m_options;
  // Declaration order is construction order; destruction runs backwards.
  std::unique_ptr<io::AsioEnv> m_env;
  std::unique_ptr<fw::Forwarder> m_forwarder;
  std::unique_ptr<FaceSystem> m_faceSystem;
  std::unique_ptr<mgmt::Management> m_management;
  bool m_stopped = false;
};

} // namespace ndnlab::daemon
