"""The naive reference ("oracle") for the move generator, read straight from RULES.md.

This module is deliberately simple and slow. It does not share any code with the compiled
generator in ``kernels/`` (it only imports the plain constants of
``fastdou.kernels.layout``), so the two can be checked against each other:

* :func:`readings` lists every way one multiset of cards can be played as a single move,
  by trying every decomposition RULES.md §2 and §4 allow (every chain start and length,
  every choice of the four / trio, the rest as kickers or wings).
* :func:`leading_moves` tries *every* sub-multiset of a hand and keeps those with a reading.
* :func:`beats` compares two moves; :func:`responses` keeps the leading moves that beat the
  last play.

Moves are tuples ``(cards, kind_name, rank, length)``: ``cards`` is a tuple of 15 counts
(index 0..14 = ranks 3 4 5 6 7 8 9 T J Q K A 2 B R), ``kind_name`` the ``Kind`` member name,
``rank`` the rank the move is compared by (a chain's / plane's top rank, the four's rank for
four_two / quad_trio / dress, the top quad for carrier / spaceship, the highest joker for a
rocket) and ``length`` the chain length (1 for every kind that is not a chain).

Use it in tests only: compare the generator's output on small or random hands with
``leading_moves`` / ``responses`` as sets. A random 20-card hand takes seconds here.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from fastdou.kernels import layout as L
from fastdou.kinds import Kind

N = L.N_RANKS            # 15 ranks
SJ = L.SMALL_JOKER       # 13
BJ = L.BIG_JOKER         # 14
TWO = L.RANK_2           # 12
TOKENS = "3456789TJQKA2BR"


# ---------------------------------------------------------------------------- small helpers
def cards_from_str(text: str) -> tuple:
    """``"33344455BR"`` -> count tuple (test helper; tokens 3..9 T J Q K A 2 B R only)."""
    counts = [0] * N
    for ch in text.upper().replace(" ", ""):
        counts[TOKENS.index(ch)] += 1
    return tuple(counts)


def cards_to_str(cards) -> str:
    return "".join(TOKENS[r] * c for r, c in enumerate(cards))


def _minus(cards, *parts):
    """cards with each (rank, count) of parts removed (counts may go negative: callers check)."""
    out = list(cards)
    for r, c in parts:
        out[r] -= c
    return tuple(out)


def _present(cards):
    """The ranks held, low to high."""
    return [r for r in range(N) if cards[r] > 0]


@lru_cache(maxsize=None)
def _setup(rules):
    """Per-rules facts: the enabled kind names and the deck as a tuple."""
    enabled = frozenset(Kind(k).name for k in rules.kinds)
    deck = tuple(int(c) for c in rules.deck)
    return enabled, deck


def _is_pair_rank(r, rules):
    """Can two cards of rank r form a pair? Non-jokers yes; identical jokers if joker_pairs."""
    if r < SJ:
        return True
    return rules.joker_pairs


def _chain_ok(low, top, rules):
    """Is low..top inside the chain ranks?"""
    return rules.chain_low <= low and top <= rules.chain_high


def _runs(cards, count, min_len, rules):
    """Every (low, top) run of consecutive chain ranks holding exactly ``count`` cards each,
    of length >= min_len."""
    out = []
    for low in range(rules.chain_low, rules.chain_high + 1):
        top = low
        while top <= rules.chain_high and cards[top] == count:
            if top - low + 1 >= min_len:
                out.append((low, top))
            top += 1
    return out


def _only_run(cards, count, min_len, rules):
    """If cards are exactly one run of consecutive chain ranks with ``count`` each (length
    >= min_len), return (top, length); else None."""
    ranks = _present(cards)
    if not ranks:
        return None
    if any(cards[r] != count for r in ranks):
        return None
    low, top = ranks[0], ranks[-1]
    length = top - low + 1
    if length != len(ranks) or length < min_len or not _chain_ok(low, top, rules):
        return None
    return top, length


# ---------------------------------------------------------------------------- wings / kickers
def _solo_wings_ok(rest, low, top, rules):
    """plane_solo wings (RULES.md §2 and the kicker fields)."""
    for r in range(low, top + 1):
        if rest[r] != 0:
            return False                                   # wings are outside the chain
    if rest[SJ] >= 1 and rest[BJ] >= 1 and not rules.rocket_kickers:
        return False                                       # both jokers among the wings
    for r in range(N):
        if rest[r] >= 4 and not rules.bomb_wings:
            return False                                   # a bomb among the wings
        if rest[r] == 3:
            if rules.wing_trio == "never":
                return False
            if rules.wing_trio == "not_adjacent":
                if r == low - 1 and low - 1 >= rules.chain_low:
                    return False                           # would extend the chain down
                if r == top + 1 and top + 1 <= rules.chain_high:
                    return False                           # would extend the chain up
    return True


def _distinct_pairs(rest, how_many, rules):
    """Is ``rest`` exactly ``how_many`` pairs of distinct ranks?"""
    ranks = _present(rest)
    if len(ranks) != how_many:
        return False
    return all(rest[r] == 2 and _is_pair_rank(r, rules) for r in ranks)


def _distinct_trios(rest, how_many):
    """Is ``rest`` exactly ``how_many`` trios of distinct (non-joker) ranks?"""
    ranks = _present(rest)
    if len(ranks) != how_many:
        return False
    return all(rest[r] == 3 and r < SJ for r in ranks)


# ---------------------------------------------------------------------------- readings
def readings(cards, rules) -> set:
    """Every reading ``(kind_name, rank, length)`` of ``cards`` played whole as one move.

    ``cards`` is any sequence of 15 counts; ``rules`` a :class:`fastdou.Rules`. Returns an
    empty set when the cards are no legal move.
    """
    return set(_readings(tuple(int(c) for c in cards), rules))


@lru_cache(maxsize=1 << 21)
def _readings(cards, rules):
    enabled, deck = _setup(rules)
    out = set()
    n = sum(cards)
    if n == 0 or n > rules.max_move:
        return frozenset()
    if any(c < 0 or c > d for c, d in zip(cards, deck)):
        return frozenset()                                 # not cards of this deck
    ranks = _present(cards)

    def add(kind, rank, length=1):
        if kind in enabled or kind in ("BOMB", "ROCKET"):
            out.add((kind, rank, length))

    # ---- one rank only: solo, pair, trio, quad, rank bomb, lone joker bomb
    if len(ranks) == 1:
        r = ranks[0]
        c = cards[r]
        if c == 1:
            if r >= SJ and rules.joker_bombs == "lone":
                add("BOMB", r)
            if r < SJ or rules.joker_solos:
                add("SOLO", r)
        if c == 2 and _is_pair_rank(r, rules):
            add("PAIR", r)
        if c == 3 and r < SJ:
            add("TRIO", r)
        if c == 4 and r < SJ:
            add("QUAD", r)
        if r < SJ and rules.bomb_min > 0 and rules.bomb_min <= c <= rules.bomb_max:
            add("BOMB", r)

    # ---- joker bombs (kind ROCKET)
    if ranks and ranks[0] >= SJ:                           # only jokers
        top_joker = ranks[-1]
        if rules.joker_bombs == "all":
            if cards[SJ] == deck[SJ] and cards[BJ] == deck[BJ]:
                add("ROCKET", top_joker)
        elif rules.joker_bombs == "any":
            if n >= 2:
                add("ROCKET", top_joker)

    # ---- plain chains
    for kind, count, min_len in (("SOLO_CHAIN", 1, rules.solo_chain_min),
                                 ("PAIR_CHAIN", 2, rules.pair_chain_min),
                                 ("TRIO_CHAIN", 3, rules.trio_chain_min),
                                 ("QUAD_CHAIN", 4, rules.quad_chain_min)):
        run = _only_run(cards, count, min_len, rules)
        if run is not None:
            add(kind, run[0], run[1])

    # ---- a trio with a kicker: trio_solo, trio_pair
    for t in range(SJ):
        if cards[t] != 3:
            continue
        rest = _minus(cards, (t, 3))
        if sum(rest) == 1:
            add("TRIO_SOLO", t)                            # the single is of another rank
        if _distinct_pairs(rest, 1, rules):
            add("TRIO_PAIR", t)

    # ---- planes: a trio chain plus wings
    for low, top in _runs(cards, 3, rules.trio_chain_min, rules):
        length = top - low + 1
        rest = _minus(cards, *[(r, 3) for r in range(low, top + 1)])
        if sum(rest) == length and _solo_wings_ok(rest, low, top, rules):
            add("PLANE_SOLO", top, length)
        if _distinct_pairs(rest, length, rules):
            add("PLANE_PAIR", top, length)

    # ---- a four with something: four_two_*, quad_trio, dress
    for f in range(SJ):
        if cards[f] != 4:
            continue
        rest = _minus(cards, (f, 4))
        if sum(rest) == 2:                                 # two cards of other ranks
            if not (rest[SJ] >= 1 and rest[BJ] >= 1 and not rules.rocket_kickers):
                add("FOUR_TWO_SOLO", f)
        if _distinct_pairs(rest, 2, rules):
            add("FOUR_TWO_PAIR", f)
        if _distinct_trios(rest, 1):
            add("QUAD_TRIO", f)
        for t in range(SJ):                                # dress: four + trio + pair
            if t != f and rest[t] == 3:
                if _distinct_pairs(_minus(rest, (t, 3)), 1, rules):
                    add("DRESS", f)

    # ---- a quad chain with trios: carrier, spaceship
    for low, top in _runs(cards, 4, rules.quad_chain_min, rules):
        length = top - low + 1
        rest = _minus(cards, *[(r, 4) for r in range(low, top + 1)])
        if _distinct_trios(rest, length):
            add("CARRIER", top, length)
        run = _only_run(rest, 3, 1, rules)
        if run is not None and run[1] == length:
            add("SPACESHIP", top, length)

    return frozenset(out)


# ---------------------------------------------------------------------------- move lists
def leading_moves(hand, rules) -> set:
    """Every move ``(cards, kind_name, rank, length)`` the hand can lead (pass excluded):
    each non-empty sub-multiset of at most ``rules.max_move`` cards, once per reading."""
    hand = tuple(int(c) for c in hand)
    moves = set()
    for sub in itertools.product(*[range(c + 1) for c in hand]):
        size = sum(sub)
        if size == 0 or size > rules.max_move:
            continue
        for kind, rank, length in _readings(sub, rules):
            moves.add((sub, kind, rank, length))
    return moves


def responses(hand, last, rules) -> set:
    """The leading moves of ``hand`` that beat the move ``last`` (pass excluded)."""
    return {m for m in leading_moves(hand, rules) if beats(m, last, rules)}


# ---------------------------------------------------------------------------- move universe
def _multisets(avail, k, start=0):
    """Every multiset of exactly k cards drawn from the counts ``avail``."""
    if k == 0:
        yield (0,) * 15
        return
    for r in range(start, 15):
        for c in range(1, min(avail[r], k) + 1):
            for rest in _multisets(avail, k - c, r + 1):
                m = list(rest)
                m[r] += c
                yield tuple(m)


def _one_deck_candidates(rules):
    """A generous superset of every one-deck move: single ranks, joker sets, runs of 1..4
    of a rank, a trio or four with any 1..4 other cards, trio runs with any L cards or L
    doubled ranks."""
    deck = [int(c) for c in rules.deck]
    out = set()
    for r in range(15):
        for c in range(1, deck[r] + 1):
            out.add(tuple(c if i == r else 0 for i in range(15)))
    out.add(cards_from_str("BR"))
    for k in (1, 2, 3, 4):
        for lo in range(15):
            for hi in range(lo, 15):
                if all(deck[r] >= k for r in range(lo, hi + 1)):
                    out.add(tuple(k if lo <= i <= hi else 0 for i in range(15)))
    for base, extras in ((3, (1, 2)), (4, (2, 4))):
        for t in range(13):
            avail = list(deck)
            avail[t] = 0
            for e in extras:
                for m in _multisets(avail, e):
                    v = list(m)
                    v[t] += base
                    out.add(tuple(v))
    for lo in range(12):
        for hi in range(lo + 1, 12):
            n = hi - lo + 1
            chain = [3 if lo <= i <= hi else 0 for i in range(15)]
            avail = [d - c for d, c in zip(deck, chain)]
            if 4 * n <= rules.max_move:
                for m in _multisets(avail, n):
                    out.add(tuple(a + b for a, b in zip(chain, m)))
            if 5 * n <= rules.max_move:
                for rs in itertools.combinations(range(15), n):
                    v = list(chain)
                    for r in rs:
                        v[r] += 2
                    if all(c <= d for c, d in zip(v, deck)):
                        out.add(tuple(v))
    return out


def one_deck_universe(rules) -> set:
    """Every move some hand of a one-deck preset could play: the candidates with a reading."""
    assert rules.decks == 1
    return {(cards, *reading) for cards in _one_deck_candidates(rules)
            for reading in _readings(cards, rules)}



# ---------------------------------------------------------------------------- comparing
def _is_bomb(move):
    return move[1] in ("BOMB", "ROCKET")


def _top_trio(cards):
    """A spaceship's top trio rank: the highest rank held exactly three times."""
    return max(r for r in range(N) if cards[r] == 3)


def _bomb_power(move, rules):
    """A comparable key for a bomb; a bomb beats another iff its key is strictly greater."""
    cards, kind, rank, _ = move
    if rules.bomb_order == "rank":
        return (rank,)
    # "size_rank": tiers (tier, size, rank)
    n = sum(cards)
    if kind == "BOMB":
        if rank >= SJ:                                     # a lone joker bomb: above rank bombs
            return (1, 0, rank)
        return (0, n, rank)
    # ROCKET
    all_jokers = _setup(rules)[1][SJ] + _setup(rules)[1][BJ]
    if rules.joker_bombs == "all" or n == all_jokers:
        return (2, 0, 0)                                   # the top joker bomb
    # "any", J = n jokers: above rank bombs of <= 2J cards, below larger ones;
    # more jokers win, equal numbers tie (rank bombs have rank <= 12 < 99).
    return (0, 2 * n, 99)


def beats(a, b, rules) -> bool:
    """Does move ``a`` beat move ``b``? Both are ``(cards, kind_name, rank, length)``."""
    a_bomb, b_bomb = _is_bomb(a), _is_bomb(b)
    if a_bomb and not b_bomb:
        return True
    if b_bomb and not a_bomb:
        return False
    if a_bomb and b_bomb:
        return _bomb_power(a, rules) > _bomb_power(b, rules)
    a_cards, a_kind, a_rank, a_len = a
    b_cards, b_kind, b_rank, b_len = b
    if a_kind != b_kind or a_len != b_len or sum(a_cards) != sum(b_cards):
        return False
    if a_kind == "SPACESHIP":
        return (a_rank, _top_trio(a_cards)) > (b_rank, _top_trio(b_cards))
    return a_rank > b_rank
