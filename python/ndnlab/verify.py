"""`ndnlab campaign SPEC --verify N`: reruns N runs already in the store with the current
simulator, in a temporary directory, and compares their metrics and event counts with the
stored results. The store is not changed. A simulation is deterministic for a given seed, so
any difference means the simulator (or its ns-3) no longer reproduces the stored result."""

import json
import shutil
import sys
import tempfile
import time

from ndnlab.spec import NS3, format_value
from ndnlab.store import ResultStore, flatten, record_identity

MAX_DIFFS_SHOWN = 3


def spread(items, n):
    """n items evenly spaced over `items` (all of them when n >= len), first and last included."""
    if n >= len(items):
        return list(items)
    if n == 1:
        return [items[0]]
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def short_labels(runs):
    """{identity: `Name=value ... seed=S`} naming only the parameters that vary between runs."""
    values = {}
    for run in runs:
        for name, value in run.params.items():
            values.setdefault(name, set()).add(format_value(value))
    varying = {name for name, seen in values.items() if len(seen) > 1}
    return {run.identity(): " ".join([f"{name}={format_value(value)}"
                                      for name, value in run.params.items() if name in varying]
                                     + [f"seed={run.seed}"])
            for run in runs}


def _same(a, b):
    """Equal values; NaN equals NaN (also inside lists)."""
    return a == b or json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def compare_results(stored, rerun):
    """[(name, stored value, rerun value)] for every metric (flattened, dotted names) and the
    event count that differ; an empty list when the rerun reproduces the stored result.
    A metric the stored result does not have was added to the result fields since it was
    stored: it has nothing to reproduce and is not compared. One the rerun lacks differs."""
    old = flatten(stored.get("metrics") or {})
    new = flatten(rerun.get("metrics") or {})
    old["event_count"], new["event_count"] = stored.get("event_count"), rerun.get("event_count")
    missing = object()
    diffs = []
    for name in old:
        a, b = old.get(name, missing), new.get(name, missing)
        if a is missing or b is missing or not _same(a, b):
            diffs.append((name, None if a is missing else a, None if b is missing else b))
    return diffs


def _value_text(value):
    if value is None:
        return "(none)"
    if isinstance(value, float):
        return f"{value:.10g}"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def verify_campaign(spec, n, sim, version, client_factory, progress_factory, out=None):
    """Reruns up to `n` stored ok runs of `spec` with `sim` and reports whether each one
    reproduces its stored metrics and event count. Returns (identical, differing, failed)
    counts; raises LookupError when the store holds no ok run of the spec."""
    from ndnlab.campaign import RunningTasks, _reason

    out = out or sys.stdout
    store = ResultStore(spec.store)
    spec_runs = {run.identity(): (i, run) for i, run in enumerate(spec.runs())}
    labels = short_labels(spec.runs())
    # ns3 runs only: an emu run is real time and does not reproduce its numbers exactly
    stored = sorted(store.select(spec, backends=[NS3]),
                    key=lambda r: spec_runs[record_identity(r)][0])
    if not stored:
        raise LookupError(f"nothing to verify: {store.root} holds no finished run of campaign "
                          f"{spec.name} (run the campaign first)")
    chosen = spread(stored, n)
    versions = sorted({r.get("sim_version") or "unknown" for r in chosen})
    print(f"verify {spec.name}: rerunning {len(chosen)} of the {len(stored)} stored runs with "
          f"{sim} ({version}); stored with {', '.join(versions)}", file=out, flush=True)
    if versions != [version]:
        print("  (a different simulator version may legitimately give other numbers)", file=out)

    tmp = tempfile.mkdtemp(prefix=f"ndnlab-verify-{spec.name}-")
    runs = {}
    tasks = []
    for record in chosen:
        run = spec_runs[record_identity(record)][1]  # the spec's parameter order
        key = f"verify-{record['key']}"
        runs[key] = (labels[run.identity()], record)
        tasks.append({"key": key, "command": run.command(sim, f"{tmp}/{record['key']}"),
                      "out_dir": f"{tmp}/{record['key']}", "timeout": spec.timeout})

    lines, identical, differing, failed = {}, 0, 0, 0
    start = time.monotonic()
    try:
        # leaving the RunningTasks block early stops the simulators, before tmp goes
        with client_factory() as client, RunningTasks(client, tasks) as running:
            progress = progress_factory(len(tasks))
            try:
                while (rerun := running.next(progress.tick)) is not None:
                    label, record = runs[rerun["key"]]
                    if rerun["status"] != "ok":
                        failed += 1
                        lines[rerun["key"]] = f"  FAILED     {label}: {_reason(rerun)}"
                    else:
                        diffs = compare_results(record.get("result") or {}, rerun["result"])
                        if diffs:
                            differing += 1
                            shown = "; ".join(f"{name} {_value_text(a)} -> {_value_text(b)}"
                                              for name, a, b in diffs[:MAX_DIFFS_SHOWN])
                            more = len(diffs) - MAX_DIFFS_SHOWN
                            lines[rerun["key"]] = (f"  DIFFERS    {label}: {shown}"
                                                   + (f" (and {more} more)" if more > 0 else ""))
                        else:
                            identical += 1
                            lines[rerun["key"]] = f"  identical  {label}"
                    progress.update(rerun["status"] == "ok")
            finally:
                progress.close()
    except BaseException:  # Ctrl-C, SIGTERM/SIGHUP (campaign.Terminated) or a bug
        shutil.rmtree(tmp, ignore_errors=True)
        raise

    for task in tasks:  # in the spec's order
        print(lines[task["key"]], file=out)
    elapsed = time.monotonic() - start
    print(f"verify {spec.name}: {identical} identical, {differing} differ, {failed} failed "
          f"({elapsed:.0f} s)", file=out)
    if differing or failed:
        print(f"the reruns' outputs are in {tmp}; the stored ones in {store.runs_path}/<key>",
              file=out)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return identical, differing, failed
