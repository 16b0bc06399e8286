"""Runs the NDNts client scripts of tests/interop/ndnts/ (Node.js) against a daemon (tests'
helpers). The NDNts packages are pinned in ndnts/package-lock.json and installed by
ndnts/install (`make test` runs it)."""
import contextlib
import functools
import http.server
import json
import os
import pathlib
import queue
import select
import shutil
import signal
import subprocess
import threading
import urllib.parse

import pytest

from conftest import pids_with, wait_until

NDNTS = pathlib.Path(__file__).resolve().parent / "ndnts"


def require_ndnts():
    """Fails the test with what to run when Node.js or the NDNts packages are missing."""
    if shutil.which("node") is None:
        pytest.fail("node is not installed: run `make test` (or scripts/install-deps --with-tests)")
    if not (NDNTS / "node_modules" / "@ndn" / "segmented-object").is_dir():
        pytest.fail(f"NDNts packages missing: run `make test` (or {NDNTS / 'install'})")


def ndnts_in_browser(ws_uri, name, workdir, timeout=60):
    """Headless Chromium runs the web page ndnts/browser/ (NDNts bundled by esbuild, the
    browser's own WebSocket): it fetches NAME over `ws_uri` and posts its result back to the
    page's server. Returns that result, "OK <bytes> <sha256>" or "ERROR <message>"."""
    require_ndnts()
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("chromium is not installed: run `make test` (or scripts/install-deps --with-tests)")
    site = pathlib.Path(workdir) / "site"
    site.mkdir()
    shutil.copy(NDNTS / "browser" / "index.html", site)
    bundle = subprocess.run([str(NDNTS / "node_modules" / ".bin" / "esbuild"), str(NDNTS / "browser" / "page.mjs"),
                             "--bundle", "--format=esm", "--platform=browser", f"--outfile={site / 'page.js'}",
                             "--log-level=warning"], capture_output=True, timeout=60)
    assert bundle.returncode == 0, bundle.stderr.decode()

    results = queue.Queue()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_POST(self):  # the page's result
            results.put(self.rfile.read(int(self.headers["Content-Length"])).decode())
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = (f"http://127.0.0.1:{server.server_address[1]}/index.html?"
           + urllib.parse.urlencode({"ws": ws_uri, "name": name}))
    log = pathlib.Path(workdir) / "chromium.log"
    with open(log, "wb") as err:
        # --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start;
        # --disable-dev-shm-usage: a container's /dev/shm may be small or missing.
        browser = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                                    "--disable-dev-shm-usage",
                                    f"--user-data-dir={pathlib.Path(workdir) / 'chromium-profile'}", url],
                                   stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    try:
        return results.get(timeout=timeout)
    except queue.Empty:
        pytest.fail(f"the page reported nothing within {timeout} s; chromium's log:\n"
                    f"{log.read_text(errors='replace')[-3000:]}")
    finally:
        os.killpg(browser.pid, signal.SIGKILL)
        browser.wait()
        profile = f"--user-data-dir={pathlib.Path(workdir) / 'chromium-profile'}"
        wait_until(lambda: not pids_with(profile), 10, "Chromium's helper processes to exit")
        server.shutdown()
        server.server_close()



def _env(daemon, uplink):
    env = daemon.env()
    if uplink:
        env["NDNTS_UPLINK"] = uplink
        del env["NDNLAB_SOCKET"]  # so the scripts cannot use the Unix socket instead
    return env


def _run(daemon, script, *args, uplink=None, timeout=120):
    require_ndnts()
    result = subprocess.run(["node", str(NDNTS / script), *map(str, args)], env=_env(daemon, uplink),
                            capture_output=True, timeout=timeout)
    assert result.returncode == 0, f"node {script} exited {result.returncode}:\n{result.stderr.decode()}"
    return result.stdout.decode()


def ndnts_fetch(daemon, discovery, name, out, uplink=None):
    """NDNts fetches NAME into OUT through `daemon`, finding the version by `discovery` (rdr or
    canbeprefix); returns the versioned name it fetched."""
    return _run(daemon, "consumer.mjs", discovery, name, out, uplink=uplink).strip()


def ndnts_mgmt(daemon, prefix):
    """NDNts's management client's view of `daemon` (mgmt.mjs): {"replies": ..., "datasets": ...,
    "queries": ...}."""
    return json.loads(_run(daemon, "mgmt.mjs", prefix, timeout=60))


@contextlib.contextmanager
def ndnts_serving(daemon, name, payload, uplink=None):
    """An NDNts producer serves PAYLOAD under NAME through `daemon`, its prefix registered by
    NDNts's rib/register, for the duration of the block; yields its versioned name."""
    require_ndnts()
    proc = subprocess.Popen(["node", str(NDNTS / "producer.mjs"), name, str(payload)],
                            env=_env(daemon, uplink), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        line = proc.stdout.readline().decode().split() if ready else []
        if line[:1] != ["ready"]:
            proc.kill()
            pytest.fail(f"producer.mjs did not start: {line} {proc.communicate()[1].decode()}")
        daemon.wait_for_route(name)
        yield line[1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
