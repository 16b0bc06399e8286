// ndnlabd: parse the command line and config into DaemonOptions, run the Daemon.
#include "daemon/config.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv)
{
  using namespace ndnlab::daemon;
  CLI::App app{"ndnlabd: NDN forwarder, NFD-compatible management and faces"};
  std::string configFile;
  bool printDefault = false;
  bool printMarkdown = false;
  app.add_option("-c,--config", configFile, "TOML configuration file (all keys optional)");
  app.add_flag("--print-default-config", printDefault,
               "print a commented configuration file holding every default, then exit");
  app.add_flag("--print-config-reference", printMarkdown,
               "print the configuration keys as a Markdown table, then exit");
  CLI11_PARSE(app, argc, argv);

  if (printDefault) {
    std::cout << defaultConfigToml();
    return 0;
  }
  if (printMarkdown) {
    std::cout << configReferenceMarkdown();
    return 0;
  }
  DaemonOptions options;
  try {
    if (!configFile.empty())
      options = loadConfigFile(configFile);
  }
  catch (const ConfigError& e) {
    std::cerr << "ndnlabd: configuration error\n" << e.what();
    return 2;
  }
  std::cerr << "ndnlabd: forwarder not wired yet\n";
  return 1;
}
