"""BLEnD interop (docs/mechanisms/bundling.md): two ndnlabd on loopback UDP, the consumer
side's face to the producer side declared wireless with bundling on.

- a daemon with bundling on still serves python-ndn: a python-ndn consumer fetches through
  the bundling face (its Interests carry no BundleTag, so nothing is bundled), and a
  python-ndn producer answers the Interests the peer regenerated from bundles;
- a daemon with bundling on talks to a peer with bundling off: the peer decodes, the fetch
  completes, and both sides count the bundles.
"""
import socket

import pytest

from conftest import Daemon, free_loopback_port, serving, sha256_file, write_random_file
from pyndn_clients import pyndn_fetch, pyndn_serving

SIZE = 400_000


@pytest.fixture
def pair(tmp_path, built_binaries):
    """(consumer daemon, producer daemon, consumer's face to the producer); the producer has
    the default configuration (bundling off, wired faces)."""
    cport, pport = free_loopback_port(socket.SOCK_DGRAM), free_loopback_port(socket.SOCK_DGRAM)
    consumer = Daemon(tmp_path / "c", name="c", udp_port=cport)
    producer = Daemon(tmp_path / "p", name="p", udp_port=pport)
    started = []
    try:
        for d in (consumer, producer):
            started.append(d.start())
        out = consumer.run_tool("ctl", "face", "create", f"udp4://127.0.0.1:{pport}", "--medium", "wireless",
                                "--bundling", "on", "--bundle-interval", "15").stdout.decode()
        assert "medium=wireless" in out and "bundling=on" in out, out
        face_id = next(tok for tok in out.replace("=", " ").split() if tok.isdigit())
        consumer.run_tool("ctl", "route", "add", "/interop", face_id)
        yield consumer, producer, int(face_id)
    finally:
        for d in started:
            assert d.stop() == 0, d.log.read_text()


def producer_face(producer):
    """The producer's on-demand UDP face from the consumer daemon."""
    return next(f for f in producer.faces() if f["remote"].startswith("udp4://"))


def test_bundling_daemon_talks_to_peer_with_bundling_off(pair, tmp_path):
    consumer, producer, face_id = pair
    payload = write_random_file(tmp_path / "f.bin", SIZE, seed=11)
    out = tmp_path / "out.bin"
    with serving(producer, "/interop/lab", payload):
        consumer.run_tool("get", "/interop/lab", "-o", out, "--cc", "aimd", timeout=120)
    assert sha256_file(out) == sha256_file(payload)
    sent = consumer.face(face_id)
    assert sent["medium"] == "wireless" and sent["bundle_interval"] == 15
    assert sent["bundles"]["out"] > 0 and sent["bundles"]["absorbed"] > 0, sent
    frames = sent["out_interests"] - sent["bundles"]["absorbed"]
    assert frames * 4 < sent["out_interests"], sent  # BI = 15: far fewer frames than Interests
    got = producer_face(producer)
    assert "medium" in got and got["medium"] == "wired"  # listed because it decoded bundles
    assert got["bundles"]["in"] > 0 and got["bundles"]["regenerated"] > 0, got
    assert got["bundles"]["invalid"] == 0


def test_python_ndn_consumer_through_bundling_face(pair, tmp_path):
    consumer, producer, face_id = pair
    payload = write_random_file(tmp_path / "g.bin", SIZE, seed=12)
    out = tmp_path / "out.bin"
    with serving(producer, "/interop/plain", payload):
        pyndn_fetch(consumer, "/interop/plain", out)
    assert sha256_file(out) == sha256_file(payload)
    sent = consumer.face(face_id)
    assert sent["bundles"]["out"] == 0 and sent["bundles"]["absorbed"] == 0, sent  # untagged


def test_python_ndn_producer_answers_regenerated_interests(pair, tmp_path):
    consumer, producer, face_id = pair
    payload = write_random_file(tmp_path / "h.bin", SIZE, seed=13)
    out = tmp_path / "out.bin"
    with pyndn_serving(producer, "/interop/py", payload):
        consumer.run_tool("get", "/interop/py", "-o", out, "--cc", "aimd", timeout=120)
    assert sha256_file(out) == sha256_file(payload)
    assert producer_face(producer)["bundles"]["regenerated"] > 0
