"""OpenSpiel games over fastdou: ``import fastdou.adapters.openspiel`` registers, for every
preset without wild cards, ``pyspiel.load_game("python_fastdou_<preset>")``
(``python_fastdou_classic``, ``python_fastdou_two_player``, ...) and
``python_fastdou_classic_openspiel`` (the classic ``openspiel`` profile, whose player action
ids are OpenSpiel's own ``dou_dizhu`` ids). laizi is not offered: OpenSpiel's games keep
their rules, and its wild ids are stepped through ``fastdou.Game``, ``VectorEnv`` and the
PettingZoo adapter.

A state wraps a :class:`fastdou.Game`; player actions are the ids of the preset's
:func:`fastdou.action_table` (``num_distinct_actions = table.size``).

Chance (explicit, exact) deals rank by rank, so each deal comes with its exact probability:
the deal plan (:mod:`fastdou.adapters.openspiel_plan`, whose names this module re-exports)
says how; :func:`deal_actions` gives the ids that deal given hands. With marked-card rules
(five_player) two nodes follow the deal: the marked card, id ``seat * 15 + rank``, uniform
over the non-joker cards in hands (its holder is the bright landlord), and where its twin
lies, id = the seat holding it, or ``players`` for the kitty (the bright landlord is then a
lone landlord; fastdou's dealer deals no cards aside here). That is the distribution
fastdou's own dealer draws from. When nobody takes the landlord the hand is redealt
(fastdou's rule) and the state returns to chance for a fresh deal; after ``max_redeals``
deals (or the engine's cap when the preset sets none) the hand is void and every return is 0.

Returns are the engine's scores at the end (``Game.scores``, equal to
``Game.result().scores``), 0 before (``RewardModel.TERMINAL``); every preset's scoring is
zero-sum. ``min_utility`` / ``max_utility`` (``-/+ (players - 1) x stake``) and
``max_game_length`` are true bounds, derived in :mod:`fastdou.adapters.openspiel_plan`.

Observations: ``observation_tensor`` is ``Game.encode(seat)`` (fastdou's per-seat encoding,
as float32), zeros while cards are being dealt; ``observation_string`` writes the same view
as text. No information-state tensor or string is provided (nor does OpenSpiel's own
dou_dizhu).

Cost. A state answers a client's calls (``current_player``, ``is_terminal``,
``is_chance_node``, ``legal_actions``, ``chance_outcomes``, ``returns``, observations) in
Python from values kept until its next action, never through pyspiel's C++ base class,
which would call back into Python for each. ``apply_action``, ``clone`` and ``child`` are
Python too (the base class's apply calls back twice; its clone builds a fresh state and
deep-copies each attribute), so the state keeps its own history, which ``history``,
``history_str``, ``full_history``, ``move_number``, ``is_initial_state`` and ``serialize``
read. C++ callers still apply actions through the base class, which keeps both histories.
C++ code that reads pyspiel's copy of the history itself (``serialize_game_and_state``, a
pickle, ``ActionObservationHistory``) lacks the actions applied from Python; a state
restored from those reads its own, whole.

Errors: an action the state cannot apply raises what pyspiel raises for one, a
``pyspiel.SpielError`` (OpenSpiel's dou_dizhu: "Cannot act in terminal states"), that is
also a fastdou error: :class:`SpielStateError` after the end, :class:`SpielActionError` for
a chance outcome that is not one of ``chance_outcomes()`` or an illegal player action; the
state is left as it was.

Limits: chance deals ranks, not suits, so jinling's trump suit (a record-only field that
play never reads) stays unset; five_player's marked card is passed on by rank
(``Game.from_hands(marked=...)``), which is all the dark landlord's reveal reads.

``python_fastdou_classic_openspiel`` against OpenSpiel's ``dou_dizhu`` (open_spiel 2.0.2,
``tests/adapters/test_adapter_openspiel.py`` replays deals through both): the same player ids, legal
ids and returns (base = the bid, x2 per bomb and rocket, x2 for spring or anti-spring,
landlord +-2 stakes, farmers -+1), except where OpenSpiel's game departs from the rules
(docs/rules.md): it lets a bomb answer the rocket; it offers no solo, pair or trio chain
starting at a rank the player holds four of; and when all three pass it ends the hand at 0
where fastdou redeals. Its chance ids differ: OpenSpiel draws the face-up card's position
(``0..50``; its holder, seat ``position % 3``, bids first) and then deals card ``c`` (id
``51 + c``, rank ``c % 13``, jokers 52 and 53) to seats 0, 1, 2 in turn (the
kitty last); :func:`deal_actions` gives the adapter's ids for the same deal.
"""

from __future__ import annotations

import base64
import collections
import functools
import operator
import pickle

import numpy as np
import pyspiel

from fastdou import cards as _cards
from fastdou.actions import action_table
from fastdou.adapters.openspiel_plan import (  # noqa: F401  (re-exported: tests, docs)
    NODE_OUTCOMES, OUTCOME_CACHE, DealPlan, compositions, deal_actions, deal_plan,
    max_game_length, max_multiplier, max_stake)
from fastdou.errors import ArgumentError, GameStateError, IllegalMoveError
from fastdou.game import Game
from fastdou.kernels import encoding as KE
from fastdou.kernels import state as S
from fastdou.kernels.layout import N_RANKS, SMALL_JOKER
from fastdou.rules import PRESETS, rules as make_rules, rules_array

_TOKENS = _cards.TOKENS

# short name -> (preset, profile)
GAMES = {f"python_fastdou_{name}": (name, None) for name in PRESETS
         if not make_rules(name).wilds}
GAMES["python_fastdou_classic_openspiel"] = ("classic", "openspiel")

class SpielStateError(GameStateError, pyspiel.SpielError):
    """An action applied to a terminal state (a ``pyspiel.SpielError``, as OpenSpiel's)."""


class SpielActionError(IllegalMoveError, pyspiel.SpielError):
    """A chance outcome that is not one of ``chance_outcomes()``, or an illegal player
    action (a ``pyspiel.SpielError``, as OpenSpiel's)."""


# --------------------------------------------------------------------- game constants
def game_type(short_name: str, rules) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"fastdou {rules.name}" + (f" ({rules.profile})" if rules.profile else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.players,
        min_num_players=rules.players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={})


def game_info(rules) -> pyspiel.GameInfo:
    stake = max_stake(rules)
    chance = max(deal_plan(rules).sizes)
    if rules.bidding == "marked":
        chance = max(chance, rules.players * N_RANKS, rules.players + 1)
    return pyspiel.GameInfo(
        num_distinct_actions=action_table(rules).size,
        max_chance_outcomes=chance,
        num_players=rules.players,
        min_utility=-(rules.players - 1) * stake,
        max_utility=(rules.players - 1) * stake,
        utility_sum=0.0,
        max_game_length=max_game_length(rules))


@functools.lru_cache(maxsize=None)
def action_names(rules) -> tuple:
    """A distinct string per action id: the table's name (``ActionTable.names``), with the
    reading added where cards read several ways (``'333444555666 (plane_solo, 345)'``)."""
    table = action_table(rules)
    names = list(table.names)
    seen = collections.Counter(names)
    for i, name in enumerate(names):
        if seen[name] > 1:
            move = table.action(i)
            low = move.rank - move.length + 1
            names[i] = (f"{name} ({move.kind.name.lower()}, "
                        f"{''.join(_TOKENS[r] for r in range(low, move.rank + 1))})")
    if len(set(names)) != len(names):
        raise RuntimeError(f"{rules.name}: two actions with one name")
    return tuple(names)


# --------------------------------------------------------------------- chance and the end
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


# --------------------------------------------------------------------- game and state
class FastdouGame(pyspiel.Game):
    """A fastdou preset as an OpenSpiel game (one subclass per registered name, in
    :data:`GAME_CLASSES`; pyspiel calls it with the game parameters)."""

    short_name = "python_fastdou_classic"

    def __init__(self, params=None):
        short_name = self.short_name
        name, profile = GAMES[short_name]
        self.rules = make_rules(name, profile=profile)
        self.table = action_table(self.rules)
        self.plan = deal_plan(self.rules)
        super().__init__(game_type(short_name, self.rules), game_info(self.rules),
                         params or {})

    def new_initial_state(self):
        return FastdouState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is not None and (
                iig_obs_type.perfect_recall or not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("fastdou games observe one seat's view only (no perfect-recall, "
                             "public-only or all-private observations)")
        return FastdouObserver(self.rules)


_DEALING, _MARKED, _TWIN, _PLAYING, _VOID = range(5)
PlayerAction = collections.namedtuple("PlayerAction", "player action")  # full_history()'s
assert (S.G_PHASE, S.G_PLAYER) == (0, 1)    # read together after each action
_DONE, _BID, _REDEALS = S.PH_DONE, S.PH_BID, S.G_REDEALS
_CORE_FIELDS = ("stage", "player", "redeals", "node", "caps", "counts", "first", "marked",
                "history")


class _Core:
    """A state's Python side, its one attribute. :meth:`copy` copies the Game by
    :meth:`Game.clone` and shares the deal plan and the per-state caches, which are never
    written in place; pyspiel's C++ clone deep-copies the attribute (which calls ``copy``)
    and its serialization pickles it (the Game as its record, :meth:`Game.dumps`).

    ``player`` is OpenSpiel's current player (chance -1, terminal -4); ``caps`` and
    ``counts`` the room left in each place and the cards dealt to it (``place * 15 + rank``)
    while dealing; ``history`` the ``(player, action)`` pairs so far; ``legal``,
    ``outcomes``, ``returns`` and ``views`` cache what the state answers until its next
    action."""

    __slots__ = ("plan",) + _CORE_FIELDS + ("game", "legal", "outcomes", "returns", "views")

    def deal(self, redeals: int) -> None:
        """A fresh deal."""
        self.stage, self.player, self.redeals, self.node, self.first = (_DEALING, _CHANCE,
                                                                        redeals, 0, 0)
        self.caps = self.plan.caps
        self.counts = [0] * (len(self.caps) * N_RANKS)
        self.marked = self.game = self.legal = self.outcomes = self.returns = None
        self.views = None

    def copy(self) -> "_Core":
        c = _Core.__new__(_Core)
        c.plan, c.stage, c.player, c.redeals, c.node = (self.plan, self.stage, self.player,
                                                        self.redeals, self.node)
        c.first = self.first
        c.caps = self.caps
        c.counts = None if self.counts is None else self.counts[:]
        c.marked, c.history = self.marked, self.history[:]
        c.game = None if self.game is None else self.game.clone()
        c.legal, c.outcomes, c.returns, c.views = self.legal, self.outcomes, self.returns, None
        return c

    def __deepcopy__(self, memo):
        return self.copy()

    def __getstate__(self):
        return (self.plan.rules, *(getattr(self, f) for f in _CORE_FIELDS),
                None if self.game is None else self.game.dumps())

    def __setstate__(self, saved):
        self.plan = deal_plan(saved[0])
        for f, v in zip(_CORE_FIELDS, saved[1:]):
            setattr(self, f, v)
        self.game = None if saved[-1] is None else Game.loads(saved[-1])
        self.legal = self.outcomes = self.returns = self.views = None


class FastdouState(pyspiel.State):
    """One hand: chance nodes while dealing, then the wrapped :class:`fastdou.Game`. What
    a client calls in its loop is answered here, in Python (module docstring, Cost)."""

    def __init__(self, game: FastdouGame):
        super().__init__(game)
        c = self._c = _Core.__new__(_Core)
        c.plan, c.history = game.plan, []
        c.deal(0)

    @property
    def fastdou_game(self) -> Game | None:
        """The wrapped :class:`fastdou.Game` (None while dealing)."""
        return self._c.game

    def dealt(self, place: int) -> np.ndarray:
        """The 15 counts dealt so far to ``place`` (a seat, or ``players`` for the kitty)
        while dealing."""
        counts = self._c.counts
        if counts is None:
            raise GameStateError("the deal is over: ask fastdou_game")
        return np.array(counts[place * N_RANKS:(place + 1) * N_RANKS], np.int64)

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self):
        return self._c.player

    def is_terminal(self):
        return self._c.player == _TERMINAL

    def is_chance_node(self):
        return self._c.player == _CHANCE

    def is_player_node(self):
        return self._c.player >= 0

    def is_simultaneous_node(self):
        return False

    def clone(self):
        state = type(self).__new__(type(self))
        pyspiel.State.__init__(state, self.get_game())
        state._c = self._c.copy()
        return state

    def child(self, action):
        state = self.clone()
        state.apply_action(action)
        return state

    def history(self):
        return [a for _, a in self._c.history]

    def full_history(self):
        return [PlayerAction(p, a) for p, a in self._c.history]

    def history_str(self):
        return ", ".join(str(a) for _, a in self._c.history)

    def move_number(self):
        return len(self._c.history)

    def is_initial_state(self):
        return not self._c.history

    def serialize(self):
        """pyspiel's form of a Python state (its history, then the pickled attributes), read
        back by ``game.deserialize_state``."""
        history = ",".join(f"{p}:{a}" for p, a in self._c.history)
        attributes = base64.b64encode(pickle.dumps(self.__dict__)).decode()
        return (f"history={history}\nmove_number={len(self._c.history)}\n"
                f"__dict__={attributes}")

    def _legal_now(self, c) -> list:
        """The legal ids, sorted (kept from the last action but at a hand's start)."""
        if c.legal is None:
            c.legal = sorted(c.game.legal_action_ids().tolist())
        return c.legal

    def legal_actions(self, player=None):
        c = self._c
        if c.player >= 0:
            if player is None or player == c.player:
                return (c.legal or self._legal_now(c))[:]
            if int(player) < 0:
                raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
            return []
        if c.player == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return []

    def _legal_actions(self, player):
        c = self._c
        if player != c.player or c.player < 0:
            return []
        return self._legal_now(c)[:]

    def chance_outcomes(self):
        c = self._c
        out = c.outcomes
        if out is None:
            if c.player != _CHANCE:
                return []
            if c.stage == _DEALING:
                out = c.plan.outcomes(c.node, c.caps)
            else:
                out = self._marked_outcomes(c)
            c.outcomes = out
        return out[:]

    def _marked_outcomes(self, c) -> list:
        n = c.plan.players
        hands = np.array(c.counts[:n * N_RANKS]).reshape(n, N_RANKS)
        if c.stage == _MARKED:
            normal = hands[:, :SMALL_JOKER]
            total = normal.sum()
            return [(int(s) * N_RANKS + int(k), float(normal[s, k] / total))
                    for s, k in zip(*np.nonzero(normal))]
        seat, rank = c.marked
        copies = int(c.plan.rules.deck[rank]) - 1
        twins = hands[:, rank].copy()
        twins[seat] -= 1
        out = [(int(t), float(twins[t] / copies)) for t in np.flatnonzero(twins)]
        elsewhere = copies - int(twins.sum())           # in the kitty or set aside
        return out + ([(n, elsewhere / copies)] if elsewhere else [])

    def returns(self):
        c = self._c
        if c.returns is None:
            if c.player != _TERMINAL:
                return c.plan.zeros[:]
            c.returns = list(c.game.scores) if c.game is not None else c.plan.zeros[:]
        return c.returns[:]

    def rewards(self):
        return self.returns()

    def apply_action(self, action):
        # Applied here: pyspiel's C++ apply_action would call back into Python twice.
        action = operator.index(action)
        c = self._c
        player = c.player
        legal = c.legal
        if legal is None and player >= 0:
            legal = c.legal = sorted(c.game.legal_action_ids().tolist())
        if legal is not None:                   # a player acts
            g = c.game
            if action in legal:
                g.push_id(action)
            else:
                try:
                    g.play_id(action)                   # refuses it, saying why
                except IllegalMoveError as e:
                    raise SpielActionError(str(e)) from None
            c.views = None
            c.history.append((player, action))
            phase, to_act = g._state[:2].tolist()       # S.G_PHASE, S.G_PLAYER
            if phase == _DONE:
                c.player, c.legal = _TERMINAL, None
            elif phase == _BID and g._state[_REDEALS]:
                self._redeal(c)                # fastdou redealt: deal again by chance
            else:
                c.player = to_act
                c.legal = sorted(g.legal_action_ids().tolist())
            return
        if c.player == _TERMINAL:
            raise SpielStateError(f"Cannot act in terminal states (action {action})")
        if c.stage == _DEALING:
            self._deal(c, action)
        elif c.stage == _MARKED:
            if not any(action == a for a, _ in self.chance_outcomes()):
                raise SpielActionError(f"chance outcome {action}: not a card in a hand "
                                       f"(seat * 15 + rank, a non-joker)")
            c.marked = divmod(action, N_RANKS)
            c.stage = _TWIN
        else:
            if not any(action == a for a, _ in self.chance_outcomes()):
                raise SpielActionError(f"chance outcome {action}: not where a twin of the "
                                       f"marked card lies (a seat, or {c.plan.players})")
            bright = c.marked[0]
            self._start(c, landlords=(bright, bright if action >= c.plan.players
                                      else action))
        c.outcomes = c.views = None
        c.history.append((player, action))

    _apply_action = apply_action       # what pyspiel's C++ apply_action calls (C++ callers)

    def _deal(self, c, action):
        plan = c.plan
        moves = plan.moves[c.node]
        if not 0 <= action < len(moves):
            raise SpielActionError(f"chance outcome {action}: this deal node's outcomes are "
                                   f"0..{len(moves) - 1}")
        totals, adds, opener = moves[action]
        caps = c.caps
        if any(map(operator.gt, totals, caps)):
            p = next(p for p, k in enumerate(totals) if k > caps[p])
            raise SpielActionError(f"chance outcome {action}: {plan.place(p)} has room "
                                   f"for {caps[p]} more card(s), not {totals[p]}")
        caps = c.caps = tuple(map(operator.sub, caps, totals))
        counts = c.counts
        for i, k in adds:
            counts[i] += k
        if opener is not None:
            c.first = opener
        c.node += 1
        if c.node == len(plan.nodes):
            rank = plan.last[0]
            for p, k in enumerate(caps):              # the last cards fill the room left
                counts[p * N_RANKS + rank] += k
            c.caps = (0,) * len(caps)
            if plan.rules.bidding == "marked":
                c.stage = _MARKED
            else:
                self._start(c, first=c.first)

    def _start(self, c, first=0, landlords=None):
        n = c.plan.players
        hands = [c.counts[s * N_RANKS:(s + 1) * N_RANKS] for s in range(n)]
        kitty = c.counts[n * N_RANKS:(n + 1) * N_RANKS]
        g = c.game = Game._from_deal(c.plan.rules, hands, kitty, first=first,
                                     landlords=landlords,
                                     mark=-1 if landlords is None else c.marked[1])
        c.stage, c.player = _PLAYING, g.current_player
        c.caps = c.counts = None

    def _redeal(self, c):
        limit = c.plan.rules.max_redeals
        redeals = c.redeals + 1
        if (limit > 0 and redeals >= limit) or redeals >= S.MAX_REDEALS_CAP:
            c.stage, c.player, c.redeals = _VOID, _TERMINAL, redeals
            c.game = c.legal = None
        else:
            c.deal(redeals)

    def observation_tensor(self, player=None):
        return self._view("tensor", player)

    def observation_string(self, player=None):
        return self._view("string", player)

    def _view(self, kind, player):
        c = self._c
        if player is None:
            player = c.player
        if not 0 <= player < c.plan.players:
            raise pyspiel.SpielError(f"an observation is of a seat 0..{c.plan.players - 1}, "
                                     f"not {player}")
        views = c.views
        if views is None:
            views = c.views = {}
        key = (kind, player)
        if key not in views:
            if kind == "string":
                views[key] = _observation_string(self, player)
            elif c.game is None:
                views[key] = [0.0] * int(KE.encoding_size(rules_array(c.plan.rules)))
            else:
                views[key] = c.game.encode(player).astype(np.float32).tolist()
        v = views[key]
        return v[:] if kind == "tensor" else v

    def _action_to_string(self, player, action):
        if player != _CHANCE:
            return action_names(self._c.plan.rules)[action]
        c = self._c
        if c.stage == _DEALING:
            return c.plan.describe(c.node, action)
        if c.stage == _MARKED:
            seat, rank = divmod(action, N_RANKS)
            return f"marked card: a {_TOKENS[rank]} of seat {seat}"
        return "twin: " + (f"seat {action}" if action < c.plan.players else "not in a hand")

    def __str__(self):
        c = self._c
        n = c.plan.players
        if c.stage == _VOID:
            return f"void after {c.redeals} redeals"
        if c.game is None:
            parts = [_cards.to_text(self.dealt(s)) for s in range(n + 1)]
            return f"deal {c.redeals}: " + " | ".join(parts)
        g = c.game
        hands = " | ".join(_cards.to_text(g.perfect_information_hand(s)) for s in range(n))
        return (f"deal {c.redeals}: {g.phase}, seat {g.current_player} to act, "
                f"last {g.last_move.text()}, bid {g.state[S.G_BID]}, x{g.multiplier}, "
                f"hands {hands}, {len(g.history)} actions")


def _observation_string(state, player) -> str:
    g = state.fastdou_game
    if state._c.stage == _VOID:
        return f"seat {player}: the hand is void"
    if g is None:
        return f"seat {player}: dealing, holds " + _cards.to_text(state.dealt(player))
    o = g.observation(player)
    return (f"seat {player}: {o.phase}, seat {o.to_act} to act, hand "
            f"{_cards.to_text(o.hand)}, landlord {o.landlord}, bid {o.bid}, "
            f"x{o.multiplier}, last {o.last_move.text()} by {o.last_player}, left "
            f"{list(o.cards_left)}, {len(o.history)} actions")


class FastdouObserver:
    """One seat's view: ``tensor`` is ``Game.encode(seat)`` (zeros while dealing)."""

    def __init__(self, rules):
        self.tensor = np.zeros(int(KE.encoding_size(rules_array(rules))), np.float32)
        self.dict = {"observation": self.tensor}
        self._buf = np.zeros(len(self.tensor), np.int8)

    def set_from(self, state, player):
        g = state.fastdou_game
        if g is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = g.encode(player, out=self._buf)

    def string_from(self, state, player):
        return _observation_string(state, player)


# --------------------------------------------------------------------- bots
class Bot(pyspiel.Bot):
    """A fastdou policy (a :class:`fastdou.Policy`, or what :func:`fastdou.policy` takes)
    as a ``pyspiel.Bot`` for seat ``player`` of a fastdou game: ``step(state)`` is the id
    the policy picks on the state's Game (:meth:`fastdou.Policy.choose_id`), which holds
    the whole history, so ``restart_at`` and ``inform_action`` have nothing to do. A Policy
    made for another profile of the game's preset is rebound to the game's rules (a name or
    function plays any preset)."""

    def __init__(self, policy, player: int):
        pyspiel.Bot.__init__(self)
        from fastdou.players import Policy, policy as make_policy
        self._named = not isinstance(policy, Policy)   # a name or function: any preset
        self.policy = make_policy(policy) if self._named else policy
        self.player = int(player)

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def step(self, state):
        game = state.fastdou_game if isinstance(state, FastdouState) else None
        if game is None or state.current_player() != self.player:
            raise ArgumentError(f"seat {self.player}'s bot steps a fastdou OpenSpiel state "
                                f"where seat {self.player} is to act")
        if self.policy.rules != game.rules:
            from fastdou.players import bind
            self.policy = self.policy.with_rules(game.rules) if self._named else \
                bind(self.policy, game.rules)
        return self.policy.choose_id(game)


# A class, not a closure, per name: pyspiel keeps its factories until the interpreter has
# shut down, and releasing a closure then aborts the process.
GAME_CLASSES = {n: type(f"FastdouGame_{n[len('python_fastdou_'):]}", (FastdouGame,),
                        {"short_name": n}) for n in GAMES}


def register() -> None:
    """Register every game of :data:`GAMES` with pyspiel (done on import)."""
    known = set(pyspiel.registered_names())
    for short_name, (name, profile) in GAMES.items():
        if short_name not in known:
            pyspiel.register_game(game_type(short_name, make_rules(name, profile=profile)),
                                  GAME_CLASSES[short_name])


register()
