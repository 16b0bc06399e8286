"""Shared fixtures for integration and interop tests: built binaries and running daemons.

Every daemon runs with its own Unix socket in a temporary directory and (unless asked) no
TCP/UDP listener, so tests can run side by side and never touch /run/nfd.
"""
import contextlib
import hashlib
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUILD = pathlib.Path(os.environ.get("NDNLAB_BUILD", ROOT / "build"))
NDNLABD = BUILD / "daemon" / "ndnlabd"
NDNLAB = BUILD / "tools" / "ndnlab"


def _sanitized(build):
    """Whether `build` is an AddressSanitizer build (make sanitize): its processes' memory use
    is ASan's shadow, redzones and quarantine, not ndnlab's."""
    try:
        return "NDNLAB_SANITIZE:BOOL=ON" in (build / "CMakeCache.txt").read_text().splitlines()
    except OSError:
        return False


SANITIZED = _sanitized(BUILD)


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def write_random_file(path, size, seed=1):
    """Deterministic pseudo-random bytes (fast), `size` bytes."""
    import numpy as np
    rng = np.random.default_rng(seed)
    with open(path, "wb") as f:
        left = size
        while left:
            n = min(left, 8 << 20)
            f.write(rng.integers(0, 256, n, dtype=np.uint8).tobytes())
            left -= n
    return path


def parse_face_list(text):
    """`ndnlab ctl face list` output -> one dict per face (ndnlab.emu.faces)."""
    _emu()  # the checkout's package on sys.path
    from ndnlab.emu.faces import parse_face_list as parse
    return parse(text)


@contextlib.contextmanager
def serving(daemon, name, payload, *args):
    """`ndnlab serve NAME PAYLOAD ARGS...` attached to `daemon`, its route registered, for the
    duration of the block."""
    server = daemon.spawn_tool("serve", name, payload, *args)
    try:
        daemon.wait_for_route(name)
        yield server
    finally:
        server.terminate()
        server.wait(timeout=10)


_PORTS_HANDED_OUT = set()


def free_loopback_port(*kinds):
    """A 127.0.0.1 port free for every socket type in `kinds` (socket.SOCK_STREAM and/or
    socket.SOCK_DGRAM; ndnlabd's TCP and UDP channels share a number), and never one handed out
    before in this test session: the kernel readily offers a port just freed again, and the
    daemon given the first port may not have bound it yet (two calls in a row returned the same
    UDP port once). Ports tried and refused stay bound until the choice is made, so that the
    kernel offers another."""
    with contextlib.ExitStack() as held:
        for _ in range(50):
            first = held.enter_context(socket.socket(socket.AF_INET, kinds[0]))
            first.bind(("127.0.0.1", 0))
            port = first.getsockname()[1]
            if port in _PORTS_HANDED_OUT:
                continue
            try:
                for kind in kinds[1:]:
                    held.enter_context(socket.socket(socket.AF_INET, kind)).bind(("127.0.0.1", port))
            except OSError:
                continue
            _PORTS_HANDED_OUT.add(port)
            return port
    pytest.fail("no loopback port free for " + ", ".join(map(str, kinds)))


def pids_with(*parts):
    """pids of the processes whose command line contains every one of `parts`."""
    pids = []
    for proc in pathlib.Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if all(part in cmdline for part in parts):
                pids.append(int(proc.name))
    return pids


def wait_until(predicate, timeout, what, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout}s waiting for {what}")


def spawn(argv, netns=None, **kw):
    """subprocess.Popen(argv, **kw), inside network namespace `netns` (an `ip netns` name, as
    tests/netns.py makes them through ndnlab.emu.net) when given."""
    if netns is None:
        return subprocess.Popen(argv, **kw)
    return _emu().popen_in(netns, argv, **kw)


def run(argv, netns=None, **kw):
    """subprocess.run(argv, **kw), inside network namespace `netns` when given."""
    if netns is None:
        return subprocess.run(argv, **kw)
    return _emu().run_in(netns, argv, **kw)


def _emu():
    """ndnlab.emu.net of this checkout (imported on first use: it needs pyroute2)."""
    if str(ROOT / "python") not in sys.path:
        sys.path.insert(0, str(ROOT / "python"))
    from ndnlab.emu import net
    return net


def launch_forwarder(owner, cmd, what, netns=None):
    """Starts the forwarder `cmd` (in network namespace `netns` when given) with its output in
    `owner.log` (setting owner.proc and owner._logf) and waits up to 10 s for its Unix socket
    `owner.socket`. A timeout stops it (owner.stop()) and re-raises; exiting first raises
    RuntimeError with the log."""
    owner._logf = open(owner.log, "wb")
    owner.proc = spawn(cmd, netns, stdout=owner._logf, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: owner.socket.exists() or owner.proc.poll() is not None, 10, f"{what} socket")
    except TimeoutError:
        owner.stop()
        raise
    if owner.proc.poll() is not None:
        raise RuntimeError(f"{what} exited with {owner.proc.returncode}:\n{owner.log.read_text()}")


class Daemon:
    """An ndnlabd process with a config written into `workdir`; with `netns` (an `ip netns`
    name), it and the tools run_tool/spawn_tool start run in that network namespace."""

    def __init__(self, workdir, name="ndnlabd", tcp_port=0, udp_port=0, extra="", netns=None,
                 log_level="info"):
        self.workdir = pathlib.Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.socket = self.workdir / f"{name}.sock"
        self.netns = netns
        self.config = self.workdir / f"{name}.toml"
        self.log = self.workdir / f"{name}.log"
        self.config.write_text(
            f'[general]\nlog_level = "{log_level}"\n\n'
            f'[face_system.unix]\npath = "{self.socket}"\n\n'
            f"[face_system.tcp]\nenabled = {str(bool(tcp_port)).lower()}\nport = {tcp_port}\n\n"
            f"[face_system.udp]\nenabled = {str(bool(udp_port)).lower()}\nport = {udp_port}\n\n"
            + extra)
        self.proc = None

    def env(self):
        env = dict(os.environ)
        env["NDN_CLIENT_TRANSPORT"] = f"unix://{self.socket}"
        env["NDNLAB_SOCKET"] = str(self.socket)
        return env

    def start(self):
        launch_forwarder(self, [str(NDNLABD), "--config", str(self.config)], self.name, self.netns)
        return self

    def run_tool(self, *args, check=True, timeout=300, **kw):
        """Runs `ndnlab ARGS...` connected to this daemon."""
        result = run([str(NDNLAB), *map(str, args)], self.netns, env=self.env(), capture_output=True,
                     timeout=timeout, **kw)
        if check and result.returncode != 0:
            raise AssertionError(f"ndnlab {' '.join(map(str, args))} exited {result.returncode}:\n"
                                 f"{result.stderr.decode(errors='replace')}")
        return result

    def spawn_tool(self, *args, **kw):
        return spawn([str(NDNLAB), *map(str, args)], self.netns, env=self.env(), **kw)

    def faces(self):
        """The daemon's faces as parse_face_list() dicts."""
        return parse_face_list(self.run_tool("ctl", "face", "list", timeout=10).stdout.decode())

    def face(self, faceid):
        return next(f for f in self.faces() if f["faceid"] == int(faceid))

    def has_route(self, prefix):
        out = self.run_tool("ctl", "route", "list", check=False, timeout=10)
        return out.returncode == 0 and prefix in out.stdout.decode(errors="replace")

    def wait_for_route(self, prefix, timeout=10):
        wait_until(lambda: self.has_route(prefix), timeout, f"route {prefix} on {self.name}")

    def wait_for_route_gone(self, prefix, timeout=10):
        wait_until(lambda: not self.has_route(prefix), timeout, f"route {prefix} removed on {self.name}")

    def stop(self):
        """SIGTERM; the daemon must exit 0 within 10 s and remove its socket."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"{self.name} did not exit on SIGTERM")
        finally:
            self._logf.close()
        return rc


@pytest.fixture(scope="session")
def built_binaries():
    missing = [p for p in (NDNLABD, NDNLAB) if not p.exists()]
    if missing:
        pytest.fail(f"build first (make build): missing {', '.join(map(str, missing))}")


@pytest.fixture
def daemon(tmp_path, built_binaries):
    d = Daemon(tmp_path).start()
    yield d
    rc = d.stop()
    assert rc == 0, f"ndnlabd exit status {rc}; log:\n{d.log.read_text()}"
    assert not d.socket.exists(), "ndnlabd left its socket file behind"
