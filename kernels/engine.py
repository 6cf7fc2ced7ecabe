"""The game engine: dealing, landlord selection, doubling, play and scoring of every preset
(docs/rules.md §4), as kernels over the state array of :mod:`fastdou.kernels.state`.

An *action* is a record ``uint64[2]``: in the play phase a move record (``[0, 0]`` is the
pass); in the other phases ``[value, 0]`` with value 0 for pass / decline / no, 1..3 for a
bid, 1 for call, grab, reveal or double. :func:`legal_actions` lists them in a fixed order
(the pass first), :func:`apply` plays one without checking it.

Randomness: deal ``index`` of ``seed`` draws its shuffle and the first bidder from the
stream ``deal_stream(seed, index, redeal)``, and under rules with wild cards the wild ranks
from a stream of the same deal keyed apart (:func:`_draw_wilds`, when play opens); nothing
else in the engine is random.

Wild cards: :func:`legal_actions` lists their moves only when passed ``wild=True``, which
compiles the wild-card generator in; without it (the default) a caller's compiled code holds
only the classic one. :func:`apply` scores bombs by class under any rules.
"""

import numpy as np
from numba import types
from numba.extending import overload

from fastdou.kernels.deal import mix64, next_below, stream
from fastdou.kernels.jit import VOID_OVERLOAD, inline_kernel, kernel, nrt_kernel
from fastdou.kernels.layout import (
    BIDDING_CALL, BIDDING_CALL_GRAB, BIDDING_MARKED, BIDDING_MODES, BIDDING_SCORE_ONCE, BOMB,
    M_BIDS,
    DOUBLING_EVERYONE, DOUBLING_FARMERS, DOUBLING_LANDLORD, DOUBLING_NONE, MAX_DECK, N_RANKS,
    R_BIDDING,
    R_BOMB_FACTOR, R_CARD_POINTS, R_DECK, R_DOUBLING, R_HAND_SIZE, R_HANDICAP, R_JOKER_FACTOR,
    R_KITTY, R_KITTY_TO_LANDLORD, R_KITTY_TRUMP, R_MAX_BID, R_MAX_GRABS, R_MAX_REDEALS,
    R_ANTI_SPRING_PLAYS, R_PLAYERS, R_SCORING, R_SPRING, ROCKET, SCORING_LANDLORD, SCORING_POINTS,
    BOMB_CLASS_SOFT, BOMB_CLASS_WILD, INFO_CLASS_SHIFT, R_SOFT_FACTOR, R_WILD_FACTOR, R_WILDS,
    RANK_2, SMALL_JOKER,
)
from fastdou.kernels.moves import actions_of_play, kind_of
from fastdou.kernels.packing import count, size, unit
from fastdou.kernels.wild_moves import wild_actions_of_play
from fastdou.kernels.state import (
    BOMB_SIZE_BITS, G_ACTIONS, G_BID, G_BIDDER, G_BOMB_SIZES, G_BOMBS, G_DEAL, G_DECLINED,
    G_DOUBLED, G_DOUBLES, G_FIRST, G_GRABS, G_HANDS, G_KITTY, G_LANDLORD, G_LAST_CARDS,
    G_LAST_INFO, G_LAST_PLAYER, G_MARKED, G_MULT, G_OTHER_PLAYS, G_OUT, G_PARTNER, G_PASSES,
    G_PHASE, G_PLAYER, G_PLAYS, G_REDEALS, G_REVEALS, G_ROCKETS, G_SCORES, G_SEED, G_SPRING,
    G_RULES, G_TEAM, G_TEAM_PLAYS, G_TRUMP, G_TURNS, G_WINNER, MAX_REDEALS_CAP, N_RULE_FIELDS,
    PH_BID, PH_DONE,
    G_HISTORY, G_PARTNER_KNOWN, G_PLAYED, G_SEAT_FIRST, G_SEAT_LAST, G_WILDS, HISTORY_LEN,
    MAX_PLAYERS,
    NO_ACTION,
    PH_DOUBLE, PH_PLAY, PH_REVEAL, SCORE_UNIT, SIDE_FARMERS, SIDE_LANDLORD, SIDE_NONE,
    SIDE_VOID, SPRUNG_ANTI, SPRUNG_NONE, SPRUNG_SPRING, STATE_SIZE,
)

_REDEAL_KEY = np.uint64(0xD1B54A32D192ED03)
_WILD_KEY = np.uint64(0x9E6C63D0676A9A99)


@kernel
def deal_stream(seed, index, redeal):
    """The random stream of deal ``index`` of ``seed``, ``redeal`` times redealt."""
    return stream(np.uint64(seed) ^ mix64(np.uint64(redeal) * _REDEAL_KEY),
                  np.uint64(index))     # (as play.policy_stream: one compiled stream)


@nrt_kernel
def new_state():
    """A zeroed game state."""
    return np.zeros(STATE_SIZE, np.int64)


@kernel
def _shuffle(rules, state_rng, cards):
    """Fill ``cards`` with the physical deck (rank * 4 + suit; jokers suit 0) shuffled by
    Fisher-Yates; returns (number of cards, the stream's state)."""
    deck = np.uint64(rules[R_DECK])
    n = 0
    for r in range(N_RANKS):
        copies = count(deck, r)
        for c in range(copies):
            cards[n] = 4 * r + (c % 4 if r < SMALL_JOKER else 0)
            n += 1
    rng = state_rng
    for i in range(n - 1, 0, -1):
        j, rng = next_below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return n, rng


@kernel
def next_seat(p, players):
    """The seat after ``p`` (without the division a ``%`` costs on every action)."""
    return 0 if p + 1 == players else p + 1


@inline_kernel
def _begin_bidding(state, rules, first):
    """Open the landlord selection with ``first`` to act."""
    state[G_PHASE] = PH_BID
    state[G_PLAYER] = first
    state[G_FIRST] = first
    state[G_LANDLORD] = -1
    state[G_PARTNER] = -1
    state[G_BID] = 0
    state[G_BIDDER] = -1
    state[G_TURNS] = 0
    state[G_PASSES] = 0
    state[G_DECLINED] = 0


@nrt_kernel
def new_deck_buffer():
    """The shuffle's scratch, ``int64[MAX_DECK]``: loops that must not allocate per deal
    (``fastdou.kernels.play``) pass one to :func:`deal` / :func:`start` / :func:`apply`."""
    return np.empty(MAX_DECK, np.int64)


@inline_kernel
def deal(state, rules, scratch=None):
    """Deal for ``state``'s seed, deal index and redeal count, and open the bidding (or, for
    five_player, draw the marked card and name the landlords). ``scratch``: a
    :func:`new_deck_buffer` to shuffle in, or None (one is allocated).

    ``scratch`` picks the body at compile time (an overload), so a caller compiled without
    reference counting may pass a buffer; no function returns the buffer (one compiled for
    such a caller and then handed to a counting one would release it under its owner: see
    ``jit``)."""
    _deal_in(state, rules, scratch)


def _deal_in(state, rules, scratch):
    """:func:`_deal_into` a new deck buffer when ``scratch`` is None, else ``scratch``."""


@overload(_deal_in, inline="always", jit_options=VOID_OVERLOAD)
def _deal_in_overload(state, rules, scratch):
    if scratch is None or isinstance(scratch, (types.NoneType, types.Omitted)):
        return lambda state, rules, scratch: _deal_into(state, rules,
                                                       np.empty(MAX_DECK, np.int64))
    return lambda state, rules, scratch: _deal_into(state, rules, scratch)


@kernel
def _deal_into(state, rules, cards):
    players = rules[R_PLAYERS]
    hand_size = rules[R_HAND_SIZE]
    kitty = rules[R_KITTY]
    n, rng = _shuffle(rules, deal_stream(state[G_SEED], state[G_DEAL], state[G_REDEALS]),
                      cards)
    for p in range(players):
        h = np.uint64(0)
        for i in range(p * hand_size, (p + 1) * hand_size):
            h += unit(cards[i] // 4, 1)
        state[G_HANDS + p] = np.int64(h)
        state[G_SCORES + p] = 0
    k = np.uint64(0)
    state[G_TRUMP] = -1
    shown = rules[R_KITTY_TRUMP]               # jinling: the first kitty card turned up
    for i in range(players * hand_size, players * hand_size + kitty):
        k += unit(cards[i] // 4, 1)
        if shown and state[G_TRUMP] < 0 and cards[i] // 4 < SMALL_JOKER:
            state[G_TRUMP] = cards[i] % 4
    state[G_KITTY] = np.int64(k)
    first, rng = next_below(rng, players)
    _begin_bidding(state, rules, first)
    state[G_MARKED] = -1
    if rules[R_BIDDING] == BIDDING_MARKED:
        _mark(state, rules, cards, rng)


@kernel
def _mark(state, rules, cards, rng):
    """five_player: draw a dealt non-joker card; its holder is the bright landlord (and takes
    the kitty), the holder of its twin the dark one, or nobody when the same player holds
    both (a lone landlord)."""
    players = rules[R_PLAYERS]
    hand_size = rules[R_HAND_SIZE]
    while True:
        pos, rng = next_below(rng, players * hand_size)
        if cards[pos] // 4 < SMALL_JOKER:
            break
    marked = cards[pos]
    bright = pos // hand_size
    dark = bright
    for i in range(players * hand_size):
        if i != pos and cards[i] == marked:
            dark = i // hand_size
    state[G_MARKED] = marked
    name_landlords(state, rules, bright, dark)


@kernel
def name_landlords(state, rules, bright, dark):
    """Marked-card rules: ``bright`` takes the kitty, ``dark`` joins it (dark == bright: a
    lone landlord); the reveal phase opens with the bright landlord."""
    _become_landlord(state, rules, bright)
    if dark != bright:
        state[G_PARTNER] = dark
        state[G_TEAM] |= 1 << dark
    state[G_PHASE] = PH_REVEAL
    state[G_PLAYER] = bright
    state[G_TURNS] = 0


@kernel
def _reset(state, seed, index):
    """A blank hand of deal ``index`` of ``seed``."""
    state[:] = 0
    state[G_SEED] = seed
    state[G_DEAL] = index
    state[G_MULT] = 1
    state[G_WINNER] = SIDE_NONE
    state[G_LAST_PLAYER] = -1
    state[G_OUT] = -1
    state[G_MARKED] = -1
    state[G_TRUMP] = -1


@kernel
def reset(state, seed, index):
    """Set ``state`` to a blank hand of deal ``index`` of ``seed``: nothing dealt, no
    landlord, multiplier 1, no rules (what every way of starting a hand begins from)."""
    _reset(state, seed, index)


@inline_kernel
def put_rules(state, rules):
    """Copy ``rules`` into ``state``'s rules region (``state.G_RULES``): every way of
    starting a hand does, so that a policy can read them (``state.state_rules``). Inlined:
    one function more would lengthen simulate's cold compile."""
    for i in range(N_RULE_FIELDS):          # a loop: a slice copy may allocate a temporary
        state[G_RULES + i] = rules[i]


@inline_kernel
def start(state, rules, seed, index, scratch=None):
    """Set ``state`` to the start of deal ``index`` of ``seed`` (``scratch``: see
    :func:`deal`)."""
    _reset(state, seed, index)
    put_rules(state, rules)
    deal(state, rules, scratch)


@inline_kernel
def _become_landlord(state, rules, p):
    state[G_LANDLORD] = p
    state[G_TEAM] = 1 << p
    state[G_BID] = max(state[G_BID], 1)
    if rules[R_KITTY_TO_LANDLORD]:
        state[G_HANDS + p] += state[G_KITTY]


@kernel
def _begin_doubling(state, rules):
    """After the landlord is known: the doubling phase if the rules have one, else play."""
    mode = rules[R_DOUBLING]
    state[G_TURNS] = 0
    state[G_DOUBLED] = 0
    if mode == DOUBLING_NONE:
        _begin_play(state, rules)
        return
    state[G_PHASE] = PH_DOUBLE
    if mode == DOUBLING_FARMERS:
        state[G_PLAYER] = next_seat(state[G_LANDLORD], rules[R_PLAYERS])
    else:
        state[G_PLAYER] = state[G_LANDLORD]


@kernel
def _begin_play(state, rules):
    state[G_PHASE] = PH_PLAY
    state[G_PLAYER] = state[G_LANDLORD]
    state[G_WILDS] = _draw_wilds(state, rules) if rules[R_WILDS] > 0 else 0
    state[G_LAST_CARDS] = 0
    state[G_LAST_INFO] = 0
    state[G_LAST_PLAYER] = -1
    state[G_PASSES] = 0
    state[G_TURNS] = 0
    for s in range(MAX_PLAYERS):
        state[G_PLAYED + s] = 0
        state[G_SEAT_LAST + 2 * s] = 0
        state[G_SEAT_LAST + 2 * s + 1] = NO_ACTION
        state[G_SEAT_FIRST + 2 * s] = 0
        state[G_SEAT_FIRST + 2 * s + 1] = NO_ACTION


@kernel
def _draw_wilds(state, rules):
    """The bit mask of ``rules``' wild ranks (R_WILDS distinct ranks of 3..2, uniform) for
    the hand in ``state``: from the deal's stream keyed apart from its shuffle, so that
    play, not bidding, reveals them and every way of playing deal ``index`` draws the
    same."""
    rng = deal_stream(np.uint64(state[G_SEED]) ^ _WILD_KEY, state[G_DEAL], state[G_REDEALS])
    a, rng = next_below(rng, RANK_2 + 1)
    mask = np.int64(1) << a
    if rules[R_WILDS] == 2:
        b, rng = next_below(rng, RANK_2)
        mask |= np.int64(1) << (b + (b >= a))
    return mask


@kernel
def begin_play(state, rules):
    """Open the play phase: the landlord (``G_LANDLORD``) leads; no play made yet."""
    _begin_play(state, rules)


@kernel
def skip_to_play(state, rules, landlord):
    """The landlord fixed, straight into play (DouZero's and RLCard's setting): ``landlord``
    takes the kitty at base score 1 and leads; no bidding, reveals or doubling. Marked-card
    rules keep the landlords the deal named (``landlord`` is not used)."""
    if rules[R_BIDDING] != BIDDING_MARKED:
        _become_landlord(state, rules, landlord)
    _begin_play(state, rules)


@kernel
def _log_play(state, rules, p, cards, info):
    """What every seat sees of a play-phase action: the history ring, each seat's first and
    last action, the cards played, and five_player's dark landlord showing itself."""
    slot = G_HISTORY + 3 * (state[G_TURNS] % HISTORY_LEN)
    state[slot] = np.int64(cards)
    state[slot + 1] = np.int64(info)
    state[slot + 2] = p
    state[G_TURNS] += 1
    state[G_SEAT_LAST + 2 * p] = np.int64(cards)
    state[G_SEAT_LAST + 2 * p + 1] = np.int64(info)
    if state[G_SEAT_FIRST + 2 * p + 1] == NO_ACTION:
        state[G_SEAT_FIRST + 2 * p] = np.int64(cards)
        state[G_SEAT_FIRST + 2 * p + 1] = np.int64(info)
    state[G_PLAYED + p] += np.int64(cards)
    if p == state[G_PARTNER] and state[G_MARKED] >= 0 and count(cards, state[G_MARKED] // 4):
        state[G_PARTNER_KNOWN] = 1


@kernel
def _landlord_chosen(state, rules, p):
    _become_landlord(state, rules, p)
    _begin_doubling(state, rules)


@kernel
def _redeal(state, rules, scratch):
    """Nobody took the landlord: deal again, or end the hand void."""
    state[G_REDEALS] += 1
    limit = rules[R_MAX_REDEALS]
    if (limit > 0 and state[G_REDEALS] >= limit) or state[G_REDEALS] >= MAX_REDEALS_CAP:
        state[G_PHASE] = PH_DONE
        state[G_WINNER] = SIDE_VOID
        return
    deal(state, rules, scratch)


@kernel
def is_leading(state):
    """Whether the player to act in the play phase leads a new trick."""
    return state[G_LAST_INFO] == 0


@inline_kernel
def _put_value(out, n, value):
    """Write the action ``[value, 0]`` at row ``n`` if it fits; returns ``n + 1``."""
    if n < out.shape[0]:
        out[n, 0] = value
        out[n, 1] = 0
    return n + 1


@kernel
def _bid_values(state, rules, out):
    """The bidding phase's actions: 0 (pass / decline) first, then the allowed values.
    Returns how many there are, writing only as many as fit."""
    n = _put_value(out, 0, 0)
    if BIDDING_MODES[rules[R_BIDDING], M_BIDS]:
        for b in range(state[G_BID] + 1, rules[R_MAX_BID] + 1):
            n = _put_value(out, n, b)
    else:
        n = _put_value(out, n, 1)
    return n


@inline_kernel
def legal_actions(state, rules, out, wild=None):
    """The actions of the player to act, as records in ``out``; returns how many there are
    (writing only as many as fit). Play phase: the pass first unless leading, then the
    generator's moves; other phases: see :func:`apply`. ``wild=True`` (rules with wild cards):
    the moves with the wild ranks ``G_WILDS``, each info word with its bomb class."""
    phase = state[G_PHASE]
    if phase == PH_DONE:
        return 0
    if phase != PH_PLAY:
        if phase == PH_BID:
            return _bid_values(state, rules, out)
        return _put_value(out, _put_value(out, 0, 0), 1)      # no / yes
    hand = np.uint64(state[G_HANDS + state[G_PLAYER]])
    # The move to answer as a record: a tuple (no allocation, no reference counting).
    last = (np.uint64(state[G_LAST_CARDS]), np.uint64(state[G_LAST_INFO]))
    if wild is None:       # pruned while compiling: only one generator is compiled in
        return actions_of_play(hand, last, rules, out)
    return wild_actions_of_play(hand, state[G_WILDS], last, rules, out)


@inline_kernel
def apply(state, rules, action, scratch=None):
    """Play ``action`` (a record) for the player to act. Unchecked: pass only legal actions.
    ``scratch``: the deck buffer a redeal shuffles in (see :func:`deal`)."""
    state[G_ACTIONS] += 1
    phase = state[G_PHASE]
    if phase == PH_PLAY:
        _play(state, rules, np.uint64(action[0]), np.uint64(action[1]))
    elif phase == PH_BID:
        _bid(state, rules, np.int64(action[0]), scratch)
    elif phase == PH_REVEAL:
        _reveal(state, rules, np.int64(action[0]))
    elif phase == PH_DOUBLE:
        _double(state, rules, np.int64(action[0]))


@kernel
def _bid(state, rules, v, scratch):
    mode = rules[R_BIDDING]
    players = rules[R_PLAYERS]
    p = state[G_PLAYER]
    state[G_TURNS] += 1
    nxt = next_seat(p, players)
    if BIDDING_MODES[mode, M_BIDS]:
        if v > 0:
            state[G_BID] = v
            state[G_BIDDER] = p
            state[G_PASSES] = 0
            if v == rules[R_MAX_BID]:
                _landlord_chosen(state, rules, p)
                return
        else:
            state[G_PASSES] += 1
        if mode == BIDDING_SCORE_ONCE:
            done = state[G_TURNS] == players
        else:
            done = (state[G_BID] > 0 and state[G_PASSES] == players - 1) or \
                   (state[G_BID] == 0 and state[G_TURNS] == players)
        if done:
            if state[G_BID] > 0:
                _landlord_chosen(state, rules, state[G_BIDDER])
            else:
                _redeal(state, rules, scratch)
            return
        state[G_PLAYER] = nxt
    elif mode == BIDDING_CALL:
        if v > 0:
            _landlord_chosen(state, rules, p)
        elif state[G_TURNS] == players:
            _redeal(state, rules, scratch)
        else:
            state[G_PLAYER] = nxt
    elif mode == BIDDING_CALL_GRAB:
        _call_grab(state, rules, p, nxt, v)


@kernel
def _call_grab(state, rules, p, other, v):
    """two_player: call or decline; after a call the other may grab, then grabs alternate
    until one declines or ``max_grabs`` is reached. Each grab doubles the multiplier."""
    if state[G_BIDDER] < 0:                      # calling
        if v > 0:
            state[G_BIDDER] = p
            if (state[G_DECLINED] >> other) & 1 or rules[R_MAX_GRABS] == 0:
                _landlord_chosen(state, rules, p)
            else:
                state[G_PLAYER] = other
        else:
            state[G_DECLINED] |= 1 << p
            if (state[G_DECLINED] >> other) & 1:
                _landlord_chosen(state, rules, state[G_FIRST])
            else:
                state[G_PLAYER] = other
    elif v > 0:                                  # a grab
        state[G_GRABS] += 1
        state[G_MULT] *= 2
        state[G_BIDDER] = p
        if state[G_GRABS] >= rules[R_MAX_GRABS]:
            _landlord_chosen(state, rules, p)
        else:
            state[G_PLAYER] = other
    else:
        _landlord_chosen(state, rules, state[G_BIDDER])


@kernel
def _reveal(state, rules, v):
    """five_player: the bright landlord, then the dark one, may reveal (x2 each)."""
    if v > 0:
        state[G_REVEALS] += 1
        state[G_MULT] *= 2
        if state[G_PLAYER] == state[G_PARTNER]:
            state[G_PARTNER_KNOWN] = 1
    if state[G_PLAYER] == state[G_LANDLORD] and state[G_PARTNER] >= 0:
        state[G_PLAYER] = state[G_PARTNER]
    else:
        state[G_PLAYER] = state[G_LANDLORD]
        _begin_doubling(state, rules)


@kernel
def _double(state, rules, v):
    mode = rules[R_DOUBLING]
    players = rules[R_PLAYERS]
    p = state[G_PLAYER]
    if v > 0:
        state[G_DOUBLES] += 1
        state[G_MULT] *= 2
        state[G_DOUBLED] |= 1 << p
    state[G_TURNS] += 1
    if mode == DOUBLING_LANDLORD:
        _begin_play(state, rules)
    elif mode == DOUBLING_EVERYONE:
        if state[G_TURNS] == players:
            _begin_play(state, rules)
        else:
            state[G_PLAYER] = next_seat(p, players)
    elif mode == DOUBLING_FARMERS:
        landlord = state[G_LANDLORD]
        if p == landlord:
            _begin_play(state, rules)
        elif state[G_TURNS] < players - 1:
            state[G_PLAYER] = next_seat(p, players)
        elif state[G_DOUBLED] != 0:
            state[G_PLAYER] = landlord           # a farmer doubled: the landlord may redouble
        else:
            _begin_play(state, rules)


@inline_kernel
def _play(state, rules, cards, info):
    players = rules[R_PLAYERS]
    p = state[G_PLAYER]
    nxt = next_seat(p, players)
    _log_play(state, rules, p, cards, info)
    if info == 0:                                # a pass
        state[G_PASSES] += 1
        if nxt == state[G_LAST_PLAYER]:          # everyone else passed: the trick is won
            state[G_LAST_CARDS] = 0
            state[G_LAST_INFO] = 0
            state[G_PASSES] = 0
        state[G_PLAYER] = nxt
        return
    hand = np.uint64(state[G_HANDS + p]) - cards
    state[G_HANDS + p] = np.int64(hand)
    state[G_LAST_CARDS] = np.int64(cards)
    state[G_LAST_INFO] = np.int64(info)
    state[G_LAST_PLAYER] = p
    state[G_PASSES] = 0
    state[G_PLAYS] += 1
    if (state[G_TEAM] >> p) & 1:
        state[G_TEAM_PLAYS] += 1
    else:
        state[G_OTHER_PLAYS] += 1
    kind = kind_of(info)
    if kind == BOMB:
        state[G_BOMBS] += 1
        state[G_BOMB_SIZES] += np.int64(1) << (BOMB_SIZE_BITS * (min(size(cards), 8) - 1))
        state[G_MULT] *= _bomb_factor(cards, info, rules)
    elif kind == ROCKET:
        state[G_ROCKETS] += 1
        state[G_MULT] *= rules[R_JOKER_FACTOR]
    left = size(hand)
    farmer = not (state[G_TEAM] >> p) & 1
    if left == 0 or (rules[R_HANDICAP] and farmer and state[G_GRABS] > 0
                     and left <= state[G_GRABS]):
        _finish(state, rules, p)
    else:
        state[G_PLAYER] = nxt


@inline_kernel
def _bomb_factor(cards, info, rules):
    """The multiplier of a bomb: by its class with wild cards (soft, wild), else by size."""
    cls = info >> np.uint64(INFO_CLASS_SHIFT)
    if cls == BOMB_CLASS_SOFT:
        return rules[R_SOFT_FACTOR]
    if cls == BOMB_CLASS_WILD:
        return rules[R_WILD_FACTOR]
    return rules[R_BOMB_FACTOR + min(size(cards), 8)]


@kernel
def card_points(hand, rules):
    """The points (``Rules.card_points``) of the cards in a packed hand."""
    total = 0
    for r in range(N_RANKS):
        total += rules[R_CARD_POINTS + r] * count(hand, r)
    return total


@kernel
def _finish(state, rules, p):
    """``p`` ended the hand: winner side, spring, scores."""
    players = rules[R_PLAYERS]
    team = state[G_TEAM]
    landlord_won = (team >> p) & 1 == 1
    state[G_PHASE] = PH_DONE
    state[G_OUT] = p
    state[G_WINNER] = SIDE_LANDLORD if landlord_won else SIDE_FARMERS
    if rules[R_SPRING]:
        if landlord_won and state[G_OTHER_PLAYS] == 0:
            state[G_SPRING] = SPRUNG_SPRING
        elif not landlord_won and state[G_TEAM_PLAYS] == rules[R_ANTI_SPRING_PLAYS]:
            state[G_SPRING] = SPRUNG_ANTI
    if state[G_SPRING] != SPRUNG_NONE:
        state[G_MULT] *= 2
    stake = state[G_BID] * state[G_MULT] * SCORE_UNIT
    scoring = rules[R_SCORING]
    if scoring == SCORING_POINTS:
        _settle_points(state, rules, landlord_won)
        return
    winners = 0
    for s in range(players):
        winners += ((team >> s) & 1) == landlord_won
    losers = players - winners
    for s in range(players):
        won = ((team >> s) & 1) == landlord_won
        if scoring == SCORING_LANDLORD:
            share = stake * (players - 1) if (team >> s) & 1 else stake
        else:
            share = stake if won else stake * winners // losers
        state[G_SCORES + s] = share if won else -share


@kernel
def _settle_points(state, rules, landlord_won):
    """jinling: the landlord collects the farmers' card points, or pays each farmer its own
    (x2 if it doubled)."""
    players = rules[R_PLAYERS]
    landlord = state[G_LANDLORD]
    factor = state[G_MULT] * SCORE_UNIT
    own = card_points(np.uint64(state[G_HANDS + landlord]), rules)
    for s in range(players):
        if s == landlord:
            continue
        pts = card_points(np.uint64(state[G_HANDS + s]), rules) if landlord_won else -own
        state[G_SCORES + s] = -pts * factor
        state[G_SCORES + landlord] += pts * factor


@kernel
def start_from_hands(state, rules, hands, kitty, first, bright, dark):
    """Set ``state`` to the start of a hand with the given packed ``hands`` and ``kitty``:
    bidding opens with ``first``; with marked-card rules ``bright`` / ``dark`` name the
    landlords (dark == bright: a lone landlord). Seed and deal index (for redeals) are
    whatever ``state`` holds."""
    players = rules[R_PLAYERS]
    _reset(state, state[G_SEED], state[G_DEAL])
    put_rules(state, rules)
    for p in range(players):
        state[G_HANDS + p] = np.int64(hands[p])
    state[G_KITTY] = np.int64(kitty)
    _begin_bidding(state, rules, first)
    if rules[R_BIDDING] == BIDDING_MARKED:
        name_landlords(state, rules, bright, dark)


@kernel
def start_dealt(state, rules, hands, kitty, first, bright, dark, seed, marked):
    """:func:`start_from_hands` for deal 0 of ``seed`` (the seed of any redeal), with
    ``marked`` the marked card (rank * 4 + suit; -1 for none) recorded."""
    state[G_SEED] = seed
    state[G_DEAL] = 0
    start_from_hands(state, rules, hands, kitty, first, bright, dark)
    state[G_MARKED] = marked
