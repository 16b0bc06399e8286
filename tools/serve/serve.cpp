// `ndnlab serve NAME [FILE]`: publish a file (or stdin) with app::SegmentServer, register the
// prefix with the forwarder (rib/register), and answer until SIGINT/SIGTERM.

#include "core/app/segment-server-fields.hpp"
#include "tools/common/connection.hpp"
#include "tools/common/mgmt-client.hpp"
#include "tools/common/option-flags.hpp"
#include "tools/common/runtime.hpp"
#include "tools/common/signing.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace ndnlab::tools {

namespace {

struct ServeOptions
{
  std::string name;
  std::string file; ///< empty or "-" = stdin
  app::SegmentServerOptions server;
  SigningOptions signing;
  bool printVersion = false;
  bool noRegister = false;
  Verbosity verbosity;
  ConnectionOptions connection;
};

/// SegmentServerOptions as `serve` starts from: Data that fit one UDP datagram
/// (docs/decisions/0004).
app::SegmentServerOptions serveDefaults()
{
  app::SegmentServerOptions d;
  d.packetSize = 1420;
  return d;
}

} // namespace

int runServe(int argc, char** argv)
{
  if (argc == 2 && std::string_view(argv[1]) == "--print-options-table") {
    std::fputs(optionsTable(serveDefaults()).c_str(), stdout);
    return exitcode::Ok;
  }
  ServeOptions o;
  o.server = serveDefaults();
  CLI::App app{"Publish FILE (or stdin) as versioned segmented Data <NAME>/v=<version>/seg=<n>,\n"
               "answer RDR version discovery (<NAME>/32=metadata), and serve until interrupted\n"
               "(like ndnserve/ndnputchunks).",
               "ndnlab serve"};
  app.add_option("NAME", o.name, "Prefix to publish under (a trailing version is kept)")->required();
  app.add_option("FILE", o.file, "File to publish; stdin when absent or '-'")->check(check::nonEmpty());
  addFieldOptions(app, o.server); // core/app/segment-server-fields.hpp
  addSigningOptions(app, o.signing);
  app.add_flag("-p,--print-version", o.printVersion, "Print the version component on stdout");
  app.add_flag("--no-register", o.noRegister, "Do not register the prefix (a route exists already)");
  addVerbosityOptions(app, o.verbosity);
  addConnectionOptions(app, o.connection);
  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;

  auto parsed = parseNameArgument(o.name);
  if (!parsed)
    return exitcode::BadArgs;
  if (app.get_option("--size")->count() > 0)
    o.server.packetSize = 0; // an explicit segment size wins

  std::unique_ptr<security::Signer> signer;
  try {
    signer = makeSigner(o.signing);
    o.server.validate();
  }
  catch (const std::invalid_argument& e) {
    printError(e.what());
    return exitcode::BadArgs;
  }

  std::FILE* in = stdin;
  if (!o.file.empty() && o.file != "-") {
    in = std::fopen(o.file.c_str(), "rb");
    if (in == nullptr) {
      printError("cannot open " + o.file + ": " + std::strerror(errno));
      return exitcode::FileError;
    }
  }

  ToolRuntime rt(o.verbosity.logLevel());
  auto conn = ForwarderConnection::open(rt, o.connection);
  if (!conn)
    return rt.failureExitCode();

  app::SegmentServer server(rt.env, *conn, *parsed, *signer, o.server);
  if (!o.verbosity.quiet)
    std::cerr << "Loading input ..." << std::endl;
  bool readError = false;
  server.publish([&](uint8_t* buf, size_t n) -> size_t {
    size_t k = std::fread(buf, 1, n, in);
    if (std::ferror(in)) { // also after a short read: a signal (EINTR) ends the input here
      readError = true;
      return 0;
    }
    return k;
  });
  if (in != stdin)
    std::fclose(in);
  if (readError) {
    if (rt.interrupted()) {
      printError("interrupted");
      return exitcode::Interrupted;
    }
    printError("read error on input");
    return exitcode::FileError;
  }
  if (o.printVersion)
    std::cout << server.versionedName()[-1].toUri() << std::endl;

  int rc = exitcode::Ok;
  conn->failOnClose(rt, rc);
  rt.onSignal = [&](int) { rt.stop(); };

  auto announce = [&] {
    if (!o.verbosity.quiet)
      std::cerr << "Published " << server.segmentCount() << " Data packet" << (server.segmentCount() > 1 ? "s" : "")
                << " (" << server.contentSize().count() << " bytes) with prefix " << server.versionedName()
                << std::endl;
  };
  MgmtClient mgmt(rt.env, *conn);
  mgmt.servePrefix(rt, server.prefix(), o.noRegister, rc, announce);

  rt.run();
  if (o.verbosity.verbose) {
    const auto& c = server.counters();
    std::cerr << "Interests " << c.interests << ", Data " << c.dataSent << ", metadata " << c.metadataSent << ", Nacks "
              << c.nacksSent << std::endl;
  }
  return rc;
}

} // namespace ndnlab::tools
