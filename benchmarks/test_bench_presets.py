"""Two-deck presets: leading moves of landlord and farmer hands, and responses to a
realistic lead, single thread. Reports hands/s and mean moves per hand for each."""

import pytest

import fastdou
from conftest import report
from corpus import lead_hands, response_positions
from fastdou import kernels as K
from loops import lead_all, respond_all

OUT = K.new_moves(1 << 20)
CASES = [("four_player", 33), ("four_player", 25), ("emperor", 42), ("emperor", 33)]


@pytest.mark.parametrize("preset,size", CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_lead(benchmark, quick, preset, size):
    rules = fastdou.rules(preset).array
    hands = lead_hands(2_000 if quick else 50_000, size, rules=preset)
    lead_all(hands[:5], rules, OUT)
    total = benchmark.pedantic(lead_all, (hands, rules, OUT), rounds=3, warmup_rounds=1)
    report(benchmark, len(hands), total)


@pytest.mark.parametrize("preset", ["four_player", "emperor"])
def test_respond(benchmark, quick, preset):
    rules = fastdou.rules(preset).array
    hands, lasts = response_positions(5_000 if quick else 200_000, rules=preset)
    respond_all(hands[:5], lasts[:5], rules, OUT)
    total = benchmark.pedantic(respond_all, (hands, lasts, rules, OUT), rounds=3,
                               warmup_rounds=1)
    report(benchmark, len(hands), total, item="positions")
