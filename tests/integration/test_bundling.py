"""BLEnD on a real link (issue 4 item 7): two ndnlabd in network namespaces joined by veth, the
consumer side's UDP face declared wireless, 5% loss in each direction. A 50 MB file arrives
bit-exact with bundling off and then with bundling on (BI = 15, switched with
`ndnlab ctl face update`), and the Interest frames the consumer daemon put on the link
(`out_interests - absorbed` of its face, from `ndnlab ctl face list`) drop by at least 80%.

tc netem is used when the kernel has it. Otherwise, as in test_multihop.py, each daemon drops
5% of what its UDP faces send ([face_system.udp.impair]).

A run on the development machine (about 4 s in all): frames off=7258 on=838 (88.5% fewer),
Data held for their Interest 466, retransmissions off=703 on=396.
"""
import json

import pytest

from conftest import serving, sha256_file, write_random_file
from netns import lossy_daemons

SIZE = 50 * 1024 * 1024
LOSS_PCT = 5
DELAY_MS = 1
BI = 15
JUMBO_MTU = 9000


@pytest.fixture
def link(tmp_path, built_binaries):
    # jumbo frames: a UDP face's MTU is its path's, and over 1500-byte veths each 8000-byte
    # Data would be 6 NDNLPv2 fragments, each lost at 5 % (26 % of Data); over 9000-byte ones
    # a Data is one frame and one loss draw, as in the campaigns this test follows
    with lossy_daemons(tmp_path, 2, DELAY_MS, LOSS_PCT, mtu=JUMBO_MTU) as (topo, daemons, _):
        yield topo, daemons


def fetch(consumer, producer, name, payload, tmp_path):
    out = tmp_path / (name.strip("/").replace("/", "_") + ".out")
    # As the BLEnD campaigns run it (experiments/blend/*.toml): 8000-byte segments (ndnputchunks'
    # size; `serve` now defaults to Data that fit one datagram) and ndncatchunks' loss handling
    # (ndnlab's profile halves the window on every 5 % random loss, so bundles are smaller:
    # 78 % fewer frames instead of 88 %)
    with serving(producer, name, payload, "--size", "8000"):
        result = consumer.run_tool("get", name, "-o", out, "--cc", "aimd", "--profile", "ndncatchunks",
                                   "--json", timeout=600)
    assert sha256_file(out) == sha256_file(payload)
    out.unlink()
    return json.loads(result.stderr.decode().strip().splitlines()[-1])


def link_counters(daemon, face_id):
    f = daemon.face(face_id)
    return f["out_interests"], f["bundles"]["absorbed"], f["bundles"]["out"], f["bundles"]["early"]


def test_bundling_cuts_interest_frames_on_a_lossy_link(link, tmp_path):
    topo, (d0, d1) = link
    peer = topo.links[0][5]
    created = d0.run_tool("ctl", "face", "create", f"udp4://{peer}:6363", "--medium", "wireless",
                          "--bundling", "off", "--bundle-interval", str(BI)).stdout.decode()
    face_id = next(tok for tok in created.replace("=", " ").split() if tok.isdigit())
    d0.run_tool("ctl", "route", "add", "/blend", face_id)
    payload = write_random_file(tmp_path / "payload.bin", SIZE, seed=4)

    # bundling off: one frame per Interest
    out0, absorbed0, _, _ = link_counters(d0, face_id)
    off = fetch(d0, d1, "/blend/off", payload, tmp_path)
    out1, absorbed1, bundles1, _ = link_counters(d0, face_id)
    frames_off = (out1 - out0) - (absorbed1 - absorbed0)
    assert absorbed1 == absorbed0 and bundles1 == 0

    # bundling on, same face, another name (nothing from the Content Store)
    updated = d0.run_tool("ctl", "face", "update", face_id, "--bundling", "on").stdout.decode()
    assert "bundling=on" in updated, updated
    on = fetch(d0, d1, "/blend/on", payload, tmp_path)
    out2, absorbed2, bundles2, early = link_counters(d0, face_id)
    frames_on = (out2 - out1) - (absorbed2 - absorbed1)

    summary = (f"frames off={frames_off} on={frames_on} ({1 - frames_on / frames_off:.1%} fewer); "
               f"bundles={bundles2}, Data held for their Interest={early}; "
               f"retx off={off['retransmissions']} on={on['retransmissions']}")
    print(summary)
    assert bundles2 > 0, summary
    assert frames_on <= 0.2 * frames_off, summary
    # the producer side decoded what the consumer side bundled
    regenerated = next(f for f in d1.faces() if f["remote"].startswith("udp4://"))["bundles"]
    assert regenerated["regenerated"] > 0 and regenerated["invalid"] == 0, regenerated
