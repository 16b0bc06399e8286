"""experiments/emu-wifi/timing.py: the frames a radio was handed, in either backend, and the
specs it reads parse."""
import importlib.util
import json
import pathlib

import pytest

from ndnlab.spec import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def timing():
    spec = importlib.util.spec_from_file_location("emu_wifi_timing", ROOT / "experiments/emu-wifi/timing.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Store:
    def __init__(self, root, links):
        self.root, self.links = root, links

    def run_dir(self, key):
        d = self.root / key
        d.mkdir(exist_ok=True)
        (d / "result.json").write_text(json.dumps({"links": self.links}))
        return d


def test_frames_handed_to_the_mac(timing, tmp_path):
    # ns-3: the node's own count
    assert timing.handed_to_mac({"backend": "ns3", "nodes.relay.tx_frames": 12}, None, "relay") == 12
    # emu, an ad hoc channel: per port
    adhoc = Store(tmp_path, [{"a": "consumer", "b": "producer", "ports": {"relay": {"frames_in": 7}}}])
    assert timing.handed_to_mac({"backend": "emu", "key": "k1"}, adhoc, "relay") == 7
    # emu, a BSS: the direction the node sends in
    bss = Store(tmp_path, [{"a": "consumer", "b": "producer", "a_to_b": {"frames_in": 5},
                            "b_to_a": {"frames_in": 9}}])
    assert timing.handed_to_mac({"backend": "emu", "key": "k2"}, bss, "consumer") == 5
    assert timing.handed_to_mac({"backend": "emu", "key": "k3"}, bss, "producer") == 9


def test_delay_labels(timing):
    assert timing.delay_label("ns3::UniformRandomVariable[Min=0|Max=0.0005]") == "uniform 0-500 us"
    assert timing.delay_label("ns3::ConstantRandomVariable[Constant=0.0001]") == "constant 100 us"


def test_the_specs_parse_and_vary_what_the_table_reads(timing):
    for both, delay, _ in timing.SPECS:
        a = load_spec(ROOT / "experiments/emu-wifi" / both)
        b = load_spec(ROOT / "experiments/emu-wifi" / delay)
        assert a.backend == "both" and b.backend == "ns3" and a.scenario == b.scenario
        assert timing.DELAY in b.varying_params()
        assert a.fixed.items() <= b.fixed.items()
