"""MIRCC on real daemons (issue 28, tests): two `ndnlab get --cc mircc` flows share a 12 Mbit/s
tbf bottleneck in a router namespace (tests/droptail.py). The consumer host's ndnlabd has MIRCC
on its face toward the producer (`ndnlab ctl face create ... --mircc-capacity 12Mbit/s`) and the
rate field on every face (`[face_system.link] mircc = true`, so its applications hear the rate).

What must hold (counters, never time): both fetches complete bit-exact and follow the stamped
rate (get's rates_heard, rate_final_pps no more than the link's Data per second); the consumer host's
shaper kept the Data within the link, so the router's tbf queue dropped (almost) nothing where
window consumers overflow it; the face reports MIRCC with its capacity and a rate no higher; and
a face without MIRCC (the same daemons, MIRCC off) is left alone.
"""
import threading

import pytest

import droptail
from conftest import Daemon, serving
from netns import can_use_netns

RATE_MBIT = 12
FILE_BYTES = 3_000_000
# One Data of `serve`'s default 1,316-byte segments as tbf counts it on the veth: the Data
# (about 1,420 bytes), its NDNLPv2 frame, UDP, IPv4 and Ethernet headers.
DATA_ON_LINK = 1480


@pytest.fixture(scope="module")
def routed(tmp_path_factory, built_binaries):
    ok, why = can_use_netns()
    if not ok:
        pytest.skip(why)
    tmp = tmp_path_factory.mktemp("mircc")
    extra = ("[face_system.link]\nmircc = true\n\n"
             f"[forwarder]\nmircc_data_size = {DATA_ON_LINK}\n")
    with droptail.Bottleneck("router") as net:
        net.shape(RATE_MBIT, droptail.queue_bytes(RATE_MBIT, 0.25))  # 12.5 ms: windows overflow it
        da = Daemon(tmp / "a", name="a", udp_port=6363, netns=net.ns["a"], extra=extra).start()
        db = Daemon(tmp / "b", name="b", udp_port=6363, netns=net.ns["b"]).start()
        try:
            yield net, da, db, tmp
        finally:
            da.stop()
            db.stop()


def face_status(daemon, uri):
    r = daemon.run_tool("ctl", "face", "list", "--remote", uri, timeout=20)
    return r.stdout.decode()


def two_flows(net, da, db, tmp, tag, *get_args):
    """Two concurrent fetches of different files; returns [(rc, summary, ok_bytes)], tbf drops."""
    paths = [droptail.random_file(tmp / f"{tag}-{i}", FILE_BYTES, seed=i + 1) for i in range(2)]
    before = net.drops()[0]
    results = [None, None]

    def run(i):
        out = tmp / f"{tag}-out-{i}"
        rc, s = droptail.fetch(da, f"/mircc/{tag}/{i}", out, *get_args, timeout=300)
        results[i] = (rc, s, out.exists() and out.read_bytes() == paths[i].read_bytes())

    with serving(db, f"/mircc/{tag}/0", paths[0]), serving(db, f"/mircc/{tag}/1", paths[1]):
        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return results, net.drops()[0] - before


def test_two_mircc_flows_share_a_shaped_link(routed):
    net, da, db, tmp = routed
    uri = f"udp4://{net.b_addr}:6363"
    da.run_tool("ctl", "face", "create", uri, "--mircc-capacity", f"{RATE_MBIT}Mbit/s", timeout=20)
    da.run_tool("ctl", "route", "add", "/mircc", uri, timeout=20)
    status = face_status(da, uri)
    assert f"mircc={{capacity={RATE_MBIT * 1_000_000}bit/s" in status, status

    results, drops = two_flows(net, da, db, tmp, "rate", "--cc", "mircc")
    for rc, s, exact in results:
        assert rc == 0, s.get("error")
        assert exact
        # the rate the consumer host stamped reached the application: it sent at it
        assert s["rates_heard"] > 0, s
        assert 0 < s["rate_final_pps"] <= RATE_MBIT * 1e6 / 8 / 1000, s
    # the shaper paced the Interests: the Data fit the link, where a window overflows its queue
    assert drops <= 5, drops

    # MIRCC off on the face: nothing shapes the window consumers, which then fill the queue
    da.run_tool("ctl", "face", "update", uri, "--mircc-capacity", "0", timeout=20)
    assert "mircc=" not in face_status(da, uri)
    results, drops_window = two_flows(net, da, db, tmp, "window", "--cc", "cubic")
    for rc, s, exact in results:
        assert rc == 0, s.get("error")
        assert exact
    assert drops_window > drops
