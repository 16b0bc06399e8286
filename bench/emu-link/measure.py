#!/usr/bin/env python3
"""Measure ndnlab-emu-link: ping RTT, iperf3 TCP and UDP throughput, CPU use, real-time lag.

For every (rate, delay, loss) cell it starts the link between two network namespaces of an
ndnlab.emu.net Network (add_emulated_link: the taps get the next /24, as in ndnlab emu), and
runs
  1. ping (after one ARP warm-up ping) and iperf3 TCP (-C cubic) in one run of the link,
  2. iperf3 UDP at 95 % of the link rate in a second run of the link,
so that each run's stats JSON (drops, real-time lag) belongs to one traffic test.
CPU use of the ns-3 process is utime+stime from /proc/PID/stat over the iperf3 interval, in %
of one core (reader threads included, so it can exceed 100). Machine busy % comes from
/proc/stat over the same interval (100 % = both cores).

The Network removes namespaces and processes on success, failure, SIGINT and SIGTERM.
Needs root. Usage: measure.py [--quick] [--seconds 4] [--json results.json]
(with the checkout's package: PYTHONPATH=python, or the package installed by make build)
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from ndnlab.emu.net import Network, process_cpu_seconds
from ndnlab.emu.run import CpuMeter

HERE = Path(__file__).resolve().parent
BINARY = Path(os.environ.get("NDNLAB_BUILD", HERE.parents[1] / "build")) / "ns3" / "emu" / "ndnlab-emu-link"
UDP_PAYLOAD_BYTES = 1400
UDP_LOAD = 0.95  # offered UDP payload rate as a fraction of the link rate


class Lab:
    """Two nodes of an ndnlab.emu.net Network, a and b, and whatever runs in them; leaving the
    block (or a signal) removes all of it."""

    def __init__(self):
        self.net = Network()

    def __enter__(self):
        self.net.add_node("a")
        self.net.add_node("b")
        return self

    def __exit__(self, *exc):
        self.net.close()


class LinkRun:
    """One life of ndnlab-emu-link between the lab's nodes (its taps get the next /24)."""

    prefix = ()  # e.g. ("chrt", "-f", "10") from --sched-fifo

    def __init__(self, lab, rate_mbps, delay_ms, loss, queue, seed=1):
        self.lab = lab
        self.stats_path = Path(f"/tmp/emu-link-stats-{os.getpid()}.json")
        self.stats_path.unlink(missing_ok=True)
        self.link = lab.net.add_emulated_link("a", "b", BINARY, rate_mbps * 1e6, delay_ms / 1e3, loss,
                                              queue, seed=seed, stats=self.stats_path,
                                              argv_prefix=self.prefix)
        self.addr_b = self.link.addr_b

    def cpu_seconds(self):
        return process_cpu_seconds(self.link.process.pid)

    def tap_tx_dropped(self):
        """Frames the kernel dropped at the taps before ns-3 read them (hidden queue)."""
        return sum(self.lab.net.device_counters(n, self.link.end(n)[0])["tx_dropped"] for n in ("a", "b"))

    def finish(self):
        dropped = self.tap_tx_dropped()
        rc = self.lab.net.stop(self.link.process)
        if rc != 0:
            raise RuntimeError(f"emu-link exited {rc}")
        stats = json.loads(self.stats_path.read_text())
        self.stats_path.unlink()
        stats["tap_tx_dropped"] = dropped
        return stats


def measured(link, fn):
    """Runs fn() and returns (its result, ns-3 CPU % of one core, machine busy %)."""
    machine, cpu0, t0 = CpuMeter(), link.cpu_seconds(), time.monotonic()
    result = fn()
    cpu1, t1 = link.cpu_seconds(), time.monotonic()
    return result, 100 * (cpu1 - cpu0) / (t1 - t0), machine.sample()


def ping_rtt_ms(lab, addr):
    ping = ["ping", "-n", "-q", "-c", "1", "-W", "2", addr]
    lab.net.run("a", ping, capture_output=True)  # ARP warm-up
    out = lab.net.run("a", ["ping", "-n", "-q", "-c", "5", "-i", "0.2", "-W", "2", addr],
                      capture_output=True, text=True, check=True).stdout
    # rtt min/avg/max/mdev = a/b/c/d ms
    return float(out.rsplit("=", 1)[1].split("/")[1])


def iperf(lab, addr, seconds, extra):
    server = lab.net.popen("b", ["iperf3", "-s", "-1", "-B", addr], watch=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.3)
        out = lab.net.run("a", ["iperf3", "-c", addr, "-t", str(seconds), "-J", *extra],
                          capture_output=True, text=True, timeout=seconds + 30)
        return json.loads(out.stdout)
    finally:
        lab.net.stop(server)


def measure_cell(lab, rate, delay, loss, queue, seconds):
    row = {"rate_mbps": rate, "delay_ms": delay, "loss": loss, "queue": queue,
           "load1_before": float(Path("/proc/loadavg").read_text().split()[0])}

    link = LinkRun(lab, rate, delay, loss, queue)
    row["rtt_ms"] = ping_rtt_ms(lab, link.addr_b)
    tcp, row["tcp_cpu_pct"], row["tcp_busy_pct"] = measured(
        link, lambda: iperf(lab, link.addr_b, seconds, ["-C", "cubic"]))
    end = tcp["end"]
    row["tcp_mbps"] = end["sum_received"]["bits_per_second"] / 1e6
    row["tcp_retrans"] = end["sum_sent"].get("retransmits", 0)
    row["tcp_link"] = link.finish()

    link = LinkRun(lab, rate, delay, loss, queue, seed=2)
    offered = UDP_LOAD * rate
    lab.net.run("a", ["ping", "-n", "-q", "-c", "1", "-W", "2", link.addr_b],
                capture_output=True)  # ARP before the first datagram
    udp, row["udp_cpu_pct"], row["udp_busy_pct"] = measured(
        link, lambda: iperf(lab, link.addr_b, seconds,
                            ["-u", "-b", f"{offered}M", "-l", str(UDP_PAYLOAD_BYTES)]))
    s = udp["end"]["sum"]
    row["udp_offered_mbps"] = offered
    row["udp_sent_mbps"] = s["bits_per_second"] / 1e6
    row["udp_lost_pct"] = s["lost_percent"]
    row["udp_recv_mbps"] = row["udp_sent_mbps"] * (1 - s["lost_percent"] / 100)
    row["udp_link"] = link.finish()
    return row


def emu_drop_pct(link_stats):
    """Frames lost a->b other than by the configured loss: tap overflow (ns-3 read too late),
    DropTail queue, oversize, write errors; in % of the frames the kernel handed to the tap."""
    d = link_stats["a_to_b"]
    made = (link_stats["tap_tx_dropped"] + d["queue_drops"] + d["oversize_drops"]
            + d["write_errors"])
    return 100 * made / max(1, d["frames_in"] + link_stats["tap_tx_dropped"])


def keeps_up(row):
    """UDP delivered within 5 % of what the configured loss alone would leave."""
    return row["udp_recv_mbps"] >= 0.95 * row["udp_sent_mbps"] * (1 - row["loss"])


def markdown(rows):
    head = ("| rate Mb/s | delay ms | loss | RTT ms | TCP Mb/s | TCP retr | ns-3 CPU % (TCP) "
            "| UDP sent Mb/s | UDP recv Mb/s | UDP lost % | ns-3 CPU % (UDP) | machine busy % (UDP) "
            "| max lag ms (UDP) | queue drops (UDP) | loss drops (UDP) | tap drops (UDP) "
            "| emu-made drops % (UDP) | keeps up "
            "| load1 before |")
    lines = [head, "|" + "|".join("---" for _ in range(head.count("|") - 1)) + "|"]
    for r in rows:
        u = r["udp_link"]
        qd = u["a_to_b"]["queue_drops"] + u["b_to_a"]["queue_drops"]
        ld = u["a_to_b"]["loss_drops"] + u["b_to_a"]["loss_drops"]
        lines.append(
            f"| {r['rate_mbps']} | {r['delay_ms']} | {r['loss']:g} | {r['rtt_ms']:.2f} "
            f"| {r['tcp_mbps']:.1f} | {r['tcp_retrans']} | {r['tcp_cpu_pct']:.0f} "
            f"| {r['udp_sent_mbps']:.1f} | {r['udp_recv_mbps']:.1f} | {r['udp_lost_pct']:.2f} "
            f"| {r['udp_cpu_pct']:.0f} | {r['udp_busy_pct']:.0f} "
            f"| {u['realtime']['max_lag_us'] / 1000:.1f} | {qd} | {ld} | {u['tap_tx_dropped']} "
            f"| {emu_drop_pct(u):.2f} "
            f"| {'yes' if keeps_up(r) else 'NO'} | {r.get('load1_before', float('nan')):.1f} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rates", default="10,50,100,200", help="Mbit/s, comma-separated")
    ap.add_argument("--delays", default="1,10,50", help="one-way ms, comma-separated")
    ap.add_argument("--losses", default="0,0.01", help="probabilities, comma-separated")
    ap.add_argument("--queue", default="100p")
    ap.add_argument("--seconds", type=int, default=4, help="length of each iperf3 test")
    ap.add_argument("--quick", action="store_true", help="one cell: 100 Mb/s, 10 ms, no loss")
    ap.add_argument("--json", default=str(HERE / "results.json"))
    ap.add_argument("--sched-fifo", type=int, metavar="PRIO",
                    help="run the link under SCHED_FIFO with this priority (chrt -f)")
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("measure.py: needs root (network namespaces)", file=sys.stderr)
        return 2
    if not BINARY.exists():
        print(f"measure.py: {BINARY} missing; run make build", file=sys.stderr)
        return 2
    if args.sched_fifo:
        LinkRun.prefix = ("chrt", "-f", str(args.sched_fifo))
    rates = [100] if args.quick else [int(x) for x in args.rates.split(",")]
    delays = [10] if args.quick else [float(x) if "." in x else int(x) for x in args.delays.split(",")]
    losses = [0.0] if args.quick else [float(x) for x in args.losses.split(",")]

    rows = []
    started = time.monotonic()
    with Lab() as lab:
        for rate in rates:
            for delay in delays:
                for loss in losses:
                    row = measure_cell(lab, rate, delay, loss, args.queue, args.seconds)
                    rows.append(row)
                    print(f"{rate:>4} Mb/s {delay:>3} ms loss {loss:<5} rtt {row['rtt_ms']:.2f} "
                          f"tcp {row['tcp_mbps']:.1f} udp {row['udp_recv_mbps']:.1f}/"
                          f"{row['udp_sent_mbps']:.1f} cpu {row['udp_cpu_pct']:.0f}% "
                          f"lag {row['udp_link']['realtime']['max_lag_us']/1000:.1f} ms",
                          flush=True)
                    Path(args.json).write_text(json.dumps(rows, indent=1))
    print(f"\n{len(rows)} cells in {time.monotonic() - started:.0f} s\n")
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
