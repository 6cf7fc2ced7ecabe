"""Games with wild cards (RULES.md §4.8) through the engine: random games stepped from Python
with the engine's kernels, every play-phase action list checked against the brute-force
reference (``tests/reference/laizi_oracle.py``), each action's effect on hands and the
multiplier checked by hand, and the same deals through ``simulate``."""

import random

import numpy as np
import pytest

import fastdou
from fastdou import cards as C
from fastdou.kernels import engine as E
from fastdou.kernels import layout as L
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.kernels.deal import next_below
from fastdou.rules import rules_array
from fastdou.sim import table as T
from tests.reference import laizi_oracle as LO

# Factors that tell soft, hard and wild bombs apart: x3, x2, x4.
ONE = fastdou.rules(wilds=1, soft_bomb_factor=3)
TWO = fastdou.rules(wilds=2, soft_bomb_factor=3)
BY_RANK = fastdou.rules(wilds=1, soft_below_hard=False)
EXACT_UP_TO = 6          # hands this small: the whole action list against the reference


def counts(packed):
    return tuple((int(packed) >> (4 * r)) & 15 for r in range(L.N_RANKS))


def as_move(cards, info):
    """A (cards, info) record as the reference's 5-tuple."""
    info = int(info)
    return (counts(cards), L.KIND_NAMES[info & 255], (info >> 8) & 255, (info >> 16) & 255,
            LO.BOMB_CLASSES[info >> L.INFO_CLASS_SHIFT])


def factor(move, rules):
    """The multiplier a move applies, read from the rules by the move's class."""
    return {"soft": rules.soft_bomb_factor, "hard": rules.bomb_factors[4],
            "wild": rules.wild_bomb_factor, "rocket": rules.joker_bomb_factor,
            "none": 1}[move[4]]


def check_actions(st, rules, recs, wilds, rng):
    """The play-phase list: the pass first exactly when answering, moves distinct, within the
    hand, each a reading of its cards that beats the move to answer (all of them on small
    hands, else a sample); on small hands, exactly the reference's list."""
    hand = counts(np.uint64(st[S.G_HANDS + st[S.G_PLAYER]]))
    leading = st[S.G_LAST_INFO] == 0
    if not leading:
        assert recs[0].tolist() == [0, 0]
        recs = recs[1:]
    moves = [as_move(c, i) for c, i in recs.tolist()]
    assert len(set(moves)) == len(moves), "a move listed twice"
    assert all(all(m[0][r] <= hand[r] for r in range(L.N_RANKS)) for m in moves)
    last = None if leading else as_move(st[S.G_LAST_CARDS], st[S.G_LAST_INFO])
    below = bool(rules.soft_below_hard)
    if sum(hand) <= EXACT_UP_TO and sum(hand[w] for w in wilds) <= 2:
        expected = LO.leading_moves(hand, wilds) if leading else \
            LO.responses(hand, last, wilds, below)
        assert set(moves) == expected, (LO.cards_to_str(hand), wilds, last)
        return
    for m in rng.sample(moves, min(6, len(moves))):
        if sum(m[0][w] for w in wilds) <= 3:          # four wild cards: 13**4 readings
            assert m in LO.readings(m[0], wilds), m
        assert leading or LO.beats(m, last, below), (m, last)


def step(rules, seed, deal, *, check=True):
    """Deal ``deal`` of ``seed`` played to its end by the random policy (simulate's stream),
    checking every action; returns the final state."""
    ra = rules_array(rules, wild=True)
    st = E.new_state()
    E.start(st, ra, seed, deal)
    buf = np.empty((1024, 2), np.uint64)
    rng = np.uint64(P.policy_stream(seed, deal))
    sample = random.Random(deal)
    wilds = None
    mult = None
    while st[S.G_PHASE] != S.PH_DONE:
        n = E.legal_actions(st, ra, buf, True)
        if n > len(buf):                               # two wild ranks: leads by the 10,000
            buf = np.empty((2 * n, 2), np.uint64)
            assert E.legal_actions(st, ra, buf, True) == n
        assert n > 0
        i, rng = next_below(np.uint64(rng), n)
        action = buf[i].copy()
        if st[S.G_PHASE] != S.PH_PLAY:
            assert st[S.G_WILDS] == 0, "the wild ranks are drawn when play opens"
            E.apply(st, ra, action)
            continue
        mask = int(st[S.G_WILDS])
        if wilds is None:                              # play opens: the draw
            wilds = tuple(r for r in range(13) if mask >> r & 1)
            assert len(wilds) == rules.wilds and mask < 1 << 13
            drawn = mask
            mult = int(st[S.G_MULT])
        assert mask == drawn
        if check:
            check_actions(st, rules, buf[:n], wilds, sample)
        p = int(st[S.G_PLAYER])
        before = [int(np.uint64(st[S.G_HANDS + s])) for s in range(rules.players)]
        E.apply(st, ra, action)
        after = [int(np.uint64(st[S.G_HANDS + s])) for s in range(rules.players)]
        if action[1]:
            move = as_move(*action)
            if check:
                assert move in LO.readings(move[0], wilds) or \
                    sum(move[0][w] for w in wilds) == 4
            mult *= factor(move, rules)
            before[p] -= int(action[0])                # exactly the cards played leave
        assert after == before
    assert st[S.G_SCORES:S.G_SCORES + rules.players].sum() == 0
    if st[S.G_WINNER] != S.SIDE_VOID:
        assert np.uint64(st[S.G_HANDS + st[S.G_OUT]]) == 0
        spring = 2 if st[S.G_SPRING] != S.SPRUNG_NONE else 1
        assert st[S.G_MULT] == mult * spring
    else:
        assert st[S.G_WILDS] == 0
    return st


@pytest.mark.parametrize("rules", [ONE, TWO, BY_RANK], ids=["one wild", "two wild", "by rank"])
def test_random_games_against_the_reference(rules):
    for deal in range(12):
        step(rules, 7, deal)


@pytest.mark.parametrize("rules", [ONE, TWO], ids=["one wild", "two wild"])
def test_simulate_plays_the_same_deals(rules):
    """``simulate`` (both threads and one) gives deal for deal the stepped games' results."""
    n = 30
    runs = [fastdou.simulate(n, rules, seed=3, per_deal=True, threads=t).per_deal
            for t in (1, 2)]
    for name in P.RESULT_NAMES + ("scores",):
        assert (runs[0][name] == runs[1][name]).all(), name
    for deal in range(n):
        st = step(rules, 3, deal, check=False)
        for j, name in enumerate(P.RESULT_NAMES):
            assert runs[0][name][deal] == st[P.RESULT_FIELDS[j]], (deal, name)
        assert (runs[0]["scores"][deal] * S.SCORE_UNIT
                == st[S.G_SCORES:S.G_SCORES + rules.players]).all()


def test_the_wild_rank_is_drawn_uniformly():
    """13 ranks, equally often; under wilds=2 two distinct ones; nothing before play."""
    arrays = fastdou.simulate(6500, ONE, seed=11, per_deal=True).per_deal
    masks = arrays["wilds"][arrays["winner"] != S.SIDE_VOID]
    ranks = np.log2(masks).astype(int)
    assert (masks == 1 << ranks).all()
    seen = np.bincount(ranks, minlength=13)
    expected = len(masks) / 13
    assert seen.size == 13 and (np.abs(seen - expected) < 5 * np.sqrt(expected)).all(), seen
    two = fastdou.simulate(2000, TWO, seed=11, per_deal=True).per_deal
    bits = sum((two["wilds"] >> r) & 1 for r in range(13))
    assert ((bits == 2) | (two["winner"] == S.SIDE_VOID)).all()


def test_bomb_classes_change_the_score():
    """The same deals with a larger soft-bomb factor score more (soft bombs are played)."""
    a = fastdou.simulate(400, ONE, seed=5, per_deal=True).per_deal
    more = fastdou.rules(wilds=1, soft_bomb_factor=5)
    b = fastdou.simulate(400, more, seed=5, per_deal=True).per_deal
    assert (a["bombs"] == b["bombs"]).all() and (b["multiplier"] >= a["multiplier"]).all()
    assert (b["multiplier"] > a["multiplier"]).any()


def test_results_table_keeps_the_wild_ranks():
    """The table's ``wilds`` column (rules with wild cards only) round-trips; a mask that no
    simulation writes is refused."""
    arrays = fastdou.simulate(50, TWO, seed=2, per_deal=True).per_deal
    arrays["deal"] = np.arange(50)
    cols = T.columns(arrays, TWO)
    assert "wilds" in cols and "wilds" not in T.names(fastdou.rules("classic"))
    back = T.per_deal(cols, TWO)
    for name in P.RESULT_NAMES:
        assert (back[name] == arrays[name]).all(), name
    for bad in (1 << 13, 1, 0b111):
        broken = dict(cols, wilds=np.where(np.arange(50) == 3, bad, cols["wilds"]))
        with pytest.raises(fastdou.RecordError, match="row 4.*wilds"):
            T.per_deal(broken, TWO)


@pytest.mark.parametrize("rules", [ONE, TWO], ids=["one wild", "two wild"])
def test_game_plays_as_the_engine(rules):
    """``Game`` with the engine's choices gives the stepped games' final states; it shows
    the wild rank(s) once play opens, takes a move or its text, accepts every listed move
    (a sample, on clones) and refuses unlisted ones, and its record replays."""
    for deal in range(6):
        expected = step(rules, 4, deal, check=False)
        game = fastdou.Game.new(rules, seed=4, deal=deal)
        rng = np.uint64(P.policy_stream(4, deal))
        sample = random.Random(deal)
        while not game.is_terminal():
            actions = game.legal_actions()
            i, rng = next_below(np.uint64(rng), len(actions))
            if game.phase != "play":
                assert game.wild is None and game.observation(0).wild is None
                game.play(actions[i])
                continue
            assert game.wild is not None and game.observation(1).wild == game.wild
            assert all(m.wilds == game._wilds for m in actions if not m.is_pass)
            for m in sample.sample(actions, min(3, len(actions))):
                game.clone().play(m)
            if game.last_move.is_pass:
                with pytest.raises(fastdou.IllegalMoveError, match="may not pass"):
                    game.clone().play("pass")
            move = actions[i]
            game.play(move.text() if i % 2 and not move.is_pass else move)
        assert (game.state == expected).all()
        result = game.result()
        assert result.wild == game.wild and sum(result.scores) == 0
        again = fastdou.Game.loads(game.dumps())
        assert (again.state == game.state).all()
        with pytest.raises(fastdou.RecordError, match="wild"):
            other = "3" if game.wild != "3" else "4"
            fastdou.Game.loads(game.dumps().replace(f'"wild": "{game.wild}"',
                                                    f'"wild": "{other * rules.wilds}"'))


def test_game_refuses_moves_of_other_wild_ranks():
    game = fastdou.Game.new(ONE, seed=0, start="play")
    assert game.wild is not None and len(game.wild) == 1
    other = "5" if game.wild != "5" else "6"
    hand = game.perfect_information_hand(game.current_player)
    solo = next(t for r, t in enumerate(C.TOKENS[:13]) if hand[r] and t not in (game.wild, other))
    with pytest.raises(fastdou.IllegalMoveError, match="under wild"):
        game.play(fastdou.Move.parse(solo, ONE, wild=other))
    with pytest.raises(fastdou.IllegalMoveError, match="no wild card"):
        game.play(fastdou.Move.parse(solo))
    game.play(fastdou.Move.parse(solo, ONE, wild=game.wild))


def test_players_and_evaluate_take_wild_cards():
    """Random and greedy play wild games as Policies and in evaluate (its own kernel); the
    expert and pimc: tests/api/test_wild_players.py."""
    rules = fastdou.rules("laizi")
    greedy = fastdou.policy("greedy", rules)
    game = fastdou.Game.new(rules, seed=1)
    while not game.is_terminal():
        game.play(greedy.choose(game))
    assert game.result().wild == game.wild
    report = fastdou.evaluate("greedy", "random", 200, rules, seed=1)
    again = fastdou.evaluate("greedy", "random", 200, rules, seed=1, threads=1)
    assert report.deals == 200 and report.overall == again.overall
    assert report.overall != fastdou.evaluate("greedy", "random", 200, "classic", seed=1).overall
