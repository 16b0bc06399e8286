"""`ndnlab perf` (docs/tools.md): its JSON read by the reader that reads Debian's iperf3 JSON,
a test through a lossy link that completes and reports the loss, and bad options.

The lossy link is two ndnlabd on loopback joined by a UDP face, each dropping 3% of what it
sends ([face_system.udp.impair]), so no network namespace or netem is needed.
"""
import contextlib
import json
import shutil
import socket
import subprocess
import time

import pytest

from conftest import NDNLAB, Daemon, free_loopback_port

CPU_KEYS = {"host_total", "host_user", "host_system", "remote_total", "remote_user", "remote_system"}


def iperf3_figures(report):
    """What an iperf3 user reads from `iperf3 -J`: the same function reads iperf3's JSON and
    ours. end.sum (with jitter and loss) exists for UDP tests only, as in iperf3."""
    end = report["end"]
    figures = {
        "interval_bps": [iv["sum"]["bits_per_second"] for iv in report["intervals"]],
        "interval_streams": [len(iv["streams"]) for iv in report["intervals"]],
        "received_bps": end["sum_received"]["bits_per_second"],
        "received_bytes": end["sum_received"]["bytes"],
        "sent_bytes": end["sum_sent"]["bytes"],
        "cpu": end["cpu_utilization_percent"],
        "num_streams": report["start"]["test_start"]["num_streams"],
    }
    if "sum" in end:
        figures["jitter_ms"] = end["sum"]["jitter_ms"]
        figures["lost_percent"] = end["sum"]["lost_percent"]
        figures["lost_packets"] = end["sum"]["lost_packets"]
        figures["packets"] = end["sum"]["packets"]
    return figures


def check_figures(f, streams):
    assert f["num_streams"] == streams
    assert f["interval_bps"] and all(isinstance(b, (int, float)) and b >= 0 for b in f["interval_bps"])
    assert all(n == streams for n in f["interval_streams"])
    assert f["received_bps"] > 0
    assert f["received_bytes"] > 0
    assert set(f["cpu"]) == CPU_KEYS
    assert all(isinstance(v, (int, float)) and v >= 0 for v in f["cpu"].values())


@contextlib.contextmanager
def perf_serving(daemon, prefix):
    """`ndnlab perf server PREFIX` on `daemon`, until the block ends."""
    server = daemon.spawn_tool("perf", "server", prefix)
    try:
        daemon.wait_for_route(prefix)
        yield
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def perf_server(daemon):
    with perf_serving(daemon, "/it/perf"):
        yield daemon


def run_iperf3(*client_args):
    port = free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM)
    server = subprocess.Popen(["iperf3", "-s", "-1", "-p", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(50):  # until the server listens
            out = subprocess.run(["iperf3", "-c", "127.0.0.1", "-p", str(port), "-J", *client_args],
                                 capture_output=True, timeout=60)
            report = json.loads(out.stdout or b"{}")
            if "error" not in report or "connect" not in report["error"]:
                break
            time.sleep(0.1)
        assert "error" not in report, report.get("error")
        return report
    finally:
        server.wait(timeout=30)


@pytest.mark.skipif(shutil.which("iperf3") is None,
                    reason="iperf3 is not installed (scripts/install-deps --with-tests installs it)")
def test_one_reader_reads_iperf3_and_ndnlab_perf(perf_server):
    tcp = run_iperf3("-t", "1", "-i", "0.5", "-P", "2")
    udp = run_iperf3("-u", "-b", "10M", "-t", "1", "-i", "0.5", "-R")
    window = json.loads(perf_server.run_tool("perf", "client", "/it/perf", "-t", "1", "-i", "0.5", "-P", "2",
                                             "-J", timeout=60).stdout)
    paced = json.loads(perf_server.run_tool("perf", "client", "/it/perf", "-b", "10M", "-t", "1", "-i", "0.5",
                                            "-J", timeout=60).stdout)
    for report, streams in ((tcp, 2), (window, 2)):
        check_figures(iperf3_figures(report), streams)
    for report in (udp, paced):
        f = iperf3_figures(report)
        check_figures(f, 1)
        assert f["jitter_ms"] >= 0
        assert 0 <= f["lost_percent"] <= 100
        assert f["packets"] > 0
    # ours also has end.sum in window mode, and both ends' figures: the server sent at least
    # what arrived
    for report in (window, paced):
        f = iperf3_figures(report)
        assert "jitter_ms" in f
        assert f["sent_bytes"] >= f["received_bytes"]
        assert report["end"]["ndn"]["server_stats"] is True
        assert report["end"]["cpu_utilization_percent"]["remote_total"] > 0
    # 10 Mbit/s of content paced for 1 s on loopback: about that, and nothing lost
    assert 5e6 < iperf3_figures(paced)["received_bps"] < 12e6
    assert iperf3_figures(paced)["lost_packets"] == 0


def test_bytes_arrive_exactly(perf_server):
    report = json.loads(perf_server.run_tool("perf", "client", "/it/perf", "-n", "1M", "-P", "3", "-l", "1000",
                                             "-J", timeout=60).stdout)
    assert report["end"]["sum_received"]["bytes"] == 1 << 20
    assert sum(s["receiver"]["bytes"] for s in report["end"]["streams"]) == 1 << 20
    assert [s["sender"]["bytes"] for s in report["end"]["streams"]] == [s["receiver"]["bytes"]
                                                                        for s in report["end"]["streams"]]


@pytest.fixture
def lossy_pair(tmp_path, built_binaries):
    impair = "[face_system.udp.impair]\nloss = 0.03\ndelay = \"1ms\"\n\n"
    ports = [free_loopback_port(socket.SOCK_STREAM, socket.SOCK_DGRAM) for _ in range(2)]
    daemons = []
    try:
        for i, port in enumerate(ports):
            daemons.append(Daemon(tmp_path / f"d{i}", name=f"d{i}", udp_port=port, extra=impair).start())
        consumer, producer = daemons
        created = consumer.run_tool("ctl", "face", "create", f"udp4://127.0.0.1:{ports[1]}").stdout.decode()
        face_id = next(tok for tok in created.replace("=", " ").split() if tok.isdigit())
        consumer.run_tool("ctl", "route", "add", "/lossy", face_id)
        with perf_serving(producer, "/lossy"):
            yield consumer
    finally:
        for d in daemons:
            d.stop()


def test_perf_through_a_lossy_link_completes_and_reports_the_loss(lossy_pair):
    consumer = lossy_pair
    window = json.loads(consumer.run_tool("perf", "client", "/lossy", "-t", "2", "--cc", "aimd", "-J",
                                          timeout=120).stdout)
    assert window["end"]["sum_received"]["bytes"] > 0
    ndn = window["end"]["ndn"]
    assert ndn["retransmissions"] > 0, ndn
    assert window["end"]["sum"]["lost_packets"] > 0
    # paced: 3% lost each way, nothing retransmitted: about 6% of the Interests go unanswered
    paced = json.loads(consumer.run_tool("perf", "client", "/lossy", "-b", "4M", "-t", "2", "-J",
                                         timeout=120).stdout)
    s = paced["end"]["sum"]
    assert s["lost_packets"] > 0
    assert 1 < s["lost_percent"] < 20, s
    assert paced["end"]["ndn"]["retransmissions"] == 0
    assert s["packets"] == paced["end"]["ndn"]["interests"]


@pytest.mark.parametrize("args,reason", [
    (["client", "/x", "-P", "0"], "--parallel"),
    (["client", "/x", "-P", "200"], "--parallel"),
    (["client", "/x", "-l", "8"], "--length"),
    (["client", "/x", "-t", "0"], "--time"),
    (["client", "/x", "-t", "1", "-n", "1M"], "--bytes"),
    (["client", "/x", "-n", "12Q"], "--bytes"),
    (["client", "/x", "-b", "fast"], "--bitrate"),
    (["client", "/x", "-i", "-1"], "--interval"),
    (["client", "/x", "--cc", "vegas"], "--cc"),
    (["server", "/x", "--max-payload", "9000"], "--max-payload"),
    (["server", "/x", "--signing", "rsa"], "--signing"),
    (["server", "/x", "--signing", "hmac"], "--hmac-key"),
    (["frobnicate"], "server, client"),
    ([], "server, client"),
])
def test_bad_options_exit_2_with_the_reason(args, reason, built_binaries):
    out = subprocess.run([str(NDNLAB), "perf", *args], capture_output=True, text=True, timeout=30)
    assert out.returncode == 2, out
    assert reason in out.stderr, out.stderr


def test_no_server_still_reports(daemon):
    """Nobody serves the prefix: the test fails cleanly (exit 1) instead of hanging."""
    out = daemon.run_tool("perf", "client", "/it/nobody", "-t", "1", "--retries", "1", "--lifetime", "200", "-J",
                          check=False, timeout=60)
    assert out.returncode == 1
    report = json.loads(out.stdout)
    assert "error" in report
    assert report["end"]["ndn"]["server_stats"] is False
