"""Interop with python-ndn 0.5 (a real client library) through ndnlabd:
a python-ndn producer registers a prefix and `ndnlab get` fetches from it; a python-ndn consumer
fetches from `ndnlab serve`."""
from conftest import serving, sha256_file, write_random_file
from pyndn_clients import pyndn_fetch, pyndn_serving

SIZE = 300_000


def test_ndnlab_get_from_python_ndn_producer(daemon, tmp_path):
    payload = write_random_file(tmp_path / "py.bin", SIZE, seed=5)
    out = tmp_path / "out.bin"
    with pyndn_serving(daemon, "/interop/py", payload):
        daemon.run_tool("get", "/interop/py", "-o", out, timeout=120)
    assert sha256_file(out) == sha256_file(payload)
    # python-ndn never unregisters: the route must go away with its face.
    daemon.wait_for_route_gone("/interop/py")


def test_python_ndn_consumer_from_ndnlab_serve(daemon, tmp_path):
    payload = write_random_file(tmp_path / "serve.bin", SIZE, seed=6)
    out = tmp_path / "out.bin"
    with serving(daemon, "/interop/lab", payload):
        pyndn_fetch(daemon, "/interop/lab", out)
    assert sha256_file(out) == sha256_file(payload)
