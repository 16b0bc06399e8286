"""experiments/blend/tail.py: the tail of a transfer from its per-Data trace."""

import importlib.util
import math
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("blend_tail", ROOT / "experiments/blend/tail.py")
tail = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tail)

HEADER = "time_s,node,segment,delay_s,retx,kind\n"


def _write(tmp_path, rows):
    """A run directory whose delays.csv holds `rows`."""
    (tmp_path / "delays.csv").write_text(HEADER + "".join(
        f"{t},{node},{seg},0.001,{retx},{kind}\n" for t, node, seg, retx, kind in rows))
    return tmp_path


def test_tail_runs_from_the_last_first_transmission_to_the_last_data(tmp_path):
    rows = [(1.0, 0, 0, 0, "first"), (1.5, 0, 2, 1, "retx"), (2.0, 0, 1, 0, "first"),
            (5.2, 0, 3, 1, "retx"), (14.0, 0, 4, 2, "retx")]
    seconds, after = tail.tail_of(_write(tmp_path, rows))
    assert math.isclose(seconds, 12.0)
    assert after == 2


def test_a_transfer_that_ends_on_a_first_transmission_has_no_tail(tmp_path):
    rows = [(1.0, 0, 0, 0, "first"), (1.2, 0, 1, 1, "retx"), (1.4, 0, 2, 0, "first")]
    assert tail.tail_of(_write(tmp_path, rows)) == (0.0, 0)


def test_other_nodes_rows_are_ignored(tmp_path):
    rows = [(1.0, 0, 0, 0, "first"), (9.0, 1, 0, 1, "retx")]
    assert tail.tail_of(_write(tmp_path, rows)) == (0.0, 0)


def test_only_retransmitted_data_gives_no_tail(tmp_path):
    seconds, after = tail.tail_of(_write(tmp_path, [(1.0, 0, 0, 1, "retx")]))
    assert math.isnan(seconds) and after == 1


def test_a_missing_spec_is_an_error_message_and_status_2(tmp_path, capsys):
    assert tail.main([str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml" in capsys.readouterr().err
