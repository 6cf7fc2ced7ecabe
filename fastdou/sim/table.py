"""Per-deal results as a flat table: one narrow column per field, a score column per seat,
the landlord's side as one boolean column per seat, named categories instead of codes, and
the metadata (rules with every field, seed, policies, deal range, fastdou version) that
lets a file explain itself. The README's "Per-deal results" section is the schema.

:func:`columns` turns the simulation's per-deal arrays into table columns,
:func:`per_deal` turns them back (exactly); ``Rules.to_json`` / ``Rules.from_json`` carry a
:class:`~fastdou.rules.Rules` through the metadata.
"""

from __future__ import annotations

import math

import numpy as np

from fastdou.checks import short
from fastdou.errors import ArgumentError, RecordError
from fastdou.kernels import state as S
from fastdou.rules import Rules

SCHEMA = 1
WINNER = ("landlord", "farmers", "void")            # codes 0, 1, 2 (kernels/state.py)
SPRING = ("none", "spring", "anti_spring")          # codes S.SPRUNG_NONE, _SPRING, _ANTI
CATEGORIES = {"winner": WINNER, "spring": SPRING}
# Fixed-width columns and their dtypes (multiplier: see multiplier_dtype).
_NARROW = {"landlord": np.int8, "partner": np.int8, "bid": np.int8, "bombs": np.int8,
           "rockets": np.int8, "plays": np.int16, "actions": np.int32, "redeals": np.int16,
           "grabs": np.int8, "doubles": np.int8, "reveals": np.int8, "out": np.int8,
           "marked": np.int8, "trump": np.int8}
_ORDER = ("winner", "landlord", "partner", "bid", "multiplier", "bombs", "rockets",
          "spring", "plays", "actions", "redeals", "grabs", "doubles", "reveals", "out",
          "marked", "trump")


def multiplier_bits(rules: Rules) -> float:
    """log2 of a bound on the multiplier of a hand of these rules: every bomb at its
    largest factor, every double, reveal and grab, and the spring."""
    bombs = rules.deck_size // max(rules.bomb_min or 2, 2) + rules.decks * 2
    wild = (rules.soft_bomb_factor, rules.wild_bomb_factor) if rules.wilds else ()
    factor = max(max(rules.bomb_factors), rules.joker_bomb_factor, 2, *wild)
    return bombs * math.log2(factor) + 2 * rules.players + rules.max_grabs + 3


def multiplier_dtype(rules: Rules):
    """int32 when no hand of these rules can reach 2**31, else int64."""
    return np.int32 if multiplier_bits(rules) < 31 else np.int64


def bomb_sizes(rules: Rules) -> tuple:
    """The sizes a bomb of kind ``bomb`` can have under these rules (jinling's lone jokers
    are bombs of one card)."""
    sizes = set(range(rules.bomb_min, rules.bomb_max + 1)) if rules.bomb_min else set()
    if rules.joker_bombs == "lone":
        sizes.add(1)
    return tuple(sorted(sizes))


def bombs_of_size(packed, k: int) -> np.ndarray:
    """From the packed ``bomb_sizes`` result field: how many bombs of k cards."""
    return (np.asarray(packed, np.int64) >> (S.BOMB_SIZE_BITS * (k - 1))) \
        & ((1 << S.BOMB_SIZE_BITS) - 1)


def names(rules: Rules) -> list:
    """The table's column names, in order (``wilds``, the bit mask of the wild ranks, only
    for rules with wild cards)."""
    seats = range(rules.players)
    return (["deal"] + list(_ORDER[:3]) + [f"team_{s}" for s in seats] + list(_ORDER[3:6])
            + [f"bombs_{k}" for k in bomb_sizes(rules)] + list(_ORDER[6:])
            + ["wilds"] * (rules.wilds > 0) + [f"score_{s}" for s in seats])


def columns(arrays: dict, rules: Rules) -> dict:
    """Table columns from per-deal arrays (``simulate``'s ``on_chunk`` / ``per_deal``, with
    ``deal``): categories stay int8 codes here (see :data:`CATEGORIES`); writers name them."""
    out = {"deal": np.asarray(arrays["deal"], np.int64)}
    for name in _ORDER[:3]:
        out[name] = _narrow(name, arrays[name], _NARROW.get(name, np.int8))
    team = np.asarray(arrays["team"])
    for s in range(rules.players):
        out[f"team_{s}"] = (team >> s) & 1 == 1
    for name in _ORDER[3:]:
        dtype = multiplier_dtype(rules) if name == "multiplier" else _NARROW.get(name, np.int8)
        out[name] = _narrow(name, arrays[name], dtype)
    for k in bomb_sizes(rules):
        out[f"bombs_{k}"] = bombs_of_size(arrays["bomb_sizes"], k).astype(np.int8)
    if rules.wilds:
        out["wilds"] = _narrow("wilds", arrays["wilds"], np.int16)
    scores = np.asarray(arrays["scores"], np.float64)
    for s in range(rules.players):
        out[f"score_{s}"] = scores[:, s]
    return {k: out[k] for k in names(rules)}


def _narrow(name, a, dtype):
    a = np.asarray(a)
    info = np.iinfo(dtype)
    if a.size and (a.min() < info.min or a.max() > info.max):
        raise ArgumentError(f"column {name} holds {a.min()}..{a.max()}, outside "
                            f"{np.dtype(dtype).name}")   # kernel limits: never expected
    return a.astype(dtype)


def codes_of(name: str, values) -> np.ndarray:
    """A category column (names, pandas categorical, or codes) as int64 codes."""
    cats = CATEGORIES[name]
    if hasattr(values, "cat"):                          # pandas categorical series
        values = values.astype(str).to_numpy()
    values = np.asarray(values)
    if values.dtype.kind in "iu":
        return _integers(name, values)
    if values.dtype.kind not in "UO":
        raise RecordError(f"column {name} holds {values.dtype} values, not names")
    values = values.astype(str)
    codes = np.full(len(values), -1, np.int64)
    for k, c in enumerate(cats):
        codes[values == c] = k
    if (codes < 0).any():
        row = int(np.flatnonzero(codes < 0)[0])
        raise RecordError(f"row {row + 1}: column {name} holds {short(str(values[row]))}, "
                          f"not one of {cats}")
    return codes


def _integers(name: str, values) -> np.ndarray:
    """An integer column as int64: whole numbers within int64 only (no bools, no 0.7)."""
    a = np.asarray(values)
    if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
        _bad_row(name, a, a > np.iinfo(np.int64).max, "beyond int64")
    if a.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            ok = np.isfinite(a) & (np.abs(a) < 2.0 ** 63)
            ok[ok] = a[ok] == np.rint(a[ok])
        if not ok.all():
            _bad_row(name, a, ~ok, "not a whole number")
    elif a.dtype.kind not in "iu":
        raise RecordError(f"column {name} holds {a.dtype} values, not whole numbers")
    return a.astype(np.int64)


def _bad_row(name, a, bad, what):
    row = int(np.flatnonzero(bad)[0])
    raise RecordError(f"row {row + 1}: column {name} holds {short(a[row].item())}: {what}")


def _flags(name, values) -> np.ndarray:
    """A ``team_*`` column: booleans, or whole numbers 0 and 1."""
    a = np.asarray(values)
    if a.dtype.kind == "b":
        return a.astype(np.int64)
    a = _integers(name, a)
    if a.size and not ((a == 0) | (a == 1)).all():
        _bad_row(name, a, (a != 0) & (a != 1), "not a boolean")
    return a


def per_deal(table: dict, rules: Rules) -> dict:
    """The simulation's per-deal arrays (int64 fields, ``team`` bit mask, ``scores`` deals x
    seats in points, ``deal``) from table columns: the inverse of :func:`columns`. Refuses
    (``RecordError`` naming the row and the rule) what no simulation of ``rules`` writes."""
    expected = names(rules)
    missing = [n for n in expected if n not in table]
    if missing:
        raise RecordError(f"results table lacks column(s) {', '.join(missing)}")
    extra = [n for n in table if n not in expected]
    if extra:
        raise RecordError(f"results table has column(s) no simulation of these rules "
                          f"writes: {short(', '.join(map(str, extra)))}")
    for n in expected:
        if np.ndim(table[n]) != 1:
            raise RecordError(f"column {n} has shape {np.shape(table[n])}, not one value a deal")
    if len({np.shape(table[n])[0] for n in expected}) != 1:
        raise RecordError("results table holds columns of different lengths")
    out = {}
    for name in ("winner", "landlord", "partner"):
        out[name] = _ints(name, table[name])
    team = np.zeros(len(out["winner"]), np.int64)
    for s in range(rules.players):
        team |= _flags(f"team_{s}", table[f"team_{s}"]) << s
    out["team"] = team
    for name in _ORDER[3:]:
        out[name] = _ints(name, table[name])
    packed = np.zeros(len(team), np.int64)
    sizes = {}
    for k in bomb_sizes(rules):
        sizes[k] = _integers(f"bombs_{k}", table[f"bombs_{k}"])
        if sizes[k].size and not ((sizes[k] >= 0) & (sizes[k] < 1 << S.BOMB_SIZE_BITS)).all():
            _bad_row(f"bombs_{k}", sizes[k], (sizes[k] < 0) | (sizes[k] >= 1 << S.BOMB_SIZE_BITS),
                     f"outside 0..{(1 << S.BOMB_SIZE_BITS) - 1}")
        packed |= sizes[k] << (S.BOMB_SIZE_BITS * (k - 1))
    out["bomb_sizes"] = packed
    out["wilds"] = (_integers("wilds", table["wilds"]) if rules.wilds
                    else np.zeros(len(team), np.int64))
    out["scores"] = np.stack([_scores(f"score_{s}", table[f"score_{s}"])
                              for s in range(rules.players)], axis=1).reshape(len(team), -1)
    out["deal"] = _integers("deal", table["deal"])
    _check_values(out, rules, sum(sizes.values()) if sizes else None)
    return out


def _scores(name, values) -> np.ndarray:
    a = np.asarray(values)
    if a.dtype.kind not in "iuf":
        raise RecordError(f"column {name} holds {a.dtype} values, not numbers")
    return a.astype(np.float64)


_SEATS = ("landlord", "partner", "out")          # a seat, or -1 (none)
_COUNTS = ("bid", "multiplier", "bombs", "rockets", "plays", "actions", "redeals", "grabs",
           "doubles", "reveals", "deal")
_SUMMED = ("multiplier", "bombs", "rockets", "plays", "redeals", "bid")  # summed in int64


def _check_values(out: dict, rules: Rules, bombs_by_size=None) -> None:
    """What no simulation writes: codes and seats out of range, negative counts, scores
    that are not finite, do not sum to zero or overflow a summary, void deals with a
    landlord or scores, a landlord off its side, more bombs by size than bombs, more plays
    than actions. The first row breaking a rule is named."""
    n = len(out["deal"])
    if n == 0:
        return
    players = rules.players
    scores = out["scores"]
    finite = np.isfinite(scores).all(axis=1)
    big = 2.0 ** 62 / max(n, 1)        # so that summing n of them stays within int64
    units = np.zeros(scores.shape, np.int64)
    with np.errstate(invalid="ignore"):
        fits = finite & (np.abs(np.where(np.isfinite(scores), scores, 0))
                         * S.SCORE_UNIT < big).all(axis=1)
    units[fits] = score_units(scores[fits])
    void = out["winner"] == S.SIDE_VOID
    lord = np.clip(out["landlord"], 0, players - 1)
    checks = [(f"{name} outside 0..{len(cats) - 1}", (out[name] < 0) | (out[name] >= len(cats)))
              for name, cats in CATEGORIES.items()]
    checks += [(f"{name} outside -1..{players - 1}", (out[name] < -1) | (out[name] >= players))
               for name in _SEATS]
    checks += [(f"negative {name}", out[name] < 0) for name in _COUNTS]
    checks += [(f"{name} too large to sum over {n:,} deals", out[name] >= big)
               for name in _SUMMED]
    checks += [
        ("team_* columns past the players", (out["team"] >> players) != 0),
        ("scores that are not finite", ~finite),
        ("a score too large to sum over the deals", finite & ~fits),
        ("scores that do not sum to zero", fits & (units.sum(axis=1) != 0)),
        ("multiplier below 1", out["multiplier"] < 1),
        ("multiplier above what these rules reach",
         out["multiplier"] > 2.0 ** math.ceil(multiplier_bits(rules))),
        (f"redeals above {S.MAX_REDEALS_CAP}", out["redeals"] > S.MAX_REDEALS_CAP),
        ("more plays than actions", out["plays"] > out["actions"]),
        ("a void deal with a landlord", void & (out["landlord"] != -1)),
        ("a decided deal without a landlord", ~void & (out["landlord"] == -1)),
        ("a void deal with a landlord side or scores",
         void & ((out["team"] != 0) | (units != 0).any(axis=1))),
        ("a landlord not on the landlord side", ~void & (((out["team"] >> lord) & 1) == 0))]
    if bombs_by_size is not None:
        checks.append(("more bombs_* than bombs", bombs_by_size > out["bombs"]))
    if rules.wilds:
        checks.append((f"wilds not {rules.wilds} rank(s) of 3..2 (0 for a void deal)",
                       _bad_wilds(out["wilds"], void, rules.wilds)))
    first = [(int(np.flatnonzero(bad)[0]), rule) for rule, bad in checks if bad.any()]
    if first:
        row, rule = min(first, key=lambda f: f[0])     # the row's first rule broken
        raise RecordError(f"row {row + 1} (deal {out['deal'][row]}): {rule}, which no "
                          f"simulation writes")


def _bad_wilds(masks, void, wilds):
    """Rows whose wild-rank mask is not ``wilds`` ranks of 3..2 (bits 0..12), or not 0 when
    the deal is void (no play, nothing drawn)."""
    in_range = (masks >= 0) & (masks < 1 << 13)
    ranks = sum((masks >> r) & 1 for r in range(13))
    return ~in_range | np.where(void, masks != 0, ranks != wilds)


def _ints(name, values):
    return codes_of(name, values) if name in CATEGORIES else _integers(name, values)


def score_units(scores: np.ndarray) -> np.ndarray:
    """Scores in points back to the kernel's exact integer units."""
    return np.rint(np.asarray(scores, np.float64) * S.SCORE_UNIT).astype(np.int64)
