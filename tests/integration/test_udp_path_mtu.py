"""A UDP face's MTU is its path's (issue found on real daemons, docs/daemon.md "UDP faces"):
with the old default of 8800 on a 1500-byte path, every 8000-byte Data left as one datagram
that the kernel cut into 6 IP fragments. Over a lossy link every datagram missing a fragment
was held 30 s for reassembly, and once those filled net.ipv4.ipfrag_high_thresh the kernel
dropped every new fragmented datagram, unseen and uncounted: the fetch stalled.

Two ndnlabd with default UDP settings in namespaces joined by a lossy emulated link (ns-3's
point-to-point model in real time, as `ndnlab emu` uses): the face reports the path's MTU less
the IP and UDP headers, NDNLPv2 fragments the Data instead of the kernel (the producer's
namespace creates no IP fragment), and the fetch of 8000-byte segments completes bit-exact.
Counters only, never time.
"""
import re

import pytest

from conftest import BUILD, Daemon, serving, write_random_file
from netns import can_use_netns, emu

LINK_PROGRAM = BUILD / "ns3" / "emu" / "ndnlab-emu-link"
PATH_MTU = 1500


def ip_counters(net, node):
    """The namespace's /proc/net/snmp "Ip:" counters as a dict."""
    text = net.run(node, ["cat", "/proc/net/snmp"], capture_output=True, text=True).stdout
    heads, values = [line.split()[1:] for line in text.splitlines() if line.startswith("Ip:")][:2]
    return dict(zip(heads, map(int, values)))


@pytest.fixture
def lossy_pair(tmp_path, built_binaries):
    ok, why = can_use_netns()
    if not ok:
        pytest.skip(why)
    if not LINK_PROGRAM.exists():
        pytest.skip(f"{LINK_PROGRAM} is not built (ns-3 emulation)")
    with emu.Network() as net:
        net.add_node("a")
        net.add_node("b")
        link = net.add_emulated_link("a", "b", str(LINK_PROGRAM), 50e6, 0.005, loss=0.05,
                                     mtu=PATH_MTU, seed=1, run=1)
        da = Daemon(tmp_path / "a", name="a", udp_port=6363, netns=net.ns("a")).start()
        db = Daemon(tmp_path / "b", name="b", udp_port=6363, netns=net.ns("b")).start()
        try:
            yield net, link, da, db
        finally:
            da.stop()
            db.stop()


def test_udp_face_mtu_is_the_path_mtu_and_lossy_8000_byte_data_arrive(lossy_pair, tmp_path):
    net, link, da, db = lossy_pair
    created = da.run_tool("ctl", "face", "create", f"udp4://{link.addr_b}:6363", timeout=20)
    faceid = int(re.search(r"id=(\d+)", created.stdout.decode())[1])
    listed = da.run_tool("ctl", "face", "list", timeout=10).stdout.decode()
    line = next(row for row in listed.splitlines() if row.startswith(f"faceid={faceid} "))
    assert f" mtu={PATH_MTU - 28}" in line, line
    da.run_tool("ctl", "route", "add", "/p", str(faceid), timeout=20)

    payload = write_random_file(tmp_path / "object", 2_000_000, seed=7)
    out = tmp_path / "out"
    before = ip_counters(net, "b")
    with serving(db, "/p/object", payload, "--packet-size", "0", "--size", "8000"):
        r = da.run_tool("get", "/p/object", "-o", out, "--no-progress", check=False, timeout=300)
    after = ip_counters(net, "b")
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-800:]
    assert out.read_bytes() == payload.read_bytes()
    # the producer's daemon sent the 8000-byte segments as datagrams over the link, and the
    # kernel fragmented none of them
    assert after["OutRequests"] - before["OutRequests"] > 2_000_000 // 8000
    assert after["FragCreates"] == before["FragCreates"]
