"""Train a small Dou Dizhu agent with numpy only, on fastdou.VectorEnv.

The agent plays the landlord (seat 0, ``start="play"``: it takes the kitty and leads)
against two random farmers, which fastdou plays inside its compiled loop: the agent only
sees its own turns. The policy is a linear softmax over the legal actions, the score of
action ``a`` being ``phi(a) @ W @ ctx(obs)``: ``phi`` the action's cards, kind, size and
pass flag; ``ctx`` a few numbers read off fastdou's encoding (cards left, leading or not).
It learns by REINFORCE (return: +1 for a win, -1 for a loss, less a running baseline),
with every step vectorised over the batch of games: no Python loop over games.

    python examples/train_numpy_agent.py            # well under a minute once compiled
    python examples/train_numpy_agent.py --envs 1024 --updates 200
"""

import argparse
import time

import numpy as np

import fastdou
from fastdou.kernels import encoding as KE
from fastdou.kernels.layout import INFO_FIELD_MASK, N_KINDS, N_RANKS


def action_features(table) -> np.ndarray:
    """``phi`` of every action id: (table.size, 15 + N_KINDS + 2) float32."""
    cards = table.id_records[:, 0]
    info = table.id_records[:, 1].copy()
    info[info == np.uint64(0xFFFFFFFF)] = 0            # reserved ids: never legal
    counts = (cards[:, None] >> (np.uint64(4) * np.arange(N_RANKS, dtype=np.uint64))) \
        & np.uint64(15)
    kind = (info & np.uint64(INFO_FIELD_MASK)).astype(np.int64)
    phi = np.zeros((table.size, N_RANKS + N_KINDS + 2), np.float32)
    phi[:, :N_RANKS] = counts / 4.0
    phi[np.arange(table.size), N_RANKS + kind] = 1.0
    phi[:, -2] = counts.sum(1) / 20.0
    phi[table.pass_id] = 0.0
    phi[table.pass_id, -1] = 1.0
    return phi


class Context:
    """``ctx(obs)``: bias, own cards left, fewest cards left of an opponent, leading."""

    size = 4

    def __init__(self, rules):
        b = KE.encoding_blocks(rules.array)
        self.left, self.width = b[4], (b[5] - b[4]) // rules.players
        self.last = slice(b[5], b[6])
        self.players = rules.players

    def __call__(self, obs) -> np.ndarray:
        n = len(obs)
        left = np.stack([obs[:, self.left + k * self.width:self.left + (k + 1) * self.width]
                         .argmax(1) for k in range(self.players)], 1)
        ctx = np.empty((n, self.size), np.float32)
        ctx[:, 0] = 1.0
        ctx[:, 1] = left[:, 0] / 20.0
        ctx[:, 2] = left[:, 1:].min(1) / 20.0
        ctx[:, 3] = obs[:, self.last].any(1) == 0
        return ctx


def sample(scores, offsets, rng, greedy=False):
    """One index into the flat legal ids per game, softmax(scores) within each segment;
    returns (indices, probabilities)."""
    starts = offsets[:-1]
    seg = np.repeat(np.arange(len(starts)), np.diff(offsets))
    p = np.exp(scores - np.maximum.reduceat(scores, starts)[seg])
    p /= np.add.reduceat(p, starts)[seg]
    if greedy:
        best = np.maximum.reduceat(p, starts)
        pick = np.flatnonzero(p == best[seg])
        first = np.unique(seg[pick], return_index=True)[1]
        return pick[first], p
    cum = np.cumsum(p)
    base = np.where(starts > 0, cum[starts - 1], 0.0)
    target = base + rng.random(len(starts)) * (cum[offsets[1:] - 1] - base)
    idx = np.searchsorted(cum, target, side="right")
    return np.clip(idx, starts, offsets[1:] - 1), p


def train(envs=512, updates=300, steps=40, lr=0.2, seed=0, eval_games=2000, threads=None):
    env = fastdou.VectorEnv("classic", envs, seed=seed, start="play", opponents="random",
                            threads=threads)
    phi, ctx_of = action_features(env.table), Context(env.rules)
    k, m = phi.shape[1], ctx_of.size
    W = np.zeros((k, m), np.float32)
    trace = np.zeros((envs, k, m), np.float32)         # sum of grad log pi this episode
    rng = np.random.default_rng(seed)
    baseline = 0.0

    def policy_step(obs, info, greedy=False):
        ids, off = info["legal_ids"], info["legal_offsets"]
        seg = np.repeat(np.arange(envs), np.diff(off))
        ctx = ctx_of(obs)
        f = phi[ids]                                   # (n_legal, k)
        scores = ((f @ W) * ctx[seg]).sum(1)
        idx, p = sample(scores, off, rng, greedy)
        expected = np.add.reduceat(p[:, None] * f, off[:-1])          # E_pi[phi] per game
        return ids[idx], phi[ids[idx]] - expected, ctx

    obs, info = env.reset()
    start = time.perf_counter()
    for u in range(updates):
        grad, wins, games = np.zeros_like(W), 0, 0
        for _ in range(steps):
            actions, g, ctx = policy_step(obs, info)
            trace += g[:, :, None] * ctx[:, None, :]
            obs, rewards, done, _, info = env.step(actions)
            if done.any():
                ret = np.where(rewards[done] > 0, 1.0, -1.0)
                grad += np.tensordot(ret - baseline, trace[done], axes=1)
                baseline = 0.95 * baseline + 0.05 * ret.mean()
                trace[done] = 0.0
                wins += int((ret > 0).sum())
                games += int(done.sum())
        W += lr * grad / max(games, 1)
        if u % max(1, updates // 10) == 0 or u == updates - 1:
            print(f"update {u:4d}: win rate {wins / max(games, 1):.3f} over {games} games "
                  f"({time.perf_counter() - start:.1f}s)", flush=True)

    def evaluate(weights, greedy):
        nonlocal W
        saved, W = W, weights
        ob, inf = env.reset(seed=seed + 1)
        won = played = 0
        while played < eval_games:
            actions, _, _ = policy_step(ob, inf, greedy)
            ob, rewards, done, _, inf = env.step(actions)
            won += int((rewards[done] > 0).sum())
            played += int(done.sum())
        W = saved
        return won / played

    uniform = evaluate(np.zeros_like(W), greedy=False)
    trained = evaluate(W, greedy=False)
    print(f"win rate as landlord against random farmers, {eval_games} games or more: "
          f"uniform random {uniform:.3f}, trained {trained:.3f}")
    return uniform, trained


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=512)
    ap.add_argument("--updates", type=int, default=300)
    ap.add_argument("--steps", type=int, default=40, help="env steps per update")
    ap.add_argument("--lr", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    train(a.envs, a.updates, a.steps, a.lr, a.seed, a.eval_games, a.threads)


if __name__ == "__main__":
    main()
