"""A flood of Interests for random names (nobody answers them) against an ndnlabd with small
table limits: the PIT stays within its bound, the daemon's memory stays within a bound derived
from the limits, the flood is dropped with PIT-limit reasons, and a legitimate fetch running
during the flood still completes bit-exact.

The flood comes from `ndnlab-fwd-bench --flood max` spread over four faces, routed to a sink
face that never answers, so every admitted Interest holds a PIT entry for its whole 4 s
lifetime. The PIT's fair-share admission (a face may hold at most as many in-records as there
are free entries) keeps the flooders from filling the table, so the legitimate consumer and
`ndnlab ctl` are admitted at once.
"""
import json
import subprocess
import threading
import time

import pytest

from conftest import BUILD, SANITIZED, Daemon, sha256_file, write_random_file

FWD_BENCH = BUILD / "bench" / "ndnlab-fwd-bench"

PIT_MAX = 2000
FLOOD_FACES = 4
CS_MAX = 1000
FLOOD_SECONDS = 15 if SANITIZED else 5  # the get must end while the flood runs
FILE_SIZE = 1 << 20

LIMITS = f"[tables]\npit_max_entries = {PIT_MAX}\ncs_max_packets = {CS_MAX}\n"


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def status(daemon):
    out = daemon.run_tool("ctl", "status", timeout=10).stdout.decode()
    return {k.strip(): v.strip() for k, v in
            (line.split("=", 1) for line in out.splitlines() if "=" in line)}


def shutdown_counters(log_text):
    """'  drop/pit_full: 123' lines of the daemon's shutdown summary."""
    counters = {}
    for line in log_text.splitlines():
        key, sep, value = line.strip().rpartition(": ")
        if sep and "/" in key and value.isdigit():
            counters[key] = int(value)
    return counters


@pytest.fixture
def limited_daemon(tmp_path, built_binaries):
    if not FWD_BENCH.exists():
        pytest.fail(f"build first (make build): missing {FWD_BENCH}")
    d = Daemon(tmp_path / "d", extra=LIMITS).start()
    yield d
    d.stop()


def test_flood_stays_within_limits_and_legit_fetch_completes(limited_daemon, tmp_path):
    d = limited_daemon
    time.sleep(0.5)
    idle = rss_kib(d.proc.pid)

    payload = write_random_file(tmp_path / "legit.bin", FILE_SIZE, seed=11)
    server = d.spawn_tool("serve", "/legit/file", payload, "-q")
    flood = None
    samples = []
    pit_seen = []
    stop = threading.Event()
    try:
        d.wait_for_route("/legit/file")

        def sample():
            while not stop.is_set():
                samples.append(rss_kib(d.proc.pid))
                time.sleep(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        flood = subprocess.Popen([str(FWD_BENCH), "--socket", str(d.socket), "--flood", "max",
                                  "--flood-faces", str(FLOOD_FACES),
                                  "--duration", str(FLOOD_SECONDS), "--json"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(1.5)  # the flooders' PIT shares are full by now

        out = tmp_path / "out.bin"
        d.run_tool("get", "/legit/file", "-o", out, "--cc", "cubic", "--no-progress", timeout=60)
        # Admitted within its fair share, the get never waits for flood entries to expire
        # (4 s), so it ends while the flood still runs; with first-come admission
        # (pit_share_factor = 0) the four flooders fill the PIT and it does not.
        assert flood.poll() is None, "the flood ended before the legitimate get finished"
        # management is answered during the flood too (its Interests need a PIT entry)
        pit_seen.append(int(status(d)["nPitEntries"]))

        fout, ferr = flood.communicate(timeout=FLOOD_SECONDS + 30)
        stop.set()
        sampler.join()
        assert flood.returncode == 0, ferr.decode(errors="replace")
        result = json.loads(fout.decode().strip().splitlines()[-1])
    finally:
        stop.set()  # also when an assertion above failed: the sampler must not outlive the daemon
        if flood is not None and flood.poll() is None:
            flood.kill()
        server.terminate()
        server.wait(timeout=10)

    assert sha256_file(out) == sha256_file(payload)

    # The flood was real: far more Interests than the PIT can hold reached the daemon.
    assert result["sent"] > 10 * PIT_MAX, result
    assert result["data"] == 0
    assert 0 < pit_seen[0] < PIT_MAX, "the flooders filled the PIT"
    # The sink saw at most one PIT-full of flood Interests per Interest lifetime (4 s).
    assert result["reached_sink"] <= PIT_MAX * (FLOOD_SECONDS // 4 + 2), result

    # Memory bound derived from the limits, generously: 4 KiB per PIT entry, 10 KiB per cached
    # Data (8800-octet segments plus overhead), 1 MiB per face for stream buffers, and 24 MiB of
    # allocator slack. An unbounded PIT would hold ~hundreds of thousands of entries here.
    faces = 4 + FLOOD_FACES  # sink, flooders, server, get, ctl
    bound = idle + PIT_MAX * 4 + CS_MAX * 10 + faces * 1024 + 24 * 1024
    peak = max(samples)
    if SANITIZED:  # ASan's quarantine alone holds up to 256 MiB of freed blocks
        print(f"peak RSS {peak} KiB, bound {bound} KiB not checked: sanitizer build")
    else:
        assert peak < bound, f"peak RSS {peak} KiB above {bound} KiB (idle {idle} KiB)"

    rc = d.stop()
    assert rc == 0
    counters = shutdown_counters(d.log.read_text(errors="replace"))
    pit_drops = counters.get("drop/pit_full", 0) + counters.get("drop/pit_face_quota", 0)
    assert pit_drops > 0, f"no PIT-limit drops in the daemon's counters: {counters}"
    assert pit_drops >= result["sent"] - result["reached_sink"] - PIT_MAX
