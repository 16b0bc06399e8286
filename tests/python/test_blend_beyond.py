"""experiments/blend/beyond.py: the names of the configurations its tables compare (issue 31:
every gain against the paper's BLEnD) and the 95%-of-bound target judged from the CI."""

import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "experiments" / "blend"))

import beyond  # noqa: E402
from ndnlab import profiles  # noqa: E402


def point(profile, **knobs):
    """A stored run's parameters: the profile expanded into its knobs, as the store keeps them."""
    return profiles.expand({"Profile": profile, "Consumer": "aimd", "BundleInterval": 15, **knobs})


def test_the_paper_consumer_names_the_baseline_and_the_rules_as_written():
    assert beyond.variant(point("ndnsim")) == beyond.PAPER
    assert beyond.variant(point("ndnsim", BundlePaperEncoder=False)) == beyond.PAPER
    written = point("ndnsim", BundlePaperEncoder=True, BundleHoldEarlyData=False)
    assert beyond.variant(written) == beyond.WRITTEN


def test_ndnlab_consumer_rows_keep_their_option_names():
    assert beyond.variant(point("ndncatchunks")) == "BI 15"
    assert beyond.variant(point("ndncatchunks", BundleInterval=64, BundleLossDetection=True, Pacing=True)) \
        == "BI 64 + LD + pacing"
    assert beyond.variant(point("ndncatchunks", BundleInterval=0)) == "no bundling"
    # a store that mixes grids leaves an absent flag as NaN, which is not "on"
    assert beyond.variant(point("ndncatchunks", BundleLossDetection=math.nan)) == "BI 15"


def test_target_is_judged_from_the_confidence_interval():
    bound = 10.0
    assert beyond.target_verdict(9.8, 0.1, bound) == "met"
    assert beyond.target_verdict(9.0, 0.2, bound) == "not met"
    assert beyond.target_verdict(9.51, 0.05, bound).startswith("within noise (94.6-95.6%")
    assert beyond.target_verdict(9.8, math.nan, bound).startswith("within noise")
