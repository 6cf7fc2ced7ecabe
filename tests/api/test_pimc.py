"""The ``pimc`` player (kernels/pimc.py, docs/players.md "pimc"): blind to what its seat
cannot see, deterministic for a seed, ``fastdou.policy`` replays what ``simulate`` plays,
legal in every preset (it delegates to expert where it does not plan), and it finds a
forced win that expert's rules miss."""

import functools

import numpy as np
import pytest

import fastdou
from fastdou import cards as C
from fastdou.kernels import engine as E
from fastdou.kernels import state as S
from fastdou.kernels.expert_endgame import ENDGAME_CARDS, endgame_values, hands_cards
from fastdou.kernels.pimc import pimc_policy
from fastdou.kernels.pimc_worlds import deal_world
from fastdou.kernels.play import POLICY_SIGNATURE, RESULT_NAMES
from fastdou.rules import rules_array
from tests.shared.players import classic_state, expert, hidden_mismatches, peeking, replay

PRESETS = ["classic", "two_player", "two_landlords", "four_player", "five_player", "emperor",
           "jinling"]


@functools.cache
def _entry():
    return pimc_policy.compile(POLICY_SIGNATURE)


def pimc(state, actions, n, rng):
    """pimc_policy through its one compiled version (as the loops call it)."""
    return _entry()(state, actions, n, rng)


def searched_decisions(rules, deals, seed):
    """(state, actions) of the play-phase decisions pimc searches (more than one action,
    more than ENDGAME_CARDS cards in the hands) in ``deals`` deals of pimc self-play."""
    buf = np.empty((1 << 14, 2), np.uint64)
    found = []
    for d in range(deals):
        st = E.new_state()
        E.start(st, rules_array(rules), seed, d)
        rng = np.uint64(d)
        while st[S.G_PHASE] != S.PH_DONE:
            n = E.legal_actions(st, rules_array(rules), buf)
            if st[S.G_PHASE] == S.PH_PLAY and n > 1 and hands_cards(st) > ENDGAME_CARDS:
                found.append((st.copy(), buf[:n].copy()))
            i, rng = pimc(st, buf[:n], n, rng)
            rng = np.uint64(rng)
            assert 0 <= i < n
            E.apply(st, rules_array(rules), buf[i].copy())
    return found


# ------------------------------------------------------------------ hidden information
@pytest.mark.parametrize("preset, deals", [("classic", 12), ("two_player", 8),
                                           ("two_landlords", 8)])
def test_hidden_information_does_not_change_the_choice(preset, deals):
    """The other hands, the cards out of play and a hidden kitty dealt again (each place
    keeping its count): the same choice, at a few hundred decisions of each preset it
    plans for, many of them searched."""
    checked, changed, wrong = hidden_mismatches(pimc, preset, deals)
    assert checked > 300 and changed > checked // 2
    assert wrong == 0


def test_hidden_information_test_catches_a_peek():
    checked, changed, wrong = hidden_mismatches(peeking, "classic", 3)
    assert wrong > 20


def test_sampled_deals_keep_what_the_seat_has_seen():
    """Every sampled deal keeps the seat's hand, each hand's count, the cards each seat
    played, and (a farmer) the shown kitty's cards the landlord cannot have played; the
    deals vary."""
    rules = fastdou.rules("classic")
    decisions = searched_decisions(rules, 3, 1)
    kitty_checked = 0
    for st, _ in decisions[::3]:
        p = int(st[S.G_PLAYER])
        landlord = int(st[S.G_LANDLORD])
        world = st.copy()
        seen = set()
        rng = np.uint64(5)
        for _ in range(20):
            rng = np.uint64(deal_world(st, world, rng))
            assert world[S.G_HANDS + p] == st[S.G_HANDS + p]
            hands = [C.unpack(int(np.uint64(world[S.G_HANDS + s]))) for s in range(3)]
            played = sum(C.unpack(int(np.uint64(st[S.G_PLAYED + s]))) for s in range(3))
            assert (sum(hands) + played == rules.deck).all()
            for s in range(3):
                assert hands[s].sum() == C.unpack(int(np.uint64(st[S.G_HANDS + s]))).sum()
            if p != landlord:
                kitty = C.unpack(int(np.uint64(st[S.G_KITTY]))).astype(np.int64)
                gone = C.unpack(int(np.uint64(st[S.G_PLAYED + landlord]))).astype(np.int64)
                assert (hands[landlord] >= kitty - gone).all()
                kitty_checked += 1
            seen.add(tuple(int(world[S.G_HANDS + s]) for s in range(3)))
        assert len(seen) > 1 or sum(C.unpack(int(np.uint64(st[S.G_HANDS + s]))).sum()
                                    for s in range(3) if s != p) <= 2
    assert kitty_checked > 10


# ------------------------------------------------------------------ determinism
def test_deterministic_for_a_seed_and_the_seed_matters():
    """The same rng gives the same choice; its samples come from the rng it is handed
    (other rngs change some choices) and it differs from expert at some decisions."""
    rules = fastdou.rules("classic")
    decisions = searched_decisions(rules, 4, 2)
    assert len(decisions) > 60
    by_rng = differs_from_expert = 0
    for st, actions in decisions:
        n = len(actions)
        a, r1 = pimc(st, actions, n, np.uint64(3))
        b, r2 = pimc(st.copy(), actions.copy(), n, np.uint64(3))
        assert (a, r1) == (b, r2)
        c, _ = pimc(st, actions, n, np.uint64(99))
        by_rng += c != a
        differs_from_expert += a != expert(st, actions, n, np.uint64(3))[0]
    assert by_rng > 0 and differs_from_expert > 5


def test_simulate_is_reproducible():
    rules = fastdou.rules("classic")
    one = fastdou.simulate(20, rules, pimc_policy, seed=4, per_deal=True, threads=1)
    two = fastdou.simulate(20, rules, pimc_policy, seed=4, per_deal=True, threads=2)
    for name in RESULT_NAMES:
        assert (one.per_deal[name] == two.per_deal[name]).all(), name


# ------------------------------------------------------------------ fastdou.policy
def test_policy_choose_replays_simulate():
    """fastdou.policy(pimc_policy).choose, decision by decision, plays what simulate's
    compiled loop plays (one policy stream per deal, shared by the seats)."""
    rules = fastdou.rules("classic")
    got = fastdou.simulate(12, rules, pimc_policy, seed=7, per_deal=True, threads=1).per_deal
    p = fastdou.policy(pimc_policy, rules, seed=7)
    for k in range(12):
        assert replay(rules, p, 7, k) == [int(got[name][k]) for name in RESULT_NAMES], k


# ------------------------------------------------------------------ legality
@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_legal_actions(preset):
    """pimc in every seat, and against random players: simulate raises PolicyError on an
    index outside the legal actions; presets it does not plan for play expert's games."""
    rules = fastdou.rules(preset)
    deals = 30 if preset in ("classic", "two_player", "two_landlords") else 200
    for seats in (pimc_policy, [pimc_policy] + ["random"] * (rules.players - 1)):
        r = fastdou.simulate(deals, rules, seats, seed=3, threads=1, per_deal=True)
        assert r.summary.deals == deals
    if preset in ("four_player", "five_player", "emperor", "jinling"):
        mine = fastdou.simulate(100, rules, pimc_policy, seed=3, threads=1, per_deal=True)
        theirs = fastdou.simulate(100, rules, "expert", seed=3, threads=1, per_deal=True)
        for name in RESULT_NAMES:
            assert (mine.per_deal[name] == theirs.per_deal[name]).all(), (preset, name)


# ------------------------------------------------------------------ a forced win
def test_finds_the_forced_win_expert_misses():
    """The landlord leads from 377A against 7TK and 582 (10 cards: above expert's
    endgame, so expert leads by its rules): the pair of 7s wins against every split of
    the unseen cards, expert's 3 against none; pimc plays the 7s."""
    st = classic_state(["377A", "7TK", "582"])
    rules = fastdou.rules("classic")
    buf = np.empty((4096, 2), np.uint64)
    n = E.legal_actions(st, rules_array(rules), buf)
    actions = buf[:n].copy()
    values = np.zeros(n, np.int64)
    endgame_values(st, actions, n, np.uint64(st[S.G_HANDS]), np.uint64(0), values, 0, False)
    texts = [C.to_text(C.unpack(int(a[0]))) for a in actions]
    total = 2 * 20                      # the splits of 6 unseen cards 3 and 3, twice
    assert values[texts.index("77")] == total
    assert values[expert(st, actions, n, np.uint64(0))[0]] == 0
    for seed in range(5):
        i, _ = pimc(st, actions, n, np.uint64(seed))
        assert values[i] == total, texts[i]
