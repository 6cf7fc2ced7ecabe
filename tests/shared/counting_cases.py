"""Hands and last moves that stress the counting kernels (shared by the counting and batch tests)."""
import numpy as np

from fastdou import kernels as K
from fastdou.rules import rules_array


def concentrated(rng, rules, size):
    """A hand drawn from 3 to 6 ranks only (often consecutive): full ranks, chains, planes
    with wings, many-card bombs (up to 8 of a rank with two decks)."""
    held = np.flatnonzero(rules.deck)
    k = int(rng.integers(3, 7))
    if rng.random() < 0.6:
        start = int(rng.integers(len(held) - k + 1))
        ranks = held[start:start + k]
    else:
        ranks = rng.choice(held, k, replace=False)
    deck = np.zeros(15, np.int64)
    deck[ranks] = rules.deck[ranks]
    if rng.random() < 0.5:                       # and some jokers
        deck[13:] = rules.deck[13:]
    pool = np.repeat(np.arange(15), deck)
    picked = rng.choice(pool, min(size, len(pool)), replace=False)
    return np.bincount(picked, minlength=15).astype(np.uint8)


def packed(hands):
    return K.pack_rows(np.array(hands, np.uint8), np.empty(len(hands), np.uint64))


def lasts_for(rules, hands, rng):
    """The pass plus, for every kind some hand can lead, a few moves of that kind."""
    moves, _ = K.generate_batch(hands, np.zeros((len(hands), 2), np.uint64), rules_array(rules))
    kinds = moves[:, 1] & np.uint64(255)
    out = [np.zeros(2, np.uint64)]
    for k in np.unique(kinds):
        rows = np.flatnonzero(kinds == k)
        out += [moves[i] for i in rng.choice(rows, min(4, len(rows)), replace=False)]
    return np.array(out, np.uint64)
