"""generate_batch and counting, as same-run ratios (never stored times):

* ``generate_batch`` (fresh output) and ``generate_batch_into`` (a reused buffer) on one
  thread against the kernel called in an ``@njit`` loop over the same hands
  (``loops.lead_all``, whose buffer stays in cache); the target is 0.8x;
* both on two threads against one (target 1.8x), and against the same work split where
  its offset is known (what the machine's two threads give it: the gate);
* counting (``count_leading`` / ``count_responses`` in the same loop) against generating:
  leads of every preset (target 3x, gated at 2.7x) and responses of classic, four_player
  and emperor (target 3x, gated at 2.5x: see the test).

Gates sit below the targets by a noise margin (the machine is shared); the figures print.
"""

import numba
import numpy as np
import pytest
from numba import njit

import fastdou
from tests.shared.corpus import lead_hands, response_positions
from fastdou import kernels as K
from fastdou.kernels.batch import generate_batch_into
from fastdou.rules import rules_array
from benchmarks.loops import (best_times, count_lead_all, in_turn, lead_all, on_threads, respond_all,
                   stream_halves)

OUT = K.new_moves(1 << 20)
NOISE = 0.9          # gates at 90% of each target
COUNT_GATE = 3 * NOISE      # counting leads against generating them
RESPONSE_COUNT_GATE = 2.5   # counting responses against generating them
REPEAT = 9                  # best of
THREADS_REPEAT = 30         # best of, on two threads: both cores must be free at once


@njit(cache=True)
def count_respond_all(hands, lasts, rules):
    total = 0
    for i in range(hands.shape[0]):
        total += K.count_responses(hands[i], lasts[i], rules)
    return total


@pytest.fixture(scope="module")
def classic_leads(quick):
    return lead_hands(20_000 if quick else 200_000, 20)


def batch_rates(hands, rules):
    """Seconds per call on one thread, timed in turn: the loop, the batch, the batch into a
    reused buffer."""
    lasts = np.zeros((len(hands), 2), np.uint64)
    offsets = np.empty(len(hands) + 1, np.int64)
    total = lead_all(hands, rules, OUT)
    buf = K.new_moves(total)
    t = in_turn({"loop": lambda: lead_all(hands, rules, OUT),
                 "batch": on_threads(1, K.generate_batch, hands, lasts, rules),
                 "into": on_threads(1, generate_batch_into, hands, lasts, rules, buf, offsets, 1)},
                repeat=REPEAT)
    assert len(t["batch"][1][0]) == t["into"][1] == total
    return t["loop"][0], t["batch"][0], t["into"][0]


def test_batch_against_the_loop(classic_leads):
    """One thread against the @njit loop: into a reused buffer (target 0.8x, gate 0.72x;
    measured 0.88-0.98x on 20,000 hands, 0.89-0.95x on 200,000: the moves are streamed,
    ``kernels/records_out``), and a fresh batch, which also counts first and pays for fresh
    (huge) pages: 0.73-0.78x on 20,000 hands, 0.57-0.59x on 200,000 (256 MB a call), gated at
    0.45x (in 4 KB pages it was 0.33x). The three are timed in turn, so that a change of the
    machine's speed falls on all three."""
    rules = rules_array(fastdou.rules("classic"))
    hands = classic_leads
    batch_rates(hands[:10], rules)
    t_loop, t_batch, t_into = batch_rates(hands, rules)
    n = len(hands)
    print(f"\nloop {n / t_loop / 1e6:.2f} M hands/s; generate_batch {n / t_batch / 1e6:.2f} M "
          f"({t_loop / t_batch:.2f}x); into a reused buffer {n / t_into / 1e6:.2f} M "
          f"({t_loop / t_into:.2f}x)")
    assert t_loop / t_into > 0.8 * NOISE
    assert t_loop / t_batch > 0.45


def test_batch_two_threads_against_one(classic_leads):
    """Both batches on 2 threads against 1 (target 1.8x: printed, met or not), timed in turn
    with ``loops.stream_halves``, the same streamed work split where its offset is already
    known: what the machine's two threads give to this work right now (this project's
    shared 2-vCPU hosts have given it anywhere from 1.1x to 2.0x within an hour, so a gate on
    the bare ratio fails at random). The gates compare with that ceiling: into a
    reused buffer the second thread first counts the hands before its part that the first
    has not generated (``kernels/batch.COUNT_COST``), at best (2 - c/(1 + c)) / 2 of the
    ceiling (0.92 at c = 0.18). It has measured 0.72-0.94 as the best of ``THREADS_REPEAT``
    rounds, so no gate there can tell this design from one whose second thread counts every hand
    before its part (1/(1 + c) = 0.85): the gate, 0.65, catches a second thread that does
    no work when the machine's two threads give 1.8x (0.55); a fresh batch counts and fills on both
    threads, but its one-thread time also pays for fresh pages, which vary more: its
    2-thread ratio is gated at 0.7 of the ceiling's (measured 0.86-1.01)."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread only")
    rules = rules_array(fastdou.rules("classic"))
    hands = classic_leads
    n = len(hands)
    lasts = np.zeros((n, 2), np.uint64)
    offsets = np.empty(n + 1, np.int64)
    known = np.empty(n + 1, np.int64)
    total = lead_all(hands, rules, OUT)
    buf = K.new_moves(total)
    calls = {
        "into1": on_threads(1, generate_batch_into, hands, lasts, rules, buf, offsets, 1),
        "into2": on_threads(2, generate_batch_into, hands, lasts, rules, buf, offsets, 2),
        "halves": on_threads(2, stream_halves, hands, lasts, rules, buf, known, n // 2),
        "fresh1": on_threads(1, K.generate_batch, hands, lasts, rules),
        "fresh2": on_threads(2, K.generate_batch, hands, lasts, rules),
    }
    assert calls["into2"]() == total
    known[:] = offsets
    calls["halves"]()
    t = best_times(calls, repeat=THREADS_REPEAT)
    assert (known == offsets).all() and (K.generate_batch(hands, lasts, rules)[1]
                                         == offsets).all()
    into, ceiling, fresh = t["into1"] / t["into2"], t["into1"] / t["halves"], \
        t["fresh1"] / t["fresh2"]
    print(f"\n2 threads / 1: into a reused buffer {into:.2f}x ({n / t['into2'] / 1e6:.2f} M "
          f"hands/s; target 1.8x {'met' if into >= 1.8 else 'not met'}), generate_batch "
          f"{fresh:.2f}x; the same work split at a known offset {ceiling:.2f}x (into a "
          f"reused buffer reaches {t['halves'] / t['into2']:.2f} of it)")
    assert t["halves"] / t["into2"] > 0.65 and fresh > 0.7 * ceiling


CASES = [("classic", 20), ("classic", 17), ("four_player", 33), ("emperor", 42),
         ("five_player", 24), ("jinling", 17)]


@pytest.mark.parametrize("preset,size", CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_counting_leads_against_generating(quick, preset, size):
    """Target 3x; generating and counting timed in turn (``best_times``): this project's
    shared host drifts, and timed one block after the other jinling measured 2.5x in one
    CI run and 3.3x minutes later."""
    rules = rules_array(fastdou.rules(preset))
    n = {"classic": 20_000, "jinling": 20_000}.get(preset, 2_000)
    if preset == "jinling":
        from tests.shared.corpus import deals
        d = deals(n if quick else 10 * n, rules=preset)[:, 0]
        hands = K.pack_rows(d, np.empty(len(d), np.uint64))
    else:
        hands = lead_hands(n if quick else 10 * n, size, rules=preset)
    count_lead_all(hands[:5], rules)
    lead_all(hands[:5], rules, OUT)
    assert count_lead_all(hands, rules) == lead_all(hands, rules, OUT)
    t = best_times({"gen": lambda: lead_all(hands, rules, OUT),
                    "count": lambda: count_lead_all(hands, rules)}, repeat=REPEAT)
    t_gen, t_count = t["gen"], t["count"]
    ratio = t_gen / t_count
    print(f"\n{preset} leads, {size} cards: counting {len(hands) / t_count / 1e6:.2f} M "
          f"hands/s, generating {len(hands) / t_gen / 1e6:.2f} M: {ratio:.2f}x (target 3x "
          f"{'met' if ratio >= 3 else 'not met'})")
    assert ratio > COUNT_GATE


@pytest.mark.parametrize("preset", ["classic", "four_player", "emperor"])
def test_counting_responses_against_generating(quick, preset):
    """Target 3x, gated at 2.5x. A response has 2.4 moves on average, so fixed costs
    decide, and the ratio swings from run to run (classic about 3.1-3.7x, four_player and
    emperor up to 4x in quick runs).
    A counter that built the moves would give about 1x. ``count_responses`` counts the
    usual kinds without a branch on the kind, from what the rules decide worked out once in
    the rules array, and is inlined with nothing in it that raises, so the loop's view
    ``lasts[i]`` costs no reference counts (generation pays them)."""
    rules = rules_array(fastdou.rules(preset))
    hands, lasts = response_positions(50_000 if quick else 500_000, rules=preset)
    count_respond_all(hands[:5], lasts[:5], rules)
    assert count_respond_all(hands, lasts, rules) == respond_all(hands, lasts, rules, OUT)
    t = best_times({"gen": lambda: respond_all(hands, lasts, rules, OUT),
                    "count": lambda: count_respond_all(hands, lasts, rules)}, repeat=REPEAT)
    t_gen, t_count = t["gen"], t["count"]
    ratio = t_gen / t_count
    print(f"\n{preset} responses: counting {len(hands) / t_count / 1e6:.2f} M positions/s, "
          f"generating {len(hands) / t_gen / 1e6:.2f} M: {ratio:.2f}x (target 3x "
          f"{'met' if ratio >= 3 else 'not met'})")
    assert ratio > RESPONSE_COUNT_GATE
