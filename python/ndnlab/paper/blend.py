"""BLEnD (Rahman, Liang, Zhang): Interest bundling over one-hop Wi-Fi, ndnSIM 2.7, 1460-byte
Data payloads, 100 MB file.

Conditions: standard ("802.11b" at 11 Mbps, "802.11n" at 24 Mbps), consumer ("aimd",
"cubic", "one-interest": the paper's one-Interest upper bound), bi (bundle interval; 0 = no
bundling, the paper's own convention in Fig. 8), rto_k (the RTT-variance multiplier gamma).
Metrics: goodput_mbps, and for Fig. 8/9 sender_tx (sender link-layer transmissions), rtx,
app_sent, p_sent, c_rcv (Fig. 9's columns).

Fig. 7 and Fig. 8 are bar charts whose bars are not printed as numbers; the text gives the
gains, kept here as Comparisons. The absolute Fig. 7 values below are derived as Fig. 1's
default x (1 + gain), which matches Fig. 9's printed 13.32 Mbps for AIMD on 802.11n.
"""

from ndnlab.paper import Comparison, Experiment, Reference
from ndnlab.repro import Claim

CITATION = ("M. A. Rahman, T. Liang, B. Zhang, \"BLEnD: Improving NDN Performance Over "
            "Wireless Links Using Interest Bundling\" (shared/papers/blend-interest-bundling.txt)")

B, N = "802.11b", "802.11n"
DEFAULT_CC = ("aimd", "cubic")
DEFAULTS = {"bi": 0}

FIG1_BOUND_REFERENCES = (
    Reference("goodput_mbps", 7.0, {"standard": B, "consumer": "one-interest"}, "Mbps",
              "Fig. 1", "one Interest, then the producer pushes the whole file"),
    Reference("goodput_mbps", 18.6, {"standard": N, "consumer": "one-interest"}, "Mbps",
              "Fig. 1", "one Interest, then the producer pushes the whole file"),
)

FIG1_REFERENCES = (
    Reference("goodput_mbps", 4.4, {"standard": B, "consumer": DEFAULT_CC, "bi": 0}, "Mbps",
              "Fig. 1", "default (no bundle); one number for the AIMD and CUBIC pipelines"),
    Reference("goodput_mbps", 9.7, {"standard": N, "consumer": DEFAULT_CC, "bi": 0}, "Mbps",
              "Fig. 1", "default (no bundle); one number for the AIMD and CUBIC pipelines"),
) + FIG1_BOUND_REFERENCES

FIG1_COMPARISONS = tuple(
    Comparison(f"one Interest vs {cc.upper()} ({std})", "goodput_mbps", gain,
               {"standard": std, "consumer": "one-interest"},
               {"standard": std, "consumer": cc, "bi": 0}, "Fig. 1",
               "the paper's default is one number for AIMD and CUBIC")
    for std, gain in ((B, 59.1), (N, 91.7)) for cc in DEFAULT_CC
)

# Section V-B: BLEnD (BI = 15) over default, per pipeline and standard.
_FIG7_GAINS = {("aimd", B): 32.57, ("aimd", N): 37.03, ("cubic", B): 31.9, ("cubic", N): 35.33}
_FIG1_DEFAULT = {B: 4.4, N: 9.7}

FIG7_COMPARISONS = tuple(
    Comparison(f"BLEnD BI=15 vs default, {cc.upper()} ({std})", "goodput_mbps", gain,
               {"standard": std, "consumer": cc, "bi": 15},
               {"standard": std, "consumer": cc, "bi": 0}, "Fig. 7 (Sec. V-B)")
    for (cc, std), gain in _FIG7_GAINS.items()
)

FIG7_REFERENCES = tuple(
    Reference("goodput_mbps", round(_FIG1_DEFAULT[std] * (1 + gain / 100), 2),
              {"standard": std, "consumer": cc, "bi": 15}, "Mbps", "Fig. 7",
              f"derived: Fig. 1 default {_FIG1_DEFAULT[std]} x (1 + {gain}%)")
    for (cc, std), gain in _FIG7_GAINS.items()
) + tuple(
    Reference("goodput_mbps", value, {"standard": std, "consumer": cc, "bi": 0}, "Mbps",
              "Fig. 7", "taken from Fig. 1 (Fig. 7 bars are not printed as numbers)")
    for std, value in _FIG1_DEFAULT.items() for cc in DEFAULT_CC
)

# Sec. V-B: "BLEnD's goodput with AIMD here is roughly 20% and 41% lower than the one Interest
# result"; the derived Fig. 7 bars over Fig. 1's bound give 83% and 71% (the issue's numbers).
_FIG1_BOUND = {B: 7.0, N: 18.6}

FIG7_BOUND_COMPARISONS = tuple(
    Comparison(f"BLEnD BI=15 vs one-Interest bound, {cc.upper()} ({std})", "goodput_mbps",
               round((_FIG1_DEFAULT[std] * (1 + gain / 100) / _FIG1_BOUND[std] - 1) * 100, 1),
               {"standard": std, "consumer": cc, "bi": 15},
               {"standard": std, "consumer": "one-interest"}, "Fig. 7 / Fig. 1",
               "derived: Fig. 7 bar (Fig. 1 default x (1 + gain)) over Fig. 1's one-Interest bound")
    for (cc, std), gain in _FIG7_GAINS.items()
)

FIG8_COMPARISONS = (
    Comparison("sender Tx, BI=15 vs BI=10, AIMD (802.11b)", "sender_tx", -31.4,
               {"standard": B, "consumer": "aimd", "bi": 15},
               {"standard": B, "consumer": "aimd", "bi": 10}, "Fig. 8b (Sec. V-C)"),
)

# Fig. 9 table: 802.11n, 100 MB, BI = 15, Data_pkts = 71821.
_FIG9_ROWS = {
    ("aimd", 4): (629, 72450, 72450, 71847, 13.32),
    ("aimd", 10): (590, 72411, 72411, 71821, 13.33),
    ("aimd", 20): (580, 72401, 72401, 71821, 13.34),
    ("cubic", 4): (2567, 74388, 74388, 72315, 13.1),
    ("cubic", 10): (1982, 73803, 73803, 71996, 13.2),
    ("cubic", 20): (1616, 73437, 73437, 71827, 13.25),
}
_FIG9_METRICS = (("rtx", ""), ("app_sent", "Interests"), ("p_sent", "frames"),
                 ("c_rcv", "Data"), ("goodput_mbps", "Mbps"))

FIG9_REFERENCES = tuple(
    Reference(metric, value, {"standard": N, "consumer": cc, "bi": 15, "rto_k": k}, unit,
              "Fig. 9")
    for (cc, k), row in _FIG9_ROWS.items()
    for (metric, unit), value in zip(_FIG9_METRICS, row)
)

FIG9_COMPARISONS = (
    Comparison("CUBIC RTx, gamma=10 vs 4", "rtx", -22.7,
               {"standard": N, "consumer": "cubic", "bi": 15, "rto_k": 10},
               {"standard": N, "consumer": "cubic", "bi": 15, "rto_k": 4}, "Fig. 9 (Sec. VI-A)"),
    Comparison("CUBIC RTx, gamma=20 vs 4", "rtx", -37.0,
               {"standard": N, "consumer": "cubic", "bi": 15, "rto_k": 20},
               {"standard": N, "consumer": "cubic", "bi": 15, "rto_k": 4}, "Fig. 9 (Sec. VI-A)"),
)


def _experiment(name, title, references=(), comparisons=()):
    return Experiment(name, title, CITATION, tuple(references), tuple(comparisons), DEFAULTS)


EXPERIMENTS = [
    _experiment("blend-fig1", "BLEnD Fig. 1: default pipelines vs the one-Interest bound",
                FIG1_REFERENCES, FIG1_COMPARISONS),
    _experiment("blend-fig7", "BLEnD Fig. 7: bundled (BI=15) vs default goodput",
                FIG7_REFERENCES + FIG1_BOUND_REFERENCES, FIG7_COMPARISONS + FIG7_BOUND_COMPARISONS),
    _experiment("blend-fig8", "BLEnD Fig. 8: effect of the bundle interval", (),
                FIG8_COMPARISONS),
    _experiment("blend-fig9", "BLEnD Fig. 9: effect of the RTO multiplier gamma (802.11n)",
                FIG9_REFERENCES, FIG9_COMPARISONS),
    _experiment("blend", "BLEnD: every published number",
                FIG1_REFERENCES + FIG7_REFERENCES + FIG9_REFERENCES,
                FIG1_COMPARISONS + FIG7_COMPARISONS + FIG7_BOUND_COMPARISONS + FIG8_COMPARISONS
                + FIG9_COMPARISONS),
]


# The paper's claims for the reproduction harness (ndnlab.repro), in the campaigns' own
# parameter and metric names (experiments/blend/{fig1,fig7,fig8,fig9}.toml), judged two-sided by
# experiments/blend/claims.py. The paper never says which link-layer addressing ndnSIM used
# (docs/results/blend-fig1.md argues for broadcast, unicast fits 802.11b better), so every
# claim is declared for both readings. The bundled cells (Figs. 7-9) are also declared for two
# readings of the encoder (issue 31): ndnlab's rule (a new bundle for the first Interest no
# bundle covers; early Data held; docs/mechanisms/bundling.md) and the paper's rules as
# written (a new bundle only at seq >= LSS + BI, early Data dropped: "The paper's way").

_STD = {B: "80211b", N: "80211n"}
GOODPUT = ("goodput: file bytes delivered to the consumer application over the transfer time, "
           "Mbit/s (Sec. V-A)")
SENDER_TX_DEF = ("transmissions by the sender (the station): link-layer frames its face hands to "
                 "the Wi-Fi MAC, retries excluded (Fig. 8b)")
RTX_DEF = "RTx: the consumer's retransmitted Interests over the 100 MB transfer (Fig. 9)"
# Tolerances: Fig. 1 values +-15 % (pipelines) and +-10 % (the bound), as docs/results/blend-fig1.md
# states them; gains and the Tx reduction, which the paper prints to 0.01 pp, +-5 pp; BLEnD's
# share of the bound +-5 pp (it is derived, not printed). Fig. 9 (declared before its rerun,
# issue 31): goodput +-10 % as the bound's; RTx, a count of rare events from the paper's one run,
# +-25 %; its RTx reductions, printed to 0.1 pp, +-5 pp.
FIG1_TOL, BOUND_TOL, GAIN_TOL, RTX_TOL = 0.15, 0.10, 0.05, 0.25

# The encoder readings of the bundled cells: (id suffix, label, parameters). A run that does not
# set a parameter has its default (BUNDLE_DEFAULTS).
BUNDLE_DEFAULTS = {"BundlePaperEncoder": False, "BundleHoldEarlyData": True}
READINGS = (("", "ndnlab's rule", dict(BUNDLE_DEFAULTS)),
            ("-written", "the paper's rules as written",
             {"BundlePaperEncoder": True, "BundleHoldEarlyData": False}))


def _cell(std, consumer, addressing, bi=None):
    cell = {"Standard": _STD[std], "Consumer": consumer, "Addressing": addressing}
    if bi is not None:
        cell["BundleInterval"] = bi
    return cell


def _fig1_claims(addr):
    a = addr[0]
    out = []
    for std, value in _FIG1_DEFAULT.items():
        for cc in DEFAULT_CC:
            out.append(Claim(
                id=f"fig1-{_STD[std]}-{cc}-{a}", source="Fig. 1", metric="goodput_mbps",
                definition=GOODPUT, kind="absolute", paper=value, tolerance=FIG1_TOL,
                where=_cell(std, cc, addr), campaign="fig1",
                label=f"{std} {cc.upper()} default goodput, {addr}",
                note="the paper has one default number for AIMD and CUBIC"))
        out.append(Claim(
            id=f"fig1-{_STD[std]}-bound-{a}", source="Fig. 1", metric="goodput_mbps",
            definition=GOODPUT, kind="absolute", paper=_FIG1_BOUND[std], tolerance=BOUND_TOL,
            where=_cell(std, "one-interest", addr), campaign="fig1",
            label=f"{std} one-Interest bound, {addr}"))
        gain = {B: 59.1, N: 91.7}[std]
        for cc in DEFAULT_CC:
            out.append(Claim(
                id=f"fig1-{_STD[std]}-improvement-{cc}-{a}", source="Fig. 1", metric="goodput_mbps",
                definition=GOODPUT, kind="ratio", paper=1 + gain / 100, tolerance=GAIN_TOL,
                relative=False, where=_cell(std, "one-interest", addr),
                baseline=_cell(std, cc, addr), campaign="fig1",
                label=f"{std} one Interest over {cc.upper()}, {addr}: +{gain}%"))
    return out


def _fig7_claims(addr, suffix, reading, params):
    a = addr[0]
    out = []
    for (cc, std), gain in _FIG7_GAINS.items():
        out.append(Claim(
            id=f"fig7-{_STD[std]}-{cc}-gain-{a}{suffix}", source="Fig. 7 (Sec. V-B)", metric="goodput_mbps",
            definition=GOODPUT, kind="ratio", paper=1 + gain / 100, tolerance=GAIN_TOL,
            relative=False, where={**_cell(std, cc, addr, 15), **params}, baseline=_cell(std, cc, addr, 0),
            campaign="fig7", defaults=BUNDLE_DEFAULTS,
            label=f"{std} {cc.upper()} BLEnD BI=15 over default, {addr}, {reading}: +{gain}%"))
    for (cc, std), gain in _FIG7_GAINS.items():
        share = _FIG1_DEFAULT[std] * (1 + gain / 100) / _FIG1_BOUND[std]
        out.append(Claim(
            id=f"fig7-{_STD[std]}-{cc}-bound-{a}{suffix}", source="Fig. 7 / Fig. 1 (Sec. V-B)",
            metric="goodput_mbps", definition=GOODPUT, kind="ratio", paper=round(share, 3),
            level=True, tolerance=GAIN_TOL, relative=False, where={**_cell(std, cc, addr, 15), **params},
            baseline=_cell(std, "one-interest", addr), campaign="fig7", defaults=BUNDLE_DEFAULTS,
            label=f"{std} {cc.upper()} BLEnD BI=15 as a share of the one-Interest bound, {addr}, {reading}",
            note="derived (Fig. 1 default x (1 + gain) over Fig. 1's bound); the text's \"roughly "
                 "20% and 41% lower than the one Interest result\" read literally gives 80% / 59%"))
    return out


def _fig8_claim(addr, suffix, reading, params):
    return Claim(
        id=f"fig8b-80211b-aimd-tx{'' if addr == 'broadcast' else '-u'}{suffix}", source="Fig. 8b (Sec. V-C)",
        metric="nodes.consumer.tx_frames", definition=SENDER_TX_DEF, kind="ratio", paper=1 - 0.314,
        tolerance=GAIN_TOL, relative=False,
        where={"Consumer": "aimd", "BundleInterval": 15, "Addressing": addr, **params},
        baseline={"Consumer": "aimd", "BundleInterval": 10, "Addressing": addr, **params}, campaign="fig8",
        defaults={**BUNDLE_DEFAULTS, "Addressing": "broadcast"},
        label=f"802.11b AIMD sender Tx, BI=15 over BI=10, {addr}, {reading}: 31.4% fewer")


def _fig9_claims(addr, suffix, reading, params):
    a = addr[0]
    out = []
    defaults = {**BUNDLE_DEFAULTS, "Addressing": "broadcast"}
    for (cc, k), (rtx, _, _, _, goodput) in _FIG9_ROWS.items():
        where = {"Consumer": cc, "RtoK": k, "Addressing": addr, **params}
        out.append(Claim(
            id=f"fig9-{cc}-g{k}-rtx-{a}{suffix}", source="Fig. 9 (Sec. VI-A)", metric="retransmissions",
            definition=RTX_DEF, kind="absolute", paper=rtx, tolerance=RTX_TOL, where=where, campaign="fig9",
            defaults=defaults, label=f"802.11n {cc.upper()} BI=15 gamma={k} RTx, {addr}, {reading}"))
        out.append(Claim(
            id=f"fig9-{cc}-g{k}-goodput-{a}{suffix}", source="Fig. 9 (Sec. VI-A)", metric="goodput_mbps",
            definition=GOODPUT, kind="absolute", paper=goodput, tolerance=BOUND_TOL, where=where,
            campaign="fig9", defaults=defaults,
            label=f"802.11n {cc.upper()} BI=15 gamma={k} goodput, {addr}, {reading}"))
    for k, reduction in ((10, 22.7), (20, 37.0)):
        out.append(Claim(
            id=f"fig9-cubic-rtx-g{k}-vs-g4-{a}{suffix}", source="Fig. 9 (Sec. VI-A)", metric="retransmissions",
            definition=RTX_DEF, kind="ratio", paper=1 - reduction / 100, tolerance=GAIN_TOL, relative=False,
            where={"Consumer": "cubic", "RtoK": k, "Addressing": addr, **params},
            baseline={"Consumer": "cubic", "RtoK": 4, "Addressing": addr, **params}, campaign="fig9",
            defaults=defaults, label=f"802.11n CUBIC RTx, gamma={k} over gamma=4, {addr}, {reading}: "
                                     f"{reduction}% fewer"))
    return out


def _blend_claims():
    out = []
    for addr in ("broadcast", "unicast"):
        out += _fig1_claims(addr)
        for suffix, reading, params in READINGS:
            out += _fig7_claims(addr, suffix, reading, params)
    for addr in ("broadcast", "unicast"):
        for suffix, reading, params in READINGS:
            out.append(_fig8_claim(addr, suffix, reading, params))
    for addr in ("broadcast", "unicast"):
        for suffix, reading, params in READINGS:
            out += _fig9_claims(addr, suffix, reading, params)
    return tuple(out)


CLAIMS = _blend_claims()
