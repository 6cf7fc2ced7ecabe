"""Seeded benchmark corpora of positions, dealt by the engine's own dealer (the deals
``fastdou.simulate`` plays).

* ``lead_hands``: the landlord's 20-card hand (17 + kitty) of deal i, or a farmer's 17.
* ``response_positions``: a farmer's 17-card hand facing a realistic lead of the landlord:
  a kind picked uniformly among the kinds the landlord can lead, then a move of that kind.
"""

import numpy as np
from numba import njit

import fastdou
from fastdou import kernels as K
from fastdou.kernels import engine as E
from fastdou.kernels import state as S
from fastdou.kernels.deal import next_below, stream
from fastdou.kernels.layout import INFO_FIELD_MASK
from fastdou.rules import rules_array


@njit(cache=True)
def _deal_many(rules, seed, n, out):
    """Deals 0..n-1 of ``seed`` exactly as ``fastdou.simulate`` and ``Game.new`` deal them."""
    state = E.new_state()
    players = out.shape[1] - 1
    for i in range(n):
        E.start(state, rules, seed, i)
        for k in range(players):
            K.unpack(np.uint64(state[S.G_HANDS + k]), out[i, k])
        K.unpack(np.uint64(state[S.G_KITTY]), out[i, players])
    return out


def deals(n, seed=0, rules="classic"):
    """``(n, players + 1, 15)`` uint8 counts: every player's hand as dealt and the kitty
    (the engine's own dealer; with marked-card rules the bright landlord holds the kitty)."""
    r = fastdou.rules(rules)
    out = np.zeros((n, r.players + 1, 15), dtype=np.uint8)
    return _deal_many(rules_array(r), seed, n, out)


def lead_hands(n, size=20, seed=0, rules="classic"):
    """Packed hands: the landlord's (hand + kitty) when ``size`` is its size, else a
    farmer's (seat 0 and 1, or the seat after them that holds what the rules deal)."""
    d = deals(n, seed, rules)
    if size == fastdou.rules(rules).landlord_size:
        # seat 0 plus the kitty, unless seat 0 holds it already (a bright landlord)
        hands = np.where(d[:, :1].sum(axis=2) == size, d[:, 0], d[:, 0] + d[:, -1])
    else:      # seat 1, or seat 2 where seat 1 holds the kitty (a bright landlord)
        hands = np.where(d[:, 1:2].sum(axis=2) == size, d[:, 1], d[:, 2])
    assert (hands.sum(axis=1) == size).all()
    return K.pack_rows(hands, np.empty(n, np.uint64))


@njit(cache=True)
def _pick_lasts(moves, offsets, seed, lasts):
    for i in range(offsets.shape[0] - 1):
        lo, hi = offsets[i], offsets[i + 1]
        seen = 0
        for j in range(lo, hi):
            seen |= 1 << (moves[j, 1] & np.uint64(INFO_FIELD_MASK))
        kinds = np.empty(64, np.int64)
        nk = 0
        for k in range(64):
            if seen >> k & 1:
                kinds[nk] = k
                nk += 1
        state = stream(seed, i)
        pick, state = next_below(state, nk)
        count = 0
        for j in range(lo, hi):
            count += (moves[j, 1] & np.uint64(INFO_FIELD_MASK)) == kinds[pick]
        which, state = next_below(state, count)
        for j in range(lo, hi):
            if (moves[j, 1] & np.uint64(INFO_FIELD_MASK)) == kinds[pick]:
                if which == 0:
                    lasts[i] = moves[j]
                    break
                which -= 1
    return lasts


def response_positions(n, seed=0, rules="classic"):
    """``(hands, lasts)``: packed farmer hands and the landlord lead records they answer."""
    r = fastdou.rules(rules)
    d = deals(n, seed, rules)
    landlord = K.pack_rows(d[:, 0] + d[:, -1], np.empty(n, np.uint64))
    farmer = K.pack_rows(d[:, 1], np.empty(n, np.uint64))
    moves, offsets = K.generate_batch(landlord, np.zeros((n, 2), np.uint64), rules_array(r))
    lasts = _pick_lasts(moves, offsets, seed, np.zeros((n, 2), np.uint64))
    return farmer, lasts
