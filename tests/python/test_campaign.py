"""End-to-end tests of `ndnlab campaign`, `ndnlab plot` and `ndnlab report` with a fake
simulator (tests/python/fake_sim.py) on a Dask LocalCluster of two worker processes."""

import contextlib
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAKE_SIM = ROOT / "tests" / "python" / "fake_sim.py"
sys.path.insert(0, str(ROOT / "python"))

from ndnlab import load_results  # noqa: E402
from ndnlab import plot as plot_cli  # noqa: E402
from ndnlab import report as report_cli  # noqa: E402

from conftest import BUILD, pids_with  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def env(**extra):
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python")] + (
        [e["PYTHONPATH"]] if e.get("PYTHONPATH") else []))
    e.pop("NDNLAB_SIM", None)
    e.update(extra)
    return e


def campaign(*args, timeout=120, **env_extra):
    """`ndnlab campaign ARGS` as a subprocess (stdout and stderr are pipes, not a terminal)."""
    return subprocess.run([sys.executable, "-m", "ndnlab", "campaign", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env(**env_extra))


def write_spec(directory, name, grid, seeds=2, timeout=20, extra=""):
    directory.mkdir(parents=True, exist_ok=True)
    lines = [f'[campaign]\nname = "{name}"\nscenario = "wifi-one-hop"\n'
             f'simulator = "{FAKE_SIM}"\nstore = "store-{name}"\nseeds = {seeds}\n'
             f"timeout = {timeout}\n\n[grid]"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in grid.items()]
    path = directory / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n" + extra)
    return path


def index_lines(store):
    return (store / "index.jsonl").read_text().splitlines()


@pytest.fixture(scope="module")
def fig1(tmp_path_factory):
    """A tiny BLEnD Fig. 1-like campaign: 2 standards x 2 consumers x 2 seeds, run once."""
    directory = tmp_path_factory.mktemp("fig1")
    spec = write_spec(directory, "fig1", {"Standard": ["802.11b", "802.11n"],
                                          "Consumer": ["aimd", "one-interest"]},
                      extra='\n[paper]\nexperiment = "blend-fig1"\n')
    first = campaign(spec, "--workers", 2, "--progress-interval", 0.5)
    return spec, directory / "store-fig1", first


def test_campaign_runs_every_point_and_seed_on_two_worker_processes(fig1):
    spec, store, first = fig1
    assert first.returncode == 0, first.stdout + first.stderr
    assert "8 runs (4 grid points x 2 seeds)" in first.stdout
    assert "on 2 workers" in first.stdout
    assert "8 ok, 0 failed" in first.stdout
    # not a terminal: progress comes as lines, the last one complete
    assert "fig1: 0/8 runs done" in first.stderr
    assert "fig1: 8/8 runs done, 0 failed" in first.stderr
    assert len(index_lines(store)) == 8
    df = load_results(spec)
    assert len(df) == 8 and set(df["status"]) == {"ok"}
    assert sorted(df["seed"].tolist()) == [1, 1, 1, 1, 2, 2, 2, 2]
    assert df["goodput_mbps"].between(3, 20).all()
    # the simulator's parent is the worker process: two processes ran the runs
    assert df["ppid"].nunique() == 2 and df["worker"].nunique() == 2
    run_dir = store / "runs" / df["key"].iloc[0]
    assert (run_dir / "result.json").exists() and (run_dir / "traces" / "rates.csv").exists()
    assert json.loads((run_dir / "run.json").read_text())["status"] == "ok"
    assert (store / "specs" / "fig1.toml").exists()


def test_second_invocation_reruns_nothing(fig1):
    spec, store, _ = fig1
    before = index_lines(store)
    start = time.monotonic()
    again = campaign(spec, "--workers", 2)
    assert again.returncode == 0, again.stderr
    assert "nothing to run: all 8 runs are already in the store" in again.stdout
    assert "running" not in again.stdout  # no cluster was started
    assert index_lines(store) == before
    assert time.monotonic() - start < 30


def test_dry_run_of_a_new_campaign_creates_no_store(tmp_path):
    spec = write_spec(tmp_path, "fresh", {"Consumer": ["aimd", "cubic"]}, seeds=1)
    dry = campaign(spec, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "dry run: 2 runs would run" in dry.stdout
    assert not (tmp_path / "store-fresh").exists()


def test_dry_run_lists_commands_and_a_new_simulator_version_means_new_runs(fig1):
    spec, store, _ = fig1
    before = index_lines(store)
    files = {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in store.rglob("*")}
    assert store / ".lock" in files
    time.sleep(0.05)  # a write would show in the modification times
    dry = campaign(spec, "--dry-run", FAKE_SIM_VERSION="2.0")
    assert dry.returncode == 0, dry.stderr
    assert "(fake-sim 2.0)" in dry.stdout
    commands = [line for line in dry.stdout.splitlines() if line.startswith(str(FAKE_SIM))]
    assert len(commands) == 8
    assert "wifi-one-hop --Standard=802.11b --Consumer=aimd --seed=1 --out=" in commands[0]
    assert "dry run: 8 runs would run" in dry.stdout
    assert index_lines(store) == before
    assert {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in store.rglob("*")} == files


def store_files(store):
    return {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in store.rglob("*")}


def test_verify_reruns_stored_runs_and_finds_them_identical(fig1):
    spec, store, _ = fig1
    files = store_files(store)
    verified = campaign(spec, "--verify", 3, "--workers", 2)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "rerunning 3 of the 8 stored runs" in verified.stdout
    lines = [line for line in verified.stdout.splitlines() if line.startswith("  identical")]
    assert len(lines) == 3
    # spread over the spec's order: the first and the last run are among them
    assert lines[0].endswith("Standard=802.11b Consumer=aimd seed=1")
    assert lines[-1].endswith("Standard=802.11n Consumer=one-interest seed=2")
    assert "3 identical, 0 differ, 0 failed" in verified.stdout
    assert store_files(store) == files  # the store is not touched


def test_verify_names_the_metrics_a_rerun_changed(fig1):
    spec, store, _ = fig1
    files = store_files(store)
    verified = campaign(spec, "--verify", 2, "--workers", 2, FAKE_SIM_DRIFT="1")
    assert verified.returncode == 1, verified.stdout + verified.stderr
    differs = [line for line in verified.stdout.splitlines() if line.startswith("  DIFFERS")]
    assert len(differs) == 2
    assert "goodput_mbps" in differs[0] and " -> " in differs[0]
    assert "retransmissions" not in differs[0]  # unchanged metrics are not listed
    assert "0 identical, 2 differ, 0 failed" in verified.stdout
    kept = [line for line in verified.stdout.splitlines() if "the reruns' outputs are in" in line]
    rerun_dir = pathlib.Path(kept[0].split(" are in ")[1].split(";")[0])
    assert len(list(rerun_dir.glob("*/result.json"))) == 2
    shutil.rmtree(rerun_dir)
    assert store_files(store) == files


def test_verify_compares_the_metrics_a_stored_result_has():
    from ndnlab.verify import compare_results
    stored = {"metrics": {"goodput_mbps": 1.5, "timeouts": 0}, "event_count": 7}
    # a metric added to the result fields since: nothing to reproduce
    assert compare_results(stored, {"metrics": {"goodput_mbps": 1.5, "timeouts": 0, "probes": 3},
                                    "event_count": 7}) == []
    # one the rerun lacks, or a changed one, differs
    assert compare_results(stored, {"metrics": {"goodput_mbps": 1.5}, "event_count": 7}) == [
        ("timeouts", 0, None)]
    assert compare_results(stored, {"metrics": {"goodput_mbps": 2.0, "timeouts": 0},
                                    "event_count": 7}) == [("goodput_mbps", 1.5, 2.0)]


def test_verify_needs_stored_runs_and_a_sane_count(tmp_path):
    spec = write_spec(tmp_path, "empty", {"Consumer": ["aimd"]}, seeds=1)
    r = campaign(spec, "--verify", 1)
    assert r.returncode == 2 and "nothing to verify" in r.stderr, r.stderr
    assert not (tmp_path / "store-empty").exists()
    for args in (("--verify", 0), ("--verify", 1, "--force"), ("--verify", 1, "--dry-run")):
        r = campaign(spec, *args)
        assert r.returncode == 2 and "--verify" in r.stderr, r.stderr


def test_force_reruns_everything(fig1):
    spec, store, _ = fig1
    forced = campaign(spec, "--workers", 2, "--force")
    assert forced.returncode == 0, forced.stderr
    assert "--force: rerunning all 8 runs" in forced.stdout
    assert "8 ok, 0 failed" in forced.stdout
    assert len(index_lines(store)) == 16
    assert len(load_results(spec)) == 8  # one row per run, the latest record


def test_failures_are_recorded_without_stopping_the_campaign(tmp_path):
    spec = write_spec(tmp_path, "modes", {"Mode": ["ok", "fail", "hang", "noresult"]},
                      seeds=1, timeout=4)
    done = campaign(spec, "--workers", 2)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 ok, 3 failed" in done.stdout
    # the summary gives the simulator's own reason (the last line of its stderr)
    assert ("Mode=fail seed=1 (failed: exit code 3: fake_sim: simulated failure: the channel "
            "caught fire;") in done.stdout
    assert "Mode=hang seed=1 (timeout: no result after the 4 s timeout; killed;" in done.stdout
    assert "Mode=noresult seed=1 (failed: exit code 0 but no result.json" in done.stdout
    assert "stderr: fake_sim: simulated failure: the channel caught fire" in done.stderr
    records = [json.loads(line) for line in index_lines(tmp_path / "store-modes")]
    by_mode = {r["params"]["Mode"]: r for r in records}
    assert by_mode["ok"]["status"] == "ok"
    assert by_mode["fail"]["exit_code"] == 3
    assert "channel caught fire" in by_mode["fail"]["stderr_tail"]
    assert by_mode["hang"]["status"] == "timeout"
    # the failed runs (only those) are retried by the next invocation
    dry = campaign(spec, "--dry-run")
    assert "1 runs already in the store are skipped; 3 to run" in dry.stdout
    report = tmp_path / "report.md"
    assert report_cli.main([str(spec), "-o", str(report)]) == 0
    text = report.read_text()
    assert "## Failed runs" in text and "exit code 3" in text and "timeout" in text


def _simulators_of(store):
    """pids of fake simulators writing into `store`."""
    return pids_with("fake_sim.py", str(store))


def _status(pid):
    """/proc/PID/status as {name: value}; {} once the process is gone."""
    try:
        lines = pathlib.Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


def _blocked_or_ignored(pid, signum):
    status = _status(pid)
    mask = int(status.get("SigBlk", "0"), 16) | int(status.get("SigIgn", "0"), 16)
    return bool(mask & (1 << (signum - 1)))


def _workers_of(campaign_pid):
    """pids of the Dask worker processes a campaign started."""
    pids = []
    for proc in pathlib.Path("/proc").iterdir():
        if proc.name.isdigit() and _status(proc.name).get("PPid") == str(campaign_pid):
            try:
                if b"multiprocessing.spawn" in (proc / "cmdline").read_bytes():
                    pids.append(int(proc.name))
            except OSError:
                continue
    return pids


def _wait_for(condition, seconds, step=0.1):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(step)
    return condition()


class _Campaign:
    """`ndnlab campaign ARGS` in a session of its own, with SIGINT, SIGHUP and SIGTERM at their
    defaults, the dispositions a terminal's foreground job has, whatever runs the tests (a shell
    starts background jobs with SIGINT ignored, nohup ignores SIGHUP, and an ignored signal is
    inherited); `nohup=True` ignores SIGHUP as nohup does. stdout and stderr go to files
    (unbuffered), so that a test can watch them. Leaving the `with` kills whatever is left,
    simulators included."""

    def __init__(self, tmp_path, spec, store, *args, nohup=False):
        self.store, self.out_path, self.err_path = store, tmp_path / "out.txt", tmp_path / "err.txt"

        def dispositions():
            for signum in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
                signal.signal(signum, signal.SIG_DFL)
            if nohup:
                signal.signal(signal.SIGHUP, signal.SIG_IGN)

        with open(self.out_path, "w") as out, open(self.err_path, "w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "ndnlab", "campaign", str(spec), *map(str, args)],
                stdout=out, stderr=err, env=env(PYTHONUNBUFFERED="1"), start_new_session=True,
                preexec_fn=dispositions)
        self.pid = self.proc.pid

    @property
    def out(self):
        return self.out_path.read_text()

    @property
    def err(self):
        return self.err_path.read_text()

    def wait(self, timeout=30):
        return self.proc.wait(timeout=timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            os.killpg(self.pid, signal.SIGKILL)
            self.proc.wait()
        _kill_simulators(self.store)


def _kill_simulators(store):
    """Clean-up after a failed test: the simulators are in process groups of their own."""
    for pid in _simulators_of(store):
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)


def test_ctrl_c_cancels_the_campaign_and_stops_the_simulators(tmp_path):
    spec = write_spec(tmp_path, "slow", {"Sleep": [30]}, seeds=4, timeout=60)
    store = tmp_path / "store-slow"
    with _Campaign(tmp_path, spec, store, "--workers", 2, "--progress-interval", 0.5) as c:
        assert _wait_for(lambda: len(_simulators_of(store)) == 2, 60), \
            "the two simulators never started"
        # the workers never see a terminal's Ctrl-C; the simulators get their signals as usual
        workers = _workers_of(c.pid)
        assert len(workers) == 2
        assert all(_blocked_or_ignored(pid, signal.SIGINT) for pid in workers)
        assert not any(_blocked_or_ignored(pid, signal.SIGINT) for pid in _simulators_of(store))
        os.killpg(c.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        assert c.wait() == 130, c.out + c.err
        assert "interrupted: cancelling 4 unfinished runs" in c.err
        assert "run the same command again to resume" in c.out
        assert "Traceback" not in c.err
        assert _wait_for(lambda: not _simulators_of(store), 10), _simulators_of(store)
        assert _wait_for(lambda: not _workers_of(c.pid), 10)
    assert not (store / "index.jsonl").exists()  # nothing was recorded as done


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_stop_the_campaign_like_ctrl_c(tmp_path, signum, status):
    """kill, timeout, systemd, Slurm and CI send SIGTERM; a closed terminal sends SIGHUP."""
    spec = write_spec(tmp_path, "term", {"Sleep": [0.1, 30]}, seeds=2, timeout=60)
    store = tmp_path / "store-term"
    with _Campaign(tmp_path, spec, store, "--workers", 2, "--progress-interval", 0.5) as c:
        # the two 0.1 s runs recorded, the two 30 s ones running
        assert _wait_for(lambda: (store / "index.jsonl").exists() and len(index_lines(store))
                         == 2 and len(_simulators_of(store)) == 2, 60), "no 30 s runs running"
        os.kill(c.pid, signum)  # the campaign process only, as `kill PID` does
        assert c.wait() == status, c.out + c.err
        name = signal.Signals(signum).name
        assert f"interrupted by {name}: cancelling 2 unfinished runs" in c.err
        assert (f"campaign term interrupted by {name}: 2 of 4 runs recorded; run the same "
                "command again to resume") in c.out
        assert "Traceback" not in c.err
        assert _wait_for(lambda: not _simulators_of(store), 10), _simulators_of(store)
    assert len(index_lines(store)) == 2


def test_a_campaign_started_with_nohup_runs_on_after_a_hang_up(tmp_path):
    """nohup asks that SIGHUP be ignored: the campaign keeps it ignored and finishes its runs."""
    spec = write_spec(tmp_path, "nohup", {"Sleep": [0.1, 3]}, seeds=2, timeout=60)
    store = tmp_path / "store-nohup"
    with _Campaign(tmp_path, spec, store, "--workers", 2, "--progress-interval", 0.5,
                   nohup=True) as c:
        assert _wait_for(lambda: (store / "index.jsonl").exists() and len(index_lines(store))
                         == 2 and len(_simulators_of(store)) == 2, 60), "no 3 s runs running"
        os.kill(c.pid, signal.SIGHUP)
        assert c.wait() == 0, c.out + c.err
        assert "interrupted" not in c.out + c.err
        assert "campaign nohup: 4 runs in" in c.out
    assert len(index_lines(store)) == 4


def test_sigterm_stops_a_verify_and_its_simulators(tmp_path):
    from ndnlab.spec import load_spec
    from ndnlab.store import ResultStore

    name = f"vterm{os.getpid()}"  # the reruns' directory is /tmp/ndnlab-verify-NAME-*
    spec = write_spec(tmp_path, name, {"Sleep": [30]}, seeds=2, timeout=60)
    store = ResultStore(tmp_path / f"store-{name}")
    for run in load_spec(spec).runs():  # two stored runs, without running them first
        store.append({"key": run.key("fake-sim 1.0"), "scenario": run.scenario,
                      "params": run.params, "seed": run.seed, "status": "ok",
                      "sim_version": "fake-sim 1.0", "result": {"metrics": {}}})
    reruns = f"ndnlab-verify-{name}-"
    with _Campaign(tmp_path, spec, reruns, "--verify", 2, "--workers", 2) as c:
        assert _wait_for(lambda: len(_simulators_of(reruns)) == 2, 60), "no reruns started"
        os.kill(c.pid, signal.SIGTERM)
        assert c.wait() == 143, c.out + c.err
        assert f"verify {name}: interrupted by SIGTERM" in c.out
        assert "Traceback" not in c.err
        assert _wait_for(lambda: not _simulators_of(reruns), 10), _simulators_of(reruns)


def test_a_killed_campaign_leaves_no_simulator_running(tmp_path):
    """SIGKILL (or the OOM killer) gives the campaign no chance to stop anything: the workers go
    with it, and the parent-death signal of their simulators ends those."""
    spec = write_spec(tmp_path, "killed", {"Sleep": [30]}, seeds=2, timeout=60)
    store = tmp_path / "store-killed"
    with _Campaign(tmp_path, spec, store, "--workers", 2) as c:
        assert _wait_for(lambda: len(_simulators_of(store)) == 2, 60), \
            "the simulators never started"
        os.kill(c.pid, signal.SIGKILL)
        assert c.wait() == -signal.SIGKILL
        assert _wait_for(lambda: not _simulators_of(store), 15), _simulators_of(store)


def test_a_worker_whose_campaign_has_gone_stops_its_simulator(tmp_path):
    """A worker process that outlives its campaign (re-parented) must not leave its simulator
    running into the store: execute_run notices the new parent within a second."""
    from ndnlab import worker

    out = tmp_path / "store" / "runs" / "k"
    start = time.monotonic()
    record = worker.execute_run({
        "key": "k", "out_dir": str(out), "timeout": 60,
        "campaign_pid": os.getppid() + 1,  # not our parent: as if we had been re-parented
        "command": [sys.executable, str(FAKE_SIM), "wifi-one-hop", "--Sleep=30", "--seed=1",
                    f"--out={out}"]})
    assert time.monotonic() - start < 10
    assert record["status"] == "error"
    assert record["error"] == ("the worker lost its campaign (its parent process ended); "
                               "simulator stopped")
    assert record["exit_code"] == -signal.SIGTERM
    assert _simulators_of(out) == []


def test_ctrl_c_while_the_cluster_starts_stops_the_campaign(tmp_path):
    """A Ctrl-C before the workers are up is held back, not lost: it stops the campaign once the
    cluster can be shut down again, and nothing runs."""
    spec = write_spec(tmp_path, "early", {"Sleep": [3]}, seeds=2, timeout=60)
    store = tmp_path / "store-early"
    with _Campaign(tmp_path, spec, store, "--workers", 2) as c:
        # a worker process exists, and "running N runs" (printed once all are up) is not out yet
        assert _wait_for(lambda: _workers_of(c.pid) or c.proc.poll() is not None, 60, 0.01)
        assert "running 2 runs" not in c.out, "the cluster was up before the test saw a worker"
        os.killpg(c.pid, signal.SIGINT)
        assert c.wait() == 130, c.out + c.err
        assert "running 2 runs" not in c.out
        assert "ndnlab campaign: interrupted" in c.err
        assert "Traceback" not in c.err
        assert _wait_for(lambda: not _workers_of(c.pid), 10)
        assert _simulators_of(store) == []
    assert not (store / "index.jsonl").exists()


_FULL_DISK = """
import os, pathlib, sys
from ndnlab import store
append = store.ResultStore.append
calls = []


def full_disk_append(self, record):
    # the second record meets a full disk: its run.json, or the index
    calls.append(record["key"])
    if len(calls) == 2:
        path = (self.index_path if sys.argv[1] == "index"
                else self.run_dir(record["key"]) / f".run.json.{os.getpid()}.tmp")
        path.unlink(missing_ok=True)
        path.symlink_to("/dev/full")  # every write: ENOSPC
    return append(self, record)


store.ResultStore.append = full_disk_append
from ndnlab.campaign import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("where", ["index", "run.json"])
def test_a_full_disk_stops_the_campaign_and_names_the_file(tmp_path, where):
    spec = write_spec(tmp_path, "full", {"Sleep": [0.1, 0.3, 30]}, seeds=1, timeout=60)
    store = tmp_path / "store-full"
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", _FULL_DISK, where, str(spec),
                               "--workers", "2"],
                              capture_output=True, text=True, timeout=60, env=env())
    finally:
        if not _wait_for(lambda: not _simulators_of(store), 10):
            _kill_simulators(store)
            pytest.fail("a simulator outlived the campaign")
    assert done.returncode == 1, done.stdout + done.stderr
    assert time.monotonic() - start < 25  # the 30 s run was stopped, not waited for
    keys = [p.name for p in (store / "runs").iterdir()]
    if where == "index":
        path = store / "index.jsonl"
    else:
        (path,) = [store / "runs" / k / "run.json" for k in keys
                   if not (store / "runs" / k / "run.json").exists()
                   and (store / "runs" / k / "result.json").exists()]
        assert len(index_lines(store)) == 1
    assert f"cannot record a run: {path}: No space left on device: cancelling" in done.stderr
    assert ("campaign full stopped: 1 of 3 runs recorded; " f"{path}: No space left on device; "
            "run the same command again to resume once the store can be written") in done.stdout
    assert "Traceback" not in done.stderr
    assert list(store.rglob("*.tmp")) == []


def test_a_torn_last_index_line_does_not_swallow_the_next_record(tmp_path):
    """A crash (or a full disk) in the middle of an index line leaves it torn; the record
    appended after it must still be a line of its own."""
    spec = write_spec(tmp_path, "torn", {"Standard": ["802.11b"]}, seeds=2)
    store = tmp_path / "store-torn"
    assert campaign(spec, "--workers", 1).returncode == 0
    index = store / "index.jsonl"
    data = index.read_bytes()
    index.write_bytes(data[:-100])  # the second record, cut mid-line
    rerun = campaign(spec, "--workers", 1)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert "1 runs already in the store are skipped; 1 to run" in rerun.stdout
    assert "index.jsonl:2: unreadable line skipped" in rerun.stderr
    lines = index.read_bytes().split(b"\n")
    assert lines[1] == data.split(b"\n")[1][:-99] and lines[3] == b""  # torn line, record, end
    record = json.loads(lines[2])
    assert record["status"] == "ok" and record["seed"] == 2
    again = campaign(spec, "--workers", 1)
    assert again.returncode == 0
    assert "nothing to run: all 2 runs are already in the store" in again.stdout


def test_plot_writes_png_and_svg(fig1, tmp_path):
    spec, store, _ = fig1
    png = tmp_path / "fig1.png"
    assert plot_cli.main([str(spec), "--x", "Standard", "--y", "goodput_mbps",
                          "--hue", "Consumer", "-o", str(png)]) == 0
    data = png.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert len(data) > 20_000  # axes, bars, error bars, legend and the paper's marks
    svg = tmp_path / "line.svg"
    assert plot_cli.main([str(store), "--x", "Consumer", "--y", "goodput_mbps", "--kind", "line",
                          "--where", "standard=802.11n", "-o", str(svg)]) == 0
    assert "<svg" in svg.read_text()[:1000]
    cdf = tmp_path / "cdf.png"
    assert plot_cli.main([str(spec), "--y", "delay_ms", "--kind", "cdf", "--hue", "Consumer",
                          "--where", "Standard=802.11b", "-o", str(cdf)]) == 0
    assert cdf.read_bytes()[:8] == PNG_SIGNATURE


def test_plot_panels_per_value_of_col(fig1, tmp_path):
    spec, _, _ = fig1
    png = tmp_path / "panels.png"
    assert plot_cli.main([str(spec), "--x", "Consumer", "--y", "goodput_mbps",
                          "--col", "Standard", "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == PNG_SIGNATURE
    import matplotlib.pyplot as plt
    from ndnlab import data
    df, spec_obj, _ = data.load(str(spec))
    fig = plot_cli.make_figure(df, "goodput_mbps", "Consumer", None, "bar", spec_obj,
                               col="Standard")
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["Standard=802.11b", "Standard=802.11n"]
    # each panel holds its own standard's runs: 2 bars (aimd, one-interest) per panel
    assert [len(ax.patches) for ax in fig.axes] == [2, 2]
    plt.close(fig)


def test_plot_cli_errors_are_clear(fig1, tmp_path, capsys):
    spec, _, _ = fig1
    out = str(tmp_path / "x.png")
    assert plot_cli.main([str(spec), "--x", "Standard", "--y", "goodput_mbps", "-o", out]) == 2
    assert "Consumer (aimd, one-interest)" in capsys.readouterr().err
    assert plot_cli.main([str(spec), "--x", "Standard", "--y", "nope", "-o", out]) == 2
    assert "'nope' is not in the results; choices: " in capsys.readouterr().err
    assert plot_cli.main([str(spec), "--x", "Standard", "--y", "goodput_mbps",
                          "--hue", "Consumer", "-o", str(tmp_path / "x.jpg")]) == 2
    assert ".png, .svg" in capsys.readouterr().err
    assert plot_cli.main([str(tmp_path), "--x", "A", "--y", "b", "-o", out]) == 2
    assert "not a result store" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
    with pytest.raises(SystemExit):
        plot_cli.main(["--help"])
    assert "--kind {bar,line,cdf}" in capsys.readouterr().out


def test_plot_accepts_a_parameter_that_varies_only_with_the_hue(tmp_path, capsys):
    """A parameter that comes with one hue value (BLEnD Fig. 7's BI 64 runs also turn loss
    detection on) mixes nothing; one that varies independently is still refused."""
    spec = tmp_path / "confounded.toml"
    spec.write_text(
        f'[campaign]\nname = "confounded"\nscenario = "wifi-one-hop"\n'
        f'simulator = "{FAKE_SIM}"\nstore = "store"\nseeds = 1\ntimeout = 20\n\n'
        '[[grid]]\nStandard = ["802.11b", "802.11n"]\nConsumer = ["aimd"]\nPacing = [false]\n\n'
        '[[grid]]\nStandard = ["802.11b", "802.11n"]\nConsumer = ["cubic"]\nPacing = [true]\n')
    assert campaign(spec, "--workers", 1).returncode == 0
    png = tmp_path / "hue.png"
    assert plot_cli.main([str(spec), "--x", "Standard", "--y", "goodput_mbps",
                          "--hue", "Consumer", "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == PNG_SIGNATURE
    # without the hue, Consumer and Pacing would both be mixed in each bar
    assert plot_cli.main([str(spec), "--x", "Standard", "--y", "goodput_mbps",
                          "-o", str(tmp_path / "mixed.png")]) == 2
    err = capsys.readouterr().err
    assert "would be mixed" in err and "Consumer" in err and "Pacing" in err


def test_report_puts_the_papers_numbers_beside_ours(fig1, tmp_path, capsys):
    spec, _, _ = fig1
    path = tmp_path / "report.md"
    assert report_cli.main([str(spec), "-o", str(path)]) == 0  # paper from the spec
    text = path.read_text()
    assert "| Standard | Consumer | metric | mean | stddev | 95% CI ± | n | paper | " \
           "ours vs paper | paper source |" in text
    rows = [line for line in text.splitlines() if line.startswith("| 802.11")]
    assert len(rows) == 4
    df = load_results(spec)
    ours = df[(df["Standard"] == "802.11b") & (df["Consumer"] == "one-interest")]
    mean = ours["goodput_mbps"].mean()
    row = next(r for r in rows if r.startswith("| 802.11b | one-interest | goodput_mbps |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert float(cells[3]) == pytest.approx(mean, rel=1e-3)
    assert cells[6] == "2" and cells[7] == "7.0 Mbps"
    assert cells[8] == f"{(mean - 7.0) / 7.0 * 100:+.1f}%"
    assert "| 802.11n | one-interest | goodput_mbps |" in text and "18.6 Mbps" in text
    assert "## Relative changes" in text and "+59.1%" in text and "+91.7%" in text
    assert "BLEnD" in text  # the citation
    assert report_cli.main([str(spec), "--paper", "none", "--metrics",
                            "goodput_mbps,retransmissions", "-o", str(path)]) == 0
    assert "paper" not in path.read_text().split("## Results")[1]
    assert report_cli.main([str(spec), "--paper", "nope", "-o", str(path)]) == 2
    capsys.readouterr()
    assert report_cli.main(["--paper", "list"]) == 0
    assert "blend-fig1: BLEnD Fig. 1" in capsys.readouterr().out


def test_report_wide_has_one_row_per_group(fig1, tmp_path):
    spec, _, _ = fig1
    path = tmp_path / "wide.md"
    assert report_cli.main([str(spec), "--wide", "--metrics", "goodput_mbps,retransmissions",
                            "-o", str(path)]) == 0
    text = path.read_text()
    # a paper column only beside the metrics the paper has numbers for
    assert "| Standard | Consumer | n | goodput_mbps | paper goodput_mbps | retransmissions |" \
        in text
    rows = [line for line in text.splitlines() if line.startswith("| 802.11")]
    assert len(rows) == 4
    df = load_results(spec)
    ours = df[(df["Standard"] == "802.11n") & (df["Consumer"] == "one-interest")]
    row = next(r for r in rows if r.startswith("| 802.11n | one-interest |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2] == "2"
    assert float(cells[3].split(" ± ")[0]) == pytest.approx(ours["goodput_mbps"].mean(), rel=1e-3)
    assert cells[4] == "18.6" and len(cells) == 6


def test_console_scripts_and_front_door(fig1):
    """The installed executables (make build) and `ndnlab <cmd>` reach the same CLIs."""
    if shutil.which("ndnlab-campaign") is None:
        pytest.skip("ndnlab package not installed (make build installs it)")
    for name in ("campaign", "plot", "report"):
        done = subprocess.run([f"ndnlab-{name}", "--help"], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0 and f"usage: ndnlab {name}" in done.stdout
    front = BUILD / "tools" / "ndnlab"
    if not front.exists():
        pytest.skip(f"{front} not built")
    done = subprocess.run([str(front), "report", fig1[0], "--paper", "blend-fig1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "7.0 Mbps" in done.stdout


def test_repeated_where_for_one_parameter_keeps_runs_with_either_value(fig1, tmp_path, capsys):
    """--where of one parameter given twice: runs with either value (OR); of different
    parameters: runs with both (AND)."""
    spec, _, _ = fig1
    path = tmp_path / "or.md"
    assert report_cli.main([str(spec), "--by", "Consumer", "--metrics", "goodput_mbps",
                            "--where", "Consumer=aimd", "--where", "consumer=one-interest",
                            "--where", "Standard=802.11b", "-o", str(path)]) == 0
    text = path.read_text()
    rows = [line for line in text.splitlines() if line.startswith(("| aimd", "| one-interest"))]
    assert len(rows) == 2
    assert [[c.strip() for c in row.strip("|").split("|")][5] for row in rows] == ["2", "2"]
    assert "- Selected: Consumer=aimd or one-interest, Standard=802.11b" in text
    # a value of the list that no run has is a typo, not an empty part of the selection
    assert report_cli.main([str(spec), "--where", "Consumer=aimd",
                            "--where", "Consumer=aimdd"]) == 2
    assert "--where Consumer=aimdd: no run has that value" in capsys.readouterr().err
    png = tmp_path / "or.png"
    assert plot_cli.main([str(spec), "--x", "Standard", "--y", "goodput_mbps", "--hue",
                          "Consumer", "--where", "Consumer=aimd", "--where",
                          "Consumer=one-interest", "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == PNG_SIGNATURE


def test_plot_and_report_refuse_names_of_the_wrong_kind_and_empty_ones(fig1, tmp_path, capsys):
    spec, _, _ = fig1
    png = tmp_path / "x.png"
    plot = [str(spec), "--x", "Standard", "--hue", "Consumer"]
    cases = [
        (plot + ["--y", "Consumer", "-o", str(png)],
         "--y metric 'Consumer' is a parameter; choices: counters.data_received, "
         "counters.interests_sent, goodput_mbps, retransmissions\n"),
        ([str(spec), "--x", "goodput_mbps", "--y", "goodput_mbps", "--hue", "Consumer",
          "-o", str(png)], "--x parameter 'goodput_mbps' is a metric; choices: "),
        (plot + ["--y", "delay_ms", "-o", str(png)],
         "'delay_ms' holds a list of numbers per run, not one number"),
        ([str(spec), "--x", "Standard", "--hue", "", "--y", "goodput_mbps", "-o", str(png)],
         "--hue parameter empty name; choices: "),
        (plot + ["--y", "goodput_mbps", "-o", ""], "ndnlab plot: -o: empty file name"),
    ]
    for argv, message in cases:
        assert plot_cli.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err, (argv, err)
    assert not png.exists() and not pathlib.Path(".png").exists()

    cases = [
        (["--metrics", "Consumer"], "--metrics metric 'Consumer' is a parameter; choices: "),
        (["--metrics", ""], "--metrics '': give one or more names separated by commas"),
        (["--metrics", ","], "--metrics ',': give one or more names"),
        (["--metrics", "goodput_mbps,,retransmissions"], "empty name in the list"),
        (["--by", ""], "--by '': give one or more names separated by commas"),
        (["--by", "goodput_mbps"], "--by parameter 'goodput_mbps' is a metric"),
        (["--paper", ""], "--paper: empty name"),
        (["-o", ""], "ndnlab report: -o: empty file name"),
    ]
    for argv, message in cases:
        assert report_cli.main([str(spec), *argv]) == 2, argv
        out, err = capsys.readouterr()
        assert message in err, (argv, err)
        assert out == "", argv  # no report on stdout instead
    # a valid choice still works, including the metric list the message offers
    assert report_cli.main([str(spec), "--metrics", "goodput_mbps, retransmissions"]) == 0
    assert "| retransmissions |" in capsys.readouterr().out


# --- bad input: one line on stderr, exit status 2, no traceback, nothing written ---

def assert_usage_error(done, message):
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_unreadable_inputs_and_outputs_are_clear_errors(fig1, tmp_path, capsys):
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes(b'[campaign]\nscenario = "wifi-one-hop"\ndescription = "caf\xe9"\n')
    assert_usage_error(campaign(latin1, "--dry-run"), f"{latin1}: not UTF-8 text")
    assert plot_cli.main([str(latin1), "--x", "A", "--y", "b",
                          "-o", str(tmp_path / "p.png")]) == 2
    assert f"{latin1}: not UTF-8 text" in capsys.readouterr().err
    assert report_cli.main([str(latin1)]) == 2
    assert f"{latin1}: not UTF-8 text" in capsys.readouterr().err

    afile = tmp_path / "afile"
    afile.write_text("not a directory\n")
    spec = write_spec(tmp_path, "filestore", {"Standard": ["802.11b"]})
    spec.write_text(spec.read_text().replace('store = "store-filestore"', 'store = "afile"'))
    assert_usage_error(campaign(spec, "--dry-run"), f"{afile}: not a directory")

    spec, _, _ = fig1
    plot = [str(spec), "--x", "Standard", "--y", "goodput_mbps", "--hue", "Consumer"]
    assert plot_cli.main(plot + ["-o", str(afile / "p.png")]) == 2
    assert f"{afile} is not a directory" in capsys.readouterr().err
    assert report_cli.main([str(spec), "-o", str(afile / "x.md")]) == 2
    assert f"{afile} is not a directory" in capsys.readouterr().err
    assert report_cli.main([str(spec), "-o", str(tmp_path)]) == 2
    assert f"-o {tmp_path}: is a directory" in capsys.readouterr().err
    assert afile.read_text() == "not a directory\n"


def _limit_file_size():
    """preexec_fn: files may not grow past 100 bytes (writes fail with EFBIG, as on a full disk;
    also for root, whom an unwritable directory would not stop)."""
    import resource
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))


@pytest.mark.parametrize("command, name, extra", [
    ("report", "report.md", []),
    ("plot", "fig.png", ["--x", "Standard", "--y", "goodput_mbps", "--hue", "Consumer"]),
])
def test_report_and_plot_replace_their_output_whole_or_not_at_all(fig1, tmp_path, command, name,
                                                                  extra):
    spec, _, _ = fig1
    output = tmp_path / "out" / name
    output.parent.mkdir()
    output.write_text("the previous good one\n")
    args = [sys.executable, "-m", "ndnlab", command, str(spec), *extra, "-o", str(output)]
    failed = subprocess.run(args, capture_output=True, text=True, timeout=120,
                            env=env(PYTHONDONTWRITEBYTECODE="1"), preexec_fn=_limit_file_size)
    assert failed.returncode == 2, failed.stdout + failed.stderr
    assert f"ndnlab {command}: {output}: File too large" in failed.stderr
    assert "Traceback" not in failed.stderr
    assert output.read_text() == "the previous good one\n"
    assert sorted(p.name for p in output.parent.iterdir()) == [name]  # no temporary file left
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env())
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in output.parent.iterdir()) == [name]
    assert output.read_bytes() != b"the previous good one\n"


def test_report_and_plot_interrupted_say_so(fig1, tmp_path, capsys, monkeypatch):
    spec, _, _ = fig1

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(report_cli, "build_report", interrupted)
    assert report_cli.main([str(spec), "-o", str(tmp_path / "r.md")]) == 130
    assert capsys.readouterr().err == "ndnlab report: interrupted\n"
    monkeypatch.setattr(plot_cli, "make_figure", interrupted)
    assert plot_cli.main([str(spec), "--x", "Standard", "--y", "goodput_mbps", "--hue",
                          "Consumer", "-o", str(tmp_path / "p.png")]) == 130
    assert capsys.readouterr().err == "ndnlab plot: interrupted\n"
    assert list(tmp_path.iterdir()) == []


def test_campaign_name_cannot_write_outside_the_store(tmp_path):
    """name = "../../ESCAPED" would put specs/<name>.toml two levels above specs/."""
    deep = tmp_path / "a" / "b"
    spec = write_spec(deep, "escape", {"Standard": ["802.11b"]}, seeds=1)
    spec.write_text(spec.read_text().replace('name = "escape"', 'name = "../../ESCAPED"'))
    for args in (["--dry-run"], ["--workers", 1]):
        assert_usage_error(campaign(spec, *args), "campaign.name: '../../ESCAPED' is not a safe")
    assert [p for p in tmp_path.rglob("*") if "ESCAPED" in p.name] == []
    assert not (deep / "store-escape").exists()


def test_nonfinite_timeout_and_huge_grids_are_refused_at_once(tmp_path):
    spec = write_spec(tmp_path, "nan", {"Standard": ["802.11b"]}, timeout="nan")
    assert_usage_error(campaign(spec, "--dry-run"), "campaign.timeout: expected seconds >= 0")
    spec = write_spec(tmp_path, "inf", {"Standard": ["802.11b"]}, timeout="inf")
    assert_usage_error(campaign(spec, "--dry-run"), "got inf")
    spec = write_spec(tmp_path, "seeds", {"Standard": ["802.11b"]}, seeds=100000000)
    assert_usage_error(campaign(spec, "--dry-run", timeout=60), "at most 10000 seeds")
    spec = write_spec(tmp_path, "runs", {"FileSize": list(range(1, 1001)),
                                         "Standard": ["802.11b", "802.11n"]}, seeds=10000)
    assert_usage_error(campaign(spec, "--dry-run", timeout=60),
                       "up to 2000 grid points x 10000 seeds = 20000000 runs; at most 100000")
    assert not (tmp_path / "store-seeds").exists() and not (tmp_path / "store-runs").exists()


def test_scenario_and_parameters_are_checked_before_any_run(tmp_path):
    spec = write_spec(tmp_path, "names", {"Standard": ["802.11b"]}, seeds=1,
                      extra='[fixed]\nFoo = 1\nfilesize = 3\n"ns3::WifiMac::Ssid" = "x"\n')
    for args in (["--dry-run"], ["--workers", 1]):
        assert_usage_error(campaign(spec, *args),
                           "not parameters of scenario wifi-one-hop: fixed.Foo (no close match); "
                           "fixed.filesize (did you mean FileSize?)")
    assert not (tmp_path / "store-names").exists()
    spec.write_text(spec.read_text().replace("Foo = 1\nfilesize", "FileSize")
                    .replace('scenario = "wifi-one-hop"', 'scenario = "wifi-onehop"'))
    assert_usage_error(campaign(spec, "--dry-run"),
                       "has no scenario 'wifi-onehop'; did you mean wifi-one-hop? scenarios: ")
    spec.write_text(spec.read_text().replace("wifi-onehop", "wifi-one-hop"))
    dry = campaign(spec, "--dry-run")
    assert dry.returncode == 0 and "--ns3::WifiMac::Ssid=x" in dry.stdout, dry.stderr
    # a simulator without --describe: refused, unless the check is turned off
    assert_usage_error(campaign(spec, "--dry-run", FAKE_SIM_NO_DESCRIBE="1"),
                       "--describe` exited with 1: fake_sim: unknown option --describe")
    assert "(--no-check runs without this check)" in campaign(
        spec, "--dry-run", FAKE_SIM_NO_DESCRIBE="1").stderr
    assert campaign(spec, "--dry-run", "--no-check", FAKE_SIM_NO_DESCRIBE="1").returncode == 0


def test_unknown_parameter_of_the_real_simulator(tmp_path):
    sim = BUILD / "ns3" / "runner" / "ndnlab-sim"
    if not os.access(sim, os.X_OK):
        pytest.skip(f"{sim} not built")
    spec = write_spec(tmp_path, "real", {"Standrd": ["80211b"]}, seeds=1)
    assert_usage_error(campaign(spec, "--dry-run", "--sim", sim, timeout=120),
                       "grid.Standrd (did you mean Standard?)")


@contextlib.contextmanager
def own_cluster(tmp_path):
    """A Dask cluster of its own, as `--scheduler` expects one: `dask scheduler` and `dask
    worker` processes, none of them the campaign's children. Yields (client,
    start_worker(*args)), which adds a `dask worker --nthreads 1 ARGS`; all are stopped at the
    end."""
    scheduler_file = tmp_path / "scheduler.json"
    common = ["--scheduler-file", str(scheduler_file), "--no-dashboard"]
    logs = open(tmp_path / "cluster.log", "w")
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                               "127.0.0.1", "--port", "0", *common],
                              stdout=logs, stderr=subprocess.STDOUT, start_new_session=True)]

    def start_worker(*args):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                       "--nthreads", "1", *args, *common],
                                      stdout=logs, stderr=subprocess.STDOUT,
                                      start_new_session=True))

    try:
        assert _wait_for(scheduler_file.exists, 30), (tmp_path / "cluster.log").read_text()
        from distributed import Client
        with Client(scheduler_file=str(scheduler_file), timeout="20s") as client:
            yield client, start_worker
    finally:
        for p in reversed(procs):
            with contextlib.suppress(OSError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        logs.close()


@pytest.fixture
def dask_cluster(tmp_path):
    """own_cluster with one `dask worker` of two single-thread processes; yields the
    scheduler's address."""
    with own_cluster(tmp_path) as (client, start_worker):
        start_worker("--nworkers", "2")
        client.wait_for_workers(2, timeout=60)
        yield client.scheduler.address


def test_campaign_on_a_cluster_of_its_own(tmp_path, dask_cluster):
    """--scheduler: the runs go to the cluster's workers, a second invocation reruns nothing, and
    a campaign killed outright (its workers are not its children here, so no parent-death
    signal reaches them) leaves no simulator running: the scheduler releases its tasks and each
    worker stops the simulator it was waiting for."""
    spec = write_spec(tmp_path, "remote", {"Sleep": [0.1]}, seeds=2)
    first = campaign(spec, "--scheduler", dask_cluster)
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"on 2 workers ({dask_cluster})" in first.stdout, first.stdout
    assert "2 ok, 0 failed" in first.stdout
    again = campaign(spec, "--scheduler", dask_cluster)
    assert again.returncode == 0 and "nothing to run" in again.stdout, again.stdout

    spec = write_spec(tmp_path, "remote-killed", {"Sleep": [60]}, seeds=2, timeout=120)
    store = tmp_path / "store-remote-killed"
    with _Campaign(tmp_path, spec, store, "--scheduler", dask_cluster) as c:
        assert _wait_for(lambda: len(_simulators_of(store)) == 2, 60), \
            "the simulators never started"
        os.kill(c.pid, signal.SIGKILL)
        assert c.wait() == -signal.SIGKILL
        assert _wait_for(lambda: not _simulators_of(store), 20), _simulators_of(store)
