#!/usr/bin/env python3
"""Beyond the mmICWSN study (issue 30 item 6): ICN against iperf3 TCP on an unshaped veth, and
where the time goes. Two network namespaces n0 and n2 joined by one veth pair with no shaping
(as fast as the CPU moves frames; MTU 1500 unless --mtu). In each run, on a fresh pair: iperf3
TCP CUBIC for --seconds (n2 sends to n0, as the NDN Data flow), then `ndnlab perf` for
--seconds between one ndnlabd per namespace over UDP, TCP and Ethernet faces, with each
--lengths content size per Data, the server signing each Data with a SHA-256 digest (every
ndnlab producer's default) and, beside it, with no signature (the cost of the forwarding alone;
test names end in -null). For every process its CPU time over the test, from
/proc/PID/stat, as cores per Gbit/s of goodput (CPU seconds / test seconds / Gbit/s): the
two ndnlabd, the perf client and server, iperf3's client and server.

Usage: veth.py [--seconds 15] [--runs 3] [--mtu 1500] [--faces udp,tcp,ether]
               [--lengths 1370,8000] [--signings digest,null] [--out DIR] [--report FILE]
Writes DIR/veth-r<run>.json per run and the generated table to --report (default
docs/results/mmwave-veth.md); --report-only rewrites the table from the stored runs. Needs
root. Exit status: 0 done, 1 a test failed, 2 bad arguments or no privileges.
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from ndnlab.emu import net as emunet  # noqa: E402
from ndnlab.emu.net import process_cpu_seconds as cpu_seconds  # noqa: E402
from ndnlab.emu.run import CpuMeter, EmuError  # noqa: E402
from study import find_iperf3  # noqa: E402

PORT = 6363
IPERF_PORT = 5201
DEFAULT_REPORT = ROOT / "docs" / "results" / "mmwave-veth.md"


class CpuWatch:
    """The CPU time of named processes over one test: sampled every 50 ms while they run, so
    that a process that exits on its own (a client) keeps its last reading."""

    def __init__(self, pids):
        self.pids = dict(pids)
        self.start = {name: cpu_seconds(pid) or 0.0 for name, pid in self.pids.items()}
        self.last = dict(self.start)
        self.machine = CpuMeter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _poll(self):
        while not self._stop.wait(0.05):
            self._sample()

    def _sample(self):
        for name, pid in self.pids.items():
            value = cpu_seconds(pid)
            if value is not None:
                self.last[name] = value

    def stop(self):
        """{name: CPU seconds used since the watch began}."""
        self._stop.set()
        self._thread.join()
        self._sample()
        self.machine_busy_percent = round(self.machine.sample(), 1)
        return {name: round(self.last[name] - self.start[name], 3) for name in self.pids}


def iperf3_test(net, receiver_addr, seconds):
    """iperf3 TCP CUBIC, n2 -> n0: (client JSON, {process: CPU seconds})."""
    iperf = find_iperf3()
    server = net.popen("n0", [iperf, "-s", "-1", "-p", str(IPERF_PORT)], watch=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    client = net.popen("n2", [iperf, "-c", receiver_addr, "-p", str(IPERF_PORT), "-J", "-C", "cubic",
                              "-t", f"{seconds:g}"], watch=False, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    watch = CpuWatch({"iperf3_client": client.pid, "iperf3_server": server.pid})
    out, err = client.communicate(timeout=seconds + 60)
    cpu = watch.stop()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        net.stop(server)
    report = json.loads(out)
    goodput = report["end"]["sum_received"]["bits_per_second"]
    return {"goodput_bps": goodput, "seconds": report["end"]["sum_received"]["seconds"], "cpu_s": cpu,
            "machine_busy_percent": watch.machine_busy_percent,
            "cpu_utilization_percent": report["end"].get("cpu_utilization_percent")}


def perf_test(net, link, faces, length, signing, seconds, workdir):
    """`ndnlab perf` n0 <- n2 through two ndnlabd over `faces`, the server signing every Data
    with `signing`: goodput and CPU seconds."""
    from conftest import Daemon
    ether = '[face_system.ether]\nenabled = true\nmcast = false\nwhitelist = ["eth*"]\n'
    extra = ether if faces == "ether" else ""
    daemons = {}
    for node in ("n0", "n2"):
        daemons[node] = Daemon(workdir / f"{faces}-{length}-{signing}-{node}", name=node, netns=net.nodes[node],
                               udp_port=PORT if faces == "udp" else 0,
                               tcp_port=PORT if faces == "tcp" and node == "n2" else 0,
                               extra=extra, log_level="warn").start()
    d0, d2 = daemons["n0"], daemons["n2"]
    try:
        if faces == "ether":
            remote = [f"ether://[{net.mac('n2', link.end('n2')[0])}]", f"dev://{link.end('n0')[0]}"]
        else:
            remote = [f"{faces}4://{link.end('n2')[1]}:{PORT}"]
        created = d0.run_tool("ctl", "face", "create", *remote, timeout=10).stdout.decode()
        face = next(t.split("=")[1] for t in created.split() if t.startswith("id="))
        d0.run_tool("ctl", "route", "add", "/perf", face, timeout=10)
        server = d2.spawn_tool("perf", "server", "--quiet", "--signing", signing, "/perf", stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        try:
            d2.wait_for_route("/perf")
            client = d0.spawn_tool("perf", "client", "-J", "-i", "0", "-t", f"{seconds:g}", "-l", str(length),
                                   "/perf", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            watch = CpuWatch({"ndnlabd_n0": d0.proc.pid, "ndnlabd_n2": d2.proc.pid, "perf_client": client.pid,
                              "perf_server": server.pid})
            out, err = client.communicate(timeout=seconds + 60)
            cpu = watch.stop()
        finally:
            server.terminate()
            server.wait(timeout=10)
        if client.returncode != 0:
            raise RuntimeError(f"perf client over {faces} exited {client.returncode}: "
                               f"{err.decode(errors='replace').strip()[-300:]}")
        report = json.loads(out)
        end = report["end"]
        return {"goodput_bps": end["sum_received"]["bits_per_second"], "seconds": end["sum_received"]["seconds"],
                "cpu_s": cpu, "machine_busy_percent": watch.machine_busy_percent,
                "retransmits": end.get("sum_sent", {}).get("retransmits")}
    finally:
        for d in daemons.values():
            d.stop()


def one_run(index, args, say):
    record = {"run": index, "seconds": args.seconds, "mtu": args.mtu, "tests": {}}
    with tempfile.TemporaryDirectory(prefix="mmwave-veth-") as tmp, emunet.Network() as net:
        tmp = pathlib.Path(tmp)
        net.add_node("n0")
        net.add_node("n2")
        link = net.add_link("n0", "n2", mtu=args.mtu)
        say(f"run {index}: iperf3 TCP, {args.seconds:g} s")
        record["tests"]["iperf3-tcp"] = iperf3_test(net, link.end("n0")[1], args.seconds)
        for signing in args.signings:
            for faces in args.faces:
                for length in args.lengths:
                    say(f"run {index}: ndnlab perf over {faces} faces, {length}-byte Data signed {signing}, "
                        f"{args.seconds:g} s")
                    name = f"perf-{faces}-{length}" + ("" if signing == "digest" else f"-{signing}")
                    record["tests"][name] = perf_test(net, link, faces, length, signing, args.seconds, tmp)
    return record


def cores_per_gbps(test):
    """{process: cores per Gbit/s} of one test (CPU seconds / test seconds / Gbit/s)."""
    gbps = test["goodput_bps"] / 1e9
    return {p: s / test["seconds"] / gbps for p, s in test["cpu_s"].items()} if gbps > 0 else {}


def _shown(path):
    """`path` relative to the checkout when inside it (the report names its runs' directory)."""
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def report(runs, command, source):
    """The generated Markdown table from the stored runs in `source` (a directory)."""
    def med(xs):
        return statistics.median(xs) if xs else float("nan")

    names = list(runs[0]["tests"])
    lines = [f"<!-- generated by `{command}` from {source}; do not edit -->", "",
             f"Unshaped veth between two namespaces, MTU {runs[0]['mtu']}, {runs[0]['seconds']:g} s per test, "
             f"{len(runs)} runs (each a fresh pair): median [min-max] over the runs. Ratio: ICN goodput over "
             "iperf3 TCP's in the same run. CPU: cores per Gbit/s of goodput (CPU seconds / test seconds / "
             "Gbit/s), per process. Machine busy: the busy share of all cores over the test (the highest "
             "over the runs), the test's own processes included.",
             "",
             "| test | goodput Gbit/s | vs iperf3 TCP | sender daemon | receiver daemon | server (sender) "
             "| client (receiver) | all | machine busy |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name in names:
        tests = [r["tests"][name] for r in runs if name in r["tests"]]
        g = [t["goodput_bps"] / 1e9 for t in tests]
        ratio = [r["tests"][name]["goodput_bps"] / r["tests"]["iperf3-tcp"]["goodput_bps"] for r in runs
                 if name in r["tests"] and r["tests"]["iperf3-tcp"]["goodput_bps"] > 0]
        cpg = [cores_per_gbps(t) for t in tests]

        def col(proc):
            xs = [c[proc] for c in cpg if proc in c]
            return f"{med(xs):.3f}" if xs else "-"
        total = f"{med([sum(c.values()) for c in cpg]):.3f}"
        busy = [t["machine_busy_percent"] for t in tests if "machine_busy_percent" in t]
        busy = f"{max(busy):.0f} %" if busy else "-"
        if name == "iperf3-tcp":
            row = ["-", "-", "-", col("iperf3_client"), col("iperf3_server"), total, busy]
        else:
            row = [f"{med(ratio):.1%}", col("ndnlabd_n2"), col("ndnlabd_n0"), col("perf_server"), col("perf_client"),
                   total, busy]
        lines.append(f"| {name} | {med(g):.2f} [{min(g):.2f}-{max(g):.2f}] | " + " | ".join(row) + " |")
    lines += ["", "iperf3's client sends (n2) and its server receives (n0); for ICN the server (perf server, "
              "behind the daemon of n2) sends the Data and the client (perf client, behind the daemon of n0) "
              "receives them."]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--mtu", type=int, default=1500)
    ap.add_argument("--faces", default="udp,tcp,ether")
    ap.add_argument("--lengths", default="1370,8000", help="perf content bytes per Data, one test each")
    ap.add_argument("--signings", default="digest,null",
                    help="the server's Data signatures, one test each (digest: SHA-256, the default of every "
                         "ndnlab producer; null: none, the cost of forwarding alone)")
    ap.add_argument("--out", type=pathlib.Path, default=HERE / "results" / "veth")
    ap.add_argument("--report", type=pathlib.Path, default=DEFAULT_REPORT)
    ap.add_argument("--report-only", action="store_true", help="rewrite --report from the stored runs")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    args.faces = args.faces.split(",")
    args.signings = args.signings.split(",")
    try:
        args.lengths = [int(x) for x in args.lengths.split(",")]
    except ValueError:
        ap.error("--lengths: comma-separated integers")
    if set(args.faces) - {"udp", "tcp", "ether"} or set(args.signings) - {"digest", "null"} or \
            args.seconds <= 0 or args.runs < 1 or \
            any(not 16 <= n <= 8400 for n in args.lengths) or not 576 <= args.mtu <= 65535:
        ap.error("--faces from udp, tcp, ether; --signings from digest, null; --seconds > 0; --runs >= 1; "
                 "--lengths 16-8400; --mtu 576-65535")
    command = "sudo experiments/mmwave/veth.py " + " ".join(a for a in (argv or sys.argv[1:]) if a != "--report-only")
    if not args.report_only:
        ok, why = emunet.check_privileges()
        if not ok:
            print(f"veth.py: cannot build a network here: {why} (needs root)", file=sys.stderr)
            return 2
        say = (lambda text: None) if args.quiet else (lambda text: print(f"veth: {text}", file=sys.stderr))
        args.out.mkdir(parents=True, exist_ok=True)
        for old in args.out.glob("veth-r*.json"):
            old.unlink()
        for i in range(1, args.runs + 1):
            try:
                record = one_run(i, args, say)
            except (EmuError, RuntimeError, OSError, ValueError, KeyError, subprocess.SubprocessError) as e:
                print(f"veth.py: run {i}: {e}", file=sys.stderr)
                return 1
            (args.out / f"veth-r{i}.json").write_text(json.dumps(record, indent=1) + "\n")
    runs = [json.loads(p.read_text()) for p in sorted(args.out.glob("veth-r*.json"))]
    if not runs:
        print(f"veth.py: no runs in {args.out}", file=sys.stderr)
        return 1
    text = report(runs, command.strip(), _shown(args.out))
    args.report.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
