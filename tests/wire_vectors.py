"""Loads the shared wire vectors of tests/vectors/ (format: tests/vectors/README.md) for the
tests that decode them with other NDN libraries: tests/python/test_vectors.py (python-ndn) and
tests/interop/test_ndnts_vectors.py (NDNts). Importable from any test: tests/ is on sys.path
through tests/conftest.py."""
import pathlib

VECTORS = pathlib.Path(__file__).resolve().parent / "vectors"


def load(path):
    """(expect, data): the `# expect:` fields of the vector at `path` and its bytes."""
    expect = {}
    hex_text = []
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("# expect:"):
            key, sep, value = stripped[len("# expect:"):].partition("=")
            assert sep, f"{path.name}: bad expect line {line!r}"
            expect[key.strip()] = value.strip()
            continue
        hex_text.append(line.split("#", 1)[0])
    data = bytes.fromhex("".join("".join(hex_text).split()))
    assert "kind" in expect, f"{path.name}: missing '# expect: kind'"
    return expect, data


def note(expect, decoder, verdict):
    """The reason given by `# expect: DECODER = VERDICT: <reason>` (VERDICT is `lenient` or
    `skip`), or None when the vector has no such line."""
    value = expect.get(decoder, "")
    return value[len(verdict) + 1:].strip() if value.startswith(verdict + ":") else None


FILES = sorted(VECTORS.glob("*.hex"))
VALID = [f for f in FILES if "error" not in load(f)[0]]
INVALID = [f for f in FILES if "error" in load(f)[0]]
