#!/usr/bin/env python3
"""Writes the annotated test vectors of tests/vectors/ (format: README.md).

Each vector is spelled out here TLV by TLV with a note per element; lengths and SHA-256
digests are computed with the Python standard library only (no NDN library), and every
`expect:` line is written by hand. Run from anywhere: python3 tests/vectors/make-vectors.py
The .hex files are the shared source of truth; this script only saves typing lengths.
"""

import hashlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def var(n):
    if n < 253:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfd" + n.to_bytes(2, "big")
    if n <= 0xFFFFFFFF:
        return b"\xfe" + n.to_bytes(4, "big")
    return b"\xff" + n.to_bytes(8, "big")


def nni(n):
    for size in (1, 2, 4, 8):
        if n < 1 << (8 * size):
            return n.to_bytes(size, "big")
    raise ValueError(n)


class T:
    """A TLV node: children (list of T) or a leaf value (bytes). `raw` overrides the header."""

    def __init__(self, typ, body, note, raw_header=None):
        self.typ, self.body, self.note, self.raw_header = typ, body, note, raw_header

    def value(self):
        if isinstance(self.body, bytes):
            return self.body
        return b"".join(c.wire() for c in self.body)

    def header(self):
        if self.raw_header is not None:
            return self.raw_header
        return var(self.typ) + var(len(self.value()))

    def wire(self):
        return self.header() + self.value()


class Raw:
    """Bytes written as-is with a note (for malformed inputs)."""

    def __init__(self, data, note):
        self.data, self.note = data, note

    def wire(self):
        return self.data


def hexs(b):
    return " ".join(f"{x:02x}" for x in b)


def render(node, depth, out):
    pad = "  " * depth
    if isinstance(node, Raw):
        for i in range(0, max(len(node.data), 1), 16):
            chunk = node.data[i:i + 16]
            out.append((pad + hexs(chunk), node.note if i == 0 else "(cont.)"))
        return
    head = node.header()
    if isinstance(node.body, bytes):
        data = node.body
        if len(data) <= 8:
            out.append((pad + hexs(head + data), f"{node.note}"))
        else:
            out.append((pad + hexs(head), f"{node.note}"))
            for i in range(0, len(data), 16):
                out.append((pad + "  " + hexs(data[i:i + 16]), ""))
    else:
        out.append((pad + hexs(head), f"{node.note}"))
        for c in node.body:
            render(c, depth + 1, out)


def write(fname, description, expects, root):
    lines = [f"# {d}" for d in description]
    # "@wire" stands for the SHA-256 of the whole vector (the Data implicit digest).
    lines += [f"# expect: {k} = {sha(root.wire()).hex() if v == '@wire' else v}" for k, v in expects]
    lines.append("#")
    body = []
    render(root, 0, body)
    width = max(len(h) for h, _ in body) + 2
    for h, note in body:
        lines.append(f"{h:<{width}}# {note}" if note else h)
    with open(os.path.join(HERE, fname), "w") as f:
        f.write("\n".join(lines) + "\n")
    return root.wire()


# --- building blocks ---------------------------------------------------------------------------

def gen(s):
    b = s.encode() if isinstance(s, str) else s
    return T(8, b, f"GenericNameComponent {s!r}" if isinstance(s, str) else "GenericNameComponent")


def num(typ, n, label):
    return T(typ, nni(n), f"{label} {n}")


def name(*comps, note="Name"):
    return T(7, list(comps), note)


def sha(b):
    return hashlib.sha256(b).digest()


D32 = bytes(range(0x20, 0x40))  # a fixed 32-octet digest value for name vectors

# --- name-typed ----------------------------------------------------------------------------------

write("name-typed.hex",
      ["Name TLV with one component of every typed convention, an unassigned numeric type,",
       "an empty (period-escaped) component and a component needing percent-encoding."],
      [("kind", "name"),
       ("name", "/a/seg=3/off=300/v=1/t=65536/seq=4294967296/32=metadata/sha256digest="
        + D32.hex() + "/params-sha256=" + D32.hex() + "/1000=x/.../..../a%20b%2F%3D~"),
       ("components", "13"),
       ("component_types", "8,50,52,54,56,58,32,1,2,1000,8,8,8")],
      name(gen("a"),
           num(50, 3, "SegmentNameComponent"),
           num(52, 300, "ByteOffsetNameComponent"),
           num(54, 1, "VersionNameComponent"),
           num(56, 65536, "TimestampNameComponent"),
           num(58, 4294967296, "SequenceNumNameComponent"),
           T(32, b"metadata", "KeywordNameComponent 'metadata'"),
           T(1, D32, "ImplicitSha256DigestComponent (32 octets)"),
           T(2, D32, "ParametersSha256DigestComponent (32 octets)"),
           T(1000, b"x", "type 1000 (unassigned, printed as 1000=x)"),
           T(8, b"", "GenericNameComponent, empty (URI '...')"),
           T(8, b".", "GenericNameComponent '.' (URI '....')"),
           T(8, b"a b/=~", "GenericNameComponent 'a b/=~' (percent-encoded)")))

# --- Interests -----------------------------------------------------------------------------------

write("interest-basic.hex",
      ["Interest with Name, Nonce and InterestLifetime (the common consumer Interest)."],
      [("kind", "interest"), ("name", "/ndn/test"), ("can_be_prefix", "false"),
       ("must_be_fresh", "false"), ("nonce", "0x01020304"), ("lifetime_ms", "1000"),
       ("hop_limit", "none"), ("forwarding_hint", "none"), ("app_params", "none")],
      T(5, [name(gen("ndn"), gen("test")),
            T(10, bytes.fromhex("01020304"), "Nonce 0x01020304"),
            T(12, nni(1000), "InterestLifetime 1000 ms")], "Interest"))

write("interest-full.hex",
      ["Interest with every unsigned element, in spec order."],
      [("kind", "interest"), ("name", "/ndn/video/v=7/seg=3"), ("can_be_prefix", "true"),
       ("must_be_fresh", "true"), ("forwarding_hint", "/isp1,/isp2/router"),
       ("nonce", "0xa0b0c0d0"), ("lifetime_ms", "10000"), ("hop_limit", "32"),
       ("app_params", "none"), ("params_digest_valid", "true")],
      T(5, [name(gen("ndn"), gen("video"), num(54, 7, "VersionNameComponent"),
                 num(50, 3, "SegmentNameComponent")),
            T(33, b"", "CanBePrefix"),
            T(18, b"", "MustBeFresh"),
            T(30, [name(gen("isp1")), name(gen("isp2"), gen("router"))], "ForwardingHint (2 Names)"),
            T(10, bytes.fromhex("a0b0c0d0"), "Nonce 0xa0b0c0d0"),
            T(12, nni(10000), "InterestLifetime 10000 ms"),
            T(34, bytes([32]), "HopLimit 32")], "Interest"))

# Signed Interest (spec signed-interest.rst) with a DigestSha256 signature:
# signature value = SHA-256(name components except params digest || ApplicationParameters ..
# InterestSignatureInfo); params digest = SHA-256(ApplicationParameters .. InterestSignatureValue).
comps = [gen("app"), gen("cmd")]
params = T(36, b"hello", "ApplicationParameters 'hello'")
siginfo = T(44, [T(27, nni(0), "SignatureType 0 (DigestSha256)"),
                 T(38, bytes.fromhex("0102030405060708"), "SignatureNonce (8 octets)"),
                 T(40, nni(1700000000000), "SignatureTime 1700000000000 ms"),
                 T(42, nni(7), "SignatureSeqNum 7")], "InterestSignatureInfo")
signed = b"".join(c.wire() for c in comps) + params.wire() + siginfo.wire()
sigvalue = T(46, sha(signed), "InterestSignatureValue = SHA-256(signed portion)")
pdigest = sha(params.wire() + siginfo.wire() + sigvalue.wire())
write("interest-signed-params.hex",
      ["Signed Interest v0.3 with ApplicationParameters, DigestSha256 signature and a correct",
       "ParametersSha256DigestComponent (SHA-256 of ApplicationParameters..end)."],
      [("kind", "interest"), ("name", "/app/cmd/params-sha256=" + pdigest.hex()),
       ("can_be_prefix", "false"), ("must_be_fresh", "true"), ("nonce", "0x11223344"),
       ("lifetime_ms", "none"), ("hop_limit", "none"),
       ("app_params", b"hello".hex()), ("params_digest_valid", "true"),
       ("sig_type", "0"), ("sig_nonce", "0102030405060708"), ("sig_time", "1700000000000"),
       ("sig_seq", "7"), ("sig_value", sha(signed).hex()),
       ("signed_portion_sha256", sha(signed).hex())],
      T(5, [name(*comps, T(2, pdigest, "ParametersSha256DigestComponent")),
            T(18, b"", "MustBeFresh"),
            T(10, bytes.fromhex("11223344"), "Nonce 0x11223344"),
            params, siginfo, sigvalue], "Interest"))

write("interest-noncritical.hex",
      ["Interest with unknown non-critical elements (types 128 and 300, even) that decoders",
       "must skip, and an out-of-order HopLimit (non-critical, ignored) after ApplicationParameters.",
       "Not canonical: re-encoding drops the skipped elements."],
      [("kind", "interest"), ("canonical", "false"),
       ("name", "/a/params-sha256=" + sha(bytes.fromhex("2402cafe220105")).hex()),
       ("nonce", "0x01020304"), ("lifetime_ms", "none"), ("hop_limit", "none"),
       ("app_params", "cafe"), ("params_digest_valid", "true")],
      T(5, [name(gen("a"), T(2, sha(bytes.fromhex("2402cafe220105")),
                             "ParametersSha256DigestComponent over 2402cafe220105")),
            T(128, b"\x01", "unknown type 128 (even: non-critical, skipped)"),
            T(10, bytes.fromhex("01020304"), "Nonce"),
            T(300, b"", "unknown type 300 (even: non-critical, skipped)"),
            T(36, bytes.fromhex("cafe"), "ApplicationParameters"),
            T(34, b"\x05", "HopLimit out of order (non-critical, ignored)")], "Interest"))

write("interest-delegation-hint.hex",
      ["Interest whose ForwardingHint uses the pre-2022 Delegation form",
       "(Delegation(31) { Preference(30) Name }); accepted and read as a list of Names.",
       "Not canonical: re-encoding writes the current 1*Name form."],
      [("kind", "interest"), ("canonical", "false"), ("name", "/a"),
       ("forwarding_hint", "/h,/i"), ("nonce", "0x00000001"),
       ("python_ndn", "skip: python-ndn 0.5 rejects the Delegation form (type 31 is critical to it)"),
       ("ndnts", "skip: NDNts reads ForwardingHint as 1*Name only (FwHint); Delegation (31) is an "
                 "unknown critical element to it")],
      T(5, [name(gen("a")),
            T(30, [T(31, [T(30, nni(1), "Preference 1"), name(gen("h"))], "Delegation"),
                   T(31, [T(30, nni(2), "Preference 2"), name(gen("i"))], "Delegation")],
              "ForwardingHint (old form)"),
            T(10, bytes.fromhex("00000001"), "Nonce")], "Interest"))

# --- Data ----------------------------------------------------------------------------------------

dname = name(gen("ndn"), gen("data"))
content = T(21, b"hello world", "Content 'hello world'")
dsiginfo = T(22, [T(27, nni(0), "SignatureType 0 (DigestSha256)")], "SignatureInfo")
dsigned = dname.wire() + content.wire() + dsiginfo.wire()
write("data-basic.hex",
             ["Data with Content and a valid DigestSha256 signature (no MetaInfo)."],
             [("kind", "data"), ("name", "/ndn/data"), ("content_type", "0"),
              ("freshness_ms", "0"), ("final_block_id", "none"),
              ("content", b"hello world".hex()), ("sig_type", "0"), ("key_locator", "none"),
              ("sig_value", sha(dsigned).hex()), ("signed_portion_sha256", sha(dsigned).hex()),
              ("implicit_digest", "@wire")],
             T(6, [dname, content, dsiginfo,
                   T(23, sha(dsigned), "SignatureValue = SHA-256(Name..SignatureInfo)")], "Data"))

write("data-metainfo.hex",
      ["Data with every MetaInfo field, a typed name, and an ECDSA SignatureInfo with a",
       "KeyLocator Name (signature value is a placeholder, not a real ECDSA signature)."],
      [("kind", "data"), ("name", "/video/v=5/seg=0"), ("content_type", "2"),
       ("freshness_ms", "70000"), ("final_block_id", "seg=9"),
       ("content", "0001020304050607"), ("sig_type", "3"),
       ("key_locator", "/video/KEY/%01%02"), ("sig_value", "3006020101020102"),
       ("implicit_digest", "@wire")],
      T(6, [name(gen("video"), num(54, 5, "VersionNameComponent"), num(50, 0, "SegmentNameComponent")),
            T(20, [T(24, nni(2), "ContentType 2 (KEY)"),
                   T(25, nni(70000), "FreshnessPeriod 70000 ms (4-octet NonNegativeInteger)"),
                   T(26, [num(50, 9, "SegmentNameComponent")], "FinalBlockId")], "MetaInfo"),
            T(21, bytes(range(8)), "Content (8 octets)"),
            T(22, [T(27, nni(3), "SignatureType 3 (SignatureSha256WithEcdsa)"),
                   T(28, [name(gen("video"), gen("KEY"), gen(b"\x01\x02"))], "KeyLocator")],
              "SignatureInfo"),
            T(23, bytes.fromhex("3006020101020102"), "SignatureValue (placeholder)")], "Data"))

write("data-keydigest.hex",
      ["Data with empty Content, a KeyLocator KeyDigest and an RSA SignatureType."],
      [("kind", "data"), ("name", "/k"), ("content_type", "0"), ("freshness_ms", "1000"),
       ("content", ""), ("sig_type", "1"), ("key_locator", "keydigest:" + D32.hex()),
       ("sig_value", "aa" * 16), ("implicit_digest", "@wire")],
      T(6, [name(gen("k")),
            T(20, [T(25, nni(1000), "FreshnessPeriod 1000 ms")], "MetaInfo"),
            T(21, b"", "Content (empty)"),
            T(22, [T(27, nni(1), "SignatureType 1 (SignatureSha256WithRsa)"),
                   T(28, [T(29, D32, "KeyDigest (32 octets)")], "KeyLocator")], "SignatureInfo"),
            T(23, b"\xaa" * 16, "SignatureValue (placeholder)")], "Data"))

# --- invalid -------------------------------------------------------------------------------------

def interest(*children):
    return T(5, list(children), "Interest")


NAME_A = name(gen("a"))
NONCE = T(10, bytes.fromhex("01020304"), "Nonce")

write("invalid-interest-critical-unknown.hex",
      ["Unknown critical element (type 129, odd) after Name: decoders must reject."],
      [("kind", "interest"), ("error", "critical-unknown"), ("error_tlv", "129")],
      interest(NAME_A, T(129, b"", "unknown type 129 (odd: critical)"), NONCE))

write("invalid-interest-out-of-order.hex",
      ["MustBeFresh before CanBePrefix: CanBePrefix (33, odd) is then out of order and critical."],
      [("kind", "interest"), ("error", "critical-unknown"), ("error_tlv", "33")],
      interest(NAME_A, T(18, b"", "MustBeFresh"), T(33, b"", "CanBePrefix (out of order)")))

write("invalid-interest-nonce-length.hex",
      ["Nonce of 3 octets (must be exactly 4)."],
      [("kind", "interest"), ("error", "bad-value"), ("error_tlv", "10")],
      interest(NAME_A, T(10, bytes.fromhex("010203"), "Nonce, 3 octets")))

write("invalid-interest-lifetime-length.hex",
      ["InterestLifetime with a 3-octet NonNegativeInteger (lengths must be 1, 2, 4 or 8)."],
      [("kind", "interest"), ("error", "bad-nonneg-int"), ("error_tlv", "12")],
      interest(NAME_A, NONCE, T(12, bytes.fromhex("000fa0"), "InterestLifetime, 3 octets")))

write("invalid-interest-empty-name.hex",
      ["Interest whose Name has zero components."],
      [("kind", "interest"), ("error", "bad-name"), ("error_tlv", "7"),
       ("python_ndn", "lenient: python-ndn accepts a zero-component Interest name"),
       ("ndnts", "lenient: NDNts refuses an empty Interest name when encoding, not when decoding")],
      interest(name(note="Name (no components)"), NONCE))

write("invalid-interest-canbeprefix-length.hex",
      ["CanBePrefix with a non-empty value."],
      [("kind", "interest"), ("error", "bad-value"), ("error_tlv", "33"),
       ("python_ndn", "lenient: python-ndn ignores the value of boolean elements"),
       ("ndnts", "lenient: NDNts sets CanBePrefix when the element is present and ignores its value")],
      interest(NAME_A, T(33, b"\x01", "CanBePrefix, length 1")))

write("invalid-interest-hoplimit-length.hex",
      ["HopLimit of 2 octets (must be exactly 1)."],
      [("kind", "interest"), ("error", "bad-value"), ("error_tlv", "34"),
       ("python_ndn", "lenient: python-ndn reads HopLimit as a NonNegativeInteger")],
      interest(NAME_A, T(34, b"\x01\x02", "HopLimit, 2 octets")))

bad_len = T(5, [NAME_A, NONCE], "Interest, length written as FD 00 0B (non-minimal VAR-NUMBER)",
            raw_header=b"\x05\xfd\x00\x0b")
write("invalid-interest-nonminimal-length.hex",
      ["Outer TLV-LENGTH 11 encoded in the 3-octet form: VAR-NUMBER must be shortest."],
      [("kind", "interest"), ("error", "bad-var-number"), ("error_tlv", "5"),
       ("python_ndn", "lenient: python-ndn accepts non-minimal VAR-NUMBERs"),
       ("ndnts", "lenient: NDNts's TLV Decoder (readVarNum) accepts non-minimal VAR-NUMBERs")],
      bad_len)

trunc = T(5, [NAME_A, T(10, bytes.fromhex("010203"), "Nonce value cut after 3 of 4 octets",
                        raw_header=b"\x0a\x04")],
          "Interest, length 11 but only 10 octets follow", raw_header=b"\x05\x0b")
write("invalid-interest-truncated.hex",
      ["Truncated Interest: the outer length exceeds the input."],
      [("kind", "interest"), ("error", "bad-length"), ("error_tlv", "5")],
      trunc)

write("invalid-data-missing-signature.hex",
      ["Data without SignatureInfo and SignatureValue."],
      [("kind", "data"), ("error", "missing-element"), ("error_tlv", "22"),
       ("python_ndn", "lenient: python-ndn does not require the signature elements")],
      T(6, [name(gen("a")), T(21, b"x", "Content 'x'")], "Data"))

write("invalid-data-meta-after-content.hex",
      ["MetaInfo after Content: MetaInfo (20, grandfathered critical) is out of order."],
      [("kind", "data"), ("error", "critical-unknown"), ("error_tlv", "20"),
       ("python_ndn", "lenient: python-ndn silently drops an out-of-order MetaInfo")],
      T(6, [name(gen("a")), T(21, b"x", "Content 'x'"),
            T(20, [T(25, nni(1), "FreshnessPeriod 1")], "MetaInfo (out of order)"),
            T(22, [T(27, nni(0), "SignatureType 0")], "SignatureInfo"),
            T(23, b"", "SignatureValue (empty)")], "Data"))

write("invalid-data-digest-length.hex",
      ["Data name with an ImplicitSha256DigestComponent of 31 octets (must be 32)."],
      [("kind", "data"), ("error", "bad-name"), ("error_tlv", "1"),
       ("python_ndn", "lenient: python-ndn does not check digest component lengths"),
       ("ndnts", "lenient: NDNts decodes name components of any length; only its ImplicitDigest "
                 "convention matcher requires 32 octets")],
      T(6, [name(gen("a"), T(1, bytes(31), "ImplicitSha256DigestComponent, 31 octets")),
            T(22, [T(27, nni(0), "SignatureType 0")], "SignatureInfo"),
            T(23, b"", "SignatureValue (empty)")], "Data"))

write("invalid-name-type-zero.hex",
      ["Name component with TLV-TYPE 0 (invalid everywhere)."],
      [("kind", "name"), ("error", "bad-var-number"), ("error_tlv", "7"),
       ("python_ndn", "lenient: python-ndn accepts component type 0")],
      name(gen("a"), Raw(bytes.fromhex("000162"), "component with TLV-TYPE 0")))

write("invalid-name-type-large.hex",
      ["Name component with TLV-TYPE 65536 (component types must be in [1, 65535])."],
      [("kind", "name"), ("error", "bad-name"), ("error_tlv", "65536"),
       ("python_ndn", "lenient: python-ndn accepts component types above 65535")],
      name(T(65536, b"", "component type 65536")))
