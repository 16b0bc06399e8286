"""experiments/blend/run and experiments/dcib/run.sh: bad arguments stop them before anything
runs, --help and --dry-run write nothing, and a failed or partial campaign leaves the reports,
figures and paper table as they were. They run on a copy of experiments/ with the fake
simulator, never on the checkout's results."""

import hashlib
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAKE_SIM = ROOT / "tests" / "python" / "fake_sim.py"


@pytest.fixture
def tree(tmp_path):
    """A copy of experiments/ (scripts, specs, dcib's figures and table; no results) beside a
    link to this checkout's python/, and a simulator that logs each call before the fake one."""
    for name in ("blend", "dcib"):
        shutil.copytree(ROOT / "experiments" / name, tmp_path / "experiments" / name,
                        ignore=shutil.ignore_patterns("results", "__pycache__"))
    shutil.copy2(ROOT / "experiments" / "campaign-check", tmp_path / "experiments")
    (tmp_path / "python").symlink_to(ROOT / "python")
    sim = tmp_path / "sim"
    sim.write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/sim.log"\n'
                   f'exec "{sys.executable}" "{FAKE_SIM}" "$@"\n')
    sim.chmod(0o755)
    return tmp_path


def script(tree, name, *args, **extra):
    e = dict(os.environ, NDNLAB_SIM=str(tree / "sim"), PYTHONDONTWRITEBYTECODE="1")
    e.pop("PYTHONPATH", None)
    e.update(extra)
    path = tree / "experiments" / name
    return subprocess.run([str(path), *args], capture_output=True, text=True, timeout=300,
                          env=e, cwd=tree)


def snapshot(tree):
    """{path: digest} of every file under experiments/ (what a script must not change) but the
    stores' empty lock files (`ndnlab campaign --dry-run` takes the lock too)."""
    return {str(p.relative_to(tree)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((tree / "experiments").rglob("*"))
            if p.is_file() and p.name != ".lock"}


def test_help_lists_every_spec_and_writes_nothing(tree):
    before = snapshot(tree)
    names = sorted(p.stem for p in (ROOT / "experiments" / "blend").glob("*.toml")
                   if not p.stem.startswith("beyond-")) + ["beyond"]
    for args in (["--help"], ["fig1-demo", "--help"], ["fig7", "--workers", "1", "-h"]):
        done = script(tree, "blend/run", *args)
        assert done.returncode == 0, done.stderr
        assert f"names: {' '.join(names)}" in done.stdout
        assert "--dry-run" in done.stdout and "Exit status:" in done.stdout
    done = script(tree, "dcib/run.sh", "--help")
    assert done.returncode == 0 and "--workers N" in done.stdout, done.stderr
    done = script(tree, "dcib/premise/run", "--help")
    assert done.returncode == 0 and "Exit status:" in done.stdout, done.stderr
    assert snapshot(tree) == before and not (tree / "sim.log").exists()


def test_dcib_premise_dry_run_lists_every_campaign(tree):
    done = script(tree, "dcib/premise/run", "--dry-run", "--no-check")
    assert done.returncode == 0, done.stderr
    for name in ("regime", "rtt", "loss", "fig2", "iv-flows"):
        assert f"premise/results/{name}/runs/" in done.stdout
    assert not (tree / "docs").exists()  # no report from a dry run


@pytest.mark.parametrize("name, args, message", [
    ("blend/run", ["--bogus"], "run: unknown name '--bogus'; names: fig1 "),
    ("blend/run", [""], "run: unknown name ''"),
    ("blend/run", ["../dcib/no-loss", "--dry-run"], "run: unknown name '../dcib/no-loss'"),
    ("blend/run", ["beyond-a"], "run: unknown name 'beyond-a'"),
    ("blend/run", ["fig1-demo", "--bogus"], "run fig1-demo: unrecognized arguments: --bogus"),
    ("blend/run", ["fig1-demo", "extra"], "unrecognized arguments: extra"),
    ("blend/run", ["fig1", "--workers", "0"], "--workers must be at least 1"),
    ("dcib/run.sh", ["--bogus"], "run.sh: unrecognized arguments: --bogus"),
    ("dcib/run.sh", ["--workers", "x"], "argument --workers: invalid int value: 'x'"),
])
def test_bad_arguments_stop_before_anything_runs(tree, name, args, message):
    before = snapshot(tree)
    done = script(tree, name, *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr
    assert snapshot(tree) == before
    assert not (tree / "sim.log").exists()  # no campaign asked the simulator anything
    assert not (tree / "experiments" / "blend" / "dcib").exists()
    assert not (tree / "experiments" / "blend" / "results").exists()


def test_dry_run_prints_the_commands_and_writes_no_report(tree):
    before = snapshot(tree)
    done = script(tree, "blend/run", "fig1-demo", "--dry-run", "--no-check")
    assert done.returncode == 0, done.stderr
    assert "dry run: 6 runs would run" in done.stdout
    assert "wall time" not in done.stdout and "report:" not in done.stdout
    out = tree / "experiments" / "blend" / "results" / "fig1-demo"  # also the spec's store
    assert not (out / "report.md").exists() and not list(out.glob("*.png"))
    done = script(tree, "dcib/run.sh", "--dry-run", "--no-check")
    assert done.returncode == 0, done.stderr
    # the premise's campaigns, then section IV's: the earlier ones, then those on the premise's hosts
    assert done.stdout.count("dry run: ") == 5 + 9 + 6
    assert "iv-premise/results/artificial-loss/runs/" in done.stdout
    assert done.stdout.index("premise/results/regime/runs/") < done.stdout.index("results/artificial-loss/runs/")
    assert snapshot(tree) == before  # figures/ and paper-table.md untouched


def test_failed_campaigns_leave_the_table_and_figures_as_they_were(tree):
    before = snapshot(tree)
    done = script(tree, "dcib/run.sh", "--workers", "1", NDNLAB_SIM=str(tree / "nosuch-sim"))
    assert done.returncode == 2, done.stdout + done.stderr
    # the premise stops at its first campaign; section IV's nine and iv-premise's six each try
    assert done.stderr.count("simulator not found") == 1 + 9 + 6
    assert "run.sh: the premise (premise/run) exited with status 2" in done.stderr
    assert "figures/ and paper-table.md not regenerated (a campaign failed)" in done.stderr
    assert snapshot(tree) == before


def _fake_spec(tree, name, modes, seeds=1):
    path = tree / "experiments" / "blend" / f"{name}.toml"
    path.write_text(f'[campaign]\nname = "{name}"\nscenario = "wifi-one-hop"\n'
                    f'store = "results/{name}"\nseeds = {seeds}\ntimeout = 30\n\n'
                    f'[grid]\nStandard = ["802.11b"]\nMode = {modes}\n')
    return path


def test_blend_reports_only_after_a_campaign_that_succeeded(tree):
    out = tree / "experiments" / "blend" / "results"
    _fake_spec(tree, "fake-fail", '["ok", "fail"]')
    done = script(tree, "blend/run", "fake-fail", "--workers", "1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "run: campaign fake-fail.toml exited with status 1; results/fake-fail/ not " \
           "regenerated" in done.stderr
    assert not (out / "fake-fail" / "report.md").exists()
    # a spec without steps of its own gets a report once its campaign succeeded
    _fake_spec(tree, "fake-ok", '["ok"]')
    done = script(tree, "blend/run", "fake-ok", "--workers", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# Results: fake-ok" in (out / "fake-ok" / "report.md").read_text()
    assert "campaign wall time:" in done.stdout


def test_campaign_check_names_specs_whose_store_lacks_runs(tree):
    spec = _fake_spec(tree, "fake-partial", '["ok"]')
    check = tree / "experiments" / "campaign-check"
    e = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    done = subprocess.run([sys.executable, str(check), "complete", str(spec)],
                          capture_output=True, text=True, env=e, timeout=60)
    assert done.returncode == 1 and "1 of 1 runs have no successful result" in done.stderr
    assert script(tree, "blend/run", "fake-partial", "--workers", "1").returncode == 0
    spec.write_text(spec.read_text().replace("seeds = 1", "seeds = 3"))
    done = subprocess.run([sys.executable, str(check), "complete", str(spec)],
                          capture_output=True, text=True, env=e, timeout=60)
    assert done.returncode == 1 and "2 of 3 runs have no successful result" in done.stderr


@pytest.mark.parametrize("status", [130, 143, 129])
@pytest.mark.parametrize("where", ["premise", "section IV"])
def test_dcib_stops_at_an_interrupted_campaign(tree, status, where):
    """A Ctrl-C (SIGTERM, SIGHUP) stops `ndnlab campaign` with 130 (143, 129): the script stops
    too, instead of starting the next campaign, whether it hits the premise (run first) or a
    section IV campaign. A stand-in python3 plays the interrupted campaign (and, for section IV,
    premise campaigns and a premise report that succeed at once); every other python3 command
    is the real one."""
    bin_dir = tree / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "python3"
    premise_ok = ('case "$4$1" in */premise/*) echo "$4$1" >> "{log}.premise"; exit 0 ;; esac\n'
                  if where == "section IV" else "")
    stand_in.write_text(
        '#!/bin/sh\n'
        'if [ "$1 $2 $3" = "-m ndnlab campaign" ] || [ "${1##*/}" = report.py ]; then\n'
        + premise_ok.format(log=tree / "campaigns.log")
        + f'  echo "$4" >> "{tree}/campaigns.log"; exit {status}\n'
        'fi\n'
        f'exec "{sys.executable}" "$@"\n')
    stand_in.chmod(0o755)
    before = snapshot(tree)
    done = script(tree, "dcib/run.sh", "--workers", "1",
                  PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert done.returncode == status, done.stdout + done.stderr
    dcib = tree / "experiments" / "dcib"
    if where == "premise":
        assert (tree / "campaigns.log").read_text().splitlines() == [str(dcib / "premise" / "regime.toml")]
        assert f"run.sh: the premise was interrupted (status {status}); section IV does not run" in done.stderr
        assert snapshot(tree) == before
    else:
        assert len((tree / "campaigns.log.premise").read_text().splitlines()) == 5 + 1  # campaigns, report
        assert (tree / "campaigns.log").read_text().splitlines() == [str(dcib / "artificial-loss.toml")]
        assert f"run.sh: campaign artificial-loss.toml interrupted (status {status})" in done.stderr
