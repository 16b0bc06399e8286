// `ndnlab`: the git-style front door. `ndnlab <command> ...` runs a built-in command, or else
// executes `ndnlab-<command>` found in this executable's directory or on PATH with the
// remaining arguments.

#include "tools/common/runtime.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace ndnlab::tools;

/// Executables named ndnlab-* in this executable's directory or on PATH (without the prefix).
std::set<std::string> externalCommands()
{
  std::set<std::string> names;
  const char* path = std::getenv("PATH");
  std::error_code selfEc;
  std::string p = std::filesystem::read_symlink("/proc/self/exe", selfEc).parent_path().string();
  if (selfEc)
    p.clear();
  if (path != nullptr)
    p += (p.empty() ? "" : ":") + std::string(path);
  if (p.empty())
    return names;
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos)
      end = p.size();
    std::string dir = p.substr(start, end - start);
    start = end + 1;
    if (dir.empty())
      dir = ".";
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      std::string file = e.path().filename().string();
      if (file.rfind("ndnlab-", 0) == 0 && file.size() > 7 && ::access(e.path().c_str(), X_OK) == 0)
        names.insert(file.substr(7));
    }
  }
  return names;
}

std::string builtinList()
{
  std::string s;
  for (const auto& c : builtinCommands())
    s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

void usage(std::ostream& os)
{
  os << "Usage: ndnlab <command> [options] [args]\n"
     << "       ndnlab <command> --help     (or: ndnlab help <command>)\n"
     << "       ndnlab --version\n\n"
     << "Built-in commands:\n";
  for (const auto& c : builtinCommands()) {
    std::string n(c.name);
    os << "  " << n << std::string(n.size() < 12 ? 12 - n.size() : 1, ' ') << c.summary << "\n";
  }
  auto ext = externalCommands();
  os << "\nAny other command runs `ndnlab-<command>` from this program's directory or PATH";
  if (!ext.empty()) {
    os << "; found:";
    for (const auto& e : ext)
      os << " " << e;
  }
  os << ".\nConnection options of get, serve, ping, pingserver, perf, stream, ctl: --socket PATH (or $NDNLAB_SOCKET),\n"
     << "--connect tcp4://HOST:PORT; default unix:///run/nfd/nfd.sock.\n";
}

/// Executes `ndnlab-<cmd>` with `args` (argv[0] excluded): next to this executable (a build
/// tree: the build links ndnlab-sim there), else on PATH (the Python commands). Returns only
/// when it could not be run, with the exit code.
int execExternal(const std::string& cmd, const std::vector<char*>& rest)
{
  std::string exe = "ndnlab-" + cmd;
  std::vector<char*> args;
  args.push_back(exe.data());
  args.insert(args.end(), rest.begin(), rest.end());
  args.push_back(nullptr);
  std::error_code ec;
  std::filesystem::path sibling = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / exe;
  if (!ec && ::access(sibling.c_str(), X_OK) == 0)
    ::execv(sibling.c_str(), args.data());
  ::execvp(exe.c_str(), args.data());
  int err = errno;
  if (err == ENOENT) {
    std::cerr << "ndnlab: '" << cmd << "' is not a built-in command (" << builtinList() << ") and no '" << exe
              << "' was found on PATH.\n"
              << "Run 'ndnlab --help' for the list of commands.\n";
    return exitcode::BadArgs;
  }
  std::cerr << "ndnlab: cannot run " << exe << ": " << std::strerror(err) << "\n";
  return 126;
}

/// `ndnlab help [COMMAND]`: the command's own --help, built-in or external.
int help(int argc, char** argv)
{
  if (argc < 1) {
    usage(std::cout);
    return exitcode::Ok;
  }
  if (argc > 1) {
    std::cerr << "ndnlab: help takes one command, got extra argument '" << argv[1] << "'\n";
    return exitcode::BadArgs;
  }
  std::string cmd = argv[0];
  if (cmd.empty() || cmd[0] == '-') {
    std::cerr << "ndnlab: help takes a command name, got '" << cmd << "'\n";
    return exitcode::BadArgs;
  }
  char helpFlag[] = "--help";
  for (const auto& c : builtinCommands()) {
    if (c.name == cmd) {
      char* args[] = {argv[0], helpFlag, nullptr};
      return c.run(2, args);
    }
  }
  return execExternal(cmd, {helpFlag});
}

} // namespace

int main(int argc, char** argv)
{
  if (argc < 2) {
    usage(std::cerr);
    return exitcode::BadArgs;
  }
  std::string cmd = argv[1];
  if (cmd == "help" || cmd == "-h" || cmd == "--help")
    return help(argc - 2, argv + 2);
  if (cmd == "-V" || cmd == "--version" || cmd == "version") {
    if (argc > 2) {
      std::cerr << "ndnlab: " << cmd << " takes no arguments, got '" << argv[2] << "'\n";
      return exitcode::BadArgs;
    }
    std::cout << "ndnlab " << NDNLAB_VERSION << "\n";
    return exitcode::Ok;
  }
  if (!cmd.empty() && cmd[0] == '-') {
    std::cerr << "ndnlab: unknown option '" << cmd << "'\n\n";
    usage(std::cerr);
    return exitcode::BadArgs;
  }
  if (cmd.empty()) {
    std::cerr << "ndnlab: empty command name\n";
    return exitcode::BadArgs;
  }

  for (const auto& c : builtinCommands()) {
    if (c.name == cmd)
      return c.run(argc - 1, argv + 1);
  }
  return execExternal(cmd, std::vector<char*>(argv + 2, argv + argc));
}
