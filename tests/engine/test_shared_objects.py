"""Objects fastdou hands out and objects shared between threads: the arrays the
engine reads back are read-only, a Game or VectorEnv used from two threads at once raises
instead of crashing or corrupting, VectorEnv checks its memory before allocating and can be
closed. Every crash case runs in a subprocess: a negative exit status (a signal) fails."""

import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

from fastdou import Game, VectorEnv
from fastdou.errors import FastdouError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(code: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter; fails on a crash (negative exit status)."""
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode >= 0, f"crashed with signal {-p.returncode}:\n{p.stderr[-2000:]}"
    return p


def first_ids(info):
    off = info["legal_offsets"]
    return info["legal_ids"][off[:-1]]


# ----------------------------------------------------------------- read-only arrays
def test_writing_info_seat_cannot_crash_the_interpreter():
    p = run("""
        import numpy as np, fastdou
        env = fastdou.VectorEnv("classic", num_envs=64, seed=0, start="play")
        obs, info = env.reset()
        refused = 0
        for _ in range(200):
            try:
                info["seat"][:] = 10 ** 6
            except ValueError:
                refused += 1
            off = info["legal_offsets"]
            info = env.step(info["legal_ids"][off[:-1]])[4]
        print("refused", refused)
        """)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "refused 200" in p.stdout


def test_incrementing_info_seat_is_refused_and_rewards_unchanged():
    def play(poke):
        env = VectorEnv("classic", num_envs=16, seed=3, start="play")
        _, info = env.reset()
        total = np.zeros(16)
        for _ in range(60):
            if poke:
                with pytest.raises(ValueError, match="read-only"):
                    info["seat"] += 1
            _, rewards, _, _, info = env.step(first_ids(info))
            total += rewards
        return total
    assert (play(True) == play(False)).all()


def test_arrays_handed_out_are_read_only():
    env = VectorEnv("classic", num_envs=4, seed=0, start="play")
    obs, info = env.reset()
    out = env.step(first_ids(info))
    arrays = [obs, *out[:4], *(v for v in out[4].values())]
    for a in arrays:
        assert isinstance(a, np.ndarray) and not a.flags.writeable
    assert not env.action_mask().flags.writeable
    assert env.state(0).flags.writeable              # a copy: the caller's to change


def test_game_views_are_read_only_or_copies():
    g = Game.new("classic", seed=0, deal=1, start="play")
    assert not g.legal_action_ids().flags.writeable
    o = g.observation(0)
    for name in ("hand", "kitty"):
        a = getattr(o, name)
        if isinstance(a, np.ndarray):
            a[:] = 0                                  # a copy: the game is unchanged
    assert g.perfect_information_hand(0).sum() == 20
    g.state[:] = 0
    assert g.perfect_information_hand(0).sum() == 20


# ----------------------------------------------------------------- two threads at once
def _busy(monkeypatch, obj, method_owner, name):
    """Make ``name`` (a function of ``method_owner`` the call goes through) block until
    released; returns (entered, release)."""
    entered, release = threading.Event(), threading.Event()
    original = getattr(method_owner, name)

    def blocking(*args, **kwargs):
        entered.set()
        release.wait(30)
        return original(*args, **kwargs)
    monkeypatch.setattr(method_owner, name, blocking)
    return entered, release


def _while_busy(entered, release, call, other):
    """Run ``call`` on a thread; once it is inside the object, ``other()`` here."""
    errors = []

    def target():
        try:
            call()
        except BaseException as e:     # noqa: BLE001 - reported below
            errors.append(e)
    t = threading.Thread(target=target)
    t.start()
    assert entered.wait(30)
    try:
        with pytest.raises(FastdouError, match="two threads at once"):
            other()
    finally:
        release.set()
        t.join(30)
    assert not errors, errors


def test_vector_env_refuses_a_second_thread(monkeypatch):
    env = VectorEnv("classic", num_envs=8, seed=0, start="play")
    _, info = env.reset()
    actions = first_ids(info).copy()
    entered, release = _busy(monkeypatch, env, env, "_advance")
    _while_busy(entered, release, lambda: env.step(actions), env.action_mask)
    monkeypatch.undo()
    _, info = env.reset()                          # the first call finished: usable again
    env.step(first_ids(info))


def test_game_refuses_a_second_thread(monkeypatch):
    from fastdou.kernels import action_ids as KA
    g = Game.new("classic", seed=0, deal=2, start="play")
    ids = g.legal_action_ids()
    entered, release = _busy(monkeypatch, g, KA, "legal_ids")
    g2 = Game.new("classic", seed=0, deal=2, start="play")
    g2._n_ids = -1
    _while_busy(entered, release, lambda: g2.play_id(int(ids[0])), lambda: g2.pop())


def test_vector_env_stepped_from_two_threads_does_not_crash():
    """Two threads stepping one env from the bidding on, resetting when refused: without
    the guard this segfaults or aborts in most runs (and raises IndexError otherwise)."""
    p = run("""
        import sys, threading, numpy as np, fastdou
        from fastdou.errors import FastdouError
        sys.setswitchinterval(1e-6)          # switch threads as often as possible
        bad = []
        def work(env, seed):
            rng = np.random.default_rng(seed)
            refused = 0
            for _ in range(3000):
                try:
                    off, ids = env._offsets.copy(), env._flat   # racy reads: ids may be stale
                    pick = off[:-1] + (rng.random(len(off) - 1) * np.diff(off)).astype(int)
                    env.step(ids[np.minimum(pick, len(ids) - 1)])
                    if rng.random() < 0.5:
                        env.action_mask()
                except FastdouError as e:
                    if "two threads" not in str(e) and "not a legal" not in str(e):
                        bad.append(repr(e))
                    refused += 1
                    if refused % 3 == 0:
                        try:
                            env.reset()
                        except FastdouError as e:
                            if "two threads" not in str(e):
                                bad.append(repr(e))
                except Exception as e:
                    bad.append(repr(e))
        for seed in range(4):
            env = fastdou.VectorEnv("classic", num_envs=256, seed=seed, start="bidding")
            env.reset()
            ts = [threading.Thread(target=work, args=(env, s)) for s in range(2)]
            [t.start() for t in ts]; [t.join() for t in ts]
        print("bad", bad[:3])
        """)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "bad []" in p.stdout


def test_game_played_and_popped_from_two_threads_stays_consistent():
    """Four threads each playing random legal ids and popping at random, on four games: errors
    are fine, but each game stays whole (without the guard: a negative packed hand, a record
    that no longer replays, in every run)."""
    p = run("""
        import sys, threading, numpy as np, fastdou
        from fastdou.errors import FastdouError
        from fastdou.kernels import state as S
        sys.setswitchinterval(1e-6)          # switch threads as often as possible
        bad = []
        def player(g, seed):
            rng = np.random.default_rng(seed)
            for _ in range(8000):
                try:
                    if g.is_terminal() or rng.random() < 0.3:
                        g.pop()
                        continue
                    ids = g.legal_action_ids()
                    if len(ids) == 0:            # ended by another thread meanwhile
                        continue
                    g.play_id(int(ids[int(rng.integers(len(ids)))]))
                except FastdouError:             # refused (stale ids, other thread): fine
                    pass
                except Exception as e:
                    bad.append(repr(e))
        for deal, start in enumerate(["play", "bidding", "play", "bidding"]):
            g = fastdou.Game.new("classic", seed=0, deal=deal, start=start)
            ts = [threading.Thread(target=player, args=(g, s)) for s in range(4)]
            [t.start() for t in ts]; [t.join() for t in ts]
            try:
                hands = [int(g._state[S.G_HANDS + s]) for s in range(3)]
                if min(hands) < 0:
                    bad.append(f"deal {deal}: negative hand {hands}")
                if not (fastdou.Game.loads(g.dumps()).state == g.state).all():
                    bad.append(f"deal {deal}: the record replays to another state")
            except Exception as e:
                bad.append(f"deal {deal}: {e!r}")
        print("bad", bad[:3])
        """)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "bad []" in p.stdout


# ----------------------------------------------------------------- memory and close
def test_vector_env_checks_memory_before_allocating(monkeypatch):
    monkeypatch.setattr("fastdou.memory.available", lambda: 10 ** 6)
    with pytest.raises(FastdouError, match=r"needs \d+\.\d [MG]B.*available"):
        VectorEnv("classic", num_envs=1000)


def test_ten_million_games_refused_with_the_figure(monkeypatch):
    monkeypatch.setattr("fastdou.memory.available", lambda: 20 * 10 ** 9)
    with pytest.raises(FastdouError, match=r"num_envs=10,000,000\) needs \d+\.\d GB, "
                                           r"20\.0 GB available"):
        VectorEnv("classic", num_envs=10 ** 7)


def test_action_mask_checks_memory(monkeypatch):
    env = VectorEnv("classic", num_envs=64, seed=0, start="play")
    env.reset()
    monkeypatch.setattr("fastdou.memory.available", lambda: 10 ** 5)
    with pytest.raises(FastdouError, match="needs"):
        env.action_mask()


def test_close_frees_and_later_calls_raise():
    env = VectorEnv("classic", num_envs=32, seed=0, start="play")
    obs, info = env.reset()
    held = obs.copy()
    env.close()
    assert env.nbytes < 100                        # the per-seat codes are all that is left
    for call in (env.reset, lambda: env.step(first_ids(info)), env.action_mask,
                 lambda: env.state(0)):
        with pytest.raises(FastdouError, match="closed"):
            call()
    env.close()                                    # closing twice is harmless
    assert (obs == held).all()                     # arrays handed out stay readable


def test_context_manager_closes():
    with VectorEnv("classic", num_envs=4, seed=0, start="play") as env:
        env.reset()
    with pytest.raises(FastdouError, match="closed"):
        env.reset()


def test_game_copies_and_pickles():
    import copy
    import pickle
    g = Game.new("classic", seed=0, deal=1, start="play")
    g.push_id(int(g.legal_action_ids()[0]))
    for h in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert (h.state == g.state).all() and h.history == g.history
        h.pop()
    assert len(g.history) == 1
