"""Bulk simulation: :func:`simulate` plays many deals in compiled code, in parallel, each
deal a pure function of ``(seed, deal index)``, and summarises them."""

from __future__ import annotations

import dataclasses
import math

import numba
import numpy as np

from fastdou.checks import INT64_MAX, flag, short, whole
from fastdou.errors import ArgumentError, PolicyError
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.kernels.policies import GREEDY, RANDOM, USER
from fastdou.rules import as_rules

CHUNK = 1 << 16
MAX_DEALS = 10 ** 12          # about two months of one machine: a typo, not a study
PER_DEAL_MAX = 10_000_000     # deals kept in memory by per_deal=True (~1.5 GB); stream more
POLICIES = {"random": RANDOM, "greedy": GREEDY}


def _check_user_policy(fn, rules):
    """A user policy must be an ``@njit`` function ``(state, actions, n, rng) -> (i, rng)``."""
    if not isinstance(fn, numba.core.registry.CPUDispatcher):
        raise PolicyError(f"a policy function must be compiled with @numba.njit, not "
                          f"{short(fn)}")
    state = np.zeros(S.STATE_SIZE, np.int64)
    actions = np.zeros((2, 2), np.uint64)
    try:
        out = fn(state, actions, 2, np.uint64(1))
    except Exception as e:   # typing errors, or a policy that fails on a plain input
        raise PolicyError(f"policy {fn.__name__} does not take (state, actions, n, rng): "
                          f"{short((str(e).splitlines() or [type(e).__name__])[0])}") \
            from None
    if not (isinstance(out, tuple) and len(out) == 2
            and all(isinstance(v, (int, np.integer)) for v in out)):
        raise PolicyError(f"policy {fn.__name__} must return (index, rng), not {short(out)}")
    try:                          # the one signature the compiled loops call it with
        fn.compile(P.POLICY_SIGNATURE)
    except Exception as e:
        raise PolicyError(f"policy {fn.__name__} does not compile as (int64[:] state, "
                          f"uint64[:, :] actions, int64 n, uint64 rng) -> (int64, uint64): "
                          f"{short((str(e).splitlines() or [type(e).__name__])[0])}") \
            from None


def _policy_codes(policies, rules):
    """Per-seat policy codes and the user function (or None)."""
    if isinstance(policies, str) or callable(policies):
        seats = [policies] * rules.players
    elif isinstance(policies, (list, tuple)):
        seats = list(policies)
    else:
        raise PolicyError(f"policies are a name, an @njit function or one per seat, not "
                          f"{short(policies)}")
    if len(seats) != rules.players:
        raise PolicyError(f"{len(seats)} policies for {rules.players} seats")
    user = None
    codes = np.empty(rules.players, np.int64)
    for s, p in enumerate(seats):
        if isinstance(p, str):
            if p not in POLICIES:
                raise PolicyError(f"unknown policy {short(p)}; policies: "
                                  f"{', '.join(POLICIES)} or an @njit function")
            codes[s] = POLICIES[p]
        elif callable(p):
            if user is not None and p is not user:
                raise PolicyError("one user policy function at most (it may look at the "
                                  "seat to act and behave differently per seat)")
            _check_user_policy(p, rules)
            user = p
            codes[s] = USER
        else:
            raise PolicyError(f"a policy is a name or an @njit function, not {short(p)}")
    return codes, user


def wilson(k: int, n: int, z: float = 1.959963984540054):
    """The Wilson score interval of k successes in n trials (95% by default)."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


@dataclasses.dataclass
class Summary:
    """What a simulation adds up to; every figure is per deal unless it says otherwise."""

    deals: int
    void: int
    landlord_wins: int
    landlord_win_rate: float
    landlord_win_ci95: tuple
    landlord_side_score: float     # mean score of the landlord side's seats, per deal
    farmer_side_score: float       # mean score of the other side's seats, per deal
    seat_scores: tuple             # mean score of each seat
    multiplier: float              # mean multiplier of decided hands
    bombs: float
    rockets: float
    spring_rate: float
    anti_spring_rate: float
    plays: float
    bids: dict                     # winning bid (the base) -> number of decided hands
    redeal_rate: float             # redeals per deal
    void_rate: float
    warnings: tuple = ()           # what makes the figures above doubtful, in words

    def text(self) -> str:
        lo, hi = self.landlord_win_ci95
        bids = ", ".join(f"{k}: {v}" for k, v in sorted(self.bids.items()))
        return "\n".join([
            f"deals              {self.deals:,} ({self.void:,} void)",
            f"landlord wins      {self.landlord_win_rate:.4f}  (95% CI {lo:.4f} .. {hi:.4f})",
            f"mean score         landlord side {self.landlord_side_score:+.4f}, "
            f"other side {self.farmer_side_score:+.4f} per seat",
            "seat scores        " + "  ".join(f"{s:+.4f}" for s in self.seat_scores),
            f"multiplier         {self.multiplier:.4f}",
            f"bombs / rockets    {self.bombs:.4f} / {self.rockets:.4f} per deal",
            f"spring / anti      {self.spring_rate:.4f} / {self.anti_spring_rate:.4f}",
            f"plays              {self.plays:.2f} per deal",
            f"bids               {bids}",
            f"redeals / void     {self.redeal_rate:.4f} / {self.void_rate:.5f} per deal",
        ] + [f"warning: {w}" for w in self.warnings])


class _Totals:
    """Integer sums over chunks: exact, so the summary never depends on chunking."""

    def __init__(self, players, max_redeals):
        self.max_redeals = max_redeals
        self.n = self.void = self.wins = self.mult = self.bombs = self.rockets = 0
        self.spring = self.anti = self.plays = self.redeals = 0
        self.side = [0, 0]          # score units summed over the landlord side / the rest
        self.side_seats = [0, 0]    # seats summed over, per side
        self.seats = [0] * players
        self.bids = {}

    def add(self, res, scores):
        f = {name: res[:, j] for j, name in enumerate(P.RESULT_NAMES)}
        decided = f["winner"] != S.SIDE_VOID
        self.n += len(res)
        self.void += int((~decided).sum())
        self.wins += int((f["winner"] == S.SIDE_LANDLORD).sum())
        self.mult += int(f["multiplier"][decided].sum())
        self.bombs += int(f["bombs"].sum())
        self.rockets += int(f["rockets"].sum())
        self.spring += int((f["spring"] == 1).sum())
        self.anti += int((f["spring"] == 2).sum())
        self.plays += int(f["plays"].sum())
        self.redeals += int(f["redeals"].sum())
        players = scores.shape[1]
        in_team = (f["team"][:, None] >> np.arange(players)) & 1 == 1
        self.side[0] += int(scores[in_team].sum())
        self.side[1] += int(scores[~in_team & decided[:, None]].sum())
        self.side_seats[0] += int(in_team[decided].sum())
        self.side_seats[1] += int((~in_team)[decided].sum())
        for s in range(players):
            self.seats[s] += int(scores[:, s].sum())
        for b, c in zip(*np.unique(f["bid"][decided], return_counts=True)):
            self.bids[int(b)] = self.bids.get(int(b), 0) + int(c)

    def summary(self) -> Summary:
        decided = self.n - self.void
        per = lambda x, n=self.n: x / n if n else float("nan")   # noqa: E731
        unit = S.SCORE_UNIT
        return Summary(
            deals=self.n, void=self.void, landlord_wins=self.wins,
            landlord_win_rate=per(self.wins, decided), landlord_win_ci95=wilson(self.wins,
                                                                               decided),
            landlord_side_score=per(self.side[0] / unit, self.side_seats[0]),
            farmer_side_score=per(self.side[1] / unit, self.side_seats[1]),
            seat_scores=tuple(per(s / unit) for s in self.seats),
            multiplier=per(self.mult, decided), bombs=per(self.bombs),
            rockets=per(self.rockets), spring_rate=per(self.spring),
            anti_spring_rate=per(self.anti), plays=per(self.plays), bids=dict(self.bids),
            redeal_rate=per(self.redeals), void_rate=per(self.void),
            warnings=self._warnings(decided))

    def _warnings(self, decided: int) -> tuple:
        out = []
        if self.void and self.max_redeals == 0:
            out.append(f"{self.void:,} deal(s) void after {S.MAX_REDEALS_CAP} redeals in a "
                       f"row: does a policy never take the landlord?")
        if decided == 0:
            out.append("no deal was decided: landlord win rate, multiplier and side scores "
                       "are undefined (nan)")
        return tuple(out)


@dataclasses.dataclass
class SimulationResult:
    """``summary``; with ``per_deal=True`` also ``per_deal``: one numpy array per result
    field (``fastdou.kernels.play.RESULT_NAMES``) plus ``scores`` (deals x seats)."""

    rules: object
    seed: int
    summary: Summary
    per_deal: dict | None = None

    def __str__(self) -> str:
        return self.summary.text()


def simulate(deals: int, rules="classic", policies="random", *, seed: int = 0,
             threads: int | None = None, per_deal: bool = False, first: int = 0,
             progress=None, on_chunk=None) -> SimulationResult:
    """Play ``deals`` deals (indices ``first`` .. ``first + deals - 1``) of ``seed``.

    ``policies``: ``"random"``, ``"greedy"``, an ``@njit`` function
    ``(state, actions, n, rng) -> (index, rng)``, or one of those per seat. Results depend
    only on (rules, policies, seed, deal indices): not on ``threads`` or chunking. With
    ``per_deal=False`` memory stays constant in ``deals``. ``progress(done)`` is called with
    the number of deals done after each chunk, ``on_chunk(arrays)`` with that chunk's
    per-deal arrays (as ``per_deal`` gives them, plus ``deal``: the deal indices).
    """
    rules = as_rules(rules)
    deals = whole("deals", deals, 1, MAX_DEALS)
    seed = whole("seed", seed)
    first = whole("first", first, 0, INT64_MAX - deals)
    per_deal = flag("per_deal", per_deal)
    if per_deal and deals > PER_DEAL_MAX:
        raise ArgumentError(f"per_deal=True keeps every deal in memory: at most "
                            f"{PER_DEAL_MAX:,} deals; stream more with on_chunk=")
    for name, fn in (("progress", progress), ("on_chunk", on_chunk)):
        if fn is not None and not callable(fn):
            raise ArgumentError(f"{name} must be a function or None, not {short(fn)}")
    if threads is not None:
        threads = whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    codes, user = _policy_codes(policies, rules)
    simulate_range = P.compiled_simulate_range()
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        totals = _Totals(rules.players, rules.max_redeals)
        kept = []
        done = 0
        while done < deals:
            n = min(CHUNK, deals - done)
            res = np.empty((n, len(P.RESULT_FIELDS)), np.int64)
            scores = np.empty((n, rules.players), np.int64)
            errors = np.empty(n, np.int64)
            _run(simulate_range, user, rules.array, seed, first + done, codes, res, scores,
                 errors, user or P.no_user_policy)
            if errors.any():
                k = int(np.flatnonzero(errors)[0])
                raise PolicyError(f"deal {first + done + k}: a policy returned an index "
                                  f"outside the legal actions")
            totals.add(res, scores)
            if per_deal:
                kept.append((res, scores))
            if on_chunk is not None:
                arrays = _arrays(res, scores)
                arrays["deal"] = np.arange(first + done, first + done + n)
                on_chunk(arrays)
            done += n
            if progress is not None:
                progress(done)
    finally:
        numba.set_num_threads(previous)
    arrays = None
    if per_deal:
        arrays = _arrays(np.concatenate([k[0] for k in kept]),
                         np.concatenate([k[1] for k in kept]))
    return SimulationResult(rules=rules, seed=int(seed), summary=totals.summary(),
                            per_deal=arrays)


def _run(simulate_range, user, *args):
    """Run a compiled simulation chunk; an exception raised by a user policy inside it
    (Numba reports it as a SystemError) becomes a PolicyError."""
    if user is None:
        simulate_range(*args)
        return
    try:
        simulate_range(*args)
    except Exception as e:
        cause = e.__cause__ or e.__context__ or e
        raise PolicyError(f"policy {user.__name__} raised {type(cause).__name__}: "
                          f"{short(str(cause))}") from None


def _arrays(res, scores) -> dict:
    """Per-deal arrays by result name, scores in points."""
    arrays = {name: res[:, j] for j, name in enumerate(P.RESULT_NAMES)}
    arrays["scores"] = scores / S.SCORE_UNIT
    return arrays
