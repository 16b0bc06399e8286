"""Network namespaces joined by veth links, shaped by kernel tbf, all through netlink (pyroute2):
the network-building part of `ndnlab emu` (issue 27, docs/decisions/0005-emulation-engine.md).

A `Network` owns one run: namespaces named `ndnlab-<tag>-<node>` (the tag is random per run, so
parallel runs and leftovers are told apart), veth pairs with a private /24 per link, tbf on each
direction's egress when a link has a rate, IP forwarding and static routes, and the processes
started inside its namespaces. It removes all of it on close(), which also runs on an exception
in its `with` block, on SIGINT/SIGTERM and at interpreter exit. A run killed with SIGKILL leaves
its namespaces behind with an owner file naming its pid (`/run/ndnlab-emu/<tag>`);
`cleanup_stale()` removes those whose owner is gone.

Processes enter a namespace without `ip netns exec`: a short-lived thread joins the namespace
(setns(2) changes only the calling thread) and forks there, so the child starts inside it.

These kernels have tbf and htb but no netem (docs/decisions/0005), so links carry rate and queue
only; delay and loss come from elsewhere (ns-3 real-time links, the daemon's impairment).
"""
import atexit
import contextlib
import dataclasses
import errno
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections import deque

try:
    from pyroute2 import IPRoute
    from pyroute2 import netns as _netns
    _PYROUTE2_ERROR = None
except ImportError as e:  # reported by check_privileges(), not at import
    IPRoute = _netns = None
    _PYROUTE2_ERROR = str(e)

NS_PREFIX = "ndnlab"
NETNS_DIR = pathlib.Path("/var/run/netns")
OWNER_DIR = pathlib.Path("/run/ndnlab-emu")
ETH_HEADER = 14  # octets tbf counts per frame beyond the IP MTU
DEFAULT_QUEUE = "100p"  # ns-3's DropTailQueue default
WIFI_MTU = 2296  # ns-3 WifiNetDevice: 2304-octet MSDUs less the 8-octet LLC/SNAP header
CLONE_NEWNET = 0x40000000
TC_H_ROOT = 0xFFFFFFFF
BROADCAST_MAC = "ff:ff:ff:ff:ff:ff"
NUD_PERMANENT = 0x80  # a neighbour entry the kernel never resolves again (linux/neighbour.h)
_NAME_RE = re.compile(r"^[A-Za-z0-9_]+(?:[.-][A-Za-z0-9_]+)*$")
_NS_RE = re.compile(rf"^{NS_PREFIX}-([0-9a-f]+)-(.+)$")
_CAP_NET_ADMIN, _CAP_SYS_ADMIN = 12, 21


# --- namespace plumbing ------------------------------------------------------------------------

def _in_netns(nsfd, fn, *args, priority=None, **kw):
    """fn(*args, **kw) on a thread inside the namespace open as `nsfd` (None: this process's);
    its result or exception. Sockets and child processes made there belong to the namespace;
    with `priority` the thread, and the processes it starts, run under SCHED_RR at it."""
    out = {}

    def body():
        try:
            if nsfd is not None:
                _netns.setns(nsfd, flags=0)
            if priority is not None:  # sched_setscheduler(0): this thread only; a fork inherits it
                os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(priority))
            out["value"] = fn(*args, **kw)
        except BaseException as e:  # handed to the caller's thread
            out["error"] = e

    t = threading.Thread(target=body, name="ndnlab-netns", daemon=True)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


def _open_ns(name):
    return os.open(NETNS_DIR / name, os.O_RDONLY)


def popen_in(netns_name, argv, **kw):
    """subprocess.Popen(argv, **kw) inside the named namespace (`ip netns` names)."""
    fd = _open_ns(netns_name)
    try:
        return _in_netns(fd, subprocess.Popen, [str(a) for a in argv], **kw)
    finally:
        os.close(fd)


def run_in(netns_name, argv, *, input=None, timeout=None, check=False, capture_output=False, **kw):
    """subprocess.run() inside the named namespace: a CompletedProcess; on timeout the child is
    killed and TimeoutExpired raised."""
    if input is not None:
        kw["stdin"] = subprocess.PIPE
    if capture_output:
        kw["stdout"] = kw["stderr"] = subprocess.PIPE
    with popen_in(netns_name, argv, **kw) as proc:
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
    result = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    if check:
        result.check_returncode()
    return result


def link_excess(rtts_link, rtts_veth, rate, delay, size=64):
    """The time (s) an emulated link of `rate` (bit/s) and `delay` (s) adds to a frame each way
    beyond its model: half the difference of the shortest round trips over it and over a veth
    pair between the same namespaces (which cancels the kernels' and the measuring threads'
    share), less the modelled delay and the frame's transmission time (IPv4, UDP and 2 octets
    of PPP, as ndnlab-emu-link counts). The shortest, not the median: a round trip that met a
    busy CPU says nothing about the link, and taking too much off a delay is worse than taking
    too little. Negative when the link was faster than its model."""
    return (min(rtts_link) - min(rtts_veth)) / 2 - delay - (size + 28 + 2) * 8 / rate


def measure_link_latency(program, rate, delay, mtu=1500, size=64, priority=None):
    """What the real-time link process `program` adds by itself to each frame at `rate` (bit/s)
    and `delay` (s): a lossless emulated link and a veth pair between two namespaces of their
    own, UDP echoes over each (about 1 s of echoes, at least 10), link_excess of the two; the
    link process under SCHED_RR at `priority` when given, as in the run it calibrates.
    Returns {"excess_s", "rtt_link_ms", "rtt_veth_ms" (the shortest round trips), "echoes"};
    RuntimeError when no echo came back."""
    count = max(10, min(40, int(1.0 / (2 * delay + 1e-3))))
    with Network(priority=priority) as net:
        net.add_node("a", forward=False)
        net.add_node("b", forward=False)
        emulated = net.add_emulated_link("a", "b", program, rate, delay, mtu=mtu)
        veth = net.add_link("a", "b", mtu=mtu)
        warm = 2  # the first echoes meet cold caches and the links' start
        rtt_link = net.udp_echo_rtts("a", "b", emulated.addr_b, count + warm, size)[warm:]
        rtt_veth = net.udp_echo_rtts("a", "b", veth.addr_b, count + warm, size)[warm:]
    if not rtt_link or not rtt_veth:
        raise RuntimeError(f"{program}: no UDP echo came back across the calibration link")
    return {"excess_s": link_excess(rtt_link, rtt_veth, rate, delay, size),
            "rtt_link_ms": 1e3 * min(rtt_link),
            "rtt_veth_ms": 1e3 * min(rtt_veth),
            "echoes": len(rtt_link)}


def _ns_inode(name):
    st = os.stat(NETNS_DIR / name)
    return st.st_dev, st.st_ino


def _pids_in(inodes):
    """pids of the processes whose network namespace is one of `inodes` ((dev, ino) pairs)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                st = os.stat(f"/proc/{entry}/ns/net")
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in inodes:
                pids.append(int(entry))
    return pids


def _alive(pid):
    """True while `pid` exists and is not a zombie."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def process_cpu_seconds(pid):
    """The CPU time `pid` has used so far, user and system, all its threads (seconds), or None
    once it has gone."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_time(pid):
    """The start time of `pid` in clock ticks since boot (tells a reused pid apart), or None."""
    try:
        return int(pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def _kill_pids(pids, grace):
    """SIGTERM to `pids`, SIGKILL to those still there after `grace` seconds."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + (grace if sig == signal.SIGTERM else 5)
        while (pids := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
            time.sleep(0.02)
        if not pids:
            return


def _remove_ns(name):
    try:
        _netns.remove(name)
    except FileNotFoundError:
        pass


def realtime_scheduling(priority):
    """(ok, reason): whether processes may be started here under SCHED_RR at `priority`
    (root or CAP_SYS_NICE, and a real-time budget the cgroup grants). Probed on a thread that
    ends at once."""
    try:
        _in_netns(None, lambda: None, priority=priority)
    except OSError as e:
        return False, f"SCHED_RR {priority} refused: {e.strerror}"
    return True, ""


@contextlib.contextmanager
def realtime_thread(priority):
    """The calling thread under SCHED_RR at `priority` inside the block (unchanged when None),
    its policy before restored after. Threads it starts inherit the policy."""
    if priority is None:
        yield
        return
    before = os.sched_getscheduler(0), os.sched_getparam(0)
    os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(priority))
    try:
        yield
    finally:
        os.sched_setscheduler(0, *before)


def thread_times(pids):
    """{tid: (cpu_ns, wait_ns)} for every thread of the processes `pids` still running: its time
    on a CPU and its time runnable but waiting for one (/proc/<pid>/task/<tid>/schedstat)."""
    out = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    on_cpu, waiting = f.read().split()[:2]
            except (OSError, ValueError):
                continue
            out[int(tid)] = (int(on_cpu), int(waiting))
    return out


def check_privileges():
    """(ok, reason): whether this process may build networks here. Needs pyroute2, root or
    CAP_NET_ADMIN and CAP_SYS_ADMIN, and a namespace that can be created and entered (a chroot
    whose / is no mount point cannot). The probe namespace is removed before returning."""
    if _PYROUTE2_ERROR:
        return False, f"pyroute2 is not installed ({_PYROUTE2_ERROR}): scripts/install-deps"
    if os.geteuid() != 0:
        caps = 0
        for line in pathlib.Path("/proc/self/status").read_text().splitlines():
            if line.startswith("CapEff:"):
                caps = int(line.split()[1], 16)
        if not (caps >> _CAP_NET_ADMIN & 1 and caps >> _CAP_SYS_ADMIN & 1):
            return False, "needs root, or CAP_NET_ADMIN and CAP_SYS_ADMIN, for network namespaces"
    probe = f"{NS_PREFIX}-{uuid.uuid4().hex[:8]}-probe"
    try:
        _netns.create(probe)
        fd = _open_ns(probe)
        try:
            _in_netns(fd, lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close())
        finally:
            os.close(fd)
        with IPRoute(netns=probe, flags=0) as ipr:
            ipr.link("set", index=ipr.link_lookup(ifname="lo")[0], state="up")
    except OSError as e:
        return False, f"cannot create or enter a network namespace: {e}"
    finally:
        _remove_ns(probe)
    return True, ""


# --- link parameters ---------------------------------------------------------------------------

def parse_queue(queue):
    """ns-3's queue size strings: "100p" -> ("p", 100) packets, "150000B" -> ("B", 150000)
    octets."""
    m = re.fullmatch(r"\s*(\d+)\s*([pB])\s*", str(queue))
    if not m or int(m[1]) <= 0:
        raise ValueError(f"queue {queue!r}: a positive count with p (packets) or B (octets)")
    return m[2], int(m[1])


def tbf_burst(rate, mtu=1500):
    """tbf bucket in octets for `rate` bit/s: 1 ms at the rate, at least ten full frames (tbf
    needs one frame and rate/HZ; tests/droptail.py chose this, docs/results/bottleneck.md)."""
    return max(int(rate / 8 * 0.001), 10 * (mtu + ETH_HEADER))


@dataclasses.dataclass(frozen=True)
class Link:
    """One veth pair: end a (`dev_a`, `addr_a`) in node `a`, end b in node `b`, both in
    `subnet` (a /24 of its own)."""
    index: int
    a: str
    b: str
    dev_a: str
    dev_b: str
    addr_a: str
    addr_b: str
    subnet: str
    rate: float | None = None
    queue: str | None = None
    mtu: int = 1500
    delay: float = 0.0  # s, one way (emulated links)
    loss: float = 0.0  # per frame (emulated links)
    process: subprocess.Popen | None = dataclasses.field(default=None, compare=False)  # its link process

    def end(self, node):
        """(device, address) of this link's end in `node`."""
        if node == self.a:
            return self.dev_a, self.addr_a
        if node == self.b:
            return self.dev_b, self.addr_b
        raise ValueError(f"link {self.a}-{self.b} does not reach {node!r}")

    def peer(self, node):
        """The node at the other end from `node`."""
        self.end(node)
        return self.b if node == self.a else self.a

    @property
    def nodes(self):
        """The nodes it joins: (a, b)."""
        return self.a, self.b


@dataclasses.dataclass(frozen=True)
class Channel:
    """One 802.11 ad hoc channel of ndnlab-emu-link --link wifi-adhoc: the tap `devs[i]` with
    address `addrs[i]` in node `nodes[i]`, all in `subnet` (a /24 of its own: .1, .2, ... in
    the order of the nodes). Which nodes hear each other is the radio's business (positions,
    range); every node has a permanent neighbour entry for every other."""
    index: int
    nodes: tuple
    devs: tuple
    addrs: tuple
    subnet: str
    mtu: int
    process: subprocess.Popen | None = dataclasses.field(default=None, compare=False)  # its link process

    def end(self, node):
        """(device, address) of the channel's tap in `node`."""
        if node not in self.nodes:
            raise ValueError(f"channel {'-'.join(self.nodes)} does not reach {node!r}")
        i = self.nodes.index(node)
        return self.devs[i], self.addrs[i]


def _radio_flags(radio):
    """ndnlab-emu-link's flags of a radio dict ({"standard": "11b", "ampdu": False, ...});
    empty values keep the program's defaults."""
    argv = []
    for key, value in radio.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        if value != "":
            argv += [f"--{key}", str(value)]
    return argv


def _read_ready(proc, timeout):
    """True once `proc` printed a line starting with 'ready' on stdout, within `timeout` s."""
    box = []

    def read():
        for line in proc.stdout:
            if line.startswith("ready"):
                box.append(True)
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    return bool(box)


def shortest_paths(nodes, links, root):
    """Breadth-first from `root` over `links` (fewest hops; ties to the earliest link):
    ({node: hops from root}, {node: root's first hop toward it (None for root)}), for the nodes
    root reaches."""
    adj = {n: [] for n in nodes}
    for link in links:
        adj[link.a].append(link)
        adj[link.b].append(link)
    dist, first = {root: 0}, {root: None}
    todo = deque([root])
    while todo:
        n = todo.popleft()
        for link in adj[n]:
            m = link.peer(n)
            if m not in dist:
                dist[m] = dist[n] + 1
                first[m] = first[n] or link
                todo.append(m)
    return dist, first


@dataclasses.dataclass(frozen=True)
class DeadProcess:
    """A tracked process that exited without being asked to."""
    node: str
    argv: tuple
    returncode: int


@dataclasses.dataclass
class _Tracked:
    node: str
    argv: tuple
    proc: subprocess.Popen
    group: bool  # leads its own process group (killpg reaches its children too)
    watch: bool
    stopping: bool = False


# --- clean-up on exit and signals --------------------------------------------------------------

_live = []  # open Networks, oldest first
_prev_handlers = {}
_HANDLED = (signal.SIGINT, signal.SIGTERM)


def _close_all():
    for net in reversed(list(_live)):
        net.close()


def _on_signal(signo, frame):
    """Closes every open Network, then hands the signal on: to the handler installed before
    ours if there was one, else exits with 128 + signo. A forked child (pyroute2 forks helpers
    and stops them with SIGTERM) inherits this handler, and just exits."""
    if any(net.pid != os.getpid() for net in _live):
        os._exit(128 + signo)
    _close_all()
    prev = _prev_handlers.pop(signo, signal.SIG_DFL)
    if callable(prev) and prev is not signal.default_int_handler:
        prev(signo, frame)
        return
    raise SystemExit(128 + signo)


def _install_handlers():
    if threading.current_thread() is not threading.main_thread():
        return  # signal handlers can only be set there; atexit still closes
    for sig in _HANDLED:
        if signal.getsignal(sig) is not _on_signal:
            _prev_handlers[sig] = signal.getsignal(sig)
            signal.signal(sig, _on_signal)


def _restore_handlers():
    if threading.current_thread() is not threading.main_thread():
        return
    for sig, prev in list(_prev_handlers.items()):
        if signal.getsignal(sig) is _on_signal:
            signal.signal(sig, prev if prev is not None else signal.SIG_DFL)
        del _prev_handlers[sig]


atexit.register(_close_all)


# --- the network -------------------------------------------------------------------------------

class Network:
    """Namespaces, links and processes of one run; a context manager. `grace` is how long
    close() waits after SIGTERM before SIGKILL, in seconds."""

    def __init__(self, tag=None, grace=2.0, priority=None):
        if _PYROUTE2_ERROR:
            raise RuntimeError(f"pyroute2 is not installed: {_PYROUTE2_ERROR}")
        self.tag = tag or uuid.uuid4().hex[:8]
        if not re.fullmatch(r"[0-9a-f]+", self.tag):
            raise ValueError(f"tag {self.tag!r}: lower-case hex digits")
        self.grace = grace
        self.priority = priority  # SCHED_RR priority of the processes started, None: normal
        self.pid = os.getpid()  # only this process tears the network down, not a fork of it
        self.nodes = {}  # node -> namespace name
        self.links = []
        self._fds = {}  # node -> open namespace fd
        self._ipr = {}  # node -> IPRoute in that namespace
        self._ndev = {}  # node -> number of veth ends made in it
        self._procs = []
        self._closed = False
        OWNER_DIR.mkdir(parents=True, exist_ok=True)
        self.owner_file = OWNER_DIR / self.tag
        if self.owner_file.exists():  # a tag of its own, or close() would take another run's
            raise ValueError(f"tag {self.tag!r} is in use ({self.owner_file})")
        self.owner_file.write_text(json.dumps({"pid": os.getpid(),
                                               "start": _start_time(os.getpid())}) + "\n")
        _live.append(self)
        _install_handlers()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- nodes and links

    def ns(self, node):
        """The namespace name of `node` (for tools that take `ip netns` names)."""
        return self.nodes[node]

    def ipr(self, node):
        """The pyroute2 IPRoute of `node`'s namespace, for what this class does not wrap (it
        stays open until close())."""
        return self._ipr[node]

    def add_node(self, name, forward=True):
        """A namespace for node `name`, its loopback up and (with `forward`) IPv4 forwarding on,
        so that it can route between its links. IPv6 is off on its links: the kernel's own
        IPv6 frames (multicast listener reports, duplicate-address probes) would cross a lossy
        emulated link and take its random draws, so that the emulated and the simulated link
        no longer lose the same frames. Returns the namespace name."""
        self._check_open()
        if not _NAME_RE.match(name) or len(name) > 40:
            raise ValueError(f"node name {name!r}: letters, digits, _ . - (at most 40)")
        if name in self.nodes:
            raise ValueError(f"node {name!r} exists")
        ns = f"{NS_PREFIX}-{self.tag}-{name}"
        if (NETNS_DIR / ns).exists():
            raise ValueError(f"namespace {ns} exists (a leftover: cleanup_stale())")
        self.nodes[name] = ns  # before creating it: close() removes it even if what follows fails
        _netns.create(ns)
        self._fds[name] = _open_ns(ns)
        self._ipr[name] = IPRoute(netns=ns, flags=0)
        self._ndev[name] = 0
        ipr = self._ipr[name]
        ipr.link("set", index=ipr.link_lookup(ifname="lo")[0], state="up")
        if forward:
            self.call(name, pathlib.Path("/proc/sys/net/ipv4/ip_forward").write_text, "1")
        for conf in ("default", "all"):  # devices made from now on start without IPv6
            self.call(name, pathlib.Path(f"/proc/sys/net/ipv6/conf/{conf}/disable_ipv6").write_text, "1")
        return ns

    def add_link(self, a, b, rate=None, queue=None, mtu=1500):
        """A veth pair between nodes `a` and `b` with the next free /24 (10.<200+i/256>.<i%256>.0,
        .1 in a, .2 in b), both ends up. With `rate` (bit/s) each direction's egress is shaped by
        tbf with a drop-tail queue of `queue` ("100p" or "150000B"; ns-3's 100 packets when
        None). Returns the Link."""
        i, net, dev_a, dev_b = self._claim_link(a, b)
        link = Link(i, a, b, dev_a, dev_b, f"{net}.1", f"{net}.2", f"{net}.0/24", rate,
                    queue, mtu)
        self._ipr[a].link("add", ifname=dev_a, kind="veth",
                          peer={"ifname": dev_b, "net_ns_fd": self.nodes[b]})
        self.links.append(link)
        for node, dev, addr in ((a, dev_a, link.addr_a), (b, dev_b, link.addr_b)):
            ipr = self._ipr[node]
            idx = self._index(node, dev)
            ipr.link("set", index=idx, mtu=mtu)
            ipr.addr("add", index=idx, address=addr, prefixlen=24)
            ipr.link("set", index=idx, state="up")
            if rate is not None:
                self.shape(node, dev, rate, queue, mtu=mtu)
        self._pin_neighbours(link)
        return link

    def add_emulated_link(self, a, b, program, rate, delay, loss=0.0, queue=None, mtu=1500,
                          seed=1, run=1, stream=0, stats=None, log=None, ready_timeout=20.0,
                          argv_prefix=(), pcap=None, latency_offset=0.0):
        """A link between nodes `a` and `b` simulated in real time by `program`
        (ndnlab-emu-link: ns-3's point-to-point model with `rate` bit/s, `delay` s one way,
        `loss` per frame, drop-tail `queue`), for what tbf cannot give (delay, loss); its losses
        come from ns-3 `seed` and `run` on RNG streams `stream` (b->a) and `stream` + 1 (a->b):
        vary `run` for independent replications, give each link of a run its own streams. The
        program creates a tap in each namespace and prints 'ready'; then the taps get the next
        free /24 as add_link's veths do. It runs in this process's namespace, tracked like any
        process: close() stops it, check_processes() reports it if it dies. Its counters go to
        `stats` (a JSON file written when it stops), its messages to the file `log` (discarded
        when None); `argv_prefix` runs it under a wrapper (e.g. `chrt -f 10`); `pcap` = (file
        of end a, file of end b): ns-3's pcap of each tap's frames, both ways (flushed when the
        program stops); `latency_offset` (s): what the emulation adds to each frame by itself
        (measure_link_latency), taken off the simulated delay. Returns the Link (`process`
        set)."""
        i, net, dev_a, dev_b = self._claim_link(a, b)
        unit, size = parse_queue(queue or DEFAULT_QUEUE)
        argv = ["--rate", f"{int(rate)}bps", "--delay", f"{int(round(delay * 1e9))}ns",
                "--loss", repr(float(loss)), "--queue", f"{size}{unit}", "--seed", str(seed),
                "--run", str(run), "--stream", str(stream), "--mtu", str(mtu),
                "--latency-offset", f"{int(round(latency_offset * 1e9))}ns"]
        proc = self._start_link_process(a, b, dev_a, dev_b, program, argv, stats, log, ready_timeout,
                                        argv_prefix, pcap)
        link = Link(i, a, b, dev_a, dev_b, f"{net}.1", f"{net}.2", f"{net}.0/24", rate, queue, mtu,
                    delay, loss, proc)
        return self._address_link(link)

    def add_wifi_link(self, a, b, program, radio, mtu=None, seed=1, run=1, stream=None, stats=None,
                      log=None, ready_timeout=20.0, argv_prefix=(), pcap=None):
        """An 802.11 link between station `a` and access point `b`, simulated in real time by
        `program` (ndnlab-emu-link --link wifi: the radio of `ndnlab sim wifi-one-hop`).
        `radio` holds its flags without the dashes: {"standard": "11b", "data-mode": "",
        "distance": 5, "frame-loss": 0, "broadcast-at-data-rate": True, "ampdu": False}
        (missing ones keep the program's defaults). `mtu`: the taps' (default the Wi-Fi
        device's, 2296); `stream`: the first of the radio's RNG streams (default the scenario's).
        The program prints 'ready' once the station has associated; the taps then get the next
        free /24 as add_link's veths do. Otherwise as add_emulated_link."""
        i, net, dev_a, dev_b = self._claim_link(a, b)
        argv = ["--link", "wifi", "--seed", str(seed), "--run", str(run), *_radio_flags(radio)]
        if stream is not None:
            argv += ["--stream", str(stream)]
        if mtu is not None:
            argv += ["--mtu", str(mtu)]
        proc = self._start_link_process(a, b, dev_a, dev_b, program, argv, stats, log, ready_timeout,
                                        argv_prefix, pcap)
        link = Link(i, a, b, dev_a, dev_b, f"{net}.1", f"{net}.2", f"{net}.0/24", None, None,
                    mtu or WIFI_MTU, 0.0, 0.0, proc)
        return self._address_link(link)

    def add_wifi_channel(self, nodes, program, radio, positions, range_m=0.0, mtu=None, seed=1, run=1,
                         stream=None, stats=None, log=None, ready_timeout=20.0, argv_prefix=(), pcap=None,
                         broadcast_from=()):
        """One 802.11 ad hoc channel joining `nodes` (node i at x = positions[i] metres on a
        line, radio range `range_m`, 0 = none), simulated in real time by `program`
        (ndnlab-emu-link --link wifi-adhoc: the radio of `ndnlab sim wifi-chain` and
        `wifi-hidden`), a tap in each node. `radio` holds the flags of add_wifi_link but
        distance and frame-loss; `pcap`: one file per node, in the order of `nodes`. The taps
        get the next free /24 (.1, .2, ... in node order) once the program is ready, and every
        node a permanent neighbour entry for every other: its MAC, or for the nodes of
        `broadcast_from` the broadcast MAC, so that what they send to one neighbour's address
        goes on the air group-addressed (no ACK, no retry; the kernels of other nodes do not
        forward a unicast IP packet received in a broadcast frame). Returns the Channel
        (`process` set)."""
        self._check_open()
        nodes = tuple(nodes)
        if len(nodes) < 2 or len(set(nodes)) != len(nodes) or len(positions) != len(nodes):
            raise ValueError(f"channel {nodes}: two or more distinct nodes, one position each")
        i, net = self._claim_index(nodes)
        devs = tuple(self._next_dev(n) for n in nodes)
        argv = ["--link", "wifi-adhoc", "--seed", str(seed), "--run", str(run),
                "--positions", ",".join(repr(float(x)) for x in positions), "--range", repr(float(range_m))]
        argv += _radio_flags(radio)
        if stream is not None:
            argv += ["--stream", str(stream)]
        if mtu is not None:
            argv += ["--mtu", str(mtu)]
        for k, (node, dev) in enumerate(zip(nodes, devs)):
            argv += ["--ns", self.nodes[node], "--dev", dev]
            if pcap:
                argv += ["--pcap", str(pcap[k])]
        proc = self._launch(program, argv, stats, log, ready_timeout, argv_prefix, f"channel {'-'.join(nodes)}")
        channel = Channel(i, nodes, devs, tuple(f"{net}.{k + 1}" for k in range(len(nodes))), f"{net}.0/24",
                          mtu or WIFI_MTU, proc)
        return self._address_link(channel, broadcast_from)

    def _start_link_process(self, a, b, dev_a, dev_b, program, argv, stats, log, ready_timeout,
                            argv_prefix, pcap=None):
        """Starts `program` between tap `dev_a` in `a` and `dev_b` in `b` and waits for 'ready'."""
        argv = ["--ns-a", self.nodes[a], "--dev-a", dev_a, "--ns-b", self.nodes[b], "--dev-b", dev_b, *argv]
        if pcap:
            argv += ["--pcap-a", str(pcap[0]), "--pcap-b", str(pcap[1])]
        return self._launch(program, argv, stats, log, ready_timeout, argv_prefix, f"link {a}-{b}")

    def _launch(self, program, argv, stats, log, ready_timeout, argv_prefix, what):
        """Starts link process `program` with `argv` (tracked like any process) and waits for
        its 'ready' line; RuntimeError (naming `what`) when it does not come."""
        argv = [*argv_prefix, str(program), *argv]
        if stats:
            argv += ["--stats-json", str(stats)]
        with open(log or os.devnull, "w") as err:
            proc = _in_netns(None, subprocess.Popen, argv, stdout=subprocess.PIPE, stderr=err, text=True,
                             start_new_session=True, priority=self.priority)
        self._procs.append(_Tracked("host", tuple(argv), proc, True, True))
        if not _read_ready(proc, ready_timeout):
            why = pathlib.Path(log).read_text()[-500:].strip() if log else "(no log)"
            state = f"exited {proc.returncode}" if proc.poll() is not None else "still not ready"
            raise RuntimeError(f"{pathlib.Path(str(program)).name} for {what}: {state} after "
                               f"{ready_timeout:.0f} s: {why}")
        return proc

    def _address_link(self, link, broadcast_from=()):
        """Gives the taps of an emulated link or channel their addresses, brings them up and
        pins their neighbours (_pin_neighbours)."""
        self.links.append(link)
        for node in link.nodes:
            dev, addr = link.end(node)
            ipr = self._ipr[node]
            idx = self._index(node, dev)
            ipr.addr("add", index=idx, address=addr, prefixlen=24)
            ipr.link("set", index=idx, state="up")
        self._pin_neighbours(link, broadcast_from)
        return link

    def _pin_neighbours(self, link, broadcast_from=()):
        """Each end of `link` (a Link, or every node of a Channel) knows every other's MAC address
        from the start (a permanent neighbour entry), so no ARP crosses the link: a simulated
        link has none, and an ARP request lost on a lossy link holds the IPv4 packets behind it
        for a second. The nodes of `broadcast_from` get the broadcast MAC for every peer instead
        (add_wifi_channel)."""
        macs = {node: self.mac(node, link.end(node)[0]) for node in link.nodes}
        for node in link.nodes:
            for peer in link.nodes:
                if peer != node:
                    self._ipr[node].neigh("replace", dst=link.end(peer)[1],
                                          lladdr=BROADCAST_MAC if node in broadcast_from else macs[peer],
                                          ifindex=self._index(node, link.end(node)[0]), state=NUD_PERMANENT)

    def mac(self, node, dev):
        """The MAC address of `dev` in `node` ("02:..:..", lower case)."""
        return self._ipr[node].get_links(self._index(node, dev))[0].get_attr("IFLA_ADDRESS")

    def set_state(self, node, dev, up):
        """Brings `dev` in `node` up or down: a device that is down neither receives nor sends
        (the kernel refuses what a link process writes to a tap that is down)."""
        self._check_open()
        self._ipr[node].link("set", index=self._index(node, dev), state="up" if up else "down")

    def device_counters(self, node, dev):
        """The kernel's counters of `dev` in `node`: rx/tx packets and bytes, rx/tx drops."""
        info = self._ipr[node].get_links(self._index(node, dev))[0]
        st = info.get_attr("IFLA_STATS64") or {}
        return {k: st.get(k, 0) for k in ("rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
                                          "rx_dropped", "tx_dropped")}

    def capture(self, node, dev, path, log, program="tcpdump", ready_timeout=10.0):
        """Captures every frame of `dev` in `node`, both ways, into the pcap file `path`:
        `program` (tcpdump) runs inside the namespace, writing each packet as it comes (-U), and
        this returns its Popen once it listens (its message in the file `log`). Stop it with
        stop(): on SIGTERM tcpdump writes what it holds, its statistics to `log`
        (capture_drops() reads them) and exits. A capture that dies is reported by
        check_processes()."""
        argv = [str(program), "-i", dev, "-w", str(path), "-U", "--immediate-mode", "-n", "-Z", "root"]
        log = pathlib.Path(log)
        with open(log, "w") as err:
            proc = self.popen(node, argv, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + ready_timeout
        while "listening on" not in log.read_text(errors="replace"):
            if proc.poll() is not None or time.monotonic() > deadline:
                state = f"exited {proc.returncode}" if proc.poll() is not None else "not listening"
                raise RuntimeError(f"{pathlib.Path(str(program)).name} on {node}:{dev}: {state} after "
                                   f"{ready_timeout:.0f} s: {log.read_text(errors='replace').strip()[-300:]}")
            time.sleep(0.02)
        return proc

    @staticmethod
    def capture_drops(log):
        """Packets the kernel dropped before tcpdump read them, from its closing statistics in
        `log`, or None when it wrote none."""
        m = re.search(r"(\d+) packets? dropped by kernel", pathlib.Path(log).read_text(errors="replace"))
        return int(m[1]) if m else None

    def _claim_link(self, a, b):
        """(index, /24 prefix "10.x.y", device in a, device in b) of a new link a-b."""
        if a == b:
            raise ValueError("a link needs two nodes")
        i, net = self._claim_index((a, b))
        return i, net, self._next_dev(a), self._next_dev(b)

    def _claim_index(self, nodes):
        """(index, /24 prefix "10.x.y") of a new link or channel among `nodes`."""
        self._check_open()
        for n in nodes:
            if n not in self.nodes:
                raise ValueError(f"unknown node {n!r}")
        i = len(self.links)
        if i >= 55 * 256:
            raise ValueError("too many links")
        return i, f"10.{200 + i // 256}.{i % 256}"

    def _next_dev(self, node):
        dev = f"eth{self._ndev[node]}"
        self._ndev[node] += 1
        return dev

    def _index(self, node, dev):
        found = self._ipr[node].link_lookup(ifname=dev)
        if not found:
            raise ValueError(f"no device {dev!r} in node {node!r}")
        return found[0]

    def shape(self, node, dev, rate, queue=None, burst=None, mtu=1500):
        """Replaces the egress qdisc of `dev` in `node`: tbf at `rate` bit/s (None: the device's
        default, unshaped), bucket `burst` octets (tbf_burst() when None), drop-tail queue
        `queue` ("100p" packets: a pfifo under tbf; "150000B" octets: tbf's own limit)."""
        ipr = self._ipr[node]
        idx = self._index(node, dev)
        if rate is None:
            try:
                ipr.tc("del", index=idx, handle="1:", parent=TC_H_ROOT)
            except Exception as e:  # no root qdisc of ours: nothing to remove
                if getattr(e, "code", None) not in (errno.ENOENT, errno.EINVAL):
                    raise
            return
        if not 0 < rate < 8 * 2**32:
            raise ValueError(f"rate {rate} bit/s: tbf takes up to 34 Gbit/s")
        unit, size = parse_queue(queue or DEFAULT_QUEUE)
        limit = size if unit == "B" else size * (mtu + ETH_HEADER)
        ipr.tc("replace", "tbf", index=idx, handle="1:", rate=f"{int(rate)}bit",
               burst=burst or tbf_burst(rate, mtu), limit=limit)
        if unit == "p":
            ipr.tc("replace", "pfifo", index=idx, parent="1:1", handle="10:", limit=size)

    def tc_stats(self, node, dev):
        """Counters of the root qdisc of `dev` in `node`, from netlink: kind, sent_bytes,
        sent_packets, drops, overlimits, requeues, qlen, backlog (octets)."""
        idx = self._index(node, dev)
        for q in self._ipr[node].tc("dump", index=idx):
            if q["index"] == idx and q["parent"] == TC_H_ROOT:
                basic = q.get_nested("TCA_STATS2", "TCA_STATS_BASIC") or {}
                queue = q.get_nested("TCA_STATS2", "TCA_STATS_QUEUE") or {}
                return {"kind": q.get_attr("TCA_KIND"),
                        "sent_bytes": basic.get("bytes", 0), "sent_packets": basic.get("packets", 0),
                        "drops": queue.get("drops", 0), "overlimits": queue.get("overlimits", 0),
                        "requeues": queue.get("requeues", 0), "qlen": queue.get("qlen", 0),
                        "backlog": queue.get("backlog", 0)}
        raise ValueError(f"no root qdisc on {dev!r} in node {node!r}")

    # -- routes

    def add_route(self, node, dst, via):
        """A static route in `node` to `dst` ("10.200.3.0/24") through Link `via`, whose other
        end is the next hop. Replaces a route to the same destination."""
        dev, _ = via.end(node)
        gateway = via.end(via.peer(node))[1]
        self._ipr[node].route("replace", dst=dst, gateway=gateway, oif=self._index(node, dev))

    def bridge(self, node):
        """Makes `node` an Ethernet bridge between its two links (a radio link's two ends are
        such a bridge): its ends of both links become ports of a bridge `br0` (their addresses
        removed; their tbf stays, shaping what the bridge forwards), and the nodes at the far
        ends reach each other on the one segment: an on-link route to each other's subnet and
        each other's MAC pinned (no ARP). Returns (far end of the first link, of the second)."""
        mine = [link for link in self.links if node in (link.a, link.b)]
        if len(mine) != 2:
            raise ValueError(f"bridge {node!r}: it has {len(mine)} links, expected 2")
        ipr = self._ipr[node]
        ipr.link("add", ifname="br0", kind="bridge")
        br = self._index(node, "br0")
        for link in mine:
            dev, addr = link.end(node)
            idx = self._index(node, dev)
            ipr.addr("del", index=idx, address=addr, prefixlen=24)
            ipr.link("set", index=idx, master=br)
        ipr.link("set", index=br, state="up")
        ends = [link.peer(node) for link in mine]
        pairs = list(zip(ends, mine))
        for (far, link), (other, other_link) in ((pairs[0], pairs[1]), (pairs[1], pairs[0])):
            dev = link.end(far)[0]
            idx = self._index(far, dev)
            self._ipr[far].route("replace", dst=other_link.subnet, oif=idx, scope="link")
            self._ipr[far].neigh("replace", dst=other_link.end(other)[1],
                                 lladdr=self.mac(other, other_link.end(other)[0]), ifindex=idx,
                                 state=NUD_PERMANENT)
        return tuple(ends)

    def route_all(self):
        """Routes in every node to every link's subnet along a shortest path (fewest hops; ties
        go to the earliest link), so that any two nodes reach each other; over two-end links
        only (a Channel's routes depend on who hears whom). Returns the number of routes added."""
        added = 0
        links = [lk for lk in self.links if isinstance(lk, Link)]
        for src in self.nodes:
            dist, first = shortest_paths(self.nodes, links, src)
            for link in links:
                if src in (link.a, link.b):
                    continue
                ends = [e for e in (link.a, link.b) if e in dist]
                if ends:
                    self.add_route(src, link.subnet, first[min(ends, key=dist.get)])
                    added += 1
        return added

    # -- processes

    def call(self, node, fn, *args, **kw):
        """fn(*args, **kw) on a thread inside `node`'s namespace; returns its result."""
        self._check_open()
        return _in_netns(self._fds[node], fn, *args, **kw)

    def socket(self, node, family=socket.AF_INET, type=socket.SOCK_STREAM, proto=0):
        """A socket of `node`'s namespace (close it before close(): it keeps the namespace)."""
        return self.call(node, socket.socket, family, type, proto)

    def udp_echo_rtts(self, a, b, addr_b, count, size=64, timeout=2.0):
        """Round-trip times (s) of `count` UDP datagrams of `size` payload octets sent one at a
        time from node `a` to an echo in node `b` at its address `addr_b`; a lost one is left
        out."""
        with self.socket(b, type=socket.SOCK_DGRAM) as server, \
                self.socket(a, type=socket.SOCK_DGRAM) as client:
            server.bind((addr_b, 0))
            server.settimeout(timeout)
            client.settimeout(timeout)

            def echo():
                for _ in range(count):
                    try:
                        data, peer = server.recvfrom(65536)
                    except OSError:
                        return
                    server.sendto(data, peer)

            t = threading.Thread(target=echo, name="ndnlab-echo", daemon=True)
            t.start()
            rtts = []
            payload = bytes(size)
            for _ in range(count):
                t0 = time.perf_counter()
                client.sendto(payload, server.getsockname())
                try:
                    client.recv(65536)
                except OSError:
                    continue
                rtts.append(time.perf_counter() - t0)
            t.join(timeout)
        return rtts

    def running_pids(self):
        """The process ids of the tracked processes still running (link processes included)."""
        return [t.proc.pid for t in self._procs if t.proc.poll() is None]

    def popen(self, node, argv, watch=True, **kw):
        """subprocess.Popen(argv, **kw) inside `node`, tracked: close() stops it, and with
        `watch` check_processes() reports it if it exits unasked. It leads a new session
        (start_new_session=True unless given) so that stopping it reaches its children; with
        the network's `priority` it runs under SCHED_RR at it."""
        self._check_open()
        kw.setdefault("start_new_session", True)
        argv = tuple(str(a) for a in argv)
        proc = _in_netns(self._fds[node], subprocess.Popen, list(argv), priority=self.priority, **kw)
        self._procs.append(_Tracked(node, argv, proc, kw["start_new_session"], watch))
        return proc

    def run(self, node, argv, timeout=None, check=False, **kw):
        """subprocess.run(argv) inside `node` (not tracked: it has ended on return)."""
        self._check_open()
        return run_in(self.nodes[node], argv, timeout=timeout, check=check, **kw)

    def stop(self, proc, timeout=None):
        """Stops tracked `proc` (SIGTERM, SIGKILL after `timeout`, default the grace) as an
        expected exit; returns its exit status."""
        t = next(t for t in self._procs if t.proc is proc)
        t.stopping = True
        self._signal(t, signal.SIGTERM)
        try:
            return proc.wait(self.grace if timeout is None else timeout)
        except subprocess.TimeoutExpired:
            self._signal(t, signal.SIGKILL)
            return proc.wait()

    def check_processes(self):
        """The watched processes that exited without stop() or close() asking them to, as
        DeadProcess(node, argv, returncode): a run aborts when a daemon crashes."""
        return [DeadProcess(t.node, t.argv, t.proc.returncode) for t in self._procs
                if t.watch and not t.stopping and t.proc.poll() is not None]

    @staticmethod
    def _signal(t, sig):
        try:
            if t.group:
                os.killpg(t.proc.pid, sig)
            elif t.proc.poll() is None:
                t.proc.send_signal(sig)
        except (ProcessLookupError, PermissionError):
            pass

    # -- clean-up

    def _check_open(self):
        if self._closed:
            raise RuntimeError("network closed")

    def close(self):
        """Stops every tracked process (SIGTERM, SIGKILL after the grace) and any other process
        left in the namespaces, then deletes the namespaces (and with them the veths) and the
        owner file. Idempotent, and safe to re-enter from a signal handler: each step removes
        what it finished."""
        if self._closed or os.getpid() != self.pid:
            return
        for t in self._procs:
            t.stopping = True
            if t.proc.poll() is None:
                self._signal(t, signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for t in self._procs:
            try:
                t.proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for t in self._procs:
            self._signal(t, signal.SIGKILL)  # the group too: children outliving their leader
            if t.proc.poll() is None:
                t.proc.wait()
        self._procs.clear()
        inodes = set()
        for ns in self.nodes.values():
            try:
                inodes.add(_ns_inode(ns))
            except OSError:
                pass
        while self._ipr:
            self._ipr.popitem()[1].close()
        while self._fds:
            os.close(self._fds.popitem()[1])
        _kill_pids(_pids_in(inodes), self.grace)
        while self.nodes:
            _remove_ns(next(reversed(self.nodes.values())))
            self.nodes.popitem()
        self.owner_file.unlink(missing_ok=True)
        self._closed = True
        if self in _live:
            _live.remove(self)
        if not _live:
            _restore_handlers()


def cleanup_stale(tag_prefix=""):
    """Removes what crashed runs left: namespaces `ndnlab-<tag>-*` (tag starting with
    `tag_prefix`) whose owner process (/run/ndnlab-emu/<tag>) is gone, the processes still in
    them, and the owner files. Returns the namespace names removed."""
    if _PYROUTE2_ERROR:
        raise RuntimeError(f"pyroute2 is not installed: {_PYROUTE2_ERROR}")

    def owner_alive(tag):
        try:
            owner = json.loads((OWNER_DIR / tag).read_text())
        except (OSError, ValueError):
            return False
        return _alive(owner["pid"]) and _start_time(owner["pid"]) == owner.get("start")

    stale, inodes, alive = [], set(), {}
    for name in _netns.listnetns():
        m = _NS_RE.match(name)
        if not m or not m[1].startswith(tag_prefix):
            continue
        if alive.setdefault(m[1], owner_alive(m[1])):
            continue
        stale.append(name)
        try:
            inodes.add(_ns_inode(name))
        except OSError:
            pass
    _kill_pids(_pids_in(inodes), 1.0)
    for name in stale:
        _remove_ns(name)
    if OWNER_DIR.is_dir():
        for f in OWNER_DIR.iterdir():
            if f.name.startswith(tag_prefix) and not alive.get(f.name) and not owner_alive(f.name):
                f.unlink(missing_ok=True)
    return stale
