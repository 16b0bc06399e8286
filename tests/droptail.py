"""A drop-tail bottleneck between two ndnlabd, in network namespaces, for the bottleneck
regression test (tests/integration/test_bottleneck.py) and benchmark (bench/bottleneck). (Not named
bottleneck.py: pandas imports an optional package of that name.)

Two layouts, both shaped by `tc tbf` (these kernels have tbf and htb, no netem, so the paths
add no propagation delay):
- "router": consumer host A - router R - producer host B; R forwards IP and its two egress
  interfaces are shaped, as a bottleneck sits in real networks (no back-pressure on the
  senders' own queues);
- "host": A - B joined directly, each end shaping its own egress (the sender's local queue
  pushes back on TCP, which no router does).

The queue is given in bytes: `queue_bytes(rate, bdp)` = bdp x rate x REFERENCE_RTT.
"""
import json
import pathlib
import re
import subprocess
import time
import uuid

from netns import run

REFERENCE_RTT_S = 0.05  # "1 BDP" = 50 ms of queue at the link rate (the tbf latency)
IP_MTU = 1500


def queue_bytes(rate_mbit, bdp):
    return max(int(bdp * rate_mbit * 1e6 / 8 * REFERENCE_RTT_S), 2 * IP_MTU)


def burst_bytes(rate_mbit):
    """tbf bucket: 1 ms at the rate, at least ten full frames (tbf needs >= one MTU and
    rate/HZ)."""
    return max(int(rate_mbit * 1e6 / 8 * 0.001), 10 * (IP_MTU + 14))


class Bottleneck:
    """Namespaces and links of one layout; `a_addr`/`b_addr` are the hosts' addresses, and
    `shaped` lists (namespace, device) of the shaped egress interfaces, Data direction (toward
    A) first."""

    def __init__(self, layout="router"):
        if layout not in ("router", "host"):
            raise ValueError(f"unknown layout {layout!r}: router | host")
        self.layout = layout
        tag = uuid.uuid4().hex[:5]
        roles = ["a", "r", "b"] if layout == "router" else ["a", "b"]
        self.ns = {role: f"ndnlab{tag}{role}" for role in roles}
        self.shaped = []

    def _exec(self, role, *cmd, check=True):
        return run("ip", "netns", "exec", self.ns[role], *cmd, check=check)

    def _veth(self, left, ldev, laddr, right, rdev, raddr):
        run("ip", "link", "add", ldev, "netns", self.ns[left], "type", "veth", "peer", "name", rdev,
            "netns", self.ns[right])
        for role, dev, addr in ((left, ldev, laddr), (right, rdev, raddr)):
            self._exec(role, "ip", "addr", "add", f"{addr}/24", "dev", dev)
            self._exec(role, "ip", "link", "set", dev, "up")

    def __enter__(self):
        try:
            for role, name in self.ns.items():
                run("ip", "netns", "add", name)
                self._exec(role, "ip", "link", "set", "lo", "up")
            if self.layout == "router":
                self._veth("a", "a0", "10.78.1.1", "r", "r0", "10.78.1.2")
                self._veth("r", "r1", "10.78.2.1", "b", "b0", "10.78.2.2")
                self._exec("r", "sysctl", "-qw", "net.ipv4.ip_forward=1")
                self._exec("a", "ip", "route", "add", "10.78.2.0/24", "via", "10.78.1.2")
                self._exec("b", "ip", "route", "add", "10.78.1.0/24", "via", "10.78.2.1")
                self.a_addr, self.b_addr = "10.78.1.1", "10.78.2.2"
                self.shaped = [("r", "r0"), ("r", "r1")]
            else:
                self._veth("a", "a0", "10.78.1.1", "b", "b0", "10.78.1.2")
                self.a_addr, self.b_addr = "10.78.1.1", "10.78.1.2"
                self.shaped = [("b", "b0"), ("a", "a0")]
        except Exception:
            self.__exit__(None, None, None)
            raise
        return self

    def shape(self, rate_mbit, queue):
        """tbf at `rate_mbit` with `queue` bytes of drop-tail queue on every shaped egress."""
        for role, dev in self.shaped:
            self._exec(role, "tc", "qdisc", "replace", "dev", dev, "root", "tbf", "rate",
                       f"{rate_mbit}mbit", "burst", str(burst_bytes(rate_mbit)), "limit", str(queue))

    def drops(self):
        """Packets the shaped egresses dropped so far, Data direction first."""
        out = []
        for role, dev in self.shaped:
            text = self._exec(role, "tc", "-s", "qdisc", "show", "dev", dev).stdout
            m = re.search(r"dropped (\d+)", text)
            out.append(int(m.group(1)) if m else 0)
        return out

    def __exit__(self, *exc):
        for name in self.ns.values():
            run("ip", "netns", "del", name, check=False)


def connect(consumer, producer_addr, prefix):
    """A UDP face from `consumer` (a conftest.Daemon) to the producer's daemon and a route."""
    uri = f"udp4://{producer_addr}:6363"
    consumer.run_tool("ctl", "face", "create", uri, timeout=20)
    consumer.run_tool("ctl", "route", "add", prefix, uri, timeout=20)


def fetch(daemon, name, out, *args, timeout=600):
    """`ndnlab get NAME -o OUT --json ARGS...` on `daemon`; returns (exit code, summary dict)."""
    r = daemon.run_tool("get", name, "-o", out, "--json", "--no-progress", *args, check=False,
                        timeout=timeout)
    lines = [ln for ln in r.stderr.decode(errors="replace").splitlines() if ln.startswith("{")]
    summary = json.loads(lines[-1]) if lines else {"status": "no-summary",
                                                   "error": r.stderr.decode(errors="replace")[-500:]}
    return r.returncode, summary


def iperf3_tcp(net, nbytes, congestion="cubic", timeout=300):
    """iperf3 TCP from B (sender, the producer's side) to A; returns (goodput bit/s,
    retransmitted segments, segments sent)."""
    server = subprocess.Popen(["ip", "netns", "exec", net.ns["a"], "iperf3", "-s", "-1",
                               "-B", net.a_addr], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while ":5201" not in net._exec("a", "ss", "-Hltn").stdout:
            if time.monotonic() > deadline:
                raise RuntimeError("iperf3 server did not listen within 10 s")
            time.sleep(0.05)
        r = subprocess.run(["ip", "netns", "exec", net.ns["b"], "iperf3", "-c", net.a_addr, "-C",
                            congestion, "-n", str(nbytes), "-J"], capture_output=True, text=True,
                           timeout=timeout)
        if r.returncode != 0:
            raise RuntimeError(f"iperf3 failed: {r.stdout[-400:]} {r.stderr[-400:]}")
        end = json.loads(r.stdout)["end"]
        sent = end["sum_sent"]["bytes"] / 1448  # MSS of a 1500-byte MTU with timestamps
        return end["sum_received"]["bits_per_second"], end["sum_sent"].get("retransmits", 0), sent
    finally:
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def random_file(path, nbytes, seed=1):
    import random
    rng = random.Random(seed)
    pathlib.Path(path).write_bytes(rng.randbytes(nbytes))
    return path
