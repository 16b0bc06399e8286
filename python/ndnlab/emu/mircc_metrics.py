"""The metrics of scenario mircc-dumbbell (ns3/ndnlab/scenarios/mircc-dumbbell.cpp) from an
emulated run: each consumer's `ndnlab get --trace` (fetch_interest and fetch_data events; `t` is
seconds since the tool started: its first segment Interest follows version discovery, one RTT
later) and `--json` summary, on the scenario's clock (the run's t0 is the scenario's time 0; a consumer's
events are placed from the time it was started).

The emulated consumers are `get --cc mircc`, which retransmits what is lost; the simulated ones
are the paper's consumer, which does not. So here:
- loss_rate is retransmissions / (segments + retransmissions) over the whole flow: an Interest
  whose segment was asked for again got no Data in time, and one still in flight when the
  consumer was stopped is neither answered nor lost (as the simulator counts get's consumers);
- an Interest counts as lost in its 100 ms bin when its segment was asked for again later, or
  never arrived.
Rates are Interests sent per second, as in the simulator. RTTs are those of segments answered
at their first Interest (fetch_data "first": get's RTT samples, as the simulator's window
consumers take them).
"""
import json
import math

from ndnlab.emu.faces import tool_summary

BIN = 0.1  # s, as the scenario


def _bin(t):
    return int(math.floor(max(0.0, t) / BIN + 1e-6))


def read_trace(path, started):
    """(interest send times, {segment: [send times]}, [(data arrival time, segment)],
    [(arrival time, RTT s)] of first-transmission Data), on the scenario's clock, from one
    get's JSON-lines trace."""
    sends, by_segment, data, rtts = [], {}, [], []
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            e = json.loads(line)
        except ValueError:
            continue
        t = started + float(e.get("t", 0.0))
        kind = e.get("kind")
        if kind == "fetch_interest":
            sends.append(t)
            by_segment.setdefault(int(e.get("value", 0)), []).append(t)
        elif kind == "fetch_data":
            data.append((t, int(e.get("value", 0))))
            if e.get("reason") == "first":
                rtts.append((t, float(e.get("value2", 0.0))))
    return sends, by_segment, data, rtts


def summary(log):
    try:
        return tool_summary(log.read_text(errors="replace"))
    except OSError:
        return {}


def rate(times, start, end):
    n = sum(1 for t in times if start - 1e-9 <= t < end - 1e-9)
    return n / (end - start) if end > start else 0.0


def metrics(network, finished):
    """The scenario's metric keys for the emulated run; `finished` are ndnlab.emu.run's
    (app, rc, out, started, ended, consumer) tuples."""
    p = network["parameters"]
    c1_start, c2_start, c2_stop = float(p["C1Start"]), float(p["C2Start"]), float(p["C2Stop"])
    bottleneck_bps = next(lk["rate_bps"] for lk in network["links"] if {lk["a"], lk["b"]} == {"R1", "R2"})
    data_size = int((network.get("mircc") or {}).get("data_size", 1250))
    fair = bottleneck_bps / (8.0 * data_size) / 2.0
    shared_from, shared_to = c2_start + 1.0, c2_stop
    tick_s = float(p.get("Tick", 100)) / 1e3
    end_window = tick_s * math.ceil(1.0 / tick_s - 1e-9)  # the last second, in whole ticks
    flows, bins, shared, data_shared = {}, {}, {}, 0
    rtt_shared, rtt_base = [], math.inf  # the queueing delay's samples and base, as the simulator's
    for app, rc, out, started, ended, _ in finished:
        node = app["node"]
        sends, by_segment, data, rtts = read_trace(out.with_suffix(".trace"), started)
        s = summary(out.with_suffix(".log"))
        sent, segments = int(s.get("interests_sent", len(sends))), int(s.get("segments", 0))
        retx = int(s.get("retransmissions", 0))
        answered = {seg for _, seg in data}
        sent_bins, lost_bins = {}, {}
        for seg, times in by_segment.items():
            for k, t in enumerate(times):
                b = _bin(t)
                sent_bins[b] = sent_bins.get(b, 0) + 1
                if k < len(times) - 1 or seg not in answered:
                    lost_bins[b] = lost_bins.get(b, 0) + 1
        bins[node] = (sent_bins, lost_bins)
        shared[node] = rate(sends, shared_from, shared_to)
        data_shared += sum(1 for t, _ in data if shared_from - 1e-9 <= t < shared_to - 1e-9)
        f = {"interests_sent": sent, "data_received": segments,
             "loss_rate": retx / (segments + retx) if segments + retx else 0.0,
             "rate_pps_shared": shared[node], "rate_pps_end": rate(sends, shared_to - end_window, shared_to),
             "exit_code": rc}
        in_shared = [r for t, r in rtts if shared_from <= t < shared_to]
        f["rtt_ms_shared"] = 1e3 * sum(in_shared) / len(in_shared) if in_shared else None
        f["rtt_ms_min"] = 1e3 * min(r for _, r in rtts) if rtts else None
        rtt_shared.extend(in_shared)
        if rtts:
            rtt_base = min(rtt_base, min(r for _, r in rtts))
        if node == "C1":
            f["rate_pps_alone"] = rate(sends, c1_start + 1.0, c2_start)
        flows[node] = f
    rates = [shared.get("C1", 0.0), shared.get("C2", 0.0)]
    squares = sum(r * r for r in rates)
    convergence = None
    first, end = _bin(c2_start), _bin(c2_stop)
    per_tick = 1  # whole ticks that make whole bins (250 ms: 2 ticks = 5 bins)
    for k in range(1, 11):
        n = k * tick_s / BIN
        if abs(n - round(n)) < 1e-6:
            per_tick = max(1, round(n))
            break

    def tick_rate(node, k):  # Interests/s over the window that ends with bin k
        sent_bins = bins.get(node, ({}, {}))[0]
        n = min(per_tick, k + 1)
        return sum(sent_bins.get(j, 0) for j in range(k + 1 - n, k + 1)) / (n * BIN)

    for b in range(first, end):
        if all(abs(tick_rate(n, k) - fair) <= 0.1 * fair for k in range(b, end) for n in ("C1", "C2")):
            convergence = round(b * BIN - c2_start, 6)
            break
    return {
        "flows": flows,
        "jain_index_shared": sum(rates) ** 2 / (2 * squares) if squares > 0 else 0.0,
        "bottleneck_utilisation": data_shared * 8.0 * data_size / ((shared_to - shared_from) * bottleneck_bps),
        "convergence_s": convergence,
        "fair_share_pps": fair,
        "queueing_delay_ms_shared": (1e3 * max(0.0, sum(rtt_shared) / len(rtt_shared) - rtt_base)
                                     if rtt_shared and math.isfinite(rtt_base) else None),
        "_series": bins,
    }


def write_series(path, series):
    """mircc-series.csv as the simulator writes it (time_s, flow, interest_rate_pps, loss_rate)."""
    with open(path, "w") as f:
        f.write("time_s,flow,interest_rate_pps,loss_rate\n")
        for node in sorted(series):
            sent_bins, lost_bins = series[node]
            for b in range(0, max(sent_bins, default=-1) + 1):
                n = sent_bins.get(b, 0)
                loss = f"{lost_bins.get(b, 0) / n:g}" if n else ""
                f.write(f"{b * BIN:g},{node},{n / BIN:g},{loss}\n")
