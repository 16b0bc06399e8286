"""Linux network namespaces joined by veth links, for multi-host tests on one machine
(tests/integration, and tests/interop/test_ndnd.py's multicast link).

Loss and delay come from `tc netem` when the kernel has it; otherwise the caller falls back to
ndnlabd's own egress impairment (docs/daemon.md, [face_system.udp.impair]; lossy_daemons below does both), because some
kernels (e.g. minimal VM kernels) ship without sch_netem.
"""
import contextlib
import os
import subprocess
import uuid


def run(*cmd, check=True):
    return subprocess.run(list(cmd), check=check, capture_output=True, text=True)


def can_use_netns():
    if os.geteuid() != 0:
        return False, "needs root for ip netns"
    probe = f"ndnlab-probe-{uuid.uuid4().hex[:6]}"
    r = run("ip", "netns", "add", probe, check=False)
    if r.returncode != 0:
        return False, f"ip netns unavailable: {r.stderr.strip()}"
    try:
        # Entering one can still fail, e.g. in a chroot whose / is not a mount point.
        r = run("ip", "netns", "exec", probe, "ip", "link", "set", "lo", "up", check=False)
        if r.returncode != 0:
            return False, f"ip netns exec unavailable: {r.stderr.strip()}"
    finally:
        run("ip", "netns", "del", probe, check=False)
    return True, ""


def netem_available():
    """True if `tc qdisc add ... netem` works here (probed on a throwaway namespace)."""
    probe = f"ndnlab-probe-{uuid.uuid4().hex[:6]}"
    run("ip", "netns", "add", probe)
    try:
        r = run("ip", "netns", "exec", probe, "tc", "qdisc", "add", "dev", "lo", "root", "netem",
                "delay", "1ms", check=False)
        return r.returncode == 0
    finally:
        run("ip", "netns", "del", probe, check=False)


class Topology:
    """A chain of namespaces n0 - n1 - ... with 10.77.<i>.0/24 on the link between i and i+1."""

    def __init__(self, count):
        tag = uuid.uuid4().hex[:5]
        self.names = [f"ndnlab{tag}n{i}" for i in range(count)]
        self.links = []  # (ns_a, dev_a, addr_a, ns_b, dev_b, addr_b)

    def __enter__(self):
        try:
            for ns in self.names:
                run("ip", "netns", "add", ns)
                run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
            for i in range(len(self.names) - 1):
                a, b = self.names[i], self.names[i + 1]
                da, db = f"v{i}a", f"v{i}b"
                run("ip", "link", "add", da, "netns", a, "type", "veth", "peer", "name", db, "netns", b)
                addr_a, addr_b = f"10.77.{i}.1", f"10.77.{i}.2"
                run("ip", "netns", "exec", a, "ip", "addr", "add", f"{addr_a}/24", "dev", da)
                run("ip", "netns", "exec", b, "ip", "addr", "add", f"{addr_b}/24", "dev", db)
                run("ip", "netns", "exec", a, "ip", "link", "set", da, "up")
                run("ip", "netns", "exec", b, "ip", "link", "set", db, "up")
                self.links.append((a, da, addr_a, b, db, addr_b))
        except Exception:
            self.__exit__(None, None, None)
            raise
        return self

    def netem(self, delay_ms, loss_pct):
        """Applies netem delay and loss on both ends of every link."""
        for a, da, _, b, db, _ in self.links:
            for ns, dev in ((a, da), (b, db)):
                run("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", dev, "root", "netem",
                    "delay", f"{delay_ms}ms", "loss", f"{loss_pct}%")

    def __exit__(self, *exc):
        for ns in self.names:
            run("ip", "netns", "del", ns, check=False)


@contextlib.contextmanager
def lossy_daemons(tmp_path, count, delay_ms, loss_pct):
    """`count` ndnlabd (UDP 6363) in a veth chain of network namespaces with `delay_ms` and
    `loss_pct` on every link and direction: tc netem when the kernel has it, else each daemon
    impairs its own UDP egress ([face_system.udp.impair]). Yields (topology, daemons,
    used_netem); skips the test when network namespaces cannot be created or entered."""
    import pytest
    from conftest import Daemon

    ok, why = can_use_netns()
    if not ok:
        pytest.skip(why)
    use_netem = netem_available()
    with Topology(count) as topo:
        if use_netem:
            topo.netem(delay_ms, loss_pct)
            impair = ""
        else:
            impair = (f"[face_system.udp.impair]\nloss = {loss_pct / 100}\n"
                      f'delay = "{delay_ms}ms"\n\n')
        daemons = []
        try:
            for i, ns in enumerate(topo.names):
                d = Daemon(tmp_path / f"d{i}", name=f"d{i}", udp_port=6363, netns=ns, extra=impair)
                daemons.append(d.start())
            yield topo, daemons, use_netem
        finally:
            for d in daemons:
                d.stop()

