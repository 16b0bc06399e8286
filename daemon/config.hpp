#pragma once
// TOML configuration of ndnlabd -> DaemonOptions. The list of keys (configKeys()) is the single
// description of the file format: parsing, the commented default file and the docs table are
// generated from it. Unknown keys, wrong types and out-of-range values are errors.

#include "daemon/options.hpp"

#include <toml++/toml.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ndnlab::daemon {

/// Configuration error; what() holds every problem found, one per line.
class ConfigError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/// One configuration key bound to a field of DaemonOptions.
struct ConfigKey
{
  std::string section; ///< dotted TOML table, e.g. "face_system.udp"
  std::string name;    ///< key inside the table
  std::string type;    ///< "boolean", "integer", "float", "string", "duration", "rate"
  std::string doc;     ///< one line
  /// The value in `o` as a TOML literal.
  std::function<std::string(const DaemonOptions& o)> print;
  /// Stores `value` in `o`; returns an error message (without the key) or "".
  std::function<std::string(DaemonOptions& o, const toml::node& value)> store;

  std::string path() const { return section + "." + name; }
};

/// Every key, in file order.
const std::vector<ConfigKey>& configKeys();

/// Parses TOML text; `source` names it in messages. Throws ConfigError.
DaemonOptions parseConfig(std::string_view text, std::string_view source = "config");
/// Reads and parses a file. Throws ConfigError (also when the file cannot be read).
DaemonOptions loadConfigFile(const std::string& path);
/// Cross-field checks (also run by parseConfig). Throws ConfigError.
void validate(const DaemonOptions& options);

/// A complete, commented config file holding every default (`ndnlabd --print-default-config`).
std::string defaultConfigToml();
/// Markdown table of every key: key, type, default, description (docs/daemon.md).
std::string configReferenceMarkdown();

/// "600s", "500ms", "250us", "10ns": the largest unit that represents `d` exactly.
std::string formatDuration(Duration d);
/// Parses "<integer><unit>" with unit ns, us, ms, s, min, h; false on anything else.
bool parseDuration(std::string_view text, Duration& out);
/// "0", "100Mbit", "1500kbit": the largest unit (bit, kbit, Mbit, Gbit) that is exact.
std::string formatRate(Rate r);
/// Parses "0" or "<number><unit>" with unit bit, kbit, Mbit, Gbit (case-insensitive).
bool parseRate(std::string_view text, Rate& out);

} // namespace ndnlab::daemon
