"""`ndnlab stream publish` / `ndnlab stream play` (docs/tools.md) through one ndnlabd: ffmpeg
makes a short VP8 clip, publish serves it as if live, play writes what it rendered as IVF, and
ffprobe decodes every frame of it; synthetic streams with the JSON summary; a player started
before its publisher; a malformed input; a prefix nobody publishes; a publisher that dies.
"""
import csv
import json
import shutil
import signal
import struct
import subprocess
import time

import pytest

from conftest import wait_until

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None or shutil.which("ffprobe") is None,
                                reason="ffmpeg is not installed (scripts/install-deps --with-tests installs it)")

EXIT_TIMEOUT = 60


def make_clip(path, seconds=3):
    subprocess.run(["ffmpeg", "-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i",
                    f"testsrc=duration={seconds}:size=320x240:rate=30", "-c:v", "libvpx", "-g", "30",
                    "-f", "ivf", str(path)], check=True, timeout=120)
    return path


def ivf_frames(path):
    """The frames of an IVF file: (timestamp, bytes) in file order."""
    data = path.read_bytes()
    assert data[:4] == b"DKIF"
    header_len = struct.unpack_from("<H", data, 6)[0]
    frames, pos = [], header_len
    while pos < len(data):
        size, ts = struct.unpack_from("<IQ", data, pos)
        frames.append((ts, data[pos + 12:pos + 12 + size]))
        pos += 12 + size
    assert pos == len(data), "no partial frame at the end"
    return frames


def decoded_frames(path):
    """Frames ffprobe decodes, and whatever it reports as an error."""
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames",
                          "-of", "csv=p=0", str(path)], capture_output=True, timeout=60)
    return int(out.stdout.decode().strip() or 0), out.stderr.decode()


def publish(daemon, prefix, *args):
    proc = daemon.spawn_tool("stream", "publish", prefix, "--linger", "2", "-q", *args,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc


def play(daemon, prefix, *args, check=False):
    return daemon.run_tool("stream", "play", prefix, "--json", *args, check=check, timeout=EXIT_TIMEOUT)


def test_clip_plays_decodes_in_order_and_ends_at_the_marker(daemon, tmp_path):
    clip = make_clip(tmp_path / "clip.ivf")
    got = tmp_path / "got.ivf"
    pub = publish(daemon, "/it/video", "--input", f"500k={clip}")
    daemon.wait_for_route("/it/video")
    result = play(daemon, "/it/video", "-o", got)
    assert result.returncode == 0, result.stderr.decode()
    summary = json.loads(result.stdout)
    assert summary["status"] == "ended"
    assert summary["end_frames"] == 90
    assert pub.wait(timeout=EXIT_TIMEOUT) == 0, pub.stderr.read().decode()

    rendered = ivf_frames(got)
    assert summary["frames_written"] == len(rendered) == summary["frames_rendered"] > 0
    count, errors = decoded_frames(got)
    assert count == len(rendered)
    assert errors == ""
    # frame order kept: the rendered frames are the clip's, in its order, from a key frame on
    source = [f for _, f in ivf_frames(clip)]
    first = source.index(rendered[0][1])
    assert first % 30 == 0, "playback starts at a key frame"
    assert [f for _, f in rendered] == source[first:first + len(rendered)]
    assert [ts for ts, _ in rendered] == list(range(len(rendered)))


def test_stdin_published_as_it_comes(daemon, tmp_path):
    got = tmp_path / "got.ivf"
    ffmpeg = subprocess.Popen(["ffmpeg", "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i",
                               "testsrc=duration=4:size=320x240:rate=30", "-c:v", "libvpx", "-g", "30", "-f", "ivf",
                               "-"], stdout=subprocess.PIPE)
    try:
        pub = daemon.spawn_tool("stream", "publish", "/it/live", "--input", "800k=-", "--linger", "2", "-q",
                                stdin=ffmpeg.stdout, stderr=subprocess.PIPE)
        ffmpeg.stdout.close()  # publish holds it now
        daemon.wait_for_route("/it/live")
        result = play(daemon, "/it/live", "-o", got)
        assert pub.wait(timeout=EXIT_TIMEOUT) == 0, pub.stderr.read().decode()
    finally:
        ffmpeg.wait(timeout=EXIT_TIMEOUT)
    assert result.returncode == 0, result.stderr.decode()
    s = json.loads(result.stdout)
    assert s["status"] == "ended"
    assert s["end_frames"] == 120
    assert s["frames_written"] > 0
    assert decoded_frames(got) == (s["frames_written"], "")


def test_synthetic_stream_json_summary(daemon):
    pub = publish(daemon, "/it/synth", "--synthetic", "200k,1000k", "--fps", "30", "--gop", "30",
                  "--duration", "3", "--json")
    daemon.wait_for_route("/it/synth")
    result = play(daemon, "/it/synth", "--thread", "1000k", "--stability", "high", "--lambda0", "4", "--no-adaptive")
    assert result.returncode == 0, result.stderr.decode()
    s = json.loads(result.stdout)
    assert s["status"] == "ended"
    assert s["thread"] == "1000k"
    assert s["end_frames"] == 90
    assert s["lambda_initial"] == 4
    assert 0 < s["frames_rendered"] <= 90
    assert s["frames_written"] == 0 and s["output"] == ""
    for key in ("first_frame_ms", "latency_median_ms", "frames_lost", "stalls", "throughput_mbps", "interests_sent",
                "chasing_ms", "drd_est_ms"):
        assert key in s
    out, err = pub.communicate(timeout=EXIT_TIMEOUT)
    assert pub.returncode == 0, err.decode()
    counters = json.loads(out)
    assert counters["ended"] is True
    assert counters["frames"] == 2 * 90
    assert counters["end_markers"] > 0


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def test_trace_dir_writes_the_simulators_series_files(daemon, tmp_path):
    # the files of rtsd-star's StreamTrace=true (experiments/rtsd/report.py reads both), from the
    # player: one row per frame arrival the stability estimator sees, one per second
    pub = publish(daemon, "/it/traced", "--synthetic", "200k,1000k", "--duration", "4")
    daemon.wait_for_route("/it/traced")
    trace = tmp_path / "trace" / "run"  # created
    result = play(daemon, "/it/traced", "--lambda0", "30", "--adaptive", "--trace-dir", trace)
    assert result.returncode == 0, result.stderr.decode()
    s = json.loads(result.stdout)
    assert pub.wait(timeout=EXIT_TIMEOUT) == 0
    assert sorted(p.name for p in trace.iterdir()) == ["stream-arrivals.csv", "stream-series.csv"]
    with open(trace / "stream-arrivals.csv") as f:
        assert f.readline().strip() == "time_ms,type,frame,d_arr_ms,drd_ms,drd_est_ms,d_gen_ms,lambda,state,stale"
    arrivals = read_csv(trace / "stream-arrivals.csv")
    assert arrivals[0]["state"] == "chasing" and float(arrivals[0]["d_arr_ms"]) == -1
    assert int(arrivals[0]["lambda"]) == s["lambda_initial"] == 30
    times = [float(r["time_ms"]) for r in arrivals]
    assert times == sorted(times)
    assert {r["type"] for r in arrivals} == {"key", "delta"}
    assert arrivals[-1]["state"] in ("fetching", "challenge")
    with open(trace / "stream-series.csv") as f:
        assert f.readline().strip() == "time_s,state,thread,payload_kbps,challenge_kbps,link_kbps"
    series = read_csv(trace / "stream-series.csv")
    # one row per whole second the player ran
    assert [float(r["time_s"]) for r in series] == list(range(1, len(series) + 1))
    assert len(series) >= 3
    kbit = sum(float(r["payload_kbps"]) for r in series)
    # each row's kbit/s is printed to 6 significant digits: allow a byte of rounding per row
    assert 0 < kbit * 1000 / 8 <= s["bytes"] + len(series), \
        "payload of whole seconds: at most what the player received"
    assert all(float(r["link_kbps"]) >= 0 and float(r["challenge_kbps"]) >= 0 for r in series)
    assert {r["thread"] for r in series} <= {"200k", "1000k"}


def test_trace_link_must_name_an_interface(daemon, tmp_path):
    result = play(daemon, "/it/none", "--trace-dir", tmp_path / "t", "--trace-link", "no-such-if0")
    assert result.returncode == 2
    assert not (tmp_path / "t").exists(), "nothing written"
    result = play(daemon, "/it/none", "--trace-link", "lo")
    assert result.returncode == 2, "--trace-link needs --trace-dir"


def test_player_started_before_the_publisher_plays(daemon, tmp_path):
    clip = make_clip(tmp_path / "clip.ivf", seconds=4)
    got = tmp_path / "got.ivf"
    player = daemon.spawn_tool("stream", "play", "/it/late", "-o", got, "--json", "--wait", "20",
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # the player is in WaitInitial, re-expressing its metadata Interest
        with pytest.raises(subprocess.TimeoutExpired):
            player.wait(timeout=2)
        pub = publish(daemon, "/it/late", "--input", f"1000k={clip}", "--payload", "8000", "--fec", "0")
        out, err = player.communicate(timeout=EXIT_TIMEOUT)
    finally:
        if player.poll() is None:
            player.kill()
    assert player.returncode == 0, err.decode()
    s = json.loads(out)
    assert s["status"] == "ended"
    assert s["frames_rendered"] > 0
    assert s["frames_fec"] == 0
    assert decoded_frames(got) == (s["frames_written"], "")
    assert pub.wait(timeout=EXIT_TIMEOUT) == 0


def test_interrupted_player_leaves_a_valid_ivf(daemon, tmp_path):
    clip = make_clip(tmp_path / "clip.ivf", seconds=20)
    got = tmp_path / "got.ivf"
    pub = publish(daemon, "/it/sig", "--input", f"500k={clip}")
    daemon.wait_for_route("/it/sig")
    player = daemon.spawn_tool("stream", "play", "/it/sig", "-o", got, "--json",
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until(lambda: player.poll() is not None or (got.exists() and got.stat().st_size > 10000), 30,
                   "frames written")
        player.send_signal(signal.SIGINT)
        out, err = player.communicate(timeout=EXIT_TIMEOUT)
    finally:
        pub.send_signal(signal.SIGINT)
        pub.wait(timeout=EXIT_TIMEOUT)
    assert player.returncode == 130, err.decode()
    s = json.loads(out)
    assert s["status"] == "interrupted"
    assert s["frames_written"] > 0
    assert decoded_frames(got) == (s["frames_written"], "")
    assert struct.unpack_from("<I", got.read_bytes(), 24)[0] == s["frames_written"], "the header states the count"


def test_malformed_ivf_input_is_refused(daemon, tmp_path):
    garbage = tmp_path / "garbage.ivf"
    garbage.write_bytes(b"not an ivf file at all, just text" * 4)
    clip = make_clip(tmp_path / "clip.ivf", seconds=1)
    truncated = tmp_path / "truncated.ivf"
    truncated.write_bytes(clip.read_bytes()[:-7])
    for bad in (garbage, truncated):
        r = daemon.run_tool("stream", "publish", "/it/bad", "--input", f"500k={bad}", check=False, timeout=30)
        assert r.returncode == 2
        assert str(bad) in r.stderr.decode(), "the reason names the input"
    r = daemon.run_tool("stream", "publish", "/it/bad", "--input", f"500k={tmp_path / 'missing.ivf'}", check=False,
                        timeout=30)
    assert r.returncode == 4
    for args in (["publish", "/it/bad", "--input", "fast=x.ivf"], ["publish", "/it/bad"],
                 ["publish", "/it/bad", "--synthetic", "200k", "--fec", "2"],
                 ["play", "/it/bad", "--stability", "bogus"], ["play", "/it/bad", "--lambda0", "-1"]):
        assert daemon.run_tool("stream", *args, check=False, timeout=30).returncode == 2, args


def test_prefix_without_publisher_fails_with_no_metadata(daemon):
    result = play(daemon, "/it/nobody", "--wait", "2")
    assert result.returncode == 1
    s = json.loads(result.stdout)
    assert s["status"] == "failed"
    assert "metadata" in s["error"]
    assert s["frames_rendered"] == 0


def test_publisher_that_dies_gives_a_stall_report(daemon):
    pub = daemon.spawn_tool("stream", "publish", "/it/dies", "--synthetic", "500k", "-q")
    daemon.wait_for_route("/it/dies")
    player = daemon.spawn_tool("stream", "play", "/it/dies", "--json", "--stall-timeout", "2",
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(3)  # playing by now
        pub.kill()
        pub.wait(timeout=10)
        out, err = player.communicate(timeout=EXIT_TIMEOUT)
    finally:
        if player.poll() is None:
            player.kill()
    assert player.returncode == 1, err.decode()
    s = json.loads(out)
    assert s["status"] == "stalled"
    assert s["frames_rendered"] > 0
