"""``fastdou.policy``: ``choose`` picks what the compiled simulate loop picks (hands replayed
decision by decision give simulate's per-deal results), built-in policies read only what the
seat to act may know, and bad input gives FastdouErrors."""

import doctest

import numpy as np
import pytest
from numba import njit

import fastdou
from fastdou import cards as C
from fastdou.errors import ArgumentError, FastdouError, GameStateError, PolicyError
from fastdou.kernels import play as P
from fastdou.kernels.policies import greedy_policy
from fastdou.kernels import state as S
from tests.shared.players import hidden_mismatches
from tests.shared.policies import first_listed, last_listed

SEED = 11


def replay(rules, seats, seed, deal):
    """Deal ``deal`` of ``seed`` played by ``seats[seat].choose``: its result row (simulate's
    RESULT_FIELDS) and scores."""
    game = fastdou.Game.new(rules, seed=seed, deal=deal)
    for p in set(seats):
        p.reset(deal)
    while not game.is_terminal():
        game.play(seats[game.current_player].choose(game))
    st = game._state
    return [int(st[f]) for f in P.RESULT_FIELDS], list(game.scores)


def check_replays(rules, names, deals, seed=SEED):
    """simulate(per_deal=True) with ``names`` (one per seat) against the same deals replayed
    with one Policy per name, shared by the seats that play it (one stream, as the loop)."""
    rules = fastdou.rules(rules)
    got = fastdou.simulate(deals, rules, list(names), seed=seed, per_deal=True,
                           threads=1).per_deal
    policies = {n: fastdou.policy(n, rules, seed=seed) for n in set(names)}
    seats = [policies[n] for n in names]
    for k in range(deals):
        row, scores = replay(rules, seats, seed, k)
        assert row == [int(got[name][k]) for name in P.RESULT_NAMES], (names, k)
        assert scores == pytest.approx(list(got["scores"][k]), abs=1e-9), (names, k)


@pytest.mark.parametrize("names", [("random",) * 3, ("greedy",) * 3,
                                   ("greedy", "random", "random")])
def test_choose_replays_simulate_classic(names):
    check_replays("classic", names, 300)


@pytest.mark.parametrize("preset", ["two_player", "two_landlords", "four_player",
                                    "five_player", "emperor", "jinling"])
def test_choose_replays_simulate_presets(preset):
    players = fastdou.rules(preset).players
    check_replays(preset, ["random"] * players, 40)
    check_replays(preset, ["greedy"] + ["random"] * (players - 1), 40)


def test_user_policy_replays_simulate():
    """A user's @njit policy, by function and by import path, as simulate plays it."""
    check_replays("classic", [last_listed] * 3, 60)
    check_replays("classic", ["tests.shared.policies:last_listed"] * 3, 20)


def test_two_functions_replay_simulate():
    """Two different functions in one run (the loops' USER and USER_B seats), expert among
    them, as simulate plays them (only random draws from the stream here, and it is not
    in these runs: each Policy keeps its own stream, the loop shares one)."""
    check_replays("classic", [last_listed, "tests.shared.policies:first_listed", "greedy"],
                  40)
    check_replays("classic", ["greedy", first_listed, last_listed], 40)
    check_replays("classic", ["expert", last_listed, "greedy"], 20)


def test_choose_id_is_the_id_of_choose():
    p, q = fastdou.policy("random", seed=3), fastdou.policy("random", seed=3)
    for deal in range(20):
        game, other = fastdou.Game.new(seed=5, deal=deal), fastdou.Game.new(seed=5, deal=deal)
        p.reset(deal)
        q.reset(deal)
        while not game.is_terminal():
            action, i = p.choose(game), q.choose_id(other)
            assert i in game.legal_action_ids()
            if game.phase == "play":
                assert (game.action_table.action(i).record == action.record).all()
            game.play(action)
            other.play_id(i)
            assert (game._state == other._state).all()


# ------------------------------------------------------------------ hidden information
def _hidden_shuffled(game, rng):
    """``game`` with the cards its seat to act cannot see dealt again among the places that
    hold them, each keeping its count: the other seats' hands, and the kitty while it is
    dealt aside (bidding) or never shown."""
    st = game._state.copy()
    me, players = game.current_player, game.rules.players
    fields = [S.G_HANDS + s for s in range(players) if s != me]
    if game.phase == "bid" or not game.rules.kitty_shown:
        fields.append(S.G_KITTY)
    counts = [C.unpack(int(np.uint64(st[f]))) for f in fields]
    pool = np.repeat(np.arange(len(counts[0])), sum(counts))
    rng.shuffle(pool)
    at = 0
    for f, c in zip(fields, counts):
        k = int(c.sum())
        part = np.bincount(pool[at:at + k], minlength=len(c))
        at += k
        st[f] = np.int64(np.uint64(C.pack(part)))
    return fastdou.Game(game.rules, st, {})


@pytest.mark.parametrize("preset", ["classic", "two_landlords", "four_player", "five_player",
                                    "jinling"])
def test_hidden_cards_do_not_change_the_choice(preset):
    rules = fastdou.rules(preset)
    rng = np.random.default_rng(7)
    walker = fastdou.policy("random", rules, seed=1)
    changed = 0
    for deal in range(40):
        game = fastdou.Game.new(rules, seed=2, deal=deal)
        walker.reset(deal)
        for _ in range(int(rng.integers(0, 60))):
            if game.is_terminal():
                break
            game.play(walker.choose(game))
        if game.is_terminal():
            continue
        for name in ("greedy", "random"):
            p = fastdou.policy(name, rules, seed=deal)
            start = p.rng
            want = p.choose(game)
            for _ in range(5):
                other = _hidden_shuffled(game, rng)
                changed += not (other._state == game._state).all()
                p.rng = start
                assert p.choose(other) == want, (preset, deal, name)
    assert changed > 100          # the shuffles did move cards between hidden places


@pytest.mark.parametrize("preset", ["classic", "five_player"])
def test_greedy_reads_no_hidden_team(preset):
    """greedy's choice stays when the hidden cards and five_player's unrevealed dark
    landlord move (tests/shared/players.py)."""
    checked, changed, wrong = hidden_mismatches(greedy_policy, preset, 60)
    assert checked > 1000 and changed > checked // 2
    assert wrong == 0


def test_user_policy_works_through_the_api():
    @njit
    def lowest_rank_lead(state, actions, n, rng):
        return n - 1, rng

    game = fastdou.Game.new(seed=4, start="play")
    p = fastdou.policy(lowest_rank_lead)
    assert p.choose(game) == game.legal_actions()[-1]
    assert p.choose_id(game) == game.legal_action_ids()[-1]


# ------------------------------------------------------------------ errors
def test_errors():
    with pytest.raises(PolicyError, match="unknown policy 'nonsense'; policies: random, "
                       "greedy, expert, pimc"):
        fastdou.policy("nonsense")
    with pytest.raises(PolicyError, match="njit"):
        fastdou.policy(lambda state, actions, n, rng: (0, rng))
    with pytest.raises(PolicyError):
        fastdou.policy(42)
    with pytest.raises(PolicyError, match="cannot import"):
        fastdou.policy("no_such_module_here:f")
    with pytest.raises(FastdouError):
        fastdou.policy("greedy", rules="no_such_rules")
    with pytest.raises(FastdouError):
        fastdou.policy("greedy", seed=-1)
    p = fastdou.policy("greedy")
    with pytest.raises(ArgumentError, match="Game"):
        p.choose("not a game")
    with pytest.raises(ArgumentError, match="rules"):
        p.choose(fastdou.Game.new("two_player"))
    with pytest.raises(ArgumentError, match="rules"):
        p.choose(fastdou.Game.new(fastdou.rules("classic", profile="douzero")))
    game = fastdou.Game.new(seed=1)
    q = fastdou.policy("random")
    while not game.is_terminal():
        game.play(q.choose(game))
    with pytest.raises(GameStateError, match="over"):
        p.choose(game)
    with pytest.raises(GameStateError):
        p.choose_id(game)

    @njit
    def out_of_range(state, actions, n, rng):
        return n, rng

    with pytest.raises(PolicyError, match="index"):
        fastdou.policy(out_of_range).choose(fastdou.Game.new())
    assert "greedy" in repr(p)


def test_module_doctest():
    assert doctest.testmod(fastdou.players).failed == 0
