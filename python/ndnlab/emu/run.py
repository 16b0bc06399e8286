"""`ndnlab emu SCENARIO [--Name=value ...]`: a scenario of `ndnlab sim` run on real daemons.

The scenario is described once, by the simulator: `ndnlab-sim SCENARIO --Name=value --network`
checks the parameters as a simulated run does and prints its nodes, links, routes and
applications (Scenario::network in ns3/runner/scenario.hpp). From that description this
module builds the same network out of network namespaces (ndnlab.emu.net), one `ndnlabd` per
node, a UDP face per link end, static routes along shortest paths, `ndnlab serve` (or
`ndnlab pingserver`) for each producer and `ndnlab get` (or `ndnlab ping`) for each consumer at
its start time, and writes a result.json whose metrics have the keys of the simulated run's,
with `backend: "emu"`, and the trace files its tools wrote listed under `traces` (rtsd-star's
player with StreamTrace: stream-arrivals.csv and stream-series.csv, `ndnlab stream play
--trace-dir`). With --pcap every link end is captured into the run directory (ns-3's
pcap for links of ndnlab-emu-link, tcpdump inside the namespace for veth links).

Each link is shaped by one mechanism, recorded in result.json:
- "tbf": rate and drop-tail queue by kernel tbf on both veth ends (a link without delay or
  loss);
- "ns3-realtime": rate, delay, loss and queue by ns-3's point-to-point model run in real time
  between two taps (ndnlab-emu-link), since these kernels have no netem; unless
  --no-link-calibration, the time such a link process adds to each frame by itself is measured
  before the run per rate and delay (UDP echoes over a calibration link and over a veth pair)
  and taken off the simulated delay (links[].latency_offset_s);
- "impair" (--link-mode impair): rate by tbf, delay and loss by each daemon's egress
  impairment of its UDP faces ([face_system.udp.impair]); only when every link has the same
  delay and loss, since the impairment is per daemon, not per link;
- "ns3-wifi": a link of kind "wifi" (wifi-one-hop): ns-3's 802.11 model of `ndnlab sim`, one
  station and one access point, run in real time between two taps (ndnlab-emu-link --link
  wifi); or of kind "wifi-adhoc" (wifi-chain, wifi-hidden): one ad hoc channel of all its
  nodes, a tap in each (ndnlab-emu-link --link wifi-adhoc). Addressing=unicast gives each node
  a UDP unicast face per neighbour it routes to or is routed to by (unicast 802.11 frames, ACK
  and retries; group-addressed from the description's `ad_hoc_nodes`, as the simulator's ad hoc
  faces), Addressing=broadcast a UDP multicast face (group-addressed frames, no ACK).

The daemons, tools and link processes run under the real-time scheduler (SCHED_RR, --priority)
where permitted: it puts a woken process on an idle core at once, where the normal scheduler
often queues it behind a busy one, and that wait is latency the emulated network does not have.
A run records the machine's CPU load and its processes' time on a CPU and waiting for one
(cpu.processes_cpu_s, cpu.run_queue_wait_s); when the machine was saturated the emulation ran
slower than the network it stands for, and the result says so (`saturated`). Exit status: 0 the run went to its
end (the fetch's own outcome is in the metrics), 1 the emulation failed (a daemon or link
process died, set-up failed), 2 bad arguments or no privileges (nothing was touched).
"""
import argparse
import hashlib
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time

from ndnlab.emu import mircc_metrics, stream_metrics
from ndnlab.emu import net as emunet
from ndnlab.emu.faces import parse_face_list, tool_summary

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
# `ndnlab stream play --trace-dir`'s files (core/stream/trace.hpp), as the simulator names them
STREAM_TRACES = ["stream-arrivals.csv", "stream-series.csv"]
UDP_PORT = 6363
IP_UDP_HEADERS = 28
MULTICAST_GROUP, MULTICAST_PORT = "224.0.23.170", 56363  # ndnlabd's (and NFD's) defaults
# ndnlab-emu-link on a 2-core machine (docs/results/emulation.md): within 5 % up to 200 Mbit/s,
# marginal to 400 Mbit/s, failing beyond.
EMU_LINK_GOOD_BPS = 200e6
EMU_LINK_MAX_BPS = 400e6
MAX_NODES = 32
# mean busy share of all cores (under the real-time scheduler: of the emulation's own
# processes); docs/results/emulation.md
SATURATED_BUSY_PERCENT = 80.0
# --priority auto|realtime: the emulation's daemons, tools and link processes under SCHED_RR at
# this priority, so nothing else on the machine delays them (docs/emulation.md)
REALTIME_PRIORITY = 10
# An ns-3 real-time link kept up when no tap dropped a frame and its mean lateness was at most
# this share of its one-way delay, or MIN_LAG_US for short delays.
LAG_SHARE_OF_DELAY = 0.05
MIN_LAG_US = 100
# ndnlab-emu-link --link wifi: the sender's MAC drops, by reason
WIFI_MAC_DROPS = ("mac_tx_drops", "queue_drops", "lifetime_drops", "retry_drops")
# ... and each radio's transmissions by frame type (the simulator's WifiPhyCounter)
PHY_TX_COUNTERS = ("phy_tx", "phy_tx_data", "phy_tx_ctl", "phy_tx_mgt")
# `ndnlab ctl face list`'s bundles={...} -> the simulator's keys (bundling-kit.cpp bundleCounters)
BUNDLE_COUNTERS = {"out": "bundles_out", "absorbed": "interests_absorbed", "in": "bundles_in",
                   "regenerated": "interests_regenerated", "gap-filled": "interests_gap_filled",
                   "stale": "bundles_stale", "invalid": "bundles_invalid", "early": "data_early",
                   "early-expired": "data_early_expired", "recoveries": "bundle_recoveries"}
FACE_COUNTERS = {"in_interests": "interests_in", "out_interests": "interests_out",
                 "in_data": "data_in", "out_data": "data_out",
                 "in_nacks": "nacks_in", "out_nacks": "nacks_out"}
# `ctl face list`'s lp={...} (link reliability) -> the simulator's node keys (nodeReport in
# ns3/ndnlab/scenarios/scenario-kit.cpp), summed over the node's faces between daemons
LP_COUNTERS = {"retx-frames": "lp_retx_frames", "acknowledged": "lp_acknowledged",
               "retransmitted": "lp_retransmitted", "exhausted": "lp_given_up",
               "overflow": "lp_given_up", "duplicates": "lp_duplicates",
               "acks-out": "lp_acks_out", "idle-acks-out": "lp_idle_acks_out"}


class EmuError(Exception):
    """The emulation could not be built or did not run to its end (exit 1)."""


class UsageError(Exception):
    """Bad arguments (exit 2); nothing was touched."""


# --- programs ----------------------------------------------------------------------------------

def find_program(name):
    """`name` from $NDNLAB_BUILD, else the build directory of this source checkout, else PATH."""
    roots = []
    if os.environ.get("NDNLAB_BUILD"):
        roots.append(pathlib.Path(os.environ["NDNLAB_BUILD"]))
    roots.append(pathlib.Path(__file__).resolve().parents[3] / "build")
    for root in roots:
        for sub in ("tools", "daemon", "ns3/runner", "ns3/emu"):
            path = root / sub / name
            if path.is_file() and os.access(path, os.X_OK):
                return path
    found = shutil.which(name)
    if not found:
        raise UsageError(f"{name} not found (build it with `make build`, or set $NDNLAB_BUILD)")
    return pathlib.Path(found)


def describe(sim, scenario, params, seed):
    """The scenario's network description from `ndnlab-sim ... --network`."""
    argv = [str(sim), scenario, *params, f"--seed={seed}", "--network"]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if r.returncode == 2:
        raise UsageError(r.stderr.strip().removeprefix("ndnlab-sim: "))
    if r.returncode != 0:
        raise EmuError(f"{' '.join(argv)} exited {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


# --- plan --------------------------------------------------------------------------------------

def plan_links(network, mode):
    """The mechanism of each link, and warnings; UsageError for what cannot run faithfully."""
    links = network["links"]
    warnings = []
    if len(network["nodes"]) > MAX_NODES:
        raise UsageError(f"{len(network['nodes'])} nodes: ndnlab emu runs at most {MAX_NODES} "
                         "daemons on one machine")
    wifi = [lk for lk in links if is_wifi(lk)]
    if wifi:
        if mode in ("tbf", "impair"):
            raise UsageError(f"--link-mode {mode}: link {link_name(wifi[0])} is 802.11, "
                             "which only ns-3 emulates (--link-mode auto or ns3)")
        if len(wifi) != len(links):
            raise UsageError("a network of 802.11 and other links: ndnlab emu runs one kind at a "
                             "time")
        return ["ns3-wifi"] * len(links), warnings
    impaired = [lk for lk in links if lk["delay_s"] > 0 or lk["loss"] > 0]
    if mode == "impair":
        kinds = {(lk["delay_s"], lk["loss"]) for lk in links}
        if len(kinds) > 1:
            raise UsageError("--link-mode impair: the daemons impair all their UDP faces alike, so "
                             "every link needs the same delay and loss; these differ: "
                             + ", ".join(f"{lk['a']}-{lk['b']} {lk['delay']}/{lk['loss']}"
                                         for lk in links))
        return ["impair"] * len(links), warnings
    mechanisms = []
    for lk in links:
        if mode == "tbf" and lk in impaired:
            raise UsageError(f"--link-mode tbf: link {lk['a']}-{lk['b']} has delay {lk['delay']} "
                             f"and loss {lk['loss']}, which tbf cannot give")
        emulated = mode == "ns3" or lk in impaired
        if emulated:
            if lk["rate_bps"] > EMU_LINK_MAX_BPS:
                raise UsageError(
                    f"link {lk['a']}-{lk['b']}: {lk['rate']} is beyond what ndnlab-emu-link "
                    f"emulates faithfully here ({EMU_LINK_MAX_BPS / 1e6:.0f} Mbit/s measured, "
                    "docs/results/emulation.md); lower the rate, or drop its delay and loss "
                    "(tbf)")
            if lk["rate_bps"] > EMU_LINK_GOOD_BPS:
                warnings.append(f"link {lk['a']}-{lk['b']}: {lk['rate']} is above "
                                f"{EMU_LINK_GOOD_BPS / 1e6:.0f} Mbit/s, where ndnlab-emu-link "
                                "keeps up within 5 % on 2 cores; check `realtime` in result.json")
        mechanisms.append("ns3-realtime" if emulated else "tbf")
    return mechanisms, warnings


def link_nodes(lk):
    """The nodes of a described link: [a, b], or an ad hoc channel's `nodes`."""
    return list(lk["nodes"]) if "nodes" in lk else [lk["a"], lk["b"]]


def link_name(lk):
    return "-".join(link_nodes(lk))


def is_wifi(lk):
    """An 802.11 link: a BSS of two ("wifi") or an ad hoc channel of several ("wifi-adhoc")."""
    return lk.get("kind") in ("wifi", "wifi-adhoc")


def next_hops(network, links):
    """The routes toward each prefix's origin, [(node, prefix, Link or Channel, neighbour, cost)]:
    a route's own `next_hops` ({node: neighbour}, on the channel they share: an ad hoc channel,
    where who hears whom is the radio's business; cost 0); for a route with `all_paths`, one on
    every link whose peer reaches the origin, of cost 1 + the peer's hops to it (RouteHelper's
    all-paths routes: a node can fall back on a longer path); else the first hop of a shortest
    path (fewest hops; cost 0)."""
    hops = []
    two_end = [lk for lk in links if isinstance(lk, emunet.Link)]
    for route in network["routes"]:
        origin, prefix = route["origin"], route["prefix"]
        if "next_hops" in route:
            for node, via in route["next_hops"].items():
                link = next((lk for lk in links if node in lk.nodes and via in lk.nodes), None)
                if link is None:
                    raise EmuError(f"route {prefix}: {node} and {via} share no link")
                hops.append((node, prefix, link, via, 0))
            continue
        if route.get("all_paths"):
            dist, _ = emunet.shortest_paths(network["nodes"], two_end, origin)
            hops += [(node, prefix, link, link.peer(node), 1 + dist[link.peer(node)])
                     for node in network["nodes"] if node != origin and node in dist
                     for link in two_end if node in (link.a, link.b) and link.peer(node) in dist]
            continue
        for node in network["nodes"]:
            if node == origin:
                continue
            dist, first = emunet.shortest_paths(network["nodes"], two_end, node)
            if origin in dist:
                link = first[origin]
                hops.append((node, prefix, link, link.peer(node), 0))
    return hops


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return json.dumps(str(v))


def daemon_config(run_dir, node, network, seed, impair, mtu=1500, multicast=None, tcp=False, ether=()):
    """ndnlabd's configuration of `node`: UDP faces of `mtu` (the smallest of its links'), the
    scenario's own keys (`daemon_config` of the description), and with `multicast` (the
    address of the node's Wi-Fi end) a wireless UDP multicast face on that interface (ad hoc
    on the description's `ad_hoc_nodes`: a relay sends out of the face it received on); with
    `tcp`, a TCP listener on the same port (--faces tcp); with `ether` (interface names),
    Ethernet faces on those interfaces, unicast only (--faces ether)."""
    cs = int(network["cs_size"])
    lines = ["[general]", 'log_level = "info"', f"seed = {seed}", "",
             "[tables]", f"cs_max_packets = {max(cs, 1)}"]
    if cs == 0:
        lines += ["cs_admit = false", "cs_serve = false"]
    lines += ["", "[forwarder]", f'default_strategy = "{network["strategy"]}"']
    mircc = network.get("mircc")
    if mircc:
        # MIRCC (docs/mechanisms/mircc.md): the routers' T and Data size; every face carries
        # the rate field, and each face gets its link's capacity when it is created
        lines += [f'mircc_interval = "{int(round(mircc["interval_ms"] * 1000))}us"',
                  f"mircc_data_size = {int(mircc['data_size'])}",
                  f"mircc_shaper_depth = {int(mircc['shaper_depth'])}",
                  f'mircc_shaper_hold = "{int(round(mircc.get("shaper_hold_ms", 0) * 1000))}us"',
                  f"mircc_update_on_arrival = {str(bool(mircc['update_on_arrival'])).lower()}",
                  f"mircc_queue_stamping = {str(bool(mircc.get('queue_stamping', False))).lower()}",
                  "", "[face_system.link]", "mircc = true"]
    lines += ["",
              "[face_system.unix]", f'path = "{run_dir / (node + ".sock")}"', "",
              "[face_system.tcp]", f"enabled = {'true' if tcp else 'false'}", f"port = {UDP_PORT}", "",
              "[face_system.udp]", f"port = {UDP_PORT}", f"mtu = {mtu - IP_UDP_HEADERS}", ""]
    if ether:
        lines += ["[face_system.ether]", "enabled = true", "mcast = false",
                  f"whitelist = [{', '.join(json.dumps(d) for d in ether)}]", ""]
    if multicast:
        lines += ["[face_system.multicast]", "enabled = true", f'group = "{MULTICAST_GROUP}"',
                  f"port = {MULTICAST_PORT}", f'interface_address = "{multicast}"',
                  f"mtu = {mtu - IP_UDP_HEADERS}", 'medium = "wireless"']
        if node in network.get("ad_hoc_nodes", ()):
            lines += ["ad_hoc = true"]
        lines += [""]
    for table, keys in network.get("daemon_config", {}).items():
        lines += [f"[{table}]", *(f"{k} = {toml_value(v)}" for k, v in keys.items()), ""]
    if impair:
        lines += ["[face_system.udp.impair]", f"loss = {impair['loss']!r}",
                  f'delay = "{int(round(impair["delay_s"] * 1e6))}us"', ""]
    return "\n".join(lines)


def multicast_link(lk):
    """A Wi-Fi link whose NDN frames go to every station (Addressing=broadcast): the daemons
    reach each other through a UDP multicast face, whose Ethernet destination is a group
    address, so that ns-3 sends each frame group-addressed (no ACK, no retry) as the
    simulator's broadcast faces do."""
    return is_wifi(lk) and lk.get("addressing") == "broadcast"


# --- the run -----------------------------------------------------------------------------------

class CpuMeter:
    """Busy share of all cores, from /proc/stat, sampled every 0.1 s while fetches run; with
    `pids` (a callable: the emulation's running processes), also their threads' time on a CPU
    and their time runnable but waiting for one (the run queue): with more processes than
    cores they wait for each other, and that wait is latency the network they stand for does
    not have."""

    def __init__(self, pids=None):
        self.pids = pids
        self.restart()

    @staticmethod
    def _read():
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + fields[4]  # idle + iowait
        return sum(fields), idle

    def restart(self):
        """Forgets the samples so far; the next sample covers the time from now."""
        self.samples = []
        self._last = self._read()
        self._base = self._read_threads()  # tid -> (cpu_ns, wait_ns) now
        self._threads = dict(self._base)  # tid -> the latest (cpu_ns, wait_ns)
        self._t0 = self._t_last = time.monotonic()

    def _read_threads(self):
        return emunet.thread_times(self.pids()) if self.pids else {}

    def sample(self):
        """Records and returns the busy share (%) since the previous sample (0 when no time
        passed, and then nothing is recorded)."""
        total, idle = self._read()
        dt, di = total - self._last[0], idle - self._last[1]
        self._last = (total, idle)
        self._threads.update(self._read_threads())
        self._t_last = time.monotonic()
        if dt <= 0:
            return 0.0
        self.samples.append(100.0 * (1 - di / dt))
        return self.samples[-1]

    def summary(self):
        s = self.samples or [0.0]
        out = {"cores": os.cpu_count(), "mean_busy_percent": round(sum(s) / len(s), 1),
               "max_busy_percent": round(max(s), 1), "samples": len(self.samples)}
        if self.pids:
            # a thread started after restart() counts from zero; one that ended keeps its last sample
            spent = [tuple(now[k] - self._base.get(tid, (0, 0))[k] for k in (0, 1))
                     for tid, now in self._threads.items()]
            out["processes_cpu_s"] = round(sum(c for c, _ in spent) / 1e9, 4)
            out["run_queue_wait_s"] = round(sum(w for _, w in spent) / 1e9, 4)
            out["duration_s"] = round(self._t_last - self._t0, 3)
            # the emulation's own share of all cores over that time
            out["processes_busy_percent"] = round(100.0 * out["processes_cpu_s"]
                                                  / (out["cores"] * out["duration_s"]), 1) \
                if out["duration_s"] > 0 else 0.0
        return out

    @staticmethod
    def saturated(summary, realtime):
        """Whether the emulation could not have the CPU it needed, from a summary(): under the
        real-time scheduler nothing else delays its processes and its own busy share counts;
        under the normal one, the busy share of the whole machine."""
        busy = summary.get("processes_busy_percent", summary["mean_busy_percent"]) if realtime \
            else summary["mean_busy_percent"]
        return busy >= SATURATED_BUSY_PERCENT


class Emulation:
    """One run: builds the network of `network` (the simulator's description) in a
    ndnlab.emu.net.Network, runs its applications, collects the result."""

    def __init__(self, network, mechanisms, run_dir, seed, progress=None, tcpdump=None,
                 pcap=False, faces="udp", priority=None):
        self.network = network
        self.priority = priority  # SCHED_RR priority of the processes (--priority), None: normal
        self.latency = {}  # (rate_bps, delay_s) -> measure_link_latency(): calibrate()
        self.faces = faces  # the daemons' faces to each other: "udp" or "tcp" (--faces)
        self.mechanisms = mechanisms
        self.run_dir = run_dir
        self.seed = seed
        self.progress = progress or (lambda text: None)
        self.ndnlab = find_program("ndnlab")
        self.ndnlabd = find_program("ndnlabd")
        self.emu_link = (find_program("ndnlab-emu-link")
                         if {"ns3-realtime", "ns3-wifi"} & set(mechanisms) else None)
        self.pcap = pcap  # capture every link end (--pcap)
        self.tcpdump = tcpdump  # the program that captures veth ends (tbf, impair)
        self.captures = {}  # link index -> {node: (Popen, its log)}: the veth ends' tcpdumps
        self.net = None
        self.links = []
        self.daemons = {}
        self.events_done = []  # the description's events as they happened (result.json events)
        self.sent_octets = {}  # rate_faces name -> {whole second since t0: octets sent in it}
        self.traces = []  # the trace files the run's tools write into run_dir (result.json traces)

    def calibrate(self):
        """Measures, once per rate and delay of the ns3-realtime links, what the link process
        adds to each frame by itself (net.measure_link_latency), for build() to take off the
        simulated delay: frames then cross in the modelled time (docs/results/emulation.md)."""
        for lk, mech in zip(self.network["links"], self.mechanisms):
            key = (lk["rate_bps"], lk["delay_s"]) if mech == "ns3-realtime" else None
            if key and key not in self.latency:
                self.latency[key] = emunet.measure_link_latency(self.emu_link, *key, priority=self.priority)
                self.progress(f"link at {key[0] / 1e6:g} Mbit/s, {key[1] * 1e3:g} ms: the link process "
                              f"adds {self.latency[key]['excess_s'] * 1e6:.0f} us to each frame")

    def latency_offset(self, lk):
        """What build() takes off link `lk`'s simulated delay: the measured excess, within
        [0, delay] (0 without calibrate())."""
        m = self.latency.get((lk["rate_bps"], lk["delay_s"]))
        return min(max(m["excess_s"], 0.0), lk["delay_s"]) if m else 0.0

    def link_file(self, i, suffix):
        """The run directory's file of link `i`'s process: counters (.json), messages (.log);
        with `.<node>.pcap` the capture of the link's end in that node."""
        return self.run_dir / f"link{i}-{link_name(self.network['links'][i])}{suffix}"

    def pcap_files(self, i):
        """The captures of link `i`'s ends (a, b; a channel's nodes in order), or None without
        --pcap."""
        if not self.pcap:
            return None
        return tuple(self.link_file(i, f".{n}.pcap") for n in link_nodes(self.network["links"][i]))

    def socket(self, node):
        return self.run_dir / f"{node}.sock"

    def ctl(self, node, *args, check=True, timeout=20):
        r = self.net.run(node, [str(self.ndnlab), "ctl", "--socket", str(self.socket(node)), *args],
                         timeout=timeout, capture_output=True, text=True)
        if check and r.returncode != 0:
            raise EmuError(f"ndnlab ctl {' '.join(args)} on {node} exited {r.returncode}: "
                           f"{r.stderr.strip()}")
        return r

    def build(self, net):
        self.net = net
        nodes = self.network["nodes"]
        for node in nodes:
            net.add_node(node)
        for i, (lk, mech) in enumerate(zip(self.network["links"], self.mechanisms)):
            if mech == "ns3-realtime":
                # the run's seed is ns-3's run number (a disjoint substream, as ndnlab-sim's
                # --run); ns-3 seeds 1, 2, 3 start MRG32k3a at proportional states and lose
                # the same frames early on. Two streams per link, its own losses each way: the
                # simulator's (loss_stream), so the n-th frame each way is lost in both backends
                # or in neither (paired comparisons, docs/results/emulation.md)
                link = net.add_emulated_link(
                    lk["a"], lk["b"], self.emu_link, lk["rate_bps"], lk["delay_s"], lk["loss"],
                    lk["queue"], seed=1, run=self.seed, stream=lk.get("loss_stream", 2 * i),
                    stats=self.link_file(i, ".json"),
                    log=self.link_file(i, ".log"), pcap=self.pcap_files(i),
                    latency_offset=self.latency_offset(lk))
            elif lk.get("kind") == "wifi-adhoc":
                # one channel, node i at positions_m[i]; seed, run and streams as below
                radio = {"standard": lk["standard"], "data-mode": lk["data_mode_override"],
                         "broadcast-at-data-rate": lk["broadcast_at_data_rate"], "ampdu": lk["ampdu"]}
                # an ad hoc face (the description's ad_hoc_nodes: wifi-chain's relay) names no
                # destination in the simulator, so its frames are broadcast; with unicast
                # faces the same comes from the broadcast MAC in the node's neighbour entries
                link = net.add_wifi_channel(lk["nodes"], self.emu_link, radio, lk["positions_m"],
                                            lk["range_m"], mtu=lk["mtu"], seed=1, run=self.seed,
                                            stats=self.link_file(i, ".json"), log=self.link_file(i, ".log"),
                                            pcap=self.pcap_files(i),
                                            broadcast_from=self.network.get("ad_hoc_nodes", ()))
            elif mech == "ns3-wifi":
                # station a, access point b; ns-3 seed 1, run = the run's seed and the radio's
                # streams from the scenario's first one: `ndnlab sim --run=S` draws the same
                radio = {"standard": lk["standard"], "data-mode": lk["data_mode_override"],
                         "distance": repr(float(lk["distance_m"])),
                         "frame-loss": repr(float(lk["frame_loss"])),
                         "broadcast-at-data-rate": lk["broadcast_at_data_rate"],
                         "ampdu": lk["ampdu"]}
                link = net.add_wifi_link(lk["a"], lk["b"], self.emu_link, radio, mtu=lk["mtu"],
                                         seed=1, run=self.seed, stats=self.link_file(i, ".json"),
                                         log=self.link_file(i, ".log"), pcap=self.pcap_files(i))
            else:
                link = net.add_link(lk["a"], lk["b"], rate=lk["rate_bps"], queue=lk["queue"])
                if self.pcap:
                    # tcpdump in each namespace, listening before any daemon sends
                    self.captures[i] = {}
                    for node, path in zip((lk["a"], lk["b"]), self.pcap_files(i)):
                        log = self.link_file(i, f".{node}.tcpdump.log")
                        proc = net.capture(node, link.end(node)[0], path, log, program=self.tcpdump)
                        self.captures[i][node] = (proc, log)
            self.links.append(link)
        impair = None
        if self.mechanisms and self.mechanisms[0] == "impair":
            impair = self.network["links"][0]
        for node in nodes:
            cfg = self.run_dir / f"{node}.toml"
            mine = [(link, lk) for link, lk in zip(self.links, self.network["links"])
                    if node in link.nodes]
            mtu = min((link.mtu for link, _ in mine), default=1500)
            multicast = next((link.end(node)[1] for link, lk in mine if multicast_link(lk)), None)
            ether = [link.end(node)[0] for link, _ in mine] if self.faces == "ether" else ()
            cfg.write_text(daemon_config(self.run_dir, node, self.network, self.seed, impair, mtu,
                                         multicast, tcp=self.faces == "tcp", ether=ether))
            log = open(self.run_dir / f"{node}.log", "wb")
            self.daemons[node] = net.popen(node, [self.ndnlabd, "--config", cfg], stdout=log,
                                           stderr=subprocess.STDOUT)
            log.close()
        deadline = time.monotonic() + 15
        for node in nodes:
            while not self.socket(node).exists():
                self.check_alive()
                if time.monotonic() > deadline:
                    raise EmuError(f"ndnlabd of {node} did not open its socket within 15 s "
                                   f"({self.run_dir / (node + '.log')})")
                time.sleep(0.05)
        mircc = self.network.get("mircc")
        hops = next_hops(self.network, self.links)
        routed = {(node, link.index) for node, _, link, _, _ in hops}
        for link, lk in zip(self.links, self.network["links"]):
            if multicast_link(lk):
                continue  # the daemons' multicast face, from their configuration
            if isinstance(link, emunet.Channel):
                # a unicast face each way between the neighbours a route joins (the peer's end
                # would be on-demand; made here, it is wireless from the start)
                pairs = {p for node, _, ln, via, _ in hops if ln is link
                         for p in ((node, via), (via, node))}
                for node, via in sorted(pairs):
                    self.ctl(node, "face", "create", *self.face_uri(link, node, via), "--medium", "wireless")
                continue
            for node in (link.a, link.b):
                if self.faces != "udp" and (node, link.index) not in routed:
                    continue  # a connection (TCP) or face (Ethernet) per link and direction of
                    # routes: the peer's face is the accepted or on-demand one
                # MIRCC: the capacity of the link the face's Data come back over
                extra = ["--mircc-capacity", str(int(lk["rate_bps"]))] if mircc else []
                if is_wifi(lk):
                    extra = ["--medium", "wireless"]  # BLEnD bundles on wireless faces only
                self.ctl(node, "face", "create", *self.face_uri(link, node), *extra)
        kinds = {link.index: lk for link, lk in zip(self.links, self.network["links"])}
        for node, prefix, link, via, cost in hops:
            face = (f"udp4://{MULTICAST_GROUP}:{MULTICAST_PORT}" if multicast_link(kinds[link.index])
                    else self.face_uri(link, node, via)[0])
            self.ctl(node, "route", "add", prefix, face, str(cost))
        for choice in self.network.get("strategies", []):
            self.ctl(choice["node"], "strategy", "set", choice["prefix"], choice["strategy"])

    def face_uri(self, link, node, peer=None):
        """[remote FaceUri] (and the LocalUri an Ethernet face needs) of `node`'s face to `peer`
        (default: the other end) on `link`, of the run's face kind."""
        peer = peer or link.peer(node)
        if self.faces == "ether":
            return [f"ether://[{self.net.mac(peer, link.end(peer)[0])}]", f"dev://{link.end(node)[0]}"]
        return [f"{self.faces}4://{link.end(peer)[1]}:{UDP_PORT}"]

    def check_alive(self):
        dead = self.net.check_processes()
        if dead:
            d = dead[0]
            raise EmuError(f"{pathlib.Path(d.argv[0]).name} on {d.node} exited {d.returncode} "
                           f"during the run (logs in {self.run_dir})")

    def has_route(self, node, prefix):
        r = self.ctl(node, "route", "list", check=False)
        return r.returncode == 0 and any(line.startswith(f"prefix={prefix} ")
                                         for line in r.stdout.splitlines())

    def run(self, cpu):
        producers = [a for a in self.network["apps"] if a["role"] == "producer"]
        consumers = [a for a in self.network["apps"] if a["role"] == "consumer"]
        for i, app in enumerate(producers):
            sock = self.socket(app["node"])
            if app["tool"] == "serve":
                content = self.run_dir / f"content-{app['node']}-{i}.bin"
                write_content(content, app["content_seed"], int(app["file_size"]))
                app["_content"] = content
                argv = [self.ndnlab, "serve", "--socket", sock, *app["args"], app["prefix"], content]
            elif app["tool"] == "pingserver":
                argv = [self.ndnlab, "pingserver", "--socket", sock, "--quiet", *app["args"],
                        app["prefix"]]
            elif app["tool"] == "perf-server":
                argv = [self.ndnlab, "perf", "server", "--socket", sock, "--quiet", *app["args"],
                        app["prefix"]]
            elif app["tool"] == "stream-publish":
                # its args hold --json: the counters go to stdout when the run stops it
                argv = [self.ndnlab, "stream", "publish", "--socket", sock, "--quiet", *app["args"],
                        app["prefix"]]
            else:
                raise EmuError(f"producer {app['node']}: ndnlab emu does not run `{app['tool']}`")
            log = open(self.run_dir / f"{app['tool']}-{app['node']}-{i}.log", "wb")
            if app["tool"] == "stream-publish":
                app["_out"] = self.run_dir / f"{app['tool']}-{app['node']}-{i}.json"
                with open(app["_out"], "wb") as stdout:
                    app["_proc"] = self.net.popen(app["node"], argv, stdout=stdout, stderr=log)
            else:
                self.net.popen(app["node"], argv, stdout=subprocess.DEVNULL, stderr=log)
            log.close()
        deadline = time.monotonic() + 15
        for app in producers:
            # what the producer registers: its prefix, or (pingserver) <prefix>/ping
            while not self.has_route(app["node"], app.get("registers", app["prefix"])):
                self.check_alive()
                if time.monotonic() > deadline:
                    raise EmuError(f"ndnlab {app['tool']} {app['prefix']} on {app['node']} did not register "
                                   "within 15 s")
                time.sleep(0.1)
        t0 = time.monotonic()
        max_time = float(self.network["max_time_s"])
        pending = sorted(enumerate(consumers), key=lambda c: c[1]["start_s"])
        events = sorted(self.network.get("events", []), key=lambda e: e["at_s"])
        counted = self.counted_ends()
        sent = self.octets_sent(counted)
        second = 0  # the whole second since t0 whose octets are counted next
        running = {}
        results = {}
        last_note = t0
        while pending or running:
            now = time.monotonic() - t0
            if counted and now >= second + 1:
                # faces.*: octets per whole second, as the simulator's PhyTxBegin bins
                now_sent = self.octets_sent(counted)
                for name in counted:
                    self.sent_octets.setdefault(name, {})[second] = now_sent[name] - sent[name]
                sent, second = now_sent, int(now)
            while events and events[0]["at_s"] <= now:
                self.happen(events.pop(0), now)
            while pending and pending[0][1]["start_s"] <= now:
                if not running and not results:
                    cpu.restart()  # the load of the transfer, not of the wait before it
                i, app = pending.pop(0)
                proc, out = self.start_consumer(i, app)
                running[i] = (app, proc, out, time.monotonic() - t0)
            for i, (app, proc, out, started) in list(running.items()):
                if app.get("stop_s") is not None and now >= app["stop_s"] and proc.poll() is None:
                    self.net.stop(proc)  # its stop time: get prints its summary and exits 130
                if proc.poll() is not None:
                    results[i] = (app, proc.returncode, out, started, time.monotonic() - t0)
                    del running[i]
            if now > max_time:
                for i, (app, proc, out, started) in running.items():
                    self.net.stop(proc)
                    results[i] = (app, None, out, started, now)
                running.clear()
                pending.clear()
            self.check_alive()
            if running:
                cpu.sample()
            if time.monotonic() - last_note >= 5 and running:
                last_note = time.monotonic()
                self.progress(f"{now:6.1f} s of at most {max_time:g} s: {len(running)} consumer(s) "
                              f"running, {len(pending)} to start, CPU {cpu.samples[-1]:.0f} % busy")
            time.sleep(min(0.1, second + 1 - now) if counted else 0.1)
        return [results[i] + (consumers[i],) for i in sorted(results)], producers

    def counted_ends(self):
        """{name: [(node, device)]}: the link ends whose sent octets the description's
        `rate_faces` count."""
        return {name: [(e["node"], self.links[e["link"]].end(e["node"])[0]) for e in ends]
                for name, ends in self.network.get("rate_faces", {}).items()}

    def octets_sent(self, counted):
        """{name: octets its devices have sent so far} (the kernel's tx_bytes: Ethernet frames)."""
        return {name: sum(self.net.device_counters(node, dev)["tx_bytes"] for node, dev in ends)
                for name, ends in counted.items()}

    def happen(self, event, now):
        """Carries out one of the description's events at `now` s (recorded in events_done).
        "isolate": every link of the node goes down on its side, so that it receives and sends
        nothing more (the simulator's failed router receives nothing)."""
        if event["action"] != "isolate":
            raise EmuError(f"event {event['action']!r} at {event['at_s']} s: ndnlab emu does not know it")
        for link in self.links:
            if event["node"] in link.nodes:
                self.net.set_state(event["node"], link.end(event["node"])[0], up=False)
        self.events_done.append({**event, "done_s": round(now, 3)})
        self.progress(f"{now:6.1f} s: {event['node']} isolated ({event['action']})")

    def start_consumer(self, i, app):
        """Starts consumer `app` (the i-th): (its Popen, the file its result is read from:
        get's output, whose .log holds its --json, or ping's log)."""
        sock = self.socket(app["node"])
        if app["tool"] == "get":
            out = self.run_dir / f"get-{app['node']}-{i}.out"
            trace = (["--trace", out.with_suffix(".trace")] if self.network.get("metrics") == "mircc-dumbbell"
                     else [])
            argv = [self.ndnlab, "get", "--socket", sock, app["name"], "-o", out, "--json",
                    "--no-progress", *trace, *app["args"]]
            both = False  # stdout carries the bytes; the summary goes to stderr
        elif app["tool"] == "ping":
            out = self.run_dir / f"ping-{app['node']}-{i}.log"
            argv = [self.ndnlab, "ping", "--socket", sock, "--json", "--quiet", *app["args"],
                    app["name"]]
            both = True  # its summary is on stdout
        elif app["tool"] in ("perf-client", "stream-play"):
            # its args hold -J or --json: the report on stdout, into `out`; messages into the .log
            out = self.run_dir / f"{app['tool']}-{app['node']}-{i}.json"
            verb = ["perf", "client"] if app["tool"] == "perf-client" else ["stream", "play"]
            trace = []
            if app.get("stream_trace"):
                # the simulated consumer's StreamTraceFiles: link_kbps from the octets the node's
                # interfaces received, its one link's (the consumer's end of L2)
                trace = ["--trace-dir", self.run_dir]
                self.traces += STREAM_TRACES
            argv = [self.ndnlab, *verb, "--socket", sock, *app["args"], *trace, app["name"]]
            with open(out, "wb") as stdout, open(out.with_suffix(".log"), "wb") as err:
                proc = self.net.popen(app["node"], argv, watch=False, stdout=stdout, stderr=err)
            return proc, out
        else:
            raise EmuError(f"consumer {app['node']}: ndnlab emu does not run `{app['tool']}`")
        with open(out.with_suffix(".log"), "wb") as err:
            proc = self.net.popen(app["node"], argv, watch=False,
                                  stdout=err if both else subprocess.DEVNULL, stderr=err)
        return proc, out

    def stop_captures(self):
        """Stops the veth ends' tcpdumps (each writes what it holds and its statistics);
        {link index: {node: packets the kernel dropped before tcpdump read them}}."""
        drops = {}
        for i, ends in self.captures.items():
            drops[i] = {}
            for node, (proc, log) in ends.items():
                self.net.stop(proc, timeout=10)
                drops[i][node] = self.net.capture_drops(log)
        return drops

    def node_counters(self):
        out = {}
        for node in self.network["nodes"]:
            r = self.ctl(node, "face", "list", check=False)
            c = {v: 0 for v in FACE_COUNTERS.values()}
            lp = {}
            for face in parse_face_list(r.stdout):
                if face["remote"].startswith(("udp", "tcp", "ether")):  # the faces between daemons
                    for k, v in FACE_COUNTERS.items():
                        c[v] += face.get(k, 0)
                    for k, value in face.get("lp", {}).items():
                        if k in LP_COUNTERS:
                            lp[LP_COUNTERS[k]] = lp.get(LP_COUNTERS[k], 0) + value
            tx = rx = txb = rxb = qdrops = 0
            wired = False
            for link, mech in zip(self.links, self.mechanisms):
                if node not in link.nodes:
                    continue
                dev = link.end(node)[0]
                k = self.net.device_counters(node, dev)
                tx, rx = tx + k["tx_packets"], rx + k["rx_packets"]
                txb, rxb = txb + k["tx_bytes"], rxb + k["rx_bytes"]
                wired = wired or mech != "ns3-wifi"
                if link.process is None:
                    try:
                        qdrops += self.net.tc_stats(node, dev)["drops"]
                    except ValueError:
                        pass
            c.update({"tx_frames": tx, "rx_frames": rx, "tx_bytes": txb, "rx_bytes": rxb})
            c.update(lp)  # only with link reliability on, as in the simulator
            if wired:  # the simulator's point-to-point drop counters; Wi-Fi nodes get phy_* instead
                c.update({"queue_drops": qdrops, "loss_drops": 0})
            out[node] = c
        return out

    def bundle_counters(self, node):
        """The BLEnD counters of `node`'s UDP faces, summed, under the simulator's keys
        (bundleCounters)."""
        r = self.ctl(node, "face", "list", check=False)
        sums = {k: 0 for k in BUNDLE_COUNTERS.values()}
        for face in parse_face_list(r.stdout):
            if face["remote"].startswith("udp"):
                for k, v in face.get("bundles", {}).items():
                    if k in BUNDLE_COUNTERS:
                        sums[BUNDLE_COUNTERS[k]] += v
        return sums

    def link_reports(self, nodes, capture_drops=None):
        """Stops the link processes (their counters and pcaps are written then) and reports
        each link; adds their queue and loss drops to `nodes` (the queue's at the sender, the
        loss at the receiver, as ns-3's devices count them). `capture_drops`: stop_captures()."""
        reports = []
        capture_drops = capture_drops or {}
        for i, (lk, link, mech) in enumerate(zip(self.network["links"], self.links, self.mechanisms)):
            if lk.get("kind") == "wifi-adhoc":
                rep = {"nodes": link_nodes(lk), "mechanism": mech, "kind": "wifi-adhoc",
                       **{k: lk[k] for k in ("standard", "data_mode", "positions_m", "range_m",
                                             "broadcast_at_data_rate", "ampdu", "addressing", "mtu")}}
            elif mech == "ns3-wifi":
                rep = {"a": lk["a"], "b": lk["b"], "mechanism": mech, "kind": "wifi",
                       **{k: lk[k] for k in ("standard", "data_mode", "distance_m", "frame_loss",
                                             "broadcast_at_data_rate", "ampdu", "addressing", "mtu")}}
            else:
                rep = {"a": lk["a"], "b": lk["b"], "mechanism": mech, "rate_bps": lk["rate_bps"],
                       "delay_s": lk["delay_s"], "loss": lk["loss"], "queue": lk["queue"]}
                if mech == "ns3-realtime":
                    rep["latency_offset_s"] = self.latency_offset(lk)
                    rep["calibration"] = self.latency.get((lk["rate_bps"], lk["delay_s"]))
            if link.process is not None:
                # frames the kernel could not hand to the link process (its tap ring was full)
                taps = {n: self.net.device_counters(n, link.end(n)[0])["tx_dropped"]
                        for n in link.nodes}
                self.net.stop(link.process, timeout=10)
                path = self.link_file(i, ".json")
                stats = json.loads(path.read_text()) if path.exists() else {}
                rep["realtime"] = stats.get("realtime")
                if lk.get("kind") == "wifi-adhoc":
                    # per node: its tap's frames each way, its radio's MAC drops, retries, PHY
                    # receive drops, and the frames it sent by type (the simulator's
                    # WifiPhyCounter keys, into the node's report)
                    ports = stats.get("ports", [])
                    rep["ports"] = {n: {k: v for k, v in port.items() if k not in ("ns", "dev")}
                                    for n, port in zip(link.nodes, ports)}
                    for n, port in zip(link.nodes, ports):
                        nodes[n].update({k: port[k] for k in PHY_TX_COUNTERS})
                else:
                    for direction, src, dst in (("a_to_b", lk["a"], lk["b"]), ("b_to_a", lk["b"], lk["a"])):
                        d = stats.get(direction, {})
                        rep[direction] = d
                        if mech != "ns3-wifi":
                            nodes[src]["queue_drops"] += d.get("queue_drops", 0)
                            nodes[dst]["loss_drops"] += d.get("loss_drops", 0)
                    if mech == "ns3-wifi":
                        # the frames each radio sent, by type, as the simulator's WifiPhyCounter
                        for end, node in (("a", lk["a"]), ("b", lk["b"])):
                            nodes[node].update(stats.get("phy", {}).get(end, {}))
                        rep["associated_s"] = stats.get("associated_s")
                        rep["deassociations"] = stats.get("deassociations")
                rep["tap_tx_dropped"] = taps
                rt = stats.get("realtime") or {}
                lost = sum(taps.values())
                # frames the taps dropped change what was measured; so does lateness that is
                # not small beside the link's own delay (a late frame arrives that much later)
                allowed_us = max(MIN_LAG_US, LAG_SHARE_OF_DELAY * lk.get("delay_s", 0) * 1e6)
                rep["kept_up"] = lost == 0 and rt.get("mean_lag_us", 0) <= allowed_us
            elif mech in ("tbf", "impair"):
                # a veth pair: the kernel's counts of its ends (Ethernet frames), each way what
                # the sender's end sent (after its tbf queue) and what the receiver's end took in
                for direction, src, dst in (("a_to_b", lk["a"], lk["b"]), ("b_to_a", lk["b"], lk["a"])):
                    sent = self.net.device_counters(src, link.end(src)[0])
                    got = self.net.device_counters(dst, link.end(dst)[0])
                    rep[direction] = {"frames_in": sent["tx_packets"], "bytes_in": sent["tx_bytes"],
                                      "frames_out": got["rx_packets"], "bytes_out": got["rx_bytes"]}
            files = self.pcap_files(i)
            if files:
                # one file per end, named link<i>-<a>-<b>.<node>.pcap, in the run directory
                rep["pcap"] = {node: f.name for node, f in zip(link_nodes(lk), files)}
                rep["pcap_by"] = "ns-3" if link.process is not None else "tcpdump"
                if i in capture_drops:
                    rep["pcap_kernel_drops"] = capture_drops[i]
            reports.append(rep)
        return reports


def ping_metrics(rc, log, started, ended):
    """A ping run's metrics under the simulated run's keys (pingMetrics): the fields of
    `ndnlab ping --json` (the last JSON line of its log) but its status and prefix."""
    text = log.read_text(errors="replace") if log.exists() else ""
    lines = [ln for ln in text.splitlines() if ln.startswith("{")]
    summary = json.loads(lines[-1]) if lines else {}
    m = {k: v for k, v in summary.items() if k not in ("status", "prefix")}
    if not summary:
        m["error"] = (text.strip().splitlines()[-1:] or ["no summary"])[0] if rc is not None \
            else "MaxTime reached"
    m["_start"], m["_end"] = started, ended
    return m


def perf_metrics(rc, out, started, ended):
    """A perf test's metrics under the simulated run's keys (perfMetrics in
    ns3/ndnlab/scenarios/scenario-kit.hpp), read from the client's iperf3 JSON (`out`)."""
    try:
        report = json.loads(out.read_text())
    except (OSError, ValueError):
        report = {}
    end = report.get("end", {})
    received, ndn = end.get("sum_received", {}), end.get("ndn", {})
    cpu = end.get("cpu_utilization_percent", {})
    m = {
        "goodput_mbps": received.get("bits_per_second", 0.0) / 1e6,
        "bytes": received.get("bytes", 0),
        "lost_packets": received.get("lost_packets", 0),
        "lost_percent": received.get("lost_percent", 0.0),
        "jitter_ms": end.get("sum", {}).get("jitter_ms", 0.0),
        "retransmissions": ndn.get("retransmissions", 0),
        **{k: ndn.get(k, 0) for k in ("interests", "data", "timeouts", "nacks", "congestion_marks",
                                      "rtt_min_ms", "rtt_avg_ms", "rtt_max_ms", "interarrival_ave_us",
                                      "interarrival_max_us", "interarrival_var_us2")},
        "elapsed_s": received.get("seconds", 0.0),
        "server_bytes": ndn.get("server", {}).get("bytes", 0),
        "intervals_mbps": [iv["sum"]["bits_per_second"] / 1e6 for iv in report.get("intervals", [])],
        "mode": report.get("start", {}).get("ndn", {}).get("mode", ""),
        "completed": rc == 0 and bool(report) and "error" not in report,
        "cpu_host_percent": cpu.get("host_total"),
        "cpu_remote_percent": cpu.get("remote_total") if ndn.get("server_stats") else None,
    }
    if not m["completed"]:
        log = out.with_suffix(".log")
        text = log.read_text(errors="replace").strip() if log.exists() else ""
        m["error"] = report.get("error") or (text.splitlines()[-1:] or ["no report"])[0] \
            if rc is not None else "MaxTime reached"
    m["_start"], m["_end"] = started, ended
    return m


# what `get --json` adds about its own process (docs/tools.md), not results of the fetch
GET_PROCESS_KEYS = ("timer_wakeups", "cpu_s")


def fetch_metrics(app, rc, out, started, ended, content, data_received):
    """A consumer's metrics under the simulated run's keys (Fetch::metrics)."""
    log = out.with_suffix(".log")
    text = log.read_text(errors="replace") if log.exists() else ""
    summary = tool_summary(text)
    # the fetch's result fields; not what the get process itself cost (timer_wakeups, cpu_s)
    m = {k: v for k, v in summary.items()
         if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in GET_PROCESS_KEYS}
    completed = rc == 0
    size = out.stat().st_size if out.exists() else 0
    bit_exact = False
    if completed and content is not None and content.exists():
        bit_exact = _sha256(out) == _sha256(content)
    m["completion_time_s"] = (m.get("discovery_s", 0) + m.get("transfer_time_s", 0)) if completed else None
    m["completed"] = completed
    m["bit_exact"] = bit_exact
    m["file_size_bytes"] = int(content.stat().st_size) if content is not None else None
    m["bytes"] = size
    m["data_received"] = data_received
    if not completed:
        m["error"] = (summary.get("error") or text.strip().splitlines()[-1:] or ["timed out"])[0] \
            if rc is not None else "MaxTime reached"
    m["_start"], m["_end"] = started, ended
    return m


def write_content(path, seed, size, chunk=1 << 24):
    """`size` pseudo-random bytes from `seed` (the producer's ContentSeed) into `path`."""
    rng = random.Random(seed)
    with open(path, "wb") as f:
        for offset in range(0, size, chunk):
            f.write(rng.randbytes(min(chunk, size - offset)))


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def aggregate(flows):
    """One consumer: its metrics. Several (dumbbell): the sums and the fairness the simulated
    scenario reports, each flow's own under `flows`."""
    names = list(flows)
    if len(names) == 1:
        m = dict(flows[names[0]])
        m.pop("_start", None)
        m.pop("_end", None)
        return m
    first = min(f["_start"] for f in flows.values())
    last = max(f["_end"] for f in flows.values())
    total = sum(f["bytes"] for f in flows.values())
    goodputs = [f.get("goodput_mbps", 0.0) for f in flows.values()]
    squares = sum(g * g for g in goodputs)
    completed = all(f["completed"] for f in flows.values())
    done = [f["completion_time_s"] for f in flows.values() if f["completion_time_s"] is not None]
    for f in flows.values():
        f.pop("_start", None)
        f.pop("_end", None)
    return {
        "goodput_mbps": total * 8 / (last - first) / 1e6 if last > first else 0.0,
        "jain_index": sum(goodputs) ** 2 / (len(goodputs) * squares) if squares > 0 else 0.0,
        "completion_time_s": max(done) if completed and done else None,
        "completed": completed,
        "bit_exact": all(f["bit_exact"] for f in flows.values()),
        **{k: sum(f.get(k, 0) for f in flows.values())
           for k in ("segments", "retransmissions", "timeouts", "interests_sent", "data_received")},
        "flows": flows,
    }


def hidden_metrics(network, flows):
    """wifi-hidden's two fetches (B from A, C from D) under the simulated run's keys
    (runWifiHidden): content bytes of both over the span from the first start to the last end,
    the flows' goodputs summed, the slower one, Jain's index of the two, completion of the
    later one from B's start, and the counters summed; each flow's own under `flows`."""
    starts = {a["flow"]: a["start_s"] for a in network["apps"] if a.get("flow")}
    first = min(f["_start"] for f in flows.values())
    last = max(f["_end"] for f in flows.values())
    goodputs = [f.get("goodput_mbps", 0.0) for f in flows.values()]
    total, squares = sum(goodputs), sum(g * g for g in goodputs)
    completed = all(f["completed"] for f in flows.values())
    t0 = min(starts.values())
    for f in flows.values():
        f.pop("_start", None)
        f.pop("_end", None)
    return {
        "goodput_mbps": sum(f["bytes"] for f in flows.values()) * 8 / (last - first) / 1e6 if last > first else 0.0,
        "goodput_sum_mbps": total,
        "goodput_min_mbps": min(goodputs),
        "fairness": total * total / (len(goodputs) * squares) if squares > 0 else 0.0,
        "completed": completed,
        "bit_exact": all(f["bit_exact"] for f in flows.values()),
        "completion_time_s": (max(f["completion_time_s"] + starts[name] - t0 for name, f in flows.items())
                              if completed else None),
        **{k: sum(f.get(k, 0) for f in flows.values())
           for k in ("retransmissions", "timeouts", "interests_sent", "data_received")},
        "flows": flows,
    }


# --- command line ------------------------------------------------------------------------------

USAGE = """ndnlab emu SCENARIO [--Name=value ...] [--ns3::Type::Attribute=value ...]
                  [--out DIR] [--seed N] [--json]
                  [--link-mode auto|ns3|tbf|impair] [--no-link-calibration]
                  [--priority auto|realtime|normal] [--pcap] [--quiet]

Runs SCENARIO (one of `ndnlab sim`'s with a network description: p2p-chain, dumbbell,
mircc-dumbbell, wifi-one-hop, wifi-chain, wifi-hidden, rtsd-star, rtsd-scale) on real daemons:
one ndnlabd per node in its own network namespace, links shaped as the scenario says (802.11 by
ns-3 in real time), the same parameters
(--Name=value, checked by the simulator) and a result.json with the same metric keys as
`ndnlab sim`, plus backend "emu". An ns-3 override of an NdnStack attribute that ndnlabd has a
key for (--ns3::ndnlab::NdnStack::LpReliability=true) is set in every daemon; any other acts in
ns-3 only and is recorded as such (result.json `simulator_only`). Needs root (CAP_NET_ADMIN,
CAP_SYS_ADMIN).
"""


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="ndnlab emu", usage=USAGE,
                                     description="Exit status: 0 run done (the fetch's outcome is "
                                     "in the metrics), 1 the emulation failed, 2 bad arguments or "
                                     "no privileges.")
    parser.add_argument("scenario", help="scenario name (ndnlab sim --list)")
    parser.add_argument("--out", type=pathlib.Path,
                        help="write result.json, daemon logs and link counters to DIR "
                             "(default: a temporary directory, removed after a successful run)")
    parser.add_argument("--seed", type=int, default=1, help="the replication: ns-3 run number of "
                        "the links' losses, and the daemons' seed (default 1)")
    parser.add_argument("--json", action="store_true", help="print result.json on stdout")
    parser.add_argument("--link-mode", choices=("auto", "ns3", "tbf", "impair"), default="auto",
                        help="auto: tbf for links without delay and loss, ns-3 real time for the "
                             "others; ns3: ns-3 for all; tbf: kernel only (no delay or loss); "
                             "impair: tbf plus the daemons' egress impairment")
    parser.add_argument("--faces", choices=("udp", "tcp", "ether"), default="udp",
                        help="the daemons' faces to each other: UDP (default; one each way per "
                             "link), TCP (one connection per link, from the end that routes "
                             "over it) or Ethernet (NDN straight on the link, EtherType 0x8624; "
                             "the face from the end that routes over it); recorded in "
                             "result.json (faces)")
    parser.add_argument("--link-calibration", action=argparse.BooleanOptionalAction, default=True,
                        help="before the run, measure what each ns-3 real-time point-to-point "
                             "link process adds to a frame by itself (per rate and delay, UDP "
                             "echoes) and take it off the link's simulated delay "
                             "(links[].latency_offset_s, links[].calibration); on by default")
    parser.add_argument("--priority", choices=("auto", "realtime", "normal"), default="auto",
                        help="the scheduling of the emulation's daemons, tools and link "
                             f"processes: realtime (SCHED_RR {REALTIME_PRIORITY}: nothing else "
                             "on the machine delays them; exit 2 where it is refused), normal "
                             "(the default scheduler), auto (default: realtime where permitted, "
                             "else normal with a warning); recorded in result.json (scheduling)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--pcap", action="store_true",
                        help="capture every link end into the run directory, "
                             "link<i>-<a>-<b>.<node>.pcap (ns-3's pcap of its links, tcpdump on "
                             "veth links), listed in result.json (links[].pcap)")
    args, rest = parser.parse_known_args(argv)
    params = []
    for a in rest:
        if not (a.startswith("--") and "=" in a):
            parser.error(f"unexpected argument {a!r} (scenario parameters are --Name=value, "
                         "ns-3 overrides --ns3::Type::Attribute=value)")
        params.append(a)
    if not 1 <= args.seed <= 4294944442:
        parser.error(f"--seed {args.seed}: expected 1..4294944442")
    return args, params


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args, params = parse_args(argv)
    say = (lambda text: None) if args.quiet else (lambda text: print(f"ndnlab emu: {text}",
                                                                      file=sys.stderr))
    try:
        ok, why = emunet.check_privileges()
        if not ok:
            raise UsageError(f"cannot build a network here: {why} (ndnlab emu needs root, or "
                             "CAP_NET_ADMIN and CAP_SYS_ADMIN)")
        network = describe(find_program("ndnlab-sim"), args.scenario, params, args.seed)
        mechanisms, warnings = plan_links(network, args.link_mode)
        # ns-3 overrides with no ndnlabd key (NdnStack's that have one are in daemon_config)
        warnings += [f"{o} acts in ns-3 only: the daemons run without it"
                     for o in network.get("simulator_only", [])]
        if args.faces != "udp" and {"impair", "ns3-wifi"} & set(mechanisms):
            raise UsageError(f"--faces {args.faces}: " + ("the daemons' egress impairment acts on UDP faces only"
                                                if "impair" in mechanisms else
                                                "802.11 links run BLEnD over UDP faces (unicast or multicast)"))
        find_program("ndnlab")
        find_program("ndnlabd")
        priority, scheduling = None, {"policy": "normal", "reason": "--priority normal"}
        if args.priority != "normal":
            ok, why = emunet.realtime_scheduling(REALTIME_PRIORITY)
            if ok:
                priority, scheduling = REALTIME_PRIORITY, {"policy": "rr", "priority": REALTIME_PRIORITY}
            elif args.priority == "realtime":
                raise UsageError(f"--priority realtime: {why}")
            else:
                scheduling = {"policy": "normal", "reason": why}
                warnings.append(f"{why}: the emulation's processes run under the normal scheduler, "
                                "where other work on the machine delays them")
        tcpdump = None
        if args.pcap and {"tbf", "impair"} & set(mechanisms):
            tcpdump = shutil.which("tcpdump")
            if not tcpdump:
                raise UsageError("--pcap: tcpdump not found on PATH; it captures the veth links "
                                 "(tbf, impair) of this run (Debian: apt-get install tcpdump)")
    except UsageError as e:
        print(f"ndnlab emu: {e}", file=sys.stderr)
        return EXIT_USAGE
    except EmuError as e:
        print(f"ndnlab emu: {e}", file=sys.stderr)
        return EXIT_FAILED
    for w in warnings:
        say(f"warning: {w}")

    temp = args.out is None
    run_dir = pathlib.Path(tempfile.mkdtemp(prefix="ndnlab-emu-")) if temp else args.out
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "result.json").unlink(missing_ok=True)
    emu = Emulation(network, mechanisms, run_dir.resolve(), args.seed, say, tcpdump, args.pcap,
                    faces=args.faces, priority=priority)
    cpu = CpuMeter()
    t_start = time.monotonic()
    try:
        if args.link_calibration:
            emu.calibrate()
        # the orchestrator's own thread above the emulation's processes: its samples, start
        # times and checks keep their time when the emulation takes every core
        with emunet.Network(priority=priority) as net, \
                emunet.realtime_thread(None if priority is None else priority + 1):
            cpu.pids = net.running_pids
            say(f"{args.scenario}: {len(network['nodes'])} nodes, {len(network['links'])} links "
                f"({', '.join(sorted(set(mechanisms)))}); run {net.tag}, files in {run_dir}")
            emu.build(net)
            finished, producers = emu.run(cpu)
            drops = emu.stop_captures()
            nodes = emu.node_counters()
            bundling = {n: emu.bundle_counters(n) for n in network.get("bundling_metrics", [])}
            links = emu.link_reports(nodes, drops)
            content = {p["prefix"]: p.get("_content") for p in producers}
            flows = {}
            for p in producers:
                if "_proc" in p:  # the publishers print their counters when stopped
                    net.stop(p["_proc"], timeout=10)
            for app, rc, out, started, ended, _ in finished:
                if app["tool"] == "stream-play":
                    continue  # stream_metrics, below
                if app["tool"] == "ping":
                    flows[app["node"]] = ping_metrics(rc, out, started, ended)
                elif app["tool"] == "perf-client":
                    flows[app["node"]] = perf_metrics(rc, out, started, ended)
                else:
                    flows[app.get("flow", app["node"])] = fetch_metrics(app, rc, out, started, ended,
                                                       content.get(app["name"]),
                                                       nodes[app["node"]]["data_in"])
    except (EmuError, OSError, RuntimeError, ValueError, subprocess.SubprocessError) as e:
        # the network is gone already (the with block closed it)
        print(f"ndnlab emu: {e}", file=sys.stderr)
        return EXIT_FAILED
    if network.get("metrics") == "mircc-dumbbell":
        metrics = mircc_metrics.metrics(network, finished)
        mircc_metrics.write_series(run_dir / "mircc-series.csv", metrics.pop("_series"))
    elif network.get("metrics") == "rtsd-scale":
        metrics = stream_metrics.scale_metrics(network, finished, [p["_out"] for p in producers if "_out" in p],
                                               emu.sent_octets)
    elif network.get("metrics") == "rtsd-star":
        metrics = stream_metrics.metrics(network, finished, [p["_out"] for p in producers if "_out" in p],
                                         links)
    elif network.get("metrics") == "wifi-hidden":
        metrics = hidden_metrics(network, flows)
    else:
        metrics = aggregate(flows)
    metrics.update(network.get("extra_metrics", {}))
    metrics["nodes"] = nodes
    if network.get("bundling_in") == "nodes":  # the multi-hop Wi-Fi scenarios' nodeReport
        for n, counters in bundling.items():
            nodes[n]["bundling"] = counters
    elif network.get("bundling_metrics"):
        metrics["bundling"] = bundling
    cpu_summary = cpu.summary()
    saturated = CpuMeter.saturated(cpu_summary, priority is not None)
    result = {
        "backend": "emu",
        "scenario": network["scenario"],
        "parameters": network["parameters"],
        "seed": args.seed,
        "faces": args.faces,
        "link_calibration": args.link_calibration,
        "scheduling": scheduling,
        "metrics": metrics,
        "traces": [name for name in emu.traces if (run_dir / name).exists()],
        "links": links,
        "cpu": cpu_summary,
        "saturated": saturated,
        "kept_up": all(lk.get("kept_up", True) for lk in links),
        **({"simulator_only": network["simulator_only"]} if network.get("simulator_only") else {}),
        **({"events": emu.events_done} if network.get("events") else {}),
        "wall_time_s": round(time.monotonic() - t_start, 3),
    }
    text = json.dumps(result, indent=2) + "\n"
    if not temp:
        tmp = run_dir / "result.json.tmp"
        tmp.write_text(text)
        tmp.rename(run_dir / "result.json")
    else:
        shutil.rmtree(run_dir, ignore_errors=True)
    if args.json:
        sys.stdout.write(text)
    else:
        print(summary_text(result))
    return EXIT_OK


def summary_text(result):
    m = result["metrics"]
    if "pings_sent" in m:
        rtt = (f"rtt min/avg/max {m['rtt_min_ms']:.3f}/{m['rtt_avg_ms']:.3f}/{m['rtt_max_ms']:.3f} ms"
               if m.get("pings_received") else "no reply")
        lines = [f"{result['scenario']} (emu, seed {result['seed']}): {m['pings_sent']} pings, "
                 f"{m['pings_received']} replies, {m['loss_percent']:.0f} % lost; {rtt}"]
    elif "stream" in m:  # rtsd-star, rtsd-scale
        lines = []
        for key in ("stream", "stream_reverse", "stream2"):
            if key in m:
                f = m[key]
                lines.append(f"{result['scenario']} (emu, seed {result['seed']}) {key}: {f['state']}"
                             f"{', ' + f['error'] if f.get('error') else ''}; {f.get('frames_rendered', 0)} frames "
                             f"rendered, {f.get('frames_lost', 0)} lost, {f.get('stalls', 0)} stalls, first frame "
                             f"{f.get('first_frame_ms', -1):.0f} ms, latency median {f.get('latency_median_ms', 0):.0f} ms")
    elif "intervals_mbps" in m:  # a perf test
        lines = [f"{result['scenario']} (emu, seed {result['seed']}): perf {m['mode'] or '-'}, "
                 f"{'completed' if m['completed'] else 'NOT completed: ' + m.get('error', '')}, "
                 f"{m['goodput_mbps']:.2f} Mbit/s over {m['elapsed_s']:.1f} s, lost {m['lost_percent']:.2f} %, "
                 f"jitter {m['jitter_ms']:.3f} ms"]
    elif "completed" in m:
        lines = [f"{result['scenario']} (emu, seed {result['seed']}): "
                 f"{'completed' if m['completed'] else 'NOT completed'}, "
                 f"{'bit-exact' if m['bit_exact'] else 'not bit-exact'}, "
                 f"goodput {m.get('goodput_mbps', 0):.2f} Mbit/s"]
    else:  # flows that run for a time (mircc-dumbbell)
        lines = [f"{result['scenario']} (emu, seed {result['seed']}): Jain's index "
                 f"{m.get('jain_index_shared', 0):.3f} over the shared period, bottleneck utilisation "
                 f"{m.get('bottleneck_utilisation', 0):.2f}"]
        for name, f in sorted(m.get("flows", {}).items()):
            lines.append(f"  {name}: {f['interests_sent']} Interests, {f['data_received']} segments, loss "
                         f"{f['loss_rate']:.3f}, {f['rate_pps_shared']:.0f} Interests/s shared")
    if "retransmissions" in m:
        lines.append(f"  retransmissions {m['retransmissions']}, timeouts {m.get('timeouts', 0)}")
    for lk in result["links"]:
        if lk.get("kind") == "wifi-adhoc":
            ports = lk.get("ports", {})
            lines.append(f"  channel {'-'.join(lk['nodes'])}: {lk['mechanism']}, {lk['standard']} "
                         f"{lk['data_mode']} ad hoc, x = {', '.join(f'{x:g}' for x in lk['positions_m'])} m, "
                         f"range {lk['range_m']:g} m, {lk['addressing']}; retries "
                         f"{'/'.join(str(p.get('retries', 0)) for p in ports.values())}, MAC drops "
                         f"{sum(p.get(k, 0) for p in ports.values() for k in WIFI_MAC_DROPS)}")
            continue
        if lk.get("kind") == "wifi":
            ab, ba = lk.get("a_to_b", {}), lk.get("b_to_a", {})
            lines.append(f"  link {lk['a']}-{lk['b']}: {lk['mechanism']}, {lk['standard']} "
                         f"{lk['data_mode']}, {lk['distance_m']:g} m, {lk['addressing']}; retries "
                         f"{ab.get('retries', 0)}/{ba.get('retries', 0)}, MAC drops "
                         f"{sum(d.get(k, 0) for d in (ab, ba) for k in WIFI_MAC_DROPS)}")
            continue
        lines.append(f"  link {lk['a']}-{lk['b']}: {lk['mechanism']}, {lk['rate_bps'] / 1e6:g} Mbit/s, "
                     f"{lk['delay_s'] * 1e3:g} ms, loss {lk['loss']:g}")
    cpu = result["cpu"]
    lines.append(f"  CPU {cpu['mean_busy_percent']:.0f} % busy on average "
                 f"({cpu['cores']} cores){'; SATURATED: the emulation ran slower than the network' if result['saturated'] else ''}")
    if "run_queue_wait_s" in cpu:
        sched = result.get("scheduling", {})
        lines.append(f"  the emulation's processes: {cpu['processes_cpu_s']:.2f} s on a CPU, "
                     f"{cpu['run_queue_wait_s']:.2f} s waiting for one "
                     f"({'SCHED_RR ' + str(sched['priority']) if sched.get('policy') == 'rr' else 'normal scheduler'})")
    if not result["kept_up"]:
        lines.append("  an ns-3 real-time link fell behind (late polls or tap drops): see links[].realtime")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
