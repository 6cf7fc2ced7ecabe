"""The solver, perft and min_plays against the naive reference (tests/reference/naive_solver.py) on
random small positions of every preset and classic profile, with 2, 3 and 4 seats, leading
and mid-trick, bombs and rockets in the hands; published positions; limits; threads."""

import numpy as np
import pytest

import fastdou
from tests.shared.rulesets import SLOW, every_rules, rules_id
from fastdou import Move, Position
from tests.reference import naive_solver as N
from tests.shared.positions import draw_cards, random_position

RULES = every_rules()
SMALL_TABLE = 1 << 10        # small enough that entries get replaced


def move_tuple(move):
    """A Move -> the oracle's (cards, kind_name, rank, length); the pass -> None."""
    if move.is_pass:
        return None
    return (tuple(int(c) for c in move.cards), move.kind.name, move.rank, move.length)


def naive_state(pos):
    hands = tuple(tuple(int(c) for c in h) for h in pos.hands)
    last = None if pos.last is None else move_tuple(pos.last)
    return hands, pos.to_move, last, pos.last_player


def team_of(pos):
    return {s for s in range(pos.seats) if pos.side(s) == "landlord"}


MAX_CARDS = {2: 6, 3: 4, 4: 3}
COUNT = 200 if SLOW else 80


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("rules", RULES, ids=rules_id)
def test_solver_equals_naive(rules, seats):
    rng = np.random.default_rng([seats, len(rules.name), hash(rules_id(rules)) % 1000])
    for i in range(COUNT):
        pos = random_position(rng, rules, seats, MAX_CARDS[seats], mid=i % 2 == 1)
        naive = N.Naive(pos.rules, team_of(pos))
        state = naive_state(pos)
        expected = naive.winning_moves(state)
        sol = fastdou.solve(pos, table_size=SMALL_TABLE)
        got = [move_tuple(m) for m in sol.winning_moves]
        assert sorted(got, key=repr) == sorted(expected, key=repr), str(pos)
        mover_wins = naive.wins(state)
        assert sol.landlord_wins == (mover_wins == (pos.side(pos.to_move) == "landlord"))
        check_line(pos, sol)


def check_line(pos, sol):
    """The line is legal, ends the game, and is won by the solved side."""
    game = fastdou.Game.from_position(pos)
    assert sol.line[0] in sol.winning_moves or not sol.winning_moves
    for move in sol.line:
        game.play(move)
    assert game.is_terminal()
    assert (game.result().winner == "landlord") == sol.landlord_wins


def test_high_cards_equal_naive():
    """Two seats, 5-7 and 3-7 cards mostly of the top ranks (three low ranks left in the
    deck): many moves nobody can answer, so the control check and the dropped answers
    decide much of the search; equal to the naive solver, leading and mid-trick."""
    rules = fastdou.rules("classic")
    rng = np.random.default_rng(3)
    deck = np.repeat(np.arange(15), rules.deck)
    for i in range(40):
        keep = np.isin(deck, np.concatenate([rng.choice(8, 3, replace=False), np.arange(8, 15)]))
        cards = rng.permutation(deck[keep])
        a, b = int(rng.integers(5, 8)), int(rng.integers(3, 8))
        hands = [fastdou.cards.to_text(np.bincount(c, minlength=15))
                 for c in (cards[:a], cards[a:a + b])]
        last = last_player = None
        if i % 2:
            moves = list(fastdou.legal_moves(np.bincount(cards[a + b:a + b + 2], minlength=15),
                                             rules=rules))
            last, last_player = moves[int(rng.integers(len(moves)))], 1
        pos = Position(hands, rules, last=last, last_player=last_player)
        naive = N.Naive(pos.rules, team_of(pos))
        expected = naive.winning_moves(naive_state(pos))
        sol = fastdou.solve(pos, table_size=SMALL_TABLE)
        got = [move_tuple(m) for m in sol.winning_moves]
        assert sorted(got, key=repr) == sorted(expected, key=repr), str(pos)
        check_line(pos, sol)


@pytest.mark.parametrize("rules", RULES, ids=rules_id)
def test_perft_equals_naive(rules):
    rng = np.random.default_rng(7)
    for i in range(8):
        pos = random_position(rng, rules, 2 + i % 3, 4, mid=i % 2 == 1)
        state = naive_state(pos)
        for depth in (1, 2, 3):
            assert fastdou.perft(pos, depth) == N.perft(state, depth, pos.rules), str(pos)
        divide = fastdou.perft_divide(pos, 3)
        assert sum(divide.values()) == fastdou.perft(pos, 3)
        assert [move_tuple(m) for m in divide] == N.actions(state, pos.rules) or \
            sorted(map(repr, map(move_tuple, divide))) == \
            sorted(map(repr, N.actions(state, pos.rules)))


@pytest.mark.parametrize("rules", RULES, ids=rules_id)
def test_min_plays_equals_naive(rules):
    rng = np.random.default_rng(11)
    for _ in range(15):
        pool = rules.deck.astype(np.int64).copy()
        hand = draw_cards(rng, pool, int(rng.integers(0, 9)))
        assert fastdou.min_plays(hand, rules) == N.min_plays(hand, rules), hand


def test_perft_golden():
    pos = Position(["33345AR", "QK222B"])
    assert [fastdou.perft(pos, d) for d in range(1, 9)] == \
        [11, 39, 111, 375, 906, 2810, 5548, 15576]
    assert fastdou.perft(pos, 0) == 1
    divide = fastdou.perft_divide(pos, 4)
    assert len(divide) == 11 and sum(divide.values()) == 375
    assert Move.PASS not in divide


def test_perft_counts_game_ending_moves_once():
    pos = Position(["3", "4"])                 # seat 0 plays its last card: game over
    assert [fastdou.perft(pos, d) for d in (1, 2, 3)] == [1, 0, 0]
    pos = Position(["33", "4"], last="3", last_player=0, to_move=1)
    assert fastdou.perft_divide(pos, 1) == {Move.PASS: 1, Move.parse("4"): 1}
    assert fastdou.perft_divide(pos, 2) == {Move.PASS: 2, Move.parse("4"): 0}  # 3 or 33


# ---------------------------------------------------------------- published positions
PUBLISHED = [
    (["3455KK", "345522"], True, ["4", "5"]),
    (["45577TTKK2", "8AA"], False, []),
    (["334455QK2", "667788QK2"], False, []),          # a higher pair chain answers one
    (["448999TJJQQAR", "336688TAA22B"], True, ["8"]),  # WeChat expert level 50
]


@pytest.mark.parametrize("hands, first_wins, winners", PUBLISHED, ids=lambda v: str(v))
def test_published(hands, first_wins, winners):
    sol = fastdou.solve(Position(hands))
    assert sol.landlord_wins is first_wins
    assert [m.text() for m in sol.winning_moves] == winners
    check_line(Position(hands), sol)


def test_three_seats_team_play():
    pos = Position(["2", "3", "4"], landlord=0)
    assert fastdou.solve(pos).landlord_wins is True        # the landlord just plays its 2
    pos = Position(["22", "3", "4"], landlord=0, to_move=1)
    sol = fastdou.solve(pos)
    assert sol.landlord_wins is False and sol.winning_moves == (Move.parse("3"),)
    # five_player-style partner: seat 2 cannot beat the partner's 4; the landlord passes
    # and the partner leads its last card.
    pos = Position(["22", "5", "3"], landlord=0, partner=1, to_move=2, last="4",
                   last_player=1)
    sol = fastdou.solve(pos)
    assert sol.landlord_wins is True and sol.winning_moves == ()
    check_line(pos, sol)


# ---------------------------------------------------------------- limits and threads
def test_limits_never_guess():
    pos = Position(PUBLISHED[3][0])
    sol = fastdou.solve(pos, max_nodes=500)
    assert sol.landlord_wins is None and sol.winning_moves is None and sol.line is None
    assert 500 <= sol.nodes <= 502
    sol = fastdou.solve(pos, time_limit=1e-4)
    assert sol.landlord_wins is None
    assert fastdou.solve(pos, max_nodes=10 ** 7).landlord_wins is True


def test_threads_same_answer():
    pos = Position(["3455KK", "345522"])
    one = fastdou.solve(pos)
    two = fastdou.solve(pos, threads=2)
    assert (one.landlord_wins, one.winning_moves) == (two.landlord_wins, two.winning_moves)
    assert two.nodes == fastdou.solve(pos, threads=2).nodes        # deterministic
    rng = np.random.default_rng(2)
    for i, rules in enumerate(RULES * 2):
        pos = random_position(rng, rules, 2 + i % 3, 5, mid=i % 2 == 1)
        one, three = fastdou.solve(pos), fastdou.solve(pos, threads=3)
        assert (one.landlord_wins, one.winning_moves) == \
            (three.landlord_wins, three.winning_moves), str(pos)


def test_node_counts_are_deterministic():
    pos = Position(PUBLISHED[3][0])
    assert fastdou.solve(pos).nodes == fastdou.solve(pos).nodes


@pytest.mark.parametrize("kwargs", [dict(max_nodes=0), dict(max_nodes=1.5),
                                    dict(time_limit=-1), dict(time_limit=True),
                                    dict(threads=0), dict(table_size="big")])
def test_bad_limits(kwargs):
    with pytest.raises(fastdou.FastdouError):
        fastdou.solve(Position(["3", "4"]), **kwargs)


def test_solve_game_in_play():
    game = fastdou.Game.new("classic", seed=0, deal=0)
    with pytest.raises(fastdou.PositionError):
        fastdou.solve(game)                                   # still bidding
    game = fastdou.Game.from_position(Position(["3455KK", "345522"]))
    sol = fastdou.solve(game)
    assert sol.winning_moves == (Move.parse("4"), Move.parse("5"))
    game.play("4")
    assert fastdou.solve(game).landlord_wins is True


def test_five_player_five_seats_equals_naive():
    """five_player at its own table: five seats, the partner often on the landlord side."""
    rules = fastdou.rules("five_player")
    rng = np.random.default_rng(5)
    for i in range(COUNT):
        pos = random_position(rng, rules, 5, 2, mid=i % 2 == 1)
        naive = N.Naive(pos.rules, team_of(pos))
        expected = naive.winning_moves(naive_state(pos))
        got = [move_tuple(m) for m in fastdou.solve(pos, table_size=SMALL_TABLE).winning_moves]
        assert sorted(got, key=repr) == sorted(expected, key=repr), str(pos)
