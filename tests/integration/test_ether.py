"""Ethernet faces (AF_PACKET, EtherType 0x8624; docs/daemon.md "Ethernet faces") between ndnlabd
in network namespaces joined by veth: unicast faces exchange Data across a veth pair, the
multicast face reaches two peers on one bridged segment, bad frames are counted drops, and a
daemon without CAP_NET_RAW says why and runs its other faces. Every frame stays inside the
namespaces; each test is bounded by the tools' timeouts."""
import shutil
import socket
import subprocess

import pytest

from conftest import NDNLABD, Daemon, launch_forwarder, sha256_file, wait_until, write_random_file
from netns import can_use_netns

from ndnlab.emu import net as emu

GROUP = "ether://[01:00:5e:00:17:aa]"  # NFD's group
ETHER = '[face_system.ether]\nenabled = true\nwhitelist = ["eth*"]\n'


@pytest.fixture
def netns_ok(built_binaries):
    ok, why = can_use_netns()
    if not ok:
        pytest.skip(why)


def mac_of(net, node, dev):
    ipr = net.ipr(node)
    return ipr.get_links(ipr.link_lookup(ifname=dev)[0])[0].get_attr("IFLA_ADDRESS")


def face_id(created):
    """The id in `ndnlab ctl face create`'s output (face-created id=N ...)."""
    return next(tok.split("=")[1] for tok in created.split() if tok.startswith("id="))


def test_unicast_faces_exchange_data_across_a_veth_pair(netns_ok, tmp_path):
    with emu.Network() as net:
        a, b = net.add_node("a"), net.add_node("b")
        link = net.add_link("a", "b")
        mac_a, mac_b = mac_of(net, "a", link.dev_a), mac_of(net, "b", link.dev_b)
        da = Daemon(tmp_path / "a", name="a", netns=a, extra=ETHER).start()
        db = Daemon(tmp_path / "b", name="b", netns=b, extra=ETHER).start()
        try:
            # NFD's URIs: the peer's MAC (any case) with the interface as LocalUri
            created = da.run_tool("ctl", "face", "create", f"ether://[{mac_b.upper()}]", f"dev://{link.dev_a}",
                                  timeout=10).stdout.decode()
            assert f"remote=ether://[{mac_b}]" in created and f"local=dev://{link.dev_a}" in created, created
            assert "mtu=1500" in created, created
            fid = face_id(created)
            again = da.run_tool("ctl", "face", "create", f"ether://[{mac_b}]", "--local", f"dev://{link.dev_a}",
                                check=False, timeout=10)
            assert again.returncode != 0 and b"409" in again.stderr + again.stdout, again
            da.run_tool("ctl", "route", "add", "/eth", fid, timeout=10)

            # 8000-octet segments cross the 1500-octet link as NDNLPv2 fragments
            payload = write_random_file(tmp_path / "payload.bin", 2 * 1024 * 1024, seed=5)
            server = db.spawn_tool("serve", "/eth/file", payload, "--packet-size", "0", "--size", "8000")
            try:
                db.wait_for_route("/eth/file")
                out = tmp_path / "out.bin"
                da.run_tool("get", "/eth/file", "-o", out, timeout=120)
                assert sha256_file(out) == sha256_file(payload)
            finally:
                server.terminate()
                server.wait(timeout=10)

            # a's face counted the Data; b made an on-demand face for a's MAC when its first frame came
            face_a = da.face(fid)
            assert face_a["remote"] == f"ether://[{mac_b}]" and face_a["local"] == f"dev://{link.dev_a}"
            assert face_a["in_data"] >= 2 * 1024 * 1024 // 8000 and face_a["in_bytes"] > 2 * 1024 * 1024, face_a
            on_b = [f for f in db.faces() if f["remote"] == f"ether://[{mac_a}]"]
            assert len(on_b) == 1 and on_b[0]["local"] == f"dev://{link.dev_b}", db.faces()
            assert on_b[0]["out_data"] == face_a["in_data"], (on_b, face_a)
            listed = db.run_tool("ctl", "face", "list", timeout=10).stdout.decode()
            assert "on-demand point-to-point" in next(line for line in listed.splitlines() if mac_a in line), listed
            # each daemon has its multicast face on the interface
            for d, dev in ((da, link.dev_a), (db, link.dev_b)):
                assert any(f["remote"] == GROUP and f["local"] == f"dev://{dev}" for f in d.faces()), d.faces()
        finally:
            for d in (da, db):
                assert d.stop() == 0, d.log.read_text()


def test_multicast_face_reaches_two_peers(netns_ok, tmp_path):
    """a, b and c on one Ethernet segment (a bridge in a fourth namespace): Interests a sends on
    its multicast face reach both producers, and their Data come back over the group."""
    with emu.Network() as net:
        net.add_node("hub", forward=False)
        nodes = {n: net.add_node(n) for n in ("a", "b", "c")}
        links = {n: net.add_link("hub", n) for n in nodes}
        ipr = net.ipr("hub")
        ipr.link("add", ifname="br0", kind="bridge")
        br = ipr.link_lookup(ifname="br0")[0]
        for link in links.values():
            ipr.link("set", index=ipr.link_lookup(ifname=link.dev_a)[0], master=br)
        ipr.link("set", index=br, state="up")
        daemons = {}
        try:
            for n, ns in nodes.items():
                daemons[n] = Daemon(tmp_path / n, name=n, netns=ns, extra=ETHER).start()
            mcast = {n: next(f["faceid"] for f in d.faces() if f["remote"] == GROUP) for n, d in daemons.items()}
            da = daemons["a"]
            da.run_tool("ctl", "route", "add", "/m", mcast["a"], timeout=10)
            da.run_tool("ctl", "strategy", "set", "/m", "multicast", timeout=10)
            payloads, servers = {}, []
            try:
                for i, n in enumerate(("b", "c")):
                    payloads[n] = write_random_file(tmp_path / f"{n}.bin", 200_000, seed=10 + i)
                    servers.append(daemons[n].spawn_tool("serve", f"/m/{n}", payloads[n]))
                    daemons[n].wait_for_route(f"/m/{n}")
                for n in ("b", "c"):
                    out = tmp_path / f"from-{n}.bin"
                    da.run_tool("get", f"/m/{n}", "-o", out, timeout=120)
                    assert sha256_file(out) == sha256_file(payloads[n]), n
            finally:
                for s in servers:
                    s.terminate()
                    s.wait(timeout=10)
            for n in ("b", "c"):
                face = daemons[n].face(mcast[n])
                assert face["in_interests"] > 0 and face["out_data"] > 0, (n, face)
                assert "multi-access" in daemons[n].run_tool("ctl", "face", "list", timeout=10).stdout.decode()
            assert da.face(mcast["a"])["in_data"] >= 2 * (200_000 // 1420), da.face(mcast["a"])
            # nothing was unicast: no peer made an on-demand face
            for d in daemons.values():
                assert not [f for f in d.faces() if f["remote"].startswith("ether://[") and f["remote"] != GROUP]
        finally:
            for d in daemons.values():
                assert d.stop() == 0, d.log.read_text()


def test_interface_down_at_start_then_up_then_deleted(netns_ok, tmp_path):
    """A down interface gets its channel and multicast face, which work once it is up; a deleted
    interface fails its faces, and the daemon runs on."""
    with emu.Network() as net:
        a, b = net.add_node("a"), net.add_node("b")
        link = net.add_link("a", "b")
        mac_b = mac_of(net, "b", link.dev_b)
        ipr = net.ipr("a")
        dev = ipr.link_lookup(ifname=link.dev_a)[0]
        ipr.link("set", index=dev, state="down")
        da = Daemon(tmp_path / "a", name="a", netns=a, extra=ETHER).start()
        db = Daemon(tmp_path / "b", name="b", netns=b, extra=ETHER).start()
        try:
            assert f"listening on dev://{link.dev_a} (" in da.log.read_text()
            assert "interface down)" in da.log.read_text()
            assert any(f["remote"] == GROUP for f in da.faces())
            ipr.link("set", index=dev, state="up")
            fid = face_id(da.run_tool("ctl", "face", "create", f"ether://[{mac_b}]", f"dev://{link.dev_a}",
                                      "--persistency", "permanent", timeout=10).stdout.decode())
            da.run_tool("ctl", "route", "add", "/up", fid, timeout=10)
            payload = write_random_file(tmp_path / "up.bin", 100_000, seed=8)
            server = db.spawn_tool("serve", "/up/file", payload)
            try:
                db.wait_for_route("/up/file")
                out = tmp_path / "out.bin"
                da.run_tool("get", "/up/file", "-o", out, timeout=60)
                assert sha256_file(out) == sha256_file(payload)
            finally:
                server.terminate()
                server.wait(timeout=10)

            ipr.link("del", index=dev)
            wait_until(lambda: not [f for f in da.faces() if f["local"] == f"dev://{link.dev_a}"], 10,
                       "a's Ethernet faces to fail")
            da.run_tool("ctl", "status", timeout=10)
            assert f"dev://{link.dev_a} is gone (deleted)" in da.log.read_text(), da.log.read_text()
        finally:
            for d in (da, db):
                assert d.stop() == 0, d.log.read_text()


def test_whitelist_and_blacklist_select_interfaces(netns_ok, tmp_path):
    with emu.Network() as net:
        a = net.add_node("a")
        net.add_node("b")
        net.add_node("c")
        to_b, to_c = net.add_link("a", "b"), net.add_link("a", "c")
        mac_c = mac_of(net, "c", to_c.dev_b)
        mac_a_to_b = mac_of(net, "a", to_b.dev_a)
        extra = ('[face_system.ether]\nenabled = true\nmcast_ad_hoc = true\n'
                 f'whitelist = ["eth*"]\nblacklist = ["{mac_a_to_b}"]\n')
        d = Daemon(tmp_path / "a", name="a", netns=a, extra=extra).start()
        try:
            faces = d.faces()
            assert [f["local"] for f in faces if f["remote"] == GROUP] == [f"dev://{to_c.dev_a}"], faces
            assert "ad-hoc" in d.run_tool("ctl", "face", "list", timeout=10).stdout.decode()
            refused = d.run_tool("ctl", "face", "create", f"ether://[{mac_c}]", f"dev://{to_b.dev_a}", check=False,
                                 timeout=10)
            assert refused.returncode != 0 and b"interface not selected" in refused.stderr, refused
            d.run_tool("ctl", "face", "create", f"ether://[{mac_c}]", f"dev://{to_c.dev_a}", timeout=10)
        finally:
            assert d.stop() == 0, d.log.read_text()


def test_bad_frames_are_counted_drops(netns_ok, tmp_path):
    """Frames of EtherType 0x8624 whose payload is not one TLV are dropped and counted, before
    and after the sender has a face; they create no face."""
    with emu.Network() as net:
        a, _ = net.add_node("a"), net.add_node("b")
        link = net.add_link("a", "b")
        mac_a, mac_b = mac_of(net, "a", link.dev_a), mac_of(net, "b", link.dev_b)
        da = Daemon(tmp_path / "a", name="a", netns=a, extra=ETHER).start()
        raw = net.socket("b", socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x8624))
        try:
            raw.bind((link.dev_b, 0x8624))
            header = bytes.fromhex(mac_a.replace(":", "")) + bytes.fromhex(mac_b.replace(":", "")) + b"\x86\x24"
            for payload in (b"\x00" * 46, b"\x05\xff" + b"\x01" * 44, b"\x05\x80" + b"\x01" * 10 + b"\x00" * 34):
                raw.send(header + payload)

            def drops():
                return da.run_tool("ctl", "drops", timeout=10).stdout.decode()
            wait_until(lambda: "invalid_datagram=3" in drops(), 10, "3 invalid_datagram drops")
            assert not [f for f in da.faces() if f["remote"] == f"ether://[{mac_b}]"]
        finally:
            raw.close()
            assert da.stop() == 0, da.log.read_text()


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv (util-linux)")
def test_without_cap_net_raw_the_daemon_says_why_and_runs(netns_ok, tmp_path):
    with emu.Network() as net:
        a = net.add_node("a")
        net.add_node("b")
        link = net.add_link("a", "b")
        d = Daemon(tmp_path / "a", name="a", netns=a, extra=ETHER)
        # root without CAP_NET_RAW: the AF_PACKET socket is refused
        cmd = ["setpriv", "--inh-caps=-net_raw", "--bounding-set=-net_raw", "--", str(NDNLABD), "--config",
               str(d.config)]
        launch_forwarder(d, cmd, "ndnlabd without CAP_NET_RAW", a)
        try:
            d.run_tool("ctl", "status", timeout=10)  # management answers over the Unix socket
            assert not [f for f in d.faces() if f["remote"].startswith("ether://")]
        finally:
            assert d.stop() == 0
        log = d.log.read_text()
        assert f"ether dev://{link.dev_a}: socket(AF_PACKET) failed: Operation not permitted" in log, log
        assert "CAP_NET_RAW" in log, log


def test_bad_ether_config_is_a_clear_error(built_binaries, tmp_path):
    d = Daemon(tmp_path, extra='[face_system.ether]\nmcast_group = "02:00:00:00:00:01"\nwhitelist = "eth0"\n')
    r = subprocess.run([str(NDNLABD), "--config", str(d.config)], capture_output=True, text=True, timeout=10)
    assert r.returncode == 2, r
    assert "face_system.ether.mcast_group: \"02:00:00:00:00:01\" is not a multicast MAC address" in r.stderr, r.stderr
    assert "face_system.ether.whitelist: expected an array of strings" in r.stderr, r.stderr
