"""A Python agent stepping ``Game`` by action id: whole classic games (bidding included),
a random legal id each step, by ``play_id`` (checked) and by ``push_id`` (unchecked) in
turn in one run, the same games both ways. Gate: the checked loop runs at least ``GATE``
of the unchecked one's speed (a same-run ratio: the check costs a scan in the compiled
step, not a Python pass over the ids)."""

import random
import time

import fastdou

GATE = 0.9


def agent_games(games, checked, seed=0):
    """``games`` deals of seed ``seed``, each id drawn by ``random.Random(seed)``; returns
    (steps, the ids' checksum)."""
    rnd = random.Random(seed)
    rules = fastdou.rules("classic")
    steps = check = 0
    for deal in range(games):
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
    games, rounds = (300, 11) if quick else (2000, 7)
    agent_games(3, True)                         # compile, warm the caches
    agent_games(3, False)
    best = {True: float("inf"), False: float("inf")}
    played = {}
    for _ in range(rounds):
        for checked in (True, False):
            start = time.perf_counter()
            played[checked] = agent_games(games, checked)
            best[checked] = min(best[checked], time.perf_counter() - start)
    assert played[True] == played[False], "the two loops did not play the same games"
    steps = played[True][0]
    ratio = best[False] / best[True]             # play_id's speed over push_id's
    benchmark.extra_info.update(steps=steps, play_id_steps_per_s=steps / best[True],
                                push_id_steps_per_s=steps / best[False], ratio=ratio)
    print(f"\nplay_id {steps / best[True]:,.0f} steps/s, push_id {steps / best[False]:,.0f} "
          f"steps/s: play_id/push_id {ratio:.2f} over {steps} steps (gate {GATE})")
    benchmark.pedantic(agent_games, (games, True), rounds=1, iterations=1)
    assert ratio >= GATE
