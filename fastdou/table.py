"""Per-deal results as a flat table: one narrow column per field, a score column per seat,
the landlord's side as one boolean column per seat, named categories instead of codes, and
the metadata (rules with every field, seed, policies, deal range, fastdou version) that
lets a file explain itself. The README's "Per-deal results" section is the schema.

:func:`columns` turns the simulation's per-deal arrays into table columns,
:func:`per_deal` turns them back (exactly); :func:`rules_to_json` / :func:`rules_from_json`
carry a :class:`~fastdou.rules.Rules` through the metadata.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from fastdou.checks import short
from fastdou.errors import ArgumentError, RecordError
from fastdou.kernels import state as S
from fastdou.kinds import Kind
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


def multiplier_dtype(rules: Rules):
    """int32 when no hand of these rules can reach 2**31, else int64: every bomb at its
    largest factor, every double, reveal and grab, and the spring."""
    bombs = rules.deck_size // max(rules.bomb_min or 2, 2) + rules.decks * 2
    factor = max(max(rules.bomb_factors), rules.joker_bomb_factor, 2)
    bits = bombs * math.log2(factor) + 2 * rules.players + rules.max_grabs + 3
    return np.int32 if bits < 31 else np.int64


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
    """The table's column names, in order."""
    seats = range(rules.players)
    return (["deal"] + list(_ORDER[:3]) + [f"team_{s}" for s in seats] + list(_ORDER[3:6])
            + [f"bombs_{k}" for k in bomb_sizes(rules)] + list(_ORDER[6:])
            + [f"score_{s}" for s in seats])


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
        return values.astype(np.int64)
    values = values.astype(str)
    codes = np.full(len(values), -1, np.int64)
    for k, c in enumerate(cats):
        codes[values == c] = k
    if (codes < 0).any():
        bad = values[codes < 0][0]
        raise RecordError(f"column {name} holds {short(str(bad))}, not one of {cats}")
    return codes


def per_deal(table: dict, rules: Rules) -> dict:
    """The simulation's per-deal arrays (int64 fields, ``team`` bit mask, ``scores`` deals x
    seats in points, ``deal``) from table columns: the inverse of :func:`columns`."""
    missing = [n for n in names(rules) if n not in table]
    if missing:
        raise RecordError(f"results table lacks column(s) {', '.join(missing)}")
    out = {}
    for name in ("winner", "landlord", "partner"):
        out[name] = _ints(name, table[name])
    team = np.zeros(len(out["winner"]), np.int64)
    for s in range(rules.players):
        team |= np.asarray(table[f"team_{s}"]).astype(np.int64) << s
    out["team"] = team
    for name in _ORDER[3:]:
        out[name] = _ints(name, table[name])
    packed = np.zeros(len(team), np.int64)
    for k in bomb_sizes(rules):
        packed |= np.asarray(table[f"bombs_{k}"]).astype(np.int64) << (S.BOMB_SIZE_BITS * (k - 1))
    out["bomb_sizes"] = packed
    out["scores"] = np.stack([np.asarray(table[f"score_{s}"], np.float64)
                              for s in range(rules.players)], axis=1)
    out["deal"] = np.asarray(table["deal"]).astype(np.int64)
    _check_values(out, rules)
    return out


_SEATS = ("landlord", "partner", "out")          # a seat, or -1 (none)
_COUNTS = ("bid", "multiplier", "bombs", "rockets", "plays", "actions", "redeals", "grabs",
           "doubles", "reveals", "deal")


def _check_values(out: dict, rules: Rules) -> None:
    """What no simulation writes: columns of other lengths or shapes, codes and seats out
    of range, negative counts, scores that are not finite."""
    n = len(out["deal"])
    for name, a in out.items():
        shape = (n, rules.players) if name == "scores" else (n,)
        if a.shape != shape:
            raise RecordError(f"column {name} has shape {a.shape}, not {shape}")
    if n == 0:
        return
    bad = [f"{name} outside 0..{len(cats) - 1}" for name, cats in CATEGORIES.items()
           if not ((out[name] >= 0) & (out[name] < len(cats))).all()]
    bad += [f"{name} outside -1..{rules.players - 1}" for name in _SEATS
            if not ((out[name] >= -1) & (out[name] < rules.players)).all()]
    bad += [f"negative {name}" for name in _COUNTS if out[name].min() < 0]
    if (out["team"] >> rules.players).any():
        bad.append("team_* columns past the players")
    if not np.isfinite(out["scores"]).all():
        bad.append("scores that are not finite")
    if bad:
        raise RecordError(f"results hold values no simulation writes: {', '.join(bad)}")


def _ints(name, values):
    return codes_of(name, values) if name in CATEGORIES else np.asarray(values).astype(np.int64)


def rules_to_json(r: Rules) -> dict:
    """Every field of ``r`` as JSON values (kinds by name)."""
    out = {}
    for f in dataclasses.fields(r):
        v = getattr(r, f.name)
        if isinstance(v, frozenset):
            v = sorted(k.name.lower() for k in v)
        elif isinstance(v, tuple):
            v = list(v)
        out[f.name] = v
    return out


def rules_from_json(d) -> Rules:
    """The :class:`Rules` that :func:`rules_to_json` wrote (validated as any Rules is)."""
    if not isinstance(d, dict):
        raise RecordError(f"rules metadata must be an object, not {short(d)}")
    fields = {f.name for f in dataclasses.fields(Rules)}
    unknown = set(d) - fields
    if unknown:
        raise RecordError(f"rules metadata has unknown field(s) {', '.join(sorted(unknown))}")
    d = dict(d)
    try:
        if "kinds" in d:
            d["kinds"] = frozenset(Kind[str(k).upper()] for k in d["kinds"])
        for f in dataclasses.fields(Rules):
            if isinstance(getattr(Rules, f.name), tuple) and f.name in d:
                d[f.name] = tuple(d[f.name])
    except (KeyError, TypeError):
        raise RecordError(f"rules metadata holds bad kinds or tuples: {short(d)}") from None
    return Rules(**d)


def score_units(scores: np.ndarray) -> np.ndarray:
    """Scores in points back to the kernel's exact integer units."""
    return np.rint(np.asarray(scores, np.float64) * S.SCORE_UNIT).astype(np.int64)
