"""`ndnlab report`'s relative-change table on integer metrics (frame and retransmission counts)."""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from ndnlab import paper, report  # noqa: E402
from ndnlab.spec import PaperMapping  # noqa: E402

pd = pytest.importorskip("pandas")


def _runs(rows):
    df = pd.DataFrame(rows)
    df.attrs["params"] = ["Standard", "Consumer", "BundleInterval"]
    df.attrs["metrics"] = ["nodes.consumer.tx_frames"]
    return df


def test_integer_metric_comparison_against_the_paper():
    # BLEnD Fig. 8b: sender Tx from BI = 10 to 15 (paper -31.4%), counts are int64 columns
    df = _runs([{"Standard": "80211b", "Consumer": "aimd", "BundleInterval": bi,
                 "nodes.consumer.tx_frames": tx}
                for bi, tx in ((10, 7500), (10, 7530), (15, 5100), (15, 5130))])
    assert str(df["nodes.consumer.tx_frames"].dtype) == "int64"
    exp = paper.get_experiment("blend-fig8")
    mapping = PaperMapping(experiment="blend-fig8", params={"bi": "BundleInterval"},
                           metrics={"sender_tx": "nodes.consumer.tx_frames"})
    header, rows = report.comparison_table(df, ["BundleInterval"], exp, mapping,
                                           report._Notes())
    assert len(rows) == 1
    row = dict(zip(header, rows[0]))
    assert row["n (ours / baseline)"] == "2 / 2"
    assert row["ours"] == f"{(5115 / 7515 - 1) * 100:+.1f}%"
    assert row["paper"] == "-31.4%"


def test_groups_of_a_sparse_grid_visit_only_the_runs_present():
    # Several [[grid]] tables give many varying columns but few combinations: 40 two-valued
    # columns and 3 runs. Enumerating the full product (2^40) would never end; the groups are
    # the 3 runs, in value order.
    import faulthandler
    faulthandler.dump_traceback_later(120, exit=True)  # a hang fails the suite instead of stalling it
    try:
        cols = [f"P{i}" for i in range(40)]
        rows = []
        for r in range(3):
            row = {c: (1 if (i + r) % 3 == 0 else 0) for i, c in enumerate(cols)}
            row["goodput_mbps"] = float(r)
            rows.append(row)
        df = pd.DataFrame(rows)
        groups = report._groups(df, cols, None)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert len(groups) == 3
    # ascending by P0, then P1: run 1 (P0 = 0, P1 = 0), run 2 (0, 1), run 0 (1, ...)
    assert [list(sub["goodput_mbps"]) for _, sub in groups] == [[1.0], [2.0], [0.0]]
    assert groups[0][0] == tuple(df.loc[1, cols])


def test_spec_script_prints_the_document_and_writes_it_with_o(tmp_path, capsys):
    out = tmp_path / "doc.md"
    status = report.spec_script(lambda spec: f"# {spec}\n", "Summary.\n\nMore.", "DOC.md",
                                ["a.toml", "-o", str(out)])
    assert status == 0
    assert out.read_text() == "# a.toml\n"
    assert capsys.readouterr().out == "# a.toml\n"
