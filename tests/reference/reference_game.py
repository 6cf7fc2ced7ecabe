"""A slow, plain-Python reference of one hand of play, written from RULES.md §3-4.

It does not call the compiled game engine (``fastdou.kernels.engine`` / ``play``) for any
game flow: turn order, the bidding state machine of every mode, redeals and void hands,
doubling, reveals, trick logic, the end of the hand, spring, handicap, scoring and jinling's
card points are all written out below. To make the *same random choices* as the compiled
loop it shares only these conventions with it:

* the randomness: ``fastdou.kernels.deal.next_below`` over the deal stream
  ``engine.deal_stream(seed, index, redeal)`` (the physical deck in rank-then-copy order,
  Fisher-Yates from the top, then the first bidder, then five_player's marked card) and over
  the policy stream ``play.policy_stream(seed, index)``;
* the order of legal actions: pass / 0 first; bids ascending; moves in the order
  ``fastdou.legal_moves`` lists them;
* the built-in policies: "random" draws one ``next_below(rng, n)`` per decision (forced ones
  too); "greedy" is re-implemented below from the docstring and code of
  ``fastdou.kernels.policies.greedy_policy``.

``play_hand(rules, seed, index, policies)`` returns a dict with the fields of
``fastdou.kernels.play.RESULT_NAMES`` plus ``scores`` (one exact ``Fraction`` per seat, in
points, the unit of ``simulate(..., per_deal=True)["scores"]``) and ``trace``, the list of
``(phase, seat, action)`` of every decision (``action``: an int, or a ``Move``).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

import fastdou
from fastdou import Kind, Move
from fastdou.kernels.deal import next_below                # the RNG (allowed)
from fastdou.kernels.engine import deal_stream             # the deal's RNG stream (allowed)
from fastdou.kernels.play import policy_stream             # the policies' stream (allowed)

# Result encodings (those of ``simulate(..., per_deal=True)``).
LANDLORD_SIDE, FARMER_SIDE, VOID = 0, 1, 2
NO_SPRING, SPRING, ANTI_SPRING = 0, 1, 2
PHASE_CODES = {"bid": 0, "reveal": 1, "double": 2, "play": 3}

# A deal where nobody ever takes the landlord ends void after this many redeals even without
# a max_redeals rule (a safety net; with random bidding it never happens).
REDEAL_CAP = 1000

SMALL_JOKER, BIG_JOKER, RANK_2 = 13, 14, 12
# RULES.md §4.7: big joker 20, small joker 15, 2 -> 10, A -> 5, 10/J/Q/K -> 10, 3..9 face.
JINLING_POINTS = (3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 5, 10, 15, 20)

_NIBBLE_SHIFTS = np.arange(15, dtype=np.uint64) * np.uint64(4)


# --------------------------------------------------------------------------- dealing

@dataclasses.dataclass
class Deal:
    hands: list            # one int64[15] count vector per seat
    kitty: np.ndarray      # int64[15]
    set_aside: np.ndarray  # int64[15]: cards nobody is dealt (two_player, two_landlords)
    first: int             # the first bidder
    trump: int             # suit of the first non-joker kitty card (jinling), else -1
    marked: int            # five_player: the marked physical card rank * 4 + suit, else -1
    bright: int            # five_player: holder of the marked card, else -1
    dark: int              # five_player: holder of its twin (== bright: lone landlord)


def physical_deck(rules) -> list:
    """The unshuffled deck as physical cards ``rank * 4 + suit`` (jokers suit 0), ranks
    ascending, the copies of a rank in suit order (two decks: suits 0..3 twice)."""
    return [4 * r + (c % 4 if r < SMALL_JOKER else 0)
            for r in range(15) for c in range(int(rules.deck[r]))]


def _draw(rng, n):
    v, rng = next_below(np.uint64(rng), n)
    return int(v), np.uint64(rng)


def deal(rules, seed: int, index: int, redeal: int = 0) -> Deal:
    """Deal ``index`` of ``seed`` after ``redeal`` redeals."""
    rules = fastdou.rules(rules) if isinstance(rules, str) else rules
    players, size, kitty = rules.players, rules.hand_size, rules.kitty
    cards = physical_deck(rules)
    rng = deal_stream(seed, index, redeal)
    for i in range(len(cards) - 1, 0, -1):            # Fisher-Yates
        j, rng = _draw(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]

    def counts(physical):
        return np.bincount([c // 4 for c in physical], minlength=15).astype(np.int64)

    hands = [counts(cards[p * size:(p + 1) * size]) for p in range(players)]
    kit_cards = cards[players * size:players * size + kitty]
    rest = cards[players * size + kitty:]
    first, rng = _draw(rng, players)
    trump = -1
    if rules.kitty_trump:                               # jinling: one kitty card turned up
        trump = next((c % 4 for c in kit_cards if c // 4 < SMALL_JOKER), -1)
    marked = bright = dark = -1
    if rules.bidding == "marked":
        dealt = players * size
        while True:                                    # a dealt card that is not a joker
            pos, rng = _draw(rng, dealt)
            if cards[pos] // 4 < SMALL_JOKER:
                break
        marked = cards[pos]
        bright = dark = pos // size
        for i in range(dealt):
            if i != pos and cards[i] == marked:
                dark = i // size
    return Deal(hands, counts(kit_cards), counts(rest) if rest else np.zeros(15, np.int64),
                first, trump, marked, bright, dark)


# --------------------------------------------------------------------------- helpers

def pack(counts) -> int:
    return sum(int(c) << (4 * r) for r, c in enumerate(counts))


def card_points(counts) -> int:
    """jinling's points of the cards in a hand (RULES.md §4.7)."""
    return sum(JINLING_POINTS[r] * int(c) for r, c in enumerate(counts))


def _sizes(packed: np.ndarray) -> np.ndarray:
    """Number of cards of every packed multiset of an array."""
    return ((packed[:, None] >> _NIBBLE_SHIFTS[None, :]) & np.uint64(15)).sum(axis=1)


@dataclasses.dataclass
class View:
    """What a policy may look at when it decides (the reference's own state)."""

    phase: str
    seat: int
    hands: list            # count vectors
    team: int              # bit mask of the landlord side as this seat knows it
    last_player: int       # who made the move to beat (-1: none)


# --------------------------------------------------------------------------- policies

def random_policy(view, actions, n, rng):
    """Uniform over the legal actions: one draw per decision."""
    return _draw(rng, n)


def strength(hand) -> int:
    """greedy's hand strength: 2s count 1, small / big joker 2 / 3, every rank (3..2) held
    four times or more 2; scaled to a 17-card hand (integer division)."""
    s = int(hand[RANK_2]) + 2 * int(hand[SMALL_JOKER]) + 3 * int(hand[BIG_JOKER])
    s += 2 * sum(1 for r in range(RANK_2 + 1) if hand[r] >= 4)
    return s * 17 // max(int(hand.sum()), 1)


def greedy_policy(view, actions, n, rng):
    """The documented rule-of-thumb player (``fastdou.kernels.policies.greedy_policy``):

    bidding: bid the highest allowed value up to 0/1/2/3 as strength reaches 4/6/8; call,
    grab, reveal and double from strength 6. Play: go out when one move empties the hand;
    never beat a partner (as the seat knows its partners); lead the move with the most cards (then the lowest rank), answer
    with the lowest-ranked move; bombs only when they are the only lead, or when the
    opponent who made the move to beat holds 6 cards or fewer. Never draws from ``rng``.
    """
    hand = view.hands[view.seat]
    if view.phase != "play":
        s = strength(hand)
        if view.phase == "bid" and actions[-1] > 1:            # score bidding
            want = 0 if s < 4 else (1 if s < 6 else (2 if s < 8 else 3))
            return max(i for i, v in enumerate(actions) if v <= want), rng
        return (n - 1 if s >= 6 else 0), rng
    records = actions
    leading = records[0, 1] != 0
    first = 0 if leading else 1
    goes_out = np.flatnonzero(records[first:, 0] == np.uint64(pack(hand)))
    if goes_out.size:
        return first + int(goes_out[0]), rng
    if not leading:
        same = ((view.team >> view.last_player) & 1) == ((view.team >> view.seat) & 1)
        if same:
            return 0, rng
    moves = records[first:]
    kinds = (moves[:, 1] & np.uint64(255)).astype(np.int64)
    ranks = ((moves[:, 1] >> np.uint64(8)) & np.uint64(255)).astype(np.int64)
    plain = (kinds != Kind.BOMB) & (kinds != Kind.ROCKET)
    if plain.any():
        key = -ranks + (64 * _sizes(moves[:, 0]).astype(np.int64) if leading else 0)
        key = np.where(plain, key, np.iinfo(np.int64).min)
        return first + int(np.argmax(key)), rng          # argmax: the first of equal keys
    if leading:
        return 0, rng
    if n > 1 and view.hands[view.last_player].sum() <= 6:
        return 1, rng
    return 0, rng


POLICIES = {"random": random_policy, "greedy": greedy_policy}


# --------------------------------------------------------------------------- the hand

class _Hand:
    """The running state of one hand (the reference's own, not the engine's layout)."""

    def __init__(self, rules, seed, index, policies):
        self.rules = rules
        self.seed, self.index = seed, index
        self.players = rules.players
        if isinstance(policies, str) or callable(policies):
            policies = [policies] * self.players
        self.policies = [POLICIES[p] if isinstance(p, str) else p for p in policies]
        self.rng = policy_stream(seed, index)
        self.trace = []
        self.actions = 0
        self.redeals = 0
        self.mult = 1
        self.bid = 0
        self.grabs = self.doubles = self.reveals = 0
        self.bombs = self.rockets = 0
        self.bomb_sizes = []
        self.plays = 0
        self.landlord = -1
        self.partner = -1
        self.partner_known = False       # five_player: the dark landlord revealed
        self.team = 0
        self.hands = []
        self.last_player = -1

    # one decision of one seat among ``actions`` (a list of ints, or move records)
    def decide(self, phase, seat, actions):
        n = len(actions)
        view = View(phase, seat, self.hands, self.known_team(seat), self.last_player)
        i, self.rng = self.policies[seat](view, actions, n, self.rng)
        i = int(i)
        assert 0 <= i < n, f"policy returned {i} of {n}"
        self.actions += 1
        a = actions[i]
        self.trace.append((phase, seat, Move.from_record(a) if phase == "play" else int(a)))
        return a

    # ---------------------------------------------------------------- landlord selection
    def bid_score(self, first, once):
        """classic / emperor (``once`` False) and four_player (``once`` True): pass or bid
        1..3 above the current bid; 3 ends it; otherwise the round goes on until everyone
        else passed after the last bid (``once``: one round only). Returns the landlord or
        None (nobody bid)."""
        n = self.players
        bid, bidder, passes_after, turns = 0, -1, 0, 0
        seat = first
        while True:
            v = self.decide("bid", seat, [0] + list(range(bid + 1, 4)))
            turns += 1
            if v > 0:
                bid, bidder, passes_after = v, seat, 0
                if v == 3:
                    break
            else:
                passes_after += 1
            if once and turns == n:
                break
            if not once and (passes_after == n - 1 if bid else turns == n):
                break
            seat = (seat + 1) % n
        self.bid = bid
        return bidder if bid else None

    def bid_call(self, first):
        """two_landlords / jinling: each in turn calls or not; the first call wins."""
        for k in range(self.players):
            seat = (first + k) % self.players
            if self.decide("bid", seat, [0, 1]):
                return seat
        return None

    def bid_call_grab(self, first):
        """two_player: call or decline; after a call the other may grab, grabs alternate
        until one declines or max_grabs grabs were made; the last caller / grabber is
        landlord. A player who declined to call may not grab; both decline: first."""
        other = 1 - first
        if not self.decide("bid", first, [0, 1]):
            return other if self.decide("bid", other, [0, 1]) else first
        holder, seat = first, other
        while self.grabs < self.rules.max_grabs:
            if not self.decide("bid", seat, [0, 1]):
                break
            self.grabs += 1
            self.mult *= 2
            holder = seat
            seat = 1 - seat
        return holder

    def take_landlord(self, seat, deal_):
        self.landlord = seat
        self.team = 1 << seat
        self.bid = max(self.bid, 1)
        if self.rules.landlord_gets_kitty:
            self.hands[seat] = self.hands[seat] + deal_.kitty

    # ---------------------------------------------------------------- doubling
    def doubling(self):
        mode, n, lord = self.rules.doubling, self.players, self.landlord

        def ask(seat):
            if self.decide("double", seat, [0, 1]):
                self.doubles += 1
                self.mult *= 2
                return True
            return False

        if mode == "landlord":
            ask(lord)
        elif mode == "everyone":                        # every seat once, landlord first
            for k in range(n):
                ask((lord + k) % n)
        elif mode == "farmers":                         # each farmer, then a redouble
            doubled = [ask((lord + k) % n) for k in range(1, n)]
            if any(doubled):
                ask(lord)

    # ---------------------------------------------------------------- play
    def known_team(self, seat):
        """The landlord side as ``seat`` knows it: an unrevealed dark landlord is on it
        only to itself."""
        if self.partner < 0 or self.partner_known or seat == self.partner:
            return self.team
        return self.team & ~(1 << self.partner)

    def on_landlord_side(self, seat):
        return (self.team >> seat) & 1 == 1

    def play(self):
        rules, n = self.rules, self.players
        seat = self.landlord
        last = None                      # the Move to beat; None: the seat to act leads
        self.last_player = -1
        side_plays = {True: 0, False: 0}
        while True:
            hand = self.hands[seat]
            moves = fastdou.legal_moves(hand, last, rules).array
            if last is not None:
                moves = np.concatenate([np.zeros((1, 2), np.uint64), moves])
            rec = self.decide("play", seat, moves)
            nxt = (seat + 1) % n
            if rec[1] == 0:                              # a pass
                if nxt == self.last_player:              # everyone else passed
                    last = None
                seat = nxt
                continue
            move = Move.from_record(rec)
            cards = move.cards.astype(np.int64)
            assert (cards <= hand).all()
            self.hands[seat] = hand - cards
            last, self.last_player = move, seat
            if seat == self.partner and cards[self.deal.marked // 4] > 0:
                self.partner_known = True                # it played the marked card's rank
            self.plays += 1
            side_plays[self.on_landlord_side(seat)] += 1
            if move.kind == Kind.BOMB:
                self.bombs += 1
                self.bomb_sizes.append(int(cards.sum()))
                self.mult *= rules.bomb_factors[min(int(cards.sum()), 8)]
            elif move.kind == Kind.ROCKET:
                self.rockets += 1
                self.mult *= rules.joker_bomb_factor
            left = int(self.hands[seat].sum())
            handicap = (rules.handicap and not self.on_landlord_side(seat)
                        and self.grabs > 0 and left <= self.grabs)
            if left == 0 or handicap:
                return seat, side_plays
            seat = nxt

    # ---------------------------------------------------------------- the whole hand
    def run(self):
        rules = self.rules
        while True:
            d = deal(rules, self.seed, self.index, self.redeals)
            self.deal = d
            self.hands = [h.copy() for h in d.hands]
            self.bid = 0
            if rules.bidding == "marked":
                lord = d.bright
            elif rules.bidding == "score":
                lord = self.bid_score(d.first, once=False)
            elif rules.bidding == "score_once":
                lord = self.bid_score(d.first, once=True)
            elif rules.bidding == "call":
                lord = self.bid_call(d.first)
            elif rules.bidding == "call_grab":
                lord = self.bid_call_grab(d.first)
            else:
                raise ValueError(rules.bidding)
            if lord is not None:
                break
            self.redeals += 1                            # nobody took it: redeal or void
            if (rules.max_redeals and self.redeals >= rules.max_redeals) \
                    or self.redeals >= REDEAL_CAP:
                return self.result(VOID, -1, NO_SPRING, [Fraction(0)] * self.players)
        self.take_landlord(lord, d)
        if rules.bidding == "marked":
            if d.dark != d.bright:
                self.partner = d.dark
                self.team |= 1 << d.dark
            for seat in ([d.bright] if d.dark == d.bright else [d.bright, d.dark]):
                if self.decide("reveal", seat, [0, 1]):
                    self.partner_known |= seat == self.partner
                    self.reveals += 1
                    self.mult *= 2
        self.doubling()
        out, side_plays = self.play()
        landlord_won = self.on_landlord_side(out)
        spring = NO_SPRING
        if rules.spring == "classic":
            if landlord_won and side_plays[False] == 0:
                spring = SPRING
            elif not landlord_won and side_plays[True] == 1:
                spring = ANTI_SPRING
        elif rules.spring == "losers_silent":
            if side_plays[not landlord_won] == 0:
                spring = SPRING if landlord_won else ANTI_SPRING
        if spring:
            self.mult *= 2
        return self.result(LANDLORD_SIDE if landlord_won else FARMER_SIDE, out, spring,
                           self.scores(landlord_won))

    def scores(self, landlord_won):
        rules, n = self.rules, self.players
        lord_side = [self.on_landlord_side(s) for s in range(n)]
        if rules.scoring == "points":                    # jinling (RULES.md §4.7)
            factor = 2 ** self.doubles
            out = [Fraction(0)] * n
            own = card_points(self.hands[self.landlord])
            for s in range(n):
                if s == self.landlord:
                    continue
                pay = card_points(self.hands[s]) if landlord_won else -own
                out[s] -= pay * factor
                out[self.landlord] += pay * factor
            return out
        stake = Fraction(self.bid * self.mult)
        if rules.scoring == "landlord":                  # landlord +-(n-1) stakes
            sign = 1 if landlord_won else -1
            return [sign * stake * (n - 1) if lord_side[s] else -sign * stake
                    for s in range(n)]
        if rules.scoring == "team":                      # winners +stake, losers share
            winners = [lord_side[s] == landlord_won for s in range(n)]
            w = sum(winners)
            return [stake if winners[s] else -stake * w / (n - w) for s in range(n)]
        raise ValueError(rules.scoring)

    def result(self, winner, out, spring, scores):
        d = self.deal
        void = winner == VOID
        return {
            "winner": winner, "landlord": -1 if void else self.landlord,
            "partner": -1 if void else self.partner, "team": 0 if void else self.team,
            "bid": self.bid, "multiplier": self.mult, "bombs": self.bombs,
            "rockets": self.rockets, "spring": spring, "plays": self.plays,
            "actions": self.actions, "redeals": self.redeals, "grabs": self.grabs,
            "doubles": self.doubles, "reveals": self.reveals, "out": out,
            "marked": d.marked, "trump": d.trump, "scores": tuple(scores),
            "bomb_sizes": sum(1 << (7 * (k - 1)) for k in self.bomb_sizes),
            "wilds": 0,               # the presets read here have no wild cards
            "trace": self.trace, "hands": self.hands, "deal": d,
        }


def play_hand(rules, seed: int, index: int, policies="random") -> dict:
    """Play deal ``index`` of ``seed`` under ``rules`` with one policy per seat ("random",
    "greedy", or a function ``(view, actions, n, rng) -> (index, rng)``)."""
    rules = fastdou.rules(rules) if isinstance(rules, str) else rules
    return _Hand(rules, int(seed), int(index), policies).run()
