"""The ndnSIM consumer profile (`ndnlab get --profile ndnsim`) is the consumer the BLEnD
campaigns run for the paper's configuration: every consumer parameter of those runs, as the
spec expands `Profile = "ndnsim"` (ndnlab.profiles), has the profile's value in `ndnlab get`,
so the tool's profile and the campaigns' cannot drift apart."""
import re
import subprocess

import pytest

from conftest import NDNLAB, ROOT
from ndnlab.spec import load_spec

# BLEnD specs whose paper configuration is ndnSIM's ConsumerPcon; each names its grid rows
# that run the paper's consumer by their CwaGate = ["high-data"]
SPECS = ["fig7.toml", "fig8.toml", "fig9.toml"]


def options_table(*args):
    out = subprocess.run([str(NDNLAB), "get", "--print-options-table", *args], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0, out.stderr
    table = {}
    for line in out.stdout.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        flags = re.findall(r"`(--[a-z0-9-]+)`", cells[0])
        table[flags[0][2:]] = cells[1]
    return table


def plain(name):
    """A flag or parameter name without case and dashes: init-cwnd and InitCwnd, hystart and HyStart."""
    return name.replace("-", "").lower()


def as_text(value):
    """A spec value written as the options table writes a default."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


@pytest.mark.skipif(not NDNLAB.exists(), reason="ndnlab not built")
def test_ndnsim_profile_is_what_the_blend_specs_pin():
    profile = {plain(k): v for k, v in options_table("--profile", "ndnsim").items()}
    default = {plain(k): v for k, v in options_table().items()}
    assert profile != default
    checked = 0
    for name in SPECS:
        spec = load_spec(ROOT / "experiments" / "blend" / name)
        paper_runs = [p for p in spec.grid_points() if p.get("CwaGate") == "high-data"]
        assert paper_runs, f"{name}: no run of the paper's consumer"
        for point in paper_runs:
            for key, value in point.items():
                flag = plain(key)
                if flag not in profile or key in spec.varying_params():
                    continue  # not a consumer option, or one the figure sweeps (RtoK in Fig. 9)
                unit_free = profile[flag].split(" ")[0].strip("`")
                assert unit_free == as_text(value), f"{name}: {key} = {value}, profile ndnsim: {profile[flag]}"
                checked += 1
    assert checked >= 3 * 15  # 15+ consumer parameters in each of the specs


@pytest.mark.skipif(not NDNLAB.exists(), reason="ndnlab not built")
def test_unknown_profile_in_the_table_request_is_a_usage_error():
    out = subprocess.run([str(NDNLAB), "get", "--print-options-table", "--profile", "nope"], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 2
    assert out.stdout == ""
