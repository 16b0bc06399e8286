"""A flood of idle TCP connections (nothing sent on them) against ndnlabd: one address cannot
hold more faces than face_system.tcp.max_faces_per_address, the refusals are counted in
`ndnlab ctl drops`, and during the flood a legitimate client from another address registers a
prefix and another fetches from it, bit-exact. (Until 2026-11-26 each idle connection cost
256 KiB and nothing bounded them: 3,000 made the daemon take 800 MB.)
"""
import socket

from conftest import Daemon, free_loopback_port, serving, sha256_file, wait_until, write_random_file

PER_ADDRESS = 20
FLOOD = 60
FLOOD_FROM = "127.0.0.2"


def drops(daemon):
    out = daemon.run_tool("ctl", "drops", timeout=10).stdout.decode()
    pairs = (line.strip().split("=", 1) for line in out.splitlines()[1:] if "=" in line)  # after the header
    return {k: int(v) for k, v in pairs}


def test_connection_flood_is_bounded_and_legit_clients_work(tmp_path, built_binaries):
    port = free_loopback_port(socket.SOCK_STREAM)
    d = Daemon(tmp_path / "d", tcp_port=port)
    # the per-address bound goes into the [face_system.tcp] table the Daemon helper writes
    d.config.write_text(d.config.read_text().replace(
        "[face_system.tcp]\n", f"[face_system.tcp]\nmax_faces_per_address = {PER_ADDRESS}\n"))
    d.start()
    flood = []
    try:
        for _ in range(FLOOD):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((FLOOD_FROM, 0))
            s.connect(("127.0.0.1", port))
            flood.append(s)
        wait_until(lambda: drops(d).get("io_drop/too_many_faces_per_address", 0) == FLOOD - PER_ADDRESS,
                   10, "refusals counted")
        faces = d.faces()
        assert sum(f["remote"].startswith(f"tcp4://{FLOOD_FROM}:") for f in faces) == PER_ADDRESS

        # legitimate clients: a producer registers over TCP from 127.0.0.1, a consumer on the
        # Unix socket fetches from it
        payload = write_random_file(tmp_path / "legit.bin", 300_000, seed=7)
        with serving(d, "/legit/file", payload, "--connect", f"tcp4://127.0.0.1:{port}"):
            out = tmp_path / "out.bin"
            d.run_tool("get", "/legit/file", "-o", out, "--no-progress", timeout=60)
        assert sha256_file(out) == sha256_file(payload)
    finally:
        for s in flood:
            s.close()
        d.stop()
