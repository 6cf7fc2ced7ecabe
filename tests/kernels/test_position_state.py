"""The compiled conversions between engine state and search position
(``fastdou.kernels.position_state``): round trips, the same states and positions as the
Python code they replace (kept here as the reference), and the solver reached either way."""

import numpy as np
import pytest
from numba import njit

import fastdou
from fastdou import Game, Position, PositionError
from fastdou.kernels import engine as E
from fastdou.kernels import position_state as KP
from fastdou.kernels import search as KS
from fastdou.kernels import state as S
from fastdou.position import state_array
from fastdou.rules import rules_array
from tests.shared.positions import random_position

PRESETS = ["classic", "two_player", "four_player", "five_player", "emperor", "jinling"]


# ------------------------------------------------------------------ the replaced Python code
def reference_state(pos: Position) -> np.ndarray:
    """The engine state ``Game.from_position`` built by writing slots from Python."""
    state = np.zeros(S.STATE_SIZE, np.int64)
    state[S.G_MULT] = 1                               # a blank hand (engine._reset)
    state[S.G_RULES:] = pos.rules.array
    for slot in (S.G_WINNER, S.G_LAST_PLAYER, S.G_OUT, S.G_MARKED, S.G_TRUMP):
        state[slot] = -1
    for s, counts in enumerate(pos.hands):
        state[S.G_HANDS + s] = np.int64(np.uint64(fastdou.cards.pack(counts)))
    state[S.G_FIRST] = pos.landlord
    state[S.G_LANDLORD] = pos.landlord
    state[S.G_PARTNER] = -1 if pos.partner is None else pos.partner
    state[S.G_TEAM] = pos.team
    state[S.G_BID] = 1
    E.begin_play(state, rules_array(pos.rules))
    state[S.G_PLAYER] = pos.to_move
    if pos.last is not None:
        state[S.G_LAST_CARDS] = np.int64(np.uint64(pos.last.packed))
        state[S.G_LAST_INFO] = pos.last.info
        state[S.G_LAST_PLAYER] = pos.last_player
    return state


def reference_position(game: Game) -> Position:
    """The Position ``Game.position`` built by reading slots from Python."""
    st = game.state
    leading = st[S.G_LAST_INFO] == 0
    partner = int(st[S.G_PARTNER])
    hands = [game.perfect_information_hand(s) for s in range(game.rules.players)]
    return Position(hands, game.rules, landlord=game.landlord,
                    partner=None if partner < 0 else partner, to_move=game.current_player,
                    last=None if leading else game.last_move,
                    last_player=None if leading else int(st[S.G_LAST_PLAYER]))


def positions(count, seed):
    """Random positions of every preset above, of 2 seats up to the preset's players."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        rules = fastdou.rules(PRESETS[k % len(PRESETS)])
        seats = int(rng.integers(2, rules.players + 1))
        yield random_position(rng, rules, seats, int(rng.integers(1, 9)), mid=k % 3 != 0)


def played_games(seed, presets=PRESETS, steps=60):
    """Games of every preset started in play, after each random action while in play."""
    rng = np.random.default_rng(seed)
    for name in presets:
        game = Game.new(name, seed=int(rng.integers(1 << 30)), start="play")
        for _ in range(steps):
            if game.phase != "play":
                break
            yield game
            actions = game.legal_actions()
            game.play(actions[int(rng.integers(len(actions)))])


# ------------------------------------------------------------------ tests
def test_position_state_position_round_trips():
    seen = set()
    for pos in positions(300, 0):
        seen.add((pos.rules.name, pos.seats, pos.partner is not None, pos.last is not None))
        arr = pos.array()
        state = E.new_state()
        KP.state_of_position(state, rules_array(pos.rules), arr, pos.landlord)
        np.testing.assert_array_equal(state, reference_state(pos), err_msg=str(pos))
        out = np.full(KS.SEARCH_SIZE, 7, np.int64)
        assert KP.position_of_state(state, rules_array(pos.rules), out) == KP.POSITION_OK
        np.testing.assert_array_equal(out, arr, err_msg=str(pos))
        assert Position.from_array(out, pos.rules, pos.landlord) == pos
        game = Game.from_position(pos)
        np.testing.assert_array_equal(game.state, reference_state(pos))
        assert game.position() == pos
    assert {(n, p) for n, _, p, _ in seen} >= {("five_player", True), ("four_player", True),
                                               ("classic", False), ("two_player", False)}
    assert {s for _, s, _, _ in seen} >= {2, 3, 4, 5}


def test_positions_of_games_are_the_slot_readers():
    count = 0
    for game in played_games(1):
        want = reference_position(game)
        assert game.position() == want
        np.testing.assert_array_equal(state_array(game.state, game.rules, game.phase),
                                      want.array())
        count += 1
    assert count > 100


def test_no_position_outside_play_or_with_a_handicap():
    game = Game.new("classic", seed=3)
    out = np.zeros(KS.SEARCH_SIZE, np.int64)
    assert KP.position_of_state(game.state, rules_array(game.rules), out) == KP.NOT_IN_PLAY
    assert not out.any()
    with pytest.raises(PositionError, match="in its bid phase"):
        game.position()
    for seed in range(200):                # a two_player hand whose farmer grabbed
        game = Game.new("two_player", seed=seed)
        while game.phase == "bid":
            game.play(game.legal_actions()[-1])
        if game.phase == "play" and game.state[S.G_GRABS] > 0:
            break
    else:
        pytest.skip("no grab in 200 deals")
    assert KP.position_of_state(game.state, rules_array(game.rules), out) == KP.HANDICAPPED
    with pytest.raises(PositionError, match="grab handicap"):
        fastdou.solve(game)


def _reference_deal(game_rules, hands, kitty, first, bright, dark, seed, mark):
    """``Game._from_deal``'s state as it was set up by writing the seed and the marked card
    from Python."""
    state = E.new_state()
    state[S.G_SEED] = seed
    E.start_from_hands(state, rules_array(game_rules), hands, kitty, first, bright, dark)
    if mark >= 0:
        state[S.G_MARKED] = 4 * mark
    return state


@pytest.mark.parametrize("name", ["classic", "five_player", "four_player"])
def test_dealt_hands_set_seed_and_mark_in_the_engine(name):
    rules = fastdou.rules(name)
    rng = np.random.default_rng(len(name))
    for seed in (0, 7, 2 ** 40):
        deck = "".join(t * int(n) for t, n in zip(fastdou.cards.TOKENS, rules.deck))
        order = "".join(rng.permutation(list(deck)))
        size = rules.hand_size
        hands = [order[s * size:(s + 1) * size] for s in range(rules.players)]
        kitty = order[rules.players * size:][:rules.kitty]
        kwargs, bright, dark, mark = {}, 0, 0, -1
        if rules.bidding == "marked":
            bright, dark = 1, 3
            mark = next(r for r in range(13) if hands[1].count(fastdou.cards.TOKENS[r])
                        and hands[3].count(fastdou.cards.TOKENS[r]))
            kwargs = {"landlords": (bright, dark), "marked": mark}
        game = Game.from_hands(hands, rules, kitty=kitty, first=2, seed=seed, **kwargs)
        packed = np.array([fastdou.cards.pack(fastdou.cards.parse(h, rules)) for h in hands],
                          np.uint64)
        kit = np.uint64(fastdou.cards.pack(fastdou.cards.parse(kitty, rules)))
        want = _reference_deal(rules, packed, kit, 2, bright, dark, seed, mark)
        np.testing.assert_array_equal(game.state, want)


def test_solve_and_perft_of_a_game_are_those_of_its_position():
    checked = 0
    for pos in positions(60, 2):
        if sum(int(h.sum()) for h in pos.hands) > 14:
            continue
        game = Game.from_position(pos)
        a, b = fastdou.solve(game), fastdou.solve(game.position())
        assert (a.landlord_wins, a.winning_moves, a.line, a.nodes) == \
            (b.landlord_wins, b.winning_moves, b.line, b.nodes), str(pos)
        assert fastdou.perft(game, 3) == fastdou.perft(pos, 3)
        assert fastdou.perft_divide(game, 2) == fastdou.perft_divide(pos, 2)
        checked += 1
    assert checked >= 20


def test_solve_of_a_played_game():
    for game in played_games(5, presets=["classic", "five_player"], steps=200):
        cards = sum(int(game.perfect_information_hand(s).sum())
                    for s in range(game.rules.players))
        if cards <= 12:
            a, b = fastdou.solve(game), fastdou.solve(reference_position(game))
            assert (a.landlord_wins, a.winning_moves, a.nodes) == \
                (b.landlord_wins, b.winning_moves, b.nodes)


@njit
def _round_trip(state, rules, pos, landlord):
    KP.state_of_position(state, rules, pos, landlord)
    out = np.zeros(KS.SEARCH_SIZE, np.int64)
    status = KP.position_of_state(state, rules, out)
    return status, out


def test_callable_from_njit():
    pos = Position.parse("3455KK/345522/789 1 0,2 KK 0 five_player")
    status, out = _round_trip(E.new_state(), rules_array(pos.rules), pos.array(), 0)
    assert status == KP.POSITION_OK
    np.testing.assert_array_equal(out, pos.array())
