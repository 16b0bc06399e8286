"""`ndnlab campaign SPEC.toml`: every grid point x seed of a spec as one simulator subprocess,
scheduled on Dask, recorded in the result store; runs already there are skipped.

With `--backend emu` (or `both`) the grid also runs on real daemons in network namespaces
(`ndnlab emu`, ndnlab.emu.run). Those runs take real time and real CPU, so they run after the
ns3 runs, one at a time: on one worker of the local cluster, or with --scheduler on the workers
that offer the Dask resource `emu` (one such worker per host, docs/campaigns.md)."""

import argparse
import contextlib
import datetime
import logging
import os
import pathlib
import shlex
import shutil
import signal
import sys
import threading
import time

from ndnlab import spec as specmod
from ndnlab.data import os_error_text
from ndnlab.spec import BACKEND_CHOICES, EMU, NS3, backends_of
from ndnlab.store import ResultStore, StoreError
from ndnlab.worker import (DescribeError, execute_run, simulator_description, simulator_version,
                           terminate_running)

EXIT_OK, EXIT_RUNS_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
EXIT_STORE_ERROR = 1  # a run could not be recorded (full disk, ...): the campaign stopped
DEFAULT_SIMULATOR = "ndnlab-sim"
# The Dask worker resource an emu run takes (one unit; a host's worker offers one).
EMU_RESOURCE = "emu"
DEFAULT_PROGRESS_INTERVAL_S = 10.0
_POLL_S = 0.2  # seconds between checks for finished runs


class CampaignError(Exception):
    """A campaign that cannot start (no simulator, store in use, no scheduler)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: handled like Ctrl-C (every `except KeyboardInterrupt` cancels the
    runs and stops their simulators), with exit status 128 + the signal's number."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def interrupt_status(error):
    """The exit status of an interruption: 128 + the signal (130 for Ctrl-C's SIGINT)."""
    return 128 + getattr(error, "signum", signal.SIGINT)


def interrupt_text(error):
    """`interrupted` for Ctrl-C, `interrupted by SIGTERM` for a Terminated."""
    return f"interrupted by {error}" if isinstance(error, Terminated) else "interrupted"


class _RecordError(Exception):
    """A finished run could not be written to the store (the text names the file)."""


_TERMINATING = (signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def terminate_like_ctrl_c():
    """SIGTERM and SIGHUP raise Terminated in the main thread while this is active (the first
    one only: a second one does not cut the cancelling short). A signal that is ignored (nohup)
    stays ignored. Does nothing outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised = []

    def handler(signum, frame):
        if not raised:
            raised.append(signum)
            raise Terminated(signum)

    previous = {}
    for signum in _TERMINATING:
        # None: a handler set outside Python, which could not be put back
        if signal.getsignal(signum) not in (signal.SIG_IGN, None):
            previous[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


class _StartupSignals:
    """Holds back SIGINT, SIGHUP and SIGTERM while a LocalCluster starts (in the main thread),
    so that none is lost or cuts the start-up short; release() delivers them.

    SIGINT and SIGHUP are blocked (pthread_sigmask): the threads and worker processes started
    meanwhile inherit the mask, so the workers never see the Ctrl-C a terminal sends to the whole
    process group, nor its hang-up; the campaign cancels the runs and stops their simulators
    itself. SIGTERM is only deferred by a handler (a worker must stay killable by SIGTERM: its
    nanny may need it), and exec gives the workers the default action back."""

    _BLOCKED = {signal.SIGINT, signal.SIGHUP}

    def __init__(self):
        self.active = threading.current_thread() is threading.main_thread()
        self.pending = []
        # None: a handler not set from Python, which could not be put back
        self._previous = signal.getsignal(signal.SIGTERM) if self.active else None
        if self.active:
            # multiprocessing's resource tracker unblocks SIGINT in the thread that first starts
            # it (after spawning it with SIGINT blocked), and that thread then spawns the
            # workers: started here, before the mask, it is only checked later.
            from multiprocessing import resource_tracker
            resource_tracker.ensure_running()
            if self._previous is not None:
                signal.signal(signal.SIGTERM, self._defer)
            self._mask = signal.pthread_sigmask(signal.SIG_BLOCK, self._BLOCKED)

    def _defer(self, signum, frame):
        self.pending.append(signum)

    def release(self, deliver=True):
        """Restores the handler and the mask; a SIGINT or SIGHUP that came meanwhile is
        delivered at once (KeyboardInterrupt, Terminated), a SIGTERM to the previous handler."""
        if not self.active:
            return
        self.active = False
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)
        try:
            if self.pending and deliver:
                if callable(self._previous):
                    self._previous(signal.SIGTERM, None)
                elif self._previous == signal.SIG_DFL:
                    signal.raise_signal(signal.SIGTERM)
        finally:
            unblock = self._BLOCKED - set(self._mask)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, unblock)


def default_workers():
    """One worker process per CPU this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _build_dirs():
    """Where a built ndnlab-sim may be: $NDNLAB_BUILD, and build/ of the checkout this package
    is installed from (editable installs)."""
    dirs = []
    if os.environ.get("NDNLAB_BUILD"):
        dirs.append(pathlib.Path(os.environ["NDNLAB_BUILD"]))
    repo = pathlib.Path(__file__).resolve().parents[2]
    if (repo / "CMakeLists.txt").exists():
        dirs.append(repo / "build")
    return dirs


def resolve_simulator(configured, override=None):
    """The simulator to run: --sim, else the spec's `simulator`, else $NDNLAB_SIM, else
    ndnlab-sim on PATH, else ndnlab-sim in a build directory. Returns (path, tried) where path
    is None if nothing was found."""
    name = override or configured or os.environ.get("NDNLAB_SIM") or DEFAULT_SIMULATOR
    tried = [name]
    if "/" in name:
        path = pathlib.Path(name).expanduser().resolve()
        ok = path.is_file() and os.access(path, os.X_OK)
        return (str(path) if ok else None), tried
    found = shutil.which(name)
    if found:
        return found, tried
    if name == DEFAULT_SIMULATOR:
        for build in _build_dirs():
            for candidate in (build / "ns3" / "runner" / name, build / "ns3" / name, build / name):
                tried.append(str(candidate))
                if candidate.is_file() and os.access(candidate, os.X_OK):
                    return str(candidate), tried
    return None, tried


def emu_command():
    """argv that an emu run starts with (scenario, parameters, --seed and --out follow):
    $NDNLAB_EMU, split like a shell line, else this interpreter running ndnlab.emu.run (the
    `ndnlab emu` of this very package). CampaignError if $NDNLAB_EMU names no program."""
    text = os.environ.get("NDNLAB_EMU", "").strip()
    if not text:
        return [sys.executable, "-m", "ndnlab.emu.run"]
    argv = shlex.split(text)
    program = argv[0]
    found = (os.access(program, os.X_OK) and os.path.isfile(program)) if "/" in program \
        else shutil.which(program)
    if not found:
        raise CampaignError(f"$NDNLAB_EMU: {program} is not an executable program")
    return argv


def check_emu_privileges(choice):
    """Raises CampaignError (exit 2) unless this process may build network namespaces, which
    the emu runs of `--backend choice` need (ndnlab.emu.net.check_privileges)."""
    from ndnlab.emu import net as emunet

    ok, why = emunet.check_privileges()
    if not ok:
        raise CampaignError(f"--backend {choice}: the emu runs cannot build networks here: {why} "
                            "(they need root, or CAP_NET_ADMIN and CAP_SYS_ADMIN); nothing was "
                            "run")


def _emu_placement(client, scheduler, choice):
    """(submit options, text) that run the emu runs one at a time per machine: on a local
    cluster, all on its first worker (single-threaded); on --scheduler, on the workers that
    offer the `emu` resource, after checking each one's privileges. CampaignError if there is
    none or one lacks them."""
    workers = client.scheduler_info().get("workers", {})
    if not scheduler:
        return {"workers": [sorted(workers)[0]]}, "one at a time on one worker"
    hosts = sorted(a for a, w in workers.items()
                   if (w.get("resources") or {}).get(EMU_RESOURCE, 0) >= 1)
    if not hosts:
        raise CampaignError(f"--backend {choice}: no worker of {scheduler} offers the Dask "
                            f"resource `{EMU_RESOURCE}`; emu runs go one at a time per host: "
                            "start one worker per host for them with `dask worker "
                            f"{scheduler} --nworkers 1 --resources {EMU_RESOURCE}=1` as root; "
                            "nothing was run")
    from ndnlab.emu import net as emunet

    # a task on each (Client.run would call it in the worker's event loop, where pyroute2's
    # own loop cannot run)
    futures = {address: client.submit(emunet.check_privileges, workers=[address], pure=False,
                                      key=f"ndnlab-emu-privileges-{address}")
               for address in hosts}
    refused = [f"{address}: {why}" for address, (ok, why) in
               ((a, f.result()) for a, f in futures.items()) if not ok]
    if refused:
        raise CampaignError(f"--backend {choice}: emu workers that cannot build networks "
                            f"(they need root, or CAP_NET_ADMIN and CAP_SYS_ADMIN): "
                            f"{'; '.join(refused)}; nothing was run")
    return ({"resources": {EMU_RESOURCE: 1}},
            f"one at a time per host, on {len(hosts)} workers with the `{EMU_RESOURCE}` resource")


class Progress:
    """Progress of a campaign on stderr: a tqdm bar on a terminal, else a line every
    `interval` seconds (and at the end), so that logs of batch jobs show it too."""

    def __init__(self, total, name, stream=None, interval=DEFAULT_PROGRESS_INTERVAL_S):
        self.total, self.name, self.interval = total, name, interval
        self.stream = stream or sys.stderr
        self.done = self.failed = 0
        self.start = time.monotonic()
        self.bar = None
        self._last_line = None
        if self.stream.isatty():
            from tqdm import tqdm
            try:
                sized = os.get_terminal_size(self.stream.fileno()).columns > 0
            except (OSError, ValueError):
                sized = False
            # A terminal that reports no width (some ptys) would get an empty bar.
            self.bar = tqdm(total=total, desc=name, unit="run", file=self.stream,
                            dynamic_ncols=sized, ncols=None if sized else 80,
                            nrows=None if sized else 24)
        else:
            self._line()

    def update(self, ok):
        self.done += 1
        self.failed += 0 if ok else 1
        if self.bar is not None:
            self.bar.update(1)
            if self.failed:
                self.bar.set_postfix(failed=self.failed)
        elif time.monotonic() - self._last_line >= self.interval or self.done == self.total:
            self._line()

    def tick(self):
        """Called while waiting: keeps the periodic lines coming when runs are long."""
        if self.bar is None and time.monotonic() - self._last_line >= self.interval:
            self._line()

    def note(self, text):
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()

    def _line(self):
        elapsed = time.monotonic() - self.start
        text = (f"{self.name}: {self.done}/{self.total} runs done, {self.failed} failed, "
                f"elapsed {_duration(elapsed)}")
        if 0 < self.done < self.total:
            text += f", eta {_duration(elapsed / self.done * (self.total - self.done))}"
        print(text, file=self.stream, flush=True)
        self._last_line = time.monotonic()


def _duration(seconds):
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


@contextlib.contextmanager
def dask_client(scheduler=None, workers=None):
    """A distributed Client: on `scheduler` (tcp://host:8786) if given, else on a LocalCluster
    of `workers` single-threaded worker processes (default: one per CPU)."""
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout="20s", set_as_default=False)
        except OSError as e:
            raise CampaignError(f"cannot connect to the Dask scheduler {scheduler}: {e}") from None
        with client:
            yield client
        return
    # Worker processes never see SIGINT and SIGHUP (blocked, inherited across spawn): Ctrl-C
    # reaches only this process, which cancels the runs and stops their simulators itself (see
    # _execute). A signal during the start-up is held back until the cluster can be shut down.
    n_workers = workers or default_workers()
    held = _StartupSignals()
    try:
        cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None, memory_limit=0,
                               silence_logs=logging.ERROR)
    except BaseException:
        held.release(deliver=False)
        raise
    with cluster:
        held.release()  # a Ctrl-C (or SIGTERM) of the start-up is raised here
        with Client(cluster, set_as_default=False) as client:
            # Every worker up before the first task, so that the runs spread over all of them.
            client.wait_for_workers(n_workers, timeout=120)
            yield client


def run_campaign(spec, scheduler=None, workers=None, dry_run=False, force=False,
                 simulator=None, progress_interval=DEFAULT_PROGRESS_INTERVAL_S, out=None,
                 check=True, backend=None):
    """Runs the campaign on `backend` (ns3, emu or both; default the spec's); returns the exit
    status (EXIT_*). Messages go to `out` (stdout), progress and failures to stderr. With
    `check`, the scenario and parameter names are checked against `SIM --describe` first
    (SpecError if one is unknown). Emu runs need privileges (CampaignError before any run)."""
    out = out or sys.stdout
    choice = backend or spec.backend
    backends = backends_of(choice)
    # the scenario and its parameters come from ndnlab-sim on either backend
    sim, version = _simulator(spec, scheduler, workers, simulator, check)
    emu = emu_command() if EMU in backends else None
    runs = [run for b in backends for run in spec.runs(b)]
    store = ResultStore(spec.store)
    keyed = [(run, run.key(version)) for run in runs]
    if emu and not dry_run and not scheduler:
        # before the store is touched; with --scheduler the emu workers are checked instead
        done = set() if force else store.done_keys()
        if any(run.backend == EMU and key not in done for run, key in keyed):
            check_emu_privileges(choice)

    with store.lock(create=not dry_run):
        done = store.done_keys()
        todo = keyed if force else [(run, key) for run, key in keyed if key not in done]
        skipped = len(keyed) - len(todo) if not force else 0
        points = len(spec.grid_points())
        times = f" x {len(backends)} backends" if len(backends) > 1 else ""
        print(f"campaign {spec.name}: {len(runs)} runs ({points} grid points x "
              f"{len(spec.seeds)} seeds{times}) of {spec.scenario}; simulator {sim} ({version}); "
              f"store {store.root}", file=out)
        if emu:
            print(f"backend {choice}: emu runs with {shlex.join(emu)}, after the ns3 runs and "
                  "one at a time (real time, real CPU)", file=out)
        if force:
            print(f"--force: rerunning all {len(todo)} runs", file=out)
        elif not todo:
            print(f"nothing to run: all {len(runs)} runs are already in the store "
                  "(--force reruns them)", file=out)
            return EXIT_OK
        elif skipped:
            print(f"{skipped} runs already in the store are skipped; {len(todo)} to run",
                  file=out)
        tasks = [{"key": key, "backend": run.backend,
                  "command": run.command(sim if run.backend == NS3 else emu,
                                         str(store.run_dir(key))),
                  "out_dir": str(store.run_dir(key)), "timeout": spec.timeout}
                 for run, key in todo]
        if dry_run:
            for task in tasks:
                print(shlex.join(task["command"]), file=out)
            print(f"dry run: {len(tasks)} runs would run", file=out)
            return EXIT_OK
        store.save_spec(spec)
        meta = {key: {"campaign": spec.name, "scenario": run.scenario, "params": run.params,
                      "seed": run.seed, "sim_version": version, "backend": run.backend,
                      **({"seed_as": run.seed_as} if run.seed_as != "seed" else {})}
                for run, key in todo}
        labels = {key: run.label() for run, key in todo}
        return _execute(store, tasks, meta, labels, spec.name, scheduler, workers,
                        progress_interval, out, choice)


def _simulator(spec, scheduler, workers, simulator, check):
    """(path or name, version) of the simulator the spec runs on; with `check`, the spec's
    scenario and parameter names are checked against its --describe."""
    sim, tried = resolve_simulator(spec.simulator, simulator)
    if sim is None:
        if not scheduler or "/" in tried[0]:
            raise CampaignError(f"simulator not found (tried {', '.join(tried)}); build it "
                                "(make build), put it on PATH, or set $NDNLAB_SIM or "
                                "campaign.simulator in the spec")
        sim = tried[0]  # resolved on the workers' PATH
    version, scenarios = _ask_simulator(sim, scheduler, workers, check)
    if check:
        specmod.check_parameters(spec, scenarios, sim)
    return sim, version


def verify(spec, n, scheduler=None, workers=None, simulator=None,
           progress_interval=DEFAULT_PROGRESS_INTERVAL_S, out=None, check=True):
    """--verify N: reruns N stored runs and compares (ndnlab.verify); returns the exit status."""
    from ndnlab.verify import verify_campaign

    sim, version = _simulator(spec, scheduler, workers, simulator, check)
    try:
        _, differing, failed = verify_campaign(
            spec, n, sim, version, lambda: dask_client(scheduler, workers),
            lambda total: Progress(total, f"verify {spec.name}", interval=progress_interval),
            out=out)
    except LookupError as e:
        raise CampaignError(str(e)) from None
    except KeyboardInterrupt as e:
        print(f"verify {spec.name}: {interrupt_text(e)}", file=out or sys.stdout)
        return interrupt_status(e)
    return EXIT_RUNS_FAILED if differing or failed else EXIT_OK


def _ask_simulator(sim, scheduler, workers, describe):
    """(version, scenarios of `SIM --describe` or None): asked here if the simulator is a path
    or on PATH, else on a worker (a bare name is resolved on the workers' PATH)."""
    calls = [simulator_version] + ([simulator_description] if describe else [])
    try:
        if os.path.isabs(sim) or shutil.which(sim):
            answers = [call(sim) for call in calls]
        else:
            with dask_client(scheduler, workers) as client:
                answers = [client.submit(call, sim, pure=False).result() for call in calls]
    except DescribeError as e:
        raise CampaignError(f"cannot check the spec's scenario and parameters: {e} "
                            "(--no-check runs without this check)") from None
    return answers[0], (answers[1] if describe else None)


class RunningTasks:
    """The runs of `tasks` (execute_run's dicts) on a Dask cluster: next() hands out their
    records in finishing order, `pending` counts those not handed out yet, cancel() stops the
    unfinished ones and their simulators. Used as a context manager, leaving the block any way
    but by finishing every run (Ctrl-C, SIGTERM/SIGHUP, a store error, a bug) cancels."""

    def __init__(self, client, tasks, **placement):
        """`placement`: further options of Client.map (workers=, resources=)."""
        from distributed import as_completed

        self.client = client
        if getattr(client, "cluster", None) is not None:
            # workers this process started: each stops its simulator if this process goes
            tasks = [dict(task, campaign_pid=os.getpid()) for task in tasks]
        futures = client.map(execute_run, tasks, key=[f"ndnlab-run-{t['key']}" for t in tasks],
                             pure=False, **placement)
        self._keys = {f.key: t["key"] for f, t in zip(futures, tasks)}
        self._pending = set(futures)
        self._completed = as_completed(futures, loop=client.loop)
        self._ready = []

    @property
    def pending(self):
        return len(self._pending) + len(self._ready)

    def next(self, on_wait):
        """The next finished record, or None when all are done; calls on_wait() while it waits."""
        while not self._ready:
            if not self._pending:
                return None
            finished = self._completed.next_batch(block=False)
            if not finished:
                time.sleep(_POLL_S)
                on_wait()
            for future in finished:
                self._pending.discard(future)
                self._ready.append(_collect(future, self._keys[future.key]))
        return self._ready.pop(0)

    def cancel(self):
        self.client.cancel(list(self._pending))
        with contextlib.suppress(Exception):
            self.client.run(terminate_running)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._pending:
            self.cancel()


def _execute(store, tasks, meta, labels, name, scheduler, workers, interval, out,
             choice=NS3):
    """Runs `tasks` and records them: first the ns3 runs on every worker, then the emu runs
    one at a time (_emu_placement). Returns the exit status."""
    start = time.monotonic()
    failures = []
    phases = [[t for t in tasks if t.get("backend", NS3) == NS3],
              [t for t in tasks if t.get("backend", NS3) == EMU]]
    if not phases[0] and not scheduler:
        workers = 1  # emu runs only: one at a time anyway
    with dask_client(scheduler, workers) as client:
        placements = [({}, None), _emu_placement(client, scheduler, choice) if phases[1]
                      else ({}, None)]
        n_workers = len(client.scheduler_info().get("workers", {}))
        where = scheduler or "a local cluster"
        print(f"running {len(tasks)} runs on {n_workers} workers ({where})", file=out, flush=True)
        if phases[1]:
            print(f"  {len(phases[1])} emu runs {placements[1][1]}", file=out, flush=True)
        recorded, stopped = 0, None
        progress = Progress(len(tasks), name, interval=interval)
        for i, phase in enumerate(phases):
            if not phase or stopped is not None:
                continue
            later = sum(len(p) for p in phases[i + 1:])  # not submitted yet
            # Leaving this block stops the runs not finished (after a SIGHUP, also when
            # printing the message below fails because the terminal is gone).
            with RunningTasks(client, phase, **placements[i][0]) as running:
                try:
                    while (record := running.next(progress.tick)) is not None:
                        record.update(meta[record["key"]])
                        try:
                            store.append(record)
                        except OSError as e:
                            raise _RecordError(os_error_text(e)) from e
                        recorded += 1
                        ok = record["status"] == "ok"
                        progress.update(ok)
                        if not ok:
                            failures.append(record)
                            progress.note(_failure_text(record, labels[record["key"]]))
                except BaseException as e:  # Ctrl-C, SIGTERM/SIGHUP, the store, or a bug
                    stopped = e
                    why = (interrupt_text(e) if isinstance(e, KeyboardInterrupt)
                           else f"cannot record a run: {e}" if isinstance(e, _RecordError)
                           else f"{type(e).__name__}: {e}")
                    progress.close()
                    print(f"\n{why}: cancelling {running.pending + later} unfinished runs",
                          file=sys.stderr, flush=True)
        if stopped is None:
            progress.close()
        if isinstance(stopped, KeyboardInterrupt):
            print(f"campaign {name} {interrupt_text(stopped)}: {recorded} of {len(tasks)} runs "
                  "recorded; run the same command again to resume", file=out, flush=True)
            return interrupt_status(stopped)
        if isinstance(stopped, _RecordError):
            print(f"campaign {name} stopped: {recorded} of {len(tasks)} runs recorded; "
                  f"{stopped}; run the same command again to resume once the store can be "
                  "written", file=out, flush=True)
            return EXIT_STORE_ERROR
        if stopped is not None:
            raise stopped
    elapsed = _duration(time.monotonic() - start)
    ok = len(tasks) - len(failures)
    print(f"campaign {name}: {len(tasks)} runs in {elapsed}: {ok} ok, {len(failures)} failed; "
          f"results in {store.root}", file=out)
    if failures:
        for record in failures:
            print(f"  failed: {labels[record['key']]} ({_reason(record)}; "
                  f"{store.run_dir(record['key'])})", file=out)
        print("failed runs are retried by the next invocation", file=out)
        return EXIT_RUNS_FAILED
    return EXIT_OK


def _collect(future, key):
    """The record a finished future carries, or an error record if the task itself failed."""
    try:
        return future.result()
    except Exception as e:  # noqa: BLE001 - a worker crash must not end the campaign
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")
        return {"key": key, "status": "error", "error": f"{type(e).__name__}: {e}",
                "exit_code": None, "stderr_tail": "", "result": None, "finished": now,
                "wall_time_s": None, "worker": None}


def _reason(record):
    """`status: error` of a failed run; for a simulator that exited non-zero, with the last
    line of its stderr (its own reason, e.g. `--FileSize=abc: not a size`)."""
    text = f"{record['status']}: {record['error']}"
    lines = (record.get("stderr_tail") or "").strip().splitlines()
    if record["status"] == "failed" and lines:
        text += f": {lines[-1][:200]}"
    return text


def _failure_text(record, label):
    text = f"run failed: {label}: {record['status']}"
    if record.get("error"):
        text += f" ({record['error']})"
    tail = (record.get("stderr_tail") or "").strip()
    if tail:
        text += "\n  stderr: " + "\n  stderr: ".join(tail.splitlines()[-5:])
    return text


def build_parser(prog=None):
    parser = argparse.ArgumentParser(
        prog=prog or "ndnlab campaign",
        description="Run every grid point x seed of a campaign spec as one simulator run on Dask, "
                    "storing results in the spec's result store. Runs already in the store are "
                    "skipped, so an interrupted campaign resumes where it stopped.",
        epilog="Exit status: 0 all runs ok (or nothing to run), 1 some runs failed (recorded with "
               "exit code and stderr tail; with --verify: a rerun differs or fails) or a "
               "finished run could not be written to the store (a full disk; the message names "
               "the file, the campaign stops), 2 bad spec, arguments or files (a scenario or "
               "parameter the simulator does not have, an unreadable spec, a store that is not "
               "a directory, emu runs without the privileges they need), 130 interrupted "
               "(Ctrl-C), 143 SIGTERM, 129 SIGHUP (handled like "
               "Ctrl-C: the running simulators are stopped, the finished runs stay in the "
               "store). Spec format: docs/campaigns.md.")
    parser.add_argument("spec", metavar="SPEC.toml", help="campaign spec file")
    parser.add_argument("--backend", choices=BACKEND_CHOICES,
                        help="where the runs run: ns3 (ndnlab-sim), emu (`ndnlab emu`: real "
                             "daemons in network namespaces; needs root; one run at a time, "
                             "after the ns3 runs; the command is $NDNLAB_EMU if set) or both "
                             "(default: the spec's campaign.backend, else ns3)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="Dask scheduler to use (e.g. tcp://host:8786) instead of a local "
                             "cluster; the store must be on a filesystem the workers share")
    parser.add_argument("--workers", type=int, metavar="N",
                        help=f"worker processes of the local cluster (default: one per CPU, "
                             f"here {default_workers()})")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the commands of the runs that would run, run nothing")
    parser.add_argument("--force", action="store_true",
                        help="rerun every run, even those already in the store")
    parser.add_argument("--verify", type=int, metavar="N",
                        help="rerun N of the runs already in the store (spread over the grid and "
                             "seeds) in a temporary directory and compare their metrics and event "
                             "counts with the stored ones; the store is not changed. Exit status "
                             "1 if any differs or fails")
    parser.add_argument("--sim", metavar="PATH",
                        help="simulator executable (overrides the spec and $NDNLAB_SIM)")
    parser.add_argument("--no-check", action="store_true",
                        help="do not check the scenario and parameter names against "
                             "`SIM --describe` (for a simulator without --describe)")
    parser.add_argument("--progress-interval", type=float, default=DEFAULT_PROGRESS_INTERVAL_S,
                        metavar="S", help="seconds between progress lines when stderr is not a "
                                          "terminal (default %(default)g)")
    return parser


def main(argv=None, prog=None):
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.verify is not None and args.verify < 1:
        parser.error("--verify must be at least 1")
    if args.verify is not None and (args.dry_run or args.force):
        parser.error("--verify reruns stored runs; it does not go with --dry-run or --force")
    if args.verify is not None and args.backend == EMU:
        parser.error("--verify reruns ns3 runs (an emu run is real time: its numbers do not "
                     "repeat exactly); it does not go with --backend emu")
    if args.workers is not None and args.scheduler:
        print("ndnlab campaign: --workers is ignored with --scheduler", file=sys.stderr)
    try:
        with terminate_like_ctrl_c():
            spec = specmod.load_spec(args.spec)
            if args.verify is not None:
                return verify(spec, args.verify, scheduler=args.scheduler, workers=args.workers,
                              simulator=args.sim,
                              progress_interval=max(0.1, args.progress_interval),
                              check=not args.no_check)
            return run_campaign(spec, scheduler=args.scheduler, workers=args.workers,
                                dry_run=args.dry_run, force=args.force, simulator=args.sim,
                                progress_interval=max(0.1, args.progress_interval),
                                check=not args.no_check, backend=args.backend)
    except (specmod.SpecError, StoreError, CampaignError) as e:
        print(f"ndnlab campaign: {e}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        print(f"ndnlab campaign: {os_error_text(e)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as e:
        print(f"ndnlab campaign: {interrupt_text(e)}", file=sys.stderr)
        return interrupt_status(e)


if __name__ == "__main__":
    sys.exit(main())
