"""How a torch learner plugs into fastdou.VectorEnv (needs ``pip install torch``).

A network reads the batch of observations (``obs``: an int8 (num_envs, D) array, turned
into a float tensor without a copy on the numpy side) and scores only the legal actions:
``info["legal_ids"]`` is one flat array, ``info["legal_offsets"]`` says which ids belong to
which game, so the scores of every game's legal actions are one gather, and a softmax per
game is a scatter over the game index. Actions go back to the env as a numpy array. The
update is plain REINFORCE against random farmers (see train_numpy_agent.py for the same
loop in numpy); swap in PPO, DMC (DouZero's method) or anything else: the env's side is
``reset`` / ``step`` and these two arrays.

    python examples/torch_learner.py --envs 1024 --updates 100
"""

import argparse
import sys

import numpy as np

import fastdou

try:
    import torch
    from torch import nn
except ImportError:
    torch = None


class Scorer(nn.Module if torch is not None else object):
    """score(obs, a) = MLP(obs) . embedding(a)."""

    def __init__(self, obs_size, n_actions, width=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, width), nn.ReLU(),
                                  nn.Linear(width, width))
        self.actions = nn.Embedding(n_actions, width)
        nn.init.normal_(self.actions.weight, std=0.01)

    def forward(self, obs, ids, game):
        """Scores of the flat legal ``ids``; ``game[j]``: the game id ``j`` belongs to."""
        return (self.body(obs)[game] * self.actions(ids)).sum(-1)


def segment_log_softmax(scores, game, n):
    """log softmax of ``scores`` within each game's segment."""
    top = torch.full((n,), -torch.inf).scatter_reduce(0, game, scores, "amax")
    shifted = scores - top[game]
    total = torch.zeros(n).index_add_(0, game, shifted.exp())
    return shifted - total.log()[game]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--updates", type=int, default=50)
    ap.add_argument("--steps", type=int, default=30, help="env steps per update")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    if torch is None:
        print("examples/torch_learner.py needs torch, which is not installed here: "
              "pip install torch (examples/train_numpy_agent.py runs with numpy only)",
              file=sys.stderr)
        sys.exit(2)
    torch.manual_seed(a.seed)
    env = fastdou.VectorEnv("classic", a.envs, seed=a.seed, start="play",
                            opponents="random")
    net = Scorer(env.observation_size, env.table.size)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    obs, info = env.reset()
    logps = [[] for _ in range(a.envs)]            # the log-probabilities of an episode
    for u in range(a.updates):
        losses, wins, games = [], 0, 0
        for _ in range(a.steps):
            off = info["legal_offsets"]
            game = torch.from_numpy(np.repeat(np.arange(a.envs), np.diff(off)))
            ids = torch.from_numpy(info["legal_ids"].copy())
            logp = segment_log_softmax(net(torch.from_numpy(obs).float(), ids, game),
                                       game, a.envs)
            # sample one legal id per game: Gumbel-max within each segment
            g = logp.detach() - torch.log(-torch.log(torch.rand_like(logp)))
            best = torch.full((a.envs,), -torch.inf).scatter_reduce(0, game, g, "amax")
            pick = torch.nonzero(g == best[game]).squeeze(1)        # ties: the first
            pick = pick[np.unique(game[pick].numpy(), return_index=True)[1]]
            for i, j in zip(game[pick].tolist(), pick.tolist()):
                logps[i].append(logp[j])
            obs, rewards, done, _, info = env.step(ids[pick].numpy())
            for i in np.flatnonzero(done):
                ret = 1.0 if rewards[i] > 0 else -1.0
                losses.append(-ret * torch.stack(logps[i]).sum())
                logps[i] = []
                wins += ret > 0
                games += 1
        if losses:
            opt.zero_grad()
            torch.stack(losses).mean().backward()
            opt.step()
        for i in range(a.envs):                     # the graph is rebuilt every update
            logps[i] = [lp.detach() for lp in logps[i]]
        print(f"update {u:3d}: win rate {wins / max(games, 1):.3f} over {games} games",
              flush=True)


if __name__ == "__main__":
    main()
