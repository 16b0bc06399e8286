"""serve + get through one ndnlabd on a Unix socket: bit-exact 50 MB with every pipeline."""
import json

import pytest

from conftest import sha256_file, write_random_file

SIZE = 50 * 1024 * 1024


@pytest.fixture(scope="module")
def payload(tmp_path_factory):
    path = tmp_path_factory.mktemp("payload") / "random.bin"
    write_random_file(path, SIZE, seed=2)
    return path


@pytest.mark.parametrize("pipeline", ["fixed", "aimd", "cubic"])
def test_get_is_bit_exact(daemon, payload, tmp_path, pipeline):
    server = daemon.spawn_tool("serve", "/it/file", payload)
    try:
        daemon.wait_for_route("/it/file")
        out = tmp_path / "out.bin"
        extra = ["--pipeline-size", "64"] if pipeline == "fixed" else []
        result = daemon.run_tool("get", "/it/file", "-o", out, "--cc", pipeline, "--json", *extra,
                                 timeout=600)
        assert out.stat().st_size == SIZE
        assert sha256_file(out) == sha256_file(payload)
        summary = json.loads(result.stderr.decode().strip().splitlines()[-1])
        # `serve` fills each Data up to 1420 bytes (docs/decisions/0004): over 1000 content bytes
        assert SIZE // 1420 < summary["segments"] <= SIZE // 1000 + 1
        assert summary["bytes"] == SIZE
        assert summary["goodput_mbps"] > 0
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_get_to_stdout(daemon, tmp_path):
    data = b"hello ndnlab\n" * 1000
    src = tmp_path / "small.txt"
    src.write_bytes(data)
    server = daemon.spawn_tool("serve", "/it/small", src)
    try:
        daemon.wait_for_route("/it/small")
        result = daemon.run_tool("get", "/it/small")
        assert result.stdout == data
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_get_unknown_name_fails_cleanly(daemon):
    result = daemon.run_tool("get", "/it/nobody/home", "--retries", "1", "--lifetime", "300",
                             check=False, timeout=60)
    assert result.returncode != 0
    assert result.stderr  # says why
