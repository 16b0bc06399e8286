"""The result store: a local directory holding one subdirectory per run and an index.

    STORE/
      index.jsonl          one JSON record per finished attempt (ok or not), appended in order
      runs/<key>/          --out directory of the run: result.json, traces, stdout.log,
                           stderr.log, and run.json (the same record as its index line)
      specs/<name>.toml    copy of each campaign spec that wrote here
      .lock                held by a running campaign

`<key>` is a hash of (scenario, parameters, seed, simulator version, and the backend unless it
is ns3) (`Run.key`). A record holds key, campaign, scenario, params, seed, sim_version, backend
(ns3 or emu; records written before there were backends have none and are ns3), status (ok,
failed, timeout, error, cancelled), exit_code, wall_time_s, started, finished, worker, host,
command, stderr_tail, error, and result (the parsed result.json of an ok run).

Only the campaign process writes the index (workers return their record to it), so there is one
writer; a torn last line from a crash is skipped on reading, and the next record appended after
it starts a new line (ResultStore.append).
"""

import contextlib
import fcntl
import json
import math
import os
import pathlib
import shutil
import sys

from ndnlab.spec import BACKENDS, NS3, SpecError, backends_of, canonical_json, load_spec

INDEX_NAME = "index.jsonl"
RUNS_DIR = "runs"
STATUS_OK = "ok"
# Columns every DataFrame from load() has, in this order, before parameters and metrics.
META_COLUMNS = ["key", "campaign", "scenario", "backend", "seed", "status", "sim_version",
                "exit_code", "wall_time_s", "worker", "finished", "error"]
# result.json fields that are not copied as columns (they are the parameters and metrics).
_RESULT_SKIP = {"parameters", "params", "metrics", "seed", "scenario", "backend"}


class StoreError(Exception):
    """A result store that cannot be read or is in use."""


def flatten(mapping, prefix=""):
    """Nested dicts as one level with dotted keys; lists and scalars are kept as values."""
    flat = {}
    for name, value in mapping.items():
        full = f"{prefix}{name}"
        if isinstance(value, dict):
            flat.update(flatten(value, full + "."))
        else:
            flat[full] = value
    return flat


def record_backend(record):
    """The backend a record ran on: ns3 unless it says otherwise."""
    return record.get("backend") or NS3


def record_identity(record):
    """(scenario, params, seed, backend unless ns3, seed_as unless "seed") as canonical text:
    the run regardless of simulator version (Run.identity)."""
    fields = {"scenario": record.get("scenario"), "params": record.get("params", {}),
              "seed": record.get("seed")}
    if record_backend(record) != NS3:
        fields["backend"] = record_backend(record)
    if record.get("seed_as", "seed") != "seed":
        fields["seed_as"] = record["seed_as"]
    return canonical_json(fields)


class ResultStore:
    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.index_path = self.root / INDEX_NAME
        self.runs_path = self.root / RUNS_DIR

    def exists(self):
        return self.index_path.exists() or self.runs_path.is_dir()

    def run_dir(self, key):
        return self.runs_path / key

    # --- writing (campaign process only) ---

    @contextlib.contextmanager
    def lock(self, create=True):
        """Exclusive use by one campaign; raises StoreError if another campaign holds it or
        the store path is a file. With create=False (a dry run) nothing is created: a store
        without a lock file has never been written by a campaign."""
        if self.root.exists() and not self.root.is_dir():
            raise StoreError(f"{self.root}: not a directory; the result store must be a "
                             "directory (campaign.store)")
        if not create and not (self.root / ".lock").is_file():
            yield self
            return
        self.root.mkdir(parents=True, exist_ok=True)
        # Append mode: taking the lock neither truncates nor touches the file.
        with open(self.root / ".lock", "a") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreError(f"{self.root}: another campaign is writing to this store") \
                    from None
            try:
                yield self
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def append(self, record):
        """Records one finished attempt: run.json in its directory, then one index line. An
        OSError names the file it was writing (e.g. `STORE/index.jsonl: No space left on
        device`). If the index ends in a torn line (a crash or a full disk while appending),
        the record starts a line of its own: the torn one stays unreadable, the record not."""
        text = json.dumps(record, sort_keys=True, allow_nan=True)
        run_dir = self.run_dir(record["key"])
        run_dir.mkdir(parents=True, exist_ok=True)
        result = record.get("result")
        if result is not None and not (run_dir / "result.json").exists():
            # The run happened on a worker without this filesystem: keep what it returned.
            write_whole(run_dir / "result.json",
                        lambda tmp: tmp.write_text(json.dumps(result, indent=2)))
        write_whole(run_dir / "run.json",
                    lambda tmp: tmp.write_text(json.dumps(record, indent=2, sort_keys=True)))
        with _naming(self.index_path), open(self.index_path, "a+b") as f:
            data = (text + "\n").encode()
            if f.seek(0, os.SEEK_END) > 0:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    data = b"\n" + data  # after a torn last line
            f.write(data)  # "a" mode: at the end, wherever the read left the position
            f.flush()
            os.fsync(f.fileno())

    def save_spec(self, spec):
        """Keeps a copy of the spec file beside the runs it produced."""
        target = self.root / "specs" / f"{spec.name}.toml"
        target.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            shutil.copyfile(spec.path, target)

    def rebuild_index(self):
        """Writes index.jsonl again from runs/*/run.json (oldest finished first)."""
        records = []
        for path in sorted(self.runs_path.glob("*/run.json")):
            try:
                records.append(json.loads(path.read_text()))
            except (OSError, ValueError) as e:
                print(f"ndnlab: skipping {path}: {e}", file=sys.stderr)
        records.sort(key=lambda r: r.get("finished") or "")
        tmp = self.index_path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            for record in records:
                f.write(json.dumps(record, sort_keys=True) + "\n")
        os.replace(tmp, self.index_path)
        return len(records)

    # --- reading ---

    def records(self):
        """Every record in index order (a line that does not parse is skipped with a warning)."""
        if not self.index_path.exists():
            if self.runs_path.is_dir():
                self.rebuild_index()
            else:
                return []
        records = []
        # bytes that are not UTF-8 (a torn or foreign write) are read as U+FFFD, not an error
        with open(self.index_path, errors="replace") as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    print(f"ndnlab: {self.index_path}:{number}: unreadable line skipped",
                          file=sys.stderr)
                    continue
                if isinstance(record, dict) and "key" in record:
                    records.append(record)
        return records

    def latest_by_key(self):
        """The last record of each key."""
        latest = {}
        for record in self.records():
            latest[record["key"]] = record
        return latest

    def done_keys(self):
        """Keys whose last attempt succeeded (what a campaign skips)."""
        return {k for k, r in self.latest_by_key().items() if r.get("status") == STATUS_OK}

    def select(self, spec=None, include_failed=False, backends=BACKENDS):
        """One record per run identity (scenario, parameters, seed, backend): the latest ok
        record, or if none succeeded and `include_failed`, the latest attempt. With a spec,
        only its runs (any simulator version) on `backends`."""
        wanted = None
        if spec is not None:
            wanted = {run.identity() for backend in backends for run in spec.runs(backend)}
        best = {}
        for record in self.records():
            identity = record_identity(record)
            if wanted is not None and identity not in wanted:
                continue
            previous = best.get(identity)
            ok = record.get("status") == STATUS_OK
            if previous is None or ok or previous.get("status") != STATUS_OK:
                best[identity] = record
        selected = list(best.values())
        if not include_failed:
            selected = [r for r in selected if r.get("status") == STATUS_OK]
        return selected

    def load(self, spec=None, include_failed=False):
        """Selected records (see select) as a DataFrame, one row per run.

        Columns: META_COLUMNS, then the parameters (the result's own parameters, overridden by
        the values we passed), then the flattened metrics, then other top-level scalars of
        result.json. `df.attrs["params"]` and `df.attrs["metrics"]` list those column names;
        `df.attrs["missing"]` counts the spec's runs with no ok record.
        """
        import pandas as pd

        records = self.select(spec, include_failed)
        rows, param_names, metric_names = [], {}, {}
        for record in records:
            row = {name: record.get(name) for name in META_COLUMNS}
            row["backend"] = record_backend(record)
            result = record.get("result") or {}
            params = {}
            result_params = result.get("parameters", result.get("params"))
            if isinstance(result_params, dict):
                params.update(flatten(result_params))
            params.update(record.get("params", {}))
            for name, value in params.items():
                if name not in row:
                    row[name] = value
                    param_names[name] = None
            metrics = result.get("metrics", {})
            for name, value in flatten(metrics if isinstance(metrics, dict) else {}).items():
                column = name if name not in row else f"metrics.{name}"
                row[column] = value
                metric_names[column] = None
            for name, value in result.items():
                if name in _RESULT_SKIP or isinstance(value, (dict, list)):
                    continue
                column = name if name not in row else f"result.{name}"
                row.setdefault(column, value)
            rows.append(row)
        df = pd.DataFrame(rows, columns=_ordered_columns(rows, param_names, metric_names))
        df.attrs["params"] = list(param_names)
        df.attrs["metrics"] = list(metric_names)
        if spec is not None:
            # the spec's backends, and those the store has runs of (--backend may differ)
            ran = set(backends_of(spec.backend)) | {record_backend(r) for r in records}
            ok = sum(1 for r in records if r.get("status") == STATUS_OK)
            df.attrs["missing"] = sum(len(spec.runs(b)) for b in BACKENDS if b in ran) - ok
        return df


def _ordered_columns(rows, param_names, metric_names):
    columns = list(META_COLUMNS) + list(param_names) + list(metric_names)
    seen = set(columns)
    for row in rows:
        for name in row:
            if name not in seen:
                seen.add(name)
                columns.append(name)
    return columns


@contextlib.contextmanager
def _naming(path):
    """An OSError inside names `path` (a failed write or fsync names no file; one of a
    temporary file would name that): `out/report.md: No space left on device`."""
    try:
        yield
    except OSError as e:
        raise OSError(e.errno, e.strerror or str(e), str(path)) from e


def write_whole(path, write):
    """Writes the file `path` whole or not at all: write(tmp) writes a temporary file in the
    same directory, which then replaces `path` (missing directories are created). On any
    failure the temporary file is removed and an existing `path` is left as it was; an OSError
    names `path`. Used for the store's run files and for every `-o` of plot and report."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with _naming(path):
            write(tmp)
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def open_source(source):
    """(store, spec) for a SPEC.toml path or (store, None) for a result-store directory."""
    path = pathlib.Path(source)
    if path.is_dir():
        store = ResultStore(path)
        if not store.exists():
            raise StoreError(f"{path}: not a result store (no {INDEX_NAME} or {RUNS_DIR}/); "
                             "give a SPEC.toml or the store directory a campaign wrote")
        return store, None
    if not path.exists():
        raise StoreError(f"{path}: no such file or directory")
    spec = load_spec(path)
    store = ResultStore(spec.store)
    if not store.exists():
        raise StoreError(f"{spec.store}: no results yet for {path} "
                         f"(run `ndnlab campaign {path}` first)")
    return store, spec


def is_number(value):
    """True for int/float values that are not bool or NaN."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and not (isinstance(value, float) and math.isnan(value)))


__all__ = ["ResultStore", "StoreError", "SpecError", "flatten", "open_source", "is_number",
           "record_backend", "record_identity", "STATUS_OK"]
