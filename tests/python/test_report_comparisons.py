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
