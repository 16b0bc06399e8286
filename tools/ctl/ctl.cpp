// `ndnlab ctl`: nfdc-like management of the local forwarder over its management protocol
// (signed commands and status datasets under /localhost/nfd).

#include "core/mgmt/datasets.hpp"
#include "io/face-uri.hpp"
#include "tools/common/connection.hpp"
#include "tools/common/mgmt-client.hpp"
#include "tools/common/runtime.hpp"
#include "tools/common/summaries.hpp"

#include <asio/ip/address.hpp>

#include <algorithm>
#include <ctime>
#include <iostream>
#include <sstream>

namespace ndnlab::tools {

namespace {

using mgmt::ControlParameters;

std::string_view persistencyName(uint64_t p)
{
  switch (p) {
    case 0: return "persistent";
    case 1: return "on-demand";
    case 2: return "permanent";
    default: return "unknown";
  }
}

std::string originName(uint64_t o)
{
  switch (static_cast<mgmt::RouteOrigin>(o)) {
    case mgmt::RouteOrigin::App: return "app";
    case mgmt::RouteOrigin::AutoReg: return "autoreg";
    case mgmt::RouteOrigin::Client: return "client";
    case mgmt::RouteOrigin::AutoConf: return "autoconf";
    case mgmt::RouteOrigin::Nlsr: return "nlsr";
    case mgmt::RouteOrigin::PrefixAnn: return "prefixann";
    case mgmt::RouteOrigin::Static: return "static";
  }
  return std::to_string(o);
}

std::string routeFlags(uint64_t f)
{
  std::string s;
  if (f & mgmt::RouteFlagChildInherit)
    s += "child-inherit";
  if (f & mgmt::RouteFlagCapture)
    s += std::string(s.empty() ? "" : "|") + "capture";
  return s.empty() ? "none" : s;
}

std::string expires(const std::optional<std::chrono::milliseconds>& e)
{
  if (!e)
    return "never";
  return std::to_string(e->count() / 1000) + "s";
}

/// nfdc-style "key=value" text of a command's ControlParameters; `module` picks the layout.
std::string cpSummary(std::string_view module, const ControlParameters& cp)
{
  std::ostringstream os;
  if (module == "rib") {
    if (cp.name)
      os << " prefix=" << cp.name->toUri();
    if (cp.faceId)
      os << " nexthop=" << *cp.faceId;
    if (cp.origin)
      os << " origin=" << originName(*cp.origin);
    if (cp.cost)
      os << " cost=" << *cp.cost;
    if (cp.flags)
      os << " flags=" << routeFlags(*cp.flags);
    if (cp.cost) // a register response: say when it expires
      os << " expires=" << expires(cp.expirationPeriod);
  }
  else if (module == "faces") {
    if (cp.faceId)
      os << " id=" << *cp.faceId;
    if (cp.localUri)
      os << " local=" << *cp.localUri;
    if (cp.uri)
      os << " remote=" << *cp.uri;
    if (cp.facePersistency)
      os << " persistency=" << persistencyName(*cp.facePersistency);
    if (cp.mtu)
      os << " mtu=" << *cp.mtu;
    if (cp.medium)
      os << " medium=" << (*cp.medium == 1 ? "wireless" : "wired");
    if (cp.flags && (*cp.flags & mgmt::FaceFlagLpReliability))
      os << " lp-reliability=on";
    if (cp.medium || cp.bundleInterval)
      os << " bundling=" << ((cp.flags.value_or(0) & mgmt::FaceFlagBundling) ? "on" : "off");
    if (cp.bundleInterval)
      os << " bundle-interval=" << *cp.bundleInterval;
    if (cp.mirccCapacity)
      os << " mircc-capacity=" << *cp.mirccCapacity;
  }
  else {
    if (cp.name)
      os << " prefix=" << cp.name->toUri();
    if (cp.strategy)
      os << " strategy=" << cp.strategy->toUri();
  }
  return os.str();
}

std::string timeText(UnixMillis t)
{
  std::time_t secs = static_cast<std::time_t>(t.count() / 1000);
  char buf[64];
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

/// Largest ExpirationPeriod sent, ms: the int64 nanosecond range, as core/mgmt decodes it.
constexpr uint64_t MaxExpirationMs = uint64_t(INT64_MAX) / 1'000'000;

struct CtlOptions
{
  // face
  std::string faceUri;
  std::string faceLocalUri; ///< face create: LocalUri (dev://IFNAME for ether:// faces)
  std::string persistency = "persistent";
  uint64_t mtu = 0;
  std::string face;                                 ///< FACE argument: a FaceId or a remote FaceUri (faceArgument())
  std::string queryRemote, queryLocal, queryScheme; ///< face list filters (faces/query)
  std::string medium;                               ///< "", wired, wireless
  std::string bundling;                             ///< "", on, off
  std::string reliability;                          ///< "", on, off
  std::optional<uint64_t> bundleInterval;
  std::string mirccCapacity; ///< "", or a bit rate (parseBitRate)
  // route / strategy
  std::string prefix;
  uint64_t cost = 0;
  uint64_t origin = static_cast<uint64_t>(mgmt::RouteOrigin::Static);
  bool noInherit = false;
  bool capture = false;
  std::optional<uint64_t> expiresMs; ///< none = the route never expires
  std::string strategy;
  Verbosity verbosity;
  ConnectionOptions connection;
};

/// One ctl action: issues requests through `mgmt`, prints, then calls done(exit code).
using Action = std::function<void(MgmtClient& mgmt, std::function<void(int)> done)>;

Action commandAction(std::string module, std::string verb, ControlParameters cp, std::string okWord)
{
  return [=](MgmtClient& mgmt, std::function<void(int)> done) {
    mgmt.command(module, verb, cp, [=](const Result<mgmt::ControlResponse, std::string>& r) {
      if (!r) {
        printError(r.error());
        done(exitcode::Failure);
        return;
      }
      if (r->code != mgmt::status::Ok) {
        printError(module + "/" + verb + " failed: " + std::to_string(r->code) + " " + r->text);
        done(exitcode::Failure);
        return;
      }
      auto body = r->bodyParameters();
      std::cout << okWord << cpSummary(module, body ? *body : cp) << "\n";
      done(exitcode::Ok);
    });
  };
}

/// Fetches dataset module/verb and hands its content to `step(content, mgmt, done)`, which ends
/// the command or continues it; a failed fetch is reported and ends it with exitcode::Failure.
using DatasetStep = std::function<void(ByteSpan content, MgmtClient& mgmt, std::function<void(int)> done)>;

/// `parameter`, when given, is the dataset's parameter component (faces/query's filter).
Action datasetThen(std::string module, std::string verb, DatasetStep step,
                   std::optional<Buffer> parameter = std::nullopt)
{
  return [=](MgmtClient& mgmt, std::function<void(int)> done) {
    auto onContent = [=, &mgmt](const Result<Buffer, std::string>& r) {
      if (!r) {
        printError(r.error());
        done(exitcode::Failure);
        return;
      }
      step(ByteSpan(*r), mgmt, done);
    };
    if (parameter)
      mgmt.dataset(module, verb, *parameter, onContent);
    else
      mgmt.dataset(module, verb, onContent);
  };
}

template<typename Print>
Action datasetAction(std::string module, std::string verb, Print print)
{
  return datasetThen(module, verb, [print](ByteSpan content, MgmtClient&, std::function<void(int)> done) {
    done(print(content) ? exitcode::Ok : exitcode::Failure);
  });
}

template<typename T>
std::optional<std::vector<T>> decodeOrReport(ByteSpan content, std::string_view what)
{
  auto list = mgmt::decodeList<T>(content);
  if (!list) {
    printError(std::string("malformed ") + std::string(what) + " dataset (" +
               std::string(reasonName(list.error().code)) + ")");
    return std::nullopt;
  }
  return std::move(list.value());
}

/// Fetches faces/query with `filter` and hands its content to `step`.
Action faceQueryThen(const mgmt::FaceQueryFilter& filter, DatasetStep step)
{
  Buffer parameter;
  filter.encodeTo(parameter);
  return datasetThen("faces", "query", std::move(step), std::move(parameter));
}

bool isFaceId(const std::string& text)
{
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

/// CLI check of a FACE argument: a FaceId (positive integer) or a FaceUri, as nfdc takes.
CLI::Validator faceArgument()
{
  return CLI::Validator(
    [faceId = check::unsignedInteger(1, UINT64_MAX)](std::string& text) -> std::string {
      if (isFaceId(text)) {
        // the digits as every unsigned option reads them (range, no leading zeros)
        if (!faceId(text).empty())
          return "must be a FaceId (a positive integer) or a FaceUri, got '" + text + "'";
        return {};
      }
      if (text.find("://") == std::string::npos)
        return "must be a FaceId (a positive integer) or a FaceUri such as udp4://192.0.2.1:6363, got '" + text + "'";
      return {};
    },
    "FaceId or FaceUri");
}

/// The form in which forwarders report a face URI given with a numeric address: udp and tcp
/// get the address family (udp4/udp6) and port 6363 when none is given, as nfdc canonizes
/// before it queries. Anything else (fd://12, a host name) is compared as it is written.
std::string canonicalFaceUri(const std::string& text)
{
  auto uri = io::parseFaceUri(text);
  if (!uri || uri->isUnix())
    return text;
  if (uri->isEther() || uri->isDev())
    return uri->toString(); // ether://[mac] with the MAC in lower case, as forwarders report it
  std::error_code ec;
  auto address = asio::ip::make_address(uri->host, ec);
  if (ec)
    return text;
  if (uri->scheme == "udp" || uri->scheme == "tcp")
    uri->scheme += address.is_v4() ? "4" : "6";
  if (uri->port == 0)
    uri->port = 6363;
  uri->host = address.to_string();
  return uri->toString();
}

/// How withFace() looks a FACE up.
struct FaceLookup
{
  /// Check a FaceId in faces/list first; off for commands that refuse an unknown face themselves.
  bool checkId = true;
  /// After "Face not found: <uri>", say how to create it (route add: nfdc does not create it,
  /// ndnd's tool does).
  bool suggestCreate = false;
};

/// Runs the action `then(faceId)` for the face that FACE names, or prints "Face not found" and
/// ends with exitcode::Failure, as nfdc does: a FaceId must be in faces/list (faces/destroy and
/// rib/unregister answer 200 for an unknown face, idempotent as in NFD, so their response cannot
/// tell); a FaceUri must be the remote URI of exactly one face (faces/query).
Action withFace(const std::string& face, std::function<Action(uint64_t)> then, FaceLookup how = {})
{
  if (isFaceId(face)) {
    uint64_t faceId = std::stoull(face);
    if (!how.checkId)
      return then(faceId);
    return datasetThen("faces", "list", [=](ByteSpan content, MgmtClient& mgmt, std::function<void(int)> done) {
      auto faces = decodeOrReport<mgmt::FaceStatus>(content, "faces/list");
      if (!faces) {
        done(exitcode::Failure);
        return;
      }
      if (std::none_of(faces->begin(), faces->end(), [&](const auto& f) { return f.faceId == faceId; })) {
        printError("Face not found: " + std::to_string(faceId));
        done(exitcode::Failure);
        return;
      }
      then(faceId)(mgmt, done);
    });
  }
  const std::string uri = canonicalFaceUri(face);
  return faceQueryThen({.remoteUri = uri}, [=](ByteSpan content, MgmtClient& mgmt, std::function<void(int)> done) {
    auto faces = decodeOrReport<mgmt::FaceStatus>(content, "faces/query");
    if (!faces) {
      done(exitcode::Failure);
      return;
    }
    if (faces->empty()) {
      printError("Face not found: " + uri +
                 (how.suggestCreate ? " (create it first: ndnlab ctl face create " + uri + ")" : ""));
      done(exitcode::Failure);
      return;
    }
    if (faces->size() > 1) {
      std::string ids;
      for (const auto& f : *faces)
        ids += (ids.empty() ? "" : ", ") + std::to_string(f.faceId);
      printError(std::to_string(faces->size()) + " faces have remote URI " + uri + " (" + ids + "); give a FaceId");
      done(exitcode::Failure);
      return;
    }
    then(faces->front().faceId)(mgmt, done);
  });
}

bool printFaces(ByteSpan content)
{
  auto faces = decodeOrReport<mgmt::FaceStatus>(content, "faces/list");
  if (!faces)
    return false;
  for (const auto& f : *faces) {
    std::cout << "faceid=" << f.faceId << " remote=" << f.remoteUri << " local=" << f.localUri;
    if (f.expirationPeriod)
      std::cout << " expires=" << f.expirationPeriod->count() / 1000 << "s";
    if (f.baseCongestionMarkingInterval || f.defaultCongestionThreshold) {
      std::cout << " congestion={";
      if (f.baseCongestionMarkingInterval)
        std::cout << "base-marking-interval="
                  << std::chrono::duration_cast<std::chrono::milliseconds>(*f.baseCongestionMarkingInterval).count()
                  << "ms";
      if (f.defaultCongestionThreshold)
        std::cout << (f.baseCongestionMarkingInterval ? " " : "")
                  << "default-threshold=" << *f.defaultCongestionThreshold << "B";
      std::cout << "}";
    }
    if (f.mtu)
      std::cout << " mtu=" << *f.mtu;
    std::cout << " counters={in={" << f.nInInterests << "i " << f.nInData << "d " << f.nInNacks << "n " << f.nInBytes
              << "B} out={" << f.nOutInterests << "i " << f.nOutData << "d " << f.nOutNacks << "n " << f.nOutBytes
              << "B}}"
              << " flags={" << (f.faceScope == 1 ? "local" : "non-local") << " " << persistencyName(f.facePersistency)
              << " "
              << (f.linkType == 0   ? "point-to-point"
                  : f.linkType == 1 ? "multi-access"
                                    : "ad-hoc");
    if (f.flags & mgmt::FaceFlagLocalFields)
      std::cout << " local-fields";
    if (f.flags & mgmt::FaceFlagLpReliability)
      std::cout << " lp-reliability";
    if (f.flags & mgmt::FaceFlagCongestionMarking)
      std::cout << " congestion-marking";
    if (f.flags & mgmt::FaceFlagBundling)
      std::cout << " bundling";
    std::cout << "}";
    if (f.medium)
      std::cout << " medium=" << (*f.medium == 1 ? "wireless" : "wired");
    if (f.bundleInterval)
      std::cout << " bundle-interval=" << *f.bundleInterval;
    if (f.bundleCounters) {
      const auto& b = *f.bundleCounters;
      std::cout << " bundles={out=" << b.nOutBundles << " absorbed=" << b.nOutInterestsAbsorbed
                << " in=" << b.nInBundles << " regenerated=" << b.nInInterestsRegenerated
                << " gap-filled=" << b.nInInterestsGapFilled << " stale=" << b.nInBundlesStale
                << " invalid=" << b.nInBundlesInvalid << " early=" << b.nInDataEarly
                << " early-expired=" << b.nInDataEarlyExpired << " recoveries=" << b.nOutBundleRecoveries << "}";
    }
    if (f.mirccCapacity)
      std::cout << " mircc={capacity=" << *f.mirccCapacity << "bit/s rate=" << f.mirccRate.value_or(0) << "bit/s}";
    if (f.reliabilityCounters) {
      const auto& r = *f.reliabilityCounters;
      std::cout << " lp={retx-frames=" << r.nOutRetxFrames << " acknowledged=" << r.nAcknowledged
                << " retransmitted=" << r.nRetransmitted << " exhausted=" << r.nRetxExhausted
                << " overflow=" << r.nUnackedOverflow << " duplicates=" << r.nDuplicateSequence
                << " acks-out=" << r.nOutAcks << " idle-acks-out=" << r.nOutIdleAcks << "}";
    }
    std::cout << "\n";
  }
  return true;
}

bool printRoutes(ByteSpan content)
{
  auto entries = decodeOrReport<mgmt::RibEntryStatus>(content, "rib/list");
  if (!entries)
    return false;
  for (const auto& e : *entries)
    for (const auto& r : e.routes)
      std::cout << "prefix=" << e.prefix.toUri() << " nexthop=" << r.faceId << " origin=" << originName(r.origin)
                << " cost=" << r.cost << " flags=" << routeFlags(r.flags) << " expires=" << expires(r.expirationPeriod)
                << "\n";
  return true;
}

bool printFib(ByteSpan content)
{
  auto entries = decodeOrReport<mgmt::FibEntryStatus>(content, "fib/list");
  if (!entries)
    return false;
  for (const auto& e : *entries) {
    std::cout << "  " << e.prefix.toUri() << " nexthops={";
    for (size_t i = 0; i < e.nextHops.size(); ++i)
      std::cout << (i ? ", " : "") << "faceid=" << e.nextHops[i].faceId << " (cost=" << e.nextHops[i].cost << ")";
    std::cout << "}\n";
  }
  return true;
}

bool printStrategies(ByteSpan content)
{
  auto entries = decodeOrReport<mgmt::StrategyChoiceStatus>(content, "strategy-choice/list");
  if (!entries)
    return false;
  for (const auto& e : *entries)
    std::cout << "prefix=" << e.prefix.toUri() << " strategy=" << e.strategy.toUri() << "\n";
  return true;
}

bool printStatus(ByteSpan content)
{
  auto s = mgmt::ForwarderStatus::decode(content);
  if (!s) {
    printError("malformed status/general dataset");
    return false;
  }
  auto uptime = std::chrono::duration_cast<std::chrono::seconds>(s->currentTimestamp - s->startTimestamp);
  std::cout << "General forwarder status:\n"
            << "               version=" << s->nfdVersion << "\n"
            << "             startTime=" << timeText(s->startTimestamp) << "\n"
            << "           currentTime=" << timeText(s->currentTimestamp) << "\n"
            << "                uptime=" << uptime.count() << " seconds\n"
            << "      nNameTreeEntries=" << s->nNameTreeEntries << "\n"
            << "           nFibEntries=" << s->nFibEntries << "\n"
            << "           nPitEntries=" << s->nPitEntries << "\n"
            << "  nMeasurementsEntries=" << s->nMeasurementsEntries << "\n"
            << "            nCsEntries=" << s->nCsEntries << "\n"
            << "          nInInterests=" << s->nInInterests << "\n"
            << "         nOutInterests=" << s->nOutInterests << "\n"
            << "               nInData=" << s->nInData << "\n"
            << "              nOutData=" << s->nOutData << "\n"
            << "              nInNacks=" << s->nInNacks << "\n"
            << "             nOutNacks=" << s->nOutNacks << "\n"
            << "   nSatisfiedInterests=" << s->nSatisfiedInterests << "\n"
            << " nUnsatisfiedInterests=" << s->nUnsatisfiedInterests << "\n";
  return true;
}

/// ndnlab/drops (ndnlabd only): one "kind/reason=count" line per counter, under a heading.
bool printDrops(ByteSpan content)
{
  auto list = decodeOrReport<mgmt::DropCounterStatus>(content, "ndnlab/drops");
  if (!list)
    return false;
  std::cout << "Drop counters (kind/reason=count):\n";
  if (list->empty())
    std::cout << "  none\n";
  for (const auto& c : *list)
    std::cout << "  " << c.kind << (c.reason.empty() ? "" : "/") << c.reason << "=" << c.count << "\n";
  return true;
}

/// status/general, then, when the forwarder is ndnlabd (NfdVersion "ndnlab-..."), its drop
/// counters; other forwarders do not serve ndnlab/drops, so it is not asked for.
Action statusAction()
{
  return datasetThen("status", "general", [](ByteSpan content, MgmtClient& mgmt, std::function<void(int)> done) {
    if (!printStatus(content)) {
      done(exitcode::Failure);
      return;
    }
    auto s = mgmt::ForwarderStatus::decode(content);
    if (!s || s->nfdVersion.rfind("ndnlab", 0) != 0) {
      done(exitcode::Ok);
      return;
    }
    datasetAction("ndnlab", "drops", printDrops)(mgmt, done);
  });
}

bool printCs(ByteSpan content)
{
  auto list = decodeOrReport<mgmt::CsInfo>(content, "cs/info");
  if (!list || list->empty()) {
    if (list)
      printError("empty cs/info dataset");
    return false;
  }
  const auto& c = list->front();
  std::cout << "CS information:\n"
            << "  capacity=" << c.capacity << "\n"
            << "     admit=" << ((c.flags & mgmt::CsFlagEnableAdmit) ? "on" : "off") << "\n"
            << "     serve=" << ((c.flags & mgmt::CsFlagEnableServe) ? "on" : "off") << "\n"
            << "  nEntries=" << c.nEntries << "\n"
            << "     nHits=" << c.nHits << "\n"
            << "   nMisses=" << c.nMisses << "\n";
  return true;
}

} // namespace

int runCtl(int argc, char** argv)
{
  CtlOptions o;
  CLI::App app{"Manage the forwarder (ndnlabd, NFD, ndnd) through its NFD management protocol.", "ndnlab ctl"};
  app.require_subcommand(1);
  app.fallthrough(); // connection/verbosity options may follow the subcommand (inherited)
  addVerbosityOptions(app, o.verbosity);
  addConnectionOptions(app, o.connection);
  Action action;
  bool badName = false;
  auto needName = [&](const std::string& text) -> Name {
    auto n = parseNameArgument(text);
    if (!n) {
      badName = true;
      return Name();
    }
    return *n;
  };

  // face
  auto* face = app.add_subcommand("face", "Faces: list, create, update, destroy");
  face->require_subcommand(1);
  auto* faceList = face->add_subcommand("list", "List faces (faces/list; with a filter, faces/query)");
  faceList->add_option("--remote", o.queryRemote, "Only faces with this remote FaceUri")->check(check::nonEmpty());
  faceList->add_option("--local", o.queryLocal, "Only faces with this local FaceUri")->check(check::nonEmpty());
  faceList->add_option("--scheme", o.queryScheme, "Only faces whose remote or local URI has this scheme, e.g. udp4")
    ->check(check::nonEmpty());
  faceList->callback([&] {
    if (o.queryRemote.empty() && o.queryLocal.empty() && o.queryScheme.empty()) {
      action = datasetAction("faces", "list", printFaces);
      return;
    }
    mgmt::FaceQueryFilter filter;
    if (!o.queryRemote.empty())
      filter.remoteUri = canonicalFaceUri(o.queryRemote);
    if (!o.queryLocal.empty())
      filter.localUri = canonicalFaceUri(o.queryLocal);
    if (!o.queryScheme.empty())
      filter.uriScheme = o.queryScheme;
    action = faceQueryThen(filter, [](ByteSpan content, MgmtClient&, std::function<void(int)> done) {
      done(printFaces(content) ? exitcode::Ok : exitcode::Failure);
    });
  });
  auto* faceCreate = face->add_subcommand("create", "Create a face (faces/create)");
  faceCreate->add_option("URI", o.faceUri, "Remote FaceUri, e.g. udp4://192.0.2.1:6363 or ether://[02:00:00:00:00:01]")
    ->required()
    ->check(check::nonEmpty());
  faceCreate
    ->add_option("LOCAL,--local", o.faceLocalUri, "Local FaceUri: dev://IFNAME for an ether:// face (nfdc's local)")
    ->check(check::nonEmpty());
  faceCreate->add_option("--persistency", o.persistency, "persistent or permanent")
    ->check(CLI::IsMember({"persistent", "permanent"}))
    ->capture_default_str();
  addUnsignedOption(*faceCreate, "--mtu", o.mtu, "MTU override (bytes; 0 = none)");
  // link reliability (NFD's LpReliability flag) and BLEnD settings (ndnlab extension;
  // docs/mechanisms/bundling.md)
  auto addBundlingOptions = [&](CLI::App* cmd) {
    cmd
      ->add_option("--reliability", o.reliability,
                   "NDNLPv2 link reliability on this face (NFD's LpReliability flag): on or off")
      ->check(CLI::IsMember({"on", "off"}));
    cmd->add_option("--medium", o.medium, "Physical medium: wired or wireless (wireless faces may bundle)")
      ->check(CLI::IsMember({"wired", "wireless"}));
    cmd->add_option("--bundling", o.bundling, "BLEnD Interest bundling on this face: on or off")
      ->check(CLI::IsMember({"on", "off"}));
    addUnsignedOption(*cmd, "--bundle-interval", o.bundleInterval, "Bundle interval BI (0..256)", 0, 256);
    // MIRCC (ndnlab extension; docs/mechanisms/mircc.md)
    cmd
      ->add_option("--mircc-capacity", o.mirccCapacity,
                   "MIRCC on this face, with the capacity C of the link its Data return over (e.g. 12Mbit/s); 0 = off")
      ->check(CLI::Validator(
        [](std::string& v) {
          return parseBitRate(v) ? std::string() : "not a bit rate (e.g. 12Mbit/s, 500k, 0): " + v;
        },
        "RATE"));
  };
  auto setBundlingParameters = [&](ControlParameters& cp) {
    if (!o.reliability.empty()) {
      cp.flags = cp.flags.value_or(0) | (o.reliability == "on" ? mgmt::FaceFlagLpReliability : 0);
      cp.mask = cp.mask.value_or(0) | mgmt::FaceFlagLpReliability;
    }
    if (!o.medium.empty())
      cp.medium = o.medium == "wireless" ? 1 : 0;
    if (!o.bundling.empty()) {
      cp.flags = cp.flags.value_or(0) | (o.bundling == "on" ? mgmt::FaceFlagBundling : 0);
      cp.mask = cp.mask.value_or(0) | mgmt::FaceFlagBundling;
    }
    if (o.bundleInterval)
      cp.bundleInterval = *o.bundleInterval;
    if (!o.mirccCapacity.empty())
      cp.mirccCapacity = parseBitRate(o.mirccCapacity);
  };
  addBundlingOptions(faceCreate);
  faceCreate->callback([&] {
    ControlParameters cp;
    cp.uri = o.faceUri;
    if (!o.faceLocalUri.empty())
      cp.localUri = o.faceLocalUri;
    cp.facePersistency = o.persistency == "permanent" ? 2 : 0;
    if (o.mtu)
      cp.mtu = o.mtu;
    setBundlingParameters(cp);
    action = commandAction("faces", "create", cp, "face-created");
  });
  auto addFaceArgument = [&](CLI::App* cmd, const std::string& what) {
    cmd->add_option("FACE", o.face, what + ": a FaceId, or the remote FaceUri of an existing face")
      ->required()
      ->check(faceArgument());
  };
  auto* faceUpdate =
    face->add_subcommand("update", "Change a face's link reliability, BLEnD and MIRCC settings (faces/update)");
  addFaceArgument(faceUpdate, "Face");
  addBundlingOptions(faceUpdate);
  faceUpdate->callback([&] {
    ControlParameters cp;
    setBundlingParameters(cp);
    action = withFace(o.face,
                      [cp](uint64_t faceId) mutable {
                        cp.faceId = faceId;
                        return commandAction("faces", "update", cp, "face-updated");
                      },
                      {.checkId = false});
  });
  auto* faceDestroy = face->add_subcommand("destroy", "Destroy a face (faces/destroy)");
  addFaceArgument(faceDestroy, "Face");
  faceDestroy->callback([&] {
    action = withFace(o.face, [](uint64_t faceId) {
      return commandAction("faces", "destroy", ControlParameters{.faceId = faceId}, "face-destroyed");
    });
  });

  // route
  auto* route = app.add_subcommand("route", "Routes (RIB): add, remove, list");
  route->require_subcommand(1);
  auto* routeList = route->add_subcommand("list", "List routes (rib/list)");
  routeList->callback([&] { action = datasetAction("rib", "list", printRoutes); });
  auto* routeAdd = route->add_subcommand("add", "Add a route (rib/register)");
  routeAdd->add_option("PREFIX", o.prefix, "Name prefix")->required();
  addFaceArgument(routeAdd, "Next hop");
  addUnsignedOption(*routeAdd, "COST", o.cost, "Route cost")->capture_default_str();
  addUnsignedOption(*routeAdd, "--origin", o.origin, "Route origin (255 = static)")->capture_default_str();
  routeAdd->add_flag("--no-inherit", o.noInherit, "Clear the ChildInherit flag");
  routeAdd->add_flag("--capture", o.capture, "Set the Capture flag");
  // ExpirationPeriod 0 would remove the route at once (NFD): absent = never expires.
  addUnsignedOption(*routeAdd, "--expires", o.expiresMs, "Expiration period (ms; default: never expires)", 1);
  routeAdd->callback([&] {
    ControlParameters cp;
    cp.name = needName(o.prefix);
    cp.cost = o.cost;
    cp.origin = o.origin;
    cp.flags = (o.noInherit ? 0 : mgmt::RouteFlagChildInherit) | (o.capture ? mgmt::RouteFlagCapture : 0);
    if (o.expiresMs) // clamped like a decoded ExpirationPeriod, so the int64 count cannot wrap
      cp.expirationPeriod = std::chrono::milliseconds(std::min<uint64_t>(*o.expiresMs, MaxExpirationMs));
    // rib/register refuses an unknown FaceId itself (410), so a FaceId is sent unchecked.
    action = withFace(o.face,
                      [cp](uint64_t faceId) mutable {
                        cp.faceId = faceId;
                        return commandAction("rib", "register", cp, "route-add-accepted");
                      },
                      {.checkId = false, .suggestCreate = true});
  });
  auto* routeRemove = route->add_subcommand("remove", "Remove a route (rib/unregister)");
  routeRemove->add_option("PREFIX", o.prefix, "Name prefix")->required();
  addFaceArgument(routeRemove, "Next hop");
  addUnsignedOption(*routeRemove, "--origin", o.origin, "Route origin (255 = static)")->capture_default_str();
  routeRemove->callback([&] {
    ControlParameters cp;
    cp.name = needName(o.prefix);
    cp.origin = o.origin;
    action = withFace(o.face, [cp](uint64_t faceId) mutable {
      cp.faceId = faceId;
      return commandAction("rib", "unregister", cp, "route-removed");
    });
  });

  // fib
  auto* fib = app.add_subcommand("fib", "Forwarding table: list");
  fib->require_subcommand(1);
  fib->add_subcommand("list", "List FIB entries (fib/list)")->callback([&] {
    action = datasetAction("fib", "list", printFib);
  });

  // strategy
  auto* strategy = app.add_subcommand("strategy", "Strategy choice: set, unset, list");
  strategy->require_subcommand(1);
  strategy->add_subcommand("list", "List strategy choices (strategy-choice/list)")->callback([&] {
    action = datasetAction("strategy-choice", "list", printStrategies);
  });
  auto* strategySet = strategy->add_subcommand("set", "Choose a strategy for a prefix (strategy-choice/set)");
  strategySet->add_option("PREFIX", o.prefix, "Name prefix")->required();
  strategySet
    ->add_option("STRATEGY", o.strategy, "Strategy name, e.g. /localhost/nfd/strategy/best-route or just best-route")
    ->required()
    ->check(check::nonEmpty());
  strategySet->callback([&] {
    ControlParameters cp;
    cp.name = needName(o.prefix);
    std::string s = o.strategy.find('/') == std::string::npos ? "/localhost/nfd/strategy/" + o.strategy : o.strategy;
    cp.strategy = needName(s);
    action = commandAction("strategy-choice", "set", cp, "strategy-set");
  });
  auto* strategyUnset = strategy->add_subcommand("unset", "Remove the strategy choice of a prefix");
  strategyUnset->add_option("PREFIX", o.prefix, "Name prefix")->required();
  strategyUnset->callback([&] {
    ControlParameters cp;
    cp.name = needName(o.prefix);
    action = commandAction("strategy-choice", "unset", cp, "strategy-unset");
  });

  // status, cs
  app.add_subcommand("status", "General forwarder status (status/general; ndnlabd: and drop counters)")->callback([&] {
    action = statusAction();
  });
  app.add_subcommand("drops", "Drop counters by kind and reason (ndnlabd's ndnlab/drops dataset)")->callback([&] {
    action = datasetAction("ndnlab", "drops", printDrops);
  });
  auto* cs = app.add_subcommand("cs", "Content Store: info");
  cs->require_subcommand(1);
  cs->add_subcommand("info", "Content Store information (cs/info)")->callback([&] {
    action = datasetAction("cs", "info", printCs);
  });

  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;
  if (badName)
    return exitcode::BadArgs;
  if (!action) {
    std::cerr << app.help();
    return exitcode::BadArgs;
  }

  ToolRuntime rt(o.verbosity.logLevel());
  auto conn = ForwarderConnection::open(rt, o.connection);
  if (!conn)
    return rt.failureExitCode();
  int rc = exitcode::Failure;
  conn->onClose = [&](const std::string& reason) {
    printError(reason);
    rt.stop();
  };
  rt.onSignal = [&](int) {
    rc = exitcode::Interrupted;
    rt.stop();
  };
  MgmtClient mgmt(rt.env, *conn);
  action(mgmt, [&](int code) {
    rc = code;
    rt.stop();
  });
  rt.run();
  return rc;
}

} // namespace ndnlab::tools
