#!/usr/bin/env python3
"""The mmICWSN study (Mori, ICN 2025; issue 30 item 5) on emulated links. Per link profile, in
network namespaces (ndnlab.emu): the client host n0, the radio n1 and the server host n2; n1 is
an Ethernet bridge (the pair of radios, one L2 segment), its port toward n0 shaped by kernel tbf
to the measured link, the hosts' 1 GbE link n1-n2 to 1 GbE. In one run of that network: iperf3
TCP CUBIC and iperf3 UDP at the paper's offered rate (Debian's iperf3, 1 s intervals, n2 sending
to n0), then `ndnlab perf` between one ndnlabd per host over UDP, TCP or Ethernet faces from n0
to n2 (`--faces`), across the bridge, as the paper's Cefore ran on the hosts only; the same NDN
test in ns-3 over point-to-point models of the two links (`ndnlab sim p2p-chain --Hops=2
--App=perf`, where n1 forwards NDN).

The radio is a separate device, not the sender's own interface: a sender's own egress queue
pushes back on its sockets (a full tbf queue blocks the UDP sender), so offered load above the
radio's rate would never be lost there, while at the bridge it is dropped, as the paper's UDP
packet error shows.

The links (docs/results/mmwave.md says why):
- matched: 1 GbE-limited (the paper's TCP 941 Mbit/s is 1 GbE's TCP goodput at MTU 1500);
- mismatched: about 100 Mbit/s at the same framing (TCP 94.4 Mbit/s).
tbf counts each frame's bytes from the Ethernet header on, not the preamble, inter-frame gap and
FCS (24 bytes) a wire also carries, so an Ethernet line rate R is shaped as R x 1514/1538. No
delay is emulated: the 1 km path takes 3.3 us, below what the kernel's own path adds.

Usage: study.py [--seconds 90] [--seeds 1] [--profiles matched,mismatched] [--faces udp,tcp,ether]
                [--perf-length 1370] [--out DIR] [--no-sim]
Writes DIR/runs/<profile>-<faces>[-l<perf length>]-s<seed>.json (every tool's JSON and the
run's CPU and link counters) and DIR/sim/<profile>-s<seed>.json; report.py reads them. Needs root. Exit status: 0
done, 1 a run failed, 2 bad arguments or no privileges.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

from ndnlab.emu import net as emunet
from ndnlab.emu.run import CpuMeter, EmuError, Emulation, describe, find_program, perf_metrics, plan_links

HERE = pathlib.Path(__file__).resolve().parent
WIRE_FRAME, TBF_FRAME = 1538, 1514  # an MTU-1500 Ethernet frame on the wire, and as tbf counts it
GBE_LINE_BPS = 1000e6  # the hosts' link to their radio
PROFILES = {
    # line rate (bit/s) of the Ethernet-framed link the paper's TCP figure implies, and the UDP
    # offered load its packet error implies (1 - received / offered; docs/results/mmwave.md)
    "matched": {"line_bps": 1000e6, "udp_offered_bps": 929e6},
    "mismatched": {"line_bps": 100e6, "udp_offered_bps": 960e6},
}
PERF_LENGTH = 1370  # the largest content whose Data fits one 1,500-byte frame over a UDP face
IPERF_PORT = 5201
SATURATED_BUSY_PERCENT = 90.0


class Segment:
    """Two hosts on one bridged segment, as Emulation.face_uri reads a link: end(node) = (its
    device, its address), peer(node) = the other host."""

    def __init__(self, ends):
        self.ends = ends

    def end(self, node):
        return self.ends[node]

    def peer(self, node):
        return next(n for n in self.ends if n != node)


def tbf_rate(line_bps):
    return line_bps * TBF_FRAME / WIRE_FRAME


def scenario_params(profile, seconds, perf_length=PERF_LENGTH):
    """The p2p-chain parameters of the NDN test on `profile`'s link: n0 -radio- n1 -GbE- n2, no
    delay."""
    rates = f"{int(tbf_rate(PROFILES[profile]['line_bps']))}bps,{int(tbf_rate(GBE_LINE_BPS))}bps"
    return ["--Hops=2", f"--Rate={rates}", "--Delay=0ms", "--App=perf",
            f"--PerfTime={seconds:g}", f"--PerfLength={perf_length}", "--Consumer=cubic",
            "--StartTime=0.5", f"--MaxTime={seconds + 60:g}"]


def iperf3(net, server_node, client_node, server_addr, client_args, seconds):
    """One iperf3 test: a server in `server_node` (one test, -1), a client in `client_node`
    sending to it; (client JSON, server JSON)."""
    iperf = find_iperf3()
    server = net.popen(server_node, [iperf, "-s", "-1", "-J", "-p", str(IPERF_PORT)], watch=False,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)  # listening
    client = net.run(client_node, [iperf, "-c", server_addr, "-p", str(IPERF_PORT), "-J", "-i", "1",
                                   "-t", f"{seconds:g}", *client_args],
                     capture_output=True, text=True, timeout=seconds + 60)
    try:
        server_out, _ = server.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        net.stop(server)
        server_out = ""
    return _json(client.stdout), _json(server_out)


def _json(text):
    try:
        return json.loads(text)
    except ValueError:
        return {"error": f"no JSON: {text.strip()[:300]}"}


def find_iperf3():
    import shutil
    path = shutil.which("iperf3")
    if not path:
        raise EmuError("iperf3 not found on PATH (Debian: apt-get install iperf3; make test installs it)")
    return path


def run_emulated(profile, faces, seed, seconds, out_dir, with_iperf, say, perf_length=PERF_LENGTH):
    """One network: the iperf3 tests (`with_iperf`), then ndnlab perf over `faces`."""
    network = describe(find_program("ndnlab-sim"), "p2p-chain", scenario_params(profile, seconds, perf_length),
                       seed)
    mechanisms, _ = plan_links(network, "tbf")
    run_dir = out_dir / f"{profile}-{faces}-s{seed}"
    run_dir.mkdir(parents=True, exist_ok=True)
    emu = Emulation(network, mechanisms, run_dir.resolve(), seed, say, faces=faces)
    record = {"profile": profile, "faces": faces, "seed": seed, "seconds": seconds, "perf_length": perf_length,
              "radio_tbf_bps": tbf_rate(PROFILES[profile]["line_bps"]), "gbe_tbf_bps": tbf_rate(GBE_LINE_BPS),
              **PROFILES[profile]}
    with emunet.Network() as net:
        emu.build(net)
        net.bridge("n1")  # n0 and n2 on one segment through the radio
        consumer_addr = emu.links[0].end("n0")[1]
        # NDN between the hosts: a face from n0 straight to n2 across the bridge, instead of the
        # route through n1's forwarder (which the description has)
        direct = Segment({"n0": emu.links[0].end("n0"), "n2": emu.links[1].end("n2")})
        emu.ctl("n0", "face", "create", *emu.face_uri(direct, "n0"))
        emu.ctl("n0", "route", "add", "/lab", emu.face_uri(direct, "n0")[0])
        emu.ctl("n0", "route", "remove", "/lab", emu.face_uri(emu.links[0], "n0")[0])
        if with_iperf:  # n2 sends to n0 in every test, as the NDN Data flow
            cpu = CpuMeter()
            say(f"{profile}: iperf3 TCP CUBIC, {seconds:g} s")
            tcp = iperf3(net, "n0", "n2", consumer_addr, ["-C", "cubic"], seconds)
            record["iperf3_tcp"] = {"client": tcp[0], "server": tcp[1], "cpu": _cpu(cpu)}
            cpu = CpuMeter()
            offered = PROFILES[profile]["udp_offered_bps"]
            say(f"{profile}: iperf3 UDP at {offered / 1e6:g} Mbit/s, {seconds:g} s")
            udp = iperf3(net, "n0", "n2", consumer_addr, ["-u", "-b", str(int(offered))], seconds)
            record["iperf3_udp"] = {"client": udp[0], "server": udp[1], "cpu": _cpu(cpu)}
        cpu = CpuMeter()
        say(f"{profile}: ndnlab perf over {faces} faces, {seconds:g} s")
        finished, _ = emu.run(cpu)
        app, rc, out, started, ended, _ = finished[0]
        m = perf_metrics(rc, out, started, ended)
        m.pop("_start", None)
        m.pop("_end", None)
        record["ndnlab_perf"] = {"metrics": m, "report": _json(out.read_text()) if out.exists() else {},
                                 "cpu": cpu.summary()}
        record["nodes"] = emu.node_counters()
        record["links"] = emu.link_reports(record["nodes"])
    return record


def _cpu(meter):
    """The machine's busy share over the test just run (one sample: its whole length)."""
    meter.sample()
    return meter.summary()


def run_simulated(profile, seed, seconds, perf_length=PERF_LENGTH):
    sim = find_program("ndnlab-sim")
    r = subprocess.run([str(sim), "p2p-chain", *scenario_params(profile, seconds, perf_length), "--Traces=none",
                        f"--run={seed}"], capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        raise EmuError(f"ndnlab-sim exited {r.returncode}: {r.stderr.strip()[-300:]}")
    return json.loads(r.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=90.0, help="length of every test (paper: 90)")
    ap.add_argument("--seeds", type=int, default=1, help="repetitions of each cell (default 1)")
    ap.add_argument("--profiles", default="matched,mismatched")
    ap.add_argument("--faces", default="udp,tcp,ether", help="the daemons' faces, one run each (udp, tcp, ether)")
    ap.add_argument("--out", type=pathlib.Path, default=HERE / "results")
    ap.add_argument("--perf-length", type=int, default=PERF_LENGTH,
                    help=f"ndnlab perf's content bytes per Data (default {PERF_LENGTH}, one frame over a UDP "
                         "face; a TCP face has no MTU, up to 8400)")
    ap.add_argument("--no-sim", action="store_true", help="skip the ns-3 runs")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    profiles = args.profiles.split(",")
    faces = args.faces.split(",")
    if set(profiles) - set(PROFILES) or set(faces) - {"udp", "tcp", "ether"} or args.seconds <= 0 or args.seeds < 1:
        ap.error(f"--profiles from {', '.join(PROFILES)}, --faces from udp, tcp, ether, --seconds > 0, --seeds >= 1")
    ok, why = emunet.check_privileges()
    if not ok:
        print(f"study.py: cannot build a network here: {why} (needs root)", file=sys.stderr)
        return 2
    say = (lambda text: None) if args.quiet else (lambda text: print(f"mmwave: {text}", file=sys.stderr))
    try:
        find_iperf3()
    except EmuError as e:
        print(f"study.py: {e}", file=sys.stderr)
        return 2
    (args.out / "runs").mkdir(parents=True, exist_ok=True)
    (args.out / "sim").mkdir(parents=True, exist_ok=True)
    failed = False
    for seed in range(1, args.seeds + 1):
        for profile in profiles:
            for i, kind in enumerate(faces):
                length = "" if args.perf_length == PERF_LENGTH else f"-l{args.perf_length}"
                path = args.out / "runs" / f"{profile}-{kind}{length}-s{seed}.json"
                try:
                    record = run_emulated(profile, kind, seed, args.seconds, args.out / "work",
                                          with_iperf=True, say=say, perf_length=args.perf_length)
                except (EmuError, OSError, RuntimeError, subprocess.SubprocessError) as e:
                    print(f"study.py: {profile} over {kind} faces, seed {seed}: {e}", file=sys.stderr)
                    failed = True
                    continue
                path.write_text(json.dumps(record, indent=1) + "\n")
                m = record["ndnlab_perf"]["metrics"]
                tcp = record["iperf3_tcp"]["client"].get("end", {}).get("sum_received", {})
                say(f"{profile}/{kind}: iperf3 TCP {tcp.get('bits_per_second', 0) / 1e6:.1f} Mbit/s, "
                    f"ndnlab perf {m['goodput_mbps']:.1f} Mbit/s")
            if not args.no_sim:
                say(f"{profile}: ns-3, {args.seconds:g} s")
                try:
                    sim = run_simulated(profile, seed, args.seconds, args.perf_length)
                except EmuError as e:
                    print(f"study.py: ns-3 {profile}: {e}", file=sys.stderr)
                    failed = True
                    continue
                (args.out / "sim" / f"{profile}-s{seed}.json").write_text(json.dumps(sim, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
