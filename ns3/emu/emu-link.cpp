// ndnlab-emu-link: joins two Linux network namespaces through one link simulated by ns-3 in
// real time: a full-duplex point-to-point link (rate, propagation delay, random loss, drop-tail
// queue; `--link p2p`, the default), an 802.11 BSS of one station and one access point
// (`--link wifi`, the `wifi-one-hop` scenario's radio), or one 802.11 ad hoc channel of N nodes
// (`--link wifi-adhoc`, the radio of `wifi-chain` and `wifi-hidden`), one tap per node.
//
// Why: the kernels ndnlab runs on have tbf/htb but no netem, so delay and loss cannot come from
// `tc` (docs/decisions/0005-emulation-engine.md, issue 27 item 2).
//
// Topology inside the process (one direction shown; the other is the mirror image):
//
//   netns A            | ns-3 (RealtimeSimulatorImpl)                                | netns B
//   kernel --> tap A --fd--> FdNetDevice A --promisc--> PointToPointNetDevice A ==channel==>
//                                                       PointToPointNetDevice B --promisc-->
//                                                       FdNetDevice B --fd--> tap B --> kernel
//
// - The link is ns-3's point-to-point model, the one `ndnlab sim` uses: DataRate serialises each
//   frame, the channel Delay is the one-way propagation delay, the device TxQueue is a DropTail
//   queue, and a RateErrorModel (unit: packet) on the receiving device drops frames at random.
//   The channel's Delay is --delay less --latency-offset: the time the emulation adds to every
//   frame by itself (the tap reader thread's wake-up, the real-time scheduler's late wake-ups,
//   the tap write), which ndnlab emu measures before a run, so that frames cross in --delay.
// - PointToPointNetDevice only knows the PPP numbers of IPv4 and IPv6, so every frame is sent as
//   PPP "IPv4" and its real Ethernet source, destination and EtherType ride along in a packet tag
//   (FrameAddressTag, zero bytes on the simulated wire). Each frame therefore costs
//   (Ethernet payload + 2 bytes PPP) of link capacity, exactly as in `ndnlab sim`.
// - The FdNetDevices are only ports: promiscuous, they hand every frame to the link and write
//   every frame from the link to the tap with its original MAC addresses (SendFrom), so ARP and
//   NDN's EtherType 0x8624 cross unchanged.
//
// `--link wifi` (issue 27: BLEnD over a simulated Wi-Fi channel on real daemons):
//
//   netns A            | ns-3 (RealtimeSimulatorImpl)                                | netns B
//   kernel <-> tap A <-fd-> FdNetDevice A <-promisc-> WifiNetDevice (station) ))) (((
//                                                     WifiNetDevice (access point) <-promisc->
//                                                     FdNetDevice B <-fd-> tap B <-> kernel
//
// - The two Wi-Fi nodes are sim::WifiOneHop, exactly as `ndnlab sim wifi-one-hop` builds them
//   (standard, data mode, distance, frame loss, broadcast at the data rate, A-MPDU, ns-3 seed,
//   run and the streams from --stream), with sim::applyRadioOverrides on top.
// - Each tap's kernel MAC is set to its Wi-Fi device's address, so the 802.11 frames carry the
//   kernels' own addresses and no tag is needed: a frame to a unicast Ethernet address goes as a
//   unicast 802.11 frame (ACK, retries), one to a broadcast or multicast address as a group-
//   addressed frame (no ACK, no retry), through ns-3's infrastructure rules (a station's frames
//   go to the access point, which relays group-addressed ones into the BSS).
// - Each frame costs what it costs in `ndnlab sim`: its payload (the IP datagram) plus the
//   LLC/SNAP and 802.11 headers; the taps' MTU is the Wi-Fi device's (2296) unless --mtu is lower.
// - 'ready' is printed once the station has associated (simulated time runs from the start).
//
// `--link wifi-adhoc` (issue 27: the multi-hop BLEnD scenarios on real daemons):
//
//   netns 0: kernel <-> tap <-fd-> FdNetDevice <-promisc-> WifiNetDevice (ad hoc, x0) )))
//   netns 1: kernel <-> tap <-fd-> FdNetDevice <-promisc-> WifiNetDevice (ad hoc, x1) )))  one
//   ...                                                                                    channel
//   netns N-1: ...                                                  WifiNetDevice (ad hoc, xN-1) )))
//
// - The nodes are sim::WifiAdhoc as makeAdhocLine (wifi-multihop-kit) builds them: node i at
//   x = --positions[i] on a line, a RangePropagationLossModel cut-off at --range after the
//   log-distance loss, standard, data mode, broadcast at the data rate, A-MPDU, and the seed,
//   run and streams of `ndnlab sim`; sim::applyRadioOverrides on top.
// - Each node is one WifiPort: its tap's kernel MAC is its device's address, what the kernel
//   sends goes on the air from that node (unicast 802.11 with ACK and retries to a unicast
//   address, group-addressed otherwise), and what its MAC forwards up (frames to it, or group-
//   addressed ones it decoded) goes to its kernel. No association: 'ready' once the taps are up.
//
// `--pcap-a FILE`, `--pcap-b FILE` (wifi-adhoc: `--pcap FILE` per port): ns-3's own pcap of each
// tap port (PcapHelper on the FdNetDevice's PromiscSniffer): every Ethernet frame the kernel of
// that end sent into the link and every one the link delivered to it, all models alike;
// timestamps are the simulator's clock, which in real time counts from the program's start.
//
// Threads: ns-3 starts one reader thread per FdNetDevice (blocking read() on the tap), which
// schedules each frame into the simulator "now" in real time. Everything else runs on the main
// thread. The program ends on SIGINT/SIGTERM, writes its counters (--stats-json) and exits 0.
//
// Exit status: 0 after a signal-requested stop; 1 when setting up (namespace, tap) fails or
// (wifi) the station does not associate within 10 s;
// 2 on bad command-line input.
//

// Single ns-3 headers, never ns3/core-module.h: that one pulls in ns3/singleton.h, whose
// `Singleton<T>()` constructors GCC 12 rejects in C++20 mode (ns-3.37 targets C++17).
// point-to-point-net-device.h must precede point-to-point-channel.h, which is not
// self-contained in C++20 mode (Ptr<> of an incomplete PointToPointNetDevice).
#include "ns3/ndnlab/helper/wifi-adhoc.hpp"
#include "ns3/ndnlab/helper/wifi-one-hop.hpp"
#include "ns3/ndnlab/helper/wifi-radio.hpp"

#include <ns3/boolean.h>
#include <ns3/config.h>
#include <ns3/drop-tail-queue.h>
#include <ns3/enum.h>
#include <ns3/error-model.h>
#include <ns3/fd-net-device.h>
#include <ns3/global-value.h>
#include <ns3/mac48-address.h>
#include <ns3/node.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/point-to-point-channel.h>
#include <ns3/queue-size.h>
#include <ns3/queue.h>
#include <ns3/realtime-simulator-impl.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/sta-wifi-mac.h>
#include <ns3/tag.h>
#include <ns3/trace-helper.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-mpdu.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-phy.h>
#include <ns3/wifi-remote-station-manager.h>

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/if_tun.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pthread.h>

namespace ndnlab::emu {

// ---------------------------------------------------------------------------------------------
// Options: the single source of every knob of the program.
// ---------------------------------------------------------------------------------------------

/// An IPv4 interface address given as CIDR ("10.99.0.1/24").
struct Ipv4Cidr
{
  in_addr address{};
  int prefixLength = 0;
};

/// The ns-3 model between the taps.
enum class LinkModel {
  PointToPoint, ///< `--link p2p`: PointToPointNetDevice pair (rate, delay, loss, queue)
  Wifi,         ///< `--link wifi`: sim::WifiOneHop (station on end A, access point on end B)
  WifiAdhoc,    ///< `--link wifi-adhoc`: sim::WifiAdhoc, one node per --ns/--dev port
};

/// One port of `--link wifi-adhoc`: a tap in a namespace, as `--ns NAME --dev TAP [--addr CIDR]
/// [--pcap FILE]` (the flags after an --ns belong to its port).
struct PortSpec
{
  std::string ns;               ///< network namespace (name under /run/netns)
  std::string dev;              ///< tap device created in it
  std::optional<Ipv4Cidr> addr; ///< if set, assigned to the tap (else the caller does it)
  std::string pcap;             ///< if not empty, pcap of the tap's frames both ways (Ethernet)
};

struct EmuLinkOptions
{
  LinkModel model = LinkModel::PointToPoint;              ///< --link p2p|wifi|wifi-adhoc
  std::string nsA;                                        ///< network namespace of end A (name under /run/netns)
  std::string devA;                                       ///< tap device created in namespace A
  std::string nsB;                                        ///< network namespace of end B
  std::string devB;                                       ///< tap device created in namespace B
  ns3::DataRate rate{100'000'000};                        ///< link rate, each direction (PPP framing counted)
  ns3::Time delay = ns3::MilliSeconds(10);                ///< one-way propagation delay
  ns3::Time latencyOffset;                                ///< p2p: taken off the modelled delay: the time
                                                          ///< the emulation itself adds to a frame
  double lossProbability = 0.0;                           ///< probability that a frame is lost, each direction, [0, 1]
  ns3::QueueSize queue{ns3::QueueSizeUnit::PACKETS, 100}; ///< DropTail limit, each direction
  uint32_t seed = 1;                                      ///< ns-3 RNG seed (RngSeedManager::SetSeed)
  uint64_t run = 1;                                       ///< ns-3 run number: the replication (RngSeedManager::SetRun)
  int64_t stream = 0;                                     ///< p2p: RNG stream of the B->A losses; A->B uses stream + 1;
                      ///< wifi: first stream of WifiOneHop (default its own, 2000000)
  uint16_t mtu = 1500;           ///< IP MTU of the taps and of the link, bytes (wifi: at most,
                                 ///< and by default, the Wi-Fi device's 2296)
  sim::WifiOneHopOptions wifi;   ///< wifi: standard (11b | 11n-5 | 11n-2.4), distance (m),
                                 ///< frame loss, broadcast at the data rate
  sim::WifiRadioOverrides radio; ///< wifi: data mode override, A-MPDU
  std::set<std::string> given;   ///< the flags on the command line
  std::optional<Ipv4Cidr> addrA; ///< if set, assigned to tap A (else the caller does it)
  std::optional<Ipv4Cidr> addrB; ///< if set, assigned to tap B
  std::string statsJsonPath;     ///< if not empty, counters are written here at exit
  std::string pcapA;             ///< if not empty, pcap of tap A's frames both ways (Ethernet)
  std::string pcapB;             ///< if not empty, pcap of tap B's frames both ways (Ethernet)
  std::vector<PortSpec> ports;   ///< wifi-adhoc: the nodes' taps, node i = ports[i]
  std::vector<double> positions; ///< wifi-adhoc: x of node i on a line, metres (--positions)
  double range = 0;              ///< wifi-adhoc: radio range, metres; 0 = log-distance loss only
};

/// A bad command-line value; main() prints it and exits with status 2.
class UsageError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/// A failure of the environment (namespace, tap, ioctl); main() prints it and exits with 1.
class SetupError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

constexpr std::string_view USAGE =
  "usage: ndnlab-emu-link --ns-a NAME --dev-a TAP --ns-b NAME --dev-b TAP [--link p2p|wifi]\n"
  "       ndnlab-emu-link --link wifi-adhoc --positions X0,X1,... (--ns NAME --dev TAP [--addr CIDR]\n"
  "                       [--pcap FILE])... [--range 0]\n"
  "         p2p:  [--rate 100Mbps] [--delay 10ms] [--loss 0.01] [--queue 100p|150000B]\n"
  "               [--latency-offset 0us]\n"
  "         wifi: [--standard 11b|11n-5|11n-2.4] [--data-mode MODE] [--distance 5] [--frame-loss 0]\n"
  "               [--broadcast-at-data-rate true|false] [--ampdu true|false]\n"
  "         wifi-adhoc: the radio flags of wifi but --distance and --frame-loss\n"
  "         [--seed N] [--run N] [--stream N] [--mtu 1500] [--addr-a CIDR] [--addr-b CIDR]\n"
  "         [--stats-json PATH] [--pcap-a FILE] [--pcap-b FILE]\n"
  "  wifi: end A is the station, end B the access point of ndnlab sim's wifi-one-hop radio;\n"
  "  --stream is the first of its RNG streams (default 2000000, as the scenario's)\n"
  "  wifi-adhoc: one 802.11 ad hoc channel of ndnlab sim's wifi-chain and wifi-hidden radio\n"
  "  (sim::WifiAdhoc): node i at x = the i-th of --positions (metres, on a line) with the tap of\n"
  "  the i-th --ns/--dev port (2..64 ports); --range cuts the signal off beyond it (metres; 0 =\n"
  "  none): nodes farther apart neither decode nor sense each other; --addr and --pcap after an\n"
  "  --ns belong to that port; --stats-json has each port's counters (ports[i])\n"
  "  rate units: bps kbps Mbps Gbps (also kbit/s Mbit/s Gbit/s), decimal prefixes\n"
  "  delay units: s ms us ns; loss is a probability per frame in [0, 1]\n"
  "  --latency-offset: the time the emulation itself adds to each frame (tap, threads, timer\n"
  "  wake-ups; ndnlab emu measures it), taken off the channel's delay (not below 0), so frames\n"
  "  cross in about --delay plus their transmission time\n"
  "  losses: ns-3 seed, run and the two streams stream, stream + 1 (B->A, A->B); vary --run\n"
  "  for independent replications (ns-3: runs are disjoint substreams, seeds need not be)\n"
  "  --pcap-a/--pcap-b: ns-3's pcap (Ethernet) of each tap's frames, both directions\n"
  "  Prints 'ready' on stdout once all taps exist and are up (wifi: and the station has\n"
  "  associated); stops on SIGINT/SIGTERM. Exit status 2 on bad input, 1 when set-up fails.\n";

/// Splits "123.5unit" into its number and unit; throws UsageError if there is no number.
std::pair<double, std::string_view> splitNumberUnit(std::string_view flag, std::string_view text)
{
  std::string s(text);
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(s, &used);
  }
  catch (const std::exception&) {
    throw UsageError(std::string(flag) + ": '" + s + "' does not start with a number");
  }
  if (!(value >= 0)) { // also rejects NaN
    throw UsageError(std::string(flag) + ": '" + s + "' must not be negative");
  }
  return {value, text.substr(used)};
}

ns3::DataRate parseRate(std::string_view flag, std::string_view text)
{
  auto [value, unit] = splitNumberUnit(flag, text);
  double multiplier = 0;
  if (unit == "bps" || unit == "bit/s") {
    multiplier = 1;
  }
  else if (unit == "kbps" || unit == "Kbps" || unit == "kbit/s") {
    multiplier = 1e3;
  }
  else if (unit == "Mbps" || unit == "Mbit/s") {
    multiplier = 1e6;
  }
  else if (unit == "Gbps" || unit == "Gbit/s") {
    multiplier = 1e9;
  }
  else {
    throw UsageError(std::string(flag) + ": unknown rate unit in '" + std::string(text) +
                     "' (use bps, kbps, Mbps or Gbps)");
  }
  double bps = value * multiplier;
  if (bps < 1 || bps > 100e9) {
    throw UsageError(std::string(flag) + ": rate '" + std::string(text) + "' outside 1 bps .. 100 Gbps");
  }
  return ns3::DataRate(static_cast<uint64_t>(bps));
}

ns3::Time parseDelay(std::string_view flag, std::string_view text)
{
  auto [value, unit] = splitNumberUnit(flag, text);
  double ns = 0;
  if (unit == "s") {
    ns = value * 1e9;
  }
  else if (unit == "ms") {
    ns = value * 1e6;
  }
  else if (unit == "us") {
    ns = value * 1e3;
  }
  else if (unit == "ns") {
    ns = value;
  }
  else {
    throw UsageError(std::string(flag) + ": unknown time unit in '" + std::string(text) + "' (use s, ms, us or ns)");
  }
  if (ns > 60e9) {
    throw UsageError(std::string(flag) + ": delay '" + std::string(text) + "' above 60 s");
  }
  return ns3::NanoSeconds(static_cast<int64_t>(ns));
}

ns3::QueueSize parseQueue(std::string_view flag, std::string_view text)
{
  auto [value, unit] = splitNumberUnit(flag, text);
  if (value != static_cast<double>(static_cast<uint32_t>(value)) || value < 1) {
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' must be a positive integer with unit p or B");
  }
  if (unit == "p") {
    return ns3::QueueSize(ns3::QueueSizeUnit::PACKETS, static_cast<uint32_t>(value));
  }
  if (unit == "B") {
    return ns3::QueueSize(ns3::QueueSizeUnit::BYTES, static_cast<uint32_t>(value));
  }
  throw UsageError(std::string(flag) + ": unknown queue unit in '" + std::string(text) +
                   "' (use p for packets or B for bytes)");
}

double parseProbability(std::string_view flag, std::string_view text)
{
  auto [value, unit] = splitNumberUnit(flag, text);
  if (!unit.empty() || value > 1) {
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not a probability in [0, 1] (1 % is 0.01)");
  }
  return value;
}

uint64_t parseUnsigned(std::string_view flag, std::string_view text, uint64_t min, uint64_t max)
{
  auto [value, unit] = splitNumberUnit(flag, text);
  if (!unit.empty() || value != static_cast<double>(static_cast<uint64_t>(value)) || value < static_cast<double>(min) ||
      value > static_cast<double>(max)) {
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not an integer in " + std::to_string(min) +
                     ".." + std::to_string(max));
  }
  return static_cast<uint64_t>(value);
}

Ipv4Cidr parseCidr(std::string_view flag, std::string_view text)
{
  auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not ADDRESS/PREFIX");
  }
  Ipv4Cidr cidr;
  std::string address(text.substr(0, slash));
  if (inet_pton(AF_INET, address.c_str(), &cidr.address) != 1) {
    throw UsageError(std::string(flag) + ": '" + address + "' is not an IPv4 address");
  }
  cidr.prefixLength = static_cast<int>(parseUnsigned(flag, text.substr(slash + 1), 0, 32));
  return cidr;
}

/// Namespace and interface names become paths and ifreq fields: keep them plain.
std::string checkName(std::string_view flag, std::string_view text, size_t maxLength)
{
  if (text.empty() || text.size() > maxLength || text.find('/') != std::string_view::npos || text == "." ||
      text == "..") {
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not a valid name (1.." +
                     std::to_string(maxLength) + " characters, no '/')");
  }
  return std::string(text);
}

/// Largest seed ns-3 accepts: each of MRG32k3a's six state words starts at the seed and must stay
/// below m2 = 4294944443 (RngStream aborts otherwise).
constexpr uint64_t MAX_SEED = 4294944442;
/// Largest run number taken: the command line is parsed through a double, exact up to 2^53.
constexpr uint64_t MAX_RUN = uint64_t{1} << 53;
/// Streams ns-3 leaves to models' AssignStreams (below 2^63, the automatic ones); one more for A->B.
constexpr uint64_t MAX_STREAM = (uint64_t{1} << 62) - 2;

bool parseBool(std::string_view flag, std::string_view text)
{
  if (text == "true" || text == "1") {
    return true;
  }
  if (text == "false" || text == "0") {
    return false;
  }
  throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not true or false");
}

/// WifiOneHop's own first stream: what `ndnlab sim wifi-one-hop` draws its Wi-Fi streams from.
constexpr int64_t WIFI_FIRST_STREAM = 2'000'000;

/// The flags of one link model only.
constexpr std::array<std::string_view, 5> P2P_FLAGS = {"--rate", "--delay", "--loss", "--queue", "--latency-offset"};
constexpr std::array<std::string_view, 6> WIFI_FLAGS = {
  "--standard", "--data-mode", "--distance", "--frame-loss", "--broadcast-at-data-rate", "--ampdu"};
/// The flags of --link wifi-adhoc only, and those of the two-end links only.
constexpr std::array<std::string_view, 6> ADHOC_FLAGS = {"--ns", "--dev", "--addr", "--pcap", "--positions", "--range"};
constexpr std::array<std::string_view, 8> TWO_END_FLAGS = {"--ns-a",   "--dev-a",  "--ns-b",   "--dev-b",
                                                           "--addr-a", "--addr-b", "--pcap-a", "--pcap-b"};
/// Most ports of one ad hoc channel (ndnlab emu runs at most 32 daemons).
constexpr size_t MAX_PORTS = 64;

/// Metres without a unit, in [0, 1e6], or (0, 1e6] unless `zeroAllowed`; `what` names the value
/// in the error ("a distance").
double parseMetres(std::string_view flag, std::string_view text, std::string_view what, bool zeroAllowed)
{
  auto [metres, unit] = splitNumberUnit(flag, text);
  if (!unit.empty() || (zeroAllowed ? metres < 0 : !(metres > 0)) || metres > 1e6) {
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not " + std::string(what) +
                     " in metres in " + (zeroAllowed ? "[" : "(") + "0, 1e6]");
  }
  return metres;
}

/// "0,20,40": metres, each in [0, 1e6].
std::vector<double> parsePositions(std::string_view flag, std::string_view text)
{
  std::vector<double> xs;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string_view item =
      text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    xs.push_back(parseMetres(flag, item, "a position", true));
    if (comma == std::string_view::npos) {
      break;
    }
    start = comma + 1;
  }
  return xs;
}

/// The last port an --ns opened, for the flags that follow it.
PortSpec& currentPort(EmuLinkOptions& opts, std::string_view flag)
{
  if (opts.ports.empty()) {
    throw UsageError(std::string(flag) + " before any --ns: it belongs to the port of the --ns before it");
  }
  return opts.ports.back();
}

/// Checks the flags of `--link wifi-adhoc` once all are read.
void checkAdhocPorts(const EmuLinkOptions& opts)
{
  if (opts.ports.size() < 2 || opts.ports.size() > MAX_PORTS) {
    throw UsageError("--link wifi-adhoc needs 2.." + std::to_string(MAX_PORTS) +
                     " ports (--ns NAME --dev TAP each), got " + std::to_string(opts.ports.size()));
  }
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < opts.ports.size(); ++i) {
    const PortSpec& port = opts.ports[i];
    if (port.dev.empty()) {
      throw UsageError("port " + std::to_string(i) + " (--ns " + port.ns + ") has no --dev");
    }
    if (!seen.emplace(port.ns, port.dev).second) {
      throw UsageError("two ports name tap " + port.dev + " in namespace " + port.ns);
    }
  }
  if (opts.positions.size() != opts.ports.size()) {
    throw UsageError("--positions: " + std::to_string(opts.positions.size()) + " positions for " +
                     std::to_string(opts.ports.size()) + " ports (one x in metres per port)");
  }
}

/// Parses "--flag value" and "--flag=value"; throws UsageError on anything else.
EmuLinkOptions parseCommandLine(int argc, char** argv)
{
  EmuLinkOptions opts;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << USAGE;
      std::exit(0);
    }
    if (arg.substr(0, 2) != "--") {
      throw UsageError("unexpected argument '" + std::string(arg) + "'");
    }
    std::string_view flag = arg;
    std::string_view value;
    if (auto eq = arg.find('='); eq != std::string_view::npos) {
      flag = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    else if (i + 1 < argc) {
      value = argv[++i];
    }
    else {
      throw UsageError(std::string(flag) + " needs a value");
    }

    opts.given.insert(std::string(flag));
    if (flag == "--link") {
      if (value == "p2p") {
        opts.model = LinkModel::PointToPoint;
      }
      else if (value == "wifi") {
        opts.model = LinkModel::Wifi;
      }
      else if (value == "wifi-adhoc") {
        opts.model = LinkModel::WifiAdhoc;
      }
      else {
        throw UsageError("--link: '" + std::string(value) + "' is not p2p, wifi or wifi-adhoc");
      }
    }
    else if (flag == "--standard") {
      opts.wifi.standard = std::string(value);
      try {
        sim::wifiStandardSetup(opts.wifi.standard);
      }
      catch (const std::invalid_argument& e) {
        throw UsageError(std::string(flag) + ": " + e.what());
      }
    }
    else if (flag == "--data-mode") {
      opts.radio.dataMode = std::string(value); // checked against the PHY once it exists
    }
    else if (flag == "--distance") {
      opts.wifi.distance = parseMetres(flag, value, "a distance", false);
    }
    else if (flag == "--frame-loss") {
      opts.wifi.frameLoss = parseProbability(flag, value);
    }
    else if (flag == "--broadcast-at-data-rate") {
      opts.wifi.broadcastAtDataRate = parseBool(flag, value);
      opts.radio.broadcastAtDataRate = opts.wifi.broadcastAtDataRate;
    }
    else if (flag == "--ampdu") {
      opts.radio.ampdu = parseBool(flag, value);
    }
    else if (flag == "--ns") {
      opts.ports.push_back(PortSpec{checkName(flag, value, 255), "", std::nullopt, ""});
    }
    else if (flag == "--dev") {
      currentPort(opts, flag).dev = checkName(flag, value, IFNAMSIZ - 1);
    }
    else if (flag == "--addr") {
      currentPort(opts, flag).addr = parseCidr(flag, value);
    }
    else if (flag == "--pcap") {
      if (value.empty()) {
        throw UsageError(std::string(flag) + " needs a file name");
      }
      currentPort(opts, flag).pcap = std::string(value);
    }
    else if (flag == "--positions") {
      opts.positions = parsePositions(flag, value);
    }
    else if (flag == "--range") {
      opts.range = parseMetres(flag, value, "a range", true);
    }
    else if (flag == "--ns-a") {
      opts.nsA = checkName(flag, value, 255);
    }
    else if (flag == "--dev-a") {
      opts.devA = checkName(flag, value, IFNAMSIZ - 1);
    }
    else if (flag == "--ns-b") {
      opts.nsB = checkName(flag, value, 255);
    }
    else if (flag == "--dev-b") {
      opts.devB = checkName(flag, value, IFNAMSIZ - 1);
    }
    else if (flag == "--rate") {
      opts.rate = parseRate(flag, value);
    }
    else if (flag == "--delay") {
      opts.delay = parseDelay(flag, value);
    }
    else if (flag == "--latency-offset") {
      opts.latencyOffset = parseDelay(flag, value);
    }
    else if (flag == "--loss") {
      opts.lossProbability = parseProbability(flag, value);
    }
    else if (flag == "--queue") {
      opts.queue = parseQueue(flag, value);
    }
    else if (flag == "--seed") {
      opts.seed = static_cast<uint32_t>(parseUnsigned(flag, value, 1, MAX_SEED));
    }
    else if (flag == "--run") {
      opts.run = parseUnsigned(flag, value, 0, MAX_RUN);
    }
    else if (flag == "--stream") {
      opts.stream = static_cast<int64_t>(parseUnsigned(flag, value, 0, MAX_STREAM));
    }
    else if (flag == "--mtu") {
      opts.mtu = static_cast<uint16_t>(parseUnsigned(flag, value, 68, 9000));
    }
    else if (flag == "--addr-a") {
      opts.addrA = parseCidr(flag, value);
    }
    else if (flag == "--addr-b") {
      opts.addrB = parseCidr(flag, value);
    }
    else if (flag == "--stats-json") {
      opts.statsJsonPath = std::string(value);
    }
    else if (flag == "--pcap-a" || flag == "--pcap-b") {
      if (value.empty()) {
        throw UsageError(std::string(flag) + " needs a file name");
      }
      (flag == "--pcap-a" ? opts.pcapA : opts.pcapB) = std::string(value);
    }
    else {
      throw UsageError("unknown option '" + std::string(flag) + "'");
    }
  }
  const char* model = opts.model == LinkModel::Wifi        ? "wifi"
                      : opts.model == LinkModel::WifiAdhoc ? "wifi-adhoc"
                                                           : "p2p";
  auto refuse = [&opts, model](std::span<const std::string_view> flags) {
    for (std::string_view f : flags) {
      if (opts.given.contains(std::string(f))) {
        throw UsageError(std::string(f) + " is not an option of --link " + model);
      }
    }
  };
  if (opts.model == LinkModel::WifiAdhoc) {
    refuse(P2P_FLAGS);
    refuse(TWO_END_FLAGS);
    refuse(std::array<std::string_view, 2>{"--distance", "--frame-loss"}); // the positions; no frame loss model
    checkAdhocPorts(opts);
  }
  else {
    refuse(ADHOC_FLAGS);
    refuse(opts.model == LinkModel::Wifi ? std::span<const std::string_view>(P2P_FLAGS)
                                         : std::span<const std::string_view>(WIFI_FLAGS));
    if (opts.nsA.empty() || opts.devA.empty() || opts.nsB.empty() || opts.devB.empty()) {
      throw UsageError("--ns-a, --dev-a, --ns-b and --dev-b are required");
    }
    if (opts.nsA == opts.nsB && opts.devA == opts.devB) {
      throw UsageError("both ends name the same tap in the same namespace");
    }
  }
  if (opts.model != LinkModel::PointToPoint && !opts.given.contains("--stream")) {
    opts.stream = WIFI_FIRST_STREAM;
  }
  return opts;
}

// ---------------------------------------------------------------------------------------------
// Taps in network namespaces.
// ---------------------------------------------------------------------------------------------

std::string errnoText(const std::string& what)
{
  return what + ": " + std::strerror(errno);
}

/// Owns a file descriptor; closes it unless release()d.
class UniqueFd
{
public:
  explicit UniqueFd(int fd = -1) noexcept : m_fd(fd) {}
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  UniqueFd& operator=(UniqueFd&& other) noexcept
  {
    std::swap(m_fd, other.m_fd);
    return *this;
  }
  ~UniqueFd()
  {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  int get() const noexcept { return m_fd; }
  int release() noexcept { return std::exchange(m_fd, -1); }

private:
  int m_fd;
};

/// While alive, the calling thread is in the named network namespace (an `ip netns` name);
/// the destructor returns it to the namespace it was in. Precondition: no other thread of this
/// process depends on the calling thread's namespace meanwhile.
class NetnsScope
{
public:
  explicit NetnsScope(const std::string& name) : m_original(::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC))
  {
    if (m_original.get() < 0) {
      throw SetupError(errnoText("open /proc/self/ns/net"));
    }
    UniqueFd target(::open(("/run/netns/" + name).c_str(), O_RDONLY | O_CLOEXEC));
    if (target.get() < 0) {
      target = UniqueFd(::open(("/var/run/netns/" + name).c_str(), O_RDONLY | O_CLOEXEC));
    }
    if (target.get() < 0) {
      throw SetupError(errnoText("network namespace '" + name + "' (/run/netns/" + name + ")"));
    }
    if (::setns(target.get(), CLONE_NEWNET) != 0) {
      throw SetupError(errnoText("setns into '" + name + "' (needs CAP_SYS_ADMIN)"));
    }
  }

  NetnsScope(const NetnsScope&) = delete;
  NetnsScope& operator=(const NetnsScope&) = delete;

  ~NetnsScope()
  {
    if (::setns(m_original.get(), CLONE_NEWNET) != 0) {
      // Continuing in the wrong namespace would open the second tap in the wrong place.
      std::cerr << "ndnlab-emu-link: cannot return to the original network namespace: " << std::strerror(errno)
                << std::endl;
      std::_Exit(1);
    }
  }

private:
  UniqueFd m_original;
};

/// One end of the link as the kernel sees it.
struct TapPort
{
  int fd = -1;                 ///< tap file descriptor, ownership passes to the FdNetDevice
  ns3::Mac48Address kernelMac; ///< MAC the kernel gave the tap (for logs only)
};

/// An ioctl on an AF_INET datagram socket of the current namespace, for interface settings.
void interfaceIoctl(int sock, unsigned long request, ifreq& ifr, const std::string& what)
{
  if (::ioctl(sock, request, &ifr) != 0) {
    throw SetupError(errnoText(what + " on " + ifr.ifr_name));
  }
}

/// Creates (or attaches to) tap `device` in namespace `netns`, sets its MTU, optionally its MAC
/// address and an IPv4 address, and brings it up. The tap lives as long as the returned fd
/// stays open.
TapPort openTapInNamespace(const std::string& netns, const std::string& device, uint16_t mtu,
                           const std::optional<Ipv4Cidr>& address,
                           const std::optional<ns3::Mac48Address>& mac = std::nullopt)
{
  NetnsScope inNamespace(netns);

  UniqueFd tap(::open("/dev/net/tun", O_RDWR | O_CLOEXEC));
  if (tap.get() < 0) {
    throw SetupError(errnoText("open /dev/net/tun"));
  }
  ifreq ifr{};
  ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
  std::strncpy(ifr.ifr_name, device.c_str(), IFNAMSIZ - 1);
  if (::ioctl(tap.get(), TUNSETIFF, &ifr) != 0) {
    throw SetupError(
      errnoText("TUNSETIFF " + device + " in " + netns + " (needs CAP_NET_ADMIN; a non-tap device of that name?)"));
  }

  UniqueFd sock(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (sock.get() < 0) {
    throw SetupError(errnoText("socket(AF_INET) in " + netns));
  }

  TapPort port;
  if (mac) {
    ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
    mac->CopyTo(reinterpret_cast<uint8_t*>(ifr.ifr_hwaddr.sa_data));
    interfaceIoctl(sock.get(), SIOCSIFHWADDR, ifr, "SIOCSIFHWADDR");
  }
  interfaceIoctl(sock.get(), SIOCGIFHWADDR, ifr, "SIOCGIFHWADDR");
  port.kernelMac.CopyFrom(reinterpret_cast<const uint8_t*>(ifr.ifr_hwaddr.sa_data));

  ifr.ifr_mtu = mtu;
  interfaceIoctl(sock.get(), SIOCSIFMTU, ifr, "SIOCSIFMTU");

  if (address) {
    auto* sin = reinterpret_cast<sockaddr_in*>(&ifr.ifr_addr);
    *sin = sockaddr_in{};
    sin->sin_family = AF_INET;
    sin->sin_addr = address->address;
    interfaceIoctl(sock.get(), SIOCSIFADDR, ifr, "SIOCSIFADDR");
    sin->sin_addr.s_addr = htonl(address->prefixLength == 0 ? 0 : ~uint32_t{0} << (32 - address->prefixLength));
    interfaceIoctl(sock.get(), SIOCSIFNETMASK, ifr, "SIOCSIFNETMASK");
  }

  interfaceIoctl(sock.get(), SIOCGIFFLAGS, ifr, "SIOCGIFFLAGS");
  ifr.ifr_flags |= IFF_UP;
  interfaceIoctl(sock.get(), SIOCSIFFLAGS, ifr, "SIOCSIFFLAGS");

  port.fd = tap.release();
  return port;
}

// ---------------------------------------------------------------------------------------------
// The simulated link.
// ---------------------------------------------------------------------------------------------

/// Carries a frame's Ethernet addressing across the point-to-point link, which has none.
/// Never serialised onto the simulated wire (a packet tag), so it costs no link capacity.
class FrameAddressTag : public ns3::Tag
{
public:
  static ns3::TypeId GetTypeId()
  {
    static ns3::TypeId tid =
      ns3::TypeId("ndnlab::emu::FrameAddressTag").SetParent<ns3::Tag>().AddConstructor<FrameAddressTag>();
    return tid;
  }

  FrameAddressTag() = default;
  FrameAddressTag(ns3::Mac48Address source, ns3::Mac48Address destination, uint16_t etherType)
    : m_source(source), m_destination(destination), m_etherType(etherType)
  {}

  ns3::TypeId GetInstanceTypeId() const override { return GetTypeId(); }
  uint32_t GetSerializedSize() const override { return 6 + 6 + 2; }

  void Serialize(ns3::TagBuffer buffer) const override
  {
    uint8_t mac[6];
    m_source.CopyTo(mac);
    buffer.Write(mac, 6);
    m_destination.CopyTo(mac);
    buffer.Write(mac, 6);
    buffer.WriteU16(m_etherType);
  }

  void Deserialize(ns3::TagBuffer buffer) override
  {
    uint8_t mac[6];
    buffer.Read(mac, 6);
    m_source.CopyFrom(mac);
    buffer.Read(mac, 6);
    m_destination.CopyFrom(mac);
    m_etherType = buffer.ReadU16();
  }

  void Print(std::ostream& os) const override
  {
    os << m_source << "->" << m_destination << " type=0x" << std::hex << m_etherType << std::dec;
  }

  ns3::Mac48Address source() const { return m_source; }
  ns3::Mac48Address destination() const { return m_destination; }
  uint16_t etherType() const { return m_etherType; }

private:
  ns3::Mac48Address m_source;
  ns3::Mac48Address m_destination;
  uint16_t m_etherType = 0;
};

/// Counters of one direction of the link. Frames are Ethernet frames; bytes include the
/// 14-byte Ethernet header (what the tap carries), not the PPP header.
struct DirectionCounters
{
  uint64_t framesIn = 0; ///< read from the ingress tap
  uint64_t bytesIn = 0;
  uint64_t framesOut = 0; ///< written to the egress tap
  uint64_t bytesOut = 0;
  uint64_t queueDrops = 0;      ///< DROP: DropTail queue full
  uint64_t lossDrops = 0;       ///< DROP: the error model lost the frame
  uint64_t oversizeDrops = 0;   ///< DROP: payload larger than the MTU
  uint64_t writeErrors = 0;     ///< DROP: write() to the egress tap failed
  uint32_t maxQueuePackets = 0; ///< highest queue occupancy seen after an enqueue
};

/// One direction: ingress tap port -> transmitting p2p device ~~ receiving p2p device -> egress
/// tap port. Its two handlers are the only code on the per-frame path.
class Direction
{
public:
  Direction(ns3::Ptr<ns3::PointToPointNetDevice> linkTx, ns3::Ptr<ns3::FdNetDevice> egressTap, uint16_t mtu)
    : m_linkTx(std::move(linkTx)), m_egressTap(std::move(egressTap)), m_mtu(mtu)
  {}

  /// Upper interface of the ingress FdNetDevice (promiscuous): a frame the kernel sent.
  bool onTapFrame(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet> payload, uint16_t etherType,
                  const ns3::Address& source, const ns3::Address& destination, ns3::NetDevice::PacketType)
  {
    ++m_counters.framesIn;
    m_counters.bytesIn += payload->GetSize() + ETHERNET_HEADER_BYTES;
    if (payload->GetSize() > m_mtu) {
      ++m_counters.oversizeDrops;
      return true;
    }
    ns3::Ptr<ns3::Packet> frame = payload->Copy();
    frame->AddPacketTag(
      FrameAddressTag(ns3::Mac48Address::ConvertFrom(source), ns3::Mac48Address::ConvertFrom(destination), etherType));
    // The p2p device's own addressing is irrelevant; PPP_AS_IPV4 only selects a PPP number it
    // knows. Send() returns false when the DropTail queue is full.
    if (!m_linkTx->Send(frame, m_linkTx->GetBroadcast(), PPP_AS_IPV4)) {
      ++m_counters.queueDrops;
    }
    else {
      m_counters.maxQueuePackets = std::max(m_counters.maxQueuePackets, m_linkTx->GetQueue()->GetNPackets());
    }
    return true;
  }

  /// Upper interface of the receiving p2p device (promiscuous): a frame that crossed the link.
  bool onLinkFrame(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet> payload, uint16_t, const ns3::Address&,
                   const ns3::Address&, ns3::NetDevice::PacketType)
  {
    ns3::Ptr<ns3::Packet> frame = payload->Copy();
    FrameAddressTag tag;
    if (!frame->RemovePacketTag(tag)) {
      NS_FATAL_ERROR("frame on the link without FrameAddressTag"); // only we send on it
    }
    uint32_t size = frame->GetSize() + ETHERNET_HEADER_BYTES;
    if (m_egressTap->SendFrom(frame, tag.source(), tag.destination(), tag.etherType())) {
      ++m_counters.framesOut;
      m_counters.bytesOut += size;
    }
    else {
      ++m_counters.writeErrors;
    }
    return true;
  }

  /// PhyRxDrop trace of the receiving p2p device: the error model lost a frame.
  void onLossDrop(ns3::Ptr<const ns3::Packet>) { ++m_counters.lossDrops; }

  const DirectionCounters& counters() const { return m_counters; }

private:
  static constexpr uint32_t ETHERNET_HEADER_BYTES = 14;
  static constexpr uint16_t PPP_AS_IPV4 = 0x0800;

  ns3::Ptr<ns3::PointToPointNetDevice> m_linkTx;
  ns3::Ptr<ns3::FdNetDevice> m_egressTap;
  uint16_t m_mtu;
  DirectionCounters m_counters;
};

/// How far the real-time scheduler ran behind the wall clock, sampled by the poll event.
struct LagCounters
{
  uint64_t polls = 0;
  uint64_t latePolls = 0; ///< polls that ran more than LATE_THRESHOLD behind real time
  int64_t maxLagNs = 0;
  int64_t sumLagNs = 0;
  static constexpr int64_t LATE_THRESHOLD_NS = 1'000'000;
};

/// SIGINT/SIGTERM set this; the poll event turns it into Simulator::Stop() on the main thread.
std::atomic<bool> g_stopRequested{false};

extern "C" void onStopSignal(int)
{
  g_stopRequested.store(true, std::memory_order_relaxed);
}

/// Blocks or unblocks SIGINT and SIGTERM for the calling thread (and threads it creates later).
void setStopSignalsBlocked(bool blocked)
{
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  ::pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &set, nullptr);
}

/// Installs the flag-setting handler. SA_RESTART: a signal never breaks a blocking call.
void installStopSignals()
{
  struct sigaction sa
  {};
  sa.sa_handler = onStopSignal;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

/// Runs the simulator in real time until SIGINT/SIGTERM, sampling how late it runs.
class RealtimeLoop
{
public:
  /// Runs until a stop signal. `onFirstPoll` (may be empty) runs at the first poll, when the
  /// FdNetDevice reader threads exist.
  void run(std::function<void()> onFirstPoll = {})
  {
    m_onFirstPoll = std::move(onFirstPoll);
    m_realtime = ns3::DynamicCast<ns3::RealtimeSimulatorImpl>(ns3::Simulator::GetImplementation());
    NS_ABORT_MSG_IF(!m_realtime, "simulator implementation is not RealtimeSimulatorImpl");
    ns3::Simulator::Schedule(pollPeriod(), &RealtimeLoop::poll, this);
    ns3::Simulator::Run();
  }

  /// `"realtime": {...},` and `"sim_seconds": ...,` lines of --stats-json.
  void writeStats(std::ostream& os) const
  {
    os << "  \"sim_seconds\": " << ns3::Simulator::Now().GetSeconds() << ",\n";
    os << "  \"realtime\": {\"polls\": " << m_lag.polls << ", \"late_polls\": " << m_lag.latePolls
       << ", \"late_threshold_us\": " << LagCounters::LATE_THRESHOLD_NS / 1000
       << ", \"max_lag_us\": " << m_lag.maxLagNs / 1000
       << ", \"mean_lag_us\": " << (m_lag.polls ? m_lag.sumLagNs / static_cast<int64_t>(m_lag.polls) / 1000 : 0)
       << "},\n";
  }

private:
  /// Simulated time between two polls: the stop latency and the lag sampling period.
  static ns3::Time pollPeriod() { return ns3::MilliSeconds(10); }

  /// Every pollPeriod() of simulated time: sample the real-time lag, honour a stop request.
  void poll()
  {
    if (m_lag.polls == 0) {
      // The FdNetDevice reader threads exist by now (started at time 0) and keep the mask
      // run() set; only this thread takes the stop signals from here on.
      setStopSignalsBlocked(false);
      if (m_onFirstPoll) {
        m_onFirstPoll();
      }
    }
    int64_t lag = (m_realtime->RealtimeNow() - ns3::Simulator::Now()).GetNanoSeconds();
    ++m_lag.polls;
    m_lag.sumLagNs += lag;
    m_lag.maxLagNs = std::max(m_lag.maxLagNs, lag);
    if (lag > LagCounters::LATE_THRESHOLD_NS) {
      ++m_lag.latePolls;
    }
    if (g_stopRequested.load(std::memory_order_relaxed)) {
      ns3::Simulator::Stop();
      return;
    }
    ns3::Simulator::Schedule(pollPeriod(), &RealtimeLoop::poll, this);
  }

  ns3::Ptr<ns3::RealtimeSimulatorImpl> m_realtime;
  LagCounters m_lag;
  std::function<void()> m_onFirstPoll;
};

/// A tap as a port of `node`: an FdNetDevice on its fd (DIX framing) whose own address is
/// never used; the device closes the fd on dispose.
ns3::Ptr<ns3::FdNetDevice> makeTapPort(const ns3::Ptr<ns3::Node>& node, const TapPort& tap, uint16_t mtu)
{
  auto dev = ns3::CreateObject<ns3::FdNetDevice>();
  dev->SetAddress(ns3::Mac48Address::Allocate());
  dev->SetEncapsulationMode(ns3::FdNetDevice::DIX);
  dev->SetMtu(mtu);
  dev->SetFileDescriptor(tap.fd);
  node->AddDevice(dev);
  return dev;
}

/// The receive callback of a device whose node has no protocol handlers (Node::AddDevice
/// installed one); the promiscuous callbacks carry the frames.
bool ignoreFrame(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet>, uint16_t, const ns3::Address&)
{
  return true;
}

/// The channel's delay: the modelled one less what the emulation itself adds (--latency-offset),
/// never below zero.
ns3::Time channelDelay(const EmuLinkOptions& opts)
{
  return opts.latencyOffset < opts.delay ? opts.delay - opts.latencyOffset : ns3::Time(0);
}

/// The whole link: two nodes, each with a tap port and one end of the point-to-point channel.
class EmuLink
{
public:
  EmuLink(const EmuLinkOptions& opts, const TapPort& tapA, const TapPort& tapB) : m_opts(opts)
  {
    auto nodeA = ns3::CreateObject<ns3::Node>();
    auto nodeB = ns3::CreateObject<ns3::Node>();

    m_tapA = makeTapPort(nodeA, tapA, opts.mtu);
    m_tapB = makeTapPort(nodeB, tapB, opts.mtu);
    m_linkA = makeLinkEnd(nodeA, opts.stream);     // loses B->A frames
    m_linkB = makeLinkEnd(nodeB, opts.stream + 1); // loses A->B frames

    auto channel = ns3::CreateObject<ns3::PointToPointChannel>();
    channel->SetAttribute("Delay", ns3::TimeValue(channelDelay(opts)));
    m_linkA->Attach(channel);
    m_linkB->Attach(channel);

    m_aToB.emplace(m_linkA, m_tapB, opts.mtu);
    m_bToA.emplace(m_linkB, m_tapA, opts.mtu);
    wire(*m_aToB, m_tapA, m_linkB);
    wire(*m_bToA, m_tapB, m_linkA);
  }

  /// Runs in real time until SIGINT/SIGTERM.
  void run() { m_loop.run(); }

  ns3::Ptr<ns3::FdNetDevice> tapA() const { return m_tapA; }
  ns3::Ptr<ns3::FdNetDevice> tapB() const { return m_tapB; }

  void writeStats(std::ostream& os) const
  {
    auto direction = [&os](const char* name, const DirectionCounters& c, bool last) {
      os << "  \"" << name << "\": {\"frames_in\": " << c.framesIn << ", \"bytes_in\": " << c.bytesIn
         << ", \"frames_out\": " << c.framesOut << ", \"bytes_out\": " << c.bytesOut
         << ", \"queue_drops\": " << c.queueDrops << ", \"loss_drops\": " << c.lossDrops
         << ", \"oversize_drops\": " << c.oversizeDrops << ", \"write_errors\": " << c.writeErrors
         << ", \"max_queue_packets\": " << c.maxQueuePackets << "}" << (last ? "\n" : ",\n");
    };
    os << "{\n";
    os << "  \"config\": {\"rate_bps\": " << m_opts.rate.GetBitRate()
       << ", \"delay_ns\": " << m_opts.delay.GetNanoSeconds()
       << ", \"latency_offset_ns\": " << m_opts.latencyOffset.GetNanoSeconds()
       << ", \"channel_delay_ns\": " << channelDelay(m_opts).GetNanoSeconds()
       << ", \"loss\": " << m_opts.lossProbability << ", \"queue\": \"" << m_opts.queue
       << "\", \"seed\": " << m_opts.seed << ", \"run\": " << m_opts.run << ", \"stream\": " << m_opts.stream
       << ", \"mtu\": " << m_opts.mtu << "},\n";
    m_loop.writeStats(os);
    direction("a_to_b", m_aToB->counters(), false);
    direction("b_to_a", m_bToA->counters(), true);
    os << "}\n";
  }

private:
  ns3::Ptr<ns3::PointToPointNetDevice> makeLinkEnd(const ns3::Ptr<ns3::Node>& node, int64_t stream)
  {
    auto dev = ns3::CreateObject<ns3::PointToPointNetDevice>();
    dev->SetAddress(ns3::Mac48Address::Allocate());
    dev->SetDataRate(m_opts.rate);
    dev->SetMtu(m_opts.mtu);
    auto queue = ns3::CreateObject<ns3::DropTailQueue<ns3::Packet>>();
    queue->SetMaxSize(m_opts.queue);
    dev->SetQueue(queue);
    if (m_opts.lossProbability > 0) {
      auto loss = ns3::CreateObject<ns3::RateErrorModel>();
      loss->SetUnit(ns3::RateErrorModel::ERROR_UNIT_PACKET);
      loss->SetRate(m_opts.lossProbability);
      loss->AssignStreams(stream); // fixed streams: same seed, run and stream, same losses
      dev->SetReceiveErrorModel(loss);
    }
    node->AddDevice(dev);
    return dev;
  }

  /// Connects one direction's handlers. Node::AddDevice installed the node's non-promiscuous
  /// receive callback; it has no protocol handlers here, so it is replaced by a no-op.
  void wire(Direction& dir, const ns3::Ptr<ns3::FdNetDevice>& ingressTap,
            const ns3::Ptr<ns3::PointToPointNetDevice>& linkRx)
  {
    ingressTap->SetPromiscReceiveCallback(ns3::MakeCallback(&Direction::onTapFrame, &dir));
    ingressTap->SetReceiveCallback(ns3::MakeCallback(&ignoreFrame));
    linkRx->SetPromiscReceiveCallback(ns3::MakeCallback(&Direction::onLinkFrame, &dir));
    linkRx->SetReceiveCallback(ns3::MakeCallback(&ignoreFrame));
    linkRx->TraceConnectWithoutContext("PhyRxDrop", ns3::MakeCallback(&Direction::onLossDrop, &dir));
  }

  EmuLinkOptions m_opts;
  ns3::Ptr<ns3::FdNetDevice> m_tapA, m_tapB;
  ns3::Ptr<ns3::PointToPointNetDevice> m_linkA, m_linkB;
  std::optional<Direction> m_aToB, m_bToA;
  RealtimeLoop m_loop;
};

/// Counters of one Wi-Fi node's port: the frames its tap carried each way (Ethernet frames,
/// 14-byte header included) and what its own radio dropped, retried and failed to receive.
struct WifiPortCounters
{
  uint64_t framesIn = 0; ///< read from the tap, handed to the node's radio
  uint64_t bytesIn = 0;
  uint64_t framesOut = 0; ///< received by the node's radio, written to the tap
  uint64_t bytesOut = 0;
  uint64_t oversizeDrops = 0; ///< DROP: payload larger than the MTU
  uint64_t writeErrors = 0;   ///< DROP: write() to the tap failed
  uint64_t macTxDrops = 0;    ///< DROP: refused by the MAC before queueing (MacTxDrop; e.g. not associated)
  uint64_t queueDrops = 0;    ///< DROP: the MAC queue was full (DroppedMpdu, failed enqueue)
  uint64_t lifetimeDrops = 0; ///< DROP: queued longer than the queue's MaxDelay (DroppedMpdu, expired lifetime)
  uint64_t retryDrops = 0;    ///< DROP: unicast frame not acknowledged within the retry limit
  uint64_t retries = 0;       ///< failed unicast transmissions (MacTxDataFailed): each was retried or dropped
  uint64_t phyRxDrops = 0;    ///< frames this PHY did not deliver (PhyRxDrop: collisions, noise, FrameLoss,
                              ///< reception aborted by its own transmission)
};

/// One Wi-Fi node's port: its tap <-> its WifiNetDevice. The kernel's frames go on the air from
/// this node, and the frames this node's MAC forwards up go to its kernel. Both `--link wifi`
/// (two ports) and `--link wifi-adhoc` (one per node) are built of these.
class WifiPort
{
public:
  WifiPort(ns3::Ptr<ns3::WifiNetDevice> wifi, ns3::Ptr<ns3::FdNetDevice> tap, uint16_t mtu)
    : m_wifi(std::move(wifi)), m_tap(std::move(tap)), m_mtu(mtu)
  {}
  WifiPort(const WifiPort&) = delete;
  WifiPort& operator=(const WifiPort&) = delete;

  /// Connects the handlers (the callbacks hold `this`: it must not move afterwards). The
  /// devices' own (non-promiscuous) receive callbacks have no protocol handlers here and
  /// become no-ops.
  void wire()
  {
    m_tap->SetPromiscReceiveCallback(ns3::MakeCallback(&WifiPort::onTapFrame, this));
    m_tap->SetReceiveCallback(ns3::MakeCallback(&ignoreFrame));
    m_wifi->SetPromiscReceiveCallback(ns3::MakeCallback(&WifiPort::onWifiFrame, this));
    m_wifi->SetReceiveCallback(ns3::MakeCallback(&ignoreFrame));
    m_wifi->GetMac()->TraceConnectWithoutContext("MacTxDrop", ns3::MakeCallback(&WifiPort::onMacTxDrop, this));
    m_wifi->GetMac()->TraceConnectWithoutContext("DroppedMpdu", ns3::MakeCallback(&WifiPort::onDroppedMpdu, this));
    m_wifi->GetRemoteStationManager()->TraceConnectWithoutContext("MacTxDataFailed",
                                                                  ns3::MakeCallback(&WifiPort::onDataFailed, this));
    m_wifi->GetPhy()->TraceConnectWithoutContext("PhyRxDrop", ns3::MakeCallback(&WifiPort::onPhyRxDrop, this));
  }

  /// Upper interface of the tap's FdNetDevice (promiscuous): a frame the kernel sent. The
  /// kernel's source MAC is the node's Wi-Fi address, so Send() keeps it; the Ethernet
  /// destination decides unicast or group-addressed 802.11.
  bool onTapFrame(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet> payload, uint16_t etherType,
                  const ns3::Address&, const ns3::Address& destination, ns3::NetDevice::PacketType)
  {
    ++m_counters.framesIn;
    m_counters.bytesIn += payload->GetSize() + ETHERNET_HEADER_BYTES;
    if (payload->GetSize() > m_mtu) {
      ++m_counters.oversizeDrops;
      return true;
    }
    m_wifi->Send(payload->Copy(), destination, etherType); // drops are counted by the MAC traces
    return true;
  }

  /// Upper interface of the node's Wi-Fi device (promiscuous): a frame its MAC forwards up.
  bool onWifiFrame(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet> payload, uint16_t etherType,
                   const ns3::Address& source, const ns3::Address& destination, ns3::NetDevice::PacketType type)
  {
    if (type == ns3::NetDevice::NS3_PACKET_OTHERHOST) { // NS3_: <linux/if_packet.h> defines the other
      return true;                                      // a unicast frame for another node
    }
    uint32_t size = payload->GetSize() + ETHERNET_HEADER_BYTES;
    if (m_tap->SendFrom(payload->Copy(), source, destination, etherType)) {
      ++m_counters.framesOut;
      m_counters.bytesOut += size;
    }
    else {
      ++m_counters.writeErrors;
    }
    return true;
  }

  const WifiPortCounters& counters() const { return m_counters; }
  ns3::Ptr<ns3::FdNetDevice> tap() const { return m_tap; }

private:
  void onMacTxDrop(ns3::Ptr<const ns3::Packet>) { ++m_counters.macTxDrops; }

  void onDroppedMpdu(ns3::WifiMacDropReason reason, ns3::Ptr<const ns3::WifiMpdu>)
  {
    switch (reason) {
      case ns3::WIFI_MAC_DROP_FAILED_ENQUEUE: ++m_counters.queueDrops; break;
      case ns3::WIFI_MAC_DROP_EXPIRED_LIFETIME: ++m_counters.lifetimeDrops; break;
      case ns3::WIFI_MAC_DROP_REACHED_RETRY_LIMIT: ++m_counters.retryDrops; break;
      case ns3::WIFI_MAC_DROP_QOS_OLD_PACKET: ++m_counters.macTxDrops; break;
    }
  }

  void onDataFailed(ns3::Mac48Address) { ++m_counters.retries; }

  void onPhyRxDrop(ns3::Ptr<const ns3::Packet>, ns3::WifiPhyRxfailureReason) { ++m_counters.phyRxDrops; }

  static constexpr uint32_t ETHERNET_HEADER_BYTES = 14;

  ns3::Ptr<ns3::WifiNetDevice> m_wifi;
  ns3::Ptr<ns3::FdNetDevice> m_tap;
  uint16_t m_mtu;
  WifiPortCounters m_counters;
};

/// The MAC drop, retry and receive counters of a port, as JSON members (no braces).
void writeRadioCounters(std::ostream& os, const WifiPortCounters& c)
{
  os << "\"mac_tx_drops\": " << c.macTxDrops << ", \"queue_drops\": " << c.queueDrops
     << ", \"lifetime_drops\": " << c.lifetimeDrops << ", \"retry_drops\": " << c.retryDrops
     << ", \"retries\": " << c.retries << ", \"phy_rx_drops\": " << c.phyRxDrops;
}

/// The PHY transmissions of a device, as JSON members (no braces).
void writePhyCounts(std::ostream& os, const sim::WifiPhyCounts& c)
{
  os << "\"phy_tx\": " << c.all << ", \"phy_tx_data\": " << c.data << ", \"phy_tx_ctl\": " << c.ctl
     << ", \"phy_tx_mgt\": " << c.mgt;
}

/// Applies the run's radio overrides (--data-mode, --broadcast-at-data-rate, --ampdu) to the
/// built devices and settles the taps' MTU (default: the Wi-Fi device's); returns the data mode
/// in use. Throws UsageError for a data mode the standard lacks or an MTU above the device's.
std::string applyRadio(const ns3::NetDeviceContainer& devices, EmuLinkOptions& opts, const std::string& standardMode)
{
  std::string dataMode;
  try {
    dataMode = sim::applyRadioOverrides(devices, opts.radio, standardMode);
  }
  catch (const std::invalid_argument& e) {
    throw UsageError("--data-mode " + opts.radio.dataMode + ": not a mode of --standard " + opts.wifi.standard + "; " +
                     e.what());
  }
  const uint16_t deviceMtu = devices.Get(0)->GetMtu();
  if (!opts.given.contains("--mtu")) {
    opts.mtu = deviceMtu;
  }
  else if (opts.mtu > deviceMtu) {
    throw UsageError("--mtu " + std::to_string(opts.mtu) + ": above the Wi-Fi device's MTU " +
                     std::to_string(deviceMtu));
  }
  return dataMode;
}

/// The Wi-Fi link: `ndnlab sim wifi-one-hop`'s two nodes (sim::WifiOneHop; station = end A,
/// access point = end B), each with a tap port added.
class WifiLink
{
public:
  /// Builds the BSS. Throws UsageError for a data mode the standard lacks, or an MTU above
  /// the Wi-Fi device's.
  explicit WifiLink(EmuLinkOptions& opts) : m_opts(opts), m_wifi(opts.wifi, opts.stream)
  {
    m_dataMode = applyRadio(m_wifi.devices, opts, m_wifi.dataMode);
    m_phy.emplace(m_wifi.devices);
  }

  ns3::Mac48Address stationAddress() const { return ns3::Mac48Address::ConvertFrom(station()->GetAddress()); }
  ns3::Mac48Address accessPointAddress() const { return ns3::Mac48Address::ConvertFrom(accessPoint()->GetAddress()); }

  /// Adds the tap ports (whose kernel MACs are stationAddress() and accessPointAddress()) and
  /// connects both directions.
  void attach(const TapPort& tapA, const TapPort& tapB)
  {
    m_a.emplace(station(), makeTapPort(m_wifi.station(), tapA, m_opts.mtu), m_opts.mtu);
    m_b.emplace(accessPoint(), makeTapPort(m_wifi.accessPoint(), tapB, m_opts.mtu), m_opts.mtu);
    m_a->wire();
    m_b->wire();
    station()->GetMac()->TraceConnectWithoutContext("Assoc", ns3::MakeCallback(&WifiLink::onAssociated, this));
    station()->GetMac()->TraceConnectWithoutContext("DeAssoc", ns3::MakeCallback(&WifiLink::onDeassociated, this));
  }

  ns3::Ptr<ns3::FdNetDevice> tapA() const { return m_a->tap(); }
  ns3::Ptr<ns3::FdNetDevice> tapB() const { return m_b->tap(); }

  /// Runs in real time until SIGINT/SIGTERM; `ready` prints once the station has associated.
  /// Returns false when it did not associate within ASSOCIATION_TIMEOUT.
  bool run(std::function<void()> ready)
  {
    m_ready = std::move(ready);
    ns3::Simulator::Schedule(ASSOCIATION_TIMEOUT, &WifiLink::checkAssociated, this);
    m_loop.run();
    return !m_associationFailed;
  }

  void writeStats(std::ostream& os) const
  {
    // one direction: the frames the sender's tap took in and the receiver's tap gave out, the
    // sender's MAC drops and retries, the receiver's PHY drops
    auto direction = [&os](const char* name, const WifiPortCounters& tx, const WifiPortCounters& rx) {
      WifiPortCounters c = tx;
      c.framesOut = rx.framesOut;
      c.bytesOut = rx.bytesOut;
      c.writeErrors = rx.writeErrors;
      c.phyRxDrops = rx.phyRxDrops;
      os << "  \"" << name << "\": {\"frames_in\": " << c.framesIn << ", \"bytes_in\": " << c.bytesIn
         << ", \"frames_out\": " << c.framesOut << ", \"bytes_out\": " << c.bytesOut
         << ", \"oversize_drops\": " << c.oversizeDrops << ", \"write_errors\": " << c.writeErrors << ", ";
      writeRadioCounters(os, c);
      os << "},\n";
    };
    auto phy = [this, &os](const char* name, size_t i, bool last) {
      os << "    \"" << name << "\": {";
      writePhyCounts(os, m_phy->counts(i));
      os << "}" << (last ? "\n" : ",\n");
    };
    os << "{\n";
    os << "  \"config\": {\"link\": \"wifi\", \"standard\": \"" << m_opts.wifi.standard << "\", \"data_mode\": \""
       << m_dataMode << "\", \"distance_m\": " << m_opts.wifi.distance << ", \"frame_loss\": " << m_opts.wifi.frameLoss
       << ", \"broadcast_at_data_rate\": " << (m_opts.wifi.broadcastAtDataRate ? "true" : "false")
       << ", \"ampdu\": " << (m_opts.radio.ampdu ? "true" : "false") << ", \"seed\": " << m_opts.seed
       << ", \"run\": " << m_opts.run << ", \"stream\": " << m_opts.stream << ", \"mtu\": " << m_opts.mtu
       << ", \"station\": \"" << stationAddress() << "\", \"access_point\": \"" << accessPointAddress() << "\"},\n";
    m_loop.writeStats(os);
    os << "  \"associated_s\": ";
    if (m_associatedAt) {
      os << m_associatedAt->GetSeconds();
    }
    else {
      os << "null";
    }
    os << ",\n  \"deassociations\": " << m_deassociations << ",\n";
    direction("a_to_b", m_a->counters(), m_b->counters());
    direction("b_to_a", m_b->counters(), m_a->counters());
    os << "  \"phy\": {\n";
    phy("a", 0, false);
    phy("b", 1, true);
    os << "  }\n}\n";
  }

private:
  /// Longest wait for the station's association (simulated time, real time here): beacons
  /// come every 102.4 ms, so a missed one is no reason to give up.
  static inline const ns3::Time ASSOCIATION_TIMEOUT = ns3::Seconds(10);

  ns3::Ptr<ns3::WifiNetDevice> station() const { return ns3::DynamicCast<ns3::WifiNetDevice>(m_wifi.devices.Get(0)); }
  ns3::Ptr<ns3::WifiNetDevice> accessPoint() const
  {
    return ns3::DynamicCast<ns3::WifiNetDevice>(m_wifi.devices.Get(1));
  }

  void onAssociated(ns3::Mac48Address)
  {
    if (m_associatedAt) {
      return; // re-associated after a loss of beacons: reported as deassociations
    }
    m_associatedAt = ns3::Simulator::Now();
    if (m_ready) {
      m_ready();
    }
  }

  void onDeassociated(ns3::Mac48Address) { ++m_deassociations; }

  void checkAssociated()
  {
    if (!m_associatedAt) {
      m_associationFailed = true;
      ns3::Simulator::Stop();
    }
  }

  EmuLinkOptions& m_opts;
  sim::WifiOneHop m_wifi;
  std::string m_dataMode;
  std::optional<sim::WifiPhyCounter> m_phy;
  std::optional<WifiPort> m_a, m_b;
  RealtimeLoop m_loop;
  std::function<void()> m_ready;
  std::optional<ns3::Time> m_associatedAt;
  uint64_t m_deassociations = 0;
  bool m_associationFailed = false;
};

/// The ad hoc channel: `ndnlab sim wifi-chain`'s and `wifi-hidden`'s radio (sim::WifiAdhoc,
/// built as makeAdhocLine builds it: node i at (positions[i], 0, 0), the range cut-off, the
/// standard's data mode, broadcast at the data rate, A-MPDU), each node with a tap port.
class WifiAdhocLink
{
public:
  /// Builds the nodes and their devices. Throws UsageError for a data mode the standard lacks,
  /// or an MTU above the Wi-Fi device's.
  explicit WifiAdhocLink(EmuLinkOptions& opts) : m_opts(opts), m_wifi(adhocOptions(opts), opts.stream)
  {
    m_dataMode = applyRadio(m_wifi.devices, opts, m_wifi.dataMode);
    m_phy.emplace(m_wifi.devices);
  }

  /// The Wi-Fi address of node `i`: its tap's kernel MAC.
  ns3::Mac48Address address(size_t i) const
  {
    return ns3::Mac48Address::ConvertFrom(m_wifi.devices.Get(static_cast<uint32_t>(i))->GetAddress());
  }

  /// Adds the tap ports (taps[i] on node i, its kernel MAC = address(i)) and connects them.
  void attach(const std::vector<TapPort>& taps)
  {
    for (size_t i = 0; i < taps.size(); ++i) {
      const auto node = static_cast<uint32_t>(i);
      m_ports.push_back(std::make_unique<WifiPort>(ns3::DynamicCast<ns3::WifiNetDevice>(m_wifi.devices.Get(node)),
                                                   makeTapPort(m_wifi.nodes.Get(node), taps[i], m_opts.mtu),
                                                   m_opts.mtu));
      m_ports.back()->wire();
    }
  }

  ns3::Ptr<ns3::FdNetDevice> tap(size_t i) const { return m_ports.at(i)->tap(); }

  /// Runs in real time until SIGINT/SIGTERM; `ready` runs at the first poll (no association
  /// in ad hoc mode: the channel carries frames from the start).
  void run(std::function<void()> ready) { m_loop.run(std::move(ready)); }

  void writeStats(std::ostream& os) const
  {
    os << "{\n";
    os << "  \"config\": {\"link\": \"wifi-adhoc\", \"standard\": \"" << m_opts.wifi.standard << "\", \"data_mode\": \""
       << m_dataMode << "\", \"positions_m\": [";
    for (size_t i = 0; i < m_opts.positions.size(); ++i) {
      os << (i ? ", " : "") << m_opts.positions[i];
    }
    os << "], \"range_m\": " << m_opts.range
       << ", \"broadcast_at_data_rate\": " << (m_opts.wifi.broadcastAtDataRate ? "true" : "false")
       << ", \"ampdu\": " << (m_opts.radio.ampdu ? "true" : "false") << ", \"seed\": " << m_opts.seed
       << ", \"run\": " << m_opts.run << ", \"stream\": " << m_opts.stream << ", \"mtu\": " << m_opts.mtu << "},\n";
    m_loop.writeStats(os);
    os << "  \"ports\": [\n";
    for (size_t i = 0; i < m_ports.size(); ++i) {
      const WifiPortCounters& c = m_ports[i]->counters();
      os << "    {\"ns\": \"" << m_opts.ports[i].ns << "\", \"dev\": \"" << m_opts.ports[i].dev << "\", \"mac\": \""
         << address(i) << "\", \"frames_in\": " << c.framesIn << ", \"bytes_in\": " << c.bytesIn
         << ", \"frames_out\": " << c.framesOut << ", \"bytes_out\": " << c.bytesOut
         << ", \"oversize_drops\": " << c.oversizeDrops << ", \"write_errors\": " << c.writeErrors << ", ";
      writeRadioCounters(os, c);
      os << ", ";
      writePhyCounts(os, m_phy->counts(i));
      os << "}" << (i + 1 < m_ports.size() ? ",\n" : "\n");
    }
    os << "  ]\n}\n";
  }

private:
  static sim::WifiAdhocOptions adhocOptions(const EmuLinkOptions& opts)
  {
    sim::WifiAdhocOptions o;
    o.standard = opts.wifi.standard;
    o.broadcastAtDataRate = opts.wifi.broadcastAtDataRate;
    o.range = opts.range;
    for (double x : opts.positions) {
      o.positions.emplace_back(x, 0, 0);
    }
    return o;
  }

  EmuLinkOptions& m_opts;
  sim::WifiAdhoc m_wifi;
  std::string m_dataMode;
  std::optional<sim::WifiPhyCounter> m_phy;
  std::vector<std::unique_ptr<WifiPort>> m_ports;
  RealtimeLoop m_loop;
};

/// Selects the real-time scheduler; must run before the first Simulator call.
void configureSimulator(const EmuLinkOptions& opts)
{
  ns3::GlobalValue::Bind("SimulatorImplementationType", ns3::StringValue("ns3::RealtimeSimulatorImpl"));
  // Best effort: when the process falls behind the wall clock it runs late events at once and
  // catches up, instead of aborting (HardLimit). The lag is reported in the stats.
  ns3::Config::SetDefault("ns3::RealtimeSimulatorImpl::SynchronizationMode",
                          ns3::EnumValue(ns3::RealtimeSimulatorImpl::SYNC_BEST_EFFORT));
  // Only matters if a model ever parses the frames' IP headers; the relay itself does not.
  ns3::GlobalValue::Bind("ChecksumEnabled", ns3::BooleanValue(true));
  ns3::RngSeedManager::SetSeed(opts.seed);
  ns3::RngSeedManager::SetRun(opts.run);
  // The wall-clock synchroniser sleeps on a condition variable until each event is due; the
  // default 50 us timer slack would make every event that late. 1 ns: wake-ups as asked.
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

/// The pcaps of --pcap-a and --pcap-b (--pcap per port): ns-3's PcapHelper on each tap port's PromiscSniffer,
/// which sees every frame the kernel wrote to the tap (FdNetDevice::ForwardUp) and every frame
/// written to it (SendFrom). close() flushes them; it must run after the simulator stopped.
class TapCaptures
{
public:
  /// One capture per (file, tap port); an empty file name captures nothing.
  explicit TapCaptures(const std::vector<std::pair<std::string, ns3::Ptr<ns3::FdNetDevice>>>& ports)
  {
    for (const auto& [path, dev] : ports) {
      capture(path, dev);
    }
  }
  TapCaptures(const TapCaptures&) = delete;
  TapCaptures& operator=(const TapCaptures&) = delete;
  ~TapCaptures() { close(); }

  void close()
  {
    for (auto& f : m_files) {
      f->Close();
    }
    m_files.clear();
  }

private:
  /// Snapshot length: a whole frame of any MTU the taps take (9000 at most).
  static constexpr uint32_t SNAP_LEN = 65535;

  void capture(const std::string& path, const ns3::Ptr<ns3::FdNetDevice>& dev)
  {
    if (path.empty()) {
      return;
    }
    // PcapFileWrapper aborts on a file it cannot open; say which and why instead
    if (!std::ofstream(path, std::ios::binary | std::ios::trunc)) {
      throw SetupError(errnoText("pcap file " + path));
    }
    ns3::PcapHelper helper;
    auto file = helper.CreateFile(path, std::ios::out, ns3::PcapHelper::DLT_EN10MB, SNAP_LEN);
    helper.HookDefaultSink<ns3::FdNetDevice>(dev, "PromiscSniffer", file);
    m_files.push_back(file);
  }

  std::vector<ns3::Ptr<ns3::PcapFileWrapper>> m_files;
};

/// Writes the link's counters to --stats-json, if asked.
template<typename Link>
void writeStatsFile(const EmuLinkOptions& opts, const Link& link)
{
  if (opts.statsJsonPath.empty()) {
    return;
  }
  std::ofstream out(opts.statsJsonPath);
  link.writeStats(out);
  if (!out) {
    std::cerr << "ndnlab-emu-link: cannot write " << opts.statsJsonPath << std::endl;
  }
}

int runPointToPoint(const EmuLinkOptions& opts)
{
  TapPort tapA = openTapInNamespace(opts.nsA, opts.devA, opts.mtu, opts.addrA);
  TapPort tapB = openTapInNamespace(opts.nsB, opts.devB, opts.mtu, opts.addrB);

  configureSimulator(opts);
  EmuLink link(opts, tapA, tapB);
  TapCaptures captures({{opts.pcapA, link.tapA()}, {opts.pcapB, link.tapB()}});

  std::cout << "ready " << opts.nsA << ":" << opts.devA << "(" << tapA.kernelMac << ") <-> " << opts.nsB << ":"
            << opts.devB << "(" << tapB.kernelMac << ")" << std::endl;

  link.run();
  captures.close();
  writeStatsFile(opts, link);
  ns3::Simulator::Destroy(); // stops the reader threads and closes the taps
  return 0;
}

/// The BSS is built first (a bad data mode is refused before any tap exists), then the taps
/// with their Wi-Fi devices' addresses.
int runWifi(EmuLinkOptions opts)
{
  configureSimulator(opts);
  WifiLink link(opts);
  TapPort tapA = openTapInNamespace(opts.nsA, opts.devA, opts.mtu, opts.addrA, link.stationAddress());
  TapPort tapB = openTapInNamespace(opts.nsB, opts.devB, opts.mtu, opts.addrB, link.accessPointAddress());
  link.attach(tapA, tapB);
  TapCaptures captures({{opts.pcapA, link.tapA()}, {opts.pcapB, link.tapB()}});

  bool associated = link.run([&] {
    std::cout << "ready " << opts.nsA << ":" << opts.devA << "(" << tapA.kernelMac << ", station) <-> " << opts.nsB
              << ":" << opts.devB << "(" << tapB.kernelMac << ", access point) associated at "
              << ns3::Simulator::Now().GetSeconds() << " s" << std::endl;
  });
  captures.close();
  writeStatsFile(opts, link);
  ns3::Simulator::Destroy();
  if (!associated) {
    throw SetupError("the station did not associate with the access point");
  }
  return 0;
}

/// As runWifi: the channel first (a bad data mode is refused before any tap exists), then one
/// tap per node with its Wi-Fi device's address; 'ready' once the reader threads run.
int runWifiAdhoc(EmuLinkOptions opts)
{
  configureSimulator(opts);
  WifiAdhocLink link(opts);
  std::vector<TapPort> taps;
  for (size_t i = 0; i < opts.ports.size(); ++i) {
    const PortSpec& port = opts.ports[i];
    taps.push_back(openTapInNamespace(port.ns, port.dev, opts.mtu, port.addr, link.address(i)));
  }
  link.attach(taps);
  std::vector<std::pair<std::string, ns3::Ptr<ns3::FdNetDevice>>> pcaps;
  for (size_t i = 0; i < opts.ports.size(); ++i) {
    pcaps.emplace_back(opts.ports[i].pcap, link.tap(i));
  }
  TapCaptures captures(pcaps);

  link.run([&] {
    std::cout << "ready " << opts.ports.size() << " ports:";
    for (size_t i = 0; i < opts.ports.size(); ++i) {
      std::cout << " " << opts.ports[i].ns << ":" << opts.ports[i].dev << "(" << taps[i].kernelMac << ", x "
                << opts.positions[i] << " m)";
    }
    std::cout << std::endl;
  });
  captures.close();
  writeStatsFile(opts, link);
  ns3::Simulator::Destroy();
  return 0;
}

int run(const EmuLinkOptions& opts)
{
  // A stop signal only sets a flag that the poll event reads. It must never land on an ns-3
  // reader thread: an interrupted read() or select() ends that thread's loop. So the signals
  // stay blocked while those threads are created (they inherit the mask) and the first poll
  // unblocks them on the main thread; one arriving before that waits, pending.
  installStopSignals();
  setStopSignalsBlocked(true);
  switch (opts.model) {
    case LinkModel::Wifi: return runWifi(opts);
    case LinkModel::WifiAdhoc: return runWifiAdhoc(opts);
    case LinkModel::PointToPoint: break;
  }
  return runPointToPoint(opts);
}

} // namespace ndnlab::emu

int main(int argc, char** argv)
{
  using namespace ndnlab::emu;
  EmuLinkOptions opts;
  try {
    opts = parseCommandLine(argc, argv);
  }
  catch (const UsageError& e) {
    std::cerr << "ndnlab-emu-link: error: " << e.what() << "\n" << USAGE;
    return 2;
  }
  try {
    return run(opts);
  }
  catch (const UsageError& e) { // a value only the built model can check (wifi: --data-mode, --mtu)
    std::cerr << "ndnlab-emu-link: error: " << e.what() << std::endl;
    return 2;
  }
  catch (const SetupError& e) {
    std::cerr << "ndnlab-emu-link: setup failed: " << e.what() << std::endl;
    return 1;
  }
}
