"""A Python agent stepping ``Game`` by action id: whole classic games (bidding included),
a random legal id each step, by ``play_id`` (checked) and by ``push_id`` (unchecked) in
turn in one run, the same games both ways, each chunk of games at its best over the rounds.
Gate: the checked loop runs at least ``GATE`` of the unchecked one's speed (a same-run
ratio: the check costs a scan in the compiled step, not a Python pass over the ids)."""

import random
import statistics
import time

import fastdou

GATE = 0.9
CHUNK = 25        # games timed at a time, the two ways in turn: a burst of load costs one chunk


def agent_games(deals, checked, seed=0):
    """The deals ``deals`` (a range) of seed ``seed``, each id drawn by a ``random.Random``
    of the seed and the range's start; returns (steps, the ids' checksum)."""
    rnd = random.Random(seed * 1_000_003 + deals.start)
    rules = fastdou.rules("classic")
    steps = check = 0
    for deal in deals:
        g = fastdou.Game.new(rules, seed=seed, deal=deal)
        step = g.play_id if checked else g.push_id
        legal = g.legal_action_ids
        while not g.is_terminal():
            ids = legal()
            a = int(ids[rnd.randrange(len(ids))])
            step(a)
            steps += 1
            check = (check * 31 + a) % 1_000_003
    return steps, check


def test_play_id_over_push_id(benchmark, quick):
    games, rounds = (300, 15) if quick else (2000, 7)
    chunks = [range(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    agent_games(range(3), True)                  # compile, warm the caches
    agent_games(range(3), False)
    best = {True: [float("inf")] * len(chunks), False: [float("inf")] * len(chunks)}
    played = {True: [None] * len(chunks), False: [None] * len(chunks)}
    for r in range(rounds):
        for c, deals in enumerate(chunks):
            for checked in ((True, False) if (r + c) % 2 else (False, True)):
                start = time.perf_counter()
                played[checked][c] = agent_games(deals, checked)
                best[checked][c] = min(best[checked][c], time.perf_counter() - start)
    assert played[True] == played[False], "the two loops did not play the same games"
    steps = sum(n for n, _ in played[True])
    t_checked, t_unchecked = sum(best[True]), sum(best[False])
    # play_id's speed over push_id's: the median chunk's, as a stall can outlast a chunk's rounds
    ratio = statistics.median(u / c for u, c in zip(best[False], best[True]))
    benchmark.extra_info.update(steps=steps, play_id_steps_per_s=steps / t_checked,
                                push_id_steps_per_s=steps / t_unchecked, ratio=ratio)
    print(f"\nplay_id {steps / t_checked:,.0f} steps/s, push_id {steps / t_unchecked:,.0f} "
          f"steps/s: play_id/push_id {ratio:.2f} over {steps} steps (gate {GATE})")
    benchmark.pedantic(agent_games, (range(games), True), rounds=1, iterations=1)
    assert ratio >= GATE
