"""Linux network namespaces joined by veth links, for multi-host tests on one machine
(tests/integration, and tests/interop/test_ndnd.py's multicast link), built by ndnlab.emu.net
(netlink through pyroute2; it also removes them after a failure or a signal).

Loss and delay come from `tc netem` when the kernel has it; otherwise the caller falls back to
ndnlabd's own egress impairment (docs/daemon.md, [face_system.udp.impair]; lossy_daemons below does both), because some
kernels (e.g. minimal VM kernels) ship without sch_netem.
"""
import contextlib
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))

from ndnlab.emu import net as emu  # noqa: E402


def run(*cmd, check=True):
    """A command here, its output captured as text (e.g. `ip netns exec NS ...`: the namespaces
    below have `ip netns` names)."""
    return subprocess.run(list(cmd), check=check, capture_output=True, text=True)


def can_use_netns():
    """(ok, reason): whether namespaces can be created and entered here."""
    return emu.check_privileges()


def _netem(net, node, dev, delay_ms, loss_pct):
    ipr = net.ipr(node)
    ipr.tc("replace", "netem", index=ipr.link_lookup(ifname=dev)[0], delay=int(delay_ms * 1000),
           loss=loss_pct)


def netem_available():
    """True if a netem qdisc can be added here (probed on a throwaway namespace)."""
    with emu.Network() as net:
        net.add_node("probe")
        try:
            _netem(net, "probe", "lo", 1, 0)
        except Exception:  # pyroute2's NetlinkError: "Specified qdisc kind is unknown"
            return False
        return True


class Topology:
    """A chain of namespaces n0 - n1 - ... with a /24 on the link between i and i+1, each link's
    MTU `mtu`. `names` are the namespaces (`ip netns` names), `links` holds (ns_a, dev_a,
    addr_a, ns_b, dev_b, addr_b) per link, and `net` is the ndnlab.emu.net.Network underneath."""

    def __init__(self, count, mtu=1500):
        self.count = count
        self.mtu = mtu
        self.net = None
        self.names = []
        self.links = []

    def __enter__(self):
        self.net = emu.Network()
        try:
            nodes = [f"n{i}" for i in range(self.count)]
            self.names = [self.net.add_node(n) for n in nodes]
            for a, b in zip(nodes, nodes[1:]):
                link = self.net.add_link(a, b, mtu=self.mtu)
                self.links.append((self.net.ns(a), link.dev_a, link.addr_a,
                                   self.net.ns(b), link.dev_b, link.addr_b))
        except BaseException:
            self.net.close()
            raise
        return self

    def netem(self, delay_ms, loss_pct):
        """Applies netem delay and loss on both ends of every link."""
        for link in self.net.links:
            for node, dev in ((link.a, link.dev_a), (link.b, link.dev_b)):
                _netem(self.net, node, dev, delay_ms, loss_pct)

    def __exit__(self, *exc):
        self.net.close()


@contextlib.contextmanager
def lossy_daemons(tmp_path, count, delay_ms, loss_pct, mtu=1500):
    """`count` ndnlabd (UDP 6363) in a veth chain of network namespaces with `delay_ms` and
    `loss_pct` on every link and direction: tc netem when the kernel has it, else each daemon
    impairs its own UDP egress ([face_system.udp.impair]). The links' MTU is `mtu`, and so the
    UDP faces' is `mtu` less 28 (at most 8800). Yields (topology, daemons, used_netem); skips
    the test when network namespaces cannot be created or entered."""
    import pytest
    from conftest import Daemon

    ok, why = can_use_netns()
    if not ok:
        pytest.skip(why)
    use_netem = netem_available()
    with Topology(count, mtu) as topo:
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
