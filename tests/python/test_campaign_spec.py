"""Unit tests of the ndnlab Python package without Dask: campaign specs, run keys, the result
store, statistics and the paper reference values."""

import json
import math
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from ndnlab import metrics, paper  # noqa: E402
from ndnlab.spec import (MAX_RUNS, MAX_SEEDS, Run, SpecError, check_parameters,  # noqa: E402
                         load_spec, parse_spec)
from ndnlab.store import ResultStore, StoreError  # noqa: E402


def write_spec(tmp_path, text, name="spec.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


BASIC = """
[campaign]
name = "basic"
scenario = "wifi-one-hop"
store = "out/store"
seeds = 3
timeout = 30

[fixed]
FileSize = 1000000
Verbose = true

[grid]
Standard = ["802.11b", "802.11n"]
Consumer = ["aimd", "cubic", "one-interest"]
"""


def test_grid_is_the_cartesian_product_with_seeds_fastest(tmp_path):
    spec = load_spec(write_spec(tmp_path, BASIC))
    assert spec.name == "basic" and spec.scenario == "wifi-one-hop"
    assert spec.store == (tmp_path / "out" / "store").resolve()
    assert spec.seeds == [1, 2, 3] and spec.timeout == 30.0
    points = spec.grid_points()
    assert len(points) == 6
    assert points[0] == {"Standard": "802.11b", "Consumer": "aimd", "FileSize": 1000000,
                         "Verbose": True}
    assert [p["Consumer"] for p in points[:3]] == ["aimd", "cubic", "one-interest"]
    runs = spec.runs()
    assert len(runs) == 18
    assert [r.seed for r in runs[:4]] == [1, 2, 3, 1]
    assert spec.varying_params() == ["Standard", "Consumer"]


def test_command_line_of_a_run():
    run = Run("p2p-chain", {"Hops": 3, "Loss": 0.01, "Pcap": False, "Cc": "aimd"}, 7)
    assert run.command("/bin/sim", "/s/runs/k") == [
        "/bin/sim", "p2p-chain", "--Hops=3", "--Loss=0.01", "--Pcap=false", "--Cc=aimd",
        "--seed=7", "--out=/s/runs/k"]
    assert run.label() == "Hops=3 Loss=0.01 Pcap=false Cc=aimd seed=7"


def test_seed_as_run_makes_the_seeds_ns3_run_numbers(tmp_path):
    spec = load_spec(write_spec(tmp_path, '[campaign]\nscenario = "s"\nseeds = 2\n'
                                          'seed_as = "run"\n'))
    ns3, emu = spec.runs()[1], spec.runs("emu")[1]
    assert ns3.command("/bin/sim", "/o") == ["/bin/sim", "s", "--run=2", "--out=/o"]
    # ndnlab emu takes its --seed as the run number of its links' losses itself
    assert emu.command(["emu"], "/o") == ["emu", "s", "--seed=2", "--out=/o"]
    # a new input: its own keys, and those of seed_as = "seed" stay what they were
    assert ns3.key("v1") != Run("s", {}, 2).key("v1")
    assert Run("s", {}, 2, seed_as="seed").key("v1") == Run("s", {}, 2).key("v1")
    assert load_spec(write_spec(tmp_path, '[campaign]\nscenario = "s"\n')).seed_as == "seed"


def test_run_key_is_stable_and_covers_every_input():
    run = Run("wifi-one-hop", {"Standard": "802.11b", "FileSize": 1000}, 1)
    # Stores written earlier must stay valid: the key of a fixed input never changes.
    assert run.key("ndnlab-sim 0.1.0") == "37914c1e7e403311"
    assert run.key("v1") == Run("wifi-one-hop", {"FileSize": 1000, "Standard": "802.11b"},
                                1).key("v1")
    others = {Run("wifi-one-hop", {"Standard": "802.11b", "FileSize": 1000}, 2).key("v1"),
              Run("wifi-one-hop", {"Standard": "802.11n", "FileSize": 1000}, 1).key("v1"),
              Run("p2p-chain", {"Standard": "802.11b", "FileSize": 1000}, 1).key("v1"),
              run.key("v2")}
    assert run.key("v1") not in others and len(others) == 4


def test_several_grids_are_joined_without_repeats(tmp_path):
    spec = load_spec(write_spec(tmp_path, """
[campaign]
scenario = "wifi-one-hop"
seeds = [5, 9]
[fixed]
Standard = "802.11b"
[[grid]]
Consumer = ["aimd", "cubic"]
Bi = [0, 15]
[[grid]]
Consumer = ["aimd"]
Bi = [15, 30]
"""))
    assert spec.name == "spec" and spec.seeds == [5, 9]
    points = [(p["Consumer"], p["Bi"]) for p in spec.grid_points()]
    assert points == [("aimd", 0), ("aimd", 15), ("cubic", 0), ("cubic", 15), ("aimd", 30)]
    assert len(spec.runs()) == 10


def test_a_spec_without_grid_is_one_point(tmp_path):
    spec = load_spec(write_spec(tmp_path, '[campaign]\nscenario = "s"\n[fixed]\nA = 1\n'))
    assert spec.grid_points() == [{"A": 1}] and len(spec.runs()) == 1


@pytest.mark.parametrize("text, message", [
    ('[fixed]\nA = 1\n', "missing [campaign]"),
    ('[campaign]\nname = "x"\n', "campaign.scenario"),
    ('[campaign]\nscenario = "s"\nseed = 3\n', "unknown key(s) seed"),
    ('[campaign]\nscenario = "s"\nseeds = 0\n', "at least 1"),
    ('[campaign]\nscenario = "s"\nseeds = [1, 1]\n', "repeated seed"),
    ('[campaign]\nscenario = "s"\nseeds = [0]\n', "ns-3 rejects seed 0"),
    ('[campaign]\nscenario = "s"\ntimeout = -1\n', "campaign.timeout"),
    ('[campaign]\nscenario = "s"\nseed_as = "stream"\n', "campaign.seed_as"),
    ('[campaign]\nscenario = "s"\nseed_as = "run"\n[fixed]\nrun = 2\n', "may not be a parameter"),
    ('[campaign]\nscenario = "s"\n[grid]\nA = 1\n', "expected a list"),
    ('[campaign]\nscenario = "s"\n[grid]\nA = []\n', "empty list"),
    ('[campaign]\nscenario = "s"\n[grid]\nA = [1, 1]\n', "repeated value"),
    ('[campaign]\nscenario = "s"\n[grid]\nA = [[1]]\n', "expected a string, number"),
    ('[campaign]\nscenario = "s"\n[fixed]\nA = 1\n[grid]\nA = [2]\n', "also set in [fixed]"),
    ('[campaign]\nscenario = "s"\n[fixed]\nseed = 1\n', "reserved"),
    ('[campaign]\nscenario = "s"\n[fixed]\n"bad name" = 1\n', "not a valid parameter name"),
    ('[campaign]\nscenario = "s"\n[extra]\n', "unknown key(s) extra"),
    ('[campaign]\nscenario = "s"\n[paper]\nexperiment = 3\n', "paper.experiment"),
    ('[campaign\n', "invalid TOML"),
    ('[campaign]\nscenario = "s"\ntimeout = nan\n', "campaign.timeout"),
    ('[campaign]\nscenario = "s"\ntimeout = inf\n', "campaign.timeout"),
    ('[campaign]\nscenario = "s"\ntimeout = -inf\n', "campaign.timeout"),
    ('[campaign]\nscenario = "s"\nname = "../../ESCAPED"\n', "is not a safe name"),
    ('[campaign]\nscenario = "s"\nname = ".."\n', "is not a safe name"),
    ('[campaign]\nscenario = "s"\nname = "a/b"\n', "is not a safe name"),
    ('[campaign]\nscenario = "s"\nseeds = 100000000\n', f"at most {MAX_SEEDS} seeds"),
    ('[campaign]\nscenario = "s"\nseeds = [4294944443]\n', "integer from 1 to 4294944442"),
    (f'[campaign]\nscenario = "s"\nseeds = 10\n[grid]\nA = {list(range(100))}\n'
     f'B = {list(range(101))}\n', f"= 101000 runs; at most {MAX_RUNS} runs"),
])
def test_bad_specs_are_rejected_with_the_field(tmp_path, text, message):
    path = write_spec(tmp_path, text)
    with pytest.raises(SpecError) as e:
        load_spec(path)
    assert message in str(e.value)
    assert str(path) in str(e.value)


def test_missing_spec_file(tmp_path):
    with pytest.raises(SpecError, match="no such file"):
        load_spec(tmp_path / "nope.toml")


def test_spec_that_is_not_utf8_is_a_spec_error(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'[campaign]\nscenario = "s"\ndescription = "caf\xe9"\n')
    with pytest.raises(SpecError, match=r"not UTF-8 text \(byte 0xe9 at offset 44\)"):
        load_spec(path)


def test_unsafe_file_name_needs_an_explicit_name(tmp_path):
    path = write_spec(tmp_path, '[campaign]\nscenario = "s"\n', name="my spec.toml")
    with pytest.raises(SpecError, match=r"campaign.name \(the file name\): 'my spec'"):
        load_spec(path)
    path.write_text('[campaign]\nscenario = "s"\nname = "my-spec_2.0"\n')
    assert load_spec(path).name == "my-spec_2.0"


DESCRIBE = [  # the shape of `ndnlab-sim --describe`
    {"name": "wifi-one-hop", "description": "", "parameters": [
        {"name": n, "type": "string", "default": "", "choices": [], "unit": "", "doc": ""}
        for n in ("Standard", "Consumer", "FileSize")]},
    {"name": "p2p-chain", "description": "", "parameters": []},
]


def test_scenario_and_parameters_are_checked_against_the_simulator(tmp_path):
    ok = load_spec(write_spec(tmp_path, BASIC.replace("Verbose = true", '"ns3::WifiMac::Ssid" = '
                                                      '"x"\nrun = 2')))
    check_parameters(ok, DESCRIBE, "sim")  # ns-3 overrides and --run go to the runner itself
    typo = load_spec(write_spec(tmp_path, BASIC.replace("wifi-one-hop", "wifi-onehop")))
    with pytest.raises(SpecError) as e:
        check_parameters(typo, DESCRIBE, "sim")
    assert "campaign.scenario: sim has no scenario 'wifi-onehop'; did you mean wifi-one-hop?" \
        in str(e.value)
    assert "scenarios: wifi-one-hop, p2p-chain" in str(e.value)
    unknown = load_spec(write_spec(tmp_path, BASIC.replace("Standard", "Standrd")))
    with pytest.raises(SpecError) as e:
        check_parameters(unknown, DESCRIBE, "sim")
    assert str(e.value) == (
        f"{tmp_path / 'spec.toml'}: not parameters of scenario wifi-one-hop: fixed.Verbose "
        "(no close match); grid.Standrd (did you mean Standard?); `sim wifi-one-hop --help` "
        "lists them")


def test_paper_mapping_is_read(tmp_path):
    spec = parse_spec({"campaign": {"scenario": "s"},
                       "paper": {"experiment": "blend-fig1", "params": {"standard": "Phy"},
                                 "values": {"802.11b": "b"}, "metrics": {"goodput_mbps": "gp"}}},
                      tmp_path / "x.toml")
    assert spec.paper.experiment == "blend-fig1"
    assert spec.paper.params == {"standard": "Phy"} and spec.paper.metrics == {"goodput_mbps": "gp"}


# --- result store ---

def record(key, status="ok", seed=1, params=None, version="v1", goodput=1.0):
    result = {"scenario": "s", "parameters": {"Extra": 1, **(params or {"A": 1})}, "seed": seed,
              "metrics": {"goodput_mbps": goodput, "counters": {"tx": 5}, "delays": [1, 2]},
              "event_count": 99} if status == "ok" else None
    return {"key": key, "campaign": "c", "scenario": "s", "params": params or {"A": 1},
            "seed": seed, "sim_version": version, "status": status, "exit_code": 0,
            "wall_time_s": 0.1, "finished": "2026-01-01T00:00:00", "error": None,
            "result": result}


def test_store_keeps_the_latest_attempt_and_flattens_metrics(tmp_path):
    store = ResultStore(tmp_path / "store")
    store.append(record("k1", status="failed"))
    assert store.done_keys() == set()
    store.append(record("k1", goodput=2.0))
    store.append(record("k2", seed=2, goodput=4.0))
    assert store.done_keys() == {"k1", "k2"}
    assert json.loads((store.run_dir("k1") / "run.json").read_text())["status"] == "ok"
    # result.json is written from the record when the worker's filesystem was not ours
    assert json.loads((store.run_dir("k2") / "result.json").read_text())["seed"] == 2
    df = store.load()
    assert len(df) == 2
    assert sorted(df["goodput_mbps"]) == [2.0, 4.0]
    assert list(df["counters.tx"]) == [5, 5] and list(df["delays"]) == [[1, 2], [1, 2]]
    assert list(df["event_count"]) == [99, 99]
    assert set(df.attrs["params"]) == {"Extra", "A"}
    assert set(df.attrs["metrics"]) == {"goodput_mbps", "counters.tx", "delays"}


def test_store_prefers_an_ok_record_of_the_same_run_under_another_version(tmp_path):
    store = ResultStore(tmp_path)
    store.append(record("old", version="v1", goodput=1.0))
    store.append(record("new", version="v2", status="failed"))
    df = store.load()
    assert list(df["key"]) == ["old"]
    assert set(store.load(include_failed=True)["key"]) == {"old"}
    store.append(record("new", version="v2", goodput=3.0))
    assert list(store.load()["goodput_mbps"]) == [3.0]


def test_store_skips_a_torn_index_line_and_rebuilds_a_lost_index(tmp_path, capsys):
    store = ResultStore(tmp_path)
    store.append(record("k1"))
    with open(store.index_path, "a") as f:
        f.write('{"key": "k2", "stat')
    assert len(store.load()) == 1
    assert "unreadable line" in capsys.readouterr().err
    store.index_path.unlink()
    assert store.done_keys() == {"k1"}
    assert store.index_path.exists()


def test_store_lock_is_exclusive(tmp_path):
    store = ResultStore(tmp_path)
    with store.lock():
        with pytest.raises(StoreError, match="another campaign"):
            with ResultStore(tmp_path).lock():
                pass
    with store.lock():
        pass


# --- statistics ---

def test_confidence_interval_uses_student_t():
    # half-width = t(0.975, n - 1) * s / sqrt(n); t from printed tables: 4.303 (df 2), 2.021
    # (df 40), 1.960 (df -> infinity)
    mean, half = metrics.mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert half == pytest.approx(4.303 * 1.0 / math.sqrt(3), rel=1e-4)
    alternating = [0.0, 2.0] * 20 + [1.0]  # n = 41, mean 1, s = 1
    assert metrics.mean_ci(alternating)[1] == pytest.approx(2.021 / math.sqrt(41), rel=1e-3)
    many = [0.0, 2.0] * 50_000
    assert metrics.mean_ci(many)[1] * math.sqrt(len(many)) / metrics.stddev(many) == \
        pytest.approx(1.960, rel=1e-3)
    assert metrics.mean_ci([5.0]) == (5.0, 0.0)
    assert metrics.mean_ci([4.0, None, float("nan"), 6.0])[0] == 5.0  # finite values only
    assert all(math.isnan(v) for v in metrics.mean_ci([]))
    assert metrics.stddev([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2.138, abs=1e-3)


def test_summaries_and_helpers():
    import pandas as pd

    df = pd.DataFrame({"A": ["x", "x", "y"], "m": [1.0, 3.0, 10.0]})
    s = metrics.summarize(df, ["A"], ["m"])
    assert list(s["A"]) == ["x", "y"] and list(s["mean"]) == [2.0, 10.0]
    assert list(s["n"]) == [2, 1]
    xs, fs = metrics.ecdf([3, 1, 2, float("nan")])
    assert xs == [1.0, 2.0, 3.0] and fs == pytest.approx([1 / 3, 2 / 3, 1.0])
    assert metrics.percentile([1, 2, 3, 4], 50) == 2.5
    assert metrics.relative_diff(4.4, 4.0) == pytest.approx(0.1)
    assert math.isnan(metrics.relative_diff(1.0, 0))
    assert metrics.jain_index([1, 1, 1]) == pytest.approx(1.0)
    assert metrics.jain_index([1, 0]) == pytest.approx(0.5)
    assert metrics.goodput_mbps(1_000_000, 8.0) == 1.0


# --- paper values ---

def test_blend_fig1_values_and_citation():
    exp = paper.get_experiment("blend-fig1")
    assert "BLEnD" in exp.citation
    values = {(r.where["standard"], r.where["consumer"]): r.value for r in exp.references}
    assert values[("802.11b", "one-interest")] == 7.0
    assert values[("802.11n", "one-interest")] == 18.6
    assert values[("802.11b", ("aimd", "cubic"))] == 4.4
    assert values[("802.11n", ("aimd", "cubic"))] == 9.7
    fig9 = paper.get_experiment("blend-fig9")
    cubic4 = {r.metric: r.value for r in fig9.references
              if r.where["consumer"] == "cubic" and r.where["rto_k"] == 4}
    assert cubic4 == {"rtx": 2567, "app_sent": 74388, "p_sent": 74388, "c_rcv": 72315,
                      "goodput_mbps": 13.1}
    with pytest.raises(KeyError, match="known: .*blend-fig1"):
        paper.get_experiment("nope")


def test_dcib_factors_and_citation():
    exp = paper.get_experiment("dcib")
    assert "Selective Dropping" in exp.citation and exp.references == ()
    gains = {(c.where["tcp"], c.where.get("wan_loss"), c.source): round(1 + c.value_pct / 100, 6)
             for c in exp.comparisons if c.metric == "goodput_gbps"}
    assert gains == {("reno", "cooperative", "IV-A, Fig. 10"): 6.0,
                     ("cubic", "cooperative", "IV-A, Fig. 10"): 4.5,
                     ("reno", "non-cooperative", "IV-A, Fig. 10"): 4.0,
                     ("cubic", "non-cooperative", "IV-A, Fig. 10"): 3.24,
                     ("reno", None, "IV-B, Fig. 11a"): 1.24,
                     ("cubic", None, "IV-B, Fig. 11b"): 3.6,
                     ("bbr", None, "IV-B, Fig. 11c"): 2.4,
                     ("cubic", None, "IV-C, Fig. 12a"): 5.0,
                     ("bbr", None, "IV-C, Fig. 12b"): 7.0}
    fct = {c.where["tcp"]: c.value_pct for c in exp.comparisons if c.metric == "fct_mean_ms"}
    assert fct == {"reno": -67, "cubic": -85, "bbr": -88}
    # every comparison is DCIB against the same conditions without it, in our parameter names
    coop = paper.get_experiment("dcib-iv-a").comparisons[0]
    assert paper.matches(coop.where, {"Dcib": True, "Tcp": "reno", "WanLoss": "cooperative"},
                         exp)
    assert paper.matches(coop.baseline, {"Dcib": False, "Tcp": "reno", "WanLoss": "cooperative"},
                         exp)
    assert not paper.matches(coop.where, {"Dcib": True, "Tcp": "reno",
                                          "WanLoss": "non-cooperative"}, exp)


def test_paper_conditions_match_our_names():
    exp = paper.get_experiment("blend-fig1")
    one = next(r for r in exp.references if r.value == 7.0)
    aimd = next(r for r in exp.references if r.value == 4.4)
    ours = {"Standard": "80211b", "Consumer": "OneInterest", "Addressing": "broadcast"}
    assert paper.matches(one.where, ours, exp)
    assert not paper.matches(aimd.where, ours, exp)
    # bi is not a parameter here: the experiment's default (0, no bundling) applies
    assert paper.matches(aimd.where, {"Standard": "802.11b", "Consumer": "cubic"}, exp)
    assert not paper.matches(aimd.where, {"Standard": "802.11b", "Consumer": "cubic", "Bi": 15},
                             exp)
    # explicit mapping of names and values
    mine = {"Phy": "b", "App": "push"}
    assert not paper.matches(one.where, mine, exp)
    assert paper.matches(one.where, mine, exp, {"standard": "Phy", "consumer": "App"},
                         {"802.11b": "b", "one-interest": "push"})
    assert paper.resolve_name("goodput_mbps", ["GoodputMbps"], {}) == "GoodputMbps"
    assert paper.resolve_name("goodput_mbps", ["x", "gp"], {"goodput_mbps": "gp"}) == "gp"


def test_paired_comparison_counts_pairs_and_tests_the_mean_difference():
    base = {1: 10.0, 2: 10.0, 3: 10.0, 4: 10.0, 5: 10.0, 9: 3.0}
    better = {1: 11.0, 2: 12.0, 3: 10.5, 4: 13.0, 5: 11.0, 7: 99.0}  # seeds 7 and 9 unpaired
    r = metrics.paired_comparison(base, better)
    assert (r["n"], r["wins"]) == (5, 5)
    assert r["p"] == pytest.approx(1 / 32)  # only the observed sign pattern is as large
    assert r["mean_ratio"] == pytest.approx(57.5 / 50)
    assert r["median_ratio"] == pytest.approx(1.1)
    # the other way round nothing is significant: every pattern is at least as large
    assert metrics.paired_comparison(better, base)["p"] == pytest.approx(1.0)
    # equal runs: no wins, and no evidence either way
    same = metrics.paired_comparison(base, dict(base))
    assert same["wins"] == 0 and same["p"] == pytest.approx(1.0)
    assert metrics.paired_comparison({}, better)["n"] == 0
    # one pair has two sign patterns: +d and -d
    assert metrics.paired_comparison({1: 1.0}, {1: 2.0})["p"] == 0.5
    assert metrics.paired_comparison({1: 2.0}, {1: 1.0})["p"] == 1.0


def test_paired_comparison_counts_decimal_ties_as_ties():
    # differences +0.3, -0.1, -0.2: mean 0 in decimal, 3.7e-17 in binary. Sign patterns with a
    # sum >= 0: +++ (0, the tie), ++- (0.4), +-+ (0.2), +-- (0.6) and --- (0, a tie again):
    # 5 of 8. Without a tie tolerance on the scale of the differences it would be 4 of 8.
    r = metrics.paired_comparison({1: 1.0, 2: 1.0, 3: 1.0}, {1: 1.3, 2: 0.9, 3: 0.8})
    assert r["p"] == 5 / 8


def test_paired_comparison_beyond_16_pairs_samples_reproducibly():
    base = {s: 10.0 for s in range(40)}
    noisy = {s: 10.0 + (0.5 if s % 2 else -0.4) for s in range(40)}  # mean +0.05, 20 wins
    a = metrics.paired_comparison(base, noisy, resamples=20_000)
    b = metrics.paired_comparison(base, noisy, resamples=20_000)
    assert a == b and a["wins"] == 20
    assert 0.2 < a["p"] < 0.6  # a small mean gain within the spread
    shifted = {s: v + 1.0 for s, v in noisy.items()}
    assert metrics.paired_comparison(base, shifted, resamples=20_000)["p"] < 0.001
