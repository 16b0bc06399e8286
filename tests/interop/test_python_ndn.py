"""Interop with python-ndn 0.5 (a real client library) through ndnlabd:
a python-ndn producer registers a prefix and `ndnlab get` fetches from it; a python-ndn consumer
fetches from `ndnlab serve`."""
import pathlib
import subprocess
import sys

from conftest import sha256_file, write_random_file

HERE = pathlib.Path(__file__).resolve().parent
SIZE = 300_000


def test_ndnlab_get_from_python_ndn_producer(daemon, tmp_path):
    payload = write_random_file(tmp_path / "py.bin", SIZE, seed=5)
    producer = subprocess.Popen([sys.executable, str(HERE / "pyndn_producer.py"), "/interop/py", str(payload)],
                                env=daemon.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        daemon.wait_for_route("/interop/py")
        out = tmp_path / "out.bin"
        daemon.run_tool("get", "/interop/py", "-o", out, timeout=120)
        assert sha256_file(out) == sha256_file(payload)
    finally:
        producer.terminate()
        producer.wait(timeout=10)
    # python-ndn never unregisters: the route must go away with its face.
    daemon.wait_for_route_gone("/interop/py")


def test_python_ndn_consumer_from_ndnlab_serve(daemon, tmp_path):
    payload = write_random_file(tmp_path / "serve.bin", SIZE, seed=6)
    server = daemon.spawn_tool("serve", "/interop/lab", payload)
    try:
        daemon.wait_for_route("/interop/lab")
        out = tmp_path / "out.bin"
        result = subprocess.run([sys.executable, str(HERE / "pyndn_consumer.py"), "/interop/lab", str(out)],
                                env=daemon.env(), capture_output=True, timeout=120)
        assert result.returncode == 0, result.stderr.decode()
        assert sha256_file(out) == sha256_file(payload)
    finally:
        server.terminate()
        server.wait(timeout=10)
