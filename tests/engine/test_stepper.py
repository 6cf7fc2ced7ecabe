"""The one stepper by id (``fastdou.stepper``) behind Game, the RLCard env and the DouZero
env: ``play_id`` refuses exactly the ids that are not legal now (those ``push_id`` would
apply too, and those it refuses) with the messages of its checks in Python, and the three
step the same deals by the same ids to the same states."""

import random

import numpy as np
import pytest

import fastdou
from fastdou.errors import GameStateError, IllegalMoveError
from fastdou.stepper import Stepper

rlcard = pytest.importorskip("rlcard")
import fastdou.adapters.rlcard as RA  # noqa: E402
from fastdou.adapters import douzero as DZ  # noqa: E402


def _reference_refusal(game, a):
    """The message play_id gave when it checked in Python (``None``: legal)."""
    t = game.action_table
    if not t.is_action(a):
        return f"{a} is not an action id of {game.rules.name} (0..{t.size - 1})"
    if game.is_terminal():
        return "the hand is over"
    if a in game.legal_action_ids().tolist():
        return None
    action = t.action(a)
    if isinstance(action, str):
        return f"{action} (id {a}) is not allowed in the {game.phase} phase now"
    return f"id {a}: " + game._why_illegal(action, action.record if game.phase == "play"
                                           else None)


@pytest.mark.parametrize("preset", ["classic", "two_player", "five_player"])
def test_play_id_refuses_exactly_the_illegal_ids(preset):
    """At positions of random games, every id of the table (and a few that are none):
    play_id applies it iff it is legal, else raises the reference message and changes
    nothing; among the refused, push_id applies some (accepted but illegal: a pass when
    leading, a move that does not beat) exactly as it did."""
    rules = fastdou.rules(preset)
    size = fastdou.action_table(rules).size
    rnd = random.Random(1)
    accepted_illegal = 0
    for deal in range(3):
        g = fastdou.Game.new(rules, seed=7, deal=deal)
        while True:
            probe = rnd.sample(range(size), min(size, 60)) + [-1, size, 10 ** 30] + \
                g.legal_action_ids()[:5].tolist()
            for a in probe:
                expected = _reference_refusal(g, a)
                trial = g.clone()
                if expected is None:
                    trial.play_id(a)
                    ref = g.clone()
                    ref.push_id(a)
                    assert (trial.state == ref.state).all()
                    continue
                with pytest.raises(IllegalMoveError) as e:
                    trial.play_id(a)
                assert str(e.value) == expected
                assert (trial.state == g.state).all() and trial.history == g.history
                assert trial.legal_action_ids().tolist() == g.legal_action_ids().tolist()
                try:
                    trial.push_id(a)
                    accepted_illegal += 1
                except (IllegalMoveError, GameStateError):
                    pass
            if g.is_terminal():
                break
            ids = g.legal_action_ids()
            g.play_id(int(ids[rnd.randrange(len(ids))]))
    assert accepted_illegal > 0


def test_play_id_takes_numpy_ids_and_checks_when_the_ids_are_unknown():
    g = fastdou.Game.new("classic", seed=3, deal=1, start="play")
    ids = g.legal_action_ids()
    g.play_id(np.int32(ids[-1]))                 # another integer type: checked, then applied
    g.pop()                                      # the legal ids are unknown after pop
    with pytest.raises(IllegalMoveError, match="may not pass"):
        g.play_id(g.action_table.pass_id)
    g.play_id(ids[0])
    assert g.history[-1][2] == fastdou.action_table("classic").action(int(ids[0]))
    for bad in (True, 1.5, "3", None):
        with pytest.raises(IllegalMoveError, match="is not an action id"):
            g.play_id(bad)


def _rlcard_deck(seed):
    return RA.rlcard_deal(np.random.RandomState(seed))


def test_game_rlcard_and_douzero_step_to_the_same_states():
    """The same deal (RLCard's deck: the landlord at seat 0 with the kitty, in play): the
    RLCard env's game and a Game of its rules stepped by the same ids, the DouZero env and a
    Game of its rules by the ids the env played, are equal after every step (states and
    legal id sets)."""
    standard = fastdou.rules("classic", profile="standard")
    rnd = random.Random(4)
    for seed in range(6):
        deck = _rlcard_deck(seed)
        lord, down, up, kitty = RA.deal_counts(deck)
        games = [fastdou.Game.from_hands([lord, down, up], r, kitty=kitty, start="play",
                                         landlord=0) for r in (standard, DZ.RULES)]
        env = RA.DoudizhuEnv({"seed": 0})
        env.reset()
        rg = env.game
        RA.KR.deal_start(rg.st, RA._RULES_ARRAY, deck)
        rg._actions, rg._n_ids = [], -1
        rg._legal_now()
        dz = DZ.Env()
        dz.reset({key: fastdou.cards.to_douzero(c) for key, c in (
            ("landlord", lord + kitty), ("landlord_down", down), ("landlord_up", up),
            ("three_landlord_cards", kitty))})
        for ref, stepped in zip(games, (rg, dz.game)):
            assert (ref.state == stepped._state).all()
        while not games[0].is_terminal():
            ids = games[0].legal_action_ids()
            assert sorted(rg.legal.tolist()) == sorted(ids.tolist())
            a = int(ids[rnd.randrange(len(ids))])
            games[0].play_id(a)
            rg.play_id(a)
            assert (rg.st == games[0].state).all()
        while not games[1].is_terminal():
            ids = games[1].legal_action_ids()
            assert dz.game.legal_action_ids().tolist() == ids.tolist()
            dz.step(rnd.choice(dz.infoset.legal_actions))
            games[1].play_id(~dz.game._actions[-1])
            assert (dz.game.state == games[1].state).all()
        assert dz.game.is_terminal()


def test_douzero_env_game_is_the_stepped_game():
    """``env.game`` is the Game the env steps (no replay): the same object through the hand,
    its history the env's actions, its record a valid game record."""
    env = DZ.Env()
    np.random.seed(3)
    obs = env.reset()
    g = env.game
    done, n = False, 0
    while not done:
        obs, _, done, _ = env.step(obs["legal_actions"][-1])
        n += 1
        assert env.game is g and len(g.history) == n
    assert g.is_terminal()
    replay = fastdou.Game.loads(g.dumps())
    assert (replay.state == g.state).all()


def test_the_three_share_the_stepper():
    env = RA.DoudizhuEnv({"seed": 0})
    dz = DZ.Env()
    dz.reset()
    for obj in (fastdou.Game.new("classic"), env.game, dz.game):
        assert isinstance(obj, Stepper)
