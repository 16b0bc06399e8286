#pragma once
// What every built-in command shares: the io_context + AsioEnv, SIGINT/SIGTERM handling,
// CLI11 parsing with ndnlab's exit codes, and the list of built-in commands.

#include "core/codec/name.hpp"
#include "io/asio-env.hpp"

#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

namespace ndnlab::tools {

/// Exit codes shared by the commands (ndncatchunks values where they exist).
namespace exitcode {
inline constexpr int Ok = 0;
inline constexpr int Failure = 1;       ///< the operation failed (network, forwarder, retries)
inline constexpr int BadArgs = 2;       ///< bad command line
inline constexpr int AppNack = 3;       ///< the producer answered with an application-level Nack
inline constexpr int FileError = 4;     ///< an input/output file could not be opened or written
inline constexpr int Interrupted = 130; ///< SIGINT/SIGTERM
} // namespace exitcode

/// -v/-q of a command.
struct Verbosity
{
  bool verbose = false;
  bool quiet = false;

  LogLevel logLevel() const { return verbose ? LogLevel::Debug : quiet ? LogLevel::Error : LogLevel::Warn; }
};

void addVerbosityOptions(CLI::App& app, Verbosity& v);

/// Parses argv; returns an exit code when the command must stop here (help: 0, errors: 2).
std::optional<int> parseCommandLine(CLI::App& app, int argc, char** argv);

/// A name given on the command line; prints "ERROR: invalid name ..." and returns nullopt when
/// it is not a valid NDN URI or is empty (an empty shell variable; the root name is "/"). The
/// caller exits with exitcode::BadArgs.
std::optional<Name> parseNameArgument(const std::string& text);

/// Checks of option values with one readable line each. CLI11's own checks print "Value 0 not
/// in range 0.000000 to 1797693..." (309 digits), let "nan" through, and its unsigned
/// conversion (strtoull) turns "-1" into 2^64-1.
namespace check {

/// Largest value of a millisecond option: millisArgument() must fit it in a Duration.
inline constexpr double MaxMillis = 1e12; // about 31 years

/// `x` as the checks print it (shortest form: 100, 0.5, 1e+09).
std::string numberText(double x);

/// A finite number in (0, max].
CLI::Validator positive(double max = std::numeric_limits<double>::max());
/// A finite number in [0, max].
CLI::Validator nonNegative(double max = std::numeric_limits<double>::max());
/// A finite number in [min, max].
CLI::Validator between(double min, double max);
/// A finite number in (0, 1], or in (0, 1) when !oneIncluded (gains and decrease factors).
CLI::Validator fraction(bool oneIncluded);
/// A decimal integer in [min, max] (a signed option such as get --retries).
CLI::Validator integerBetween(int64_t min, int64_t max);
/// Decimal digits only (no sign, no 0x), value in [min, max]; leading zeros are dropped so that
/// CLI11 does not read "010" as octal. Use through addUnsignedOption().
CLI::Validator unsignedInteger(uint64_t min, uint64_t max);
/// Not the empty string: a name, file or URI given as '' is a mistake, not "the default".
CLI::Validator nonEmpty();

} // namespace check

namespace detail {
template<typename T>
struct UnsignedTarget
{
  using type = T;
};
template<typename T>
struct UnsignedTarget<std::optional<T>>
{
  using type = T;
};
} // namespace detail

/// The one way to declare an option (or positional) stored in an unsigned integer, or in a
/// std::optional of one: check::unsignedInteger over [min, max], by default the whole type.
template<typename T>
CLI::Option* addUnsignedOption(CLI::App& app, const std::string& names, T& value, const std::string& description,
                               uint64_t min = 0,
                               uint64_t max = std::numeric_limits<typename detail::UnsignedTarget<T>::type>::max())
{
  using U = typename detail::UnsignedTarget<T>::type;
  static_assert(std::is_unsigned_v<U>, "addUnsignedOption needs an unsigned integer");
  return app.add_option(names, value, description)->transform(check::unsignedInteger(min, max));
}

/// A command-line value in milliseconds (fractions allowed) as a Duration, truncated.
Duration millisArgument(double ms);

/// io_context, Env and signals of one command run.
class ToolRuntime
{
public:
  /// `traceFile`: write every trace event of the engines as a JSON line there (empty = off).
  explicit ToolRuntime(LogLevel level, const std::string& traceFile = {});
  ~ToolRuntime();

  /// Called once on SIGINT/SIGTERM (default: stop()).
  std::function<void(int signal)> onSignal;

  /// True once SIGINT/SIGTERM arrived. Polls the event loop first, so that a signal that cut
  /// short a blocking step (connecting, reading the input: EINTR) is seen before run().
  bool interrupted();
  /// The exit status of a step that failed: exitcode::Interrupted if a signal caused it.
  int failureExitCode();

  /// Runs the io_context until stop() or until it has no more work.
  void run();
  /// Stops run() after the handlers already queued (pending socket flushes) have run.
  void stop();

  asio::io_context io;
  io::AsioEnv env;

private:
  asio::signal_set m_signals;
  bool m_signalled = false;
};

/// A built-in command: `ndnlab <name> ...` calls run(argc, argv) with argv[0] = name.
struct BuiltinCommand
{
  std::string_view name;
  std::string_view summary;
  int (*run)(int argc, char** argv);
};

int runGet(int argc, char** argv);
int runServe(int argc, char** argv);
int runPing(int argc, char** argv);
int runPingServer(int argc, char** argv);
int runCtl(int argc, char** argv);
int runPerf(int argc, char** argv);
int runStream(int argc, char** argv);

/// One subcommand of a built-in (`ndnlab perf server`): run(argc, argv) with argv[0] = its name.
struct Subcommand
{
  std::string_view name;
  int (*run)(int argc, char** argv);
};

/// `ndnlab <command> <sub> ...` (argv[0] = command): runs the subcommand named by argv[1];
/// -h/--help prints `description` and `usage`; a missing or unknown one prints the expected
/// names and `usage` and returns exitcode::BadArgs.
int runSubcommand(std::string_view command, std::string_view description, std::string_view usage,
                  std::span<const Subcommand> subs, int argc, char** argv);

/// All built-ins, in help order.
std::span<const BuiltinCommand> builtinCommands();

/// Prints "ERROR: <message>" on stderr.
void printError(std::string_view message);

} // namespace ndnlab::tools
