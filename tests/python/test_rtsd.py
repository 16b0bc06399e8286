"""NDN-RTC in ns-3 (issue 29 item 4): the claims of ndnlab.paper.rtsd name result keys the
rtsd-star and rtsd-scale scenarios write (their `stream.*` keys come from the consumer's
visitMetrics), and Table 1's claims carry the paper's values."""

import json
import os
import pathlib
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from ndnlab import repro  # noqa: E402
from ndnlab.paper import rtsd  # noqa: E402
from ndnlab.store import flatten  # noqa: E402

BUILD = pathlib.Path(os.environ.get("NDNLAB_BUILD", ROOT / "build"))
SIM = BUILD / "ns3" / "runner" / "ndnlab-sim"


def test_table1_has_four_claims_per_row_on_the_paper_values():
    assert len(rtsd.TABLE1_CLAIMS) == 4 * len(rtsd.TABLE1)
    row1 = [c for c in rtsd.TABLE1_CLAIMS if c.where == {"InitialPipeline": 30}]
    assert [(c.metric, c.paper) for c in row1] == [("stream.drd_final_ms", 110), ("stream.chasing_ms", 700),
                                                   ("stream.backoff_ms", 1600), ("stream.lambda_final", 4)]
    # a back-off of 0 is judged on an absolute band, not on an empty relative one
    zero = next(c for c in rtsd.CLAIMS if c.metric == "stream.backoff_ms" and c.paper == 0)
    assert not zero.relative and repro.band(zero) == rtsd.BACKOFF_TOLERANCE_MS


def test_rtsd_star_writes_the_stream_keys_the_claims_read():
    if not os.access(SIM, os.X_OK):
        pytest.skip(f"{SIM} not built")
    out = subprocess.run([str(SIM), "rtsd-star", "--StreamTime=4", "--InitialPipeline=4"], check=True,
                         capture_output=True, text=True, timeout=300)
    metrics = flatten(json.loads(out.stdout)["metrics"])
    for c in rtsd.CLAIMS + rtsd.ABR_CLAIMS:
        if c.campaign != "fig19" and not c.metric.startswith("trace."):  # rtsd-scale's, below; traces, after
            assert c.metric in metrics, c.metric
    for key in ("stream.first_frame_ms", "stream.frames_rendered", "stream.frames_lost", "stream.stalls",
                "stream.latency_median_ms", "stream.state"):
        assert key in metrics, key
    assert metrics["stream.state"] == "ended"
    assert metrics["stream.lambda_initial"] == 4


def test_rtsd_scale_writes_the_keys_the_fig19_claims_read():
    if not os.access(SIM, os.X_OK):
        pytest.skip(f"{SIM} not built")
    for test in ("consumers", "failover"):
        out = subprocess.run([str(SIM), "rtsd-scale", f"--Test={test}", "--StreamTime=10", "--SecondStart=4",
                              "--FailTime=4"], check=True, capture_output=True, text=True, timeout=300)
        metrics = flatten(json.loads(out.stdout)["metrics"])
        for c in rtsd.FIG19_CLAIMS:
            if c.where["Test"] == test:
                assert c.metric in metrics, (test, c.metric)


def test_stream_trace_files_give_the_trace_metrics_the_claims_read(tmp_path):
    """StreamTrace=true writes stream-arrivals.csv and stream-series.csv with the columns
    experiments/rtsd/report.py reads, and its trace.* metrics are the ones the claims name."""
    if not os.access(SIM, os.X_OK):
        pytest.skip(f"{SIM} not built")
    sys.path.insert(0, str(ROOT / "experiments" / "rtsd"))
    import report  # noqa: E402
    subprocess.run([str(SIM), "rtsd-star", "--StreamTime=12", "--InitialPipeline=30", "--Rate=10Mbps,4Mbps",
                    "--Delay=0ms", "--Bitrates=200k,1000k", "--Adaptive=true", "--StreamTrace=true",
                    "--Traces=none", "--out", str(tmp_path)], check=True, capture_output=True, text=True, timeout=300)
    result = json.loads((tmp_path / "result.json").read_text())
    assert {"stream-arrivals.csv", "stream-series.csv"} <= set(result["traces"])
    arrivals = report.read_csv(tmp_path / "stream-arrivals.csv")
    assert arrivals and {"time_ms", "d_arr_ms", "drd_ms", "state", "lambda"} <= set(arrivals[0])
    assert arrivals[0]["state"] == "chasing" and float(arrivals[0]["d_arr_ms"]) == -1
    series = report.read_csv(tmp_path / "stream-series.csv")
    assert [float(r["time_s"]) for r in series[:3]] == [1, 2, 3]
    metrics = report.arrivals_metrics(arrivals, result["metrics"]["stream"]["drd_final_ms"])
    metrics.update(report.series_metrics(series, 12, 1))
    wanted = {c.metric for c in rtsd.CLAIMS if c.metric.startswith("trace.")}
    # a 12 s run: it may not reach the 1000k thread, and has nothing after 30 s
    assert wanted - {"trace.switch_up_s", "trace.late_link_kbps"} <= set(metrics), wanted - set(metrics)
    assert metrics["trace.first_challenge_s"] >= 1


def test_rendered_share_counts_the_frames_from_the_key_frame_joined():
    """Item 5(c)'s rendered share: over the frames from the latest key frame at the consumer's
    start to the stream's end (570 in recovery.toml: 600 frames, joined at frame 30)."""
    sys.path.insert(0, str(ROOT / "experiments" / "rtsd"))
    import report  # noqa: E402
    assert report.joined_frames({"StreamTime": 20, "Fps": 30, "ConsumerStart": 1, "Gop": 30}) == 570
    assert report.joined_frames({"StreamTime": 20, "Fps": 30, "ConsumerStart": 1.5, "Gop": 30}) == 570
    assert report.joined_frames({}) == 570  # the scenario's defaults


def test_recovery_claims_name_knobs_of_rtsd_star():
    """The configurations item 5(c)'s claims compare are rtsd-star knobs, and both run."""
    if not os.access(SIM, os.X_OK):
        pytest.skip(f"{SIM} not built")
    for _, config in rtsd.RECOVERY_CONFIGS:
        args = [f"--{k}={v}" for k, v in config.items()]
        out = subprocess.run([str(SIM), "rtsd-star", "--StreamTime=4", "--Loss=0.05", *args], check=True,
                             capture_output=True, text=True, timeout=300)
        metrics = flatten(json.loads(out.stdout)["metrics"])
        assert metrics["stream.frames_rendered"] > 0
    assert {c.metric for c in rtsd.RECOVERY_CLAIMS} == {"stream.rendered_share", "stream.first_frame_ms"}


def test_mircc_configurations_are_the_ones_report_compares_and_run():
    """Item 5(e): mircc.toml's three configurations are report.py's, the baseline's runs are
    fig25.toml's, and on rtsd-star the MIRCC network stamps rates that the explicit-rate consumer
    takes its thread from at once, without a Challenge."""
    spec = tomllib.loads((ROOT / "experiments" / "rtsd" / "mircc.toml").read_text())
    fig25 = tomllib.loads((ROOT / "experiments" / "rtsd" / "fig25.toml").read_text())
    configs = [{k: grid.get(k, [rtsd.MIRCC_DEFAULTS[k]])[0] for k in rtsd.MIRCC_DEFAULTS}
               for grid in spec["grid"]]
    assert configs == [config for _, config in rtsd.MIRCC_CONFIGS]
    baseline = {k: v for k, v in spec["grid"][0].items() if k not in rtsd.MIRCC_DEFAULTS}
    assert spec["fixed"] == fig25["fixed"] and baseline == fig25["grid"]
    if not os.access(SIM, os.X_OK):
        pytest.skip(f"{SIM} not built")
    fixed = [f"--{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in spec["fixed"].items()
             if k not in ("StreamTrace", "StreamTime")]
    runs = {}
    for label, config in rtsd.MIRCC_CONFIGS:
        args = [f"--{k}={str(v).lower()}" for k, v in config.items()]
        out = subprocess.run([str(SIM), "rtsd-star", *fixed, "--StreamTime=10", "--Delay=12.5ms", *args], check=True,
                             capture_output=True, text=True, timeout=300)
        runs[label] = flatten(json.loads(out.stdout)["metrics"])
    base, probing, rate = (runs[label] for label, _ in rtsd.MIRCC_CONFIGS)
    for m in (base, probing, rate):
        for key in ("l2_utilization", "stream.first_up_ms", "stream.final_thread_ms", "stream.stalls",
                    "stream.frames_lost", "stream.rates_heard"):
            assert key in m, key
    assert base["stream.rates_heard"] == 0 and "nodes.cp2.shaper_drops" not in base
    assert probing["stream.rates_heard"] > 0 and "nodes.cp2.shaper_drops" in probing
    assert probing["stream.challenges"] >= 1
    assert rate["stream.challenges"] == 0
    assert 0 <= rate["stream.first_up_ms"] < 1000
    assert rate["stream.rate_final_kbps"] == pytest.approx(4000, rel=0.05)  # L2's capacity
    assert 1000 < rate["stream.demand_final_kbps"] < 4000  # the 1000k thread with parity and overhead


def test_recovery_claims_on_real_daemons_judge_the_same_cells():
    """Item 5(c) on real daemons: the same claims, cells and bounds, on recovery-emu.toml's runs."""
    assert len(rtsd.RECOVERY_EMU_CLAIMS) == len(rtsd.RECOVERY_CLAIMS)
    for sim, emu in zip(rtsd.RECOVERY_CLAIMS, rtsd.RECOVERY_EMU_CLAIMS):
        assert (emu.campaign, sim.campaign) == ("recovery-emu", "recovery")
        assert (emu.where, emu.baseline, emu.paper, emu.metric) == (sim.where, sim.baseline, sim.paper, sim.metric)
        assert emu.id != sim.id
    spec = tomllib.loads((ROOT / "experiments" / "rtsd" / "recovery-emu.toml").read_text())
    assert spec["campaign"]["name"] == "rtsd-recovery-emu" and spec["campaign"]["backend"] == "emu"


def test_fig21_fig25_and_table2_on_real_daemons_judge_the_same_cells_on_the_same_runs():
    """Figs. 21, 25 and Table 2 on real daemons: the same claims, cells and tolerances, on
    fig21-emu.toml and fig25-emu.toml, which run the grids and seeds of fig21.toml and fig25.toml."""
    for sims, emus in ((rtsd.FIG21_CLAIMS, rtsd.FIG21_EMU_CLAIMS), (rtsd.FIG25_CLAIMS, rtsd.FIG25_EMU_CLAIMS),
                       (rtsd.TABLE2_CLAIMS, rtsd.TABLE2_EMU_CLAIMS)):
        assert len(sims) == len(emus)
        for sim, emu in zip(sims, emus):
            assert emu.campaign == sim.campaign + "-emu"
            assert (emu.where, emu.baseline, emu.paper, emu.metric, emu.tolerance, emu.kind) == \
                (sim.where, sim.baseline, sim.paper, sim.metric, sim.tolerance, sim.kind)
            assert emu.id != sim.id and emu not in rtsd.CLAIMS
    for name in ("fig21", "fig25"):
        sim = tomllib.loads((ROOT / "experiments" / "rtsd" / f"{name}.toml").read_text())
        emu = tomllib.loads((ROOT / "experiments" / "rtsd" / f"{name}-emu.toml").read_text())
        assert emu["campaign"]["backend"] == "emu" and emu["campaign"]["store"] == "results/store-emu"
        assert emu["campaign"]["name"] == sim["campaign"]["name"] + "-emu"
        assert (emu["fixed"], emu["grid"], emu["campaign"]["seeds"]) == (sim["fixed"], sim["grid"],
                                                                          sim["campaign"]["seeds"])
        assert f"{name}-emu" in (ROOT / "experiments" / "rtsd" / "run").read_text()


def test_rtsd_star_describes_a_traced_player_for_ndnlab_emu():
    """With StreamTrace, the network description marks CP2's player `stream_trace` (ndnlab emu
    runs it with --trace-dir); CP1's player of the reverse stream, and runs without it, not."""
    if not os.access(SIM, os.X_OK):
        pytest.skip(f"{SIM} not built")

    def players(*args):
        out = subprocess.run([str(SIM), "rtsd-star", "--network", *args], check=True, capture_output=True, text=True,
                             timeout=60)
        return [a for a in json.loads(out.stdout)["apps"] if a["tool"] == "stream-play"]

    traced = players("--StreamTrace=true", "--Bidirectional=true")
    assert [(a["node"], a.get("stream_trace", False)) for a in traced] == [("cp2", True), ("cp1", False)]
    assert not any(a.get("stream_trace") for a in players())


def test_startup_claims_on_real_daemons_judge_ndnlabs_configuration():
    """Item 5(b) on real daemons: the claims of chase-at-demand with early playout, on
    startup-emu.toml's runs, which hold that configuration only."""
    ours = [c for c in rtsd.STARTUP_CLAIMS if c.where.get("EarlyPlayout")]
    assert len(rtsd.STARTUP_EMU_CLAIMS) == len(ours) == 2 * len(rtsd.LAMBDA0)
    for sim, emu in zip(ours, rtsd.STARTUP_EMU_CLAIMS):
        assert (emu.campaign, emu.where, emu.paper, emu.metric) == ("startup-emu", sim.where, sim.paper, sim.metric)
    spec = tomllib.loads((ROOT / "experiments" / "rtsd" / "startup-emu.toml").read_text())
    assert spec["campaign"]["backend"] == "emu"
    assert spec["grid"]["ChaseAtDemand"] == [True] and spec["grid"]["EarlyPlayout"] == [True]


def sim_json(*args):
    out = subprocess.run([str(SIM), *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_wifi_one_hop_plays_the_stream_with_and_without_bundling():
    """Item 5(d): the access point publishes the stream, the station plays it to its end, with
    rtsd-star's stream.* keys and the Wi-Fi counters; at BI = 15 the station's link bundles the
    Interests of each frame's runs, so it sends fewer NDN frames for the same frames."""
    if not os.access(SIM, os.X_OK):
        pytest.skip(f"{SIM} not built")
    star = flatten(sim_json("rtsd-star", "--StreamTime=3")["metrics"])
    runs = {}
    for bi in (0, 15):
        result = sim_json("wifi-one-hop", "--App=stream", "--StreamTime=3", "--PayloadSize=1000",
                          "--ParityRatio=0.2", "--Traces=none", f"--BundleInterval={bi}")
        assert result["parameters"]["App"] == "stream"
        runs[bi] = m = flatten(result["metrics"])
        assert m["stream.state"] == "ended"
        assert m["stream.frames_rendered"] > 0
        assert {k for k in star if k.startswith(("stream.", "producer."))} <= set(m)
        for node in ("consumer", "producer"):
            assert m[f"nodes.{node}.phy_tx"] > 0 and m[f"nodes.{node}.tx_frames"] > 0
        assert "completed" not in m  # no fetch ran
    assert runs[0]["bundling.consumer.bundles_out"] == 0
    assert runs[15]["bundling.consumer.bundles_out"] > 0 and runs[15]["bundling.consumer.interests_absorbed"] > 0
    assert runs[15]["bundling.producer.interests_regenerated"] > 0
    assert runs[15]["nodes.consumer.tx_frames"] < runs[0]["nodes.consumer.tx_frames"]


def test_wifi_one_hop_stream_on_real_daemons_and_bad_values():
    """--network describes the stream tools as rtsd-star does (under the access point's
    prefix); a stream knob out of range, or a fetch-only value, is a usage error (exit 2)."""
    if not os.access(SIM, os.X_OK):
        pytest.skip(f"{SIM} not built")
    net = sim_json("wifi-one-hop", "--App=stream", "--BundleInterval=15", "--Fps=25", "--network")
    assert [a["tool"] for a in net["apps"]] == ["stream-publish", "stream-play"]
    assert [a["node"] for a in net["apps"]] == ["producer", "consumer"]
    assert net["apps"][0]["prefix"] == net["apps"][1]["name"] == "/lab/rtc/ap"
    assert net["apps"][0]["args"][net["apps"][0]["args"].index("--fps") + 1] == "25"
    assert net["metrics"] == "rtsd-star" and net["daemon_config"]["face_system.link"]["bundle_interval"] == 15
    fetch = sim_json("wifi-one-hop", "--network")
    assert [a["tool"] for a in fetch["apps"]] != ["stream-publish", "stream-play"] and "metrics" not in fetch
    for args, fragment in ((["--App=video"], "--App"),
                           (["--App=stream", "--Bitrates=200k,200k"], "given twice"),
                           (["--App=stream", "--PayloadSize=8500"], "PayloadSize"),
                           (["--App=stream", "--Fps=0"], "--Fps")):
        out = subprocess.run([str(SIM), "wifi-one-hop", *args], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, (args, out.stderr)
        assert fragment in out.stderr, (args, out.stderr)
