"""`ndnlab get` through a drop-tail bottleneck between two ndnlabd (issue: get collapsed over a
300 Mbit/s tbf link, 10,561 timeouts and "maximum number of retries"). A router namespace
forwards IP between the consumer's and the producer's hosts and shapes both of its egress
interfaces with tbf (no netem on these kernels: no propagation delay, only the queue).

Every fetch must complete bit-exact, and retransmit at most RETX_BOUND of its segments. The
bound: the worst cell measured (10 Mbit/s, a 0.25-BDP queue) retransmits about 3 % with
AIMD and CUBIC (docs/results/bottleneck.md); ndncatchunks' consumer retransmitted 36 % there
and 700 % at 300 Mbit/s before failing. Counters only, never time.
"""
import pytest

import droptail
from conftest import Daemon, serving
from netns import can_use_netns

RETX_BOUND = 0.10
SIZES = {10: 2_000_000, 100: 8_000_000, 300: 20_000_000}
PIPELINES = ["cubic", "aimd", "fixed"]


@pytest.fixture(scope="module")
def routed(tmp_path_factory, built_binaries):
    ok, why = can_use_netns()
    if not ok:
        pytest.skip(why)
    tmp = tmp_path_factory.mktemp("bottleneck")
    with droptail.Bottleneck("router") as net:
        da = Daemon(tmp / "a", name="a", udp_port=6363, netns=net.ns["a"]).start()
        db = Daemon(tmp / "b", name="b", udp_port=6363, netns=net.ns["b"]).start()
        try:
            droptail.connect(da, net.b_addr, "/perf")
            yield net, da, db, tmp
        finally:
            da.stop()
            db.stop()


@pytest.mark.parametrize("rate", sorted(SIZES))
@pytest.mark.parametrize("bdp", [0.25, 1.0])
def test_get_completes_through_a_drop_tail_bottleneck(routed, rate, bdp):
    net, da, db, tmp = routed
    net.shape(rate, droptail.queue_bytes(rate, bdp))
    path = droptail.random_file(tmp / f"object-{rate}", SIZES[rate], seed=rate)
    drops = net.drops()[0]
    for pipeline in PIPELINES:
        prefix = f"/perf/{rate}/{bdp}/{pipeline}"  # a new name: no Content Store holds it
        out = tmp / "out"
        with serving(db, prefix, path):
            rc, s = droptail.fetch(da, prefix, out, "--cc", pipeline)
        assert rc == 0, f"{pipeline}: {s.get('error')}"
        assert out.read_bytes() == path.read_bytes(), pipeline
        assert s["retransmissions"] <= RETX_BOUND * s["segments"], (pipeline, s)
        out.unlink()
    if rate == 10 and bdp == 0.25:
        # the adaptive pipelines overflowed the small queue: the link was the bottleneck
        assert net.drops()[0] > drops
