"""Game's by-id stepping path (legal_action_ids / push_id / play_id): the ids handed out
stay as they were whatever the game does next, and the rare paths (ids that do not fit
the buffer, a full log, refused ids) give what the slow path gives."""

import random

import numpy as np
import pytest

import fastdou
from tests.shared.rulesets import SLOW
from fastdou.errors import GameStateError, IllegalMoveError
from fastdou.kernels import action_ids as KA


def _play(game, rnd, kept):
    while not game.is_terminal():
        ids = game.legal_action_ids()
        kept.append((ids, ids.copy()))
        game.push_id(ids[rnd.randrange(len(ids))])


@pytest.mark.parametrize("preset", ["classic", "five_player", "two_player"])
def test_handed_out_ids_never_change(preset):
    rules = fastdou.rules(preset)
    rnd, kept = random.Random(3), []
    for deal in range(15):
        g = fastdou.Game.new(rules, seed=2, deal=deal)
        _play(g, rnd, kept)
        while len(g.history) > 3:                # undo and replay by Move: ids recomputed
            g.pop()
            kept.append((g.legal_action_ids(), g.legal_action_ids().copy()))
        _play(g, rnd, kept)
    for ids, copy in kept:
        assert not ids.flags.writeable
        np.testing.assert_array_equal(ids, copy)


def test_ids_equal_the_slow_path_through_renewals_and_log_growth():
    """Many positions per game object (undo and replay), so that the ids buffer renews
    and the log grows; every step's ids equal a fresh Game's on the same state, and the
    play phase's the table's ids of legal_actions()."""
    rules = fastdou.rules("classic")
    table = fastdou.action_table(rules)
    rnd = random.Random(5)
    g = fastdou.Game.new(rules, seed=4, deal=1)
    for _ in range(400):
        if g.is_terminal() or rnd.random() < 0.2 and g.history:
            g.pop()
        else:
            ids = g.legal_action_ids()
            assert ids.tolist() == fastdou.game.Game(rules, g.state, {}).legal_action_ids(
            ).tolist()
            if g.phase == "play":
                assert ids.tolist() == [table.id(a) for a in g.legal_actions()]
            g.push_id(int(ids[rnd.randrange(len(ids))]))
    g = fastdou.Game.new(rules, seed=4, deal=2)    # 300 passes in bidding: 100 redeals,
    for k in range(300):                           # the log grows twice
        assert g.phase == "bid"
        g.push_id(table.pass_id)
    assert len(g._log) > 300
    while not g.is_terminal():
        g.push_id(g.legal_action_ids()[-1])
    for k in range(len(g.history)):                # undo restores every logged state
        g.pop()
    assert (g.state == fastdou.Game.new(rules, seed=4, deal=2).state).all()


def test_refused_ids():
    rules = fastdou.rules("classic")
    g = fastdou.Game.new(rules, seed=1, deal=0)
    before = g.state
    for bad in (-1, 10 ** 30, fastdou.action_table(rules).size, 0):
        with pytest.raises(IllegalMoveError):
            g.push_id(bad)
    for bad in (True, 1.0, "0", None):
        with pytest.raises(IllegalMoveError):
            g.push_id(bad)
    assert (g.state == before).all()
    g.push_id(np.int32(g.legal_action_ids()[0]))
    g2 = fastdou.Game.new(rules, seed=1, deal=0, start="play")
    while not g2.is_terminal():
        g2.push_id(g2.legal_action_ids()[-1])
    with pytest.raises(GameStateError):
        g2.push_id(int(fastdou.action_table(rules).pass_id))


def test_push_id_on_a_state_of_another_layout():
    """A Game over a state array the compiled entry point was not made for (here a
    non-contiguous one) still steps right, through Numba's dispatcher."""
    rules = fastdou.rules("classic")
    ref = fastdou.Game.new(rules, seed=1, deal=2)
    wide = np.zeros((len(ref.state), 2), np.int64)
    wide[:, 0] = ref.state
    g = fastdou.game.Game(rules, wide[:, 0], {})
    while not ref.is_terminal():
        ids = ref.legal_action_ids()
        assert g.legal_action_ids().tolist() == ids.tolist()
        ref.push_id(ids[-1])
        g.push_id(ids[-1])
    assert g.is_terminal() and g.scores == ref.scores
    assert g._step is KA.step_ids


_LEAF_FIRST = """
import numpy as np, fastdou
from fastdou.adapters import douzero as DZ
env = DZ.Env("adp"); np.random.seed(0); obs = env.reset(); done = False
while not done:
    obs, _, done, _ = env.step(obs["legal_actions"][-1])
g = fastdou.Game.new("classic", seed=1, deal=0)
for _ in range(300):                  # passes: redeals, the engine's deck buffer
    g.push_id(g.action_table.pass_id)
print("ok")
"""


@pytest.mark.skipif(not SLOW, reason="compiles the engine from an empty cache (FASTDOU_SLOW=1)")
def test_leaf_stepping_path_compiles_first_from_an_empty_cache(tmp_path):
    """The stepping path's leaves (no reference counting) compiled before anything else,
    as on a clean machine: Numba passes their flag down to what they call, so they reach
    the engine (which allocates on a redeal) only through ``KA.nrt_kernel`` wrappers."""
    import os
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-c", _LEAF_FIRST], capture_output=True, text=True,
                          timeout=1500, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]
