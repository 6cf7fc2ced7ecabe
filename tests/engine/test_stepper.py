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


def _dz_hands(env_of_hand, hands, seed):
    """Random play of ``hands`` DouZero deals, each on ``env_of_hand(k)``: every step's
    observation (arrays, legal actions), infoset fields and reward, as a list."""
    np.random.seed(seed)
    deals = [DZ.random_deal() for _ in range(hands)]
    rnd = random.Random(seed)
    seen = []
    for k, deal in enumerate(deals):
        env = env_of_hand(k)
        obs, done = env.reset(deal), False
        while not done:
            info = env.infoset
            seen.append((obs["position"], obs["legal_actions"], obs["x_batch"].tobytes(),
                         obs["z_batch"].tobytes(), obs["x_no_action"].tobytes(),
                         obs["z"].tobytes(), info.player_hand_cards, info.last_move,
                         info.num_cards_left_dict, info.bomb_num))
            obs, reward, done, _ = env.step(rnd.choice(obs["legal_actions"]))
        seen.append((reward, env.game.history))
    return seen


def test_douzero_reused_hand_equals_fresh_hands(monkeypatch):
    """One Env over many hands (each hand's game stepping on in the last one's buffers,
    renewed often here) sees exactly what a fresh Env per hand sees; so does GameEnv over
    its resets."""
    monkeypatch.setattr("fastdou.stepper.IDS_MAX", 600)     # many renewals, both paths
    renewals = []
    renew = Stepper._renew_ids
    monkeypatch.setattr(Stepper, "_renew_ids",
                        lambda self, n: renewals.append(n) or renew(self, n))
    one = DZ.Env("adp")
    assert _dz_hands(lambda k: one, 30, 5) == _dz_hands(lambda k: DZ.Env("adp"), 30, 5)
    assert len(renewals) > 10

    class First:
        def act(self, info):
            return info.legal_actions[-1]
    np.random.seed(6)
    deals = [DZ.random_deal() for _ in range(20)]
    reused = DZ.GameEnv({p: First() for p in DZ.POSITIONS})
    for deal in deals:
        fresh = DZ.GameEnv({p: First() for p in DZ.POSITIONS})
        for env in (reused, fresh):
            env.card_play_init(deal)
            while not env.game_over:
                env.step()
        assert (reused.get_winner(), reused.get_bomb_num()) == \
            (fresh.get_winner(), fresh.get_bomb_num())
        assert reused._hand.game.history == fresh._hand.game.history
        reused.reset()
        assert reused.game_infoset is None and not reused.game_over


def test_douzero_last_hands_game_outlives_the_next():
    """The next hand takes the last game's buffers, the ids after its last ones: the ids
    the last game handed out stay as they were, and it steps on in fresh buffers."""
    env = DZ.Env()
    np.random.seed(8)
    obs = env.reset()
    for _ in range(5):
        obs, _, _, _ = env.step(obs["legal_actions"][1])
    old = env.game
    ids = old.legal_action_ids()
    kept, state = ids.copy(), old.state
    for _ in range(3):
        obs, done = env.reset(), False
        while not done:
            obs, _, done, _ = env.step(obs["legal_actions"][-1])
    assert env.game is not old and (ids == kept).all()
    assert (old.state == state).all() and (old.legal_action_ids() == kept).all()
    ref = fastdou.Game.loads(old.dumps())
    a = int(kept[-1])
    old.play_id(a)
    ref.play_id(a)
    assert (old.state == ref.state).all()
    assert old.legal_action_ids().tolist() == ref.legal_action_ids().tolist()
    old.pop()
    assert (old.state == state).all()


def test_douzero_listing_that_does_not_fit_renews_the_buffer():
    """A hand's first listing (one compiled call applying nothing) past the ids buffer's
    end lists into a fresh buffer: the same actions as with room."""
    env = DZ.Env()
    np.random.seed(9)
    deal = DZ.random_deal()
    env.reset(deal)
    want = env.infoset.legal_actions, env.game.legal_action_ids().tolist()
    g = env.game
    g._ids_end = len(g._ids[0]) - 3
    buffer = g._ids[0]
    env.reset(deal)
    assert env.game._ids[0] is not buffer
    assert (env.infoset.legal_actions, env.game.legal_action_ids().tolist()) == want


def test_douzero_env_copies_step_on_alike():
    """A DouZero env pickled or deep-copied mid-hand (its game's memoryviews made again)
    plays on exactly as the original, and the copies' next hands too."""
    import copy
    import pickle
    env = DZ.Env("adp")
    np.random.seed(12)
    obs = env.reset()
    for _ in range(4):
        obs, _, _, _ = env.step(obs["legal_actions"][-1])
    envs = [env, copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for seed in range(2):
        done, seen = False, [[] for _ in envs]
        while not done:
            for e, log in zip(envs, seen):
                o = e._hand.obs()
                log.append((o["legal_actions"], o["x_batch"].tobytes(), e.game.history))
                _, reward, done, _ = e.step(o["legal_actions"][0])
                log.append(reward)
        assert seen[0] == seen[1] == seen[2]
        deal = DZ.random_deal()
        for e in envs:
            e.reset(deal)
