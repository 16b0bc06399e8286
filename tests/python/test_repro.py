"""The reproduction harness (ndnlab.repro): two-sided verdicts from per-seed values, and the
claims the experiments declare with it."""
import dataclasses
import json
import math
import os
import pathlib
import subprocess
import sys

import pandas as pd
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from ndnlab import repro  # noqa: E402
from ndnlab.paper import blend, dcib, mircc, rtsd  # noqa: E402


def runs(cells):
    """A DataFrame of runs: cells {(cond value): [per-seed metric]} under parameter Cond."""
    rows = []
    for cond, values in cells.items():
        for seed, v in enumerate(values, 1):
            rows.append({"Cond": cond, "seed": seed, "m": v})
    return pd.DataFrame(rows)


def absolute(paper, tol=0.1, **kw):
    return repro.Claim(id="t", source="Fig. 1", metric="m", definition="d", kind="absolute",
                       paper=paper, tolerance=tol, where={"Cond": "a"}, **kw)


def ratio(paper, tol=0.1, tie=math.nan):
    return repro.Claim(id="t", source="Fig. 1", metric="m", definition="d", kind="ratio",
                       paper=paper, tolerance=tol, where={"Cond": "b"}, baseline={"Cond": "a"}, tie=tie)


def test_inside_ci_is_reproduced_even_beyond_tolerance():
    # median 10, seeds spread 8-13: the paper's 12.5 is 25 % away but inside our interval
    ev = repro.evaluate(absolute(12.5, tol=0.05), runs({"a": [8, 10, 13]}))
    assert ev.median == 10 and ev.ci == (8, 13) and ev.verdict == "reproduced"


def test_within_tolerance_of_median_is_reproduced():
    ev = repro.evaluate(absolute(10.5, tol=0.1), runs({"a": [10, 10, 10]}))
    assert ev.verdict == "reproduced"


def test_above_is_over_reproduced_and_below_under_reproduced():
    assert repro.evaluate(absolute(5.0), runs({"a": [10, 11, 12]})).verdict == "over-reproduced"
    assert repro.evaluate(absolute(50.0), runs({"a": [10, 11, 12]})).verdict == "under-reproduced"


def test_median_not_best_of_n():
    # the median is the value judged, never the best seed
    ev = repro.evaluate(absolute(20.0, tol=0.05), runs({"a": [10, 10.5, 20]}))
    assert ev.median == 10.5
    # with 3 seeds the interval is [min, max] at 75 % coverage and reaches the lucky seed: that
    # is all 3 seeds can say, and the table prints the coverage beside the verdict
    assert ev.ci == (10, 20) and ev.coverage == 0.75 and ev.verdict == "reproduced"
    # with 10 seeds the 95 % interval leaves the lucky seed out
    many = repro.evaluate(absolute(20.0, tol=0.05),
                          runs({"a": [10, 10.1, 10.2, 10.3, 10.4, 10.5, 10.6, 10.7, 10.8, 20]}))
    assert many.ci == (10.1, 10.8) and many.verdict == "under-reproduced"


def test_two_runs_of_one_seed_are_an_error():
    df = pd.DataFrame([{"Cond": "a", "seed": 1, "m": 1.0}, {"Cond": "a", "seed": 1, "m": 2.0}])
    with pytest.raises(ValueError, match="two runs of seed 1"):
        repro.evaluate(absolute(1.0), df)


def test_ratio_is_paired_by_seed():
    df = runs({"a": [1.0, 2.0, 4.0], "b": [1.5, 3.0, 6.0]})
    ev = repro.evaluate(ratio(1.5, tol=0.01), df)
    assert ev.values == [1.5, 1.5, 1.5] and ev.paired and ev.verdict == "reproduced"
    assert repro.evaluate(ratio(3.0), df).verdict == "under-reproduced"
    assert repro.evaluate(ratio(1.1), df).verdict == "over-reproduced"


def test_ratio_miss_is_named_by_the_effect_size():
    """A reduction (x0.5) missed by a deeper cut is a bigger effect, over-reproduced; a shallower
    cut, or a rise, is a smaller one, under-reproduced; a gain keeps above = over."""
    def judged(paper, b):
        return repro.evaluate(ratio(paper, tol=0.05), runs({"a": [10.0] * 3, "b": [b] * 3})).verdict

    assert judged(0.5, 3.0) == "over-reproduced"    # x0.3
    assert judged(0.5, 8.0) == "under-reproduced"   # x0.8
    assert judged(0.5, 13.0) == "under-reproduced"  # x1.3: the other side of x1
    assert judged(1.5, 20.0) == "over-reproduced"   # x2 against a gain of x1.5
    assert judged(1.5, 12.0) == "under-reproduced"
    assert judged(1.5, 8.0) == "under-reproduced"   # x0.8 against a gain
    # the tie is judged first, for a reduction as for a gain
    tie = repro.evaluate(ratio(0.5, tol=0.05, tie=0.02), runs({"a": [10.0] * 3, "b": [10.1] * 3}))
    assert tie.verdict == "tie"


def test_a_level_ratio_is_named_above_or_below():
    """A share of a bound (BLEnD's goodput over the one-Interest bound) is a level, not an
    effect from x1: nearer the bound than the paper is above it, over-reproduced."""
    def judged(b):
        claim = repro.Claim(id="t", source="s", metric="m", definition="d", kind="ratio", paper=0.833,
                            tolerance=0.05, relative=False, level=True, where={"Cond": "b"},
                            baseline={"Cond": "a"})
        return repro.evaluate(claim, runs({"a": [10.0] * 3, "b": [b] * 3})).verdict

    assert judged(9.5) == "over-reproduced"    # x0.95 of the bound against the paper's x0.833
    assert judged(0.1) == "under-reproduced"   # a stalled run
    assert judged(8.5) == "reproduced"


def test_ratio_tie():
    df = runs({"a": [9.94, 9.94, 9.95], "b": [9.94, 9.93, 9.95]})
    # x1.00 against the paper's x1.24: neither the paper's gain nor a loss
    assert repro.evaluate(ratio(1.24, tol=0.25, tie=0.02), df).verdict == "tie"
    # without a tie band the same data are an under-reproduction... or, with a tolerance that
    # reaches x1, a "reproduction": the tie band is what stops that
    assert repro.evaluate(ratio(1.24, tol=0.1), df).verdict == "under-reproduced"
    assert repro.evaluate(ratio(1.24, tol=0.25), df).verdict == "reproduced"
    # a real gain is judged as usual
    gain = runs({"a": [1.0, 1.0, 1.0], "b": [1.2, 1.25, 1.3]})
    assert repro.evaluate(ratio(1.24, tol=0.1, tie=0.02), gain).verdict == "reproduced"


def test_bound():
    above = repro.Claim(id="t", source="s", metric="m", definition="d", kind="bound", paper=0.5,
                        expect="above", where={"Cond": "a"})
    below = repro.Claim(id="t", source="s", metric="m", definition="d", kind="bound", paper=0.5,
                        expect="below", where={"Cond": "a"})
    df = runs({"a": [0.6, 0.7, 0.8]})
    assert repro.evaluate(above, df).verdict == "reproduced"
    assert repro.evaluate(below, df).verdict == "over-reproduced"
    assert repro.evaluate(above, runs({"a": [0.1, 0.2, 0.3]})).verdict == "under-reproduced"


def direction(expect, tol=0.0):
    return repro.Claim(id="t", source="s", metric="m", definition="d", kind="direction",
                       expect=expect, tolerance=tol, relative=False, where={"Cond": "b"},
                       baseline={"Cond": "a"})


def test_direction():
    lower = runs({"a": [0.5, 0.6, 0.7], "b": [0.1, 0.2, 0.3]})
    assert repro.evaluate(direction("lower"), lower).verdict == "direction holds"
    assert repro.evaluate(direction("higher"), lower).verdict == "direction reversed"
    mixed = runs({"a": [0.5, 0.5, 0.5], "b": [0.4, 0.5, 0.6]})
    assert repro.evaluate(direction("lower"), mixed).verdict == "no difference"
    # within the no-difference band
    close = runs({"a": [0.5, 0.5, 0.5], "b": [0.49, 0.49, 0.49]})
    assert repro.evaluate(direction("lower", tol=0.05), close).verdict == "no difference"
    assert repro.evaluate(direction("lower"), close).verdict == "direction holds"


def test_missing_data_is_not_run():
    assert repro.evaluate(absolute(1.0), None).verdict == "not run"
    assert repro.evaluate(absolute(1.0), runs({"z": [1.0]})).verdict == "not run"
    assert repro.evaluate(ratio(1.2), runs({"a": [1.0]})).verdict == "not run"  # no "b" runs
    ev = repro.evaluate(absolute(1.0), pd.DataFrame())
    assert ev.verdict == "not run" and repro.ours_text(ev) == "not run"


def test_ci_is_deterministic_and_order_statistic():
    values = [3.1, 2.9, 3.3, 3.0, 2.8, 3.4, 3.2, 2.7, 3.5, 3.05]
    first = repro.median_ci(values)
    assert all(repro.median_ci(list(reversed(values))) == first for _ in range(5))
    # n = 10: the largest k with coverage >= 95 % is 2 (coverage 1 - 2 * 11/1024 = 0.9785)
    lo, hi, cov = first
    assert (lo, hi) == (2.8, 3.4) and cov == pytest.approx(1 - 2 * 11 / 1024)
    assert repro.median_ci([1.0, 2.0, 3.0]) == (1.0, 3.0, 0.75)
    assert repro.median_ci([5.0]) == (5.0, 5.0, 0.0)
    assert all(math.isnan(x) for x in repro.median_ci([]))


def test_never_reached_is_infinite():
    df = pd.DataFrame([{"Cond": "a", "seed": s, "m": None} for s in (1, 2, 3)])
    ev = repro.evaluate(absolute(2.0), df)
    assert ev.median == math.inf and ev.verdict == "over-reproduced"
    assert repro.ours_text(ev).startswith("never")


def test_table_and_json_say_how_they_were_made():
    evs = repro.evaluate_all([absolute(10.0), ratio(1.5)], {"": runs({"a": [10, 10, 10]})})
    text = repro.table(evs, "experiments/x/run")
    assert text.splitlines()[0] == "<!-- generated by experiments/x/run; do not edit -->"
    assert "| t | " in text and "not run" in text
    data = json.loads(json.dumps(repro.as_json(evs, "experiments/x/run")))
    assert [c["verdict"] for c in data["claims"]] == ["reproduced", "not run"]
    assert data["counts"] == {"reproduced": 1, "not run": 1}


def _judged_twice():
    """Four claims, their Evaluations on runs and the same as JSON data."""
    df = pd.DataFrame([{"Cond": c, "seed": s, "m": v, "n": None}
                       for c, vs in (("a", [10, 11, 12]), ("b", [3, 4, 3])) for s, v in enumerate(vs, 1)])
    never = repro.Claim(id="never", source="s", metric="n", definition="d", kind="absolute", paper=2.0,
                        where={"Cond": "a"})
    claims = [absolute(10.0), dataclasses.replace(ratio(0.5, tol=0.05), id="cut"), never,
              dataclasses.replace(ratio(1.2), id="nr", where={"Cond": "z"})]
    evs = repro.evaluate_all(claims, df)
    return claims, evs, json.loads(json.dumps(repro.as_json(evs, "cmd")))


def test_rejudge_from_json_gives_the_same_table():
    claims, evs, data = _judged_twice()
    again = repro.rejudge_all(claims, data["claims"])
    assert repro.table(again, "cmd") == repro.table(evs, "cmd")
    assert repro.as_json(again, "cmd") == data
    assert [ev.verdict for ev in again] == ["reproduced", "over-reproduced", "over-reproduced", "not run"]
    # the verdict is judged again, not copied: x0.3 against a cut to x0.5, as the old rule named it
    data["claims"][1]["verdict"] = "under-reproduced"
    assert repro.rejudge_all(claims, data["claims"])[1].verdict == "over-reproduced"
    # values taken on another cell than the claim declares are not judged
    with pytest.raises(ValueError, match="judge it from the store"):
        repro.rejudge(claims[0], dict(data["claims"][0], where={"Cond": "b"}))


def test_cli_from_json_names_it_in_the_generated_line(tmp_path):
    claims, _, data = _judged_twice()
    stored, out, js = tmp_path / "stored.json", tmp_path / "v.md", tmp_path / "v.json"
    stored.write_text(json.dumps(data))
    argv = ["--from-json", str(stored), "--out", str(out), "--json", str(js)]
    assert repro.cli(claims, tmp_path, "x/claims.py --out v.md", "T", argv) == 1  # "nr" is not run
    command = f"x/claims.py --out v.md --from-json {stored}"
    assert out.read_text().splitlines()[0] == repro.generated_line(command)
    assert json.loads(js.read_text())["generated_by"] == command


@pytest.mark.parametrize("script, md, data", [
    ("experiments/blend/claims.py", "docs/results/blend-verdicts.md", "docs/results/blend/verdicts.json"),
    ("experiments/dcib/iv-premise/claims.py", "docs/results/dcib-iv-verdicts.md",
     "docs/results/dcib/iv-verdicts.json")])
def test_committed_verdicts_are_their_values_judged_again(script, md, data, tmp_path):
    """The committed verdicts whose stores are not on every machine are what ndnlab.repro judges
    their JSON's per-seed values to be today (after a change of the rule: rerun with --from-json)."""
    out, js = tmp_path / "v.md", tmp_path / "v.json"
    done = subprocess.run([sys.executable, str(ROOT / script), "--from-json", str(ROOT / data), "--out", str(out),
                           "--json", str(js)], env=dict(os.environ, PYTHONPATH=str(ROOT / "python")),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_text().splitlines()[1:] == (ROOT / md).read_text().splitlines()[1:]
    new, old = json.loads(js.read_text()), json.loads((ROOT / data).read_text())
    assert {**new, "generated_by": ""} == {**old, "generated_by": ""}


def test_bad_claims_are_refused():
    with pytest.raises(ValueError):
        repro.Claim(id="t", source="s", metric="m", definition="d", kind="best-of")
    with pytest.raises(ValueError):
        repro.Claim(id="t", source="s", metric="m", definition="d", kind="ratio", paper=2.0)


@pytest.mark.parametrize("module", [mircc, blend, dcib, rtsd])
def test_declared_claims(module):
    claims = module.CLAIMS
    ids = [c.id for c in claims]
    assert len(ids) == len(set(ids)), "claim ids are unique"
    for c in claims:
        assert c.definition and c.source and c.campaign
    # without a store every claim is "not run", and the table still renders
    evs = repro.evaluate_all(claims, lambda campaign: None)
    assert {ev.verdict for ev in evs} == {"not run"}
    assert sum(line.endswith("| not run |") for line in repro.table(evs, "test").splitlines()) == len(claims)


def test_dcib_tie_at_the_link_rate():
    """IV-B Reno at 1 BDP: with and without the paper's DCIB at the link rate is a tie, and a
    beyond-the-paper variant in the same store is not mistaken for the paper's DCIB."""
    claim = next(c for c in dcib.CLAIMS if c.id == "iv-b-reno")
    rows = []
    for seed in range(1, 9):
        rows.append({"Dcib": False, "Tcp": "reno", "BufferBdp": 1.0, "seed": seed, "goodput_gbps": 9.941})
        rows.append({"Dcib": True, "Tcp": "reno", "BufferBdp": 1.0, "Mode": "stalled", "seed": seed,
                     "goodput_gbps": 9.936})
        rows.append({"Dcib": True, "Tcp": "reno", "BufferBdp": 1.0, "Mode": "stalled", "seed": seed,
                     "InterceptDupAcks": True, "AdaptiveRatio": True, "goodput_gbps": 30.0})
        rows.append({"Dcib": False, "Tcp": "reno", "BufferBdp": 0.25, "seed": seed, "goodput_gbps": 1.0})
    ev = repro.evaluate(claim, pd.DataFrame(rows))
    assert len(ev.values) == 8 and ev.median == pytest.approx(9.936 / 9.941)
    assert ev.verdict == "tie"


def test_blend_gain_claim_on_its_cells():
    claim = next(c for c in blend.CLAIMS if c.id == "fig7-80211b-aimd-gain-b")
    rows = []
    for seed in (1, 2, 3):
        for bi, g in ((0, 4.02), (15, 6.47)):
            rows.append({"Standard": "80211b", "Consumer": "aimd", "Addressing": "broadcast",
                         "BundleInterval": bi, "seed": seed, "goodput_mbps": g})
        rows.append({"Standard": "80211b", "Consumer": "one-interest", "Addressing": "broadcast",
                     "BundleInterval": None, "seed": seed, "goodput_mbps": 6.81})
    ev = repro.evaluate(claim, pd.DataFrame(rows))
    # +61 % against the paper's +32.57 %: no longer "met", an over-reproduction
    assert ev.verdict == "over-reproduced"


def test_dcib_premise_claims_are_judged_two_sided():
    """Figs. 2-4 (experiments/dcib/premise): each claim names a spec of that directory, and a
    window-limited 47 % of the link is the abstract's "only 40%" (within 10 points) but above the
    introduction's "less than 40%"; the full link is over-reproduced."""
    claims = dcib.PREMISE_CLAIMS
    assert len({c.id for c in claims}) == len(claims)
    specs = ROOT / "experiments" / "dcib" / "premise"
    assert all((specs / f"{c.campaign}.toml").exists() for c in claims)
    rows = [{"Tcp": "cubic", "LossRate": 0.0, "seed": s, "dci_utilization": 0.47 + s / 1000} for s in (1, 2, 3)]
    rows += [{"Tcp": "cubic", "LossRate": 0.03, "seed": s, "dci_utilization": 0.001} for s in (1, 2, 3)]
    df = pd.DataFrame(rows)
    verdicts = {c.id: repro.evaluate(c, df).verdict for c in claims if c.campaign == "loss" and "cubic" in c.id}
    assert verdicts == {"premise-40-linux-cubic": "reproduced", "premise-below40-linux-cubic": "over-reproduced",
                        "premise-fig4-cubic": "direction holds"}
    full = pd.DataFrame([{"Tcp": "newreno", **dcib.LARGE_HOSTS, "seed": s, "dci_utilization": 0.9999}
                         for s in (1, 2)])
    claim = next(c for c in claims if c.id == "premise-40-2-bdp-newreno")
    assert repro.evaluate(claim, full).verdict == "over-reproduced"


def test_dcib_iv_premise_claims_pair_the_paper_with_one_variant():
    """Section IV on the premise's hosts (experiments/dcib/iv-premise): every paper claim is judged
    for the paper's DCIB and for +I on the same baseline, in a spec of that directory; the two
    cells and the 1500-byte twin are told apart in one store, and a tie at the link rate is a tie."""
    specs = ROOT / "experiments" / "dcib" / "iv-premise"
    pairs = dcib.IV_PREMISE_CLAIMS
    ids = [c.id for pair in pairs for c in pair]
    assert len(ids) == len(set(ids))
    for a, i in pairs:
        assert (specs / f"{a.campaign}.toml").exists() and a.campaign == i.campaign
        assert a.baseline == i.baseline and a.paper == i.paper and a.tie == i.tie == 0.02
        assert i.where == {**a.where, **dcib.IV_PREMISE_VARIANT}
    a, i = next(p for p in pairs if p[0].id == "iv-b-reno-a")
    rows = []
    for seed in range(1, 9):
        base = {"Tcp": "reno", "SocketBuffer": 3.0, "Mtu": 9000, "BufferBdp": 1.0, "DupAckThreshold": 3,
                "seed": seed}
        rows.append({**base, "Dcib": False, "dci_utilization": 0.9999})
        rows.append({**base, "Dcib": True, "Mode": "stalled", "dci_utilization": 0.9998})
        rows.append({**base, "Dcib": True, "Mode": "stalled", "InterceptDupAcks": True, "dci_utilization": 0.5})
        rows.append({**base, "Mtu": 1500, "Dcib": False, "dci_utilization": 0.1})
    df = pd.DataFrame(rows)
    ev_a, ev_i = repro.evaluate(a, df), repro.evaluate(i, df)
    assert (ev_a.verdict, len(ev_a.values)) == ("tie", 8)
    assert ev_i.verdict == "under-reproduced" and ev_i.median == pytest.approx(0.5 / 0.9999)
    text = repro.side_by_side([("iv-b-reno", "IV-B", [ev_a, ev_i])], ("A", "+I"), "cmd", seeds=8)
    assert text.startswith("<!-- generated by cmd; do not edit -->")
    row = next(line for line in text.splitlines() if line.startswith("| iv-b-reno |"))
    assert row.endswith("| 0.9999 | x0.9999 [x0.9999-x0.9999], n=8 | [0.9999, 0.9999] (99%) | tie | "
                        "x0.5001 [x0.5001-x0.5001], n=8 | [0.5001, 0.5001] (99%) | under-reproduced |")
    assert "- A: **1 tie** of 1 claims." in text and "unfinished" not in text
    short = repro.side_by_side([("iv-b-reno", "IV-B", [ev_a, ev_i])], ("A", "+I"), "cmd", seeds=9)
    assert short.count("(n < 9: unfinished)") == 2


def test_node_sum_adds_each_seeds_value_over_the_nodes_that_report_it():
    df = pd.DataFrame([
        {"Cond": "on", "seed": 1, "nodes.a.k": 2, "nodes.b.k": 3},
        {"Cond": "on", "seed": 2, "nodes.a.k": 5, "nodes.b.k": None},
        {"Cond": "off", "seed": 1, "nodes.a.k": 100, "nodes.b.k": 100},
    ])
    # seed 2 lacks b's value: a missing value is +inf in per_seed, so its sum is +inf
    assert repro.node_sum(df, {"Cond": "on"}, ["a", "b"], "k") == {1: 5, 2: math.inf}
    assert repro.node_sum(df, {"Cond": "on"}, ["a", "b", "c"], "k") == {1: 5, 2: math.inf}
    assert repro.node_sum(df, {"Cond": "on"}, ["a", "b"], "other") == {}
