"""Simulate's per-deal records are golden values: the same bytes for every preset and both
built-in policies on every supported numba / numpy / Python (CI runs this file at the
dependency floor too, ``.ci/floor``), and through any refactoring of the engine."""

import hashlib

import numpy as np
import pytest

import fastdou

# sha256 (first 16 hex digits) of 400 deals of seed 11: every column, sorted by name, as
# name, dtype and bytes; without wild cards the ``wilds`` column (all 0) is left out.
GOLDEN = {
    ("classic", "random"): "1749ac1d7b14f207",
    ("classic", "greedy"): "8e47dbfddcc39255",
    ("two_player", "random"): "dcac629c19251c83",
    ("two_player", "greedy"): "a7faf3ef7e4a2a67",
    ("two_landlords", "random"): "73c2180cba6129d6",
    ("two_landlords", "greedy"): "3acb8e4371e10d90",
    ("four_player", "random"): "d33a1bc03c1c3977",
    ("four_player", "greedy"): "b32d3524cb846f0e",
    ("five_player", "random"): "e21e5726e7abb951",
    ("five_player", "greedy"): "2e1226db4568d6f7",
    ("emperor", "random"): "21b17018c442fb0a",
    ("emperor", "greedy"): "ea4af75b2b722b38",
    ("jinling", "random"): "1d004244df045086",
    ("jinling", "greedy"): "a56531d6353b73bd",
    ("laizi", "random"): "b705207cee68b62c",
    ("laizi", "greedy"): "3d107d90a0b890e9",
}


def digest(per_deal: dict) -> str:
    h = hashlib.sha256()
    for name in sorted(per_deal):
        a = np.ascontiguousarray(per_deal[name])
        h.update(name.encode())
        h.update(str(a.dtype).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def test_every_preset_is_covered():
    assert {name for name, _ in GOLDEN} == set(fastdou.PRESETS)


@pytest.mark.parametrize("preset,policy", sorted(GOLDEN))
def test_per_deal_records_are_golden(preset, policy):
    res = fastdou.simulate(400, preset, policy, seed=11, threads=1, per_deal=True)
    per_deal = dict(res.per_deal)
    if not res.rules.wilds:
        assert not per_deal.pop("wilds").any()
    assert digest(per_deal) == GOLDEN[preset, policy]

