"""OpenSpiel's own clients over fastdou's adapter: evaluate_bots plays like OpenSpiel's
dou_dizhu (the landlord wins as often), MCTS runs, and the state calls those loops lean on
(clone, returns, apply_action and the history it keeps) mean what pyspiel's C++ base
class means by them."""

import math

import numpy as np
import pytest

import fastdou

pyspiel = pytest.importorskip("pyspiel")
from fastdou.adapters import openspiel as A  # noqa: E402  (registers the games)

evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots").evaluate_bots
UniformRandomBot = pytest.importorskip("open_spiel.python.bots.uniform_random").UniformRandomBot

GAMES = 2000          # games a win rate is measured over (both engines: about 10 s in all)


def _landlord_wins(name, n, seed):
    """Of ``n`` evaluate_bots games with seeded uniform random bots: the games with a
    landlord, and those it won. The landlord is the seat whose return is largest in size
    (it pays or takes two stakes, a farmer one); a hand nobody bid on returns zeros."""
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(seed)
    bots = [UniformRandomBot(p, np.random.RandomState(seed + 1 + p)) for p in range(3)]
    played = won = 0
    for _ in range(n):
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        if any(returns):
            landlord = int(np.argmax(np.abs(returns)))
            played += 1
            won += returns[landlord] > 0
    return played, won


@pytest.fixture(scope="module")
def dou_dizhu_wins():
    return _landlord_wins("dou_dizhu", GAMES, 1)


@pytest.mark.parametrize("name", ["python_fastdou_classic", "python_fastdou_classic_openspiel"])
def test_landlord_win_rate_agrees_with_dou_dizhu(name, dou_dizhu_wins):
    (n1, w1), (n2, w2) = dou_dizhu_wins, _landlord_wins(name, GAMES, 2)
    assert n2 == GAMES and n1 > 0.9 * GAMES       # fastdou redeals where all pass
    pooled = (w1 + w2) / (n1 + n2)
    z = abs(w1 / n1 - w2 / n2) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    assert z < 1.96, (w1 / n1, w2 / n2)           # within the 95% interval


MCTS_GAMES = 600      # MCTS games a win rate is compared over, on each engine


def _mcts_wins(name, n, seed):
    """Of ``n`` evaluate_bots games of ``MCTSBot`` (4 simulations, random rollouts) in seat 0
    against two seeded random bots: the games with a landlord, and those seat 0 won."""
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bots = [mcts.MCTSBot(game, 2, 4, evaluator, random_state=np.random.RandomState(seed + 1)),
            UniformRandomBot(1, np.random.RandomState(seed + 2)),
            UniformRandomBot(2, np.random.RandomState(seed + 3))]
    rng = np.random.RandomState(seed + 4)
    played = won = 0
    for _ in range(n):
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        assert sum(returns) == 0
        played += any(returns)
        won += returns[0] > 0
    return played, won


def test_mcts_wins_as_on_dou_dizhu():
    """OpenSpiel's MCTSBot in seat 0 wins as often on the adapter as on ``dou_dizhu``: its
    rate within the 95% interval (the deals differ: the adapter's chance nodes are not
    dou_dizhu's), over 600 games each."""
    (n1, w1), (n2, w2) = _mcts_wins("dou_dizhu", MCTS_GAMES, 1), \
        _mcts_wins("python_fastdou_classic", MCTS_GAMES, 2)
    assert n2 == MCTS_GAMES and n1 > 0.9 * MCTS_GAMES
    pooled = (w1 + w2) / (n1 + n2)
    z = abs(w1 / n1 - w2 / n2) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    print(f"MCTS seat 0 win rate: dou_dizhu {w1 / n1:.3f}, fastdou {w2 / n2:.3f}")
    assert z < 1.96, (w1 / n1, w2 / n2)


def _play(state, rng, stop=None):
    """Random actions (chance by its probabilities) until the end or ``stop`` actions."""
    k = 0
    while not state.is_terminal() and (stop is None or k < stop):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        k += 1
    return state


def _snapshot(state):
    g = state.fastdou_game
    return (str(state), state.history(), state.move_number(), state.current_player(),
            state.is_terminal(), state.returns(),
            state.chance_outcomes() if state.is_chance_node() else state.legal_actions(),
            None if g is None else (g.state.tolist(), g.dumps()))


CLONES = {"clone": lambda s: s.clone(), "c++ clone": lambda s: pyspiel.State.clone(s)}


@pytest.mark.parametrize("how", CLONES)
@pytest.mark.parametrize("name", ["python_fastdou_classic", "python_fastdou_five_player"])
def test_clone_is_independent(name, how, rng):
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    for stop in (0, 5, 20, 40, 80):      # while dealing, bidding and playing
        _play(state, rng, stop=stop)
        if state.is_terminal():
            break
        before = _snapshot(state)
        copy = CLONES[how](state)
        assert _snapshot(copy) == before
        _play(copy, rng)                  # the clone to its end
        assert copy.is_terminal() and _snapshot(state) == before
        child = state.child((state.chance_outcomes()[0][0] if state.is_chance_node()
                             else state.legal_actions()[0]))
        assert child.move_number() == state.move_number() + 1
        assert _snapshot(state) == before


@pytest.mark.parametrize("name", sorted(A.GAMES))
def test_returns_are_the_result_scores(name, rng):
    game = pyspiel.load_game(name)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.returns() == state.rewards() == [0.0] * game.num_players()
            _play(state, rng, stop=1)
        g = state.fastdou_game
        expect = [0.0] * game.num_players() if g is None else list(g.result().scores)
        assert state.returns() == state.rewards() == expect
        assert state.player_return(0) == expect[0]


def test_history_is_pyspiels(rng):
    """The history the state keeps when applying in Python is the one pyspiel's C++ keeps
    when it applies the same actions, and serializes alike."""
    game = pyspiel.load_game("python_fastdou_classic")
    state = _play(game.new_initial_state(), rng)
    actions = state.history()
    cpp = game.new_initial_state()
    for a in actions:
        pyspiel.State.apply_action(cpp, a)          # C++, which calls back into Python
    assert actions == pyspiel.State.history(cpp) == cpp.history()
    assert state.history_str() == pyspiel.State.history_str(cpp)
    assert state.move_number() == pyspiel.State.move_number(cpp) == len(actions)
    assert [(p.player, p.action) for p in state.full_history()] == \
        [(p.player, p.action) for p in pyspiel.State.full_history(cpp)]
    assert state.serialize() == pyspiel.State.serialize(cpp)
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.returns() == state.returns()
    assert pyspiel.State.history(back) == actions
    assert not state.is_initial_state() and game.new_initial_state().is_initial_state()


def test_legal_actions_as_pyspiel_gives_them():
    state = pyspiel.load_game("python_fastdou_classic").new_initial_state()
    assert state.legal_actions() == [a for a, _ in state.chance_outcomes()]
    assert state.legal_actions(1) == state.legal_actions()     # chance: any player's
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    assert state.legal_actions() == state.legal_actions(seat) == \
        pyspiel.State.legal_actions(state, seat) == sorted(state.legal_actions())
    assert state.legal_actions((seat + 1) % 3) == []
    with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
        state.legal_actions(-1)
    state.legal_actions().append(-5)                 # a copy: the state keeps its own
    assert -5 not in state.legal_actions()
    assert fastdou.action_table("classic").pass_id in state.legal_actions()


@pytest.mark.parametrize("name", ["python_fastdou_classic", "python_fastdou_five_player"])
def test_observations_as_pyspiel_gives_them(name, rng):
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    for stop in (3, 30, 30, 30):
        _play(state, rng, stop=stop)
        if state.is_terminal():
            break
        for seat in range(game.num_players()):
            tensor = state.observation_tensor(seat)
            assert tensor == pyspiel.State.observation_tensor(state, seat)
            assert state.observation_string(seat) == \
                pyspiel.State.observation_string(state, seat)
            tensor[0] = 7.0                           # a copy: the state keeps its own
            assert state.observation_tensor(seat)[0] != 7.0
        if not state.is_chance_node():
            assert state.observation_tensor() == state.observation_tensor(
                state.current_player())


def test_start_of_play_is_from_hands(rng):
    """The adapter starts play with Game._from_deal: the state and record
    Game.from_hands makes of the same deal."""
    for name in ("python_fastdou_classic", "python_fastdou_two_player",
                 "python_fastdou_five_player", "python_fastdou_emperor"):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        while state.fastdou_game is None:
            _play(state, rng, stop=1)
        g, start = state.fastdou_game, state.fastdou_game.record()["start"]
        ref = fastdou.Game.from_hands(start["hands"], game.rules, kitty=start["kitty"],
                                      first=start["first"], landlords=start.get("landlords"),
                                      marked=start.get("marked"))
        assert np.array_equal(ref.state, g.state) and ref.record() == g.record()


def test_deal_actions_refuses_what_is_no_deal():
    rules = fastdou.rules("classic")
    hands = [np.full(15, 1)] * 3
    with pytest.raises(fastdou.errors.InvalidCardsError, match="not a deal"):
        A.deal_actions(rules, hands, np.zeros(15, int))
