"""Cross-checks the shared wire vectors (tests/vectors/*.hex) with python-ndn.

Each vector is decoded with python-ndn's own decoder (ndn.encoding.parse_interest /
parse_data / Name.from_bytes) and every `# expect:` field is compared with what python-ndn
reports. Invalid vectors must be rejected by python-ndn, except where the vector says python-ndn
is lenient (`# expect: python_ndn = lenient: <reason>`), which is reported as a skip.
The same files are checked against the ndnlab codec by core/codec/tests/vectors.t.cpp.
tests/interop/test_ndnts_vectors.py checks them with NDNts. Format: tests/vectors/README.md;
loading: tests/wire_vectors.py.
"""
import hashlib

import pytest

from wire_vectors import INVALID, VALID, load, note

ndn_encoding = pytest.importorskip("ndn.encoding")
from ndn.encoding import Component, Name, parse_data, parse_interest  # noqa: E402


def test_vectors_present():
    assert len(VALID) >= 5 and len(INVALID) >= 5


# --- URI form (spec name.rst, ndn-cxx conventions) -------------------------------------------------
# python-ndn's Name.to_str differs from ndn-cxx for period-only components and for typed
# components whose value is not a NonNegativeInteger, so components decoded by python-ndn are
# printed here with the spec rules; python-ndn's own printer is compared where the two agree.

UNRESERVED = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
ALIASES = {50: "seg", 52: "off", 54: "v", 56: "t", 58: "seq"}


def escape(value):
    if all(b == ord(".") for b in value):
        return "." * (len(value) + 3)
    return "".join(chr(b) if b in UNRESERVED else f"%{b:02X}" for b in value)


def component_uri(comp):
    typ = Component.get_type(comp)
    value = bytes(Component.get_value(comp))
    if typ == Component.TYPE_GENERIC:
        return escape(value)
    if typ == Component.TYPE_IMPLICIT_SHA256 and len(value) == 32:
        return "sha256digest=" + value.hex()
    if typ == Component.TYPE_PARAMETERS_SHA256 and len(value) == 32:
        return "params-sha256=" + value.hex()
    if typ in ALIASES and len(value) in (1, 2, 4, 8):
        n = int.from_bytes(value, "big")
        # Aliases only for the shortest NonNegativeInteger form (lossless URIs).
        if len(value) == next(size for size in (1, 2, 4, 8) if n < 1 << (8 * size)):
            return f"{ALIASES[typ]}={n}"
    return f"{typ}={escape(value)}"


def name_uri(name):
    return "/" + "/".join(component_uri(c) for c in name) if name else "/"


def check_name(expect, key, name):
    if key not in expect:
        return
    assert name_uri(name) == expect[key], key
    simple = all(
        not all(b == ord(".") for b in bytes(Component.get_value(c)))
        and (Component.get_type(c) not in ALIASES or len(Component.get_value(c)) in (1, 2, 4, 8))
        for c in name)
    if simple and name:
        assert Name.to_str(name) == expect[key], f"{key} (python-ndn Name.to_str)"


def check(expect, key, actual):
    if key in expect:
        assert actual == expect[key], key


def opt(value, fmt=str):
    return "none" if value is None else fmt(value)


def sha(chunks):
    h = hashlib.sha256()
    for c in chunks:
        h.update(bytes(c))
    return h.hexdigest()


def check_signature(expect, info, value_buf):
    check(expect, "sig_type", str(info.signature_type))
    kl = info.key_locator
    if kl is None:
        check(expect, "key_locator", "none")
    elif kl.name is not None:
        check_name(expect, "key_locator", kl.name)
    else:
        check(expect, "key_locator", "keydigest:" + bytes(kl.key_digest).hex())
    if "sig_nonce" in expect:
        nonce = info.signature_nonce
        want = expect["sig_nonce"]
        # python-ndn reads SignatureNonce as an integer; compare with the expected octet count.
        got = "none" if nonce is None else nonce.to_bytes(max(len(want) // 2, 1), "big").hex()
        assert got == want, "sig_nonce"
    check(expect, "sig_time", opt(info.signature_time))
    check(expect, "sig_seq", opt(info.signature_seq_num))
    check(expect, "sig_value", bytes(value_buf).hex())


# --- per-kind decoding ---------------------------------------------------------------------------


def decode(kind, data):
    if kind == "interest":
        return parse_interest(data)
    if kind == "data":
        return parse_data(data)
    if kind == "name":
        name = Name.from_bytes(data)
        if len(Name.to_bytes(name)) != len(data):
            raise ValueError("trailing bytes after Name")
        return name
    raise AssertionError(f"unknown kind {kind}")


def check_interest(expect, data):
    name, param, app_params, sig = parse_interest(data)
    check_name(expect, "name", name)
    check(expect, "can_be_prefix", str(bool(param.can_be_prefix)).lower())
    check(expect, "must_be_fresh", str(bool(param.must_be_fresh)).lower())
    check(expect, "nonce", opt(param.nonce, lambda n: f"0x{n:08x}"))
    check(expect, "lifetime_ms", opt(param.lifetime))
    check(expect, "hop_limit", opt(param.hop_limit))
    hints = ",".join(name_uri(h) for h in param.forwarding_hint)
    check(expect, "forwarding_hint", hints or "none")
    check(expect, "app_params", opt(app_params, lambda b: bytes(b).hex()))
    if "params_digest_valid" in expect:
        digest_idx = [i for i, c in enumerate(name) if Component.get_type(c) == Component.TYPE_PARAMETERS_SHA256]
        if app_params is None:
            valid = not digest_idx
        else:
            valid = (len(digest_idx) == 1 and sig.digest_value_buf is not None
                     and bytes(sig.digest_value_buf) == bytes.fromhex(sha(sig.digest_covered_part)))
        check(expect, "params_digest_valid", str(valid).lower())
    if sig.signature_info is not None:
        check_signature(expect, sig.signature_info, sig.signature_value_buf)
        check(expect, "signed_portion_sha256", sha(sig.signature_covered_part))


def check_data(expect, data):
    name, meta, content, sig = parse_data(data)
    check_name(expect, "name", name)
    check(expect, "content_type", str(meta.content_type or 0))
    check(expect, "freshness_ms", str(meta.freshness_period or 0))
    check(expect, "final_block_id", opt(meta.final_block_id, lambda c: component_uri(bytes(c))))
    check(expect, "content", bytes(content or b"").hex())
    check_signature(expect, sig.signature_info, sig.signature_value_buf)
    check(expect, "signed_portion_sha256", sha(sig.signature_covered_part))
    check(expect, "implicit_digest", hashlib.sha256(data).hexdigest())


def check_name_vector(expect, data):
    name = decode("name", data)
    check_name(expect, "name", name)
    check(expect, "components", str(len(name)))
    check(expect, "component_types", ",".join(str(Component.get_type(c)) for c in name))
    assert bytes(Name.to_bytes(name)) == data


@pytest.mark.parametrize("path", VALID, ids=[f.name for f in VALID])
def test_valid_vector(path):
    expect, data = load(path)
    reason = note(expect, "python_ndn", "skip")
    if reason is not None:
        pytest.skip(reason)
    {"interest": check_interest, "data": check_data, "name": check_name_vector}[expect["kind"]](expect, data)


@pytest.mark.parametrize("path", INVALID, ids=[f.name for f in INVALID])
def test_invalid_vector(path):
    expect, data = load(path)
    try:
        decode(expect["kind"], data)
    except (ValueError, IndexError, TypeError, KeyError, ndn_encoding.DecodeError):
        return
    reason = note(expect, "python_ndn", "lenient")
    if reason is not None:
        pytest.skip("python-ndn accepts it: " + reason)
    pytest.fail(f"python-ndn accepted an invalid vector (expected {expect['error']})")
