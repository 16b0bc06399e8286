"""ndnlab.metrics: figures derived from a run's metrics."""
from ndnlab import metrics


def test_duplicate_data_leaves_out_the_version_discovery_data():
    # 100 segments, one discovery Data, 3 premature timeouts
    assert metrics.duplicate_data(104, 100, {}) == 3
    assert metrics.duplicate_data(104, 100, {"VersionDiscovery": "rdr"}) == 3
    assert metrics.duplicate_data(104, 100, {"VersionDiscovery": float("nan")}) == 3
    assert metrics.duplicate_data(103, 100, {"VersionDiscovery": "none"}) == 3
    assert metrics.duplicate_data(205, 200, {}, flows=2) == 3
