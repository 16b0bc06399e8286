"""ndnd (github.com/named-data/ndnd: an NDN forwarder and tools written in Go, independent of
ndn-cxx, python-ndn and NDNts) as a peer of the interop tests. tests/interop/ndnd/install
builds the release pinned in ndnd/go.mod into ndnd/bin/ndnd (`make test` runs it)."""
import os
import pathlib
import re
import shutil
import signal
import subprocess

import pytest

from conftest import launch_forwarder, wait_until

NDND_DIR = pathlib.Path(__file__).resolve().parent / "ndnd"
NDND = NDND_DIR / "bin" / "ndnd"
NEEDS_GO_MINOR = 24  # ndnd's go.mod: go 1.24


def _go_minor():
    """Minor version of the `go` on the PATH (1.x), or None."""
    if shutil.which("go") is None:
        return None
    out = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True,
                         env={**os.environ, "GOTOOLCHAIN": "local"}).stdout
    m = re.match(r"go1\.(\d+)", out.strip())
    return int(m[1]) if m else None


def require_ndnd():
    """Skips the test when this machine cannot build ndnd (no Go >= 1.24: Debian 12 packages
    Go 1.19); fails it when it could and ndnd is not built."""
    if NDND.exists():
        return
    minor = _go_minor()
    if minor is None or minor < NEEDS_GO_MINOR:
        found = "no Go" if minor is None else f"Go 1.{minor}"
        pytest.skip(f"ndnd needs Go >= 1.{NEEDS_GO_MINOR} to build, this machine has {found} "
                    "(docs/decisions/0003-ndnd-interop.md)")
    pytest.fail(f"ndnd is not built: run `make test` (or {NDND_DIR / 'install'})")


def run_ndnd(socket, *args, stdin=None, timeout=60, check=True):
    """Runs an ndnd tool (`ndnd cat`, `ndnd fw status`, ...) connected to the forwarder at the
    Unix socket `socket` (ndnd reads NDN_CLIENT_TRANSPORT, as ndn-cxx does)."""
    require_ndnd()
    result = subprocess.run([str(NDND), *map(str, args)], input=stdin, capture_output=True, timeout=timeout,
                            env={**os.environ, "NDN_CLIENT_TRANSPORT": f"unix://{socket}"})
    if check and result.returncode != 0:
        raise AssertionError(f"ndnd {' '.join(map(str, args))} exited {result.returncode}:\n"
                             f"{result.stdout.decode(errors='replace')}{result.stderr.decode(errors='replace')}")
    return result


def spawn_ndnd(socket, *args, stdin=None, log=None):
    """Starts a long-running ndnd tool (put, pingserver) on the forwarder at `socket`."""
    require_ndnd()
    return subprocess.Popen([str(NDND), *map(str, args)], stdin=stdin,
                            stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT if log else subprocess.DEVNULL,
                            env={**os.environ, "NDN_CLIENT_TRANSPORT": f"unix://{socket}"})


def stop(proc, timeout=10):
    """SIGTERM, then SIGKILL if it does not exit in time; returns the exit status."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


def parse_status_lines(text):
    """ndnd's `fw` command replies: "Status=200 (OK)" then "  Key=Value" lines -> dict of
    str values, with "Status" the code as an int."""
    out = {}
    for line in text.splitlines():
        if (m := re.match(r"Status=(\d+)", line)):
            out["Status"] = int(m[1])
        elif (m := re.match(r"\s+(\w+)=(.*)", line)):
            out[m[1]] = m[2].strip()
    return out


class NdndForwarder:
    """`ndnd fw run` with its Unix socket in `workdir` and unicast UDP and TCP channels on one
    port (ndnd listens on every address; the tests send only to 127.0.0.1 or inside a network
    namespace). With `multicast`, also NFD's UDP multicast faces (224.0.23.170:56363) on every
    multicast-capable interface. No WebSocket. `netns` runs it in that network namespace; its
    tools still reach it through the Unix socket's path."""

    def __init__(self, workdir, port, mtu=1420, multicast=False, netns=None):
        self.workdir = pathlib.Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.socket = self.workdir / "ndnd.sock"
        self.port = port
        self.config = self.workdir / "ndnd.yml"
        self.log = self.workdir / "ndnd.log"
        self.netns = netns
        self.config.write_text(
            "core:\n  log_level: INFO\n"
            "faces:\n"
            f"  udp:\n    enabled_unicast: true\n    enabled_multicast: {str(multicast).lower()}\n"
            f"    port_unicast: {port}\n"
            f"    default_mtu: {mtu}\n"
            f"  tcp:\n    enabled: true\n    port_unicast: {port}\n"
            f"  unix:\n    enabled: true\n    socket_path: {self.socket}\n"
            "  websocket:\n    enabled: false\n"
            "fw:\n  threads: 2\n")
        self.proc = None

    def start(self):
        require_ndnd()
        launch_forwarder(self, [str(NDND), "fw", "run", str(self.config)], "ndnd fw", self.netns)
        return self

    def run(self, *args, **kw):
        return run_ndnd(self.socket, *args, **kw)

    def face_id(self, remote_uri):
        """FaceId of the face whose remote URI is `remote_uri` (from `ndnd fw face-list`)."""
        faces = self.run("fw", "face-list", timeout=10).stdout.decode()
        m = re.search(rf"faceid=(\d+) remote={re.escape(remote_uri)} ", faces)
        assert m, faces
        return int(m[1])

    def has_route(self, prefix):
        out = self.run("fw", "route-list", check=False, timeout=10)
        return out.returncode == 0 and f"prefix={prefix} " in out.stdout.decode(errors="replace")

    def wait_for_route(self, prefix, timeout=10):
        wait_until(lambda: self.has_route(prefix), timeout, f"route {prefix} on ndnd")

    def stop(self):
        if self.proc is None:
            return None
        rc = stop(self.proc)
        self._logf.close()
        return rc
