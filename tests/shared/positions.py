"""Random search positions for tests and benchmarks."""
import numpy as np

import fastdou
from fastdou import Position


def draw_cards(rng, pool, k):
    """k cards from the multiset ``pool`` (counts), removed from it."""
    cards = np.repeat(np.arange(15), pool)
    picked = rng.choice(cards, k, replace=False)
    out = np.bincount(picked, minlength=15)
    pool -= out
    return out


def random_position(rng, rules, seats, max_cards, mid, wild=None):
    """A random position; half the time drawn from a few consecutive ranks and the jokers,
    so bombs, rockets, chains and long tricks are common. Under wild cards (``wild``, a rank
    index or a tuple of them) each seat holds a card of a wild rank half the time."""
    pool = rules.deck.astype(np.int64).copy()
    wilds = [np.zeros(15, np.int64) for _ in range(seats)]
    if wild is not None:
        ranks = wild if isinstance(wild, tuple) else (wild,)
        for w in wilds:
            r = ranks[int(rng.integers(len(ranks)))]
            if rng.random() < 0.5 and pool[r] > 0:
                w[r] = 1
                pool[r] -= 1
    if rng.random() < 0.5:
        low = int(rng.integers(0, 10))
        keep = np.zeros(15, bool)
        keep[low:low + int(rng.integers(3, 6))] = True
        keep[13:] = True
        pool[~keep] = 0
    sizes = [int(rng.integers(1, max_cards + 1)) for _ in range(seats)]
    while sum(sizes) + (2 if mid else 0) > pool.sum():
        sizes = [max(1, s - 1) for s in sizes]
    hands = [np.zeros(15, np.int64) for _ in sizes]
    if rng.random() < 0.5:                       # a bomb or a joker bomb in some hand
        seat = int(rng.integers(seats))
        ranks = [r for r in range(13) if rules.bomb_min and pool[r] >= rules.bomb_min]
        if ranks and rng.random() < 0.6:
            r = int(rng.choice(ranks))
            hands[seat][r] = int(rng.integers(rules.bomb_min,
                                              min(pool[r], rules.bomb_max) + 1))
        else:
            hands[seat][13:] = pool[13:]
        pool -= hands[seat]
        sizes[seat] = max(0, sizes[seat] - int(hands[seat].sum()))
    for seat, s in enumerate(sizes):
        hands[seat] += wilds[seat]
        s -= int(wilds[seat].sum())
        if hands[seat].sum() + s <= 0:
            s = 1
        hands[seat] += draw_cards(rng, pool, max(0, min(s, int(pool.sum()))))
    if any(h.sum() == 0 for h in hands):
        return random_position(rng, rules, seats, max_cards, mid, wild)
    landlord = int(rng.integers(seats))
    partner = None
    if seats >= 3 and rng.random() < 0.3:
        partner = int(rng.choice([s for s in range(seats) if s != landlord]))
    to_move = int(rng.integers(seats))
    last = last_player = None
    if mid and pool.sum() > 0:
        last_player = int(rng.choice([s for s in range(seats) if s != to_move]))
        extra = draw_cards(rng, pool, int(min(pool.sum(), rng.integers(1, 5))))
        moves = list(fastdou.legal_moves(extra, rules=rules, wild=wild))
        last = moves[int(rng.integers(len(moves)))]
    return Position([fastdou.cards.to_text(h) for h in hands], rules, landlord=landlord,
                    partner=partner, to_move=to_move, last=last, last_player=last_player,
                    wild=wild)
