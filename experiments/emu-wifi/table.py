"""The sim-vs-emu table of experiments/emu-wifi/run from its results directory, or (--time
FILE -- CMD...) one command run with the CPU time its children used written to FILE."""
import argparse
import json
import pathlib
import resource
import statistics
import subprocess
import sys
import time


def timed(path, argv):
    """Runs argv; writes {rc, wall_s, cpu_s} (user + system of all its reaped descendants)."""
    t0 = time.monotonic()
    rc = subprocess.call(argv)
    wall = time.monotonic() - t0
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    pathlib.Path(path).write_text(json.dumps({"rc": rc, "wall_s": wall, "cpu_s": r.ru_utime + r.ru_stime}))
    return rc


def spread(values, fmt):
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def table(out):
    rows = ["| Addressing | BundleInterval | sim goodput (Mbit/s) | emu goodput (Mbit/s) | emu - sim "
            "| sim retx | emu retx | emu runs' own CPU (% of 2 cores) | machine busy (%) "
            "| radio mean lag (us) | kept up, bit-exact |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for addr in ("broadcast", "unicast"):
        for bi in (0, 15):
            c = {k: [] for k in ("sim", "emu", "rs", "re", "own", "busy", "lag")}
            ok = True
            for s in (1, 2, 3):
                tag = f"{addr}-bi{bi}-s{s}"
                a = json.loads((out / f"sim-{tag}" / "result.json").read_text())["metrics"]
                b = json.loads((out / f"emu-{tag}" / "result.json").read_text())
                u = json.loads((out / f"rusage-{tag}.json").read_text())
                c["sim"].append(a["goodput_mbps"])
                c["emu"].append(b["metrics"]["goodput_mbps"])
                c["rs"].append(a["retransmissions"])
                c["re"].append(b["metrics"]["retransmissions"])
                c["own"].append(100 * u["cpu_s"] / u["wall_s"] / b["cpu"]["cores"])
                c["busy"].append(b["cpu"]["mean_busy_percent"])
                c["lag"].append(b["links"][0]["realtime"]["mean_lag_us"])
                ok = ok and b["kept_up"] and not b["saturated"] and b["metrics"]["bit_exact"]
            diff = statistics.median(c["emu"]) / statistics.median(c["sim"]) - 1
            rows.append(f"| {addr} | {bi} | {spread(c['sim'], '{:.3f}')} | {spread(c['emu'], '{:.3f}')} "
                        f"| {100 * diff:+.1f} % | {spread(c['rs'], '{:.0f}')} | {spread(c['re'], '{:.0f}')} "
                        f"| {spread(c['own'], '{:.0f}')} | {spread(c['busy'], '{:.0f}')} "
                        f"| {spread(c['lag'], '{:.0f}')} | {'yes' if ok else 'no'} |")
    return "\n".join(rows)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--time"]:
        return timed(argv[1], argv[3:] if argv[2:3] == ["--"] else argv[2:])
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=pathlib.Path)
    print(table(parser.parse_args(argv).out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
