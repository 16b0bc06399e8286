"""MIRCC interop (docs/mechanisms/mircc.md): two ndnlabd on loopback UDP; the consumer side
has the MirccRate field on every face (`[face_system.link] mircc = true`), so Data toward its
applications carry it, and MIRCC's controller on its face to the producer (`--mircc-capacity`).
Legacy clients on that daemon still fetch (they skip the field, an NDNLPv2 header field in the
ignorable range): python-ndn, NDNts and ndnd's `cat`; `ndnlab get --cc mircc` hears the rate.
"""
import socket

import pytest

from conftest import Daemon, free_loopback_port, serving, sha256_file, write_random_file
from ndnd_peer import require_ndnd, run_ndnd
from ndnts_clients import ndnts_fetch
from pyndn_clients import pyndn_fetch

SIZE = 300_000
CAPACITY = 50_000_000


@pytest.fixture
def pair(tmp_path, built_binaries):
    cport, pport = free_loopback_port(socket.SOCK_DGRAM), free_loopback_port(socket.SOCK_DGRAM)
    consumer = Daemon(tmp_path / "c", name="c", udp_port=cport,
                      extra="[face_system.link]\nmircc = true\n")
    producer = Daemon(tmp_path / "p", name="p", udp_port=pport)
    started = []
    try:
        for d in (consumer, producer):
            started.append(d.start())
        out = consumer.run_tool("ctl", "face", "create", f"udp4://127.0.0.1:{pport}",
                                "--mircc-capacity", f"{CAPACITY}").stdout.decode()
        assert f"mircc-capacity={CAPACITY}" in out, out
        face_id = next(tok for tok in out.replace("=", " ").split() if tok.isdigit())
        consumer.run_tool("ctl", "route", "add", "/interop", face_id)
        yield consumer, producer, int(face_id)
    finally:
        for d in started:
            assert d.stop() == 0, d.log.read_text()


def test_mircc_face_rates_and_shapes(pair, tmp_path):
    consumer, producer, face_id = pair
    payload = write_random_file(tmp_path / "f.bin", SIZE, seed=21)
    out = tmp_path / "out.bin"
    with serving(producer, "/interop/rate", payload):
        consumer.run_tool("get", "/interop/rate", "-o", out, "--cc", "mircc", timeout=120)
    assert sha256_file(out) == sha256_file(payload)
    face = consumer.face(face_id)
    assert face["mircc"]["capacity"] == CAPACITY, face
    assert 0 < face["mircc"]["rate"] <= CAPACITY, face


def test_python_ndn_consumer_skips_the_rate_field(pair, tmp_path):
    consumer, producer, _ = pair
    payload = write_random_file(tmp_path / "g.bin", SIZE, seed=22)
    out = tmp_path / "out.bin"
    with serving(producer, "/interop/py", payload):
        pyndn_fetch(consumer, "/interop/py", out)
    assert sha256_file(out) == sha256_file(payload)


@pytest.mark.parametrize("discovery", ["rdr"])
def test_ndnts_consumer_skips_the_rate_field(pair, tmp_path, discovery):
    consumer, producer, _ = pair
    payload = write_random_file(tmp_path / "h.bin", SIZE, seed=23)
    out = tmp_path / "out.bin"
    with serving(producer, "/interop/ts", payload):
        ndnts_fetch(consumer, discovery, "/interop/ts", out)
    assert sha256_file(out) == sha256_file(payload)


def test_ndnd_consumer_skips_the_rate_field(pair, tmp_path):
    require_ndnd()
    consumer, producer, face_id = pair
    payload = write_random_file(tmp_path / "n.bin", SIZE, seed=24)
    with serving(producer, "/interop/go", payload):
        result = run_ndnd(consumer.socket, "cat", "/interop/go", timeout=120)
    assert result.stdout == payload.read_bytes()
    # the Data reached ndnd carrying a rate: they came through the MIRCC face, which stamps them
    assert consumer.face(face_id)["mircc"]["rate"] > 0
