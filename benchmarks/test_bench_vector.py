"""fastdou.VectorEnv: env steps/s of random classic games (landlord fixed, straight into
play; fastdou encoding; the learner on every seat, so one step is one action of a game),
actions drawn by numpy from the flat legal ids with no Python loop over games; on 1 and 2
threads, side by side in the same run with the same kind of games stepped one action at a
time through fastdou.Game from Python, RLCard's doudizhu env and DouZero's env. Memory per game,
and a batch of 65,536 games.

    python -m pytest benchmarks/test_bench_vector.py [--quick] -s
"""

import tracemalloc

import numba
import numpy as np
import pytest

import fastdou
from benchmarks.loops import best_time
from fastdou.kernels import action_ids as KA
from fastdou.kernels import encoding as KE
from fastdou.kernels import engine as E
from fastdou.kernels import vector as KV
from fastdou.kernels.jit import leaf
from fastdou.kernels.layout import MAX_DECK, REC_WIDTH
from fastdou.rules import rules_array

RESULTS = {}


def random_actions(info, rng):
    """One uniformly random legal id per game, vectorised over the flat legal ids."""
    off = info["legal_offsets"]
    counts = np.diff(off)
    return info["legal_ids"][off[:-1] + (rng.random(len(counts)) * counts).astype(np.int64)]


def vector_steps(env, steps, rng):
    """Step ``env`` ``steps`` times with random legal actions; returns env steps."""
    info = env._info()
    for _ in range(steps):
        info = env.step(random_actions(info, rng))[4]
    return steps * env.num_envs


def vector_rate(num_envs, threads, steps, repeat=3):
    env = fastdou.VectorEnv("classic", num_envs, seed=0, start="play", threads=threads)
    env.reset()
    rng = np.random.default_rng(0)
    vector_steps(env, 3, rng)
    t, n = best_time(vector_steps, env, steps, rng, repeat=repeat)
    return n / t, env


def game_steps(games):
    """Random games stepped one id at a time through fastdou.Game, each step with the
    observation a learner reads (``Game.encode``), as VectorEnv gives it; returns steps."""
    rng = np.random.default_rng(0)
    out = np.empty(fastdou.VectorEnv("classic", 1).observation_size, np.int8)
    n = 0
    for d in range(games):
        g = fastdou.Game.new("classic", seed=0, deal=d, start="play")
        while not g.is_terminal():
            g.encode(g.current_player, out)
            ids = g.legal_action_ids()
            g.push_id(ids[int(rng.integers(len(ids)))])
            n += 1
    return n


def rlcard_steps(games):
    """Random games through RLCard's doudizhu env; returns steps."""
    import rlcard
    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = np.random.default_rng(0)
    n = 0
    for _ in range(games):
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.integers(len(legal)))])
            n += 1
    return n


def douzero_steps(games):
    """Random games through DouZero's own env (``douzero.env.env.Env``); returns steps."""
    from benchmarks.engines import ensure_tools
    ensure_tools()
    from douzero.env.env import Env
    env = Env("adp")
    rng = np.random.default_rng(0)
    n = 0
    for g in range(games):
        np.random.seed(g)
        env.reset()
        done = False
        while not done:
            legal = env.infoset.legal_actions
            _, _, done, _ = env.step(legal[int(rng.integers(len(legal)))])
            n += 1
    return n


def test_vector_env_steps(benchmark, quick):
    """Gates (side by side, this run): one thread over 4x fastdou.Game from Python (with
    Game.encode each step; measured 8-13x) and over 120x RLCard's env (measured 330-355x
    with --quick's 4,096 games, 224x with 16,384, whose rows spill the caches); two threads
    and per thread printed (not gated: the 2-thread ratio swings with the shared machine's
    load, measured 618-638x on an idle one). Idle OpenMP threads wait passively (``import
    fastdou`` sets OMP_WAIT_POLICY=passive unless it is set: spinning ones made two threads
    collapse on a busy machine); a step is one parallel region, so the sleeping thread is
    woken once a step."""
    num_envs, steps = (4096, 10) if quick else (16384, 30)
    env = fastdou.VectorEnv("classic", num_envs, seed=0, start="play", threads=1)
    env.reset()
    rng = np.random.default_rng(0)
    vector_steps(env, 3, rng)
    n = benchmark.pedantic(vector_steps, (env, steps, rng), rounds=3, warmup_rounds=0)
    one = n / benchmark.stats.stats.min
    two = vector_rate(num_envs, 2, steps)[0] if numba.config.NUMBA_NUM_THREADS >= 2 else None
    game_games, rl_games = (100, 30) if quick else (500, 150)
    game_steps(3)
    t, n_game = best_time(game_steps, game_games, repeat=2)
    game = n_game / t
    t, n_rl = best_time(rlcard_steps, rl_games, repeat=2)
    rl = n_rl / t
    t, n_dz = best_time(douzero_steps, rl_games, repeat=2)
    dz = n_dz / t
    info = {"vector_steps_per_s_1_thread": one, "game_steps_per_s": game,
            "rlcard_steps_per_s": rl, "douzero_steps_per_s": dz, "num_envs": num_envs}
    print(f"\nVectorEnv classic, {num_envs} games, random legal ids from numpy:"
          f"\n  1 thread:  {one:,.0f} env steps/s")
    if two is not None:
        info["vector_steps_per_s_2_threads"] = two
        print(f"  2 threads: {two:,.0f} env steps/s ({two / 2:,.0f} per thread, "
              f"{two / one:.2f}x one thread)")
    print(f"  fastdou.Game from Python: {game:,.0f} steps/s; VectorEnv 1 thread "
          f"{one / game:,.0f}x" + (f", 2 threads {two / game:,.0f}x" if two else ""))
    print(f"  RLCard doudizhu env: {rl:,.0f} steps/s; VectorEnv 1 thread {one / rl:,.0f}x"
          + (f", 2 threads {two / rl:,.0f}x (target 500x)" if two else ""))
    print(f"  DouZero env: {dz:,.0f} steps/s; VectorEnv 1 thread {one / dz:,.0f}x"
          + (f", 2 threads {two / dz:,.0f}x" if two else ""))
    benchmark.extra_info.update(info)
    RESULTS.update(info)
    assert one > 4 * game
    assert one > 120 * rl


# The parts alone, compiled as the step's own code is: without reference counting (leaf).
@leaf
def _legal_ids_all(states, rules, keys, key_ids, selection, records, ids):
    total = 0
    for i in range(states.shape[0]):
        total += KA.legal_ids(states[i], rules, keys, key_ids, selection, records, ids)
    return total


@leaf
def _legal_actions_all(states, rules, records):
    total = 0
    for i in range(states.shape[0]):
        total += E.legal_actions(states[i], rules, records)
    return total


@leaf
def _apply_all(states, rules, id_records, actions, deck):
    for i in range(states.shape[0]):
        a = actions[i]
        E.apply(states[i], rules, (id_records[a, 0], id_records[a, 1]), deck)


@leaf
def _copy(src, dst):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@numba.njit(cache=True)
def _no_encoding(state, rules, seat, out):
    pass


def test_where_a_step_goes(quick):
    """Where one env step's time goes, on one thread (ns per env step; printed, not gated):
    each part timed alone over the same batch of states, compiled as the step's code is
    (numpy's random choice, the fastdou encoding of every row, the legal ids: move
    generation then ids, applying the action, a step call's fixed cost from a one-game
    env, copying a state row), the encoding inside the step (the step less the same step
    with an encoder that writes nothing), and compiled random opponents on two seats."""
    num_envs, steps = 4096, (5 if quick else 20)
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        def make(**kw):
            env = fastdou.VectorEnv("classic", num_envs, seed=0, start="play", threads=1,
                                    **kw)
            env.reset()
            vector_steps(env, 5, rng)
            return env

        def per_env_step(env):
            return best_time(vector_steps, env, steps, rng, repeat=3)[0] / (steps * num_envs)

        rng = np.random.default_rng(0)
        env, bare = make(), make()
        bare._encode = _no_encoding        # (not fastdou's: called as a function argument)
        bare._functions = (bare._functions[0], KV.FunctionArg(_no_encoding,
                                                              KV.ENCODE_SIGNATURE))
        whole, without = per_env_step(env), per_env_step(bare)
        info = env._info()
        states, rules, t = env._states.copy(), rules_array(env.rules), env.table
        actions = random_actions(info, rng)
        seats, out = env._seats.copy(), np.empty_like(env.obs)

        def alone(fn, *args):
            fn(*args)
            return best_time(fn, *args, repeat=5)[0] / num_envs

        records, ids = np.empty((4096, REC_WIDTH), np.uint64), np.empty(4096, np.int64)
        deck, scratch = np.empty(MAX_DECK, np.int64), np.empty_like(states)
        moves = alone(_legal_actions_all, states, rules, records)
        copy = alone(_copy, states, scratch)
        parts = {
            "numpy random choice of ids": alone(random_actions, info, rng),
            "encoding (fastdou, 1434 int8)": alone(KE.encode_all, states, rules, seats, out),
            "legal ids: move generation": moves,
            "legal ids: ids of the moves": alone(_legal_ids_all, states, rules, t.keys,
                                                 t.key_ids, t.selection, records, ids) - moves,
            "apply the action": alone(lambda: (_copy(states, scratch),
                                               _apply_all(scratch, rules, t.id_records,
                                                          actions, deck))) - copy,
        }
        one = fastdou.VectorEnv("classic", 1, seed=0, start="play", threads=1)
        one.reset()
        vector_steps(one, 20, rng)
        call = best_time(vector_steps, one, 200, rng, repeat=3)[0] / 200
        parts["step call fixed cost (/4096)"] = call / num_envs
        learner = per_env_step(make(opponents="random"))
    finally:
        numba.set_num_threads(previous)
    print(f"\nOne env step, 1 thread, {num_envs} games: {whole * 1e9:,.0f} ns "
          f"({1 / whole:,.0f} steps/s); a step call costs {call * 1e6:,.1f} us")
    print("  each part alone:")
    for name, v in parts.items():
        print(f"    {name:32s} {v * 1e9:7.1f} ns  {100 * v / whole:5.1f}%")
    print(f"    the rest (deals, bookkeeping, each game's state row from memory) "
          f"{(whole - sum(parts.values())) * 1e9:,.1f} ns (copying a state row alone: "
          f"{copy * 1e9:,.1f} ns)")
    print(f"  the encoding inside the step: {(whole - without) * 1e9:,.0f} ns "
          f"({100 * (whole - without) / whole:.0f}%; the step without it "
          f"{without * 1e9:,.0f} ns)")
    print(f"  with random opponents on seats 1, 2: {learner * 1e9:,.0f} ns per learner step "
          f"({1 / learner:,.0f} learner steps/s)")


def test_memory_of_65536_games():
    """Gate: a batch of 65,536 games (built, reset and stepped) holds under 1 GB, counted
    by the env's arrays and by tracemalloc's peak (numpy allocations are traced)."""
    tracemalloc.start()
    env = fastdou.VectorEnv("classic", 65536, seed=0, start="play")
    env.reset()
    rng = np.random.default_rng(0)
    vector_steps(env, 5, rng)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    per_game = env.nbytes / env.num_envs
    print(f"\nVectorEnv classic: {per_game:,.0f} bytes per game in its arrays; 65,536 games: "
          f"{env.nbytes / 2**20:,.0f} MiB, traced peak {peak / 2**20:,.0f} MiB")
    assert env.nbytes < 2**30 and peak < 2**30


@pytest.mark.parametrize("encoding", ["douzero", "rlcard"])
def test_other_encodings(encoding, quick):
    """The DouZero and RLCard encodings on 1 and 2 threads (target: DouZero's at 200k
    steps/s on two threads); reported, not gated (absolute rates; see
    test_vector_env_steps for the gates)."""
    steps = 5 if quick else 20
    rates = []
    for threads in (1, 2):
        env = fastdou.VectorEnv("classic", 4096, seed=0, start="play", encoding=encoding,
                                threads=threads)
        env.reset()
        rng = np.random.default_rng(0)
        vector_steps(env, 3, rng)
        t, n = best_time(vector_steps, env, steps, rng, repeat=2)
        rates.append(n / t)
    print(f"\nVectorEnv classic, {encoding} encoding: {rates[0]:,.0f} env steps/s on 1 "
          f"thread, {rates[1]:,.0f} on 2")
