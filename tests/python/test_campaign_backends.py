"""`ndnlab campaign --backend ns3|emu|both`, and `ndnlab report` / `ndnlab plot` of a store with
runs on both backends. The simulator is tests/python/fake_sim.py and the emulation
tests/python/fake_emu.py (through $NDNLAB_EMU; its goodput is 0.95 times the simulator's)."""

import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAKE_EMU = ROOT / "tests" / "python" / "fake_emu.py"
sys.path.insert(0, str(ROOT / "python"))

from ndnlab import campaign as campaign_cli  # noqa: E402
from ndnlab import plot as plot_cli  # noqa: E402
from ndnlab import report as report_cli  # noqa: E402
from ndnlab.emu import net as emunet  # noqa: E402
from ndnlab.data import load  # noqa: E402
from ndnlab.spec import Run, SpecError, load_spec  # noqa: E402
from ndnlab.store import ResultStore, record_identity  # noqa: E402

from test_campaign import campaign, own_cluster, write_spec  # noqa: E402


def records(store):
    return [json.loads(line) for line in (store / "index.jsonl").read_text().splitlines()]


def test_ns3_keys_stay_and_emu_runs_have_keys_and_identities_of_their_own():
    params = {"Standard": "802.11b", "FileSize": 1000}
    ns3 = Run("wifi-one-hop", params, 1)
    # the key a store written before there were backends holds for this run
    assert ns3.key("ndnlab-sim 0.1.0") == "37914c1e7e403311"
    assert Run("wifi-one-hop", params, 1, "ns3").key("ndnlab-sim 0.1.0") == "37914c1e7e403311"
    emu = Run("wifi-one-hop", params, 1, "emu")
    assert emu.key("ndnlab-sim 0.1.0") not in (ns3.key("ndnlab-sim 0.1.0"), emu.key("v2"))
    assert emu.identity() != ns3.identity()
    record = {"scenario": "wifi-one-hop", "params": params, "seed": 1}
    assert record_identity(record) == ns3.identity()  # a record from before: ns3
    assert record_identity(dict(record, backend="ns3")) == ns3.identity()
    assert record_identity(dict(record, backend="emu")) == emu.identity()
    assert emu.label() == "Standard=802.11b FileSize=1000 seed=1 (emu)"
    assert emu.command(["python3", "-m", "ndnlab.emu.run"], "/s/k") == [
        "python3", "-m", "ndnlab.emu.run", "wifi-one-hop", "--Standard=802.11b",
        "--FileSize=1000", "--seed=1", "--out=/s/k"]


def test_seed_as_run_runs_are_stored_and_loaded_as_their_own(tmp_path):
    spec = write_spec(tmp_path, "runs", {"Consumer": ["aimd"]}, seeds=2,
                      extra="").read_text().replace("seeds = 2", 'seeds = 2\nseed_as = "run"')
    path = tmp_path / "runs.toml"
    path.write_text(spec)
    assert campaign(path, "--workers", 1).returncode == 0
    recs = records(tmp_path / "store-runs")
    assert sorted((r["seed"], r["seed_as"]) for r in recs) == [(1, "run"), (2, "run")]
    run = Run("wifi-one-hop", recs[0]["params"], recs[0]["seed"], seed_as="run")
    assert record_identity(recs[0]) == run.identity() != Run(run.scenario, run.params,
                                                              run.seed).identity()
    df, _, _ = load(path)
    assert sorted(df["seed"]) == [1, 2]


def test_spec_backend_is_checked(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[campaign]\nscenario = "s"\nbackend = "both"\n')
    spec = load_spec(path)
    assert spec.backend == "both"
    assert [r.backend for r in spec.runs("emu")] == ["emu"]
    path.write_text('[campaign]\nscenario = "s"\nbackend = "real"\n')
    with pytest.raises(SpecError, match="campaign.backend: expected one of ns3, emu, both"):
        load_spec(path)


def test_dry_run_prints_the_emu_commands_and_the_command_line_wins(tmp_path):
    spec = write_spec(tmp_path, "dry", {"Consumer": ["aimd", "cubic"]}, seeds=1,
                      extra='')
    spec.write_text(spec.read_text().replace('seeds = 1', 'seeds = 1\nbackend = "emu"'))
    dry = campaign(spec, "--dry-run", NDNLAB_EMU=f"{sys.executable} {FAKE_EMU}")
    assert dry.returncode == 0, dry.stderr
    lines = dry.stdout.splitlines()
    emu_lines = [line for line in lines if str(FAKE_EMU) in line and "--seed=1" in line]
    assert len(emu_lines) == 2 and "dry run: 2 runs would run" in dry.stdout
    assert emu_lines[0].startswith(f"{sys.executable} {FAKE_EMU} wifi-one-hop --Consumer=aimd")
    both = campaign(spec, "--dry-run", "--backend", "both", NDNLAB_EMU=str(FAKE_EMU))
    assert "4 runs (2 grid points x 1 seeds x 2 backends)" in both.stdout
    assert "dry run: 4 runs would run" in both.stdout
    ns3 = campaign(spec, "--dry-run", "--backend", "ns3", NDNLAB_EMU=str(FAKE_EMU))
    assert "dry run: 2 runs would run" in ns3.stdout and str(FAKE_EMU) not in ns3.stdout
    # the emu commands default to this package's `ndnlab emu`
    default = campaign(spec, "--dry-run")
    assert f"{sys.executable} -m ndnlab.emu.run wifi-one-hop --Consumer=aimd" in default.stdout
    assert not (tmp_path / "store-dry").exists()


def test_emu_without_privileges_is_refused_before_anything_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(emunet, "check_privileges",
                        lambda: (False, "needs root, or CAP_NET_ADMIN and CAP_SYS_ADMIN"))
    monkeypatch.setenv("NDNLAB_EMU", str(FAKE_EMU))
    spec = write_spec(tmp_path, "noroot", {"Consumer": ["aimd"]}, seeds=1)
    assert campaign_cli.main([str(spec), "--backend", "both"]) == 2
    err = capsys.readouterr().err
    assert "--backend both: the emu runs cannot build networks here: needs root" in err
    assert "nothing was run" in err
    assert not (tmp_path / "store-noroot").exists()  # not even the ns3 runs


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """A campaign on both backends: 2 grid points x 2 seeds, with privileges granted (the fake
    emulation builds no network), in this process so that check_privileges can be replaced."""
    directory = tmp_path_factory.mktemp("both")
    spec = write_spec(directory, "both", {"Consumer": ["aimd", "cubic"]}, seeds=2)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(emunet, "check_privileges", lambda: (True, ""))
        mp.setenv("NDNLAB_EMU", str(FAKE_EMU))
        mp.setenv("PYTHONPATH", os.pathsep.join([str(ROOT / "python")]
                                                + [os.environ.get("PYTHONPATH", "")]))
        status = campaign_cli.main([str(spec), "--backend", "both", "--workers", "2"])
    return spec, directory / "store-both", status


def test_both_backends_are_stored_and_emu_runs_one_at_a_time_after_ns3(both):
    spec, store, status = both
    assert status == 0
    recs = records(store)
    assert sorted(r["backend"] for r in recs) == ["emu"] * 4 + ["ns3"] * 4
    assert all(r["status"] == "ok" for r in recs)
    emu = [r for r in recs if r["backend"] == "emu"]
    ns3 = [r for r in recs if r["backend"] == "ns3"]
    assert all(r["result"]["backend"] == "emu" for r in emu)
    assert len({r["worker"] for r in emu}) == 1  # one worker of the two
    spans = sorted((r["result"]["emu_started"], r["result"]["emu_ended"]) for r in emu)
    assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:])), spans
    assert max(r["finished"] for r in ns3) <= min(r["started"] for r in emu)
    # the same grid point and seed on each backend: two keys, both in the store
    loaded = load_spec(spec)
    version = ns3[0]["sim_version"]
    assert {r["key"] for r in ns3} == {run.key(version) for run in loaded.runs("ns3")}
    assert {r["key"] for r in emu} == {run.key(version) for run in loaded.runs("emu")}
    again = campaign(spec, "--backend", "both", NDNLAB_EMU=str(FAKE_EMU))
    assert "nothing to run: all 8 runs are already in the store" in again.stdout, again.stdout
    df = ResultStore(store).load(spec=loaded)
    assert sorted(df["backend"]) == ["emu"] * 4 + ["ns3"] * 4 and df.attrs["missing"] == 0


def test_report_puts_ns3_and_emu_side_by_side_with_the_difference(both, capsys):
    spec, _, _ = both
    assert report_cli.main([str(spec), "--metrics", "goodput_mbps,retransmissions"]) == 0
    text = capsys.readouterr().out
    assert "- Backends: ns3 (4 runs), emu (4 runs)" in text
    assert "| Consumer | backend | metric | mean |" in text
    assert "| aimd | ns3 | goodput_mbps |" in text and "| aimd | emu | goodput_mbps |" in text
    side = text.split("## ns3 vs emu")[1]
    assert "| Consumer | metric | ns3 median | emu median | emu vs ns3 | n ns3 / emu |" in side
    rows = {tuple(c.strip() for c in line.strip("|").split("|")[:2]): line
            for line in side.splitlines() if line.startswith("| aimd") or
            line.startswith("| cubic")}
    assert "| -5.0% | 2 / 2 |" in rows["aimd", "goodput_mbps"]
    assert "| -5.0% | 2 / 2 |" in rows["cubic", "goodput_mbps"]
    assert "| +0.0% | 2 / 2 |" in rows["aimd", "retransmissions"]
    # one backend selected: the report of that backend alone, no side-by-side table
    assert report_cli.main([str(spec), "--where", "backend=ns3"]) == 0
    text = capsys.readouterr().out
    assert "ns3 vs emu" not in text and "| backend |" not in text


def test_a_report_without_emu_runs_looks_as_before(tmp_path, capsys):
    spec = write_spec(tmp_path, "plain", {"Consumer": ["aimd", "cubic"]}, seeds=1)
    done = campaign(spec, "--workers", 1)
    assert done.returncode == 0, done.stderr
    assert all(r["backend"] == "ns3" for r in records(tmp_path / "store-plain"))
    assert report_cli.main([str(spec), "--metrics", "goodput_mbps"]) == 0
    text = capsys.readouterr().out
    assert "| Consumer | metric | mean | stddev | 95% CI ± | n |" in text
    assert "Backends" not in text and "| backend |" not in text and "ns3 vs emu" not in text
    # a store written before there were backends (records without one) reads the same
    index = tmp_path / "store-plain" / "index.jsonl"
    index.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "backend"}) + "\n"
                             for r in records(tmp_path / "store-plain")))
    assert report_cli.main([str(spec), "--metrics", "goodput_mbps"]) == 0
    old = capsys.readouterr().out
    assert [line for line in old.splitlines() if "Generated" not in line] == \
        [line for line in text.splitlines() if "Generated" not in line]


def test_plot_overlays_the_backends(both, tmp_path):
    spec, _, _ = both
    from ndnlab import data

    df, loaded, _ = data.load(spec)
    fig = plot_cli.make_figure(df, "goodput_mbps", "Consumer", kind="line", spec=loaded)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["ns3", "emu"]
    series = [line for line in ax.get_lines() if line.get_linestyle() != "None"]  # not caps
    assert sorted((line.get_linestyle(), line.get_marker()) for line in series) == \
        [("-", "o"), ("--", "s")]
    out = tmp_path / "bar.png"
    assert plot_cli.main([str(spec), "--x", "Consumer", "--y", "goodput_mbps", "-o",
                          str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")


@pytest.fixture
def plain_cluster(tmp_path):
    """A cluster of two worker processes without the `emu` resource; yields (client,
    start_worker) so that a test can add an emu worker."""
    with own_cluster(tmp_path) as (client, start_worker):
        start_worker("--nworkers", "2")
        client.wait_for_workers(2, timeout=60)
        yield client, start_worker


def test_scheduler_runs_emu_only_on_workers_with_the_emu_resource(tmp_path, plain_cluster):
    ok, why = emunet.check_privileges()
    if not ok:
        pytest.skip(f"the emu worker's privilege check needs them here: {why}")
    client, start_worker = plain_cluster
    address = client.scheduler.address
    spec = write_spec(tmp_path, "remote", {"Consumer": ["aimd"]}, seeds=2)
    refused = campaign(spec, "--backend", "both", "--scheduler", address,
                       NDNLAB_EMU=str(FAKE_EMU))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "offers the Dask resource `emu`" in refused.stderr
    assert "--resources emu=1" in refused.stderr
    assert not (tmp_path / "store-remote" / "index.jsonl").exists()

    start_worker("--nworkers", "1", "--resources", "emu=1")
    client.wait_for_workers(3, timeout=60)
    emu_worker = next(a for a, w in client.scheduler_info()["workers"].items()
                      if w.get("resources", {}).get("emu"))
    done = campaign(spec, "--backend", "both", "--scheduler", address, NDNLAB_EMU=str(FAKE_EMU))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 emu runs one at a time per host, on 1 workers with the `emu` resource" in done.stdout
    recs = records(tmp_path / "store-remote")
    assert {r["worker"] for r in recs if r["backend"] == "emu"} == {emu_worker}
    assert sorted(r["backend"] for r in recs) == ["emu", "emu", "ns3", "ns3"]
