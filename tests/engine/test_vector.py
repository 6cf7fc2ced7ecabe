"""fastdou.VectorEnv against fastdou.Game: every game of a batch is the same game stepped one
action at a time through Game (observations, legal ids, seats, rewards, ends), for every
preset; determinism over threads and batch sizes; illegal ids; autoreset records; the
compiled opponents replayed in Python with the same policies and random streams."""

import os
import subprocess
import sys

import numba
import numpy as np
import pytest
from numba import njit

import fastdou
from fastdou import Game, VectorEnv
from fastdou.game import legal_records_into
from fastdou.kernels import play as P
from fastdou.kernels import policies as KP
from fastdou.kernels import state as S
from fastdou.kernels.layout import REC_WIDTH
from fastdou.rules import rules_array
from tests.shared.players import wild_expert

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def choose(info, step, num_envs):
    """A deterministic pick from every game's legal ids, a function of (slot, step)."""
    off = info["legal_offsets"]
    counts = np.diff(off)
    assert (counts > 0).all()
    k = (np.arange(num_envs) * 7 + step * 13 + (np.arange(num_envs) * step) % 5) % counts
    return info["legal_ids"][off[:-1] + k].copy()


class Mirror:
    """The games of one VectorEnv replayed through fastdou.Game, policy seats included."""

    def __init__(self, env, start, policies):
        self.env, self.start, self.policies = env, start, policies
        self.games = [None] * env.num_envs
        self.rngs = [None] * env.num_envs
        self.actions = [[] for _ in range(env.num_envs)]   # every action of the game

    def deal(self, i, deal):
        g = Game.new(self.env.rules, seed=self.env.seed, deal=int(deal), start=self.start)
        self.games[i], self.rngs[i], self.actions[i] = g, P.policy_stream(
            self.env.seed, int(deal)), []
        self.play_policies(i)

    def play_policies(self, i):
        g = self.games[i]
        while not g.is_terminal() and self.policies[g.current_player] is not None:
            records = np.empty((4096, REC_WIDTH), np.uint64)
            n = legal_records_into(g._state, rules_array(g.rules, wild=True), records,
                                   bool(g.rules.wilds))
            fn = self.policies[g.current_player]
            k, rng = fn(g.state, records[:n], n, np.uint64(self.rngs[i]))
            self.rngs[i] = np.uint64(rng)
            a = int(g.legal_action_ids()[k])
            g.play_id(a)
            self.actions[i].append(a)

    def play(self, i, a):
        self.games[i].play_id(int(a))
        self.actions[i].append(int(a))
        self.play_policies(i)


def assert_same(env, mirror, obs, info):
    off = info["legal_offsets"]
    for i, g in enumerate(mirror.games):
        assert not g.is_terminal()
        seat = g.current_player
        assert info["seat"][i] == seat
        assert env.learner_seats.count(seat) == 1
        np.testing.assert_array_equal(obs[i], g.encode(seat))
        np.testing.assert_array_equal(info["legal_ids"][off[i]:off[i + 1]],
                                      g.legal_action_ids())


def run_against_game(rules, start, steps, num_envs=4, opponents=None, policies=None,
                     seed=3, threads=None):
    env = VectorEnv(rules, num_envs, seed=seed, start=start, opponents=opponents,
                    threads=threads)
    mirror = Mirror(env, start, policies or [None] * env.rules.players)
    obs, info = env.reset()
    for i in range(num_envs):
        assert info["deal"][i] == i            # game 0 of slot i: deal 0 * 2**32 + i
        mirror.deal(i, info["deal"][i])
    assert_same(env, mirror, obs, info)
    ended = 0
    for step in range(steps):
        actions = choose(info, step, num_envs)
        acting = info["seat"].copy()
        before = info["deal"].copy()
        obs, rewards, term, trunc, info = env.step(actions)
        assert not trunc.any()
        for i, g in enumerate(mirror.games):
            mirror.play(i, actions[i])
            if g.is_terminal():
                ended += 1
                res = g.result()
                assert term[i] and info["_final_obs"][i]
                assert rewards[i] == res.scores[acting[i]]
                np.testing.assert_array_equal(info["final_scores"][i], res.scores)
                np.testing.assert_array_equal(info["final_obs"][i], g.encode(acting[i]))
                assert info["final_deal"][i] == before[i]
                assert info["deal"][i] == before[i] + (1 << 32)   # the slot's next game
                # the record is whole: its actions replay to the same end from the deal
                replay = Game.new(rules, seed=seed, deal=int(before[i]), start=start)
                for a in mirror.actions[i]:
                    replay.play_id(a)
                assert replay.is_terminal() and replay.result().scores == res.scores
                mirror.deal(i, info["deal"][i])
            else:
                assert not term[i] and rewards[i] == 0
                assert info["deal"][i] == before[i]
        assert_same(env, mirror, obs, info)
    return ended


@pytest.mark.parametrize("start", ["bidding", "play"])
@pytest.mark.parametrize("preset", list(fastdou.PRESETS))
def test_every_game_equals_game(preset, start):
    """Learner on every seat: each step of each game equals Game stepped by the same ids."""
    ended = run_against_game(preset, start, steps=60 * fastdou.rules(preset).players)
    assert ended >= 3


@pytest.mark.parametrize("start", ["bidding", "play"])
def test_wild_games_equal_game(start):
    """laizi: under each game's drawn wild rank, the wild ids, encodings, rewards and
    records equal Game's, the env's random seats included."""
    assert run_against_game("laizi", start, steps=150, num_envs=5, opponents="random",
                            policies=[None, KP.random_policy, KP.random_policy]) >= 3
    env = VectorEnv("laizi", 2, start="play")
    env.reset()
    t = env.table
    stood = t.offsets[t.classic.id(fastdou.Move.parse("3"))] + 1   # a wild card as a 3, alone
    with pytest.raises(fastdou.IllegalMoveError, match="game 0: id .* is no move when . is wild"):
        env.step(np.array([stood, t.pass_id]))
    with pytest.raises(fastdou.RulesError, match="one wild rank"):
        VectorEnv(fastdou.rules("laizi", wilds=2), 2)
    with pytest.raises(fastdou.ArgumentError, match="douzero encoding is for classic, not laizi"):
        VectorEnv("laizi", 2, encoding="douzero")


def test_wild_games_with_expert_opponents():
    """laizi with the expert in the other seats (its wild-card version inside the loop)."""
    assert run_against_game("laizi", "play", steps=40, num_envs=3,
                            opponents=[None, "expert", "expert"],
                            policies=[None, wild_expert, wild_expert]) >= 1


def test_openspiel_and_douzero_profiles():
    for profile in ("openspiel", "douzero"):
        assert run_against_game(fastdou.rules("classic", profile=profile), "play", 120) >= 2


@njit
def last_listed(state, actions, n, rng):
    return n - 1, rng


@pytest.mark.parametrize("start", ["bidding", "play"])
@pytest.mark.parametrize("opponents,policies", [
    ("random", [None, KP.random_policy, KP.random_policy]),
    ([None, "greedy", None], [None, KP.greedy_policy, None]),
    (["random", last_listed, None], [KP.random_policy, last_listed, None]),
])
def test_opponents_inside_the_loop(opponents, policies, start):
    """Policy seats play in compiled code exactly as the same policies, drawing from
    policy_stream(seed, deal), play the mirrored Game; the caller sees only its seats."""
    assert run_against_game("classic", start, steps=120, num_envs=5, opponents=opponents,
                            policies=policies) >= 3


def test_opponents_in_other_presets():
    for preset in ("five_player", "two_player", "jinling"):
        n = fastdou.rules(preset).players
        pols = [None] + [KP.random_policy] * (n - 1)
        assert run_against_game(preset, "bidding", 100, num_envs=3, opponents="random",
                                policies=pols) >= 1


def test_a_policy_seat_with_more_actions_than_the_buffer():
    """emperor's landlord often leads with more actions than the step's first buffer holds
    (``play.ACTIONS_CAPACITY``): a policy on that seat makes the compiled step stop, grow the
    buffer and go on where it stopped; the games stay those of Game."""
    n = fastdou.rules("emperor").players
    big = [len(Game.new("emperor", seed=3, deal=d, start="play").legal_action_ids())
           for d in range(4)]
    assert max(big) > P.ACTIONS_CAPACITY
    run_against_game("emperor", "play", 30, num_envs=4, opponents=["random"] + [None] * (n - 1),
                     policies=[KP.random_policy] + [None] * (n - 1))


def test_encoded_rows_stay_in_their_row():
    """The encoder writes its row only (four-card ranks go out as 4-byte words): the bytes
    around a row keep their sentinels, for every preset."""
    from fastdou.kernels import encoding as KE
    for preset in fastdou.PRESETS:
        g = Game.new(preset, seed=1, deal=2, start="play")
        array = rules_array(g.rules, wild=True)
        size = int(KE.encoding_size(array))
        for _ in range(3):
            buf = np.full(size + 16, 7, np.int8)
            KE.encode(g._state, array, g.current_player, buf[8:8 + size])
            assert (buf[:8] == 7).all() and (buf[8 + size:] == 7).all()
            np.testing.assert_array_equal(buf[8:8 + size], g.encode(g.current_player))
            g.play_id(int(g.legal_action_ids()[-1]))


def trajectory(num_envs, threads, steps=120, slots=3, seed=11, opponents="random"):
    env = VectorEnv("classic", num_envs, seed=seed, threads=threads, opponents=opponents)
    obs, info = env.reset()
    out = []
    for step in range(steps):
        off = info["legal_offsets"]
        rows = [(obs[i].copy(), info["legal_ids"][off[i]:off[i + 1]].copy(),
                 int(info["deal"][i])) for i in range(slots)]
        out.append(rows)
        actions = choose(info, step % 3, num_envs)     # slot i's pick: f(i, step)
        obs, rewards, term, _, info = env.step(actions)
        out.append([(rewards[i], term[i]) for i in range(slots)])
    return out


def assert_trajectories_equal(a, b):
    assert len(a) == len(b)
    for ra, rb in zip(a, b):
        for x, y in zip(ra, rb):
            for u, v in zip(x, y):
                np.testing.assert_array_equal(u, v)


def test_deterministic_across_threads_and_batch_sizes():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 Numba threads")
    base = trajectory(70, 1)                  # three blocks of games
    assert_trajectories_equal(base, trajectory(70, 2))
    assert_trajectories_equal(base, trajectory(3, 1))
    assert_trajectories_equal(base, trajectory(200, 2))
    assert any(any(t for _, t in row) for row in base[1::2])     # some games ended


def test_reset_seeds():
    env = VectorEnv("classic", 6, seed=5, start="play")
    obs, info = env.reset()
    first = obs.copy()
    np.testing.assert_array_equal(info["deal"], np.arange(6))
    obs, info = env.reset()                       # every slot's next game
    np.testing.assert_array_equal(info["deal"], (1 << 32) + np.arange(6))
    assert not (obs == first).all()
    obs, info = env.reset(seed=5)
    np.testing.assert_array_equal(obs, first)
    np.testing.assert_array_equal(info["deal"], np.arange(6))
    np.testing.assert_array_equal(env.reset(seed=6)[0][0], Game.new(
        seed=6, deal=0, start="play").encode(0))


def test_illegal_ids_are_rejected_and_change_nothing():
    env = VectorEnv("classic", 4, seed=1, start="play")
    obs, info = env.reset()
    actions = info["legal_ids"][info["legal_offsets"][:-1]].copy()
    states = env._states.copy()
    bad = actions.copy()
    bad[2] = env.table.pass_id                  # the landlord leads: it may not pass
    with pytest.raises(fastdou.IllegalMoveError, match=f"game 2: id {env.table.pass_id}"):
        env.step(bad)
    np.testing.assert_array_equal(env._states, states)
    bad[2] = env.table.size + 5
    with pytest.raises(fastdou.IllegalMoveError, match="game 2: id .* not an action id"):
        env.step(bad)
    g = Game.new(seed=1, deal=2, start="play")
    held = set(g.legal_action_ids())
    not_held = next(a for a in range(env.table.n_plays) if a not in held)
    bad[2] = not_held
    with pytest.raises(fastdou.IllegalMoveError, match=f"game 2: id {not_held}"):
        env.step(bad)
    with pytest.raises(fastdou.ArgumentError):
        env.step(actions.astype(float))
    with pytest.raises(fastdou.ArgumentError):
        env.step(actions[:3])
    np.testing.assert_array_equal(env._states, states)
    env.step(actions)                          # the legal ones still go through


def test_check_false_is_push_id():
    """check=False: what Game.push_id accepts (a pass when leading) goes through, what it
    refuses (cards not held) is refused."""
    env = VectorEnv("classic", 2, seed=1, start="play", check=False)
    obs, info = env.reset()
    g = Game.new(seed=1, deal=1, start="play")
    actions = np.array([info["legal_ids"][0], env.table.pass_id])
    obs, *_ , info = env.step(actions)
    g.push_id(env.table.pass_id)
    np.testing.assert_array_equal(obs[1], g.encode(g.current_player))
    held = set(g.legal_action_ids()) | {env.table.pass_id}
    hand = np.uint64(g._state[S.G_HANDS + g.current_player])
    from fastdou.kernels.packing import contains
    not_held = next(a for a in range(env.table.n_plays)
                    if not contains(hand, env.table.id_records[a, 0]))
    with pytest.raises(fastdou.IllegalMoveError, match=f"game 1: id {not_held}"):
        env.step(np.array([info["legal_ids"][0], not_held]))
    assert held


def test_action_mask():
    env = VectorEnv("classic", 5, seed=2)
    obs, info = env.reset()
    for step in range(30):
        obs, _, _, _, info = env.step(choose(info, step, 5))
    mask = env.action_mask()
    assert mask.shape == (5, env.table.size)
    off = info["legal_offsets"]
    for i in range(5):
        expected = np.zeros(env.table.size, bool)
        expected[info["legal_ids"][off[i]:off[i + 1]]] = True
        np.testing.assert_array_equal(mask[i], expected)


def test_threads_setting_does_not_leak():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 Numba threads")
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        env = VectorEnv("classic", 8, threads=2)
        _, info = env.reset()
        env.step(choose(info, 0, 8))
        assert numba.get_num_threads() == 1
    finally:
        numba.set_num_threads(previous)


def test_encodings_hook():
    with pytest.raises(fastdou.ArgumentError, match="encoding is one of"):
        VectorEnv("classic", 2, encoding="nope")
    with pytest.raises(fastdou.ArgumentError, match="for classic"):
        VectorEnv("two_player", 2, encoding="douzero")
    with pytest.raises(fastdou.ArgumentError, match="start='play'"):
        VectorEnv("classic", 2, encoding="rlcard")


def _douzero_row(state, seat):
    from fastdou.kernels import douzero_encoding as DE
    _, _, _, x, z = DE.observe_records(state, np.zeros((0, 2), np.uint64))
    row = np.zeros(DE.VECTOR_SIZE, np.int8)
    row[:len(x)] = x
    row[DE.X_FARMER - DE.CARD_FEATURES:] = z.reshape(-1)
    return row


def _rlcard_row(state, seat):
    from fastdou.kernels import rlcard_encoding as RE
    obs = RE.encode(state, seat, 0)
    return np.concatenate([obs, np.zeros(RE.FARMER_SIZE - len(obs), np.int8)])


@pytest.mark.parametrize("name,start,expected", [
    ("douzero", "play", _douzero_row), ("douzero", "bidding", _douzero_row),
    ("rlcard", "play", _rlcard_row)])
def test_douzero_and_rlcard_rows_are_their_encoders(name, start, expected):
    """Each row equals the adapters' per-game encoders (each checked against the real
    package in its own tests) on the same state."""
    env = VectorEnv("classic", 12, encoding=name, start=start, seed=4)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(150):
        lo, ids = info["legal_offsets"], info["legal_ids"]
        actions = np.array([ids[lo[i] + rng.integers(lo[i + 1] - lo[i])] for i in range(12)])
        obs, _, _, _, info = env.step(actions)
        for i in range(12):
            state = env.state(i)
            if state[S.G_PHASE] == S.PH_PLAY:
                assert np.array_equal(obs[i], expected(state, int(info["seat"][i])))
                checked += 1
    assert checked > 1000


def test_bad_arguments():
    for kwargs in ({"num_envs": 0}, {"start": "end"}, {"threads": 0}, {"check": 1},
                   {"seed": -1}):
        with pytest.raises(fastdou.ArgumentError):
            VectorEnv("classic", **{"num_envs": 2, **kwargs})
    for opponents in (["random"] * 3, ["random"], "nobody", 5):
        with pytest.raises(fastdou.PolicyError):
            VectorEnv("classic", 2, opponents=opponents)
    with pytest.raises(fastdou.GameStateError):
        VectorEnv("classic", 2).step(np.zeros(2, np.int64))


@njit
def out_of_range(state, actions, n, rng):
    return n, rng


def test_a_bad_policy_is_named():
    env = VectorEnv("classic", 3, opponents=[None, out_of_range, out_of_range])
    with pytest.raises(fastdou.PolicyError, match=r"game \d+: a policy raised or returned an index outside"):
        env.reset()


def test_memory_per_game():
    env = VectorEnv("classic", 64)
    env.reset()
    assert env.nbytes / 64 < 8_000           # 65,536 games in well under 1 GB


def test_numpy_agent_example_runs():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples",
                                                      "train_numpy_agent.py"),
                          "--envs", "64", "--updates", "3", "--eval-games", "200"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "win rate" in out.stdout


def test_torch_example_without_torch_says_so():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "torch_learner.py"),
                          "--envs", "32", "--updates", "2"],
                         capture_output=True, text=True, timeout=600)
    try:
        import torch  # noqa: F401
    except ImportError:
        assert out.returncode != 0 and "torch" in out.stderr and "Traceback" not in out.stderr
    else:
        assert out.returncode == 0, out.stderr


def test_a_function_without_a_first_class_wrapper_is_refused():
    """FunctionArg refuses a function compiled without the C wrapper that a first-class call
    goes through (``kernels/jit.py``) instead of handing compiled code a null address; the
    policies and encoders fastdou passes that way have it."""
    from fastdou.kernels import encoding as KE
    from fastdou.kernels import vector as KV

    @njit(no_cfunc_wrapper=True)
    def encode(state, rules, seat, out):
        out[0] = seat

    with pytest.raises(ValueError, match="first-class"):
        KV.FunctionArg(encode, KV.ENCODE_SIGNATURE)
    for fn, signature in ((P.no_user_policy, P.POLICY_SIGNATURE),
                          (KP.random_policy, P.POLICY_SIGNATURE),
                          (KP.greedy_policy, P.POLICY_SIGNATURE),
                          (KE.encode, KV.ENCODE_SIGNATURE)):
        fn.compile(signature)
        assert KV.FunctionArg(fn, signature).__wrapper_address__() > 0
