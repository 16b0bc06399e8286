"""ndnlab.emu.net (issue 27): namespaces, veth links, tbf shaping and routes through netlink, and
clean-up of all of it after success, an exception, SIGINT/SIGTERM, a killed process and a
killed owner. Skipped, with the reason, where network namespaces cannot be made."""
import errno
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from ndnlab.emu import net as emu  # noqa: E402

OK, WHY = emu.check_privileges()
pytestmark = pytest.mark.skipif(not OK, reason=WHY)

UDP_ECHO = textwrap.dedent("""
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", 7007))
    print("ready", flush=True)
    while True:
        data, peer = s.recvfrom(2048)
        s.sendto(data, peer)
""")

# Counts what one TCP connection brings, from its first octet to its end.
TCP_SINK = textwrap.dedent("""
    import json, socket, time
    srv = socket.socket()
    srv.bind(("0.0.0.0", 7008))
    srv.listen(1)
    print("ready", flush=True)
    conn, _ = srv.accept()
    n, first = 0, None
    while (chunk := conn.recv(1 << 16)):
        first = first or time.monotonic()
        n += len(chunk)
    print(json.dumps({"bytes": n, "seconds": time.monotonic() - first}), flush=True)
""")

SLEEPER = "import time; time.sleep(600)"
STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"


def namespaces(tag):
    return [n for n in emu._netns.listnetns() if n.startswith(f"ndnlab-{tag}-")]


def alive(pid):
    return emu._alive(pid)


def root_veths():
    with emu.IPRoute() as ipr:
        return {link.get_attr("IFLA_IFNAME") for link in ipr.link("dump")
                if (link.get_nested("IFLA_LINKINFO", "IFLA_INFO_KIND") == "veth")}


def assert_gone(tag, pids=(), devs=(), veths_before=None):
    assert namespaces(tag) == []
    assert not (emu.OWNER_DIR / tag).exists()
    assert [p for p in pids if alive(p)] == []
    if veths_before is not None:
        assert not ((root_veths() - veths_before) & set(devs))


def chain(net, n=3, **link_kw):
    """Nodes n0 .. n{n-1} in a line, routed end to end; returns the links."""
    names = [f"n{i}" for i in range(n)]
    for name in names:
        net.add_node(name)
    links = [net.add_link(a, b, **link_kw) for a, b in zip(names, names[1:])]
    net.route_all()
    return links


def udp_echo(net, node, addr, payload=b"ping", tries=5):
    """Sends `payload` from `node` to the echo server at `addr`; what came back and from where."""
    with net.socket(node, socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(2)
        for _ in range(tries):
            s.sendto(payload, (addr, 7007))
            try:
                return s.recvfrom(2048)
            except socket.timeout:
                continue
    return None, None


def test_three_node_chain_reaches_end_to_end():
    with emu.Network() as net:
        l01, l12 = chain(net)
        assert sorted(namespaces(net.tag)) == [f"ndnlab-{net.tag}-n{i}" for i in range(3)]
        assert (l01.subnet, l01.addr_a, l01.addr_b) == ("10.200.0.0/24", "10.200.0.1", "10.200.0.2")
        echo = net.popen("n2", [sys.executable, "-c", UDP_ECHO], stdout=subprocess.PIPE, text=True)
        assert echo.stdout.readline().strip() == "ready"
        data, peer = udp_echo(net, "n0", l12.addr_b)
        assert data == b"ping" and peer == (l12.addr_b, 7007)
        # and back the other way: n2 reaches n0 through n1's forwarding
        assert net.run("n2", [sys.executable, "-c",
                              f"import socket; socket.create_connection(('{l01.addr_a}', 9), 5)"],
                       capture_output=True).returncode != 0  # refused (no listener), not unreachable
        assert net.check_processes() == []


def test_non_adjacent_nodes_need_routes():
    with emu.Network() as net:
        for name in ("a", "r", "b"):
            net.add_node(name)
        la, lb = net.add_link("a", "r"), net.add_link("r", "b")
        net.popen("b", [sys.executable, "-c", UDP_ECHO], stdout=subprocess.PIPE, text=True)
        with pytest.raises(OSError) as unreachable:
            udp_echo(net, "a", lb.addr_b, tries=1)
        assert unreachable.value.errno == errno.ENETUNREACH
        net.add_route("a", lb.subnet, la)
        net.add_route("b", la.subnet, lb)
        assert udp_echo(net, "a", lb.addr_b)[0] == b"ping"


def test_tbf_link_carries_its_rate_within_5_percent():
    rate = 50e6
    with emu.Network() as net:
        _, shaped = chain(net)
        net.shape("n1", shaped.dev_a, rate, "100p")
        sink = net.popen("n2", [sys.executable, "-c", TCP_SINK], stdout=subprocess.PIPE, text=True)
        assert sink.stdout.readline().strip() == "ready"
        before = net.tc_stats("n1", shaped.dev_a)
        assert before["kind"] == "tbf"
        with net.socket("n0") as s:
            s.connect((shaped.addr_b, 7008))
            s.sendall(os.urandom(12_000_000))
            s.shutdown(socket.SHUT_WR)
            got = json.loads(sink.stdout.readline())
        after = net.tc_stats("n1", shaped.dev_a)
        assert got["bytes"] == 12_000_000
        wire = (after["sent_bytes"] - before["sent_bytes"]) * 8 / got["seconds"]
        # TCP payload of full 1514-octet frames (1448 octets with timestamps)
        goodput = got["bytes"] * 8 / got["seconds"]
        print(f"tbf {rate / 1e6:.0f} Mbit/s: frames {wire / 1e6:.2f} Mbit/s, "
              f"payload {goodput / 1e6:.2f} Mbit/s (x 1514/1448 = {goodput * 1514 / 1448 / 1e6:.2f})")
        assert abs(wire / rate - 1) < 0.05
        assert abs(goodput * 1514 / 1448 / rate - 1) < 0.05


def test_queue_sizes_in_packets_or_octets():
    assert emu.parse_queue("100p") == ("p", 100)
    assert emu.parse_queue("150000B") == ("B", 150000)
    for bad in ("100", "0p", "10kB", "-1p"):
        with pytest.raises(ValueError):
            emu.parse_queue(bad)
    with emu.Network() as net:
        net.add_node("a")
        net.add_node("b")
        link = net.add_link("a", "b", rate=10e6, queue="150000B")
        assert net.tc_stats("a", link.dev_a)["kind"] == "tbf"
        assert net.tc_stats("b", link.dev_b)["kind"] == "tbf"
        net.shape("a", link.dev_a, None)
        assert net.tc_stats("a", link.dev_a)["kind"] != "tbf"


def test_close_removes_everything_after_success():
    before = root_veths()
    with emu.Network() as net:
        links = chain(net, rate=20e6)
        procs = [net.popen(n, [sys.executable, "-c", SLEEPER]) for n in ("n0", "n1", "n2")]
        stubborn = net.popen("n1", [sys.executable, "-c", STUBBORN])
        tag = net.tag
        assert (emu.OWNER_DIR / tag).exists()
    devs = {link.dev_a for link in links} | {link.dev_b for link in links}
    assert_gone(tag, [p.pid for p in procs] + [stubborn.pid], devs, before)
    net.close()  # idempotent
    with pytest.raises(RuntimeError):
        net.add_node("late")


def test_close_removes_everything_after_an_exception():
    with pytest.raises(ZeroDivisionError):
        with emu.Network() as net:
            chain(net)
            proc = net.popen("n2", [sys.executable, "-c", SLEEPER])
            1 / 0
    assert_gone(net.tag, [proc.pid])


OWNER = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, {python!r})
    from ndnlab.emu.net import Network
    with Network(grace=0.5) as net:
        net.add_node("a")
        net.add_node("b")
        link = net.add_link("a", "b", rate=10e6)
        procs = [net.popen("a", [sys.executable, "-c", {sleeper!r}]),
                 net.popen("b", [sys.executable, "-c", {stubborn!r}])]
        print(json.dumps({{"tag": net.tag, "pids": [p.pid for p in procs],
                          "devs": [link.dev_a, link.dev_b]}}), flush=True)
        {then}
""")


def owner(then):
    """A Python process owning a two-node Network with two processes; (Popen, its report)."""
    code = OWNER.format(python=str(ROOT / "python"), sleeper=SLEEPER, stubborn=STUBBORN, then=then)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line, f"owner exited {proc.wait()}"
    return proc, json.loads(line)


@pytest.mark.parametrize("signo", [signal.SIGINT, signal.SIGTERM])
def test_close_removes_everything_after_a_signal_to_the_owner(signo):
    before = root_veths()
    proc, report = owner("time.sleep(600)")
    assert len(namespaces(report["tag"])) == 2
    proc.send_signal(signo)
    assert proc.wait(timeout=60) == 128 + signo
    assert_gone(report["tag"], report["pids"], report["devs"], before)


def test_cleanup_stale_removes_what_a_killed_owner_left():
    proc, report = owner("import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert proc.wait(timeout=60) == -signal.SIGKILL
    tag = report["tag"]
    assert len(namespaces(tag)) == 2 and (emu.OWNER_DIR / tag).exists()
    assert sorted(emu.cleanup_stale(tag)) == [f"ndnlab-{tag}-a", f"ndnlab-{tag}-b"]
    assert_gone(tag, report["pids"])


def test_cleanup_stale_spares_a_live_run():
    with emu.Network() as net:
        net.add_node("a")
        assert emu.cleanup_stale(net.tag) == []
        assert namespaces(net.tag) == [f"ndnlab-{net.tag}-a"]


def test_a_killed_process_is_reported_and_close_still_cleans():
    with emu.Network() as net:
        chain(net, 2)
        victim = net.popen("n1", [sys.executable, "-c", SLEEPER])
        other = net.popen("n0", [sys.executable, "-c", SLEEPER])
        helper = net.popen("n0", ["true"], watch=False)
        assert net.check_processes() == []
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
        helper.wait(timeout=10)
        dead = net.check_processes()
        assert dead == [emu.DeadProcess("n1", (sys.executable, "-c", SLEEPER), -signal.SIGKILL)]
        assert net.stop(other) is not None
        assert net.check_processes() == dead  # stopped on request: not reported
    assert_gone(net.tag, [victim.pid, other.pid])


def test_check_privileges_leaves_nothing_behind():
    before = set(emu._netns.listnetns())
    assert emu.check_privileges() == (True, "")
    assert set(emu._netns.listnetns()) == before


def test_a_tag_in_use_is_refused():
    with emu.Network() as net:
        net.add_node("a")
        with pytest.raises(ValueError):
            emu.Network(tag=net.tag)
        assert namespaces(net.tag) == [f"ndnlab-{net.tag}-a"]


def test_link_excess_is_half_the_shortest_round_trip_difference_less_the_model():
    # 64-octet echoes over 1 ms at 10 Mbit/s: 94 octets of model frame, 75.2 us each way
    veth = [100e-6, 90e-6, 500e-6]  # shortest 90 us
    link = [2.5e-3, 2.45e-3, 2.3e-3, 9e-3]  # shortest 2.3 ms
    excess = emu.link_excess(link, veth, 10e6, 1e-3, size=64)
    assert excess == pytest.approx((2.3e-3 - 90e-6) / 2 - 1e-3 - 94 * 8 / 10e6)
    assert emu.link_excess(veth, veth, 10e6, 1e-3) < 0  # faster than the model: negative


def test_udp_echoes_cross_a_veth_link():
    with emu.Network() as net:
        link = chain(net, n=2)[0]
        rtts = net.udp_echo_rtts("n0", "n1", link.addr_b, 12)
    assert len(rtts) == 12 and all(0 < r < 2.0 for r in rtts)


def test_processes_run_under_the_real_time_scheduler_when_asked():
    ok, why = emu.realtime_scheduling(10)
    if not ok:
        pytest.skip(why)
    with emu.Network(priority=10) as net:
        net.add_node("a", forward=False)
        rt = net.popen("a", [sys.executable, "-c", SLEEPER])
        with emu.Network() as plain:
            plain.add_node("a", forward=False)
            normal = plain.popen("a", [sys.executable, "-c", SLEEPER])
            # /proc/<pid>/stat fields 40 and 41: real-time priority and policy (0 SCHED_OTHER,
            # 2 SCHED_RR); after the ")" closing the name, field n is item n - 3
            fields = {p: pathlib.Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()
                      for p in (rt, normal)}
            assert (fields[rt][40 - 3], fields[rt][41 - 3]) == ("10", "2")
            assert fields[normal][41 - 3] == "0"
            # both are sampled: time on a CPU and waiting for one, per thread
            times = emu.thread_times(net.running_pids() + plain.running_pids())
            assert rt.pid in times and normal.pid in times
            assert all(cpu >= 0 and wait >= 0 for cpu, wait in times.values())
    # the calling thread itself is untouched
    assert os.sched_getscheduler(0) == os.SCHED_OTHER
