#!/usr/bin/env python3
"""A stand-in for `ndnlab-sim` in the campaign tests.

    fake_sim.py <scenario> [--Name=value ...] --seed=S --out=DIR
    fake_sim.py <scenario> [--Name=value ...] --run=S --out=DIR     (seed 1, run S: as seed S)
    fake_sim.py --version
    fake_sim.py --describe

Writes DIR/result.json (scenario, parameters, seed, metrics, wall time, event count) and a
small trace, with metrics that depend only on the parameters and the seed. Parameters with a
meaning here: Standard (802.11b / 802.11n), Consumer (aimd / cubic / one-interest), Mode
(ok; fail: exit 3 with a message on stderr; hang: sleep 60 s; noresult: exit 0 without
result.json), Sleep (seconds of fake work, default 0.1). $FAKE_SIM_VERSION sets --version;
with $FAKE_SIM_DRIFT set, goodput_mbps comes out 0.1% higher (a simulator that changed).
--describe prints SCENARIOS in ndnlab-sim's shape (PARAMETERS, plus FileSize and Pacing,
which are only recorded); with $FAKE_SIM_NO_DESCRIBE set it fails like a simulator without it.
"""

import hashlib
import json
import os
import pathlib
import random
import sys
import time

SCENARIOS = ["wifi-one-hop", "p2p-chain"]
PARAMETERS = ["Standard", "Consumer", "Mode", "Sleep", "FileSize", "Pacing"]

BASE_GOODPUT = {  # Mbps, roughly where ns-3 lands for BLEnD Fig. 1
    ("80211b", "aimd"): 4.1, ("80211b", "cubic"): 4.0, ("80211b", "oneinterest"): 6.9,
    ("80211n", "aimd"): 10.5, ("80211n", "cubic"): 10.2, ("80211n", "oneinterest"): 17.8,
}


def norm(text):
    return "".join(c for c in str(text).lower() if c.isalnum())


def parse(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit("fake_sim: usage: fake_sim.py <scenario> [--Name=value ...] --seed=S --out=DIR")
    scenario, params, i = argv[0], {}, 1
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("--"):
            sys.exit(f"fake_sim: unexpected argument {arg!r}")
        name, eq, value = arg[2:].partition("=")
        if not eq:
            i += 1
            if i == len(argv):
                sys.exit(f"fake_sim: {arg} needs a value")
            value = argv[i]
        params[name] = value
        i += 1
    if "seed" not in params and "run" in params:
        params["seed"] = params.pop("run")  # --run=S of seed 1 (seed_as = "run"): S draws
    if "seed" not in params or "out" not in params:
        sys.exit("fake_sim: --seed (or --run) and --out are required")
    return scenario, params


def main():
    if sys.argv[1:] == ["--version"]:
        print(f"fake-sim {os.environ.get('FAKE_SIM_VERSION', '1.0')}")
        return 0
    if sys.argv[1:] == ["--describe"]:
        if os.environ.get("FAKE_SIM_NO_DESCRIBE"):
            sys.exit("fake_sim: unknown option --describe")
        params = [{"name": name, "type": "string", "default": "", "choices": [], "unit": "",
                   "doc": ""} for name in PARAMETERS]
        print(json.dumps([{"name": name, "description": "fake", "parameters": params}
                          for name in SCENARIOS], indent=2))
        return 0
    start = time.monotonic()
    scenario, params = parse(sys.argv[1:])
    seed = int(params.pop("seed"))
    out = pathlib.Path(params.pop("out"))
    mode = params.get("Mode", "ok")
    print(f"fake_sim: {scenario} seed {seed} {params}")
    time.sleep(float(params.get("Sleep", 0.1)))
    if mode == "fail":
        print("fake_sim: simulated failure: the channel caught fire", file=sys.stderr)
        return 3
    if mode == "hang":
        time.sleep(60)
    if mode == "noresult":
        return 0

    digest = hashlib.sha256(json.dumps([scenario, sorted(params.items()), seed]).encode())
    rng = random.Random(digest.hexdigest())
    key = (norm(params.get("Standard", "802.11b")), norm(params.get("Consumer", "aimd")))
    goodput = BASE_GOODPUT.get(key, 5.0) * (1 + rng.uniform(-0.03, 0.03))
    if os.environ.get("FAKE_SIM_DRIFT"):
        goodput *= 1.001
    interests = 1000 + rng.randrange(100)
    metrics = {
        "goodput_mbps": goodput,
        "retransmissions": rng.randrange(50),
        "counters": {"interests_sent": interests, "data_received": interests - 3},
        "delay_ms": [round(rng.expovariate(1 / 20.0), 3) for _ in range(20)],
    }
    (out / "traces").mkdir(parents=True, exist_ok=True)
    with open(out / "traces" / "rates.csv", "w") as f:
        f.write("time_s,goodput_mbps\n")
        for t in range(5):
            f.write(f"{t},{goodput * (1 + rng.uniform(-0.1, 0.1)):.4f}\n")
    result = {"scenario": scenario, "parameters": params, "seed": seed, "metrics": metrics,
              "wall_time_s": time.monotonic() - start, "event_count": 12345 + seed,
              "pid": os.getpid(), "ppid": os.getppid()}
    (out / "result.json").write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
