"""Two-deck presets: leading moves of landlord and farmer hands, and responses to a
realistic lead, single thread. Reports hands/s and mean moves per hand for each; gates on
the exact number of moves over each seeded corpus."""

import pytest

import fastdou
from benchmarks.loops import report
from tests.shared.corpus import lead_hands, response_positions
from fastdou import kernels as K
from fastdou.rules import rules_array
from benchmarks.loops import lead_all, respond_all

OUT = K.new_moves(1 << 20)
CASES = [("four_player", 33), ("four_player", 25), ("emperor", 42), ("emperor", 33)]
# Exact number of moves over each seeded corpus (quick, full): a change here is a change of
# the generator's output, not of its speed.
GOLDEN = {("lead", "four_player", 33): (469_867, 11_498_267),
          ("lead", "four_player", 25): (154_402, 3_879_329),
          ("lead", "emperor", 42): (2_032_090, 50_557_138),
          ("lead", "emperor", 33): (549_113, 13_682_466),
          ("respond", "four_player"): (21_855, 869_361),
          ("respond", "emperor"): (44_554, 1_733_998)}


def check_golden(key, quick, total):
    want = GOLDEN[key][0 if quick else 1]
    assert total == want, f"{key}: {total} moves, golden {want}"


@pytest.mark.parametrize("preset,size", CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_lead(benchmark, quick, preset, size):
    rules = rules_array(fastdou.rules(preset))
    hands = lead_hands(2_000 if quick else 50_000, size, rules=preset)
    lead_all(hands[:5], rules, OUT)
    total = benchmark.pedantic(lead_all, (hands, rules, OUT), rounds=3, warmup_rounds=1)
    check_golden(("lead", preset, size), quick, total)
    report(benchmark, len(hands), total)


@pytest.mark.parametrize("preset", ["four_player", "emperor"])
def test_respond(benchmark, quick, preset):
    rules = rules_array(fastdou.rules(preset))
    hands, lasts = response_positions(5_000 if quick else 200_000, rules=preset)
    respond_all(hands[:5], lasts[:5], rules, OUT)
    total = benchmark.pedantic(respond_all, (hands, lasts, rules, OUT), rounds=3,
                               warmup_rounds=1)
    check_golden(("respond", preset), quick, total)
    report(benchmark, len(hands), total, item="positions")
