"""One decision at a time: :func:`policy` gives a :class:`Policy` whose :meth:`Policy.choose`
is the action a compiled policy (``random``, ``greedy``, ``expert`` or a user's ``@njit``
function, as :func:`fastdou.simulate` takes them) picks for the seat to act of a
:class:`~fastdou.Game`.

>>> import fastdou
>>> game = fastdou.Game.new("classic", seed=7, start="play")
>>> fastdou.policy("greedy").choose(game).text()
'3456789TJ'

The policy function runs in compiled code on the game's state and the engine's legal-action
buffer, as the simulate loop calls it (:mod:`fastdou.kernels.play`): the same actions in
the same order, and the same random stream, so a hand played by ``choose`` from deal ``d``
of seed ``s`` after ``reset(d)`` is the hand ``simulate(..., seed=s)`` plays for deal ``d``
(one Policy object per policy, shared by the seats that play it, as the loop shares one
stream among the seats of a deal).
"""

from __future__ import annotations

import numpy as np

from fastdou.checks import short, whole
from fastdou.errors import ArgumentError, GameStateError, PolicyError
from fastdou.hints import RulesLike
from fastdou.game import Game, legal_records_into
from fastdou.kernels.layout import REC_WIDTH
from fastdou.kernels.play import ACTIONS_CAPACITY, policy_stream
from fastdou.moves import Move
from fastdou.kernels.play import POLICY_SIGNATURE
from fastdou.policies import (
    FUNCTIONS, built_in_function, built_in_name, check_user_policy, for_rules, import_policy,
    njit_policy, passed,
)
from fastdou.rules import Rules, as_rules, rules_array

__all__ = ["Policy", "bind", "policy"]



class Policy:
    """A compiled policy bound to rules and a random stream; make it with :func:`policy`.

    ``rng`` is the random state it draws from (each call hands it on); ``reset(deal)``
    sets it to the stream :func:`fastdou.simulate` gives deal ``deal`` of ``seed``. For one
    thread at a time (it keeps an action buffer and the stream)."""

    def __init__(self, fn, name: str, user: bool, rules: Rules, seed: int):
        self._fn = fn
        self._user = user            # the loop passes a user's policy only the n legal rows
        self.name = name
        self.rules = rules
        self.seed = seed
        self._buf = np.empty((ACTIONS_CAPACITY, REC_WIDTH), np.uint64)
        self.reset(0)

    def reset(self, deal: int = 0) -> "Policy":
        """Start deal ``deal``'s random stream (simulate's for that deal); returns self."""
        deal = whole("deal", deal)
        self.rng = int(policy_stream(self.seed, deal))
        return self

    def with_rules(self, rules: RulesLike) -> "Policy":
        """The same policy function and seed for other rules (a fresh stream)."""
        return Policy(self._fn, self.name, self._user, as_rules(rules), self.seed)

    def choose(self, game):
        """The action for the seat to act in ``game``: a bid / call / double as an int, or
        a :class:`~fastdou.Move` in play, as ``game.play`` takes it."""
        records, i = self._pick(game)
        if game.phase == "play":
            return Move.from_record(records[i], game._wilds, game.rules)
        return int(records[i, 0])

    def choose_id(self, game) -> int:
        """The action id of :meth:`choose` (one of ``game.legal_action_ids()``)."""
        _, i = self._pick(game)
        return int(game.legal_action_ids()[i])

    def _pick(self, game) -> tuple:
        if not isinstance(game, Game):
            raise ArgumentError(f"a policy chooses for a fastdou Game, not {short(game)}")
        if game.is_terminal():
            raise GameStateError("the hand is over: no seat is to act")
        if game.rules is not self.rules and game.rules != self.rules:
            raise ArgumentError(f"this policy plays {self.rules.name} "
                                f"({self.rules.profile} profile); the game is "
                                f"{game.rules.name} ({game.rules.profile}): make the policy "
                                f"with rules=game.rules")
        if game.rules.wilds:
            return self.pick_state(game._state, rules_array(game.rules, wild=True), wild=True)
        return self.pick_state(game._state, rules_array(game.rules))

    def pick_state(self, state: np.ndarray, rules_array: np.ndarray, *,
                   wild: bool = False) -> tuple:
        """The legal action records of ``state`` (engine order) and the index the policy
        picks among them, advancing ``rng``: what the adapters' agents call on the state
        arrays of their environments (``wild``: rules with wild cards)."""
        buf = self._buf
        n = legal_records_into(state, rules_array, buf, wild)
        if n > len(buf):                          # grown as the loop grows its buffer
            buf = self._buf = np.empty((max(n, 2 * len(buf)), REC_WIDTH), np.uint64)
            legal_records_into(state, rules_array, buf, wild)
        if n == 0:
            raise GameStateError("no seat is to act")
        i, rng = self._fn(state, buf[:n] if self._user else buf, n, np.uint64(self.rng))
        if not 0 <= i < n:
            raise PolicyError(f"policy {self.name} returned index {int(i)} for "
                              f"{n} legal actions")
        self.rng = int(rng)
        return buf[:n], int(i)

    def __repr__(self) -> str:
        return f"<Policy {self.name} for {self.rules.name}, seed {self.seed}>"


def policy(name_or_fn, rules: RulesLike = "classic", seed: int = 0) -> Policy:
    """A :class:`Policy`: ``"random"``, ``"greedy"``, ``"expert"`` (docs/players.md), an
    ``@njit`` function ``(state, actions, n, rng) -> (index, rng)`` or its import path
    ``"module:function"``, for ``rules``, its random stream that of deal 0 of ``seed`` (see
    ``Policy.reset``).

    Built-in policies read only what the seat to act may know (its hand, the cards played,
    the counts held); a user's function is given the whole state, as in simulate."""
    r = as_rules(rules)
    seed = whole("seed", seed, error=PolicyError)
    p = name_or_fn
    if isinstance(p, Policy):
        return Policy(p._fn, p.name, p._user, r, seed)
    if isinstance(p, str) and ":" in p:
        p = import_policy(p)
    if isinstance(p, str):
        if p not in FUNCTIONS:
            raise PolicyError(f"unknown policy {short(p)}; policies: "
                              f"{', '.join(FUNCTIONS)}, an @njit function or its import "
                              f"path 'module:function'")
        if not passed(FUNCTIONS[p]):
            return Policy(FUNCTIONS[p], p, False, r, seed)
        p = built_in_function(p, r)
    if not callable(p):
        raise PolicyError(f"a policy is a name or an @njit function, not {short(p)}")
    njit_policy(p)
    p = for_rules(p, r)
    check_user_policy(p, r)
    if passed(p):                 # the loops' compiled version: no second compile of it
        return Policy(_Typed(p.compile(POLICY_SIGNATURE)), built_in_name(p), True, r, seed)
    return Policy(p, getattr(p, "__name__", "user"), True, r, seed)


class _Typed:
    """A compiled entry point called with the types it was made for: an engine state as
    a contiguous int64 array (its unboxing checks item sizes only)."""

    __slots__ = ("entry",)

    def __init__(self, entry):
        self.entry = entry

    def __call__(self, state, actions, n, rng):
        return self.entry(np.ascontiguousarray(state, np.int64), actions, n, rng)


def bind(p, rules: RulesLike) -> Policy:
    """``p`` (a :class:`Policy`, or what :func:`policy` takes) for ``rules``: the adapters'
    agents play their env's rules. A Policy made for another profile of the same preset is
    rebound to them (fresh stream, same seed); one made for another preset is refused."""
    r = as_rules(rules)
    if not isinstance(p, Policy):
        return policy(p, r)
    if p.rules is r or p.rules == r:
        return p
    if p.rules.name != r.name:
        raise PolicyError(f"policy {p.name} was made for {p.rules.name}; this env plays "
                          f"{r.name}")
    return p.with_rules(r)
