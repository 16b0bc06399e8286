"""What the tools print, as data: `ndnlab ctl face list` (the tests and `ndnlab emu` read
daemons' face counters from it) and the JSON summary `get --json` ends with."""
import json
import re


def tool_summary(text):
    """The JSON summary a tool run with --json prints last (get, ping: one line starting with
    "{" on stderr, after any progress lines), as a dict; {} when there is none."""
    lines = [ln for ln in text.splitlines() if ln.startswith("{")]
    if not lines:
        return {}
    try:
        return json.loads(lines[-1])
    except ValueError:
        return {}


def _counts(text):
    """`a=1 b-c=2` -> {"a": 1, "b-c": 2}: a counter group of `ctl face list`."""
    return {k: int(v) for k, v in (kv.split("=") for kv in text.split())}


def parse_face_list(text):
    """`ndnlab ctl face list` output -> one dict per face: faceid, remote, local, the
    network-layer counters (in_interests, out_interests, ...), and where present medium,
    bundle_interval and bundles (the BLEnD counters: out, absorbed, in, regenerated,
    gap-filled, stale, invalid, early, early-expired, recoveries), mircc ({"capacity": bit/s, "rate": bit/s}) on a face with
    MIRCC on, and lp (NDNLPv2 link reliability: retx-frames, acknowledged, retransmitted,
    exhausted, overflow, duplicates, acks-out, idle-acks-out) on a face with it on."""
    faces = []
    for line in text.splitlines():
        m = re.match(r"faceid=(\d+) remote=(\S+) local=(\S+)", line)
        if not m:
            continue
        face = {"faceid": int(m[1]), "remote": m[2], "local": m[3]}
        c = re.search(r"counters=\{in=\{(\d+)i (\d+)d (\d+)n (\d+)B\} out=\{(\d+)i (\d+)d (\d+)n (\d+)B\}\}", line)
        if c:
            keys = ("in_interests", "in_data", "in_nacks", "in_bytes",
                    "out_interests", "out_data", "out_nacks", "out_bytes")
            face.update(zip(keys, map(int, c.groups())))
        if (med := re.search(r" medium=(\w+)", line)):
            face["medium"] = med[1]
        if (bi := re.search(r" bundle-interval=(\d+)", line)):
            face["bundle_interval"] = int(bi[1])
        if (b := re.search(r" bundles=\{([^}]*)\}", line)):
            face["bundles"] = _counts(b[1])
        if (mr := re.search(r" mircc=\{capacity=(\d+)bit/s rate=(\d+)bit/s\}", line)):
            face["mircc"] = {"capacity": int(mr[1]), "rate": int(mr[2])}
        if (lp := re.search(r" lp=\{([^}]*)\}", line)):
            face["lp"] = _counts(lp[1])
        faces.append(face)
    return faces
