"""The OpenSpiel adapter's errors: an action it cannot apply raises what pyspiel
raises for one (``pyspiel.SpielError``, as OpenSpiel's own dou_dizhu does: "Cannot act in
terminal states"), which is also a fastdou error, and leaves the state as it was."""

import numpy as np
import pytest

from fastdou.errors import FastdouError, GameStateError, IllegalMoveError

pyspiel = pytest.importorskip("pyspiel")
from fastdou.adapters import openspiel as A  # noqa: E402  (registers the games)


def played_to_the_end(name, void=False):
    """A state of ``name`` played to its end: everyone passing until the hand is void, or
    the first legal action throughout (a bid, so a hand is played)."""
    state = pyspiel.load_game(name).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[0] if void else legal[-1])
    return state


def test_reference_dou_dizhu_refuses_acting_after_the_end():
    state = played_to_the_end("dou_dizhu")
    with pytest.raises(pyspiel.SpielError, match="terminal"):
        state.apply_action(0)


@pytest.mark.parametrize("void", [False, True], ids=["played", "void"])
def test_apply_action_after_the_end(void):
    state = played_to_the_end("python_fastdou_classic", void=void)
    before = str(state)
    for action in (0, 5):
        for apply in APPLY.values():
            with pytest.raises(pyspiel.SpielError, match="Cannot act in terminal states") as e:
                apply(state, action)
            assert isinstance(e.value, GameStateError)
    assert str(state) == before and state.is_terminal()


def _chance_state(name, nodes):
    state = pyspiel.load_game(name).new_initial_state()
    for _ in range(nodes):
        state.apply_action(state.chance_outcomes()[0][0])
    return state


# Either way an action reaches the state: its own apply_action (Python callers) or
# pyspiel's C++ base class calling back into it (C++ callers).
APPLY = {"python": lambda state, a: state.apply_action(a),
         "c++": lambda state, a: pyspiel.State.apply_action(state, a)}
SPLITS = A.compositions(4, 4)


@pytest.mark.parametrize("via", APPLY)
@pytest.mark.parametrize("name, nodes, action", [
    ("python_fastdou_classic", 0, 48),          # the jokers and who opens: 48 outcomes
    ("python_fastdou_classic", 0, 10 ** 6),
    ("python_fastdou_classic", 0, -2),
    ("python_fastdou_classic", 1, 35),          # a rank splits 35 ways
    ("python_fastdou_classic", 1, SPLITS.index((0, 0, 0, 4))),   # four in a kitty of 3
    ("python_fastdou_classic", 12, 99),
    ("python_fastdou_five_player", None, 10 ** 4),   # the marked card
    ("python_fastdou_five_player", None, -3),
])
def test_out_of_range_chance_actions(name, nodes, action, via):
    game = pyspiel.load_game(name)
    if nodes is None:                           # every card dealt: the marked-card node
        state = game.new_initial_state()
        while _dealing(state):
            state.apply_action(state.chance_outcomes()[0][0])
    else:
        state = _chance_state(name, nodes)
    assert state.is_chance_node()
    legal = [a for a, _ in state.chance_outcomes()]
    assert action not in legal
    before, history = str(state), state.history()
    with pytest.raises(pyspiel.SpielError, match="chance") as e:
        APPLY[via](state, action)
    assert isinstance(e.value, IllegalMoveError)
    assert str(state) == before and state.history() == history
    APPLY[via](state, legal[0])                 # still usable


def _dealing(state):
    return state._c.stage == A._DEALING


def test_chance_outcome_with_no_room_left():
    state = _chance_state("python_fastdou_classic", 1)
    for _ in range(4):
        state.apply_action(SPLITS.index((4, 0, 0, 0)))      # 3s to 6s to seat 0
    with pytest.raises(pyspiel.SpielError, match="seat 0 has room for 1 more") as e:
        state.apply_action(SPLITS.index((4, 0, 0, 0)))
    assert isinstance(e.value, FastdouError)
    state.apply_action(SPLITS.index((1, 1, 1, 1)))


def test_twin_node_refuses_out_of_range():
    game = pyspiel.load_game("python_fastdou_five_player")
    state = game.new_initial_state()
    while _dealing(state):
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.chance_outcomes()[0][0])          # the marked card
    legal = [a for a, _ in state.chance_outcomes()]
    for action in (game.num_players() + 1, -4):
        assert action not in legal
        with pytest.raises(pyspiel.SpielError, match="chance"):
            state.apply_action(action)
    state.apply_action(legal[0])
    assert not state.is_chance_node()


def test_illegal_player_action_is_a_spiel_error_too():
    state = _chance_state("python_fastdou_classic", 13)
    assert not state.is_chance_node()
    illegal = next(a for a in range(10 ** 4) if a not in state.legal_actions())
    for apply in APPLY.values():
        with pytest.raises(pyspiel.SpielError) as e:
            apply(state, illegal)
    assert isinstance(e.value, IllegalMoveError)
    before = np.array(state.legal_actions())
    assert (np.array(state.legal_actions()) == before).all()
