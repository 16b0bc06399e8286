"""Three ndnlabd in network namespaces joined by veth, with delay and 2% loss on every link:
a fetch across two UDP hops completes bit-exact."""
import json

import pytest

from conftest import sha256_file, write_random_file
from netns import lossy_daemons

SIZE = 4 * 1024 * 1024
DELAY_MS = 5
LOSS_PCT = 2


@pytest.fixture
def chain(tmp_path, built_binaries):
    with lossy_daemons(tmp_path, 3, DELAY_MS, LOSS_PCT) as net:
        yield net


def test_fetch_across_two_lossy_hops(chain, tmp_path):
    topo, (d0, d1, d2), _ = chain
    # d0 -> d1 -> d2 for /mh
    for d, peer in ((d0, topo.links[0][5]), (d1, topo.links[1][5])):
        created = d.run_tool("ctl", "face", "create", f"udp4://{peer}:6363").stdout.decode()
        face_id = next(tok for tok in created.replace("=", " ").split() if tok.isdigit())
        d.run_tool("ctl", "route", "add", "/mh", face_id)
    payload = write_random_file(tmp_path / "payload.bin", SIZE, seed=3)
    server = d2.spawn_tool("serve", "/mh/file", payload)
    try:
        d2.wait_for_route("/mh/file")
        out = tmp_path / "out.bin"
        result = d0.run_tool("get", "/mh/file", "-o", out, "--cc", "aimd", "--json", timeout=600)
        assert sha256_file(out) == sha256_file(payload)
        summary = json.loads(result.stderr.decode().strip().splitlines()[-1])
        # 2% loss per link and direction over two hops: some segments must have been recovered.
        assert summary["retransmissions"] > 0, summary
    finally:
        server.terminate()
        server.wait(timeout=10)
