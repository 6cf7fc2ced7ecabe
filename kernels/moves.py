"""The kernels solver authors call: leading moves, responses, counts, readings, ``beats``.

Hands and cards are packed ``uint64`` multisets (``packing.pack``); a move is a record, a
``uint64`` array of 2 (``[cards, info]``, see ``layout``); ``rules`` is ``Rules.array``.
Every function is ``@njit`` and callable from a user's own ``@njit`` code.
"""

import numpy as np

from fastdou.kernels.answer_counts import count_answers
from fastdou.kernels.generate import (
    ANY, FOURS_KINDS, NO_KIND, _bombs, _fours, _same_rank, bomb_power, bomb_query,
    chains_of, emit, is_bomb_kind, lead_query, query, scan, trio_top, wanted,
)
from fastdou.kernels.jit import inline_leaf, kernel, leaf, nrt_kernel
from fastdou.kernels.layout import (
    INFO_FIELD_MASK, INFO_LENGTH_SHIFT, INFO_RANK_SHIFT, K_CHAIN_MIN, K_CORE, KINDS, N_KINDS, PAIR,
    PASS, QUAD, R_DECK, REC_CARDS, REC_INFO, REC_WIDTH, SOLO, SPACESHIP, TRIO,
)
from fastdou.kernels.packing import contains, size


@kernel
def kind_of(info):
    """Kind id of a move's info word."""
    return np.int64(info & np.uint64(INFO_FIELD_MASK))


@kernel
def rank_of(info):
    """Compared-by rank of a move's info word."""
    return np.int64((info >> np.uint64(INFO_RANK_SHIFT)) & np.uint64(INFO_FIELD_MASK))


@kernel
def length_of(info):
    """Chain length of a move's info word (1 for kinds that are not chains)."""
    return np.int64((info >> np.uint64(INFO_LENGTH_SHIFT)) & np.uint64(INFO_FIELD_MASK))


@nrt_kernel
def new_moves(capacity):
    """An empty move array with room for ``capacity`` records."""
    return np.empty((capacity, REC_WIDTH), np.uint64)


@inline_leaf
def leading_moves(hand, rules, out):
    """Every move ``hand`` may lead. Returns the count; writes the first ``len(out)``."""
    return emit(hand, rules, lead_query(), out)


@inline_leaf
def actions_of_play(hand, last, rules, out):
    """The actions of a seat holding ``hand`` in play: the pass record ``[0, 0]`` first when
    there is a ``last`` move to answer, then :func:`responses`. Returns how many there are,
    writing as many as fit."""
    if kind_of(last[REC_INFO]) == PASS:
        return leading_moves(hand, rules, out)
    if out.shape[0] > 0:
        out[0, 0] = 0
        out[0, 1] = 0
    return 1 + _answers(hand, last, rules, out[1:])    # out[1:] of an empty out is empty


@leaf
def responses(hand, last, rules, out):
    """Every move of ``hand`` that beats the record ``last`` (pass excluded).

    A ``last`` of kind PASS means the hand leads. Returns the count; writes the first
    ``len(out)``.
    """
    if kind_of(last[REC_INFO]) == PASS:
        return leading_moves(hand, rules, out)
    return _answers(hand, last, rules, out)


@inline_leaf
def _answers(hand, last, rules, out):
    """:func:`emit` of :func:`response_query` for a ``last`` that is not a pass, running only
    the generator that query reaches: the moves of ``last``'s kind, then the bombs (emit's
    order). Same records in the same order; the general ``emit`` pays for every kind's
    filter on each call (measured: about 5 ns of 34 a classic response)."""
    h = np.uint64(hand)
    q = response_query(last, rules)
    kind = q[0]
    n = np.int64(0)          # (typed: a literal 0 would compile each callee once more)
    if kind == NO_KIND:                 # a bomb: the bombs above it alone (no scan needed)
        return _bombs(out, n, h, rules, np.int64(0), q[5])
    if kind >= N_KINDS:                 # not a move: emit's filters decide
        return emit(h, rules, q, out)
    if kind == SOLO:                    # of ranks above last's (each branch scans anew:
        sc = scan(h, rules, q)          # the masks it does not read are never computed)
        if wanted(sc, SOLO, 1):
            n = _same_rank(out, n, sc.solos & sc.up, kind, KINDS[kind, K_CORE])
    elif kind == PAIR:
        sc = scan(h, rules, q)
        if wanted(sc, PAIR, 1):
            n = _same_rank(out, n, sc.pairs & sc.up, kind, KINDS[kind, K_CORE])
    elif kind == TRIO or kind == QUAD:
        sc = scan(h, rules, q)
        if wanted(sc, kind, 1):
            n = _same_rank(out, n, (sc.trios if kind == TRIO else sc.fours) & sc.up, kind,
                           KINDS[kind, K_CORE])
    elif (1 << kind) & FOURS_KINDS:
        sc = scan(h, rules, q)
        if sc.kinds & FOURS_KINDS:
            n = _fours(out, n, h, rules, sc)
    elif KINDS[kind, K_CHAIN_MIN] >= 0:
        sc = scan(h, rules, q)
        if sc.kinds & (1 << kind):
            n = chains_of(out, n, h, rules, sc, kind)
    else:                               # the trios with kickers: emit's own loop
        return emit(h, rules, q, out)
    return _bombs(out, n, h, rules, np.int64(0), q[5])


@inline_leaf
def response_query(last, rules):
    """The ``emit`` filters of the moves beating record ``last`` (every move: a PASS)."""
    info = last[REC_INFO]
    kind = kind_of(info)
    if kind == PASS:
        return lead_query()
    if is_bomb_kind(kind):
        return bomb_query(bomb_power(last[REC_CARDS], kind, rank_of(info), rules))
    rank = rank_of(info)
    length = length_of(info)
    rank2 = trio_top(last[REC_CARDS], rank, length) if kind == SPACESHIP else -1
    return query(kind, length, 0, rank, rank2, -1)


@inline_leaf
def count_responses(hand, last, rules):
    """Number of moves of ``hand`` that beat ``last``, without building them: the one kind
    to count, in closed form (``answer_counts.count_answers``)."""
    return count_answers(np.uint64(hand), rules, last[REC_CARDS], last[REC_INFO])


@leaf
def readings(cards, rules, out):
    """Every reading of the multiset ``cards`` played whole, as records in ``out``."""
    return emit(cards, rules, query(ANY, 0, size(cards), -1, -1, -1), out)


@leaf
def is_bomb(move):
    """Whether a record is a bomb (rank bomb, lone-joker bomb or joker bomb)."""
    return is_bomb_kind(kind_of(move[REC_INFO]))


@leaf
def beats(a, b, rules):
    """Whether record ``a`` beats record ``b`` (False when either is a pass)."""
    ka = kind_of(a[REC_INFO])
    kb = kind_of(b[REC_INFO])
    if ka == PASS or kb == PASS:
        return False
    if is_bomb_kind(ka) or is_bomb_kind(kb):      # a bomb beats every non-bomb (power -1)
        return bomb_power(a[REC_CARDS], ka, rank_of(a[REC_INFO]), rules) > \
            bomb_power(b[REC_CARDS], kb, rank_of(b[REC_INFO]), rules)
    la = length_of(a[REC_INFO])
    if ka != kb or la != length_of(b[REC_INFO]) or size(a[REC_CARDS]) != size(b[REC_CARDS]):
        return False
    ra = rank_of(a[REC_INFO])
    rb = rank_of(b[REC_INFO])
    if ka == SPACESHIP and ra == rb:
        return trio_top(a[REC_CARDS], ra, la) > trio_top(b[REC_CARDS], rb, la)
    return ra > rb


@kernel
def first_invalid(records, rules):
    """Index of the first record that is neither a pass ``[0, 0]`` nor a legal move under
    ``rules`` (cards the deck holds, read as its kind, rank and length); -1 if none."""
    deck = np.uint64(rules[R_DECK])
    out = np.empty((64, REC_WIDTH), np.uint64)
    for i in range(records.shape[0]):
        cards = records[i, REC_CARDS]
        info = records[i, REC_INFO]
        if info == 0 and cards == 0:
            continue
        if not contains(deck, cards):
            return i
        n = readings(cards, rules, out)
        if n > out.shape[0]:
            out = np.empty((n, REC_WIDTH), np.uint64)
            readings(cards, rules, out)
        found = False
        for j in range(n):
            found = found or out[j, REC_INFO] == info
        if not found:
            return i
    return -1
