"""`ndnlab emu`: scenarios of `ndnlab sim` on real daemons in network namespaces (issue 27).

A three-node chain fetched bit-exact with a lossy ns-3 real-time link, its loss visible in the
daemons' counters and the same result keys as the simulated run; a real-time stream played
over rtsd-star (the same keys and trace files as the simulated run); rtsd-scale's two tests, R1 dying by
isolation in the failover test; a chain pinged across, losing
the same frames as the simulator (paired loss draws); `ndnlab perf` across a link; a chain over
TCP faces and over Ethernet faces; a tbf link's rate respected; wifi-one-hop
over ns-3's 802.11b in real time with BLEnD bundling, both Addressing modes, and a stream
played through it; pcaps of every link
end with --pcap, none without; nothing left behind after success, SIGINT or a killed daemon;
exit 2 without privileges."""
import json
import os
import pathlib
import re
import signal
import struct
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from ndnlab.emu import net as emunet  # noqa: E402

BUILD = pathlib.Path(os.environ.get("NDNLAB_BUILD", ROOT / "build"))
SIM = BUILD / "ns3" / "runner" / "ndnlab-sim"

pytestmark = pytest.mark.skipif(not emunet.check_privileges()[0],
                                reason=f"ndnlab emu: {emunet.check_privileges()[1]}")


def emu_cmd(*args):
    return [sys.executable, "-m", "ndnlab.emu.run", *map(str, args)]


def env():
    e = dict(os.environ, NDNLAB_BUILD=str(BUILD))
    e["PYTHONPATH"] = str(ROOT / "python") + os.pathsep + e.get("PYTHONPATH", "")
    return e


def emu(*args, timeout=120, calibrate=False):
    """`ndnlab emu ARGS`; without `calibrate`, --no-link-calibration (a second or two per link rate
    and delay that tests of other behaviour need not spend; test_a_chain_pings_across_with_its_
    delay_and_loss checks the calibrated default)."""
    flags = () if calibrate or "--no-link-calibration" in args else ("--no-link-calibration",)
    return subprocess.run(emu_cmd(*args, *flags), capture_output=True, text=True, timeout=timeout, env=env())


def left_behind(tag, run_dir):
    """Namespaces, owner file and processes of run `tag` that still exist."""
    found = [p.name for p in emunet.NETNS_DIR.glob(f"ndnlab-{tag}-*")]
    if (emunet.OWNER_DIR / tag).exists():
        found.append(str(emunet.OWNER_DIR / tag))
    for proc in pathlib.Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(run_dir) in cmdline or f"ndnlab-{tag}-" in cmdline:
            found.append(f"pid {proc.name}: {cmdline}")
    return found


def test_chain_is_bit_exact_counts_its_loss_and_has_the_simulators_keys(tmp_path):
    params = ["p2p-chain", "--Hops=2", "--Rate=20Mbps", "--Delay=2ms", "--Loss=0,0.02",
              "--FileSize=1MiB", "--Consumer=cubic"]
    r = emu(*params, "--out", tmp_path / "emu", "--json", "--quiet", "--no-link-calibration")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result == json.loads((tmp_path / "emu" / "result.json").read_text())
    # the real-time scheduler where permitted, and what the processes spent on and waiting for a CPU
    rt_ok, _ = emunet.realtime_scheduling(10)
    assert result["scheduling"]["policy"] == ("rr" if rt_ok else "normal")
    assert result["cpu"]["processes_cpu_s"] > 0 and result["cpu"]["run_queue_wait_s"] >= 0
    m = result["metrics"]
    assert result["backend"] == "emu"
    assert m["completed"] and m["bit_exact"] and m["bytes"] == 1 << 20
    assert [lk["mechanism"] for lk in result["links"]] == ["ns3-realtime", "ns3-realtime"]
    # the 2 % link n1-n2 lost frames both ways, counted where they were lost; n0-n1 lost none
    assert m["nodes"]["n1"]["loss_drops"] > 0 and m["nodes"]["n2"]["loss_drops"] > 0
    assert m["nodes"]["n0"]["loss_drops"] == 0
    assert m["nodes"]["n2"]["data_out"] >= m["segments"]
    # and in the daemons' own face counters: Data n2 sent that n1 never received
    assert m["nodes"]["n2"]["data_out"] > m["nodes"]["n1"]["data_in"]
    assert m["nodes"]["n1"]["interests_out"] > m["nodes"]["n2"]["interests_in"]
    assert m["retransmissions"] > 0
    # replications are ns-3 runs (disjoint substreams) of one seed, each link on its own streams
    configs = [json.loads(f.read_text())["config"]
               for f in sorted((tmp_path / "emu").glob("link*.json"))]
    assert [(c["seed"], c["run"]) for c in configs] == [(1, result["seed"])] * 2
    assert len({c["stream"] for c in configs}) == 2
    # not calibrated when told not to: each channel holds a frame the whole 2 ms
    assert result["link_calibration"] is False
    assert [lk["latency_offset_s"] for lk in result["links"]] == [0, 0]
    assert [c["channel_delay_ns"] for c in configs] == [2_000_000] * 2
    # the same keys as the simulated run of the same parameters
    sim = subprocess.run([SIM, *params, "--Traces=none"], capture_output=True, text=True,
                         timeout=120)
    assert sim.returncode == 0, sim.stderr
    s = json.loads(sim.stdout)["metrics"]
    assert set(m) == set(s)
    assert set(m["nodes"]) == set(s["nodes"])
    assert all(set(m["nodes"][n]) == set(s["nodes"][n]) for n in s["nodes"])
    sim_params = json.loads(sim.stdout)["parameters"]
    assert result["parameters"] == {**sim_params, "Traces": result["parameters"]["Traces"]}
    # nothing captured unless asked
    assert not list((tmp_path / "emu").glob("*.pcap"))
    assert all("pcap" not in lk for lk in result["links"])


def test_stack_overrides_reach_the_daemons_and_simulator_only_ones_are_recorded(tmp_path):
    # --ns3::ndnlab::NdnStack::LpReliability is face_system.link.reliability of every daemon;
    # ReceiveDelay models the real daemons' timing in ns-3 and has no daemon key
    import tomllib
    delay = "--ns3::ndnlab::NetDeviceTransport::ReceiveDelay=ns3::ConstantRandomVariable[Constant=0]"
    params = ["p2p-chain", "--Hops=1", "--Rate=20Mbps", "--Delay=2ms", "--Loss=0.05",
              "--FileSize=256KiB", "--ns3::ndnlab::NdnStack::LpReliability=true"]
    r = emu(*params, delay, "--out", tmp_path / "emu", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    m = result["metrics"]
    assert m["completed"] and m["bit_exact"]
    assert result["simulator_only"] == [delay]
    for node in ("n0", "n1"):
        config = tomllib.loads((tmp_path / "emu" / f"{node}.toml").read_text())
        assert config["face_system"]["link"]["reliability"] is True
    # the daemons report the link layer's counters under the simulated run's keys; a 5 % link
    # made both ends send frames again
    sim = subprocess.run([SIM, *params, "--Traces=none"], capture_output=True, text=True, timeout=120)
    assert sim.returncode == 0, sim.stderr
    s = json.loads(sim.stdout)["metrics"]
    for node in ("n0", "n1"):
        assert set(m["nodes"][node]) == set(s["nodes"][node])
        assert m["nodes"][node]["lp_retx_frames"] > 0
        assert m["nodes"][node]["lp_acks_out"] > 0


def test_a_chain_pings_across_with_its_delay_and_loss(tmp_path):
    # n0 pings n2 over two 5 ms ns-3 links, the second losing 30 % of the frames each way;
    # calibrated (the default): both links (one rate and delay, measured once) take the link process's own
    # time per frame off the simulated 5 ms, never more than all of it
    params = ["p2p-chain", "--Hops=2", "--Rate=20Mbps", "--Delay=5ms", "--Loss=0,0.3", "--App=ping",
              "--PingCount=20", "--PingInterval=50", "--PingTimeout=500", "--StartTime=0.2"]
    result = emu_json(tmp_path / "emu", *params, calibrate=True)  # the default: calibrated
    m = result["metrics"]
    assert [lk["mechanism"] for lk in result["links"]] == ["ns3-realtime", "ns3-realtime"]
    assert result["link_calibration"] is True
    offsets = [lk["latency_offset_s"] for lk in result["links"]]
    assert offsets[0] == offsets[1] and 0 <= offsets[0] <= 5e-3
    assert result["links"][0]["calibration"]["echoes"] >= 10
    configs = [json.loads(f.read_text())["config"] for f in sorted((tmp_path / "emu").glob("link*.json"))]
    assert [c["delay_ns"] - c["channel_delay_ns"] for c in configs] == \
        [round(o * 1e9) for o in offsets] == [c["latency_offset_ns"] for c in configs]
    assert m["pings_sent"] == 20
    assert 0 < m["pings_received"] < 20
    assert m["pings_timed_out"] == 20 - m["pings_received"]
    assert m["loss_percent"] == pytest.approx(100 * m["pings_timed_out"] / 20)
    assert m["rtt_min_ms"] >= 4 * (5 - 1e3 * offsets[0])  # four crossings per round trip
    # the pings were lost where the link lost frames
    assert m["nodes"]["n1"]["loss_drops"] + m["nodes"]["n2"]["loss_drops"] > 0
    assert m["nodes"]["n0"]["loss_drops"] == 0
    s = sim_metrics(params)
    assert s["rtt_min_ms"] >= 20 and 0 < s["pings_received"] < 20
    assert_same_keys(m, s, nested=("nodes",))
    # paired: the emulated link draws from the simulated link's streams and carries only NDN
    # frames (no ARP, no IPv6), so the same frames are lost in both backends
    assert {n: v["loss_drops"] for n, v in m["nodes"].items()} == \
        {n: v["loss_drops"] for n, v in s["nodes"].items()}
    assert m["pings_received"] == s["pings_received"]


def test_perf_measures_an_emulated_link_with_the_simulators_keys(tmp_path):
    # `ndnlab perf` paced above a 20 Mbit/s ns-3 link: what does not fit is lost and counted
    params = ["p2p-chain", "--Hops=1", "--Rate=20Mbps", "--Delay=1ms", "--App=perf", "--PerfTime=2",
              "--PerfLength=1000", "--PerfBitRate=30e6"]
    r = emu(*params, "--out", tmp_path / "emu", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    m = json.loads(r.stdout)["metrics"]
    assert m["completed"] and m["mode"] == "paced"
    assert m["retransmissions"] == 0
    assert m["lost_percent"] > 20  # at least 1 - 20/30 of the Interests, less the headers
    assert 0 < m["goodput_mbps"] < 20
    assert len(m["intervals_mbps"]) == 2
    assert m["cpu_host_percent"] is not None  # real processes have CPU figures
    # the client's own iperf3 JSON, kept in the run's directory
    report = json.loads(next((tmp_path / "emu").glob("perf-client-*.json")).read_text())
    assert report["end"]["sum_received"]["bytes"] == m["bytes"]
    assert_same_keys(m, sim_metrics(params), nested=("nodes",))


def played_stream(tmp_path, params):
    """The metrics of an emulated run of `params` whose player played the stream to its end and
    rendered frames."""
    r = emu(*params, "--out", tmp_path / "emu", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    m = json.loads(r.stdout)["metrics"]
    assert m["stream"]["state"] == "ended", m["stream"]
    assert m["stream"]["frames_rendered"] > 0
    return m


def test_rtsd_star_plays_a_stream_on_real_daemons_with_the_simulators_keys(tmp_path):
    # NDN-RTC's star (Fig. 20): CP1 publishes 3 s of a synthetic 500 kbit/s stream, CP2 plays it
    # through R over two ns-3 real-time links, one of them lossy; the player writes the
    # simulated consumer's trace files (StreamTrace)
    params = ["rtsd-star", "--Rate=10Mbps", "--Delay=5ms", "--Loss=0,0.01", "--Bitrates=500k",
              "--StreamTime=3", "--ConsumerStart=0.5", "--MaxTime=30", "--StreamTrace=true"]
    m = played_stream(tmp_path, params)
    s = m["stream"]
    assert s["frames_rendered"] + s["frames_lost"] <= m["producer"]["frames"]
    assert m["producer"]["frames"] == 90  # 3 s at 30 frames/s, then the end marker
    assert m["producer"]["data_sent"] > 0
    assert 0 < m["l2_utilization"] < 1
    sim_dir = tmp_path / "sim"
    sim = subprocess.run([SIM, *params, "--Traces=none", "--out", sim_dir], capture_output=True, text=True,
                         timeout=120)
    assert sim.returncode == 0, sim.stderr
    sim = json.loads((sim_dir / "result.json").read_text())
    assert_same_keys(m, sim["metrics"], nested=("nodes",))
    assert set(s) == set(sim["metrics"]["stream"]) and set(m["producer"]) == set(sim["metrics"]["producer"])
    assert sim["metrics"]["stream"]["state"] == "ended"
    result = json.loads((tmp_path / "emu" / "result.json").read_text())
    assert result["traces"] == ["stream-arrivals.csv", "stream-series.csv"] == sorted(sim["traces"])
    for name in result["traces"]:
        emu_lines = (tmp_path / "emu" / name).read_text().splitlines()
        assert emu_lines[0] == (sim_dir / name).read_text().splitlines()[0], name  # the same columns
        assert len(emu_lines) > 1, name
    series = [line.split(",") for line in (tmp_path / "emu" / "stream-series.csv").read_text().splitlines()[1:]]
    assert [float(r[0]) for r in series] == list(range(1, len(series) + 1))
    # link_kbps: the frames CP2's end of L2 received, headers included: more than their payload
    assert sum(float(r[5]) for r in series) > sum(float(r[3]) for r in series) > 0


def test_wifi_one_hop_plays_a_stream_through_bundling_daemons_with_the_simulators_keys(tmp_path):
    # issue 29 item 5(d) on real daemons: the access point's daemon serves 3 s of a 500 kbit/s
    # stream the station's daemon plays over the emulated 802.11b radio, BLEnD at BI 15
    params = ["wifi-one-hop", "--App=stream", "--Standard=80211b", "--BundleInterval=15", "--Bitrates=500k",
              "--StreamTime=3", "--ConsumerStart=0.5", "--MaxTime=30"]
    m = played_stream(tmp_path, params)
    assert m["producer"]["frames"] == 90
    # the player's Interests reached the station's daemon tagged: it bundled them
    assert m["bundling"]["consumer"]["bundles_out"] > 0 and m["bundling"]["producer"]["interests_regenerated"] > 0
    sim = sim_metrics(params)
    assert_same_keys(m, sim)
    assert set(m["stream"]) == set(sim["stream"]) and set(m["producer"]) == set(sim["producer"])


@pytest.mark.parametrize("test", ["consumers", "failover"])
def test_rtsd_scale_runs_both_tests_on_real_daemons_with_the_simulators_keys(tmp_path, test):
    # NDN-RTC's Fig. 18, shortened: 11 s of a 500 kbit/s stream; C2 arrives, or R1 dies, at 5 s
    params = ["rtsd-scale", f"--Test={test}", "--Delay=5ms", "--Bitrates=500k", "--StreamTime=11",
              "--ConsumerStart=0.5", "--SecondStart=5", "--FailTime=5", "--MaxTime=40"]
    r = emu(*params, "--out", tmp_path / "emu", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    m = result["metrics"]
    players = ("stream", "stream2") if test == "consumers" else ("stream",)
    for key in players:
        assert m[key]["state"] == "ended", (key, m[key])
        assert m[key]["frames_rendered"] > 0
    sim = sim_metrics(params)
    assert_same_keys(m, sim, nested=("nodes", "faces"))
    for key in players:
        assert set(m[key]) == set(sim[key])
    if test == "failover":
        assert [(e["node"], e["action"]) for e in result["events"]] == [("r1", "isolate")]
        # R1 sends nothing once isolated (from the second after the event); R2 carries the stream
        assert m["faces"]["r1"]["after_mbps"] == 0 and not any(m["faces"]["r1"]["mbps"][6:])
        assert m["faces"]["r2"]["after_mbps"] > 0.3


def test_mircc_dumbbell_runs_on_real_daemons_with_the_simulators_keys(tmp_path):
    # the paper's dumbbell shortened: C1 from 0.5 to 4 s, C2 from 1.5 to 3.5 s; MIRCC on every
    # face of six daemons, 50 and 100 ms links from ns-3 in real time, get --cc mircc consumers
    params = ["mircc-dumbbell", "--RateConsumer=get", "--C1Start=0.5", "--C1Stop=4", "--C2Start=1.5",
              "--C2Stop=3.5"]
    r = emu(*params, "--out", tmp_path / "emu", "--json", "--quiet", timeout=180)
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    m = result["metrics"]
    assert {lk["mechanism"] for lk in result["links"]} == {"ns3-realtime"}
    for flow in ("C1", "C2"):
        f = m["flows"][flow]
        assert f["exit_code"] == 130, f  # stopped at its stop time, as planned
        assert f["data_received"] > 0 and f["interests_sent"] >= f["data_received"]
        assert 0 <= f["loss_rate"] < 1
        assert f["rate_pps_shared"] > 0
    assert m["nodes"]["R1"]["interests_out"] > 0
    assert (tmp_path / "emu" / "mircc-series.csv").read_text().startswith("time_s,flow,")
    sim = subprocess.run([SIM, *params, "--Traces=none"], capture_output=True, text=True, timeout=120)
    assert sim.returncode == 0, sim.stderr
    s = json.loads(sim.stdout)["metrics"]
    assert set(m) == set(s)
    assert set(m["flows"]["C1"]) - {"exit_code"} == set(s["flows"]["C1"])
    assert set(m["nodes"]) == set(s["nodes"])


def emu_json(out, *params, calibrate=False):
    """result.json of `ndnlab emu PARAMS --out OUT`, which must exit 0."""
    r = emu(*params, "--out", out, "--json", "--quiet", calibrate=calibrate)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def sim_metrics(params):
    sim = subprocess.run([SIM, *params, "--Traces=none"], capture_output=True, text=True, timeout=120)
    assert sim.returncode == 0, sim.stderr
    return json.loads(sim.stdout)["metrics"]


def assert_same_keys(emu_metrics, sim_metrics, nested=("nodes", "bundling")):
    assert set(emu_metrics) == set(sim_metrics)
    for group in nested:
        assert set(emu_metrics[group]) == set(sim_metrics[group])
        for name in sim_metrics[group]:
            assert set(emu_metrics[group][name]) == set(sim_metrics[group][name]), (group, name)


@pytest.mark.parametrize("addressing", ["broadcast", "unicast"])
def test_wifi_one_hop_fetches_bit_exact_over_80211b_with_bundling(tmp_path, addressing):
    params = ["wifi-one-hop", "--Standard=80211b", f"--Addressing={addressing}", "--BundleInterval=8",
              "--FileSize=300KiB", "--StartTime=0.2"]
    result = emu_json(tmp_path / "emu", *params)
    m = result["metrics"]
    assert m["completed"] and m["bit_exact"] and m["bytes"] == 300 << 10
    [link] = result["links"]
    assert link["mechanism"] == "ns3-wifi" and link["standard"] == "11b"
    assert m["data_mode"] == link["data_mode"] == "DsssRate11Mbps"
    stats = json.loads(next((tmp_path / "emu").glob("link0-*.json")).read_text())
    assert stats["config"]["link"] == "wifi" and stats["associated_s"] is not None
    # the run's seed is the radio's ns-3 run number, its streams the scenario's own
    assert (stats["config"]["seed"], stats["config"]["run"], stats["config"]["stream"]) == (1, 1, 2_000_000)
    # the kernels' frames crossed the simulated radio both ways
    assert stats["a_to_b"]["frames_out"] > 0 and stats["b_to_a"]["frames_out"] >= m["segments"]
    # BLEnD: the consumer's daemon sent bundles standing for several Interests each, the
    # producer's daemon regenerated them
    consumer, producer = m["bundling"]["consumer"], m["bundling"]["producer"]
    assert consumer["bundles_out"] > 0 and consumer["interests_absorbed"] > 0
    assert producer["bundles_in"] > 0 and producer["interests_regenerated"] > 0
    assert m["nodes"]["producer"]["interests_in"] > producer["bundles_in"]
    # every counter has a number, the recovery bundles too (from the daemons' face status)
    assert all(isinstance(v, int) for side in (consumer, producer) for v in side.values())
    # Addressing: unicast Data are acknowledged by the station (one ACK per Data frame at
    # least); broadcast Data are group-addressed frames that nobody acknowledges
    station_acks = m["nodes"]["consumer"]["phy_tx_ctl"]
    if addressing == "unicast":
        assert station_acks >= m["segments"]
    else:
        assert station_acks < m["segments"] // 10
        assert stats["b_to_a"]["retries"] == 0
    assert_same_keys(m, sim_metrics(params))


def test_wifi_chain_fetches_bit_exact_over_two_ad_hoc_hops(tmp_path):
    # consumer - relay - producer on one 802.11b ad hoc channel, the ends hidden from each
    # other (Range 30 m, 20 m apart): every segment crosses the relay, BLEnD bundles per hop
    params = ["wifi-chain", "--Standard=80211b", "--BundleInterval=4", "--FileSize=100KiB", "--StartTime=0.2"]
    result = emu_json(tmp_path / "emu", *params)
    m = result["metrics"]
    assert m["completed"] and m["bit_exact"] and m["bytes"] == 100 << 10
    [link] = result["links"]
    assert (link["mechanism"], link["kind"]) == ("ns3-wifi", "wifi-adhoc")
    assert link["nodes"] == ["consumer", "relay", "producer"] and link["positions_m"] == [0, 20, 40]
    assert m["data_mode"] == link["data_mode"] == "DsssRate11Mbps"
    stats = json.loads(next((tmp_path / "emu").glob("link0-*.json")).read_text())
    assert stats["config"]["link"] == "wifi-adhoc" and stats["config"]["range_m"] == 30
    assert (stats["config"]["seed"], stats["config"]["run"], stats["config"]["stream"]) == (1, 1, 2_000_000)
    consumer, relay, producer = (link["ports"][n] for n in ("consumer", "relay", "producer"))
    # the relay carried the transfer both ways: it took every Data from the producer's hop
    # and sent each on to the consumer
    assert relay["frames_in"] >= m["segments"] and relay["frames_out"] >= m["segments"]
    assert producer["frames_in"] >= m["segments"] and consumer["frames_out"] >= m["segments"]
    # the ends send unicast frames to the relay, which ACKs each (the producer's Data too);
    # the relay's face is ad hoc, as in the simulator: it broadcasts, so nothing it sends is
    # retried and the consumer ACKs nothing
    assert m["nodes"]["relay"]["phy_tx_ctl"] >= m["segments"] and relay["retries"] == 0
    assert m["nodes"]["consumer"]["phy_tx_ctl"] < m["segments"] // 10
    # per hop BLEnD: the consumer's daemon bundles, the relay's regenerates and bundles again
    bundling = {n: m["nodes"][n]["bundling"] for n in ("consumer", "relay", "producer")}
    assert bundling["consumer"]["bundles_out"] > 0 and bundling["relay"]["interests_regenerated"] > 0
    assert bundling["relay"]["bundles_out"] > 0 and bundling["producer"]["bundles_in"] > 0
    sim = sim_metrics(params)
    assert_same_keys(m, sim, nested=("nodes",))
    for n in ("consumer", "relay", "producer"):
        assert set(m["nodes"][n]["bundling"]) == set(sim["nodes"][n]["bundling"])


def test_wifi_hidden_completes_both_fetches_with_the_simulators_keys(tmp_path):
    # B fetches from A and C from D, B and C hidden from each other; group-addressed frames
    params = ["wifi-hidden", "--Standard=80211b", "--FileSize=40KiB", "--StartTime=0.2"]
    result = emu_json(tmp_path / "emu", *params)
    m = result["metrics"]
    assert m["completed"] and m["bit_exact"]
    assert {f: m["flows"][f]["bytes"] for f in m["flows"]} == {"b_from_a": 40 << 10, "c_from_d": 40 << 10}
    assert 0.5 <= m["fairness"] <= 1.0
    [link] = result["links"]
    assert link["nodes"] == ["b", "a", "d", "c"] and link["addressing"] == "broadcast"
    sim = sim_metrics(params)
    assert_same_keys(m, sim, nested=("nodes", "flows"))


def test_emu_link_refuses_bad_ports_and_options_with_exit_2():
    prog = BUILD / "ns3" / "emu" / "ndnlab-emu-link"
    for argv, fragment in [
        (["--link", "wifi-adhoc", "--ns", "x", "--dev", "t0", "--positions", "0"], "2..64 ports"),
        (["--link", "wifi-adhoc", "--ns", "x", "--dev", "t0", "--ns", "y", "--dev", "t1", "--positions", "0"],
         "1 positions for 2 ports"),
        (["--link", "wifi-adhoc", "--dev", "t0"], "before any --ns"),
        (["--link", "wifi-adhoc", "--ns", "x", "--dev", "t0", "--ns", "x", "--dev", "t0", "--positions", "0,1"],
         "two ports name"),
        (["--link", "wifi-adhoc", "--ns", "x", "--dev", "t0", "--ns", "y", "--dev", "t1", "--positions", "0,1",
          "--distance", "5"], "--distance is not an option of --link wifi-adhoc"),
        (["--ns-a", "x", "--dev-a", "t0", "--ns-b", "y", "--dev-b", "t1", "--ns", "z"],
         "--ns is not an option of --link p2p"),
        (["--link", "wifi-adhoc", "--ns", "x", "--dev", "t0", "--ns", "y", "--dev", "t1", "--positions", "0,1",
          "--data-mode", "HtMcs3"], "not a mode of --standard 11b"),
        (["--ns-a", "x", "--dev-a", "t0", "--ns-b", "y", "--dev-b", "t1", "--latency-offset", "-1us"],
         "must not be negative"),
        (["--link", "wifi", "--ns-a", "x", "--dev-a", "t0", "--ns-b", "y", "--dev-b", "t1",
          "--latency-offset", "1us"], "--latency-offset is not an option of --link wifi"),
    ]:
        r = subprocess.run([prog, *argv], capture_output=True, text=True, timeout=30)
        assert r.returncode == 2, (argv, r.stderr)
        assert fragment in r.stderr, (argv, r.stderr)


def pcap_frames(path):
    """(link type, [frame bytes]) of a classic pcap file, read as its format says: a 24-byte
    header (magic in the writer's byte order), then per frame a 16-byte record header (seconds,
    microseconds, captured length, original length) and the captured bytes."""
    data = path.read_bytes()
    assert len(data) >= 24, path
    order = "<" if struct.unpack("<I", data[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    assert struct.unpack(order + "I", data[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D), path
    linktype = struct.unpack(order + "I", data[20:24])[0]
    frames, offset = [], 24
    while offset < len(data):
        _, _, captured, original = struct.unpack(order + "IIII", data[offset:offset + 16])
        assert captured <= original
        frames.append(data[offset + 16:offset + 16 + captured])
        offset += 16 + captured
    assert offset == len(data), f"{path}: truncated record"
    return linktype, frames


def tcp_payload_bytes(frame):
    """The TCP payload bytes of an Ethernet/IPv4 frame to or from port 6363 (0 otherwise)."""
    if len(frame) < 14 + 20 + 20 or frame[12:14] != b"\x08\x00" or frame[23] != 6:
        return 0
    ihl = (frame[14] & 0x0F) * 4
    total = struct.unpack(">H", frame[16:18])[0]
    tcp = 14 + ihl
    if 6363 not in struct.unpack(">HH", frame[tcp:tcp + 4]):
        return 0
    return total - ihl - (frame[tcp + 12] >> 4) * 4


def ndn_frames(frames):
    """The Ethernet frames carrying NDN over UDP port 6363: IPv4, UDP, a payload starting with
    the TLV type of an Interest (5), a Data (6) or an NDNLPv2 LpPacket (100)."""
    found = []
    for f in frames:
        if len(f) < 14 + 20 + 8 + 1 or f[12:14] != b"\x08\x00" or f[23] != 17:
            continue
        udp = 14 + (f[14] & 0x0F) * 4
        ports = struct.unpack(">HH", f[udp:udp + 4])
        if 6363 in ports and len(f) > udp + 8 and f[udp + 8] in (5, 6, 100):
            found.append(f)
    return found


def test_pcap_captures_every_link_end(tmp_path):
    # a tbf link (tcpdump in each namespace) and an ns-3 link (ns-3's own pcap)
    r = emu("p2p-chain", "--Hops=2", "--Rate=20Mbps", "--Delay=0ms,2ms", "--FileSize=200KiB",
            "--StartTime=0.2", "--pcap", "--out", tmp_path / "emu", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    m = result["metrics"]
    assert m["completed"] and m["bit_exact"]
    links = result["links"]
    assert [(lk["mechanism"], lk["pcap_by"]) for lk in links] == [("tbf", "tcpdump"), ("ns3-realtime", "ns-3")]
    listed = {name for lk in links for name in lk["pcap"].values()}
    assert listed == {p.name for p in (tmp_path / "emu").glob("*.pcap")}
    assert sorted(listed) == ["link0-n0-n1.n0.pcap", "link0-n0-n1.n1.pcap",
                              "link1-n1-n2.n1.pcap", "link1-n1-n2.n2.pcap"]
    assert links[0]["pcap_kernel_drops"] == {"n0": 0, "n1": 0}
    for lk in links:
        for node, name in lk["pcap"].items():
            linktype, frames = pcap_frames(tmp_path / "emu" / name)
            assert linktype == 1, name  # Ethernet
            # every end carried each segment's Data (one frame or more) and its Interests
            assert len(ndn_frames(frames)) > m["segments"], name


def test_pcap_without_tcpdump_for_a_veth_link_exits_2(tmp_path):
    (tmp_path / "bin").mkdir()
    e = dict(env(), PATH=str(tmp_path / "bin"))  # no tcpdump there
    r = subprocess.run(emu_cmd("p2p-chain", "--Hops=1", "--Delay=0ms", "--pcap", "--out", tmp_path / "out"),
                       capture_output=True, text=True, timeout=60, env=e)
    assert r.returncode == 2, r.stderr
    assert "tcpdump" in r.stderr
    assert not (tmp_path / "out").exists()


def test_a_tbf_link_carries_its_rate(tmp_path):
    r = emu("p2p-chain", "--Hops=1", "--Rate=20Mbps", "--Delay=0ms", "--FileSize=4MiB",
            "--Consumer=fixed", "--FixedWindow=32", "--out", tmp_path, "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert [lk["mechanism"] for lk in result["links"]] == ["tbf"]
    m = result["metrics"]
    assert m["completed"] and m["bit_exact"]
    producer = m["nodes"]["n1"]
    # what tbf counts: IP bytes plus each frame's Ethernet header, over the transfer
    wire_bps = (producer["tx_bytes"] + emunet.ETH_HEADER * producer["tx_frames"]) * 8 / m["transfer_time_s"]
    assert wire_bps == pytest.approx(20e6, rel=0.05)


def test_tcp_faces_carry_a_chain_bit_exact(tmp_path):
    # --faces tcp: one connection per link, from the node that routes over it
    r = emu("p2p-chain", "--Hops=2", "--Rate=50Mbps", "--Delay=0ms", "--FileSize=2MiB", "--faces", "tcp",
            "--pcap", "--out", tmp_path, "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result["faces"] == "tcp"
    m = result["metrics"]
    assert m["completed"] and m["bit_exact"]
    # the forwarder in the middle took the Interests in and the Data back over its TCP faces
    assert m["nodes"]["n1"]["interests_in"] >= m["segments"]
    assert m["nodes"]["n1"]["data_out"] >= m["segments"]
    # and on the wire: TCP to and from port 6363 on both links, no NDN over UDP
    for lk in result["links"]:
        _, frames = pcap_frames(tmp_path / lk["pcap"][lk["a"]])
        assert not ndn_frames(frames)
        assert sum(tcp_payload_bytes(f) for f in frames) > 2 << 20


def test_ethernet_faces_carry_a_chain_bit_exact(tmp_path):
    # --faces ether: NDN straight on the links, over a tbf link and a lossy ns-3 link
    r = emu("p2p-chain", "--Hops=2", "--Rate=50Mbps", "--Delay=0ms,1ms", "--Loss=0,0.01", "--FileSize=2MiB",
            "--faces", "ether", "--pcap", "--out", tmp_path, "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result["faces"] == "ether"
    m = result["metrics"]
    assert m["completed"] and m["bit_exact"]
    assert m["nodes"]["n1"]["interests_in"] >= m["segments"]
    assert m["nodes"]["n2"]["loss_drops"] + m["nodes"]["n1"]["loss_drops"] > 0
    for lk in result["links"]:
        _, frames = pcap_frames(tmp_path / lk["pcap"][lk["a"]])
        ndn = [f for f in frames if f[12:14] == b"\x86\x24"]  # NDN's EtherType
        assert len(ndn) > m["segments"]
        assert not ndn_frames(frames)  # no NDN over UDP


def test_link_mode_impair_takes_delay_and_loss_from_the_daemons(tmp_path):
    r = emu("p2p-chain", "--Hops=2", "--Rate=20Mbps", "--Delay=5ms", "--Loss=0.01",
            "--FileSize=1MiB", "--link-mode", "impair", "--out", tmp_path, "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    m = result["metrics"]
    assert [lk["mechanism"] for lk in result["links"]] == ["impair", "impair"]
    assert m["completed"] and m["bit_exact"]
    assert m["rtt_min_ms"] >= 20  # 5 ms at each daemon's egress, four crossings per round trip
    assert m["retransmissions"] > 0  # 1 % at each egress


def start_long_run(tmp_path):
    """A fetch that lasts minutes; returns (process, tag) once its consumer runs."""
    proc = subprocess.Popen(emu_cmd("p2p-chain", "--Hops=2", "--Rate=2Mbps", "--Delay=1ms",
                                    "--FileSize=100MiB", "--StartTime=0", "--out", tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    seen = ""
    while not (m := re.search(r"run ([0-9a-f]+),", line := proc.stderr.readline())):  # after calibration's
        seen += line
        assert line, seen + proc.stderr.read()
    tag = m[1]
    deadline = time.monotonic() + 30
    while not list(tmp_path.glob("get-*.log")):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.1)
    time.sleep(1)
    return proc, tag


def test_sigint_stops_the_run_and_leaves_nothing(tmp_path):
    proc, tag = start_long_run(tmp_path)
    assert [p.name for p in emunet.NETNS_DIR.glob(f"ndnlab-{tag}-*")]
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 128 + signal.SIGINT
    assert left_behind(tag, tmp_path) == []
    assert not (tmp_path / "result.json").exists()


def test_a_killed_daemon_fails_the_run_and_leaves_nothing(tmp_path):
    proc, tag = start_long_run(tmp_path)
    config = str(tmp_path.resolve() / "n1.toml")
    victims = [int(p.name) for p in pathlib.Path("/proc").glob("[0-9]*")
               if config in (p / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")]
    assert len(victims) == 1
    os.kill(victims[0], signal.SIGKILL)
    assert proc.wait(timeout=60) == 1
    err = proc.stderr.read()
    assert "ndnlabd on n1 exited" in err, err
    assert left_behind(tag, tmp_path) == []


def test_without_privileges_it_exits_2_before_touching_anything(tmp_path):
    owners = set(emunet.OWNER_DIR.glob("*")) if emunet.OWNER_DIR.exists() else set()
    spaces = set(emunet.NETNS_DIR.glob("ndnlab-*"))
    cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *emu_cmd(
        "p2p-chain", "--out", tmp_path / "out")]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env(), cwd="/")
    assert r.returncode == 2, r.stderr
    assert "needs root" in r.stderr
    assert not (tmp_path / "out").exists()
    assert set(emunet.NETNS_DIR.glob("ndnlab-*")) == spaces
    assert (set(emunet.OWNER_DIR.glob("*")) if emunet.OWNER_DIR.exists() else set()) == owners


@pytest.mark.parametrize("args, fragment", [
    (["no-such-scenario"], "unknown scenario"),
    (["dcib-no-loss"], "no network description"),
    (["wifi-chain", "--link-mode", "tbf"], "802.11"),
    (["wifi-hidden", "--DataMode=HtMcs3"], "--DataMode=HtMcs3"),
    (["wifi-one-hop", "--DataMode=HtMcs3"], "--DataMode=HtMcs3"),  # an 802.11n mode on 802.11b
    (["wifi-one-hop", "--Standard=80211g"], "--Standard"),
    (["wifi-one-hop", "--Pcap=true"], "--Pcap"),
    (["wifi-one-hop", "--link-mode", "tbf"], "802.11"),
    (["p2p-chain", "--Consumer=one-interest", "--Hops=1"], "one-interest"),
    (["p2p-chain", "--Rate=fast"], "--Rate"),
    (["p2p-chain", "--Rate=1Gbps", "--Delay=5ms"], "beyond what ndnlab-emu-link emulates"),
    (["p2p-chain", "stray"], "unexpected argument"),
    (["p2p-chain", "--Delay=5ms,1ms", "--link-mode", "impair"], "every link needs the same delay"),
    (["p2p-chain", "--Delay=5ms", "--link-mode", "tbf"], "which tbf cannot give"),
    (["p2p-chain", "--Delay=5ms", "--link-mode", "impair", "--faces", "tcp"], "UDP faces only"),
    (["p2p-chain", "--faces", "quic"], "--faces"),
    (["wifi-one-hop", "--faces", "ether"], "802.11"),
])
def test_bad_arguments_exit_2(tmp_path, args, fragment):
    r = emu(*args, "--out", tmp_path / "out")
    assert r.returncode == 2, r.stderr
    assert fragment in r.stderr
    assert not (tmp_path / "out").exists()
