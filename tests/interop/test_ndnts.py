"""Interop with NDNts (a real client library, Node.js; packages pinned in ndnts/package-lock.json)
through ndnlabd:
- an NDNts producer registers its prefix (NDNts's signed rib/register) and `ndnlab get`
  fetches from it, over the Unix socket, TCP and WebSocket;
- an NDNts consumer fetches from `ndnlab serve`, discovering the version by RDR metadata and
  by CanBePrefix, over the Unix socket, TCP, UDP and WebSocket (NDNts's browser transport);
- NDNts in a web browser (headless Chromium) fetches over WebSocket;
- NDNts's management client: control commands (replies and error codes), the status
  datasets its decoders read (status/general once failed there: docs/wire-format.md), and
  faces/query with filters NDNts encodes."""
import socket

import pytest

from conftest import Daemon, free_loopback_port, serving, sha256_file, write_random_file
from ndnts_clients import ndnts_fetch, ndnts_in_browser, ndnts_mgmt, ndnts_serving

SIZE = 300_000


@pytest.fixture
def ip_daemon(tmp_path, built_binaries):
    """A daemon with TCP and UDP channels on one loopback port; yields (daemon, port)."""
    port = free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM)
    d = Daemon(tmp_path, tcp_port=port, udp_port=port).start()
    yield d, port
    assert d.stop() == 0, d.log.read_text()


@pytest.fixture
def ws_daemon(tmp_path, built_binaries):
    """A daemon with its WebSocket channel on a loopback port; yields (daemon, port)."""
    port = free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM)
    d = Daemon(tmp_path, extra=f'[face_system.websocket]\nenabled = true\nlisten_address = "127.0.0.1"\n'
                               f"port = {port}\n").start()
    yield d, port
    assert d.stop() == 0, d.log.read_text()


def test_ndnlab_get_from_ndnts_producer(daemon, tmp_path):
    payload = write_random_file(tmp_path / "js.bin", SIZE, seed=11)
    out = tmp_path / "out.bin"
    with ndnts_serving(daemon, "/interop/js", payload) as versioned:
        assert versioned.startswith("/interop/js/v="), versioned
        daemon.run_tool("get", "/interop/js", "-o", out, timeout=120)
        # NDNts registers with the Capture flag and never unregisters.
        routes = daemon.run_tool("ctl", "route", "list", timeout=10).stdout.decode()
        assert any("prefix=/interop/js " in r and "capture" in r for r in routes.splitlines()), routes
    assert sha256_file(out) == sha256_file(payload)
    daemon.wait_for_route_gone("/interop/js")


@pytest.mark.parametrize("discovery", ["rdr", "canbeprefix"])
def test_ndnts_consumer_from_ndnlab_serve(daemon, tmp_path, discovery):
    payload = write_random_file(tmp_path / "serve.bin", SIZE, seed=12)
    out = tmp_path / "out.bin"
    with serving(daemon, "/interop/lab", payload):
        fetched = ndnts_fetch(daemon, discovery, "/interop/lab", out)
    assert fetched.startswith("/interop/lab/v="), fetched
    assert sha256_file(out) == sha256_file(payload)


@pytest.mark.parametrize("scheme", ["tcp", "udp"])
def test_ndnts_consumer_over_ip(ip_daemon, tmp_path, scheme):
    daemon, port = ip_daemon
    payload = write_random_file(tmp_path / "serve.bin", 1_000_000, seed=13)
    out = tmp_path / "out.bin"
    with serving(daemon, "/interop/ip", payload):
        ndnts_fetch(daemon, "rdr", "/interop/ip", out, uplink=f"{scheme}:127.0.0.1:{port}")
    assert sha256_file(out) == sha256_file(payload)


def test_ndnlab_get_from_ndnts_producer_over_tcp(ip_daemon, tmp_path):
    """A TCP face from loopback is local (as in NFD), so NDNts may register its prefix there."""
    daemon, port = ip_daemon
    payload = write_random_file(tmp_path / "js.bin", SIZE, seed=14)
    out = tmp_path / "out.bin"
    with ndnts_serving(daemon, "/interop/js-tcp", payload, uplink=f"tcp:127.0.0.1:{port}"):
        daemon.run_tool("get", "/interop/js-tcp", "-o", out, timeout=120)
    assert sha256_file(out) == sha256_file(payload)


def test_ndnts_management_client(ip_daemon):
    daemon, port = ip_daemon
    # A face with ndnlab's FaceStatus extensions (Medium, BundleInterval after Flags), which NFD
    # clients must skip: a UDP face to a port nobody listens on.
    out = daemon.run_tool("ctl", "face", "create", f"udp4://127.0.0.1:{free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM)}",
                          "--medium", "wireless", "--bundling", "on", timeout=10).stdout.decode()
    wireless_id = int(next(tok for tok in out.replace("=", " ").split() if tok.isdigit()))
    view = ndnts_mgmt(daemon, "/interop/mgmt")
    replies, datasets = view["replies"], view["datasets"]

    register = replies["register"]
    assert register["code"] == 200, register
    face_id = register["body"]["faceId"]
    assert register["body"] == {"name": "/interop/mgmt/route", "faceId": face_id, "origin": 0,
                                "cost": 17, "flags": 1}
    assert replies["strategy"]["code"] == 200, replies["strategy"]
    assert replies["strategy"]["body"]["strategy"].startswith("/localhost/nfd/strategy/multicast/v=")
    assert replies["unknownStrategy"]["code"] == 404, replies["unknownStrategy"]
    assert replies["missingName"] == {"code": 400, "body": None,
                                      "text": "ControlParameters is incorrect (missing Name)"}
    assert replies["unregisterMissing"]["code"] == 200, replies["unregisterMissing"]

    general = datasets["general"]
    assert general["nfdVersion"].startswith("ndnlab-"), general
    assert general["currentTimestamp"] >= general["startTimestamp"] > 0
    assert general["nInInterests"] >= 5 and general["nOutData"] >= 5, general

    # NDNts's own face: local scope, on the daemon's socket, its commands counted.
    mine = next(f for f in datasets["faces"] if f["faceId"] == face_id)
    assert mine["localUri"] == f"unix://{daemon.socket}"
    assert mine["faceScope"] == 1 and mine["nInInterests"] >= 5, mine
    wireless = next(f for f in datasets["faces"] if f["faceId"] == wireless_id)
    assert wireless["uri"].startswith("udp4://127.0.0.1:") and wireless["faceScope"] == 0, wireless
    assert datasets["channels"] == [{"localUri": f"unix://{daemon.socket}"},
                                    {"localUri": f"tcp4://0.0.0.0:{port}"},
                                    {"localUri": f"udp4://0.0.0.0:{port}"}]
    assert datasets["cs"]["capacity"] > 0 and datasets["cs"]["flags"] == 3, datasets["cs"]

    assert {"name": "/interop/mgmt/multicast", "strategy": replies["strategy"]["body"]["strategy"]} \
        in datasets["strategies"]
    rib = {e["name"]: e["routes"] for e in datasets["rib"]}
    assert rib["/interop/mgmt/route"] == [{"faceId": face_id, "origin": 0, "cost": 17, "flags": 1}]

    # faces/query, its FaceQueryFilter encoded by NDNts: the wireless UDP face is the only udp4
    # one; NDNts's own face is found by id and by its remote URI.
    queries = view["queries"]
    assert queries["udp4"] == [wireless_id], queries
    assert queries["mine"] == [face_id] and queries["byUri"] == [face_id], queries
    assert face_id in queries["localOnDemand"] and wireless_id not in queries["localOnDemand"], queries
    assert queries["none"] == [], queries

    # ndnlab ctl sees what NDNts set; the route went with NDNts's face.
    strategies = daemon.run_tool("ctl", "strategy", "list", timeout=10).stdout.decode()
    assert "prefix=/interop/mgmt/multicast strategy=/localhost/nfd/strategy/multicast/" in strategies
    daemon.wait_for_route_gone("/interop/mgmt/route")


def test_ndnts_over_websocket(ws_daemon, tmp_path):
    """NDNts's WsTransport (what a web page uses) both ways: a consumer fetches from `ndnlab
    serve`, and a producer registers its prefix (a loopback WebSocket face is local) and serves
    `ndnlab get`. The faces are wsclient:// faces of the ws:// channel."""
    daemon, port = ws_daemon
    uplink = f"ws:127.0.0.1:{port}"
    payload = write_random_file(tmp_path / "ws.bin", 1_000_000, seed=15)
    out = tmp_path / "out.bin"
    with serving(daemon, "/interop/ws", payload):
        ndnts_fetch(daemon, "rdr", "/interop/ws", out, uplink=uplink)
    assert sha256_file(out) == sha256_file(payload)

    out2 = tmp_path / "out2.bin"
    with ndnts_serving(daemon, "/interop/js-ws", payload, uplink=uplink):
        ws_faces = [f for f in daemon.faces() if f["remote"].startswith("wsclient://127.0.0.1:")]
        assert len(ws_faces) == 1 and ws_faces[0]["local"] == f"ws://127.0.0.1:{port}", daemon.faces()
        daemon.run_tool("get", "/interop/js-ws", "-o", out2, timeout=120)
    assert sha256_file(out2) == sha256_file(payload)
    daemon.wait_for_route_gone("/interop/js-ws")


def test_ndnts_in_a_browser_over_websocket(ws_daemon, tmp_path):
    """The reason for the WebSocket channel: a web page (headless Chromium, NDNts bundled for the
    browser, the browser's WebSocket) fetches from `ndnlab serve` through ndnlabd."""
    daemon, port = ws_daemon
    payload = write_random_file(tmp_path / "page.bin", 2_000_000, seed=16)
    with serving(daemon, "/interop/browser", payload):
        result = ndnts_in_browser(f"ws://127.0.0.1:{port}", "/interop/browser", tmp_path)
    assert result == f"OK 2000000 {sha256_file(payload)}", result
