"""The ``expert`` player: a compiled rule-based policy (docs/players.md gives its rules in
words). It bids from its hand's plan (:mod:`.expert_plan`), plays from that plan, keeps its
bombs and top cards for when they win, as a farmer never overtakes its partner and leads
what the partner can follow, and searches exactly when few cards are left
(:mod:`.expert_endgame`).

It reads only what its seat may know: its own hand (``G_HANDS + G_PLAYER``), every seat's
card count and played cards (``G_PLAYED``), the move to answer and who made it, the
landlord, the bids and the rules the state carries (``state.state_rules``); never another
seat's cards, the kitty or the hidden team fields. It plans for the rules its plan is made
of (:func:`planned`: classic under every kicker profile, two_player, two_landlords); under
other rules it bids from the same strength and plays greedy's rules, with its teams as the
table sees them (:func:`.policies.greedy_play`). Under wild cards: :func:`expert_wild_policy`.
"""

import numpy as np

from fastdou.kernels.expert_endgame import ENDGAME_CARDS, endgame, hands_cards, unseen_of
from fastdou.kernels.expert_plan import (
    NO_WORTH, beatable, bombs_of, chain_at, cnt, plan, rank_worth, span, worth,
)
from fastdou.kernels.generate import is_bomb_kind
from fastdou.kernels.jit import first_class_kernel, leaf, nrt_kernel
from fastdou.kernels.layout import (
    ACE, BIDDING_MARKED, BIG_JOKER, BOMB, BOMB_ORDER_SIZE_RANK, INFO_CLASS_SHIFT,
    JOKER_BOMBS_ALL, PAIR, PAIR_CHAIN, PLANE_PAIR, PLANE_SOLO, R_BIDDING, R_BOMB_MAX,
    R_BOMB_MIN, R_BOMB_ORDER, R_CHAIN_HIGH, R_CHAIN_LOW, R_DECK, R_DECKS, R_HANDICAP,
    R_JOKER_BOMBS, R_JOKER_PAIRS, R_JOKER_SOLOS, R_KINDS, R_KITTY_TRUMP, R_PAIR_CHAIN_MIN,
    R_PLAYERS, R_SCORING, R_SOLO_CHAIN_MIN, R_TRIO_CHAIN_MIN, RANK_2, ROCKET,
    SCORING_LANDLORD, SMALL_JOKER, SOLO, SOLO_CHAIN, TRIO, TRIO_CHAIN, TRIO_PAIR, TRIO_SOLO,
)
from fastdou.kernels.packing import size
from fastdou.kernels.policies import greedy_play
from fastdou.kernels.state import (
    G_GRABS, G_HANDS, G_LANDLORD, G_LAST_PLAYER, G_PHASE, G_PLAYER, PH_BID, PH_PLAY,
    state_rules,
)

# The kinds a plan plays (bit k: kind k, as in R_KINDS).
PLAN_KINDS = ((1 << SOLO) | (1 << PAIR) | (1 << TRIO) | (1 << TRIO_SOLO) | (1 << TRIO_PAIR)
              | (1 << SOLO_CHAIN) | (1 << PAIR_CHAIN) | (1 << TRIO_CHAIN) | (1 << PLANE_SOLO)
              | (1 << PLANE_PAIR))
# Bidding: the bid wanted at a strength (docs/players.md, "Bidding").
BID_1 = 5
BID_2 = 7
BID_3 = 9
ANSWER_MARGIN = -9   # answer when the plan after it is worth this much more than now
DANGER_SOLO = 60    # lead penalty of a solo when an opponent holds one card
DANGER_PAIR = 30    # ... of a pair when an opponent holds two


@leaf
def _kind(info):
    """Kind id of a move's info word."""
    return np.int64(info & np.uint64(255))


@leaf
def _rank(info):
    """Compared-by rank of a move's info word."""
    return np.int64((info >> np.uint64(8)) & np.uint64(255))


@leaf
def _strength(info):
    """How hard a move is to beat among moves of one kind: by bomb class (wild cards; 0
    without them), then rank."""
    return (np.int64(info >> np.uint64(INFO_CLASS_SHIFT)) << 8) | _rank(info)


@leaf
def seat_cards(state, s):
    """Cards seat ``s`` holds: public (a count, not the cards)."""
    return size(np.uint64(state[G_HANDS + s]))


@leaf
def planned(rules):
    """Whether expert plans for ``rules``: two or three seats, one deck, landlord scoring,
    no trump or marked card, and the moves its plan is made of (the kinds of
    :data:`PLAN_KINDS` with classic's chain lengths up to A from the deck's lowest rank,
    bombs of four, the rocket on top, lone jokers that never pair)."""
    deck = np.uint64(rules[R_DECK])
    low = 0
    while low < BIG_JOKER and cnt(deck, low) == 0:     # (a state without rules: none)
        low += 1
    return ((rules[R_PLAYERS] == 2 or rules[R_PLAYERS] == 3) and rules[R_DECKS] == 1
            and rules[R_SCORING] == SCORING_LANDLORD and rules[R_BIDDING] != BIDDING_MARKED
            and rules[R_KITTY_TRUMP] == 0 and rules[R_KINDS] & PLAN_KINDS == PLAN_KINDS
            and rules[R_SOLO_CHAIN_MIN] == 5 and rules[R_PAIR_CHAIN_MIN] == 3
            and rules[R_TRIO_CHAIN_MIN] == 2 and rules[R_CHAIN_LOW] == low
            and rules[R_CHAIN_HIGH] == ACE and rules[R_BOMB_MIN] == 4
            and rules[R_BOMB_MAX] == 4 and rules[R_BOMB_ORDER] == BOMB_ORDER_SIZE_RANK
            and rules[R_JOKER_BOMBS] == JOKER_BOMBS_ALL and rules[R_JOKER_PAIRS] == 0
            and rules[R_JOKER_SOLOS] == 1)


@leaf
def strength(hand):
    """Bidding strength: 2 a 2, 3 the small joker, 4 the big one, 6 a bomb (8 the rocket),
    less one for each play of the plan beyond seven, scaled to 17 cards."""
    s = 2 * cnt(hand, RANK_2) + 3 * cnt(hand, SMALL_JOKER) + 4 * cnt(hand, BIG_JOKER)
    if cnt(hand, SMALL_JOKER) == 1 and cnt(hand, BIG_JOKER) == 1:
        s += 1
    for r in range(RANK_2 + 1):
        if cnt(hand, r) == 4:
            s += 6
    plays = plan(hand)[1]
    s -= max(plays - 7, 0)
    return s * 17 // max(size(hand), 1)


@leaf
def _bid(state, actions, n, hand):
    """Score bidding: the highest bid at most the one the strength wants; calls, grabs,
    reveals and doubles: yes from the strength of a bid of 2 (3 to double)."""
    s = strength(hand)
    if state[G_PHASE] == PH_BID and actions[n - 1, 0] > 1:
        want = 0 if s < BID_1 else (1 if s < BID_2 else (2 if s < BID_3 else 3))
        best = 0
        for i in range(n):
            if np.int64(actions[i, 0]) <= want:
                best = i
        return best
    need = BID_2 if state[G_PHASE] == PH_BID else BID_3
    return n - 1 if s >= need else 0


@leaf
def find(actions, n, cards, kind):
    """Index of the action playing ``cards`` read as ``kind``; -1 if none."""
    for i in range(n):
        if actions[i, 0] == cards and _kind(actions[i, 1]) == kind:
            return i
    return -1


@leaf
def _lowest(rest, copies, below):
    """Lowest rank below ``below`` held exactly ``copies`` times in ``rest``; -1 if none."""
    for r in range(below):
        if cnt(rest, r) == copies:
            return r
    return -1


@leaf
def _wings(rest, length, skip):
    """(cards, kind offset) of ``length`` wings for a trio or plane: the lowest lone cards
    below 2, else the lowest pairs below A, never of rank ``skip``; (0, 0) if too few."""
    for copies in (1, 2):
        w = np.uint64(0)
        k = 0
        for r in range(RANK_2 if copies == 1 else ACE):
            if k < length and r != skip and cnt(rest, r) == copies:
                w += span(r, 1, copies)
                k += 1
        if k == length:
            return w, copies
    return np.uint64(0), 0


@leaf
def _lead_key(top, cards, width, danger):
    """The lower, the sooner a play is led: low plays first, longer ones before shorter;
    solos (pairs) late when an opponent holds one card (two)."""
    key = rank_worth(top) - 3 * size(cards)
    if danger == 1 and width == 1 and size(cards) == 1:
        key = DANGER_SOLO - top          # the highest solo first then
    elif danger == 2 and width == 2 and size(cards) == 2:
        key += DANGER_PAIR
    return key


@leaf
def lead(actions, n, hand, unseen, danger, feed):
    """The lead: from the plan, the weakest play, unless all but one play are sure winners
    (then a sure winner first); ``feed`` 1 or 2 (a partner next to play holds that many
    cards): the lowest solo or pair first. Returns an action index."""
    _, plays, chains, nch, rest = plan(hand)
    if feed > 0:
        r = _lowest(hand, feed, BIG_JOKER + 1) if feed == 2 else -1
        if feed == 1:
            for q in range(BIG_JOKER + 1):
                if cnt(hand, q) > 0 and cnt(hand, q) < 4:
                    r = q
                    break
        if r >= 0:
            i = find(actions, n, span(r, 1, feed), SOLO if feed == 1 else PAIR)
            if i >= 0:
                return i
    best_key = 1 << 30
    best_cards = np.uint64(0)
    best_kind = 0
    sure_cards = np.uint64(0)
    sure_kind = 0
    sure = 0
    for i in range(nch):
        k, s, length = chain_at(chains, i)
        top = s + length - 1
        cards = span(s, length, k)
        kind = SOLO_CHAIN if k == 1 else (PAIR_CHAIN if k == 2 else TRIO_CHAIN)
        if k == 3:
            w, wk = _wings(rest, length, -1)
            if wk > 0:
                cards += w
                kind = PLANE_SOLO if wk == 1 else PLANE_PAIR
        if not beatable(k, top, length, unseen):
            sure += 1
            sure_cards, sure_kind = cards, kind
        key = _lead_key(top, cards, k, danger)
        if key < best_key:
            best_key, best_cards, best_kind = key, cards, kind
    for r in range(BIG_JOKER + 1):
        c = cnt(rest, r)
        if c == 0:
            continue
        cards = span(r, 1, c)
        kind = SOLO if c == 1 else (PAIR if c == 2 else TRIO)
        if c == 3:
            w, wk = _wings(rest, 1, r)
            if wk > 0:
                cards += w
                kind = TRIO_SOLO if wk == 1 else TRIO_PAIR
        if not beatable(c, r, 1, unseen):
            sure += 1
            sure_cards, sure_kind = cards, kind
        key = _lead_key(r, cards, c, danger)
        if key < best_key:
            best_key, best_cards, best_kind = key, cards, kind
    bombs, bomb_plays = bombs_of(hand)
    if bomb_plays > 0 and (best_kind == 0 or plays - sure - bomb_plays <= 1):
        # bombs only lead to finish: the lowest one (the rocket last)
        for r in range(RANK_2 + 1):
            if cnt(bombs, r) == 4:
                i = find(actions, n, span(r, 1, 4), BOMB)
                if i >= 0:
                    return i
        i = find(actions, n, span(SMALL_JOKER, 2, 1), ROCKET)
        if i >= 0:
            return i
    if sure > 0 and plays - sure <= 1:
        i = find(actions, n, sure_cards, sure_kind)
        if i >= 0:
            return i
    i = find(actions, n, best_cards, best_kind)
    if i >= 0:
        return i
    return _fallback_lead(actions, n)


@leaf
def _fallback_lead(actions, n):
    """Greedy's lead: the non-bomb with the most cards, then the lowest rank."""
    best = 0
    best_key = -(1 << 40)
    for i in range(n):
        if is_bomb_kind(_kind(actions[i, 1])):
            continue
        key = 64 * size(actions[i, 0]) - _rank(actions[i, 1])
        if key > best_key:
            best_key = key
            best = i
    return best


@leaf
def answer(actions, n, hand, unseen, urgent):
    """The answer to an opponent's move (``actions[0]`` the pass): the non-bomb that leaves
    the best plan if it is worth no less than passing; the highest one when ``urgent`` (the
    opponent holds two cards or fewer); a bomb when urgent or when it leaves two plays or
    fewer. Returns an action index."""
    base = worth(hand)
    best = -1
    best_w = NO_WORTH
    top = -1
    top_rank = -1
    bomb = -1
    bomb_key = 1 << 20
    for i in range(1, n):
        kind = _kind(actions[i, 1])
        r = _rank(actions[i, 1])
        if kind == BOMB or kind == ROCKET:
            key = _strength(actions[i, 1])   # the rocket's rank is a joker's: above every bomb
            if key < bomb_key:
                bomb, bomb_key = i, key
            continue
        w = worth(hand - actions[i, 0])
        if w > best_w:
            best, best_w = i, w
        if r > top_rank:
            top, top_rank = i, r
    if best >= 0:
        if urgent:
            return top
        if best_w >= base + ANSWER_MARGIN:
            return best
    if bomb >= 0:
        if urgent or plan(hand - actions[bomb, 0])[1] <= 2:
            return bomb
    return 0


@leaf
def play(state, rules, actions, n, hand):
    """A play-phase choice under :func:`planned` rules: go out when one move empties the
    hand; else lead (:func:`lead`) or answer (:func:`answer`), passing on the partner's
    move."""
    leading = actions[0, 1] != 0
    for i in range(0 if leading else 1, n):
        if actions[i, 0] == hand:
            return i
    seats = rules[R_PLAYERS]
    p = state[G_PLAYER]
    landlord = state[G_LANDLORD]
    partner = -1 if p == landlord or seats == 2 else 3 - p - landlord
    danger = 1 << 20                 # the fewest cards an opponent holds
    for s in range(seats):
        if s != p and s != partner:
            danger = min(danger, seat_cards(state, s))
    unseen = unseen_of(state, hand)
    if leading:
        feed = 0
        if partner == (p + 1) % seats and seat_cards(state, partner) <= 2:
            feed = seat_cards(state, partner)
        return lead(actions, n, hand, unseen, danger, feed)
    last = state[G_LAST_PLAYER]
    if last == partner:
        return 0
    return answer(actions, n, hand, unseen, seat_cards(state, last) <= 2)


@leaf
def best_reading(actions, n, i):
    """The reading of ``actions[i]``'s cards and kind that is hardest to beat: with wild
    cards one multiset of one kind can read at several ranks (a plan names cards and kind)."""
    best = i
    if actions[i, 1] == 0:                 # the pass
        return i
    for j in range(n):
        if actions[j, 0] == actions[i, 0] and _kind(actions[j, 1]) == _kind(actions[i, 1]) \
                and _strength(actions[j, 1]) > _strength(actions[best, 1]):
            best = j
    return best


@nrt_kernel
def expert_choice(state, actions, n, rng, wild):
    """The expert player's choice (:func:`expert_policy`); ``wild`` None for rules without
    wild cards (pruned while compiling), True under the state's wild ranks."""
    hand = np.uint64(state[G_HANDS + state[G_PLAYER]])
    if state[G_PHASE] != PH_PLAY:
        return _bid(state, actions, n, hand), rng
    rules = state_rules(state)
    if planned(rules):
        i = play(state, rules, actions, n, hand)
        if wild is not None:
            i = best_reading(actions, n, i)
        # a grab handicap ends a hand before one is empty, which the search cannot say
        if n > 1 and actions[i, 0] != hand and hands_cards(state) <= ENDGAME_CARDS \
                and (rules[R_HANDICAP] == 0 or state[G_GRABS] == 0):
            return endgame(state, actions, n, hand, i, rng, wild)
        return i, rng
    return greedy_play(state, actions, n, hand), rng


@first_class_kernel
def expert_policy(state, actions, n, rng):
    """The expert player (docs/players.md): bids from its plan's strength, plays from its
    plan and the public state under :func:`planned` rules, searching exactly when few
    cards are left (:mod:`.expert_endgame`; the only use of ``rng``: sampled splits),
    greedy's rules elsewhere."""
    return expert_choice(state, actions, n, rng, None)


@first_class_kernel
def expert_wild_policy(state, actions, n, rng):
    """:func:`expert_policy` under wild cards: it plans with the wild cards at their own
    rank, plays the hardest reading of the cards it chose, and searches its endgame with
    the wild cards' moves."""
    return expert_choice(state, actions, n, rng, True)
