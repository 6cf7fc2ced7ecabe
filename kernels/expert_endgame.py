"""The expert player's endgame (:mod:`.expert`): when the hands hold few cards, each legal
action is searched exactly (:mod:`.solver`, under the rules the state carries:
``state.state_rules``) against every way the cards the seat has not seen can lie (the other
hands keeping their public counts; with two seats, the cards out of play hold the rest), or
a sample of random deals of them when there are many; the action that wins the most of them,
weighted by how many deals of the physical cards give each, is played.
"""

import numpy as np

from fastdou.kernels.deal import next_below
from fastdou.kernels.expert_plan import cnt, span
from fastdou.kernels.jit import leaf, nrt_kernel
from fastdou.kernels.layout import BIG_JOKER, R_DECK, R_PLAYERS
from fastdou.kernels.packing import size
from fastdou.kernels.search import (
    S_HANDS, S_HASH, S_LAST_CARDS, S_LAST_INFO, S_LAST_PLAYER, S_SEATS, S_TEAM, S_TO_MOVE,
    S_WILDS, S_WINNER, SEARCH_SIZE, key_width, position_hash,
)
from fastdou.kernels.fewest_plays import MF_WIDTH
from fastdou.kernels.search import UNDO_SIZE
from fastdou.kernels.solver import (
    C_ABORTED, C_MAX_NODES, C_NODES, CTL_SIZE, FRAME_WIDTH, _depth_bound, action_value,
)
from fastdou.kernels.solver_buffers import new_buffer
from fastdou.kernels.solver_control import BK_WIDTH, SF_WIDTH, _BEAT_SLOTS, _FAIL_SLOTS
from fastdou.kernels.state import (
    G_HANDS, G_LANDLORD, G_LAST_CARDS, G_LAST_INFO, G_LAST_PLAYER, G_PLAYED, G_PLAYER, G_WILDS,
    state_rules,
)

ENDGAME_CARDS = 7     # search when the hands hold this many cards or fewer
ALL_SPLITS = 64       # every split when there are at most this many, else ...
SAMPLE_SPLITS = 16    # ... this many random deals of the unseen cards
MOST_CODES = 1 << 12  # splits listed from at most this many codes (two seats: more, sampled)
NODE_LIMIT = 20000    # per action and split; a stopped search counts as half a win
TABLE_POW = 12        # transposition table entries (log 2), shared by every search
MEMO_POW = 10         # min_plays memo entries (log 2): small hands need few


@nrt_kernel
def small_work(pos):
    """:func:`.solver.new_work` (the same parts, ``W_*``) sized for an endgame: a small
    min_plays memo and move buffer, and the can-beat cache's keys left unset (a slot's keys
    are read only once its value marks it used): zeroing the default workspace took longer
    than the searches of an endgame."""
    depth = _depth_bound(pos)
    cards = 0
    for s in range(pos[S_SEATS]):
        cards += size(np.uint64(pos[S_HANDS + s]))
    memo = (np.zeros(1 << MEMO_POW, np.uint64), np.zeros(1 << MEMO_POW, np.int64),
            new_buffer(1 << 8), np.zeros((64, MF_WIDTH), np.int64))
    control = (np.zeros((cards + 2, SF_WIDTH), np.int64), np.zeros(_FAIL_SLOTS, np.uint64),
               np.zeros(_FAIL_SLOTS, np.int64), np.zeros(1, np.int64), new_buffer(16),
               np.empty((_BEAT_SLOTS, BK_WIDTH), np.uint64), np.zeros(_BEAT_SLOTS, np.uint8),
               np.zeros(1 << 10, np.int64))
    return (new_buffer(1 << 10), np.zeros((depth, UNDO_SIZE), np.int64),
            np.zeros((depth, FRAME_WIDTH), np.int64), np.zeros(key_width(pos), np.uint64),
            memo, control)


@leaf
def hands_cards(state):
    """Cards in the seats' hands (public: counts only)."""
    total = 0
    for s in range(state_rules(state)[R_PLAYERS]):
        total += size(np.uint64(state[G_HANDS + s]))
    return total


@leaf
def unseen_of(state, hand):
    """The cards of the deck the seat to act has not seen: not in ``hand``, never played
    (the other hands, and with two seats the cards out of play)."""
    rules = state_rules(state)
    u = np.uint64(rules[R_DECK]) - np.uint64(hand)
    for s in range(rules[R_PLAYERS]):
        u -= np.uint64(state[G_PLAYED + s])
    return u


@leaf
def put_last(pos, state):
    """The move to answer in ``state`` (none when leading) into the search position
    ``pos``."""
    if state[G_LAST_INFO] != 0:
        pos[S_LAST_CARDS] = state[G_LAST_CARDS]
        pos[S_LAST_INFO] = state[G_LAST_INFO]
        pos[S_LAST_PLAYER] = state[G_LAST_PLAYER]
    else:
        pos[S_LAST_PLAYER] = -1


@leaf
def _choose(n, k):
    """The binomial coefficient C(n, k) for small n."""
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)
    return c


@leaf
def _split(u, code):
    """(cards, weight) of split ``code``: mixed-radix digits over the ranks of ``u`` give
    the first seat's count of each; weight: the deals of the physical cards it stands for."""
    x = np.uint64(0)
    w = 1
    for r in range(BIG_JOKER + 1):
        c = cnt(u, r)
        if c > 0:
            d = code % (c + 1)
            code //= c + 1
            x += span(r, 1, d)
            w *= _choose(c, d)
    return x, w


@leaf
def deal_unseen(u, k, rng):
    """A uniformly random ``k`` of the unseen cards ``u`` (a deal of the physical cards)."""
    x = np.uint64(0)
    left = u
    m = size(u)
    for _ in range(k):
        j, rng = next_below(rng, m)
        for r in range(BIG_JOKER + 1):
            c = cnt(left, r)
            if j < c:
                x += span(r, 1, 1)
                left -= span(r, 1, 1)
                break
            j -= c
        m -= 1
    return x, rng


@nrt_kernel
def endgame_values(state, actions, n, hand, rng, values, default, bound, wild=None):
    """``values[i]``: twice the weighted splits action ``i`` wins (a search stopped by the
    node limit counts once). Actions are searched ``default`` first; with ``bound``, an
    action's search stops once it cannot beat the best so far (its value is then a lower
    bound), and every other once ``default`` wins every split. Returns (splits, rng).
    Two or three seats: the next seat holds one part of the unseen cards, the one after it
    (or, with two seats, the cards out of play) the rest. ``wild``: as the solver's."""
    rules = state_rules(state)
    seats = rules[R_PLAYERS]
    p = state[G_PLAYER]
    a = (p + 1) % seats
    b = (p + 2) % seats
    ka = size(np.uint64(state[G_HANDS + a]))         # counts are public, cards are not
    u = unseen_of(state, hand)
    pos = np.zeros(SEARCH_SIZE, np.int64)
    pos[S_SEATS] = seats
    pos[S_TEAM] = 1 << state[G_LANDLORD]
    pos[S_TO_MOVE] = p
    pos[S_WINNER] = -1
    pos[S_HANDS + p] = np.int64(hand)
    if wild is not None:
        pos[S_WILDS] = state[G_WILDS]
    put_last(pos, state)
    codes = 1
    for r in range(BIG_JOKER + 1):
        codes = min(codes * (cnt(u, r) + 1), MOST_CODES + 1)
    splits = ALL_SPLITS + 1
    if codes <= MOST_CODES:
        splits = 0
        for code in range(codes):
            x, w = _split(u, code)
            splits += size(x) == ka
    # the splits searched: every one, or a sample of random deals
    cards = np.empty(min(splits, SAMPLE_SPLITS) if splits > ALL_SPLITS else splits, np.uint64)
    weights = np.ones(cards.shape[0], np.int64)
    if splits > ALL_SPLITS:
        for k in range(cards.shape[0]):
            cards[k], rng = deal_unseen(u, ka, rng)
    else:
        k = 0
        for code in range(codes):
            x, w = _split(u, code)
            if size(x) == ka:
                cards[k] = x
                weights[k] = w
                k += 1
    total = 0
    for k in range(cards.shape[0]):
        total += 2 * weights[k]
    pos[S_HANDS + a] = np.int64(cards[0])             # any split sizes the workspace
    if seats == 3:
        pos[S_HANDS + b] = np.int64(u - cards[0])
    work = small_work(pos)
    # the table's keys are read only where its values mark a slot used (solver_table)
    keys = np.empty((1 << TABLE_POW, key_width(pos)), np.uint64)
    vals = np.zeros(1 << TABLE_POW, np.uint8)
    ctl = np.zeros(CTL_SIZE, np.int64)
    values[:n] = 0
    best = -1
    for j in range(n):
        i = default if j == 0 else (j - 1 if j <= default else j)
        left = total
        for k in range(cards.shape[0]):
            if bound and values[i] + left <= best:
                break
            pos[S_HANDS + a] = np.int64(cards[k])
            if seats == 3:
                pos[S_HANDS + b] = np.int64(u - cards[k])
            pos[S_HASH] = position_hash(pos)
            ctl[C_NODES] = 0
            ctl[C_ABORTED] = 0
            ctl[C_MAX_NODES] = NODE_LIMIT
            r, work = action_value(pos, rules, actions[i], (keys, vals), work, ctl, wild)
            values[i] += 2 * weights[k] if r == 1 else (weights[k] if r < 0 else 0)
            left -= 2 * weights[k]
        best = max(best, values[i])
        if bound and best == total:
            break
    return cards.shape[0], rng


@nrt_kernel
def endgame(state, actions, n, hand, default, rng, wild=None):
    """(the action winning the most splits, ``default`` among the best; rng)."""
    values = np.zeros(n, np.int64)
    _, rng = endgame_values(state, actions, n, hand, rng, values, default, True, wild)
    best = default
    for i in range(n):
        if values[i] > values[best]:
            best = i
    return best, rng
