// ndnlabd: parse the command line and config into DaemonOptions, run one Daemon until SIGINT,
// SIGTERM or SIGHUP (unless started with SIGHUP ignored, as nohup does). Exit codes: 0 clean
// shutdown, 1 start-up failure, 2 configuration error.
#include "daemon/config.hpp"
#include "daemon/daemon.hpp"

#include <CLI/CLI.hpp>
#include <asio/signal_set.hpp>

#include <csignal>
#include <iostream>

// jemalloc's settings, read when it starts (only when ndnlabd is linked with it): a background
// thread returns freed pages to the kernel about a second after they fall idle, instead of only
// when the (single-threaded, possibly idle) daemon next allocates. After 3,000 idle TCP faces
// closed, 349 MB had stayed resident (docs/daemon.md "Limits").
extern "C" {
// NOLINTNEXTLINE: the name jemalloc looks for
const char* malloc_conf = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";
}

namespace {

/// Whether this process was started with `signo` ignored (inherited across exec).
bool startedIgnoring(int signo)
{
  struct sigaction current = {};
  return ::sigaction(signo, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
}

} // namespace

int main(int argc, char** argv)
{
  using namespace ndnlab;
  using namespace ndnlab::daemon;
  CLI::App app{"ndnlabd: NDN forwarder with NFD-compatible management and faces.\n"
               "Without --config every default applies (see --print-default-config)."};
  std::string configFile;
  bool printDefault = false;
  bool printMarkdown = false;
  bool printEvents = false;
  std::string logLevel;
  app.add_option("-c,--config", configFile, "TOML configuration file (every key optional)")->check(CLI::ExistingFile);
  app.add_option("--log-level", logLevel, "override general.log_level (trace, debug, info, warn, error, off)");
  app.add_flag("--print-default-config", printDefault,
               "print a commented configuration file holding every default, then exit");
  app.add_flag("--print-config-reference", printMarkdown,
               "print the configuration keys as a Markdown table, then exit");
  app.add_flag("--print-event-table", printEvents,
               "print every trace event kind, drop reason and close reason as Markdown tables "
               "(docs/events.md), then exit");
  try {
    app.parse(argc, argv);
  }
  catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  if (printDefault) {
    std::cout << defaultConfigToml();
    return 0;
  }
  if (printMarkdown) {
    std::cout << configReferenceMarkdown();
    return 0;
  }
  if (printEvents) {
    std::cout << eventTables();
    return 0;
  }

  DaemonOptions options;
  try {
    if (!configFile.empty())
      options = loadConfigFile(configFile);
    if (!logLevel.empty() && !io::parseLogLevel(logLevel, options.general.logLevel))
      throw ConfigError("--log-level: unknown level \"" + logLevel + "\"\n");
  }
  catch (const ConfigError& e) {
    std::cerr << "ndnlabd: configuration error\n" << e.what();
    return 2;
  }

  std::signal(SIGPIPE, SIG_IGN);
  asio::io_context io(1);
  std::unique_ptr<Daemon> daemon;
  try {
    daemon = std::make_unique<Daemon>(io, options);
  }
  catch (const ConfigError& e) {
    std::cerr << "ndnlabd: configuration error\n" << e.what();
    return 2;
  }
  // The handlers are in place before start() creates the socket: a signal sent as soon as the
  // socket appears (a script, a test) stops the daemon cleanly instead of killing it.
  // SIGHUP (a closed terminal) stops the daemon cleanly too; it does not reload the
  // configuration as NFD's does. Under nohup (SIGHUP ignored at start) it stays ignored: the
  // daemon outlives the terminal, as asked. An ignored SIGINT is not kept: shells ignore it in
  // every background job of a script, and such scripts still stop the daemon with kill -INT.
  asio::signal_set signals(io, SIGINT, SIGTERM);
  if (!startedIgnoring(SIGHUP))
    signals.add(SIGHUP);
  signals.async_wait([&](const std::error_code& ec, int signo) {
    if (ec)
      return;
    NDNLAB_LOG(daemon->env(), LogLevel::Info, "ndnlabd", "caught ",
               signo == SIGINT    ? "SIGINT"
               : signo == SIGTERM ? "SIGTERM"
                                  : "SIGHUP",
               ", shutting down");
    daemon->stop();
    io.stop();
  });
  try {
    daemon->start();
  }
  catch (const std::exception& e) {
    std::cerr << "ndnlabd: cannot start: " << e.what() << "\n";
    return 1;
  }

  io.run();
  NDNLAB_LOG(daemon->env(), LogLevel::Info, "ndnlabd", daemon->summary());
  daemon.reset();
  return 0;
}
