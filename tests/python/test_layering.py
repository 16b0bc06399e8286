"""The layering check must flag each kind of violation (so the ctest 'layering' can fail)."""
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check-layering"


def run_on(tree):
    env = dict(os.environ, NDNLAB_ROOT=str(tree))
    return subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True)


@pytest.fixture
def tree(tmp_path):
    shutil.copytree(ROOT / "core", tmp_path / "core")
    return tmp_path


def test_clean_tree_passes(tree):
    result = run_on(tree)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("folder,line,expected", [
    ("codec", '#include "core/fw/forwarder.hpp"', "may not include core/fw"),
    ("cc", "#include <asio.hpp>", "core may not include <asio.hpp>"),
    ("lp", "#include <openssl/sha.h>", "OpenSSL only"),
    ("table", "auto t = std::chrono::steady_clock::now();", "global clock"),
    ("app", "std::random_device rd;", "random device"),
])
def test_violation_is_reported(tree, folder, line, expected):
    bad = tree / "core" / folder / "bad.cpp"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text(line + "\n")
    result = run_on(tree)
    assert result.returncode == 1
    assert expected in result.stdout
