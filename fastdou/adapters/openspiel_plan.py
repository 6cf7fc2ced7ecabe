"""What the OpenSpiel adapter (:mod:`fastdou.adapters.openspiel`) works out of a preset
before any state: how chance deals it (:class:`DealPlan`, :func:`deal_actions`) and the
bounds its ``GameInfo`` declares (:func:`max_stake`, :func:`max_game_length`).

The deal (explicit, exact). A deal is dealt rank by rank, the jokers first: a chance node
splits the copies of a rank (four at most: a rank of eight copies takes two nodes) among the
places, the seats in order, the kitty, then, where a preset sets cards aside, the cards
never dealt. Its outcome is the split ``k``, with probability ``prod_p C(room_p, k_p) /
C(room, sum k)`` (``room_p`` the cards place ``p`` still takes), so each deal comes with its
exact probability. Ranks share a node while their splits multiply to at most
:data:`NODE_OUTCOMES` (the one-copy jokers do); the node of fewest outcomes (the jokers')
also names who opens, uniform over seats (a node of its own where that does not fit); and
the last rank is not drawn: its cards fill the room the others leave. An outcome id is
mixed radix, ``((i_1 * n_2 + i_2) ...) * openers + opener``, ``i_j`` the split's index
among :func:`compositions`; :func:`deal_actions` gives the ids that deal given hands.
Classic deals in 13 nodes of 48 outcomes at most (OpenSpiel's dou_dizhu: 52 nodes), about
the fewest a client's sampling pays least for: two ranks a node would list up to 1,225
outcomes.

The bounds. ``min_utility`` / ``max_utility`` are ``-/+ (players - 1) x stake``, a true
bound: no seat wins or pays more than ``players - 1`` stakes (landlord scoring: the
landlord ``players - 1``, a farmer 1; team scoring: a winner 1, a loser ``winners /
losers`` <= ``players - 1``), and the stake is at most the highest base (the top bid, or
jinling's card points of a full hand) times the highest multiplier: the best product of
bomb factors the deck's cards can make (each rank's copies split into bombs in the most
multiplying way, the jokers likewise), x2 for spring, x2 per possible double, grab and
reveal. ``max_game_length`` (player actions) is ``deals x landlord-selection actions per
deal + doubling actions + players x cards in play``: each play removes a card or more and
is followed by at most ``players - 1`` passes.
"""

from __future__ import annotations

import functools
import math
import operator

import numpy as np

from fastdou import cards as _cards
from fastdou.errors import InvalidCardsError
from fastdou.kernels import state as S
from fastdou.kernels.layout import BIG_JOKER, MAX_DECK, N_RANKS, SMALL_JOKER

_TOKENS = _cards.TOKENS


# --------------------------------------------------------------------- bounds
def _best_product(copies: int, factors: dict) -> int:
    """The largest product of ``factors[size]`` over disjoint bombs from ``copies`` cards."""
    best = [1] * (copies + 1)
    for c in range(1, copies + 1):
        best[c] = max([best[c - 1]] + [best[c - s] * f for s, f in factors.items() if s <= c])
    return best[copies]


def max_multiplier(rules) -> int:
    """A true upper bound on a hand's multiplier (see the module docstring)."""
    deck = rules.deck
    rank_factors = {s: rules.bomb_factors[s] for s in range(max(rules.bomb_min, 1),
                                                           rules.bomb_max + 1)
                    if rules.bomb_min > 0}
    mult = 1
    for r in range(SMALL_JOKER):
        mult *= _best_product(int(deck[r]), rank_factors)
    jokers = int(deck[SMALL_JOKER:].sum())
    joker_sizes = {"all": [jokers], "any": range(2, jokers + 1), "lone": [1]}.get(
        rules.joker_bombs, [jokers])
    mult *= _best_product(jokers, {s: rules.joker_bomb_factor for s in joker_sizes if s})
    if rules.spring != "none":
        mult *= 2
    mult *= 2 ** {"none": 0, "farmers": rules.players, "landlord": 1,
                  "everyone": rules.players}[rules.doubling]
    if rules.bidding == "call_grab":
        mult *= 2 ** rules.max_grabs
    if rules.bidding == "marked":
        mult *= 2 ** 2                                   # bright and dark reveals
    return mult


def _largest_hand(rules) -> int:
    return rules.hand_size + (rules.kitty if rules.landlord_gets_kitty else 0)


def max_stake(rules) -> float:
    """A true upper bound on one stake: the highest base times :func:`max_multiplier`."""
    if rules.scoring == "points":      # jinling: the card points of a full hand
        points = np.repeat(np.asarray(rules.card_points), rules.deck)
        base = int(np.sort(points)[::-1][:_largest_hand(rules)].sum())
    else:
        base = rules.max_bid if rules.bidding in ("score", "score_once") else 1
    return float(base * max_multiplier(rules))


def _deals(rules) -> int:
    """How many deals a hand may take."""
    if rules.bidding in ("call_grab", "marked"):         # these always name a landlord
        return 1
    return rules.max_redeals if rules.max_redeals > 0 else S.MAX_REDEALS_CAP


def max_game_length(rules) -> int:
    """A true bound on the player actions of a hand (see the module docstring)."""
    n = rules.players
    selection = {"score": (rules.max_bid + 1) * n, "score_once": n, "call": n,
                 "call_grab": rules.max_grabs + 3, "marked": 2}[rules.bidding]
    doubling = {"none": 0, "farmers": n, "landlord": 1, "everyone": n}[rules.doubling]
    cards = n * rules.hand_size + (rules.kitty if rules.landlord_gets_kitty else 0)
    return _deals(rules) * selection + doubling + n * cards


# --------------------------------------------------------------------- chance: the deal
NODE_OUTCOMES = 64   # a deal node takes one more rank while its outcomes stay within this
OUTCOME_CACHE = 4096  # one-deck deal nodes' outcome lists kept (per room vector left)
_CHUNK = 4           # copies of a rank one node splits at most


def compositions(copies: int, places: int) -> list:
    """Every split of ``copies`` like cards among ``places`` (tuples of counts), in
    lexicographic order: a split's index is its part of a deal node's outcome id."""
    if places == 1:
        return [(copies,)]
    return [(k,) + rest for k in range(copies + 1)
            for rest in compositions(copies - k, places - 1)]


class DealPlan:
    """How chance deals a preset (module docstring): the places (seats, kitty, cards set
    aside) and their room; the nodes, each a tuple of ``(rank, copies)`` splits and how many
    seats its outcome also names as the opener (1: none); and ``last``, the ``(rank,
    copies)`` no node draws: after the last node they fill the room left."""

    def __init__(self, rules):
        n = rules.players
        aside = int(rules.deck.sum()) - (n * rules.hand_size + rules.kitty)
        self.rules = rules
        self.players = n
        self.caps = (rules.hand_size,) * n + (rules.kitty,) + ((aside,) if aside else ())
        places = len(self.caps)
        chunks = []
        for r in (SMALL_JOKER, BIG_JOKER) + tuple(range(SMALL_JOKER)):  # jokers: one node
            left = int(rules.deck[r])
            while left:
                chunks.append((r, min(left, _CHUNK)))
                left -= chunks[-1][1]
        self.last = chunks.pop()
        self.comps = {c: compositions(c, places) for _, c in chunks}
        self.comp_index = {c: {s: i for i, s in enumerate(v)} for c, v in self.comps.items()}
        groups, group, size = [], [], 1
        for r, c in chunks:
            k = len(self.comps[c])
            if group and size * k > NODE_OUTCOMES:
                groups.append(group)
                group, size = [], 1
            group.append((r, c))
            size *= k
        groups.append(group)
        sizes = [int(np.prod([len(self.comps[c]) for _, c in g])) for g in groups]
        openers = [1] * len(groups)
        opener = 1 if rules.bidding == "marked" else n
        if opener > 1:                       # with the node of fewest outcomes, if it fits
            k = int(np.argmin(sizes))
            if sizes[k] * opener > NODE_OUTCOMES:
                groups, sizes, openers, k = groups + [[]], sizes + [1], openers + [1], len(sizes)
            openers[k] = opener
        self.nodes = tuple((tuple(g), o) for g, o in zip(groups, openers))
        self.sizes = tuple(s * o for s, o in zip(sizes, openers))
        self.node_keys = tuple((tuple(c for _, c in g), o) for g, o in self.nodes)
        self.outcomes_of = _kept_outcomes if max(rules.deck) <= _CHUNK else _outcomes
        self.moves = tuple(self._moves(node) for node in range(len(self.nodes)))
        self.zeros = [0.0] * n

    def place(self, p: int) -> str:
        n = self.players
        return f"seat {p}" if p < n else ("the kitty" if p == n else "the cards set aside")

    def outcomes(self, node: int, caps: tuple) -> list:
        """``[(id, probability)]`` of deal node ``node`` with ``caps`` room left (a list
        shared with later calls: copy it before changing it)."""
        return self.outcomes_of(*self.node_keys[node], caps)

    def _moves(self, node: int) -> tuple:
        """Per outcome id of deal node ``node``: ``(cards per place, (count index, copies)
        for each place given cards, opener or None)`` (``self.moves[node]``)."""
        chunks, openers = self.nodes[node]
        moves = []
        for action in range(self.sizes[node]):
            rest, opener = divmod(action, openers)
            totals, adds = [0] * len(self.caps), []
            for r, c in reversed(chunks):
                rest, i = divmod(rest, len(self.comps[c]))
                for p, k in enumerate(self.comps[c][i]):
                    if k:
                        totals[p] += k
                        adds.append((p * N_RANKS + r, k))
            moves.append((tuple(totals), tuple(adds), opener if openers > 1 else None))
        return tuple(moves)

    def describe(self, node: int, action: int) -> str:
        chunks, openers = self.nodes[node]
        if not 0 <= action < self.sizes[node]:
            return f"chance outcome {action}"
        rest, opener = divmod(action, openers)
        parts = []
        for r, c in reversed(chunks):
            rest, i = divmod(rest, len(self.comps[c]))
            parts.append(f"{_TOKENS[r] * c}: " + "/".join(map(str, self.comps[c][i])))
        if node == len(self.nodes) - 1:
            parts.insert(0, f"{_TOKENS[self.last[0]] * self.last[1]}: the room left")
        text = "deal " + ", ".join(reversed(parts)) if parts else "deal"
        return text + (f"; seat {opener} opens" if openers > 1 else "")


_COMB = np.array([[math.comb(m, k) for k in range(_CHUNK + 1)] for m in range(MAX_DECK + 1)],
                 np.int64)


@functools.lru_cache(maxsize=None)
def _comp_array(copies: int, places: int) -> np.ndarray:
    return np.array(compositions(copies, places), np.int64)


def _outcomes(copies: tuple, openers: int, caps: tuple) -> list:
    """A deal node's ``[(id, probability)]``: splits of ``copies`` cards of each of its
    ranks in turn, ``openers`` seats to open, ``caps`` room left per place."""
    places = len(caps)
    if len(copies) == 1:
        num = _COMB[caps, _comp_array(copies[0], places)].prod(axis=1)
        ids = np.flatnonzero(num)
        weight = num[ids]
    else:
        ids, weight = np.zeros(1, np.int64), np.ones(1, np.int64)
        room = np.array([caps], np.int64)
        for c in copies:
            comps = _comp_array(c, places)
            ways = _COMB[room[:, None, :], comps[None]].prod(axis=2)
            rows, cols = np.nonzero(ways)
            ids = ids[rows] * len(comps) + cols
            weight = weight[rows] * ways[rows, cols]
            room = room[rows] - comps[cols]
    probs = weight / weight.sum()
    if openers > 1:
        ids = (ids[:, None] * openers + np.arange(openers)).ravel()
        probs = np.repeat(probs / openers, openers)
    return list(zip(ids.tolist(), probs.tolist()))


# One-deck deals revisit few room vectors (classic: about 2,400 in all): their lists are kept.
_kept_outcomes = functools.lru_cache(maxsize=OUTCOME_CACHE)(_outcomes)


@functools.lru_cache(maxsize=None)
def deal_plan(rules) -> DealPlan:
    return DealPlan(rules)


def deal_actions(rules, hands, kitty, first: int = 0) -> list:
    """The chance actions that deal ``hands`` (15 counts per seat) and ``kitty`` with seat
    ``first`` opening (ignored with marked-card rules, whose two nodes come after)."""
    plan = deal_plan(rules)
    n = rules.players
    held = [[int(x) for x in h] for h in hands] + [[int(x) for x in kitty]]
    if len(plan.caps) > n + 1:
        held.append([int(rules.deck[r]) - sum(h[r] for h in held) for r in range(N_RANKS)])
    if len(held) != len(plan.caps) or any(len(h) != N_RANKS or min(h) < 0 for h in held) \
            or tuple(map(sum, held)) != plan.caps \
            or [sum(col) for col in zip(*held)] != rules.deck.tolist():
        raise InvalidCardsError(f"not a deal of {rules.name}: {n} hands of "
                                f"{rules.hand_size} and a kitty of {rules.kitty} from its deck")
    first = operator.index(first)
    actions = []
    for chunks, openers in plan.nodes:
        action = 0
        for r, c in chunks:
            split, need = [], c
            for h in held:
                k = min(h[r], need)
                h[r] -= k
                need -= k
                split.append(k)
            action = action * len(plan.comps[c]) + plan.comp_index[c][tuple(split)]
        actions.append(action * openers + (first if openers > 1 else 0))
    return actions
