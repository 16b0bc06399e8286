#!/usr/bin/env python3
"""A stand-in for `ndnlab emu` in the campaign tests (the campaign runs it through $NDNLAB_EMU).

    fake_emu.py <scenario> [--Name=value ...] --seed=S --out=DIR

Writes what fake_sim.py writes for the same arguments, with goodput_mbps EMU_FACTOR times the
simulator's (so that the report's difference is known: -5.0 %), `backend: "emu"`, and the wall
clock times it started and ended (`emu_started`, `emu_ended`: the tests check that emu runs
never overlap). Without result.json from fake_sim (Mode=fail, ...) it exits as fake_sim did.
"""

import json
import pathlib
import subprocess
import sys
import time

FAKE_SIM = pathlib.Path(__file__).with_name("fake_sim.py")
EMU_FACTOR = 0.95


def main():
    started = time.time()
    argv = sys.argv[1:]
    out = next((pathlib.Path(a.partition("=")[2]) for a in argv if a.startswith("--out=")), None)
    rc = subprocess.run([sys.executable, str(FAKE_SIM), *argv]).returncode
    if rc != 0 or out is None or not (out / "result.json").exists():
        return rc
    result = json.loads((out / "result.json").read_text())
    result["metrics"]["goodput_mbps"] *= EMU_FACTOR
    result.update(backend="emu", emu_started=started, emu_ended=time.time())
    (out / "result.json").write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
