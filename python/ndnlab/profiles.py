"""Consumer profiles as campaign specs use them: `Profile = "ndnsim"` in a spec stands for the
scenario parameters (knobs) that the profile sets apart from ndnlab's defaults.

A spec's grid point is expanded here, when the spec is read, so that a run stores, hashes and
passes on the command line the knobs themselves, as the specs did before profiles existed: a
store made from specs that listed the knobs one by one keeps its run keys. A knob given in the
point wins over its profile's value, as `ndnlab sim --Profile` does.

PRESETS is `ndnlab-sim --describe`'s "presets" of the Profile parameter (each value typed as
the spec file writes it: whole numbers as ints); tests/python/test_profiles.py checks it against
the simulator, so a change to a profile in core/app/segment-fetcher-fields.hpp fails that test
until this table is regenerated (`python3 -m ndnlab.profiles SIM` prints it).
"""

PROFILE_PARAM = "Profile"

PRESETS = {
    "ndncatchunks": {
        "CwaGate": "lost-segment",
        "HyStart": False,
        "LossDetection": "timeout",
        "RetriesCountStallsOnly": False,
        "RetxHoldoff": 0,
    },
    "ndnlab": {},
    "ndnsim": {
        "AimdFloorIncrease": False,
        "AimdMinSsthresh": 1,
        "CeilWindow": True,
        "CubicBeta": 0.8,
        "CubicTcpFriendly": False,
        "CwaGate": "high-data",
        "HyStart": False,
        "InitCwnd": 1,
        "Lifetime": 2000,
        "LossDetection": "timeout",
        "RetriesCountStallsOnly": False,
        "RetxHoldoff": 0,
        "RtoBackoffPerTimeout": True,
        "RtoCheckInterval": 50,
        "RtoK": 4,
        "RttFullGains": True,
    },
}


def expand(point):
    """`point` (name -> value) with its Profile replaced by the knobs the profile sets, the
    knobs given in `point` winning. ValueError for an unknown profile."""
    if PROFILE_PARAM not in point:
        return point
    point = dict(point)
    name = point.pop(PROFILE_PARAM)
    if name not in PRESETS:
        raise ValueError(f"{PROFILE_PARAM} = {name!r}: not a consumer profile; profiles: "
                         f"{', '.join(sorted(PRESETS))}")
    for knob, value in PRESETS[name].items():
        point.setdefault(knob, value)
    return point


def presets_of(describe):
    """The Profile presets in `SIM --describe` output (a list of scenarios), typed as PRESETS
    is; {} when no scenario has them. ValueError when two scenarios disagree."""
    found = {}
    for scenario in describe:
        for param in scenario["parameters"]:
            if param["name"] != PROFILE_PARAM or "presets" not in param:
                continue
            presets = {choice: {k: _as_written(v) for k, v in values.items()}
                       for choice, values in param["presets"].items()}
            if found and presets != found:
                raise ValueError(f"scenario {scenario['name']}: its {PROFILE_PARAM} presets "
                                 "differ from another scenario's")
            found = presets
    return found


def _as_written(value):
    """A whole float as an int: specs write `RtoK = 4`, the simulator's knobs are doubles."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def main(argv=None):
    import json
    import pprint
    import subprocess
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python3 -m ndnlab.profiles SIMULATOR   (prints PRESETS)", file=sys.stderr)
        return 2
    out = subprocess.run([argv[0], "--describe"], check=True, capture_output=True, text=True)
    pprint.pprint(presets_of(json.loads(out.stdout)), width=100)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
