"""experiments/sim-vs-real/verdict.py: how a cell is judged from its stored runs."""
import importlib.util
import json
import math
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def verdict():
    spec = importlib.util.spec_from_file_location("sim_vs_real_verdict",
                                                  ROOT / "experiments/sim-vs-real/verdict.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeStore:
    """run_dir(key) -> a directory whose result.json holds what the emulated run recorded."""

    def __init__(self, tmp_path, saturated=False, cpu=None, scheduling=None):
        self.root = tmp_path
        self.saturated = saturated
        self.cpu = {"mean_busy_percent": 20.0, **(cpu or {})}
        self.scheduling = scheduling

    def run_dir(self, key):
        d = self.root / key
        d.mkdir(exist_ok=True)
        own = {"saturated": self.saturated, "kept_up": True, "cpu": self.cpu}
        if self.scheduling:
            own["scheduling"] = self.scheduling
        (d / "result.json").write_text(json.dumps(own))
        return d


def rows(goodputs, decreases, rtt=100.0, backend="emu"):
    return [{"key": f"{backend}{i}", "goodput_mbps": g, "rtt_avg_ms": rtt, "loss_decreases": d}
            for i, (g, d) in enumerate(zip(goodputs, decreases))]


def test_within_tolerance(verdict, tmp_path):
    v = verdict.judge({"ns3": rows([10, 10, 10], [1, 1, 1], backend="ns3"),
                       "emu": rows([9.5, 9.6, 9.7], [1, 1, 1])}, FakeStore(tmp_path))
    assert v["verdict"] == "within 10 %"
    assert v["difference"] == pytest.approx(-0.04)


def test_a_different_number_of_window_decreases_is_named(verdict, tmp_path):
    v = verdict.judge({"ns3": rows([4.6, 4.6, 4.6], [2, 2, 2], backend="ns3"),
                       "emu": rows([5.2, 5.3, 5.4], [1, 1, 1])}, FakeStore(tmp_path))
    assert v["verdict"].startswith("differs by more than 10 %; window decreases differ")
    assert (v["ns3_decreases_median"], v["emu_decreases_median"]) == (2, 1)


def test_the_same_decreases_and_a_longer_rtt(verdict, tmp_path):
    v = verdict.judge({"ns3": rows([10, 10, 10], [5, 5, 5], rtt=10, backend="ns3"),
                       "emu": rows([8, 8, 8], [5, 5, 5], rtt=12.5)}, FakeStore(tmp_path))
    assert v["verdict"] == "differs by more than 10 %; the RTT accounts for it"


def test_saturated_runs_are_not_judged(verdict, tmp_path):
    v = verdict.judge({"ns3": rows([10], [1], backend="ns3"), "emu": rows([5], [3])},
                      FakeStore(tmp_path, saturated=True))
    assert v["verdict"] == "saturated: not judged"


def test_no_decreases_metric(verdict, tmp_path):
    ns3 = [{"key": "n", "goodput_mbps": 10.0}]
    emu = [{"key": "e", "goodput_mbps": 7.0}]
    v = verdict.judge({"ns3": ns3, "emu": emu}, FakeStore(tmp_path))
    assert v["ns3_decreases_median"] is None
    assert v["verdict"] == "differs by more than 10 %"
    assert math.isnan(v["rtt_difference"])


def test_cpu_wait_per_data_and_the_scheduling_are_reported(verdict, tmp_path):
    emu = [{**r, "data_received": 2000} for r in rows([9.5, 9.6, 9.7], [1, 1, 1])]
    v = verdict.judge({"ns3": rows([10, 10, 10], [1, 1, 1], backend="ns3"), "emu": emu},
                      FakeStore(tmp_path, cpu={"run_queue_wait_s": 0.5}, scheduling={"policy": "rr"}))
    assert v["emu_cpu_wait_ms_per_data"] == pytest.approx(0.25)
    assert v["emu_scheduling"] == ["rr"]
    # runs from before either was recorded: no wait, the normal scheduler
    old = verdict.judge({"ns3": rows([10, 10, 10], [1, 1, 1], backend="ns3"),
                         "emu": rows([9.5, 9.6, 9.7], [1, 1, 1])}, FakeStore(tmp_path))
    assert old["emu_cpu_wait_ms_per_data"] is None and old["emu_scheduling"] == ["normal"]
