"""OpenSpiel's action ids of classic Dou Dizhu moves (the ``openspiel`` profile).

OpenSpiel's ``dou_dizhu`` (open_spiel 2.0.2, the version tested) numbers a player's actions
``0`` pass, ``1..3`` bids, and from ``PLAY_BASE = 4`` one id per (cards, reading) play,
26,053 of them: ``OPENSPIEL_SIZE = 26,057`` ids. Its deal is chance outcomes, a separate id
space (``0..50`` pick the position of the face-up card, ``51 + c`` deals card ``c``).
:func:`openspiel_ids` computes the id of each move from the move itself by this rule.

Plays come in blocks, in this order; within a block the ids run in the order given:

=============  =====  ==================================================================
block          size   order inside the block
=============  =====  ==================================================================
solo           15     rank (3 .. 2, small joker, big joker)
solo_chain     36     chain length (5 .. 12), then lowest rank
pair           13     rank
pair_chain     52     chain length (3 .. 10), then lowest rank
trio           13     rank
trio_solo      182    trio rank, then the single's rank (all 14 other ranks)
trio_pair      156    trio rank, then the pair's rank (the 12 other non-joker ranks)
trio_chain     45     chain length (2 .. 6), then lowest rank
plane_solo     22588  chain length (2 .. 5), then lowest rank, then the wings (below)
plane_pair     2939   chain length (2 .. 4), then lowest rank, then the wings (below)
bomb           13     rank
rocket         1
=============  =====  ==================================================================

Wings. A plane's wings are a multiset over the ranks outside its chain: for plane_solo L
cards, at most three of a rank and at most one joker; for plane_pair L pairs of distinct
non-joker ranks. Each (length, lowest rank) owns the same number of ids, one per wing
multiset. They are ordered by the wings written highest first, compared lexicographically:
for ``333444`` the wings run ``55``, ``65``, ``66``, ``75``, ``76``, ``77``, ``85``, ...
(OpenSpiel writes them lowest first: ``333444-56`` is the second). A wing multiset's position
in that order is counted, not looked up (:func:`_wing_index`).

A multiset with two readings (``333444555666``: a four-trio chain and the planes 345 + 666,
456 + 333) gets one id per reading; the reading is the record's (kind, rank, length).
"""

from __future__ import annotations

import functools

import numpy as np

from fastdou import kernels as K
from fastdou.errors import IllegalMoveError
from fastdou.rules import rules, rules_array
from fastdou.kernels.layout import (
    COUNT_BITS, COUNT_MASK, INFO_FIELD_MASK, INFO_LENGTH_SHIFT, INFO_RANK_SHIFT, N_RANKS,
    PAIR, PAIR_CHAIN, PLANE_PAIR, PLANE_SOLO, REC_CARDS, REC_INFO, REC_WIDTH, SOLO,
    SOLO_CHAIN, TRIO, TRIO_CHAIN, TRIO_PAIR, TRIO_SOLO, BOMB, ROCKET,
)

OPENSPIEL_PASS = 0
BID_IDS = (1, 2, 3)                 # bid 1, bid 2, bid 3 (OPENSPIEL_PASS + bid)
PLAY_BASE = 4
N_NORMAL = 13                # ranks 3 .. 2 (index 0 .. 12): the ranks that come four times
N_CHAIN_RANKS = 12           # chains use ranks 3 .. A (index 0 .. 11)
_RULES = rules("classic", profile="openspiel")

# (kind, shortest chain, longest chain), in OpenSpiel's block order.
_BLOCKS = (
    (SOLO, 1, 1), (SOLO_CHAIN, 5, 12), (PAIR, 1, 1), (PAIR_CHAIN, 3, 10), (TRIO, 1, 1),
    (TRIO_SOLO, 1, 1), (TRIO_PAIR, 1, 1), (TRIO_CHAIN, 2, 6), (PLANE_SOLO, 2, 5),
    (PLANE_PAIR, 2, 4), (BOMB, 1, 1), (ROCKET, 1, 1),
)


def _heads(length: int) -> int:
    """How many chains of ``length`` fit in ranks 3 .. A."""
    return N_CHAIN_RANKS - length + 1


def _wing_caps(kind: int, length: int) -> np.ndarray:
    """Per wing label (the ranks outside the chain, lowest first), the most units it takes:
    plane_solo: three of a normal rank, one of each joker; plane_pair: one pair of a normal
    rank (units are pairs)."""
    normal = N_NORMAL - length
    if kind == PLANE_SOLO:
        return np.array([3] * normal + [1, 1], dtype=np.int64)
    return np.ones(normal, dtype=np.int64)


@functools.lru_cache(maxsize=None)
def _completions(kind: int, length: int) -> np.ndarray:
    """``W[t, r]``: how many wing count vectors over labels ``0 .. t-1`` (caps as
    :func:`_wing_caps`) hold ``r`` units. (The joker rule "not both" never binds inside
    these counts: :func:`_wing_index` asks for labels below the big joker only.)"""
    caps = _wing_caps(kind, length)
    w = np.zeros((len(caps) + 1, length + 1), dtype=np.int64)
    w[0, 0] = 1
    for t, cap in enumerate(caps):
        for v in range(cap + 1):
            w[t + 1, v:] += w[t, :length + 1 - v]
    return w


@functools.lru_cache(maxsize=None)
def _n_wings(kind: int, length: int) -> int:
    """How many wing multisets a plane of this kind and length has (88, 330, 816, 1372 for
    plane_solo; 55, 120, 126 for plane_pair)."""
    w = _completions(kind, length)
    if kind == PLANE_SOLO:      # no big joker: labels below it; the big joker: no small one
        return int(w[-2, length] + w[-3, length - 1])
    return int(w[-1, length])


def _heads_of(kind: int, length: int) -> int:
    """How many ranks (or chains) a group of ids runs over."""
    if kind == SOLO:
        return N_RANKS
    if kind == ROCKET:
        return 1
    if kind in (PAIR, TRIO, TRIO_SOLO, TRIO_PAIR, BOMB):
        return N_NORMAL
    return _heads(length)


def _per_head(kind: int, length: int) -> int:
    """How many ids each rank (or chain) of a group owns."""
    if kind in (PLANE_SOLO, PLANE_PAIR):
        return _n_wings(kind, length)
    return {TRIO_SOLO: N_RANKS - 1, TRIO_PAIR: N_NORMAL - 1}.get(kind, 1)


def _block_layout() -> tuple[dict, int]:
    """``({(kind, length): (first id, ids per rank or chain)}, OPENSPIEL_SIZE)``."""
    layout, nxt = {}, PLAY_BASE
    for kind, lo, hi in _BLOCKS:
        for length in range(lo, hi + 1):
            layout[kind, length] = (nxt, _per_head(kind, length))
            nxt += _heads_of(kind, length) * _per_head(kind, length)
    return layout, nxt


_LAYOUT, OPENSPIEL_SIZE = _block_layout()


def _wing_index(wings: np.ndarray, kind: int, length: int) -> np.ndarray:
    """Position of each wing count vector (rows of ``wings``, labels lowest first, in units)
    among all wing multisets of a plane, ordered by the wings written highest first.

    With the highest labels most significant, a multiset comes before another exactly when,
    at the highest label where their counts differ, it holds fewer: so the position is the
    sum, over labels ``t`` from the top down and over each smaller count ``v`` at ``t``, of
    the vectors that agree above ``t``, hold ``v`` at ``t`` and complete below ``t``.
    """
    w = _completions(kind, length)
    n, labels = wings.shape
    index = np.zeros(n, dtype=np.int64)
    above = np.zeros(n, dtype=np.int64)                 # units held at labels > t
    for t in range(labels - 1, -1, -1):
        for v in range(int(wings[:, t].max(initial=0))):
            rest = length - above - v
            take = (wings[:, t] > v) & (rest >= 0)
            index[take] += w[t, rest[take]]
        above += wings[:, t]
    return index


def openspiel_ids(records) -> np.ndarray:
    """OpenSpiel's action id (``PLAY_BASE .. OPENSPIEL_SIZE - 1``) of each move record, by the
    rule in this module's docstring. ``records`` is an ``(n, 2)`` uint64 array of moves of the
    classic ``openspiel`` profile; anything else (four_two, a bomb among wings, a record that
    is no move) raises IllegalMoveError."""
    recs = np.asarray(records)
    if recs.ndim != 2 or recs.shape[1] != REC_WIDTH:
        raise IllegalMoveError(f"move records have shape (n, {REC_WIDTH}), not {recs.shape}")
    recs = np.ascontiguousarray(recs, dtype=np.uint64)
    bad = K.first_invalid(recs, rules_array(_RULES))
    if bad >= 0:
        raise IllegalMoveError(
            f"record {bad} ({int(recs[bad, 0]):#x}, {int(recs[bad, 1]):#x}) is not a move of "
            f"the classic openspiel profile, so OpenSpiel has no id for it")
    shifts = np.arange(N_RANKS, dtype=np.uint64) * np.uint64(COUNT_BITS)
    counts = ((recs[:, REC_CARDS, None] >> shifts) & np.uint64(COUNT_MASK)).astype(np.int64)
    info = recs[:, REC_INFO].astype(np.int64)
    kind = info & INFO_FIELD_MASK
    rank = (info >> INFO_RANK_SHIFT) & INFO_FIELD_MASK
    length = (info >> INFO_LENGTH_SHIFT) & INFO_FIELD_MASK
    ids = np.full(len(recs), -1, dtype=np.int64)
    for (k, n), (first, per_head) in _LAYOUT.items():
        sel = np.flatnonzero((kind == k) & (length == n))
        if not len(sel):
            continue
        low = rank[sel] - n + 1                          # a chain's lowest rank
        if k in (SOLO, PAIR, TRIO, BOMB, ROCKET):
            ids[sel] = first + (0 if k == ROCKET else rank[sel])
        elif k in (SOLO_CHAIN, PAIR_CHAIN, TRIO_CHAIN):
            ids[sel] = first + low
        elif k in (TRIO_SOLO, TRIO_PAIR):
            c = counts[sel].copy()
            c[np.arange(len(sel)), rank[sel]] -= 3
            kicker = np.argmax(c > 0, axis=1)
            ids[sel] = first + rank[sel] * per_head + kicker - (kicker > rank[sel])
        else:
            c = counts[sel]
            ranks = np.arange(N_RANKS)
            outside = (ranks < low[:, None]) | (ranks > rank[sel, None])
            wings = c[outside].reshape(len(sel), N_RANKS - n)
            if k == PLANE_PAIR:
                wings = wings[:, :N_NORMAL - n] // 2
            index = _wing_index(wings, k, n)
            ids[sel] = first + low * per_head + index
    if (ids < 0).any():     # first_invalid let through a kind OpenSpiel does not number
        raise IllegalMoveError(f"record {int(np.flatnonzero(ids < 0)[0])} has no OpenSpiel id")
    return ids
