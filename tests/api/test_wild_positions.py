"""Positions, perft and the solver under wild cards (preset ``laizi``) against the naive reference
(``tests/reference/naive_solver.py`` over ``laizi_oracle``): random small positions of 2, 3 and
4 seats for every wild rank, leading and mid-trick; golden counts; the text form, Game round
trips and what does not take wild cards yet."""

import numpy as np
import pytest

import fastdou
from fastdou import Position
from fastdou.errors import IllegalMoveError, PositionError
from tests.reference import naive_solver as N
from tests.shared.positions import draw_cards, random_position

LAIZI = fastdou.rules("laizi")


def move_tuple(move):
    """A Move -> laizi_oracle's (cards, kind_name, rank, length, bomb_class); pass -> None."""
    if move.is_pass:
        return None
    return (tuple(int(c) for c in move.cards), move.kind.name, move.rank, move.length,
            move.bomb_class)


def naive_state(pos):
    hands = tuple(tuple(int(c) for c in h) for h in pos.hands)
    last = None if pos.last is None else move_tuple(pos.last)
    return hands, pos.to_move, last, pos.last_player


def wild_ranks(pos):
    return tuple(r for r in range(13) if pos.wilds >> r & 1)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_perft_equals_naive(seats):
    rng = np.random.default_rng([seats, 29])
    for i in range(26):
        pos = random_position(rng, LAIZI, seats, {2: 5, 3: 4, 4: 3}[seats], mid=i % 2 == 1,
                              wild=i % 13)
        state, wilds = naive_state(pos), wild_ranks(pos)
        for depth in (1, 2, 3):
            assert fastdou.perft(pos, depth) == N.perft(state, depth, pos.rules, wilds), str(pos)
        divide = fastdou.perft_divide(pos, 2)
        assert sum(divide.values()) == fastdou.perft(pos, 2)
        assert sorted(map(repr, map(move_tuple, divide))) == \
            sorted(map(repr, N.actions(state, pos.rules, wilds))), str(pos)
        assert all(m.wilds == pos.wilds for m in divide if not m.is_pass)


def test_perft_with_two_wild_ranks_equals_naive():
    rules = fastdou.rules("laizi", wilds=2)
    rng = np.random.default_rng(31)
    for i in range(24):
        a, b = (int(r) for r in rng.choice(13, 2, replace=False))
        pos = random_position(rng, rules, 2 + i % 2, 4, mid=i % 2 == 1, wild=(a, b))
        state, wilds = naive_state(pos), wild_ranks(pos)
        assert len(wilds) == 2
        for depth in (1, 2, 3):
            assert fastdou.perft(pos, depth) == N.perft(state, depth, pos.rules, wilds), str(pos)
        assert Position.parse(str(pos), rules=rules) == pos


def team_of(pos):
    return {s for s in range(pos.seats) if pos.side(s) == "landlord"}


@pytest.mark.parametrize("seats", [2, 3])
def test_solver_equals_naive(seats):
    """The winning first moves and the verdict equal the naive negamax's; the line is legal
    in a Game from the position and ends won by the side solved to win."""
    rng = np.random.default_rng([seats, 41])
    for i in range(39):
        wild = i % 13 if i % 3 else (i % 13, (i + 5) % 13)
        rules = LAIZI if i % 3 else fastdou.rules("laizi", wilds=2)
        pos = random_position(rng, rules, seats, {2: 5, 3: 4}[seats], mid=i % 2 == 1,
                              wild=wild)
        naive = N.Naive(pos.rules, team_of(pos), wild_ranks(pos))
        state = naive_state(pos)
        sol = fastdou.solve(pos, table_size=1 << 10, threads=1 + i % 2)
        got = [move_tuple(m) for m in sol.winning_moves]
        assert sorted(got, key=repr) == sorted(naive.winning_moves(state), key=repr), str(pos)
        mover_wins = naive.wins(state)
        assert sol.landlord_wins == (mover_wins == (pos.side(pos.to_move) == "landlord"))
        game = fastdou.Game.from_position(pos)
        for move in sol.line:
            game.play(move)
        assert game.is_terminal() and (game.result().winner == "landlord") == sol.landlord_wins


# Counted by the naive reference (N.perft with laizi_oracle), depths 1..5
GOLDEN = {
    "3457/4448/99 1 0 5557(5) 0 laizi 7": [1, 1, 7, 13, 26],
    "3344556677/89TJQK 0 0 - - laizi 3": [195, 244, 2283, 5753, 17466],
    "22229/3B/AAR 0 0 - - laizi 9": [9, 11, 16, 43, 37],
    "3377TT/5569JJ/88QK 1 0 - - laizi 7": [6, 17, 63, 104, 222],
}


@pytest.mark.parametrize("text", sorted(GOLDEN))
def test_perft_golden(text):
    pos = Position.parse(text)
    assert [fastdou.perft(pos, d) for d in range(1, 6)] == GOLDEN[text]


def test_text_form_and_game_round_trip():
    pos = Position(["3457", "4448", "99"], "laizi", to_move=1, last="5557(5)", last_player=0,
                   wild="7")
    assert str(pos) == "3457/4448/99 1 0 5557(5) 0 laizi 7" and pos.wild == "7"
    assert Position.parse(str(pos)) == pos and pos.last.bomb_class == "soft"
    assert pos != Position(["3457", "4448", "99"], "laizi", to_move=1, last="5559(5)",
                           last_player=0, wild="9")
    game = fastdou.Game.from_position(pos)
    assert game.wild == "7" and game.position() == pos
    assert [m.is_pass for m in game.legal_actions()] == [True]   # 4448: no bomb above it
    assert Position.from_array(pos.array(), pos.rules, 0) == pos


def test_the_hash_tells_wild_ranks_apart():
    from fastdou.kernels import search as KS
    a = Position(["34", "56"], "laizi", wild="7").array()
    b = Position(["34", "56"], "laizi", wild="8").array()
    c = Position(["34", "56"], "classic").array()
    assert len({int(a[KS.S_HASH]), int(b[KS.S_HASH]), int(c[KS.S_HASH])}) == 3
    assert c[KS.S_WILDS] == 0 and KS.position_hash(c) == c[KS.S_HASH]


def test_min_plays_equals_naive():
    rng = np.random.default_rng(43)
    for i in range(40):
        wild = i % 13
        pool = LAIZI.deck.astype(np.int64).copy()
        hand = draw_cards(rng, pool, int(rng.integers(1, 9)))
        hand[wild] += min(int(rng.integers(0, 3)), int(pool[wild]))
        assert fastdou.min_plays(hand, LAIZI, wild=wild) == N.min_plays(hand, LAIZI, (wild,)), \
            (fastdou.cards.to_text(hand), wild)
    assert fastdou.min_plays("3557", LAIZI, wild="7") == 1            # 555+3
    assert fastdou.min_plays("3557", "classic") == 3                  # 55, 3, 7


@pytest.mark.parametrize("call,error,match", [
    (lambda: Position(["34", "56"], "laizi"), PositionError, "say which"),
    (lambda: Position(["34", "56"], "classic", wild="7"), PositionError, "no wild cards"),
    (lambda: Position.parse("34/56 0 0 - - laizi"), PositionError, "say which"),
    (lambda: fastdou.min_plays("3334", "laizi"), IllegalMoveError, "say which"),
])
def test_what_is_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()
