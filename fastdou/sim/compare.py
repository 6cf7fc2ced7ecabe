"""A fair comparison of policies: :func:`compare` plays the same deals once per rotation of
the policies through the seats (rotation r puts policy ``(seat + r) % k`` in each seat), so
that every policy plays every seat of every deal exactly once: seat and deal luck cancel.

A policy's figure for a deal is its mean score per seat over all its seats of all rotations
of that deal; differences against the first policy are paired deal by deal, and their 95%
intervals come from the spread of those paired differences over the deals.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np

from fastdou.checks import short, whole
from fastdou.errors import ArgumentError, PolicyError
from fastdou.hints import RulesLike
from fastdou.kernels import state as S
from fastdou.rules import as_rules
from fastdou.sim.summary import Z95, sum_squares, wilson

BLOCK = 1 << 19        # deals held in memory at once (per rotation)


def rotations(k: int, players: int) -> list:
    """Rotation r's policy index per seat: ``(seat + r) % k``, r = 0..k-1."""
    return [[(s + r) % k for s in range(players)] for r in range(k)]


@dataclasses.dataclass
class Comparison:
    """What :func:`compare` found: one dict per policy and one per difference against the
    first policy (keys in :meth:`to_dict`)."""

    rules: object
    deals: int
    seed: int
    policies: tuple
    rotations: tuple
    per_policy: tuple
    differences: tuple

    def to_dict(self) -> dict:
        return {"rules": self.rules.to_json(), "deals": self.deals, "seed": self.seed,
                "policies": list(self.policies), "rotations": [list(r) for r in self.rotations],
                "per_policy": list(self.per_policy), "differences": list(self.differences)}

    def text(self) -> str:
        lines = [f"{self.deals:,} deals of {self.rules.name}, seed {self.seed}, each played "
                 f"{len(self.rotations)} times with the policies rotated through the seats",
                 "policy               score per seat (95% CI)          win rate (95% CI)"]
        for p in self.per_policy:
            lo, hi = p["score_ci95"]
            wlo, whi = p["win_ci95"]
            lines.append(f"{p['policy']:<20} {p['score']:+.4f} ({lo:+.4f} .. {hi:+.4f})   "
                         f"{_num(p['win_rate'])} ({_num(wlo)} .. {_num(whi)})")
        for d in self.differences:
            lo, hi = d["ci95"]
            lines.append(f"{d['policy']} - {d['against']}: {d['mean']:+.4f} per seat "
                         f"(95% CI {lo:+.4f} .. {hi:+.4f})")
        return "\n".join(lines)


def _num(v):
    return "n/a" if v is None else f"{v:.4f}"


def compare(policies: Sequence, deals: int, rules: RulesLike = "classic", seed: int = 0,
            threads: int | None = None, *, progress: bool | None = None) -> Comparison:
    """Play deals ``0 .. deals-1`` of ``seed`` under every rotation of ``policies`` (two or
    more names, ``@njit`` functions or import paths) and compare them."""
    from fastdou.sim.simulation import MAX_DEALS, policy_names, simulate
    rules = as_rules(rules)
    if isinstance(policies, (str, bytes)) or not isinstance(policies, (list, tuple)):
        raise PolicyError(f"compare takes a list of two or more policies, not "
                          f"{short(policies)}")
    policies = list(policies)
    if not 2 <= len(policies) <= 16:
        raise PolicyError(f"compare takes 2 to 16 policies, not {len(policies)}")
    for p in policies:
        if not (isinstance(p, str) or callable(p)):
            raise PolicyError(f"a policy is a name, an import path or an @njit function, "
                              f"not {short(p)}")
    deals = whole("deals", deals, 1, MAX_DEALS)
    seed = whole("seed", seed)
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be a function or None, not {short(progress)}")
    k, players = len(policies), rules.players
    rots = rotations(k, players)
    names = [policy_names(p, 1)[0] for p in policies]
    total = [0] * k                 # score units over every seat-game of the policy
    diff = [0] * k                  # paired per-deal differences against policy 0: sum ...
    diff2 = [0] * k                 # ... and sum of squares
    sums2 = [0] * k
    wins = [0] * k
    games = [0] * k                 # decided seat-games
    done = 0
    while done < deals:
        n = min(BLOCK, deals - done)
        per = np.zeros((k, n), np.int64)          # per policy, per deal: score units
        for r, seat_of in enumerate(rots):
            res = simulate(n, rules, [policies[i] for i in seat_of], seed=seed,
                           threads=threads, per_deal=True, first=done).per_deal
            units = np.rint(res["scores"] * S.SCORE_UNIT).astype(np.int64)
            decided = res["winner"] != S.SIDE_VOID
            in_team = (res["team"][:, None] >> np.arange(players)) & 1 == 1
            won = np.where(in_team, res["winner"][:, None] == S.SIDE_LANDLORD,
                           res["winner"][:, None] == S.SIDE_FARMERS) & decided[:, None]
            for s, i in enumerate(seat_of):
                per[i] += units[:, s]
                wins[i] += int(won[:, s].sum())
                games[i] += int(decided.sum())
            if progress is not None:
                progress(done * k + (r + 1) * n)
        for i in range(k):
            total[i] += int(per[i].sum())
            sums2[i] += sum_squares(per[i])
            d = per[i] - per[0]
            diff[i] += int(d.sum())
            diff2[i] += sum_squares(d)
        done += n
    scale = players * S.SCORE_UNIT             # a policy's per-deal figure: units / scale
    rows = []
    for i in range(k):
        mean, half = _mean_half(total[i], sums2[i], deals, scale)
        wlo, whi = wilson(wins[i], games[i])
        rows.append({"policy": names[i], "score": mean,
                     "score_ci95": [mean - half, mean + half], "wins": wins[i],
                     "games": games[i], "win_rate": wins[i] / games[i] if games[i] else None,
                     "win_ci95": [wlo, whi] if games[i] else [None, None]})
    diffs = []
    for i in range(1, k):
        mean, half = _mean_half(diff[i], diff2[i], deals, scale)
        diffs.append({"policy": names[i], "against": names[0], "mean": mean,
                      "ci95": [mean - half, mean + half]})
    return Comparison(rules=rules, deals=deals, seed=seed, policies=tuple(names),
                      rotations=tuple(tuple(r) for r in rots), per_policy=tuple(rows),
                      differences=tuple(diffs))


def _mean_half(total: int, squares: int, n: int, scale: int):
    """Mean of n per-deal values (units / scale) and the half-width of its 95% interval."""
    mean = total / n / scale
    var = (n * squares - total * total) / (n * (n - 1)) / scale ** 2 if n > 1 else 0.0
    return mean, Z95 * math.sqrt(max(var, 0.0) / n)
