"""The metrics of scenarios rtsd-star (ns3/ndnlab/scenarios/rtsd-star.cpp), wifi-one-hop with
App=stream (the same but l2_utilization: it has one link) and rtsd-scale (scale_metrics, below)
from an emulated run,
under the simulated run's keys: `stream` (the player of CP1's stream, at CP2), `stream_reverse`
(CP1's player of CP2's stream, Bidirectional only), `producer` (CP1's publisher) and
`l2_utilization`.

- `stream.*` are the numeric fields of `ndnlab stream play --json`, which come from the same
  declaration as the simulated consumer's (stream::visitMetrics), and `state` as the simulated
  consumer names it: ended when the stream's end marker was played, failed when the player gave
  up (no metadata, a stall as long as the run's MaxTime), stopped when the run reached MaxTime
  first.
- `producer.*` are the publisher's counters (`ndnlab stream publish --json`, printed when the
  run stops it), the simulated producer's eight.
- `l2_utilization`: the bytes R sent toward CP2 (Ethernet frames: the emulated link's own count,
  or on a link shaped by tbf alone the kernel's count of R's end, after its queue) over the
  player's run, per L2's rate. The simulator counts the point-to-point frames, 12 bytes per
  frame fewer.
"""
import json

# the player's status -> the simulated consumer's final state (toString(StreamConsumer::State))
STATES = {"ended": "ended", "failed": "failed", "stalled": "failed", "stopped": "stopped"}
TOOL_KEYS = ("status", "error", "stream", "output", "frames_written", "end_frames", "thread")
PRODUCER_KEYS = ("frames", "segments", "parity_segments", "interests", "answered_at_once",
                 "answered_after_wait", "expired", "data_sent")


def _read_json(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def consumer(rc, out):
    """One player's fields from its --json summary in `out` (None: it printed none)."""
    report = _read_json(out)
    if report is None:
        log = out.with_suffix(".log")
        text = log.read_text(errors="replace").strip() if log.exists() else ""
        return {"state": "failed",
                "error": (text.splitlines()[-1:] or ["no summary"])[0] if rc is not None else "MaxTime reached"}
    m = {k: v for k, v in report.items()
         if k not in TOOL_KEYS and isinstance(v, (int, float)) and not isinstance(v, bool)}
    m["state"] = STATES.get(report.get("status"), "failed") if rc is not None else "stopped"
    if report.get("error"):
        m["error"] = report["error"]
    elif rc is None:
        m["error"] = "MaxTime reached"
    return m


def producer(out):
    """The publisher's counters from its --json in `out` ({} when it printed none)."""
    report = _read_json(out) or {}
    return {k: report[k] for k in PRODUCER_KEYS if k in report}


def l2_utilization(network, links, started, ended):
    """R's bytes toward CP2 over the player's run, per L2's rate (Emulation.link_reports'
    a_to_b.bytes_in); None without the count."""
    if len(links) < 2 or ended <= started:
        return None
    sent = links[1].get("a_to_b", {}).get("bytes_in")  # link 1 is r (a) - cp2 (b)
    rate = network["links"][1]["rate_bps"]
    return sent * 8 / (ended - started) / rate if sent is not None and rate > 0 else None


def metrics(network, finished, producer_outs, links):
    """The run's metrics: `finished` as Emulation.run returns it (the players, CP2's first),
    `producer_outs` the publishers' --json files (CP1's first), `links` Emulation.link_reports."""
    m = {}
    for n, (app, rc, out, started, ended, _) in enumerate(finished):
        key = "stream" if n == 0 else "stream_reverse"
        m[key] = consumer(rc, out)
        if n == 0 and len(network["links"]) > 1:  # rtsd-star's L2; wifi-one-hop has one link
            m["l2_utilization"] = l2_utilization(network, links, started, ended)
    if producer_outs:
        m["producer"] = producer(producer_outs[0])
    return m


def face_rates(octets, windows):
    """One face of rtsd-scale's `faces` (faceRates in rtsd-scale.cpp) from {whole second:
    octets sent in it}: the per-second Mbit/s from 0 to the window's end, the means before the
    event ([start, event)) and after it ([after, end)), and their ratio."""
    series = [octets.get(s, 0) * 8 / 1e6 for s in range(windows["end"])]

    def mean(a, b):
        return sum(series[a:b]) / (b - a) if b > a else None

    before, after = mean(windows["start"], windows["event"]), mean(windows["after"], windows["end"])
    ratio = after / before if before and after is not None else None
    return {"mbps": series, "before_mbps": before, "after_mbps": after, "after_over_before": ratio}


def scale_metrics(network, finished, producer_outs, sent_octets):
    """rtsd-scale's metrics: `stream` (the first player: C1, or C), `stream2` (C2's),
    `producer` and `faces` (face_rates of each of the description's rate_faces, from
    `sent_octets`: Emulation.sent_octets)."""
    m = {}
    for n, (app, rc, out, started, ended, _) in enumerate(finished):
        m["stream" if n == 0 else f"stream{n + 1}"] = consumer(rc, out)
    if producer_outs:
        m["producer"] = producer(producer_outs[0])
    windows = network["rate_windows"]
    m["faces"] = {name: face_rates(sent_octets.get(name, {}), windows) for name in network["rate_faces"]}
    return m
