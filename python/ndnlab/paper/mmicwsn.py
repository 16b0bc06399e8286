"""mmICWSN (Mori, ICN 2025): a 1 km 802.11ay link between a community centre and a school,
measured per second for 90 s with iperf3 (TCP CUBIC, UDP) and Cefore, with the antennas matched
and mismatched (Sect. IV, Fig. 4). The numbers are the text's averages over the 90 intervals.

Cells (experiments/mmwave/report.py rows): profile ("matched", "mismatched"), faces (the NDN
faces of the run: "udp", "tcp"; the iperf3 figures come from the "udp" run). Metrics: tcp_mbps,
tcp_cwnd_mb, udp_mbps, udp_error, icn_mbps, icn_interarrival_us.

Only the TCP and UDP figures are claims: they describe the link. The ICN figures are Cefore's,
which the paper names as the bottleneck; ndnlab perf replaces it (a target beyond the paper,
experiments/mmwave/report.py), so they stand beside ours unjudged.
"""

from ndnlab.repro import Claim

CITATION = ("S. Mori, \"Network-Performance Evaluation for Millimeter-Wave Information-Centric "
            "Wireless-Sensor-Network Ecosystem in Actual City\", ICN 2025 (IARIA) "
            "(shared/papers/icn2025-dcib-and-mmicwsn.txt, second paper)")

# The paper's Sect. IV, Fig. 4: averages over 90 one-second intervals
PAPER = {
    ("matched", "tcp_mbps"): 941, ("mismatched", "tcp_mbps"): 94.4,
    ("matched", "tcp_cwnd_mb"): 1.26, ("mismatched", "tcp_cwnd_mb"): 0.967,
    ("matched", "udp_mbps"): 902, ("mismatched", "udp_mbps"): 93.3,
    ("matched", "udp_error"): 0.0294, ("mismatched", "udp_error"): 0.903,
    ("matched", "icn_mbps"): 16.1, ("mismatched", "icn_mbps"): 15.8,
    ("matched", "icn_interarrival_us"): 525, ("mismatched", "icn_interarrival_us"): 534,
}
DEFINITIONS = {
    "tcp_mbps": ("Fig. 4(a)", "TCP throughput: iperf3's (CUBIC) per-interval rate at the client, the sender, where "
                 "the paper also read the window; the mean of 90 one-second intervals", 0.02),
    "tcp_cwnd_mb": ("Fig. 4(b)", "TCP congestion window: iperf3's sender snd_cwnd, the mean of the intervals, in "
                    "Mbytes (10^6 B)", 0.10),
    "udp_mbps": ("Fig. 4(c)", "UDP throughput: iperf3 receiver rate, the mean of the intervals", 0.03),
    "udp_error": ("Fig. 4(d)", "UDP packet-error probability: iperf3 receiver lost / sent datagrams, the mean of the "
                  "intervals", 0.10),
}


def _claims():
    out = []
    for (profile, metric), value in PAPER.items():
        if metric not in DEFINITIONS:
            continue
        source, definition, tol = DEFINITIONS[metric]
        out.append(Claim(
            id=f"{profile}-{metric}", source=source, metric=metric, definition=definition, kind="absolute",
            paper=value, tolerance=tol, where={"profile": profile, "faces": "udp"},
            label=f"{metric.replace('_', ' ')}, antennas {profile}",
            note={"matched-tcp_cwnd_mb": "the window is what the path's delay and buffers hold; the paper "
                                         "states neither (docs/results/mmwave.md)",
                  "mismatched-tcp_cwnd_mb": "as matched-tcp_cwnd_mb"}.get(f"{profile}-{metric}", "")))
    return out


CLAIMS = _claims()
