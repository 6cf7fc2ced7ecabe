"""Timing for ``compare.py``: fastdou's generators and the other engines' drivers timed in
turn (``loops.in_turn``, the fastest of ``repeat`` runs), fastdou's games on 1 and 2
threads, and the other engines' games; each a row of rates."""

from __future__ import annotations

from functools import partial

import fastdou
from benchmarks.engines import STANDARD, openspiel_legal
from fastdou import kernels as K
from fastdou.rules import rules_array
from benchmarks.loops import best_times, in_turn, lead_all, on_threads, respond_all, spin

MIN_RUN_SECONDS = 0.05
FASTDOU_RUNS = 4   # fastdou's generators run FASTDOU_RUNS times a round (each run short):
#                    on a shared machine the best of more runs is steadier


def _best(fn, repeat):
    """``loops.in_turn`` of one thunk: (seconds per call, result, calls per run)."""
    return in_turn({0: fn}, max(repeat - 1, 1), min_run=MIN_RUN_SECONDS)[0]


def _row(n, seconds, moves, inner=1):
    return {"positions": n, "seconds": seconds, "positions_per_s": n / seconds,
            "moves": moves, "moves_per_s": moves / seconds, "moves_per_position": moves / n,
            "calls_per_run": inner}


def generator_rows(work, repeat):
    """Rows of generators timed in turn (``loops.in_turn``): ``work`` maps a name to (thunk
    returning the moves found, positions, runs a round)."""
    timed = in_turn({k: w[0] for k, w in work.items()}, repeat,
                    runs={k: w[2] for k, w in work.items()}, min_run=MIN_RUN_SECONDS)
    return {k: _row(work[k][1], t, int(total), inner) for k, (t, total, inner) in timed.items()}


def fastdou_lead(hands, rules=STANDARD):
    """fastdou's leads of ``hands`` (compiled first): (thunk, positions, runs a round)."""
    out = K.new_moves(1 << 16)
    lead_all(hands[:4], rules_array(rules), out)  # compile or load from cache
    return (lambda: lead_all(hands, rules_array(rules), out)), len(hands), FASTDOU_RUNS


def fastdou_respond(hands, lasts, rules=STANDARD):
    """fastdou's responses of ``hands`` to ``lasts`` (compiled first): (thunk, positions,
    runs a round)."""
    out = K.new_moves(1 << 16)
    respond_all(hands[:4], lasts[:4], rules_array(rules), out)
    return (lambda: respond_all(hands, lasts, rules_array(rules), out)), len(hands), FASTDOU_RUNS


def python_work(fn, T, items, pass_entries):
    """``fn(T, *item)`` over ``items`` (warmed on the first four): (thunk, positions, one run
    a round); the moves counted are ``len(result) - pass_entries``."""
    for item in items[:4]:
        fn(T, *item)

    def run():
        total = 0
        for item in items:
            total += len(fn(T, *item)) - pass_entries
        return total

    return run, len(items), 1


def openspiel_work(T, states, leading):
    """OpenSpiel's ``legal_actions`` over prepared states; the pass id (0) is not counted
    when responding."""
    return python_work(openspiel_legal, T, [(s,) for s in states], 0 if leading else 1)


# --------------------------------------------------------------------------- games


def thread_figures(deals_, repeat=3):
    """fastdou's random self-play and :func:`spin` on 1 and 2 threads, timed in turn
    ``repeat`` times (so that the machine's other load falls alike on both): the best
    games/s on 2 threads, and each one's 2-thread over 1-thread ratio. A machine whose other
    load leaves one core shows about 1x for both."""
    for threads in (1, 2):
        on_threads(threads, spin, 10)()
    fastdou.simulate(100, threads=2)
    calls = {("spin", k): on_threads(k, spin, 4_000) for k in (1, 2)}
    calls.update({("games", k): partial(fastdou.simulate, deals_, threads=k) for k in (1, 2)})
    best = best_times(calls, repeat=repeat)
    return {"games": deals_, "seconds": best["games", 2],
            "games_per_s": deals_ / best["games", 2], "threads": 2, "policy": "random",
            "threads_ratio": best["games", 1] / best["games", 2],
            "spin_threads_ratio": best["spin", 1] / best["spin", 2]}


def fastdou_games(n, policy="random", threads=1, repeat=3):
    """fastdou.simulate's games/s (dealing, bidding, play) and actions a game."""
    fastdou.simulate(100, policies=policy, threads=threads)
    t, res, _ = _best(lambda: fastdou.simulate(n, policies=policy, threads=threads), repeat)
    return {"games": n, "seconds": t, "games_per_s": n / t,
            "plays_per_game": res.summary.plays, "threads": threads, "policy": policy}


def time_games(fn, T, n, repeat, seed, what):
    fn(T, 3, seed)
    t, count, _ = _best(lambda: fn(T, n, seed), repeat)
    row = {"games": n, "seconds": t, "games_per_s": n / t}
    row[what] = count / n
    return row
