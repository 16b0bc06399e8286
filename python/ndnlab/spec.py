"""Campaign specs: a TOML file naming a scenario, a parameter grid, fixed parameters and seeds.

Format (documented with an example in docs/campaigns.md):

    [campaign]
    name = "blend-fig1"              # default: the file name without .toml
    scenario = "wifi-one-hop"        # first argument of the simulator
    simulator = "ndnlab-sim"         # default: $NDNLAB_SIM, else ndnlab-sim on PATH
    store = "results/blend-fig1"     # result store; relative paths are relative to this file
    seeds = 3                        # a count (seeds 1..N) or a list of seeds
    timeout = 600                    # seconds of wall time per run; 0 = no limit
    backend = "ns3"                  # ns3 (ndnlab-sim), emu (ndnlab emu: real daemons) or both
    seed_as = "run"                  # a seed S is ns-3 run S of seed 1 (default "seed": --seed=S)

    [fixed]                          # passed to every run as --Name=value
    FileSize = 10000000

    [grid]                           # lists; every combination is one grid point
    Standard = ["80211b", "80211n"]
    Consumer = ["aimd", "cubic"]

`[[grid]]` (an array of tables) gives several grids whose points are joined, duplicates removed.
`[paper]` maps the paper's condition, value and metric names onto ours for `ndnlab report`.

`check_parameters` checks the scenario and parameter names against the simulator's
`--describe` output; the campaign runs it before any run.
"""

import difflib
import hashlib
import itertools
import json
import math
import os
import pathlib
import re
import tomllib
from dataclasses import dataclass, field
from ndnlab import profiles

DEFAULT_TIMEOUT_S = 3600.0
# Bounds that keep a typo (seeds = 100000000) from expanding for hours: seeds per campaign, and
# runs (grid points x seeds, counted before duplicate points are removed).
MAX_SEEDS = 10_000
MAX_RUNS = 100_000
# Largest seed ndnlab-sim accepts: MRG32k3a state words must stay below m2 = 4294944443.
MAX_SEED = 4_294_944_442

# Names the runner passes itself; a parameter may not take them.
RESERVED_NAMES = frozenset({"seed", "out", "version", "help"})
# Options of ndnlab-sim itself (ns3/runner/run-context.cpp) a spec may set besides the
# scenario's parameters: --run N, and ns-3 default overrides --ns3::Type::Attribute=value.
RUNNER_PARAMS = frozenset({"run"})
NS3_PREFIX = "ns3::"
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]*$")
# A campaign name is a file name in the store (specs/<name>.toml): no path separators.
_CAMPAIGN_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
_CAMPAIGN_KEYS = {"name", "scenario", "simulator", "store", "seeds", "timeout", "description",
                  "backend", "seed_as"}
# What a campaign seed S sets in ndnlab-sim: "seed" (--seed=S, as every store before this key)
# or "run" (--run=S of ns-3 seed 1). ns-3 starts all six MRG32k3a state words at the seed, so
# streams of nearby seeds start at related states (seeds 1, 2, 3 of p2p-chain lose the same
# first frame); run numbers are disjoint substreams, ns-3's independent replications.
SEED_AS_CHOICES = ("seed", "run")
# Where a run runs: "ns3" (ndnlab-sim, simulated time) or "emu" (ndnlab emu: real daemons in
# network namespaces, real time). "both" in a spec or on the command line means the two.
NS3, EMU = "ns3", "emu"
BACKENDS = (NS3, EMU)
BACKEND_CHOICES = (NS3, EMU, "both")
_PAPER_KEYS = {"experiment", "params", "values", "metrics"}
_TOP_KEYS = {"campaign", "fixed", "grid", "paper"}


class SpecError(Exception):
    """A campaign spec that cannot be used; the message names the file and the field."""


def canonical_json(obj):
    """JSON text that is the same for equal objects (sorted keys, no spaces)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def backends_of(choice):
    """The backends a --backend / campaign.backend choice stands for, ns3 first."""
    return list(BACKENDS) if choice == "both" else [choice]


def format_value(value):
    """A parameter value as the simulator's command line expects it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


@dataclass(frozen=True)
class Run:
    """One run: a grid point (all parameters, fixed ones included), a seed and the backend it
    runs on (ns3 or emu)."""

    scenario: str
    params: dict
    seed: int
    backend: str = NS3
    seed_as: str = "seed"

    def _fields(self):
        # "backend" only off ns3 and "seed_as" only off "seed", so that the identities and keys
        # of ns3 runs stay those they had before there were backends and run numbers
        fields = {"scenario": self.scenario, "params": self.params, "seed": self.seed}
        if self.backend != NS3:
            fields["backend"] = self.backend
        if self.seed_as != "seed":
            fields["seed_as"] = self.seed_as
        return fields

    def identity(self):
        """Canonical text of (scenario, parameters, seed, backend unless ns3): the same run
        under any simulator version."""
        return canonical_json(self._fields())

    def key(self, sim_version):
        """Stable store key: hash of (scenario, parameters, seed, simulator version, and the
        backend unless ns3). An emu run takes its scenario from ndnlab-sim, whose version is
        `sim_version` for it too."""
        text = canonical_json(dict(self._fields(), sim_version=sim_version))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def command(self, program, out_dir):
        """argv of this run: `PROGRAM <scenario> --Name=value ... --seed=S --out=DIR`, where
        PROGRAM is the simulator (ns3) or the emulation command (emu; a list: its argv). With
        seed_as "run" an ns3 run gets `--run=S` instead (ns-3 seed 1); `ndnlab emu --seed=S`
        takes S as the run number of its links' losses itself."""
        args = [*(program if isinstance(program, (list, tuple)) else [program]), self.scenario]
        args += [f"--{name}={format_value(value)}" for name, value in self.params.items()]
        if self.seed_as == "run" and self.backend == NS3:
            args.append(f"--run={self.seed}")
        else:
            args.append(f"--seed={self.seed}")
        args.append(f"--out={out_dir}")
        return args

    def label(self):
        """Short human text: `Name=value ... seed=S`, and ` (emu)` for an emu run."""
        parts = [f"{name}={format_value(value)}" for name, value in self.params.items()]
        text = " ".join(parts + [f"seed={self.seed}"])
        return text if self.backend == NS3 else f"{text} ({self.backend})"


@dataclass
class PaperMapping:
    """How the paper's names map onto this campaign's (see ndnlab.paper)."""

    experiment: str | None = None
    params: dict = field(default_factory=dict)   # paper condition name -> our parameter
    values: dict = field(default_factory=dict)   # paper value -> our value
    metrics: dict = field(default_factory=dict)  # paper metric -> our metric


@dataclass
class CampaignSpec:
    path: pathlib.Path
    name: str
    scenario: str
    simulator: str | None
    store: pathlib.Path
    seeds: list
    timeout: float | None          # seconds; None = no limit
    fixed: dict
    grids: list                    # list of {name: [values]}
    description: str = ""
    paper: PaperMapping = field(default_factory=PaperMapping)
    backend: str = NS3             # ns3, emu or both (BACKEND_CHOICES)
    seed_as: str = "seed"          # what a seed sets in ndnlab-sim (SEED_AS_CHOICES)

    def grid_points(self):
        """Every parameter combination (fixed parameters included), in spec order, no repeats;
        a Profile stands for its knobs (ndnlab.profiles)."""
        points, seen = [], set()
        for grid in self.grids or [{}]:
            names = list(grid)
            for values in itertools.product(*(grid[n] for n in names)):
                point = dict(zip(names, values))
                point.update(self.fixed)
                point = profiles.expand(point)
                text = canonical_json(point)
                if text not in seen:
                    seen.add(text)
                    points.append(point)
        return points

    def runs(self, backend=NS3):
        """Every grid point x seed on `backend`, seeds varying fastest."""
        return [Run(self.scenario, point, seed, backend, self.seed_as)
                for point in self.grid_points() for seed in self.seeds]

    def varying_params(self):
        """Names of parameters that take more than one value in this campaign."""
        values = {}
        for point in self.grid_points():
            for name, value in point.items():
                values.setdefault(name, set()).add(canonical_json(value))
        return [name for name, seen in values.items() if len(seen) > 1]


def _error(path, message):
    return SpecError(f"{path}: {message}")


def _check_scalar(path, where, value):
    if isinstance(value, (dict, list)):
        raise _error(path, f"{where}: expected a string, number or boolean, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise _error(path, f"{where}: {value!r} is not a finite number")
    if not isinstance(value, (str, int, float, bool)):
        raise _error(path, f"{where}: unsupported value {value!r} ({type(value).__name__})")


def _check_name(path, where, name):
    if not _NAME_RE.match(name):
        raise _error(path, f"{where}: {name!r} is not a valid parameter name "
                           "(letters, digits, _ . : -; starting with a letter or _)")
    if name.lower() in RESERVED_NAMES:
        raise _error(path, f"{where}: {name!r} is reserved (the runner passes --seed and --out)")


def _check_unknown(path, where, table, allowed):
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise _error(path, f"{where}: unknown key(s) {', '.join(unknown)}; "
                           f"allowed: {', '.join(sorted(allowed))}")


def _parse_seeds(path, seeds):
    if isinstance(seeds, bool):
        raise _error(path, "campaign.seeds: expected a count or a list of integers")
    if isinstance(seeds, int):
        if seeds < 1:
            raise _error(path, f"campaign.seeds: count must be at least 1, got {seeds}")
        if seeds > MAX_SEEDS:
            raise _error(path, f"campaign.seeds: at most {MAX_SEEDS} seeds, got {seeds}")
        return list(range(1, seeds + 1))
    if isinstance(seeds, list) and seeds:
        if len(seeds) > MAX_SEEDS:
            raise _error(path, f"campaign.seeds: at most {MAX_SEEDS} seeds, got {len(seeds)}")
        if not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= MAX_SEED
                   for s in seeds):
            raise _error(path, f"campaign.seeds: every seed must be an integer from 1 to "
                               f"{MAX_SEED} (ns-3 rejects seed 0), got {seeds}")
        if len(set(seeds)) != len(seeds):
            raise _error(path, f"campaign.seeds: repeated seed in {seeds}")
        return list(seeds)
    raise _error(path, f"campaign.seeds: expected a count or a non-empty list, got {seeds!r}")


def _parse_grid(path, where, table, fixed):
    if not isinstance(table, dict):
        raise _error(path, f"{where}: expected a table of lists")
    grid = {}
    for name, values in table.items():
        _check_name(path, f"{where}.{name}", name)
        if name in fixed:
            raise _error(path, f"{where}.{name}: also set in [fixed]; keep it in one place")
        if not isinstance(values, list):
            raise _error(path, f"{where}.{name}: expected a list of values "
                               f"(put a single value in [fixed]), got {values!r}")
        if not values:
            raise _error(path, f"{where}.{name}: empty list")
        for i, value in enumerate(values):
            _check_scalar(path, f"{where}.{name}[{i}]", value)
        if len({canonical_json(v) for v in values}) != len(values):
            raise _error(path, f"{where}.{name}: repeated value in {values}")
        grid[name] = values
    return grid


def _parse_paper(path, table):
    if not isinstance(table, dict):
        raise _error(path, "[paper]: expected a table")
    _check_unknown(path, "[paper]", table, _PAPER_KEYS)
    mapping = PaperMapping(experiment=table.get("experiment"))
    if mapping.experiment is not None and not isinstance(mapping.experiment, str):
        raise _error(path, "paper.experiment: expected a string")
    for key in ("params", "values", "metrics"):
        sub = table.get(key, {})
        if not isinstance(sub, dict) or not all(isinstance(v, (str, int, float, bool))
                                                for v in sub.values()):
            raise _error(path, f"paper.{key}: expected a table of names")
        setattr(mapping, key, {str(k): v for k, v in sub.items()})
    return mapping


def parse_spec(data, path):
    """A CampaignSpec from parsed TOML `data`; `path` is the spec file (for relative paths)."""
    path = pathlib.Path(path)
    base = path.resolve().parent
    _check_unknown(path, "top level", data, _TOP_KEYS)
    campaign = data.get("campaign")
    if not isinstance(campaign, dict):
        raise _error(path, "missing [campaign] table (with at least scenario = \"...\")")
    _check_unknown(path, "[campaign]", campaign, _CAMPAIGN_KEYS)

    scenario = campaign.get("scenario")
    if not isinstance(scenario, str) or not scenario:
        raise _error(path, "campaign.scenario: expected the scenario name, e.g. \"wifi-one-hop\"")
    name = campaign.get("name", path.stem)
    if not isinstance(name, str) or not name:
        raise _error(path, "campaign.name: expected a non-empty string")
    if not _CAMPAIGN_NAME_RE.match(name) or name in (".", ".."):
        where = "campaign.name" if "name" in campaign else "campaign.name (the file name)"
        raise _error(path, f"{where}: {name!r} is not a safe name (letters, digits, _ . -; "
                           "not . or ..): it names a file in the store")
    simulator = campaign.get("simulator")
    if simulator is not None:
        if not isinstance(simulator, str) or not simulator:
            raise _error(path, "campaign.simulator: expected a program name or path")
        if "/" in simulator:
            simulator = str(base / os.path.expanduser(simulator))
    store = campaign.get("store", f"results/{name}")
    if not isinstance(store, str) or not store:
        raise _error(path, "campaign.store: expected a directory path")
    store = (base / os.path.expanduser(store)).resolve()

    seeds = _parse_seeds(path, campaign.get("seeds", 1))
    timeout = campaign.get("timeout", DEFAULT_TIMEOUT_S)
    if (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
            or not math.isfinite(timeout) or timeout < 0):
        raise _error(path, f"campaign.timeout: expected seconds >= 0 (0 = no limit), "
                           f"got {timeout!r}")
    timeout = float(timeout) if timeout > 0 else None

    fixed = data.get("fixed", {})
    if not isinstance(fixed, dict):
        raise _error(path, "[fixed]: expected a table")
    for key, value in fixed.items():
        _check_name(path, f"fixed.{key}", key)
        _check_scalar(path, f"fixed.{key}", value)

    raw_grid = data.get("grid", {})
    if isinstance(raw_grid, list):
        if not raw_grid:
            raise _error(path, "[[grid]]: empty array")
        grids = [_parse_grid(path, f"grid[{i}]", g, fixed) for i, g in enumerate(raw_grid)]
    else:
        grids = [_parse_grid(path, "grid", raw_grid, fixed)]
    points = sum(math.prod(len(values) for values in grid.values()) for grid in grids)
    if points * len(seeds) > MAX_RUNS:
        raise _error(path, f"up to {points} grid points x {len(seeds)} seeds = "
                           f"{points * len(seeds)} runs; at most {MAX_RUNS} runs per campaign "
                           "(split it into several specs)")

    backend = campaign.get("backend", NS3)
    if backend not in BACKEND_CHOICES:
        raise _error(path, f"campaign.backend: expected one of {', '.join(BACKEND_CHOICES)}, "
                           f"got {backend!r}")

    seed_as = campaign.get("seed_as", "seed")
    if seed_as not in SEED_AS_CHOICES:
        raise _error(path, f"campaign.seed_as: expected one of {', '.join(SEED_AS_CHOICES)}, "
                           f"got {seed_as!r}")
    if seed_as == "run" and any("run" in point for point in [fixed, *grids]):
        raise _error(path, "campaign.seed_as = \"run\": the seeds are the run numbers, so "
                           "`run` may not be a parameter too")

    paper = _parse_paper(path, data.get("paper", {}))
    description = campaign.get("description", "")
    spec = CampaignSpec(path=path, name=name, scenario=scenario, simulator=simulator,
                        store=store, seeds=seeds, timeout=timeout, fixed=dict(fixed),
                        grids=grids, description=str(description), paper=paper,
                        backend=backend, seed_as=seed_as)
    try:
        spec.grid_points()
    except ValueError as e:
        raise _error(path, str(e)) from None
    return spec


def load_spec(path):
    """Reads and checks a campaign spec file; raises SpecError with the reason."""
    path = pathlib.Path(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise SpecError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SpecError(f"{path}: is a directory, expected a SPEC.toml file") from None
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: invalid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise SpecError(f"{path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset "
                        f"{e.start}); TOML files are UTF-8") from None
    except OSError as e:
        raise SpecError(f"{path}: cannot read: {e.strerror or e}") from None
    return parse_spec(data, path)


def _close(name, names):
    """Up to three of `names` that look like `name`, ignoring case, closest first."""
    lowered = {}
    for n in names:
        lowered.setdefault(n.lower(), n)
    return [lowered[n] for n in difflib.get_close_matches(name.lower(), list(lowered), n=3)]


def check_parameters(spec, scenarios, simulator="the simulator"):
    """Raises SpecError unless the spec's scenario is one of `scenarios` (the JSON list of
    `SIM --describe`: [{name, parameters: [{name, ...}]}]) and every [fixed] and grid name is
    one of its parameters, a runner option (RUNNER_PARAMS) or an ns-3 override (ns3::T::A).
    The message lists close matches of each unknown name."""
    by_name = {s["name"]: s for s in scenarios}
    scenario = by_name.get(spec.scenario)
    if scenario is None:
        close = _close(spec.scenario, list(by_name))
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise _error(spec.path, f"campaign.scenario: {simulator} has no scenario "
                                f"{spec.scenario!r}; {hint}scenarios: {', '.join(by_name)}")
    known = [p["name"] for p in scenario["parameters"]]
    where = {name: "fixed" for name in spec.fixed}
    for i, grid in enumerate(spec.grids):
        for name in grid:
            where.setdefault(name, "grid" if len(spec.grids) == 1 else f"grid[{i}]")
    unknown = []
    for name, table in where.items():
        if name in known or name in RUNNER_PARAMS or name.startswith(NS3_PREFIX):
            continue
        close = _close(name, known)
        hint = f"did you mean {' or '.join(close)}?" if close else "no close match"
        unknown.append(f"{table}.{name} ({hint})")
    if unknown:
        raise _error(spec.path, f"not parameters of scenario {spec.scenario}: "
                                f"{'; '.join(unknown)}; `{simulator} {spec.scenario} --help` "
                                "lists them")
