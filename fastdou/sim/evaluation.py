"""Head-to-head evaluation of two policies, DouZero's way: :func:`evaluate` plays every deal
once per turn, inside compiled code (:mod:`fastdou.kernels.evaluation`) when both are
compiled, and returns an :class:`Evaluation`: WP and ADP of policy A as landlord, as farmers
and overall, with 95% intervals paired by deal.

How the figures map to DouZero's (``douzero/env/game.py`` and
``douzero/evaluation/simulation.py``): DouZero plays each deal with the landlord fixed and no
bidding; the winning side is the one whose seat empties its hand first; the landlord scores
``+-2 * 2**bombs`` and each farmer ``-+2**bombs`` (bombs: four of a kind and the rocket
played); it prints WP = a side's wins / games and ADP = the landlord's score / games for the
landlord, ``2 *`` a farmer's score / games for the farmers: the side's score per game. Here
WP is the same count (games A's side won / games) and ADP is the mean score of A's side per
game in the rules' own points (``SCORE_UNIT``\\ s divided out). Classic from
``start="play"`` (base 1) pays the landlord ``+-2 * multiplier`` and each farmer
``-+multiplier``, the multiplier ``2 ** (bombs + rockets)``, so ADP is DouZero's exactly
except that a spring or anti-spring doubles it here (DouZero has no spring); other presets
score by their own rules.

A and B are each a compiled policy, as ``simulate`` takes them: a name (``random``,
``greedy``, ``expert``), an ``@njit`` policy or its import path; the compiled loops take two
policy functions, so A and B may both be functions (``expert`` counts as one). Or a Python
agent: an RLCard agent (``eval_step`` and ``use_raw``), a DouZero agent (``act``) or a
:class:`fastdou.Policy`; the same deals are then played one decision at a time
(:mod:`fastdou.sim.evaluation_agents`), the agent given its ecosystem's observation by the
adapters (RLCard's and DouZero's agents: classic only, from the play phase), with the same
figures, and a compiled policy on the other side drawing from the stream the compiled loop
gives each deal: ``greedy`` wrapped as an RLCard agent scores exactly as ``greedy``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from typing import Callable

import numba
import numpy as np

from fastdou.atomic import write_atomically
from fastdou.checks import flag, short, whole
from fastdou.compiling.entry_points import typed_entry_point
from fastdou.errors import ArgumentError, PolicyError
from fastdou.hints import RulesLike
from fastdou.kernels import evaluation as KE
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.sim.local_run import run
from fastdou.policies import policy_codes, policy_names
from fastdou.rules import Rules, as_rules, rules_array
from fastdou.sim.simulation_result import MAX_DEALS
from fastdou.sim.summary import Z95, sum_squares

CHUNK = 1 << 15          # deals per compiled call (each played once per turn)
AGENT_CHUNK = 64         # deals per progress report with a Python agent
ROLES = ("landlord", "farmers", "overall")
_WINNER = P.RESULT_NAMES.index("winner")
_TEAM = P.RESULT_NAMES.index("team")


@dataclasses.dataclass(frozen=True)
class Figures:
    """A's figures over one role's games: ``wp`` (win rate) and ``adp`` (mean score of A's
    side per game, in points), each with its 95% interval (``None`` without games, or the
    interval with fewer than two deals)."""

    games: int
    wins: int
    wp: float | None
    wp_ci95: tuple
    adp: float | None
    adp_ci95: tuple

    def as_dict(self) -> dict:
        return {"games": self.games, "wins": self.wins, "wp": self.wp,
                "wp_ci95": list(self.wp_ci95), "adp": self.adp,
                "adp_ci95": list(self.adp_ci95)}


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` found. ``landlord`` / ``farmers``: A's games on that side
    (DouZero's protocol: the first / second turn of every deal); ``overall``: all of them.
    ``void``: hands nobody took the landlord in (``bidding=True`` only; not games)."""

    a: str
    b: str
    rules: Rules
    deals: int
    seed: int
    bidding: bool
    turns: int
    void: int
    landlord: Figures
    farmers: Figures
    overall: Figures

    def as_dict(self) -> dict:
        """Stable JSON keys: ``a``, ``b``, ``rules``, ``profile``, ``rules_fields``,
        ``deals``, ``seed``, ``bidding``, ``turns``, ``void`` and per role (``landlord``,
        ``farmers``, ``overall``) ``games``, ``wins``, ``wp``, ``wp_ci95``, ``adp``,
        ``adp_ci95``."""
        return {"a": self.a, "b": self.b, "rules": self.rules.name,
                "profile": self.rules.profile, "rules_fields": self.rules.to_json(),
                "deals": self.deals, "seed": self.seed, "bidding": self.bidding,
                "turns": self.turns, "void": self.void,
                **{role: getattr(self, role).as_dict() for role in ROLES}}

    def text(self) -> str:
        """The table ``fastdou evaluate`` prints."""
        how = ("whole games with bidding, A in each seat in turn against B in the others"
               if self.bidding else "DouZero's protocol: landlord fixed, no bidding; A as landlord "
               "against B, then as farmers")
        lines = [f"A {self.a} against B {self.b}: {self.deals:,} deals of {self.rules.name} "
                 f"({self.rules.profile}), seed {self.seed}, each played {self.turns} times",
                 how,
                 f"{'A as':<9} {'games':>9}  {'WP (95% CI)':<25}   ADP (95% CI)"]
        for role in ROLES:
            f = getattr(self, role)
            lines.append(f"{role:<9} {f.games:>9,}  {_num(f.wp, '.4f')} "
                         f"({_num(f.wp_ci95[0], '.4f')} .. {_num(f.wp_ci95[1], '.4f')})   "
                         f"{_num(f.adp, '+.3f')} ({_num(f.adp_ci95[0], '+.3f')} .. "
                         f"{_num(f.adp_ci95[1], '+.3f')})")
        if self.bidding:
            lines.append(f"void hands (no landlord, not games): {self.void:,}")
        lines.append(f"ADP: mean score of A's {'seat' if self.bidding else 'side'} per game, "
                     f"in points")
        return "\n".join(lines)


def _num(v, spec):
    return "n/a" if v is None else format(v, spec)


class _Sums:
    """Exact sums over deals of a per-deal value ``v`` and its games ``g``: their ratio (a
    mean per game) and its 95% interval (the ratio estimator's, by deal: a normal interval
    over per-deal means when every deal has as many games)."""

    def __init__(self):
        self.n = self.v = self.g = self.vv = self.vg = self.gg = 0

    def add(self, v: np.ndarray, g: np.ndarray) -> None:
        self.n += len(v)
        self.v += int(v.sum())
        self.g += int(g.sum())
        vv, gg = sum_squares(v), sum_squares(g)
        self.vv += vv
        self.gg += gg
        self.vg += (sum_squares(v + g) - vv - gg) // 2

    def figure(self, scale: int = 1, lo=-math.inf, hi=math.inf):
        """(mean, (low, high)) of v / g / scale."""
        if self.g == 0:
            return None, (None, None)
        mean = self.v / (self.g * scale)
        if self.n < 2:
            return mean, (None, None)
        # sum over deals of (v - m g)^2, m = v / g, in exact integers times g^2
        spread = self.vv * self.g ** 2 - 2 * self.v * self.g * self.vg \
            + self.v ** 2 * self.gg
        half = Z95 * math.sqrt(spread / self.g ** 2 / (self.n - 1) / self.n) \
            * self.n / self.g / scale
        return mean, (max(lo, mean - half), min(hi, mean + half))


def _games(res, scores, mode):
    """Per game (deal, turn): decided, A won, A on the landlord side, A's side's score."""
    n, turns, players = scores.shape
    winner = res[:, :, _WINNER]
    in_team = (res[:, :, _TEAM, None] >> np.arange(players)) & 1 == 1
    if mode == KE.PROTOCOL:
        landlord = np.broadcast_to(np.arange(turns) == 0, (n, turns))
        mine = in_team == landlord[:, :, None]
    else:
        mine = np.broadcast_to(np.eye(turns, players, dtype=bool), in_team.shape)
        landlord = (in_team & mine).any(axis=2)
    decided = winner != S.SIDE_VOID
    won = decided & (landlord == (winner == S.SIDE_LANDLORD))
    return decided, won, landlord, np.where(mine, scores, 0).sum(axis=2)


def agent_kind(p):
    """None for a compiled policy (a name, an ``@njit`` function or its import path; bad
    ones are refused later, as simulate refuses them), else the kind of Python agent:
    ``"policy"`` (a :class:`fastdou.Policy`), ``"rlcard"`` (``eval_step`` and
    ``use_raw``) or ``"douzero"`` (``act``); a PolicyError for any other callable."""
    from fastdou.players import Policy
    if isinstance(p, (str, numba.core.registry.CPUDispatcher)):
        return None
    if isinstance(p, Policy):
        return "policy"
    if callable(getattr(p, "eval_step", None)) and hasattr(p, "use_raw"):
        return "rlcard"
    if callable(getattr(p, "act", None)):
        return "douzero"
    if callable(p):
        raise PolicyError(f"evaluate plays compiled policies (a name, an @njit function or "
                          f"its import path) and Python agents (a fastdou Policy, an RLCard "
                          f"agent: eval_step and use_raw, a DouZero agent: act), not "
                          f"{short(p)}")
    return None


def _check_out(out):
    if not isinstance(out, str) or not out.endswith(".json") \
            or os.path.basename(out) == ".json":
        raise ArgumentError(f"out must name a .json file (the figures as JSON), not "
                            f"{short(out)}")
    if os.path.isdir(out):
        raise ArgumentError(f"out names a folder, not a file: {out}")
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise ArgumentError(f"out folder does not exist: {folder}")


def evaluate(a: object, b: object, deals: int, rules: RulesLike = "classic", seed: int = 0,
             bidding: bool = False, threads: int | None = None, *,
             progress: Callable[[int], None] | None = None,
             out: str | None = None) -> Evaluation:
    """Policy A against policy B on deals ``0 .. deals-1`` of ``seed``, DouZero's way.

    Default (DouZero's protocol): each deal twice, the landlord fixed (seat 0; marked-card
    rules: the seats the deal names) and no bidding: A on the landlord side against B on
    the other, then B against A. ``bidding=True``: whole games with bidding, each deal once
    per seat with A in that seat and B in the others; A's side is then A's seat. Every turn
    of a deal plays from the same policy random stream, so A against itself scores exactly
    even in the protocol. Results depend only on (rules, A, B, seed, deals), never on
    ``threads``. A and B: compiled policies or Python agents (the module's docstring); with
    a Python agent the deals are played in Python, on one thread. ``progress(done)`` gets
    the deals done after each chunk; ``out`` names a ``.json`` file the figures are written
    to, atomically. The module's docstring says how WP and ADP map to DouZero's."""
    rules = as_rules(rules)
    deals = whole("deals", deals, 1, MAX_DEALS)
    seed = whole("seed", seed)
    mode = KE.BIDDING if flag("bidding", bidding) else KE.PROTOCOL
    threads = numba.get_num_threads() if threads is None else \
        whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be a function or None, not {short(progress)}")
    if out is not None:
        _check_out(out)
    kinds = [agent_kind(p) for p in (a, b)]
    if any(kinds):                # a Python agent: a Python loop over the same deals
        from fastdou.sim.evaluation_agents import AgentTable
        table = AgentTable(a, b, kinds, rules, seed, mode)
        names = table.names
        turns, chunk_size = table.turns, AGENT_CHUNK
        threads = 1

        def play_chunk(pool, first, res, scores, errors):
            table.play(first, res, scores, errors)
    else:
        codes, users = policy_codes([a] + [b] * (rules.players - 1), rules, functions=2)
        pair = codes[:2].copy()                  # A's code, then B's
        names = policy_names(a, 1)[0], policy_names(b, 1)[0]
        turns, chunk_size = (rules.players if mode == KE.BIDDING else 2), CHUNK
        compiled = KE.compiled_evaluate_range(rules.wilds > 0)
        kernel = typed_entry_point(compiled, compiled.signatures[0])

        def play(rules_array, seed, first, pair, res, scores, errors, fn, fn_b):
            kernel(rules_array, seed, first, pair, mode, res, scores, errors, fn, fn_b)

        def play_chunk(pool, first, res, scores, errors):
            run(play, users, pool, threads, rules_array(rules, wild=True), seed, first, pair,
                res, scores, errors)

    sums = {role: (_Sums(), _Sums()) for role in ROLES}
    void = done = 0
    with ThreadPoolExecutor(threads) if threads > 1 and deals > 1 else nullcontext() as pool:
        while done < deals:
            n = min(chunk_size, deals - done)
            res = np.empty((n, turns, len(P.RESULT_FIELDS)), np.int64)
            scores = np.empty((n, turns, rules.players), np.int64)
            errors = np.empty((n, turns), np.int64)
            play_chunk(pool, done, res, scores, errors)
            if errors.any():
                k = int(np.flatnonzero(errors.any(axis=1))[0])
                raise PolicyError(f"deal {done + k}: a policy returned an index outside "
                                  f"the legal actions")
            decided, won, landlord, score = _games(res, scores, mode)
            void += int((~decided).sum())
            for role, mask in zip(ROLES, (landlord, ~landlord, True)):
                mask = decided & mask
                games = mask.sum(axis=1)
                sums[role][0].add((won & mask).sum(axis=1), games)
                sums[role][1].add(np.where(mask, score, 0).sum(axis=1), games)
            done += n
            if progress is not None:
                progress(done)
    figures = {}
    for role, (w, s) in sums.items():
        wp, wp_ci = w.figure(lo=0.0, hi=1.0)
        adp, adp_ci = s.figure(S.SCORE_UNIT)
        figures[role] = Figures(games=w.g, wins=w.v, wp=wp, wp_ci95=wp_ci, adp=adp,
                                adp_ci95=adp_ci)
    result = Evaluation(a=names[0], b=names[1], rules=rules, deals=deals, seed=seed,
                        bidding=mode == KE.BIDDING, turns=turns, void=void, **figures)
    if out is not None:
        write_atomically(out, lambda f: json.dump(result.as_dict(), f, indent=1), text=True)
    return result
