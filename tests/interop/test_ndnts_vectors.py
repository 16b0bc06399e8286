"""Cross-checks the shared wire vectors (tests/vectors/*.hex) with NDNts (Node.js), the third
decoder beside the ndnlab codec (core/codec/tests/vectors.t.cpp) and python-ndn
(tests/python/test_vectors.py).

ndnts/vectors.mjs decodes every vector with NDNts's own decoders in one node run and reports
the README keys NDNts exposes; every `# expect:` field of a valid vector except those in
UNREPORTED is compared with it. Invalid vectors must be rejected by NDNts, except where the
vector says NDNts is lenient (`# expect: ndnts = lenient: <reason>`), and a valid vector NDNts
cannot read says `# expect: ndnts = skip: <reason>`; both are reported as skips.
Format: tests/vectors/README.md; loading: tests/wire_vectors.py.
"""
import json
import subprocess

import pytest

from ndnts_clients import NDNTS, require_ndnts
from wire_vectors import FILES, INVALID, VALID, load, note

# Keys NDNts does not report: the vector's kind, the annotations for the Python decoders,
# re-encoding (`canonical`), and the ndnlab codec's error reason and TLV-TYPE.
UNREPORTED = {"kind", "canonical", "python_ndn", "ndnts", "error", "error_tlv"}
# NDNts gives an absent InterestLifetime or HopLimit its default value (Interest.DefaultLifetime,
# HOPLIMIT_MAX in @ndn/packet's interest.js), so it reports these where a vector says `none`.
DEFAULTS = {"lifetime_ms": "4000", "hop_limit": "255"}


@pytest.fixture(scope="module")
def reports():
    """What NDNts reports for each vector (one run of vectors.mjs): {file name: {key: value}}."""
    require_ndnts()
    vectors = []
    for path in FILES:
        expect, data = load(path)
        vectors.append({"file": path.name, "kind": expect["kind"], "hex": data.hex()})
    result = subprocess.run(["node", str(NDNTS / "vectors.mjs")], input=json.dumps(vectors).encode(),
                            capture_output=True, timeout=60)
    assert result.returncode == 0, f"node vectors.mjs exited {result.returncode}:\n{result.stderr.decode()}"
    return {r.pop("file"): r for r in map(json.loads, result.stdout.decode().splitlines())}


@pytest.mark.parametrize("path", VALID, ids=[f.name for f in VALID])
def test_valid_vector(reports, path):
    expect, _ = load(path)
    reason = note(expect, "ndnts", "skip")
    if reason is not None:
        pytest.skip(reason)
    got = reports[path.name]
    assert "error" not in got, f"NDNts rejected a valid vector: {got['error']}"
    differences = {}
    for key, want in expect.items():
        if key in UNREPORTED:
            continue
        if want == "none":
            want = DEFAULTS.get(key, want)
        if got.get(key) != want:
            differences[key] = {"expected": want, "ndnts": got.get(key, "(not reported)")}
    assert not differences, differences


@pytest.mark.parametrize("path", INVALID, ids=[f.name for f in INVALID])
def test_invalid_vector(reports, path):
    expect, _ = load(path)
    if "error" in reports[path.name]:
        return
    reason = note(expect, "ndnts", "lenient")
    if reason is not None:
        pytest.skip("NDNts accepts it: " + reason)
    pytest.fail(f"NDNts accepted an invalid vector (expected {expect['error']})")
