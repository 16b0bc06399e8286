"""Runs the python-ndn client scripts of this folder against a daemon (tests' helpers)."""
import contextlib
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def pyndn_fetch(daemon, name, out, timeout=120):
    """pyndn_consumer.py fetches NAME into OUT through `daemon`; fails the test on error."""
    result = subprocess.run([sys.executable, str(HERE / "pyndn_consumer.py"), name, str(out)],
                            env=daemon.env(), capture_output=True, timeout=timeout)
    assert result.returncode == 0, result.stderr.decode()


@contextlib.contextmanager
def pyndn_serving(daemon, name, payload):
    """pyndn_producer.py serves PAYLOAD under NAME through `daemon` (its route registered)
    for the duration of the block."""
    proc = subprocess.Popen([sys.executable, str(HERE / "pyndn_producer.py"), name, str(payload)],
                            env=daemon.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        daemon.wait_for_route(name)
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)
