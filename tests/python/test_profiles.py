"""Consumer profiles in campaign specs (ndnlab.profiles): `Profile = "ndnsim"` stands for the
knobs the profile sets, so a spec naming a profile runs, and keys its runs, exactly as one that
lists the knobs one by one; and the table agrees with the simulator's."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from ndnlab import profiles  # noqa: E402
from ndnlab.spec import SpecError, format_value, load_spec  # noqa: E402

BUILD = pathlib.Path(os.environ.get("NDNLAB_BUILD", ROOT / "build"))

HEAD = """
[campaign]
name = "profiles"
scenario = "p2p-chain"
store = "store"
seeds = 2
"""


def write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(HEAD + body)
    return load_spec(path)


def toml_table(values):
    return "\n".join(f"{k} = {json.dumps(v) if isinstance(v, str) else format_value(v)}"
                     for k, v in values.items())


def test_a_profile_keys_runs_as_its_knobs_listed_one_by_one(tmp_path):
    named = write(tmp_path, "named.toml", '[fixed]\nProfile = "ndnsim"\n[grid]\nHops = [1, 2]\n')
    listed = write(tmp_path, "listed.toml",
                   f"[fixed]\n{toml_table(profiles.PRESETS['ndnsim'])}\n[grid]\nHops = [1, 2]\n")
    assert [r.key("v") for r in named.runs()] == [r.key("v") for r in listed.runs()]
    assert len(named.runs()) == 4
    assert all("Profile" not in r.params and r.params["CwaGate"] == "high-data"
               for r in named.runs())


def test_a_knob_given_wins_over_its_profile(tmp_path):
    spec = write(tmp_path, "s.toml", '[fixed]\nProfile = "ndnsim"\n[grid]\nRtoK = [4, 10]\n')
    assert [p["RtoK"] for p in spec.grid_points()] == [4, 10]
    rows = write(tmp_path, "rows.toml", '[[grid]]\nProfile = ["ndnsim", "ndncatchunks", "ndnlab"]\n'
                                        'CwaGate = ["transmission"]\n')
    points = rows.grid_points()
    assert [p["CwaGate"] for p in points] == ["transmission"] * 3
    assert points[1] == {"CwaGate": "transmission", **{k: v for k, v in
                         profiles.PRESETS["ndncatchunks"].items() if k != "CwaGate"}}
    assert points[2] == {"CwaGate": "transmission"}  # ndnlab's profile is the defaults


def test_an_unknown_profile_is_a_spec_error(tmp_path):
    with pytest.raises(SpecError, match=r"bad\.toml: Profile = 'ndnSIM': not a consumer profile; "
                                        r"profiles: ndncatchunks, ndnlab, ndnsim"):
        write(tmp_path, "bad.toml", '[fixed]\nProfile = "ndnSIM"\n')


def test_the_table_is_the_simulators():
    sim = BUILD / "ns3" / "runner" / "ndnlab-sim"
    if not os.access(sim, os.X_OK):
        pytest.skip(f"{sim} not built")
    out = subprocess.run([sim, "--describe"], check=True, capture_output=True, text=True)
    assert profiles.presets_of(json.loads(out.stdout)) == profiles.PRESETS, (
        "regenerate ndnlab/profiles.py PRESETS: python3 -m ndnlab.profiles " + str(sim))
