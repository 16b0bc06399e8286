"""experiments/dcib/premise/report.py: the window cap, the Mathis estimate and the reductions it
reads off a congestion-window trace (Fig. 2's events)."""
import importlib.util
import math
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
_spec = importlib.util.spec_from_file_location("premise_report", ROOT / "experiments/dcib/premise/report.py")
report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(report)


def test_window_cap_is_two_windows_per_rtt():
    assert report.window_cap(3.0, 10) == pytest.approx(0.48)
    assert report.window_cap(0.131072, 10) == pytest.approx(0.02097, rel=1e-3)
    assert report.window_cap(6.0, 2) == 1.0 and report.window_cap(0.0, 40) == 1.0


def test_mathis_share_of_two_reno_flows():
    assert report.mathis_share(0.01) == pytest.approx(2 * 1.22 * 1448 * 8 / (0.01 * 0.1) / 10e9)
    assert math.isnan(report.mathis_share(0.0))


def test_a_gradual_reduction_counts_once_at_its_peak():
    """ns-3's proportional rate reduction lowers the window over a round trip: one reduction,
    dated at the peak; growth and small dips below the share are not reductions."""
    dt = 0.0001
    times = [i * dt for i in range(400)]
    cwnd = []
    for i, _ in enumerate(times):
        if i < 100:
            cwnd.append(1000 + 10 * i)             # growth to 1990 at 9.9 ms
        elif i < 120:
            cwnd.append(1990 - 50 * (i - 99))      # falls to 1040 over 2 ms
        else:
            cwnd.append(1040 + (i % 2))             # a 1-byte wobble
    assert report.reductions(times, cwnd, 0.0, 0.2) == [pytest.approx(0.0099)]
    assert report.reductions(times, cwnd, 0.02, 0.2) == []
