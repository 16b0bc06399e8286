"""Interop with ndnd (Go; a forwarder and tools of its own, release pinned in ndnd/go.mod):
- ndnd's tools through ndnlabd: `ndnd put` serves what `ndnlab get` fetches, `ndnd cat` fetches
  from `ndnlab serve`, `ndnd ping` and `ndnlab ping` answer each other's servers;
- ndnd's management client (`ndnd fw ...`, NFD's protocol) against ndnlabd, including the
  commands that name a face by its URI and so need faces/query;
- ndnlab's tools against ndnd's forwarder: `ndnlab ctl`, and `ndnlab serve` / `ndnlab get`;
- the two forwarders linked over UDP and over TCP, with Data both ways; over UDP each side
  sends 8000-octet segments as NDNLPv2 fragments the other must reassemble;
- the two forwarders on one multicast link (NFD's UDP multicast face, 224.0.23.170:56363) between
  two network namespaces, with Data both ways.
Skipped, with the reason, on a machine whose Go cannot build ndnd (ndnd_peer.require_ndnd)."""
import socket
import subprocess

import pytest

from conftest import NDNLAB, Daemon, free_loopback_port, serving, sha256_file, write_random_file
from ndnd_peer import NdndForwarder, parse_status_lines, require_ndnd, run_ndnd, spawn_ndnd, stop
from netns import Topology, can_use_netns, run

SIZE = 1_000_000


@pytest.fixture(autouse=True)
def _ndnd_built():
    require_ndnd()


@pytest.fixture
def ndnd_fw(tmp_path):
    fw = NdndForwarder(tmp_path / "ndnd", free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM)).start()
    yield fw
    fw.stop()


@pytest.fixture
def ip_daemon(tmp_path, built_binaries):
    """ndnlabd with UDP and TCP channels on one loopback port; yields (daemon, port)."""
    port = free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM)
    d = Daemon(tmp_path / "lab", tcp_port=port, udp_port=port).start()
    yield d, port
    assert d.stop() == 0, d.log.read_text()


def get_from_ndnd_put(put_socket, wait_for_route, daemon, name, payload, tmp_path):
    """`ndnd put NAME < PAYLOAD` on the forwarder at `put_socket`; once `wait_for_route(NAME)`
    holds, `ndnlab get NAME` through `daemon`, which must write PAYLOAD's bytes. ndnd names its
    object NAME/v=<µs>/seg=<n> and publishes RDR metadata, which `get` follows."""
    out = tmp_path / "from-ndnd.bin"
    with open(payload, "rb") as stdin, open(tmp_path / "put.log", "wb") as log:
        put = spawn_ndnd(put_socket, "put", name, stdin=stdin, log=log)
        try:
            wait_for_route(name)
            daemon.run_tool("get", name, "-o", out, timeout=120)
        finally:
            stop(put)
    assert sha256_file(out) == sha256_file(payload)


# --- ndnd's tools through ndnlabd ----------------------------------------------------------------

def test_ndnlab_get_from_ndnd_put(daemon, tmp_path):
    payload = write_random_file(tmp_path / "go.bin", SIZE, seed=21)
    get_from_ndnd_put(daemon.socket, daemon.wait_for_route, daemon, "/interop/go", payload, tmp_path)


def test_ndnd_cat_from_ndnlab_serve(daemon, tmp_path):
    payload = write_random_file(tmp_path / "serve.bin", SIZE, seed=22)
    with serving(daemon, "/interop/lab", payload):
        result = run_ndnd(daemon.socket, "cat", "/interop/lab", timeout=120)
    assert result.stdout == payload.read_bytes()
    assert "/interop/lab/v=" in result.stderr.decode(), result.stderr.decode()


def test_ping_both_ways(daemon, tmp_path):
    server = spawn_ndnd(daemon.socket, "pingserver", "/interop/go-ping")
    try:
        daemon.wait_for_route("/interop/go-ping")
        out = daemon.run_tool("ping", "/interop/go-ping", "-c", "3", "-i", "50", timeout=30).stdout.decode()
    finally:
        stop(server)
    assert "3 packets transmitted, 3 received, 0% lost" in out, out

    ours = daemon.spawn_tool("pingserver", "/interop/lab-ping", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        daemon.wait_for_route("/interop/lab-ping")
        out = run_ndnd(daemon.socket, "ping", "/interop/lab-ping", "-c", "3", "-i", "50", timeout=30).stdout.decode()
    finally:
        stop(ours)
    assert "3 interests transmitted, 3 received, 0% lost" in out, out


# --- ndnd's management client against ndnlabd ----------------------------------------------------

def test_ndnd_management_client(ip_daemon):
    daemon, _ = ip_daemon
    status = parse_status_lines(run_ndnd(daemon.socket, "fw", "status").stdout.decode())
    assert status["version"].startswith("ndnlab-"), status

    peer = f"udp4://127.0.0.1:{free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM)}"
    created = parse_status_lines(run_ndnd(daemon.socket, "fw", "face-create", f"remote={peer}", "mtu=1400").stdout.decode())
    assert created["Status"] == 200 and created["Uri"] == peer and created["Mtu"] == "1400", created
    face_id = int(created["FaceId"])
    # route-add with a face URI: ndnd's tool creates the face (409 here: it exists) and uses its id.
    added = run_ndnd(daemon.socket, "fw", "route-add", "prefix=/interop/via", f"face={peer}", "cost=7").stdout.decode()
    assert f"FaceId={face_id}" in added and "Cost=7" in added, added
    assert f"prefix=/interop/via nexthop={face_id} origin=static cost=7" in \
        run_ndnd(daemon.socket, "fw", "route-list").stdout.decode()
    assert f"/interop/via nexthops={{faceid={face_id} (cost=7)}}" in run_ndnd(daemon.socket, "fw", "fib-list").stdout.decode()
    faces = run_ndnd(daemon.socket, "fw", "face-list").stdout.decode()
    assert f"faceid={face_id} remote={peer} " in faces and "mtu=1400B" in faces, faces

    strategy = parse_status_lines(run_ndnd(daemon.socket, "fw", "strategy-set", "prefix=/interop/multi",
                                           "strategy=/localhost/nfd/strategy/multicast").stdout.decode())
    assert strategy["Status"] == 200, strategy
    assert "prefix=/interop/multi strategy=/localhost/nfd/strategy/multicast/v=" in \
        run_ndnd(daemon.socket, "fw", "strategy-list").stdout.decode()
    cs = run_ndnd(daemon.socket, "fw", "cs-info").stdout.decode()
    assert "capacity=" in cs and "admit=true" in cs, cs

    # The face named by its URI: ndnd's tool asks faces/query for its id.
    removed = parse_status_lines(run_ndnd(daemon.socket, "fw", "route-remove", "prefix=/interop/via",
                                          f"face={peer}").stdout.decode())
    assert removed["Status"] == 200 and removed["FaceId"] == str(face_id), removed
    assert not daemon.has_route("/interop/via")
    destroyed = parse_status_lines(run_ndnd(daemon.socket, "fw", "face-destroy", f"face={peer}").stdout.decode())
    assert destroyed["Status"] == 200 and destroyed["FaceId"] == str(face_id), destroyed
    assert all(f["faceid"] != face_id for f in daemon.faces())
    gone = run_ndnd(daemon.socket, "fw", "face-destroy", f"face={peer}", check=False)
    assert gone.returncode != 0 and "Face not found" in gone.stdout.decode() + gone.stderr.decode(), gone


# --- ndnlab's tools against ndnd's forwarder -------------------------------------------------------

def ctl(fw, *args, check=True):
    result = subprocess.run([str(NDNLAB), "ctl", "--socket", str(fw.socket), *map(str, args)],
                            capture_output=True, timeout=30)
    if check:
        assert result.returncode == 0, result.stderr.decode()
    return result


def test_ndnlab_ctl_against_ndnd(ndnd_fw, built_binaries):
    status = ctl(ndnd_fw, "status").stdout.decode()
    assert "nFibEntries=" in status and "nInInterests=" in status, status
    peer = f"udp4://127.0.0.1:{free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM)}"
    out = ctl(ndnd_fw, "face", "create", peer).stdout.decode()
    assert f"remote={peer}" in out and "mtu=1420" in out, out
    face_id = out.split(" id=")[1].split()[0]
    out = ctl(ndnd_fw, "route", "add", "/interop/ctl", peer, "4").stdout.decode()
    assert f"prefix=/interop/ctl nexthop={face_id} origin=static cost=4" in out, out
    assert f"prefix=/interop/ctl nexthop={face_id} " in ctl(ndnd_fw, "route", "list").stdout.decode()
    assert "/interop/ctl" in ctl(ndnd_fw, "fib", "list").stdout.decode()
    only = ctl(ndnd_fw, "face", "list", "--remote", peer).stdout.decode().splitlines()
    assert len(only) == 1 and only[0].startswith(f"faceid={face_id} remote={peer} "), only
    assert ctl(ndnd_fw, "strategy", "set", "/interop/m", "multicast").returncode == 0
    assert "prefix=/interop/m strategy=/localhost/nfd/strategy/multicast" in ctl(ndnd_fw, "strategy", "list").stdout.decode()
    assert "capacity=" in ctl(ndnd_fw, "cs", "info").stdout.decode()
    # ndnd's own faces/query resolves the URIs.
    assert "route-removed" in ctl(ndnd_fw, "route", "remove", "/interop/ctl", peer).stdout.decode()
    assert not ndnd_fw.has_route("/interop/ctl")
    assert f"face-destroyed id={face_id}" in ctl(ndnd_fw, "face", "destroy", peer).stdout.decode()
    missing = ctl(ndnd_fw, "face", "destroy", peer, check=False)
    assert missing.returncode == 1 and f"Face not found: {peer}" in missing.stderr.decode(), missing


def test_ndnlab_serve_and_get_through_ndnd(ndnd_fw, tmp_path, built_binaries):
    payload = write_random_file(tmp_path / "p.bin", SIZE, seed=23)
    out = tmp_path / "out.bin"
    env = {"NDNLAB_SOCKET": str(ndnd_fw.socket)}
    server = subprocess.Popen([str(NDNLAB), "serve", "/interop/on-ndnd", str(payload)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        ndnd_fw.wait_for_route("/interop/on-ndnd")
        got = subprocess.run([str(NDNLAB), "get", "/interop/on-ndnd", "-o", str(out)], env=env,
                             capture_output=True, timeout=120)
        assert got.returncode == 0, got.stderr.decode()
    finally:
        stop(server)
    assert sha256_file(out) == sha256_file(payload)


# --- the two forwarders linked --------------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["udp", "tcp"])
def test_forwarders_linked(ip_daemon, ndnd_fw, tmp_path, scheme):
    """ndnlabd <-> ndnd over one UDP or TCP face. Over UDP ndnd's MTU is 1420 and ndnlabd's face
    is created with --mtu 1400, so each side sends its 8000-octet Data as NDNLPv2 fragments
    and the other reassembles them."""
    daemon, lab_port = ip_daemon
    to_ndnd = f"{scheme}4://127.0.0.1:{ndnd_fw.port}"
    mtu = ["--mtu", "1400"] if scheme == "udp" else []
    daemon.run_tool("ctl", "face", "create", to_ndnd, *mtu, timeout=30)
    daemon.run_tool("ctl", "route", "add", "/interop/go-side", to_ndnd, timeout=30)
    added = ndnd_fw.run("fw", "route-add", "prefix=/interop/lab-side", f"face={scheme}4://127.0.0.1:{lab_port}").stdout.decode()
    assert "Status=200" in added, added

    go_payload = write_random_file(tmp_path / "go.bin", SIZE, seed=24)
    # ndnd's consumer keeps 100 Interests out and retries a segment 3 times; over UDP its
    # socket's default receive buffer overflows under such a window (docs/decisions/0003), so
    # this direction sends 300 kB: one window, and a retry round fits the buffer.
    lab_payload = write_random_file(tmp_path / "lab.bin", 300_000, seed=25)
    get_from_ndnd_put(ndnd_fw.socket, ndnd_fw.wait_for_route, daemon, "/interop/go-side/file", go_payload, tmp_path)

    with serving(daemon, "/interop/lab-side/file", lab_payload):
        fetched = ndnd_fw.run("cat", "/interop/lab-side/file", timeout=120)
    assert fetched.stdout == lab_payload.read_bytes()

    # The Data came over the link: into the face ndnlabd made, out of it or (TCP: ndnd opens a
    # connection of its own for its route) out of the face ndnd's connection made.
    faces = [f for f in daemon.faces() if f["remote"].startswith(f"{scheme}4://127.0.0.1:")]
    assert next(f for f in faces if f["remote"] == to_ndnd)["in_data"] >= SIZE // 8000, faces
    assert sum(f["out_data"] for f in faces) >= 300_000 // 8000, faces
    # Nothing ndnd sent was malformed. (A fragment lost on loopback may time out a reassembly;
    # the consumers retransmit.)
    drops = daemon.run_tool("ctl", "drops", timeout=10).stdout.decode()
    for reason in ("net_invalid", "lp-invalid", "unknown_network_type", "nack_without_fragment",
                   "frag_missing_sequence", "frag_index_out_of_range", "frag_count_over_limit",
                   "frag_count_changed", "packet_too_large"):
        assert f"/{reason}=" not in drops, drops


MULTICAST_GROUP = "udp4://224.0.23.170:56363"  # NFD's default group and port, ndnd's and ndnlabd's


def test_forwarders_on_a_multicast_link(tmp_path, built_binaries):
    """ndnlabd in one network namespace, ndnd in the other, joined by a veth link; each has
    NFD's UDP multicast face on it. ndnd fragments its Data at its 1420-octet MTU (NDNLPv2);
    ndnlabd sends 8000-octet segments whole (its multicast MTU is 8800: the kernel fragments
    the datagrams). Objects go both ways over the group."""
    ok, why = can_use_netns()
    if not ok:
        pytest.skip(why)
    with Topology(2) as topo:
        lab_ns, lab_dev, lab_addr, go_ns, go_dev, _ = topo.links[0]
        for ns, dev in ((lab_ns, lab_dev), (go_ns, go_dev)):
            run("ip", "netns", "exec", ns, "ip", "route", "add", "224.0.0.0/4", "dev", dev)
        daemon = Daemon(tmp_path / "lab", netns=lab_ns,
                        extra=f'[face_system.multicast]\nenabled = true\ninterface_address = "{lab_addr}"\n').start()
        fw = NdndForwarder(tmp_path / "ndnd", 6363, multicast=True, netns=go_ns).start()
        try:
            lab_face = next(f["faceid"] for f in daemon.faces() if f["remote"] == MULTICAST_GROUP)
            daemon.run_tool("ctl", "route", "add", "/interop/mc-go", lab_face, timeout=30)
            fw.run("fw", "route-add", "prefix=/interop/mc-lab", f"face={fw.face_id(MULTICAST_GROUP)}")

            go_payload = write_random_file(tmp_path / "go.bin", 300_000, seed=26)
            get_from_ndnd_put(fw.socket, fw.wait_for_route, daemon, "/interop/mc-go/file", go_payload, tmp_path)
            lab_payload = write_random_file(tmp_path / "lab.bin", 300_000, seed=27)
            with serving(daemon, "/interop/mc-lab/file", lab_payload):
                fetched = fw.run("cat", "/interop/mc-lab/file", timeout=120)
            assert fetched.stdout == lab_payload.read_bytes()
            face = daemon.face(lab_face)
            assert face["in_data"] >= 300_000 // 8000 and face["out_data"] >= 300_000 // 8000, face
        finally:
            fw.stop()
            assert daemon.stop() == 0, daemon.log.read_text()
