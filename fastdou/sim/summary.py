"""What a simulation adds up to: :class:`Summary`, built by :class:`Totals` from exact integer
sums over chunks of per-deal results, so that it never depends on chunking, threads or the
machines a run was spread over.

Per seat: how often it sat on the landlord side, its win rate there and as a farmer, its mean
score with a 95% interval and its standard deviation; per side the same; the rates of the
preset's features (doubles, grabs, reveals, springs, bombs, joker bombs). ``to_dict()`` gives
the stable keys documented in the README (``--json``); a run in which no deal was decided
gives a warning and ``None`` rates, never ``nan``.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.kernels import totals as KT

Z95 = 1.959963984540054
_COL = {name: j for j, name in enumerate(P.RESULT_NAMES)}
_TOTAL_COLS = np.array([_COL[name] for name in (
    "winner", "landlord", "team", "multiplier", "bombs", "rockets", "spring", "plays",
    "redeals", "bid")], np.int64)                  # kernels.totals.chunk_totals' cols
_SQUARE_SAFE = KT.SQUARE_SAFE          # |score units| below this square within int64


def wilson(k: int, n: int, z: float = Z95):
    """The Wilson score interval of k successes in n trials (95% by default)."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # It always holds p; clamped, so that rounding at p = 0 or 1 cannot put p outside.
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


def sum_squares(a: np.ndarray) -> int:
    """The exact sum of squares of an int64 array, as a Python int."""
    if a.size == 0:
        return 0
    if int(np.abs(a).max()) < _SQUARE_SAFE:
        sq = (a * a).view(np.uint64)
        hi = int((sq >> np.uint64(32)).sum(dtype=np.uint64))
        lo = int((sq & np.uint64(0xFFFFFFFF)).sum(dtype=np.uint64))
        return (hi << 32) + lo
    return sum(int(x) ** 2 for x in a.tolist())          # huge scores: rare, exact


def _exact_squares(res, scores, players):
    """The sums of squared scores per side and per seat (``Totals``), for chunks holding a
    score too large for ``kernels.totals``: ([landlord side, others], [seat...])."""
    decided = res[:, _COL["winner"]] != S.SIDE_VOID
    in_team = ((res[:, _COL["team"], None] >> np.arange(players)) & 1 == 1) & decided[:, None]
    farmer = ~in_team & decided[:, None]
    return ([sum_squares(scores[in_team]), sum_squares(scores[farmer])],
            [sum_squares(scores[:, s]) for s in range(players)])


def _score_stats(total: int, squares: int, n: int, unit: int = S.SCORE_UNIT) -> dict:
    """Mean, standard deviation and 95% interval of the mean, in points, from exact sums
    of n values in score units."""
    if n == 0:
        return {"mean": None, "sd": None, "ci95": [None, None]}
    mean = total / n / unit
    var = (n * squares - total * total) / (n * (n - 1)) / unit ** 2 if n > 1 else 0.0
    sd = math.sqrt(max(var, 0.0))
    half = Z95 * sd / math.sqrt(n)
    return {"mean": mean, "sd": sd, "ci95": [mean - half, mean + half]}


def _rate(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"deals": n, "wins": k, "win_rate": k / n if n else None,
            "win_ci95": [lo, hi] if n else [None, None]}


@dataclasses.dataclass
class Summary:
    """What a simulation adds up to; every figure is per deal unless it says otherwise.

    ``seats``, ``sides`` and ``features`` hold the per-seat, per-side and per-feature figures
    as plain dicts with the keys of :meth:`to_dict`; ``warnings`` says when figures are
    missing (no deal decided)."""

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
    seats: tuple = ()              # one dict per seat (see to_dict)
    sides: dict = dataclasses.field(default_factory=dict)
    features: dict = dataclasses.field(default_factory=dict)
    warnings: tuple = ()

    def to_dict(self) -> dict:
        """Every figure under its documented key, JSON-ready: ``None`` where a figure does
        not exist (``nan`` never appears)."""
        def clean(v):
            if isinstance(v, float) and math.isnan(v):
                return None
            if isinstance(v, (list, tuple)):
                return [clean(x) for x in v]
            if isinstance(v, dict):
                return {str(k): clean(x) for k, x in v.items()}
            return v
        return {f.name: clean(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def text(self) -> str:
        """The summary for people."""
        def num(v, fmt):
            return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) \
                else format(v, fmt)

        lines = [f"deals              {self.deals:,} ({self.void:,} void)"]
        for w in self.warnings:
            lines.append(f"WARNING            {w}")
        if self.deals == self.void:
            return "\n".join(lines)
        lo, hi = self.landlord_win_ci95
        bids = ", ".join(f"{k}: {v:,}" for k, v in sorted(self.bids.items()))
        lines += [
            f"landlord wins      {self.landlord_win_rate:.4f}  (95% CI {lo:.4f} .. {hi:.4f})",
            f"mean score         landlord side {self.landlord_side_score:+.4f}, "
            f"other side {self.farmer_side_score:+.4f} per seat",
            f"multiplier         {self.multiplier:.4f}",
            f"bombs / rockets    {self.bombs:.4f} / {self.rockets:.4f} per deal",
            f"spring / anti      {self.spring_rate:.4f} / {self.anti_spring_rate:.4f}",
            f"plays              {self.plays:.2f} per deal",
            f"bids               {bids}",
            f"redeals / void     {self.redeal_rate:.4f} / {self.void_rate:.5f} per deal",
            "",
            "seat  landlord  wins as landlord       wins as farmer         "
            "mean score (95% CI)             sd",
        ]
        for s in self.seats:
            lord, farm, sc = s["as_landlord"], s["as_farmer"], s["score"]
            lines.append(
                f"{s['seat']:>4}  {num(s['landlord_rate'], '.4f'):>8}  "
                f"{num(lord['win_rate'], '.4f'):>6} of {lord['deals']:<12,}  "
                f"{num(farm['win_rate'], '.4f'):>6} of {farm['deals']:<12,}  "
                f"{num(sc['mean'], '+.4f'):>8} ({num(sc['ci95'][0], '+.4f')} .. "
                f"{num(sc['ci95'][1], '+.4f')})  {num(sc['sd'], '.4f')}")
        for name, side in self.sides.items():
            sc = side["score"]
            lines.append(
                f"side {name:<8} wins {num(side['win_rate'], '.4f')} "
                f"(95% CI {num(side['win_ci95'][0], '.4f')} .. "
                f"{num(side['win_ci95'][1], '.4f')}); score per seat "
                f"{num(sc['mean'], '+.4f')} ({num(sc['ci95'][0], '+.4f')} .. "
                f"{num(sc['ci95'][1], '+.4f')}), sd {num(sc['sd'], '.4f')}")
        if self.features:
            lines.append("features           " + ", ".join(
                f"{k} {v['per_deal']:.4f}/deal ({v['deal_rate']:.4f} of deals)"
                for k, v in self.features.items()))
        return "\n".join(lines)


def preset_features(rules) -> tuple:
    """The result fields that count a feature this rules object has."""
    out = []
    if rules.doubling != "none":
        out.append("doubles")
    if rules.max_grabs > 0:
        out.append("grabs")
    if rules.bidding == "marked":
        out.append("reveals")
    if rules.bomb_min > 0 or rules.joker_bombs == "lone":
        out.append("bombs")
        from fastdou.sim.table import bomb_sizes
        out += [f"bombs_{k}" for k in bomb_sizes(rules)]
    if rules.joker_bombs != "none":
        out.append("rockets")
    if rules.spring != "none":
        out.append("spring")
    return tuple(out)


class Totals:
    """Integer sums over chunks: exact, so the summary never depends on chunking. Two
    ``Totals`` of disjoint deal ranges merge with :meth:`merge` (Dask runs)."""

    def __init__(self, players: int, features: tuple = (), max_redeals: int = 0):
        self.players = players
        self.features = tuple(features)
        self.max_redeals = max_redeals      # 0: void only after MAX_REDEALS_CAP redeals
        self.n = self.void = self.wins = self.mult = self.bombs = self.rockets = 0
        self.spring = self.anti = self.plays = self.redeals = 0
        self.side = [0, 0]          # score units summed over the landlord side / the rest
        self.side2 = [0, 0]         # their squares
        self.side_seats = [0, 0]    # seats summed over, per side
        self.seats = [0] * players
        self.seats2 = [0] * players
        self.landlord = [0] * players          # times the seat was the landlord itself
        self.lord = [0] * players              # decided deals on the landlord side
        self.lord_wins = [0] * players
        self.farmer = [0] * players
        self.farmer_wins = [0] * players
        self.feature = {f: [0, 0] for f in self.features}   # total, deals with any
        self.bids = {}

    def add(self, res: np.ndarray, scores: np.ndarray) -> None:
        """Add one chunk: ``res`` (deals x RESULT_FIELDS) and ``scores`` (deals x seats), in
        the kernel's int64 codes and score units (one compiled pass, ``kernels.totals``)."""
        res = np.ascontiguousarray(res, np.int64)
        scores = np.ascontiguousarray(scores, np.int64)
        players = self.players
        if scores.shape != (len(res), players):
            raise ValueError(f"scores of shape {scores.shape} for {len(res)} deals of "
                             f"{players} seats")
        spec = [(_COL["bomb_sizes"], S.BOMB_SIZE_BITS * (int(name[6:]) - 1))
                if name.startswith("bombs_") else (_COL[name], -1)
                for name in self.features if name != "spring"]
        counts = np.zeros(KT.N_COUNTS, np.int64)
        sides = np.zeros((2, 4), np.int64)
        seats = np.zeros((players, KT.N_SEAT_FIELDS), np.int64)
        feature = np.zeros((len(spec), 2), np.int64)
        bids = np.zeros(KT.N_BIDS, np.int64)
        flags = KT.chunk_totals(res, scores, _TOTAL_COLS, np.array(spec, np.int64).reshape(-1, 2),
                                counts, sides, seats, feature, bids)
        c = [int(x) for x in counts]
        self.n += len(res)
        self.void += c[KT.T_VOID]
        self.wins += c[KT.T_WINS]
        self.mult += c[KT.T_MULT]
        self.bombs += c[KT.T_BOMBS]
        self.rockets += c[KT.T_ROCKETS]
        self.spring += c[KT.T_SPRING]
        self.anti += c[KT.T_ANTI]
        self.plays += c[KT.T_PLAYS]
        self.redeals += c[KT.T_REDEALS]
        squares = _exact_squares(res, scores, players) if flags & KT.BIG_SCORE else None
        for k in range(2):
            self.side[k] += int(sides[k, KT.S_SCORE])
            self.side2[k] += squares[0][k] if squares else \
                (int(sides[k, KT.S_SQ_HI]) << 32) + int(sides[k, KT.S_SQ_LO])
            self.side_seats[k] += int(sides[k, KT.S_SEATS])
        for s in range(players):
            row = [int(x) for x in seats[s]]
            self.seats[s] += row[KT.P_SCORE]
            self.seats2[s] += squares[1][s] if squares else \
                (row[KT.P_SQ_HI] << 32) + row[KT.P_SQ_LO]
            self.landlord[s] += row[KT.P_LANDLORD]
            self.lord[s] += row[KT.P_LORD]
            self.lord_wins[s] += row[KT.P_LORD_WINS]
            self.farmer[s] += row[KT.P_FARMER]
            self.farmer_wins[s] += row[KT.P_FARMER_WINS]
        names = [name for name in self.features if name != "spring"]
        for name, (total, any_) in zip(names, feature.tolist()):
            self.feature[name][0] += total
            self.feature[name][1] += any_
        if flags & KT.ODD_BID:
            decided = res[:, _COL["winner"]] != S.SIDE_VOID
            count = zip(*np.unique(res[decided, _COL["bid"]], return_counts=True))
        else:
            count = ((b, c) for b, c in enumerate(bids.tolist()) if c)
        for b, c in count:
            self.bids[int(b)] = self.bids.get(int(b), 0) + int(c)

    def merge(self, other: "Totals") -> "Totals":
        """Add another run's totals (of other deals) to these."""
        for k, v in vars(other).items():
            mine = getattr(self, k)
            if k in ("players", "features", "max_redeals"):
                if mine != v:
                    raise ValueError(f"cannot merge totals of different {k}")
            elif isinstance(v, int):
                setattr(self, k, mine + v)
            elif isinstance(v, list):
                setattr(self, k, [a + b for a, b in zip(mine, v)])
            elif k == "feature":
                for name, (t, d) in v.items():
                    mine[name][0] += t
                    mine[name][1] += d
            elif k == "bids":
                for b, c in v.items():
                    mine[b] = mine.get(b, 0) + c
        return self

    def to_json(self) -> dict:
        """Plain JSON of the sums (stored beside per-chunk files so a rerun can skip them)."""
        d = dict(vars(self))
        d["bids"] = {str(k): v for k, v in self.bids.items()}
        d["features"] = list(self.features)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Totals":
        t = cls(d["players"], tuple(d["features"]), d.get("max_redeals", 0))
        for k, v in d.items():
            if k not in ("players", "features", "max_redeals"):
                setattr(t, k, v)
        t.bids = {int(k): v for k, v in d["bids"].items()}
        t.feature = {k: list(v) for k, v in d["feature"].items()}
        return t

    def summary(self) -> Summary:
        decided = self.n - self.void
        per = lambda x, n=self.n: x / n if n else float("nan")   # noqa: E731
        unit = S.SCORE_UNIT
        seats = []
        for s in range(self.players):
            seats.append({
                "seat": s,
                "landlord_rate": self.lord[s] / decided if decided else None,
                "landlord_seat_rate": self.landlord[s] / decided if decided else None,
                "as_landlord": _rate(self.lord_wins[s], self.lord[s]),
                "as_farmer": _rate(self.farmer_wins[s], self.farmer[s]),
                "score": _score_stats(self.seats[s], self.seats2[s], self.n)})
        farmer_wins = decided - self.wins
        sides = {}
        for k, (name, wins) in enumerate((("landlord", self.wins), ("farmers", farmer_wins))):
            sides[name] = {**_rate(wins, decided), "seat_deals": self.side_seats[k],
                           "score": _score_stats(self.side[k], self.side2[k],
                                                 self.side_seats[k])}
        features = {name: {"total": t, "per_deal": per(t), "deal_rate": per(d)}
                    for name, (t, d) in self.feature.items() if name != "spring"}
        if "spring" in self.features:
            for name, t in (("spring", self.spring), ("anti_spring", self.anti)):
                features[name] = {"total": t, "per_deal": per(t), "deal_rate": per(t)}
        warnings = []
        if self.n and not decided:
            warnings.append(f"no deal was played: all {self.n:,} deals were void (nobody took "
                            f"the landlord), so there are no win rates or scores")
        if self.void and self.max_redeals == 0:
            warnings.append(f"{self.void:,} deal(s) void after {S.MAX_REDEALS_CAP} redeals in "
                            f"a row: does a policy never take the landlord?")
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
            redeal_rate=per(self.redeals), void_rate=per(self.void), seats=tuple(seats),
            sides=sides, features=features, warnings=tuple(warnings))
