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
