"""The naive reference solver, perft and min_plays: plain Python over ``tests/reference/oracle.py``.

Deliberately simple: a state is ``(hands, to_move, last, last_player)`` with hands as count
tuples and ``last`` an oracle move tuple (None while leading); every action is listed by the
oracle (which tries every sub-multiset of the hand), played by :func:`play`, and the game
value is plain negamax with a dict of solved states. Use it on small positions only.

Under wild cards (``wilds``: the wild rank indices, see ``laizi_oracle``) the actions are
``laizi_oracle``'s moves, 5-tuples with the bomb class, compared by its ``beats``.
"""

from __future__ import annotations

from functools import lru_cache

from tests.reference import laizi_oracle, oracle

PASS = None


@lru_cache(maxsize=None)
def _leads(hand, rules):
    return tuple(sorted(oracle.leading_moves(hand, rules)))


@lru_cache(maxsize=None)
def _wild_leads(hand, wilds):
    return tuple(sorted(laizi_oracle.leading_moves(hand, wilds)))


def actions(state, rules, wilds=()):
    """Every legal action: the pass (None) first unless leading, then every move."""
    hands, to_move, last, _ = state
    if wilds:
        leads = _wild_leads(hands[to_move], tuple(wilds))
        if last is None:
            return list(leads)
        return [PASS] + [m for m in leads
                         if laizi_oracle.beats(m, last, rules.soft_below_hard)]
    leads = _leads(hands[to_move], rules)
    if last is None:
        return list(leads)
    return [PASS] + [m for m in leads if oracle.beats(m, last, rules)]


def play(state, action):
    """(the next state, the seat that went out or None)."""
    hands, p, last, last_player = state
    nxt = (p + 1) % len(hands)
    if action is PASS:
        if nxt == last_player:                       # all others passed: a new trick
            return (hands, nxt, None, None), None
        return (hands, nxt, last, last_player), None
    left = tuple(h - c for h, c in zip(hands[p], action[0]))
    hands = hands[:p] + (left,) + hands[p + 1:]
    return (hands, nxt, action, p), (p if sum(left) == 0 else None)


class Naive:
    """Exact negamax for one rules object and landlord side ``team`` (a set of seats), under
    the wild ranks ``wilds`` (none by default)."""

    def __init__(self, rules, team, wilds=()):
        self.rules = rules
        self.team = frozenset(team)
        self.wilds = tuple(wilds)
        self.memo = {}

    def side(self, seat):
        return seat in self.team

    def action_wins(self, state, action) -> bool:
        """Whether ``action`` wins for the side of the seat to act."""
        me = self.side(state[1])
        child, out = play(state, action)
        if out is not None:
            return True
        return self.wins(child) == (self.side(child[1]) == me)

    def wins(self, state) -> bool:
        """Whether the side of the seat to act wins."""
        if state not in self.memo:
            self.memo[state] = any(self.action_wins(state, a)
                                   for a in actions(state, self.rules, self.wilds))
        return self.memo[state]

    def winning_moves(self, state) -> list:
        return [a for a in actions(state, self.rules, self.wilds)
                if self.action_wins(state, a)]


def perft(state, depth, rules, wilds=()) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in actions(state, rules, wilds):
        child, out = play(state, a)
        if depth == 1:
            total += 1
        elif out is None:
            total += perft(child, depth - 1, rules, wilds)
    return total


def min_plays(hand, rules, wilds=()) -> int:
    """The fewest leads that empty ``hand``: the minimum over every first lead."""
    hand = tuple(int(c) for c in hand)

    @lru_cache(maxsize=None)
    def best(h):
        if sum(h) == 0:
            return 0
        leads = _wild_leads(h, tuple(wilds)) if wilds else _leads(h, rules)
        return 1 + min(best(tuple(a - b for a, b in zip(h, m[0]))) for m in leads)

    return best(hand)
