"""DCIB (Data Center Interconnect-Bridging): edge-router recovery of pre-selected packets over a
10 Gbps, 3 ms data-centre interconnect, ns-3, 15 long-lived flows, 10% of the packets selected
(section IV of the paper).

Conditions: dcib (true: with DCIB, false: the same TCP without it), tcp ("reno", "cubic",
"bbr"), wan_loss (IV-A only: "cooperative", the WAN drops only the selected packets;
"non-cooperative", it drops 5% of all packets). Metrics: goodput_gbps (the paper's "average
throughput"), fct_mean_ms (IV-D's flow completion time).

The paper prints no result table and no number on its figures: every value below is a factor
from the text, kept as a Comparison, DCIB against the same TCP without it. A gain "Nx" of the
average throughput is +100 (N - 1)%; an FCT reduction "by N%" is -N%. Source labels name the
section whose text has the number and the figure it describes.
"""

from ndnlab.paper import Comparison, Experiment

CITATION = ("M. Bahnasy, A. Munir, J. Niu, Z. Yan, P. Dong, Y. Ganjali, \"ECN Works Better for "
            "Selective Dropping in High Bandwidth-Delay Product Connections\", ICN 2025 (IARIA), "
            "pp. 1-6 (shared/papers/icn2025-dcib-and-mmicwsn.txt, first paper)")


def _gain(tcp, factor, source, note="", **where):
    """DCIB's average throughput `factor` times that of the same TCP without it."""
    return Comparison(f"DCIB vs no DCIB, {tcp}" + "".join(f", {v}" for v in where.values()),
                      "goodput_gbps", round((factor - 1) * 100, 6),
                      {"dcib": True, "tcp": tcp, **where}, {"dcib": False, "tcp": tcp, **where},
                      source, note)


def _fct_reduction(tcp, percent, source, note=""):
    """DCIB's mean flow completion time `percent` lower than without it."""
    return Comparison(f"DCIB vs no DCIB, {tcp}", "fct_mean_ms", -percent,
                      {"dcib": True, "tcp": tcp}, {"dcib": False, "tcp": tcp}, source, note)


def factor(comparison):
    """The paper's factor of a gain Comparison (x6 for +500%)."""
    return 1 + comparison.value_pct / 100


# IV-A, Fig. 10b/c: "increasing the average throughput up to 6x for TCP Reno and up to 4.5x for
# TCP Cubic when packet drop takes place in ECN-disabled packets only. Moreover, when WAN drops
# packets regardless of the ECN marking, DCIB was able to enhance TCP throughput by 4x and 3.24x
# for TCP Reno and TCP Cubic, respectively."
IV_A = (
    _gain("reno", 6.0, "IV-A, Fig. 10", wan_loss="cooperative"),
    _gain("cubic", 4.5, "IV-A, Fig. 10", wan_loss="cooperative"),
    _gain("reno", 4.0, "IV-A, Fig. 10", wan_loss="non-cooperative"),
    _gain("cubic", 3.24, "IV-A, Fig. 10", wan_loss="non-cooperative"),
)

# IV-B, Fig. 11a/b/c: "DCIB can enhance the average throughput up to 1.24x, 3.6x, and 2.4x for
# TCP Reno, Cubic and BBR, respectively. Although DCIB enhances the average and the median
# throughput for BBR by 1.85x and 2.4x, ..." The second sentence makes 1.85x BBR's mean and 2.4x
# its median; the first calls 2.4x the average. We keep the first sentence's 2.4x and name 1.85.
IV_B = (
    _gain("reno", 1.24, "IV-B, Fig. 11a"),
    _gain("cubic", 3.6, "IV-B, Fig. 11b"),
    _gain("bbr", 2.4, "IV-B, Fig. 11c", "1.85 in the same paragraph"),
)

# IV-C, Fig. 12a/b (low-priority buffer, end-to-end RTT 10 to 30 ms): "DCIB enhances the average
# throughput of TCP Cubic and TCP BBR by 5x and 7x, respectively" (caption of Fig. 12: "5x and
# 7x higher throughput compared to TCP Cubic and BBR").
IV_C = (
    _gain("cubic", 5.0, "IV-C, Fig. 12a"),
    _gain("bbr", 7.0, "IV-C, Fig. 12b"),
)

# IV-D's FCT experiment (1000 web-search flows, 80% load) names Cubic only: "DCIB reduces Flow
# Completion Time (FCT) by up to 88%" (caption of Fig. 13: "FCT reduced by 88%"). The
# conclusion (Sec. VI) gives one reduction per TCP: "reduce FCT up to 67%, 85%, and 88% for TCP
# Reno, Cubic, and BBR, respectively"; those are the values here.
IV_D = (
    _fct_reduction("reno", 67, "Sec. VI"),
    _fct_reduction("cubic", 85, "Sec. VI", "Fig. 13: up to 88%"),
    _fct_reduction("bbr", 88, "Sec. VI"),
)


def _experiment(name, title, comparisons):
    return Experiment(name, title, CITATION, (), tuple(comparisons))


EXPERIMENTS = [
    _experiment("dcib-iv-a", "DCIB IV-A: 5% artificial WAN loss (Fig. 10)", IV_A),
    _experiment("dcib-iv-b", "DCIB IV-B: no artificial loss (Fig. 11)", IV_B),
    _experiment("dcib-iv-c", "DCIB IV-C: limited edge buffers, RTT 10-30 ms (Fig. 12)", IV_C),
    _experiment("dcib-iv-d", "DCIB IV-D: flow completion times, web search at 80% load "
                "(Fig. 13, Sec. VI)", IV_D),
    _experiment("dcib", "DCIB: every published factor", IV_A + IV_B + IV_C + IV_D),
]
