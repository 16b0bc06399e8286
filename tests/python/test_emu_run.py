"""ndnlab.emu.run's metric aggregation, on made-up flows (no namespaces, no programs)."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))

from ndnlab.emu.run import hidden_metrics  # noqa: E402


def flow(goodput, completion, start, end, completed=True, **counters):
    return {"goodput_mbps": goodput, "completion_time_s": completion if completed else None,
            "completed": completed, "bit_exact": completed, "bytes": 1_000_000, "_start": start,
            "_end": end, "retransmissions": counters.get("retx", 0), "timeouts": 1, "interests_sent": 700,
            "data_received": 690}


NETWORK = {"apps": [{"node": "a", "role": "producer"},
                    {"node": "b", "role": "consumer", "flow": "b_from_a", "start_s": 1.0},
                    {"node": "d", "role": "producer"},
                    {"node": "c", "role": "consumer", "flow": "c_from_d", "start_s": 1.5}]}


def test_hidden_metrics_are_the_simulated_runs_aggregate():
    # B from 1.0 s for 2 s, C (StartDelayC 0.5 s) from 1.5 s for 4 s: the later one ends at
    # 5.5 s, 4.5 s after B's start
    m = hidden_metrics(NETWORK, {"b_from_a": flow(4.0, 2.0, 1.0, 3.0, retx=3),
                                 "c_from_d": flow(2.0, 4.0, 1.5, 5.5, retx=5)})
    assert m["completion_time_s"] == pytest.approx(4.5)
    assert m["goodput_mbps"] == pytest.approx(2 * 8e6 / 4.5 / 1e6)  # both files over 1.0 .. 5.5 s
    assert m["goodput_sum_mbps"] == 6.0 and m["goodput_min_mbps"] == 2.0
    assert m["fairness"] == pytest.approx(36 / (2 * 20))  # Jain's index of 4 and 2
    assert (m["retransmissions"], m["timeouts"], m["interests_sent"]) == (8, 2, 1400)
    assert m["completed"] and m["bit_exact"]
    assert set(m["flows"]) == {"b_from_a", "c_from_d"}
    assert "_start" not in m["flows"]["b_from_a"]


def test_hidden_metrics_of_an_unfinished_flow_have_no_completion_time():
    m = hidden_metrics(NETWORK, {"b_from_a": flow(4.0, 2.0, 1.0, 3.0),
                                 "c_from_d": flow(0.0, None, 1.5, 9.0, completed=False)})
    assert not m["completed"] and not m["bit_exact"]
    assert m["completion_time_s"] is None
    assert m["fairness"] == 0.5 and m["goodput_min_mbps"] == 0.0


def test_cpu_meter_counts_the_processes_time_from_restart_and_judges_saturation(monkeypatch):
    """CpuMeter with the emulation's pids: time on a CPU and waiting for one since restart()
    (a thread that appears later counts from zero, one that ended keeps its last sample), and
    saturation under the real-time scheduler from the emulation's own busy share."""
    from ndnlab.emu import run as emurun
    times = {1: (1_000_000_000, 500_000_000)}
    monkeypatch.setattr(emurun.emunet, "thread_times", lambda pids: dict(times))
    now = [10.0]  # the meter's clock (time.monotonic, patched: the test sets it)
    monkeypatch.setattr(emurun.time, "monotonic", lambda: now[0])
    meter = emurun.CpuMeter(pids=lambda: [42])
    meter.restart()                                   # t = 10 s: thread 1 at 1 s / 0.5 s
    times.update({1: (3_000_000_000, 1_000_000_000), 2: (1_200_000_000, 100_000_000)})
    now[0] = 12.0
    meter.sample()                                    # t = 12 s
    times.clear()                                     # both threads ended: their last samples stay
    s = meter.summary()
    assert s["processes_cpu_s"] == pytest.approx(3.2)       # 2 s of thread 1, 1.2 s of thread 2
    assert s["run_queue_wait_s"] == pytest.approx(0.6)
    assert s["duration_s"] == pytest.approx(2.0)
    cores = s["cores"]
    assert s["processes_busy_percent"] == pytest.approx(100 * 3.2 / (cores * 2.0), abs=0.1)
    # real time: the emulation's own share decides; normal: the whole machine's
    assert meter.saturated(s, True) == (100 * 3.2 / (cores * 2.0) >= emurun.SATURATED_BUSY_PERCENT)
    assert meter.saturated(s, False) == (s["mean_busy_percent"] >= emurun.SATURATED_BUSY_PERCENT)
