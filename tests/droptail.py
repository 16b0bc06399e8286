"""A drop-tail bottleneck between two ndnlabd, in network namespaces, for the bottleneck
regression test (tests/integration/test_bottleneck.py) and benchmark (bench/bottleneck), built by
ndnlab.emu.net (netlink through pyroute2). (Not named bottleneck.py: pandas imports an optional
package of that name.)

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
import subprocess
import time

from netns import emu

from ndnlab.emu.faces import tool_summary

REFERENCE_RTT_S = 0.05  # "1 BDP" = 50 ms of queue at the link rate (the tbf latency)
IP_MTU = 1500


def queue_bytes(rate_mbit, bdp):
    return max(int(bdp * rate_mbit * 1e6 / 8 * REFERENCE_RTT_S), 2 * IP_MTU)


def burst_bytes(rate_mbit):
    """tbf bucket: 1 ms at the rate, at least ten full frames (tbf needs >= one MTU and
    rate/HZ); ndnlab.emu.net.tbf_burst."""
    return emu.tbf_burst(rate_mbit * 1e6, IP_MTU)


class Bottleneck:
    """Namespaces and links of one layout; `ns` maps the roles (a, r, b) to namespace names,
    `a_addr`/`b_addr` are the hosts' addresses, `shaped` lists (role, device) of the shaped
    egress interfaces, Data direction (toward A) first, and `net` is the ndnlab.emu.net.Network
    underneath."""

    def __init__(self, layout="router"):
        if layout not in ("router", "host"):
            raise ValueError(f"unknown layout {layout!r}: router | host")
        self.layout = layout
        self.net = None
        self.ns = {}
        self.shaped = []

    def __enter__(self):
        self.net = emu.Network()
        try:
            roles = ["a", "r", "b"] if self.layout == "router" else ["a", "b"]
            self.ns = {role: self.net.add_node(role) for role in roles}
            if self.layout == "router":
                to_a, to_b = self.net.add_link("a", "r"), self.net.add_link("r", "b")
                self.net.route_all()  # A and B reach each other through R
                self.a_addr, self.b_addr = to_a.addr_a, to_b.addr_b
                self.shaped = [("r", to_a.dev_b), ("r", to_b.dev_a)]
            else:
                link = self.net.add_link("a", "b")
                self.a_addr, self.b_addr = link.addr_a, link.addr_b
                self.shaped = [("b", link.dev_b), ("a", link.dev_a)]
        except BaseException:
            self.net.close()
            raise
        return self

    def shape(self, rate_mbit, queue):
        """tbf at `rate_mbit` with `queue` bytes of drop-tail queue on every shaped egress."""
        for role, dev in self.shaped:
            self.net.shape(role, dev, rate_mbit * 1e6, f"{queue}B", burst=burst_bytes(rate_mbit),
                           mtu=IP_MTU)

    def drops(self):
        """Packets the shaped egresses dropped so far, Data direction first."""
        return [self.net.tc_stats(role, dev)["drops"] for role, dev in self.shaped]

    def __exit__(self, *exc):
        self.net.close()


def connect(consumer, producer_addr, prefix):
    """A UDP face from `consumer` (a conftest.Daemon) to the producer's daemon and a route."""
    uri = f"udp4://{producer_addr}:6363"
    consumer.run_tool("ctl", "face", "create", uri, timeout=20)
    consumer.run_tool("ctl", "route", "add", prefix, uri, timeout=20)


def fetch(daemon, name, out, *args, timeout=600):
    """`ndnlab get NAME -o OUT --json ARGS...` on `daemon`; returns (exit code, summary dict)."""
    r = daemon.run_tool("get", name, "-o", out, "--json", "--no-progress", *args, check=False,
                        timeout=timeout)
    err = r.stderr.decode(errors="replace")
    return r.returncode, tool_summary(err) or {"status": "no-summary", "error": err[-500:]}


def iperf3_tcp(net, nbytes, congestion="cubic", timeout=300):
    """iperf3 TCP from B (sender, the producer's side) to A; returns (goodput bit/s,
    retransmitted segments, segments sent)."""
    server = net.net.popen("a", ["iperf3", "-s", "-1", "-B", net.a_addr], watch=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while ":5201" not in net.net.run("a", ["ss", "-Hltn"], capture_output=True, text=True).stdout:
            if time.monotonic() > deadline:
                raise RuntimeError("iperf3 server did not listen within 10 s")
            time.sleep(0.05)
        r = net.net.run("b", ["iperf3", "-c", net.a_addr, "-C", congestion, "-n", str(nbytes),
                              "-J"], capture_output=True, text=True, timeout=timeout)
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
    """`nbytes` of seeded random bytes, written in chunks (randbytes takes at most 256 MiB at
    once); a file up to one chunk is what randbytes(nbytes) gives."""
    import random
    rng = random.Random(seed)
    chunk = 64 << 20
    with open(path, "wb") as f:
        for start in range(0, nbytes, chunk):
            f.write(rng.randbytes(min(chunk, nbytes - start)))
    return path
