"""Seeded benchmark corpora of classic positions, dealt with fastdou's counter-based dealer.

* ``lead_hands``: the landlord's 20-card hand (17 + kitty) of deal i, or a farmer's 17.
* ``response_positions``: a farmer's 17-card hand facing a realistic lead of the landlord:
  a kind picked uniformly among the kinds the landlord can lead, then a move of that kind.
"""

import numpy as np
from numba import njit

import fastdou
from fastdou import kernels as K
from fastdou.kernels.deal import deal, next_below, stream


@njit(cache=True)
def _deal_many(deck, sizes, seed, n, out):
    hands = np.zeros((sizes.shape[0], 15), np.int64)
    for i in range(n):
        deal(deck, sizes, seed, i, hands)
        for k in range(sizes.shape[0]):
            out[i, k] = hands[k]
    return out


def deals(n, seed=0, rules="classic"):
    """``(n, players + 1, 15)`` uint8 counts: every player's share and the kitty."""
    r = fastdou.rules(rules)
    sizes = np.array([r.hand_size] * r.players + [r.kitty], dtype=np.int64)
    out = np.zeros((n, len(sizes), 15), dtype=np.int64)
    return _deal_many(r.deck.astype(np.int64), sizes, seed, n, out).astype(np.uint8)


def lead_hands(n, size=20, seed=0, rules="classic"):
    """Packed hands: the landlord's (hand + kitty) when ``size`` is its size, else a
    farmer's."""
    d = deals(n, seed, rules)
    hands = d[:, 0] + d[:, -1] if size == fastdou.rules(rules).landlord_size else d[:, 1]
    assert hands.sum(axis=1).min() == size
    return K.pack_rows(hands, np.empty(n, np.uint64))


@njit(cache=True)
def _pick_lasts(moves, offsets, seed, lasts):
    for i in range(offsets.shape[0] - 1):
        lo, hi = offsets[i], offsets[i + 1]
        seen = 0
        for j in range(lo, hi):
            seen |= 1 << (moves[j, 1] & np.uint64(255))
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
            count += (moves[j, 1] & np.uint64(255)) == kinds[pick]
        which, state = next_below(state, count)
        for j in range(lo, hi):
            if (moves[j, 1] & np.uint64(255)) == kinds[pick]:
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
    moves, offsets = K.generate_batch(landlord, np.zeros((n, 2), np.uint64), r.array)
    lasts = _pick_lasts(moves, offsets, seed, np.zeros((n, 2), np.uint64))
    return farmer, lasts
