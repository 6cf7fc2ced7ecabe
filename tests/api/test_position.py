"""Position: validation naming the problem, the text form round-trips, Game integration."""

import numpy as np
import pytest

import fastdou
from tests.shared.rulesets import every_rules, rules_id
from fastdou import Move, Position, PositionError
from tests.shared.positions import random_position


@pytest.mark.parametrize("rules", every_rules(), ids=rules_id)
def test_text_round_trips(rules):
    rng = np.random.default_rng(1)
    for i in range(40):
        pos = random_position(rng, rules, 2 + i % 4, 9, mid=i % 2 == 0)
        text = str(pos)
        again = Position.parse(text)
        assert again == pos and str(again) == text and hash(again) == hash(pos)
        assert eval(repr(pos), {"Position": Position}) == pos


def test_text_form():
    pos = Position(["448999TJJQQAR", "336688TAA22B"])
    assert str(pos) == "448999TJJQQAR/336688TAA22B 0 0 - - classic"
    pos = Position(["3455KK", "34552", "789"], "classic", landlord=0, to_move=1,
                   last="2", last_player=0)
    assert str(pos) == "3455KK/34552/789 1 0 2 0 classic"
    pos = Position(["3334", "55", "66", "77", "88"], "five_player", landlord=2, partner=4)
    assert str(pos) == "3334/55/66/77/88 2 2,4 - - five_player"
    assert Position.parse(str(pos)).partner == 4
    op = fastdou.rules("classic", profile="openspiel")
    plane = Move.parse("444555666+333", op)
    pos = Position(["BR", "2"], op, last=plane, last_player=1)
    assert str(pos) == "BR/2 0 0 444555666+333 1 classic:openspiel"
    assert Position.parse(str(pos)).last == plane


def test_defaults_and_views():
    pos = Position(["3", "4", "5"], landlord=1)
    assert pos.to_move == 1 and pos.seats == 3 and pos.rules.players == 3
    assert pos.side(1) == "landlord" and pos.side(0) == "farmers" and pos.is_leading()
    assert Position(["3", "4"]).rules.players == 2      # seats are the hands given
    assert Position(["3", "4"], last="pass").last is None


@pytest.mark.parametrize("kwargs, message", [
    (dict(hands=["33333", "4"]), "5 of '3'"),
    (dict(hands=["3333", "3"]), "deck has 4"),
    (dict(hands=["333", "4"], last="33", last_player=1, to_move=0), "deck has 4"),
    (dict(hands=["3", "4"], landlord=2), "landlord 2 is out of range"),
    (dict(hands=["3", "4"], to_move=-1), "to_move -1 is out of range"),
    (dict(hands=["3", "4"], landlord=True), "landlord must be a seat number"),
    (dict(hands=["3", "4"], to_move=1.0), "to_move must be a seat number"),
    (dict(hands=["3", "4"], last="34", last_player=0, to_move=1), "not a legal move"),
    (dict(hands=["3", "4"], last="5"), "needs last_player"),
    (dict(hands=["3", "4"], last_player=1), "without last"),
    (dict(hands=["3", "4"], last="5", last_player=0), "also to move"),
    (dict(hands=["3", "4", "5"], partner=0), "landlord itself"),
    (dict(hands=["3", ""]), "seat 1 holds no cards"),
    (dict(hands=["3"]), "2 to 8 seats"),
    (dict(hands="34"), "sequence of hands"),
    (dict(hands=["3Z", "4"]), "seat 0: unknown card token"),
])
def test_bad_positions(kwargs, message):
    with pytest.raises(PositionError, match=message):
        Position(**kwargs)


@pytest.mark.parametrize("text, message", [
    ("3/4 0 0 - -", "6 fields"),
    ("3/4 x 0 - - classic", "to_move must be a seat number"),
    ("3/4 0 0 34 1 classic", "not a legal move"),
    ("3/4 0 0 - - nosuch", "unknown preset"),
    ("3/4 0 0 - - classic:nosuch", "unknown profile"),
    ("3/4 0 5 - - classic", "out of range"),
])
def test_bad_text(text, message):
    with pytest.raises(PositionError, match=message):
        Position.parse(text)


def test_game_from_position_and_back():
    pos = Position(["3455KK", "34552", "789"], landlord=0, to_move=1, last="2",
                   last_player=0)
    game = fastdou.Game.from_position(pos)
    assert game.phase == "play" and game.current_player == 1 and game.landlord == 0
    assert game.position() == pos
    assert game.legal_actions() == [Move.PASS]
    game.play(Move.PASS)
    game.play(Move.PASS)                       # the trick returns to seat 0
    assert game.position() == Position(["3455KK", "34552", "789"])
    again = fastdou.Game.loads(game.dumps())
    assert again.position() == game.position()
    for move in ["3", "4", "8", "K"]:
        game.play(move)
    assert game.position().last == Move.parse("K")


def test_douzero_style_start():
    """Landlord fixed with 20 cards, straight into play."""
    game = fastdou.Game.new("classic", seed=3, deal=0)
    game.play(3)
    pos = game.position()
    assert pos.hands[pos.landlord].sum() == 20 and pos.is_leading()
    clone = fastdou.Game.from_position(pos)
    np.testing.assert_array_equal(clone.state[fastdou.game.S.G_HANDS:],
                                  game.state[fastdou.game.S.G_HANDS:])
    while not clone.is_terminal():
        clone.play(clone.legal_actions()[-1])
    assert clone.result().winner in ("landlord", "farmers")


def test_position_needs_play_phase():
    with pytest.raises(PositionError, match="bid phase"):
        fastdou.Game.new().position()
