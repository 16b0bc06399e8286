#include "tools/common/runtime.hpp"

#include <asio/post.hpp>

#include <csignal>
#include <iostream>

namespace ndnlab::tools {

void
addVerbosityOptions(CLI::App& app, Verbosity& v)
{
  app.add_flag("-v,--verbose", v.verbose, "Print debug logs on stderr");
  app.add_flag("-q,--quiet", v.quiet, "Print only errors");
}

std::optional<int>
parseCommandLine(CLI::App& app, int argc, char** argv)
{
  try {
    app.parse(argc, argv);
  }
  catch (const CLI::CallForHelp& e) {
    std::cout << app.help();
    return exitcode::Ok;
  }
  catch (const CLI::CallForAllHelp& e) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return exitcode::Ok;
  }
  catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": " << e.what() << "\n"
              << "Run with --help for more information.\n";
    return exitcode::BadArgs;
  }
  return std::nullopt;
}

std::optional<Name>
parseNameArgument(const std::string& text)
{
  auto n = Name::parse(text);
  if (!n) {
    printError("invalid name '" + text + "': " + n.error());
    return std::nullopt;
  }
  return n.value();
}

Duration
millisArgument(double ms)
{
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(ms));
}

ToolRuntime::ToolRuntime(LogLevel level, const std::string& traceFile)
  : env(io, [&] {
      io::AsioEnvOptions o;
      o.logLevel = level;
      o.traceCounters = false; // the tools report from the engines' own statistics
      o.traceFile = traceFile;
      return o;
    }())
  , m_signals(io, SIGINT, SIGTERM)
{
  m_signals.async_wait([this](const std::error_code& ec, int sig) {
    if (ec)
      return;
    if (onSignal)
      onSignal(sig);
    else
      stop();
  });
}

ToolRuntime::~ToolRuntime()
{
  std::error_code ec;
  m_signals.cancel(ec);
}

void
ToolRuntime::run()
{
  io.run();
}

void
ToolRuntime::stop()
{
  // Posted, so handlers already queued (e.g. the flush of a reply just sent) run first.
  asio::post(io, [this] { io.stop(); });
}

std::span<const BuiltinCommand>
builtinCommands()
{
  static const BuiltinCommand commands[] = {
    {"get", "Fetch a named object and write its bytes (like ndnget/ndncatchunks)", runGet},
    {"serve", "Publish a file or stdin as segmented Data (like ndnserve/ndnputchunks)", runServe},
    {"ping", "Reachability test of a name prefix (like ndnping)", runPing},
    {"pingserver", "Answer ping Interests under a prefix (like ndnpingserver)", runPingServer},
    {"ctl", "Manage the forwarder: faces, routes, strategies, status (like nfdc)", runCtl},
  };
  return commands;
}

void
printError(std::string_view message)
{
  std::cerr << "ERROR: " << message << std::endl;
}

} // namespace ndnlab::tools
