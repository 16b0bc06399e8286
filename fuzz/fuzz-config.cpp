// libFuzzer target for ndnlabd's configuration file. Each input is TOML text given to
// daemon::parseConfig, which must either return options or throw ConfigError with a message;
// any other exception, a crash or a sanitizer report is a bug. Options that parse are printed
// key by key (the form of `ndnlabd --print-default-config`) and parsed again: every key must
// print the same value the second time, so no value is changed by the way it is written.

#include "daemon/config.hpp"
#include "fuzz/check.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace ndnlab::daemon;

using ndnlab::fuzz::bug;
using ndnlab::fuzz::require;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  std::string_view text(reinterpret_cast<const char*>(data), size);
  DaemonOptions first;
  try {
    first = parseConfig(text, "fuzz");
  }
  catch (const ConfigError& e) {
    require(!std::string_view(e.what()).empty(), "a ConfigError without a message");
    return 0;
  }

  std::string again;
  for (const auto& key : configKeys())
    again += key.path() + " = " + key.print(first) + "\n";
  DaemonOptions second;
  try {
    second = parseConfig(again, "printed");
  }
  catch (const ConfigError&) {
    bug("accepted options are rejected as printed");
  }
  for (const auto& key : configKeys()) {
    require(key.print(first) == key.print(second), "a key prints another value after a round trip");
  }
  return 0;
}
