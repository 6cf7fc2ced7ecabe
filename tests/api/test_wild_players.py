"""The expert and pimc players under wild cards (``laizi``; kernels/expert.py,
kernels/pimc.py: ``expert_wild_policy``, ``pimc_wild_policy``): chosen by name, legal and
reproducible, blind to what their seat cannot see, the expert's endgame search equal to
``fastdou.solve`` on every split of the unseen cards, the hardest reading of the cards they
play, and the expert's strength against random and greedy."""

import numpy as np
import pytest

import fastdou
from fastdou.game import legal_records_into
from fastdou.kernels import engine as E
from fastdou.kernels import state as S
from fastdou.kernels.expert import expert_policy, expert_wild_policy
from fastdou.kernels.expert_endgame import ENDGAME_CARDS, endgame_values, hands_cards
from fastdou.kernels.pimc import pimc_policy, pimc_wild_policy
from fastdou.kernels.play import RESULT_NAMES
from fastdou.rules import rules_array
from tests.shared.players import (
    compiled, hidden_mismatches, replay, solved_values, wild_expert,
)

LAIZI = fastdou.rules("laizi")
TIANDI = fastdou.rules("laizi", wilds=2)


expert = wild_expert


def pimc(state, actions, n, rng):
    return compiled(pimc_wild_policy)(state, actions, n, rng)


# ------------------------------------------------------------------ by name, legality
@pytest.mark.parametrize("rules", [LAIZI, TIANDI], ids=["laizi", "wilds=2"])
def test_expert_plays_by_name_on_one_thread_and_two(rules):
    """By name or by either function (the classic one is swapped for its wild version):
    the same deals; every index legal (simulate raises PolicyError otherwise); one thread
    and two give the same games."""
    seats = ["expert", "random", "random"]
    by_name = fastdou.simulate(300, rules, seats, seed=3, threads=1, per_deal=True)
    for fn in (expert_policy, expert_wild_policy):
        by_fn = fastdou.simulate(300, rules, [fn, "random", "random"], seed=3, threads=2,
                                 per_deal=True)
        for name in RESULT_NAMES:
            assert (by_name.per_deal[name] == by_fn.per_deal[name]).all(), name
    alone = fastdou.simulate(300, rules, "expert", seed=3, threads=1)
    assert alone.summary.deals == 300 and alone.policies == ("expert",) * 3


def test_policy_replays_simulate():
    """``fastdou.policy("expert", "laizi")`` plays, decision by decision, what simulate's
    compiled loop plays; its name is the player's."""
    got = fastdou.simulate(20, LAIZI, "expert", seed=7, per_deal=True, threads=1).per_deal
    p = fastdou.policy("expert", LAIZI, seed=7)
    assert p.name == "expert" and fastdou.policy("pimc", LAIZI).name == "pimc"
    for k in range(20):
        assert replay(LAIZI, p, 7, k) == [int(got[name][k]) for name in RESULT_NAMES], k


def test_pimc_plays_and_is_reproducible():
    for rules in (LAIZI, TIANDI):
        one = fastdou.simulate(8, rules, "pimc", seed=4, per_deal=True, threads=1)
        two = fastdou.simulate(8, rules, pimc_policy, seed=4, per_deal=True, threads=2)
        for name in RESULT_NAMES:
            assert (one.per_deal[name] == two.per_deal[name]).all(), name
    e = fastdou.evaluate("pimc", "random", 6, rules=LAIZI, seed=1)
    assert e.overall.games == 12


# ------------------------------------------------------------------ hidden information
@pytest.mark.parametrize("player, deals, least", [(expert, 40, 1000), (pimc, 2, 100)],
                         ids=["expert", "pimc"])
def test_hidden_information_does_not_change_the_choice(player, deals, least):
    checked, changed, wrong = hidden_mismatches(player, "laizi", deals)
    assert checked > least and changed > checked // 2
    assert wrong == 0


# ------------------------------------------------------------------ the hardest reading
def _state(hands, wild, **kw):
    pos = fastdou.Position(hands, LAIZI, landlord=0, wild=wild, **kw)
    game = fastdou.Game.from_position(pos)
    return game._state.copy()


def _choice(st):
    buf = np.empty((1 << 14, 2), np.uint64)
    n = legal_records_into(st, rules_array(LAIZI, wild=True), buf, True)
    i, _ = expert(st, buf[:n], n, np.uint64(0))
    return fastdou.Move.from_record(buf[i], int(st[S.G_WILDS]), LAIZI)


def test_it_plays_the_hardest_reading_of_its_cards():
    """8 9 T J and a wild 7 go out as the chain 8-Q (the wild card a queen), not 7-J; 5 5 8 8
    and a wild 7 answer a trio with a pair as three 8s and two 5s, not three 5s and two 8s."""
    lead = _choice(_state(["789TJ", "33", "44"], "7"))
    assert lead.kind.name == "SOLO_CHAIN" and lead.rank == 9, lead.text()    # ranked by its top
    st = _state(["355788", "QQ5", "66"], "7", to_move=0, last="44433", last_player=1)
    answer = _choice(st)
    assert answer.kind.name == "TRIO_PAIR" and answer.rank == 5, answer.text()


# ------------------------------------------------------------------ endgame search
def _endgame_states(count, rules):
    """States of expert self-play under wild cards where the hands hold ENDGAME_CARDS or
    fewer (three seats)."""
    buf = np.empty((1 << 14, 2), np.uint64)
    array = rules_array(rules, wild=True)
    found = []
    for d in range(4000):
        st = E.new_state()
        E.start(st, array, 8, d)
        while st[S.G_PHASE] != S.PH_DONE and len(found) < count:
            n = legal_records_into(st, array, buf, True)
            if st[S.G_PHASE] == S.PH_PLAY and n > 1 and hands_cards(st) <= ENDGAME_CARDS:
                found.append((st.copy(), buf[:n].copy()))
            i, _ = expert(st, buf[:n], n, np.uint64(0))
            E.apply(st, array, buf[i].copy())
        if len(found) >= count:
            break
    return found


@pytest.mark.parametrize("rules, count", [(LAIZI, 16), (TIANDI, 6)], ids=["laizi", "wilds=2"])
def test_endgame_search_is_exact(rules, count):
    states = _endgame_states(count, rules)
    assert len(states) == count
    for st, actions in states:
        hand = np.uint64(st[S.G_HANDS + st[S.G_PLAYER]])
        want = solved_values(st, actions, rules)
        got = np.zeros(len(actions), np.int64)
        searched, _ = endgame_values(st, actions, len(actions), hand, np.uint64(0), got, 0,
                                     False, True)
        assert searched > 0 and (got == want).all()
        got[:] = 0
        endgame_values(st, actions, len(actions), hand, np.uint64(0), got, 0, True, True)
        assert got.max() == want.max() and (got <= want).all()


# ------------------------------------------------------------------ strength
def test_strength_against_random_and_greedy():
    """Short runs (docs/players.md gives the full-size figures): over 300 deals played
    both ways, expert wins at least 93% against random and 60% against greedy."""
    vs_random = fastdou.evaluate("expert", "random", 300, rules=LAIZI, seed=2)
    assert vs_random.overall.wp >= 0.93
    vs_greedy = fastdou.evaluate("expert", "greedy", 300, rules=LAIZI, seed=2)
    assert vs_greedy.overall.wp >= 0.60
