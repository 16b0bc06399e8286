"""What a Dask worker runs: one simulator subprocess per task.

Kept free of pandas/matplotlib so that workers start quickly. A task is a dict with key,
command (argv), out_dir, timeout (seconds or None) and, on a LocalCluster, campaign_pid (the
campaign process, the workers' parent); the return value is the part of the run record the
worker knows (status, exit code, times, stderr tail, parsed result.json). A run whose campaign
has gone is stopped (_orphaned).
"""

import ctypes
import datetime
import functools
import hashlib
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

STDERR_TAIL_LINES = 20
STDERR_TAIL_CHARS = 4000
_KILL_GRACE_S = 3.0
_ORPHAN_CHECK_S = 0.5  # seconds between checks that the worker still has its campaign
_PR_SET_PDEATHSIG = 1

# Simulator processes running in this worker process, by run key (see terminate_running).
_running = {}
_cancelled = set()
_lock = threading.Lock()


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")


def _worker_address():
    try:
        from distributed import get_worker
        return get_worker().address
    except (ImportError, ValueError):
        return None


def stderr_tail(path):
    """The last lines of a log file (at most STDERR_TAIL_LINES lines / STDERR_TAIL_CHARS)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 4 * STDERR_TAIL_CHARS))
            data = f.read().decode(errors="replace")
    except OSError:
        return ""
    lines = data.rstrip("\n").splitlines()[-STDERR_TAIL_LINES:]
    return "\n".join(lines)[-STDERR_TAIL_CHARS:]


def _kill_group(proc, sig):
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _stop(proc):
    """SIGTERM to the run's process group, SIGKILL if it is still there after a grace period."""
    _kill_group(proc, signal.SIGTERM)
    try:
        proc.wait(timeout=_KILL_GRACE_S)
    except subprocess.TimeoutExpired:
        _kill_group(proc, signal.SIGKILL)
        proc.wait()


def _load_prctl():
    """libc's prctl, or None where there is none (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl  # the C library the interpreter uses
    except (OSError, AttributeError):
        return None


_prctl = _load_prctl()  # looked up here: the child of fork() only calls it


def _start_simulator(worker_pid):
    """preexec_fn of a simulator (runs in the child between fork and exec, so it only makes
    calls that need no lock: no imports, no lookups): a clean signal mask (the worker blocks
    SIGINT and SIGHUP, see campaign.dask_client, and a mask survives exec), and SIGKILL when the
    thread that started it (the worker's task thread, which waits for it) ends, so that a
    simulator never outlives its worker, whatever killed the worker."""
    signal.pthread_sigmask(signal.SIG_SETMASK, ())
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != worker_pid:  # the worker died before prctl: no signal will come
            os._exit(1)


def _orphaned(campaign_pid):
    """Why the run has lost its campaign, or None while it has not:
    - on a LocalCluster, the worker's parent is the campaign process `campaign_pid`: once that
      has gone, the worker has been re-parented;
    - on any cluster (a --scheduler one too, whose workers are nobody's children), the scheduler
      releases the task when the campaign's client goes (killed, or its machine lost), and the
      worker marks the running task cancelled. Outside a Dask worker (tests) this never fires."""
    if campaign_pid is not None and os.getppid() != campaign_pid:
        return "the worker lost its campaign (its parent process ended)"
    try:
        from distributed import get_worker
        dask_worker = get_worker()
    except (ImportError, ValueError):
        return None
    task = dask_worker.state.tasks.get(dask_worker.get_current_task())
    if task is None or task.state in ("cancelled", "released", "forgotten"):
        return "the scheduler released the run (its campaign has gone or cancelled it)"
    return None


def _wait(proc, timeout, campaign_pid):
    """proc's exit code; raises TimeoutExpired after `timeout` seconds (None: no limit) and
    _Orphaned (with the reason) when the run loses its campaign meanwhile."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        step = _ORPHAN_CHECK_S
        if deadline is not None:
            step = min(step, max(0.0, deadline - time.monotonic()))
        try:
            return proc.wait(timeout=step)
        except subprocess.TimeoutExpired:
            reason = _orphaned(campaign_pid)
            if reason:
                raise _Orphaned(reason) from None
            if deadline is not None and time.monotonic() >= deadline:
                raise


class _Orphaned(Exception):
    """The run's campaign has gone (the exception's argument says how it was noticed)."""


def execute_run(task):
    """Runs one simulator subprocess to completion (or timeout) and returns its record part."""
    key = task["key"]
    out_dir = pathlib.Path(task["out_dir"])
    timeout = task.get("timeout")
    record = {"key": key, "started": _now(), "worker": _worker_address(),
              "host": socket.gethostname(), "exit_code": None, "stderr_tail": "",
              "error": None, "result": None}
    start = time.monotonic()
    try:
        if out_dir.exists():
            shutil.rmtree(out_dir)  # leftovers of an attempt that did not finish
        out_dir.mkdir(parents=True)
        with open(out_dir / "stdout.log", "wb") as out, open(out_dir / "stderr.log", "wb") as err:
            # Own process group: a timeout or cancel stops the simulator and anything it started.
            # This thread waits for it, so the parent-death signal (set by _start_simulator)
            # fires exactly when the worker goes.
            proc = subprocess.Popen(task["command"], stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=err, process_group=0,
                                    preexec_fn=functools.partial(_start_simulator, os.getpid()))
            with _lock:
                _running[key] = proc
            try:
                record["exit_code"] = _wait(proc, timeout, task.get("campaign_pid"))
                status = "ok" if record["exit_code"] == 0 else "failed"
            except subprocess.TimeoutExpired:
                _stop(proc)
                record["exit_code"] = proc.returncode
                status = "timeout"
                record["error"] = f"no result after the {timeout:g} s timeout; killed"
            except _Orphaned as e:
                _stop(proc)
                record["exit_code"] = proc.returncode
                status = "error"
                record["error"] = f"{e}; simulator stopped"
            finally:
                with _lock:
                    _running.pop(key, None)
                    cancelled = key in _cancelled
                    _cancelled.discard(key)
        if cancelled:
            status = "cancelled"
            record["error"] = "cancelled by the campaign"
        record["stderr_tail"] = stderr_tail(out_dir / "stderr.log")
        if status == "ok":
            status = _read_result(out_dir, record)
        elif status == "failed":
            record["error"] = _exit_text(record["exit_code"])
    except OSError as e:
        status = "error"
        record["error"] = f"{type(e).__name__}: {e}"
    record["status"] = status
    record["wall_time_s"] = time.monotonic() - start
    record["finished"] = _now()
    return record


def _exit_text(code):
    """`exit code 3`, or for a simulator killed by a signal `exit code -9 (killed by SIGKILL)`."""
    text = f"exit code {code}"
    if code < 0:
        try:
            text += f" (killed by {signal.Signals(-code).name})"
        except ValueError:
            pass
    return text


def _read_result(out_dir, record):
    path = out_dir / "result.json"
    try:
        with open(path) as f:
            result = json.load(f)
    except FileNotFoundError:
        record["error"] = "exit code 0 but no result.json in the output directory"
        return "failed"
    except ValueError as e:
        record["error"] = f"result.json is not valid JSON: {e}"
        return "failed"
    if not isinstance(result, dict):
        record["error"] = "result.json is not a JSON object"
        return "failed"
    record["result"] = result
    return "ok"


def terminate_running():
    """Stops every simulator this worker process is running (campaign cancelled); returns how
    many it stopped. Called on each worker through Client.run."""
    with _lock:
        procs = list(_running.items())
        _cancelled.update(key for key, _ in procs)
    for _, proc in procs:
        _kill_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + _KILL_GRACE_S
    for _, proc in procs:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _kill_group(proc, signal.SIGKILL)
    return len(procs)


class DescribeError(Exception):
    """`SIM --describe` failed or printed something else than a list of scenarios."""


def simulator_description(simulator):
    """The scenarios of `SIM --describe`: a list of {name, parameters: [{name, ...}], ...}.
    Raises DescribeError with the reason (exit code and stderr, or the shape that is wrong)."""
    try:
        done = subprocess.run([simulator, "--describe"], capture_output=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise DescribeError(f"`{simulator} --describe` gave no answer in 60 s") from None
    except OSError as e:
        raise DescribeError(f"cannot run `{simulator} --describe`: {e.strerror or e}") from None
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        raise DescribeError(f"`{simulator} --describe` exited with {done.returncode}"
                            + (f": {lines[-1][:200]}" if lines else ""))
    try:
        scenarios = json.loads(done.stdout)
    except ValueError as e:
        raise DescribeError(f"`{simulator} --describe` did not print JSON: {e}") from None
    shape_ok = isinstance(scenarios, list) and all(
        isinstance(s, dict) and isinstance(s.get("name"), str)
        and isinstance(s.get("parameters"), list)
        and all(isinstance(p, dict) and isinstance(p.get("name"), str)
                for p in s["parameters"])
        for s in scenarios)
    if not shape_ok:
        raise DescribeError(f"`{simulator} --describe` did not print a list of "
                            "{name, parameters: [{name, ...}]} scenarios")
    return scenarios


def simulator_version(simulator):
    """The simulator's version text: the first line of `SIM --version`, or else a hash of the
    executable ("sha256:<16 hex>") so that a rebuilt simulator never reuses old results."""
    try:
        done = subprocess.run([simulator, "--version"], capture_output=True, timeout=30,
                              stdin=subprocess.DEVNULL)
        lines = [s.strip() for s in done.stdout.decode(errors="replace").splitlines() if s.strip()]
        if done.returncode == 0 and lines:
            return lines[0]
    except (OSError, subprocess.TimeoutExpired):
        pass
    path = shutil.which(simulator) or simulator
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()[:16]
