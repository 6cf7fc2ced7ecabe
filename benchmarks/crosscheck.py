"""The correctness cross-check of ``compare.py``: every engine's move sets, position by
position, against fastdou's matching kicker profile (DouZero: ``douzero``, RLCard:
``standard``, OpenSpiel: ``openspiel``), each difference counted under the engine's known
bugs (RULES.md section 2) or as unexplained."""

from __future__ import annotations

import numpy as np

import fastdou
from benchmarks.engines import (DOUZERO_PROFILE, NAMES, OPENSPIEL_PROFILE, STANDARD, _counts,
                     douzero_lead, douzero_respond, rlcard_lead, rlcard_respond)
from fastdou import cards as C
from fastdou import kernels as K
from fastdou.kernels import layout as L
from fastdou.rules import rules_array

_DZ_SHIFT = {v: 4 * i for i, v in enumerate(C.DOUZERO)}
_TEXT_SHIFT = {t: 4 * i for i, t in enumerate(C.TOKENS)}
CHAINS = (L.SOLO_CHAIN, L.PAIR_CHAIN, L.TRIO_CHAIN)


def _pack_dz(move) -> int:
    return sum(1 << _DZ_SHIFT[v] for v in move)


def _pack_text(text) -> int:
    return sum(1 << _TEXT_SHIFT[t] for t in text)


def _text(packed: int) -> str:
    return C.to_text(C.unpack(packed)) or "pass"


def _fastdou_records(hands, lasts, rules):
    moves, offsets = K.generate_batch(hands, lasts, rules_array(rules))
    return [moves[offsets[i]:offsets[i + 1]] for i in range(len(hands))]


def _kind(info) -> int:
    return int(info) & L.INFO_FIELD_MASK


class Differences:
    """Counts of the differences between an engine's move sets and fastdou's, by class, with
    the first example of each class."""

    def __init__(self, engine, work, profile, positions):
        self.res = {"engine": engine, "work": work, "fastdou_profile": profile,
                    "positions": positions, "equal": 0, "known": {}, "unexplained": 0,
                    "examples": {}}

    def add(self, cls, position, move, n=1):
        if n <= 0:
            return
        if cls == "unexplained":
            self.res["unexplained"] += n
        else:
            self.res["known"][cls] = self.res["known"].get(cls, 0) + n
        self.res["examples"].setdefault(cls, f"{position}: {move}")

    def done(self, equal):
        self.res["equal"] = equal
        self.res["percent_equal"] = 100.0 * equal / max(self.res["positions"], 1)
        return self.res


def check_multisets(engine, work, profile, theirs, ours, positions, dups, plane_bug):
    """Distinct card multisets per position (DouZero, RLCard). ``dups``: each position's
    duplicate entries in the engine's list (a known DouZero bug); ``plane_bug``: whether a
    difference in a plane is DouZero's known plane-ranking bug."""
    diff, equal = Differences(engine, work, profile, len(ours)), 0
    for i, (a, recs) in enumerate(zip(theirs, ours)):
        b = {int(c) for c in recs[:, 0]}
        kinds = {int(c): _kind(info) for c, info in recs}
        equal += a == b and dups[i] == 0
        diff.add("duplicate moves", positions[i], "", dups[i])
        for only, label in ((a - b, f"only {NAMES[engine]}"), (b - a, "only fastdou")):
            for m in sorted(only):
                plane = kinds.get(m) in (L.PLANE_SOLO, L.PLANE_PAIR, L.TRIO_CHAIN) or \
                    engine == "douzero" and int(m) not in kinds and _is_plane(m)
                cls = "plane ranked by a wing trio" if plane_bug and plane else "unexplained"
                diff.add(cls, positions[i], f"{label} {_text(m)}")
    return diff.done(equal)


def _is_plane(packed) -> bool:
    """Whether a multiset holds two consecutive chain ranks of three or more cards."""
    c = C.unpack(int(packed))
    return any(c[r] >= 3 and c[r + 1] >= 3 for r in range(11))


def check_openspiel(work, states, hands, lasts, positions):
    """OpenSpiel's legal ids against fastdou's ``openspiel`` profile, each difference
    classified by RULES.md section 2's known OpenSpiel bugs."""
    table = fastdou.action_table(OPENSPIEL_PROFILE)
    ours = _fastdou_records(hands, lasts, OPENSPIEL_PROFILE)
    diff, equal = Differences("openspiel", work, "openspiel", len(states)), 0
    for i, (state, recs) in enumerate(zip(states, ours)):
        mine = {int(x) for x in table.ids(np.ascontiguousarray(recs))}
        theirs = {a for a in state.legal_actions() if a != table.pass_id}
        equal += mine == theirs
        counts = C.unpack(int(hands[i]))
        for a in sorted(mine - theirs):
            cards, info = table.id_records[a]
            kind = _kind(info)
            rank = int(info) >> L.INFO_RANK_SHIFT & L.INFO_FIELD_MASK
            length = int(info) >> L.INFO_LENGTH_SHIFT & L.INFO_FIELD_MASK
            four = kind in CHAINS and counts[rank - length + 1] == 4
            diff.add("chain from a rank held four times (missing)" if four else
                     "unexplained", positions[i], f"only fastdou {_text(cards)}")
        for a in sorted(theirs - mine):
            cards, info = table.id_records[a]
            on_rocket = _kind(lasts[i][1]) == L.ROCKET and _kind(info) == L.BOMB
            diff.add("bomb on the rocket (extra)" if on_rocket else "unexplained",
                     positions[i], f"only OpenSpiel {_text(cards)}")
    return diff.done(equal)


def cross_check(T, lead_packed, resp_packed, lasts, inputs, os_lead, os_resp, reached):
    """Every engine's move sets against fastdou's matching profile, leads and responses."""
    zero = np.zeros((len(lead_packed), 2), np.uint64)
    lead_pos = inputs["rl_lead"]
    resp_pos = [f"{C.to_text(_counts(h))} vs {g.played_cards}"
                for h, (_, g) in zip(resp_packed, inputs["rl_resp"])]
    dz_lead_lists = [douzero_lead(T, c) for c in inputs["dz_lead"]]
    dz_resp_lists = [[m for m in douzero_respond(T, h, l) if m] for h, l in inputs["dz_resp"]]
    out = []
    for work, lists, packed, last, pos in (
            ("lead", dz_lead_lists, lead_packed, zero, lead_pos),
            ("respond", dz_resp_lists, resp_packed, lasts, resp_pos)):
        sets = [{_pack_dz(m) for m in ms} for ms in lists]
        dups = [len(ms) - len(s) for ms, s in zip(lists, sets)]
        out.append(check_multisets("douzero", work, "douzero", sets,
                                   _fastdou_records(packed, last, DOUZERO_PROFILE), pos, dups,
                                   plane_bug=work == "respond"))
    rl_lead = [{_pack_text(s) for s in rlcard_lead(T, t)} for t in inputs["rl_lead"]]
    rl_resp = [{_pack_text(s) for s in rlcard_respond(T, p, g) if s != "pass"}
               for p, g in inputs["rl_resp"]]
    for work, sets, packed, last, pos in (("lead", rl_lead, lead_packed, zero, lead_pos),
                                          ("respond", rl_resp, resp_packed, lasts, resp_pos)):
        out.append(check_multisets("rlcard", work, "standard", sets,
                                   _fastdou_records(packed, last, STANDARD), pos,
                                   [0] * len(sets), plane_bug=False))
    out.append(check_openspiel("lead", os_lead, lead_packed, zero, lead_pos))
    out.append(check_openspiel("respond", os_resp, resp_packed[reached], lasts[reached],
                               [resp_pos[i] for i in reached]))
    return out
