"""DouZero on fastdou: a drop-in for ``douzero.env.env.Env`` and for the ``GameEnv`` that
DouZero's evaluation drives, and DouZero's observation computed by compiled code.

>>> import numpy as np
>>> from fastdou.adapters.douzero import Env
>>> env = Env("adp")
>>> np.random.seed(0)                 # DouZero's Env deals the same hand from this seed
>>> obs = env.reset()
>>> obs["position"], obs["x_batch"].shape, obs["z_batch"].shape
('landlord', (46, 373), (46, 5, 162))
>>> env.infoset.player_hand_cards
[3, 4, 4, 5, 5, 6, 8, 9, 9, 10, 10, 10, 11, 11, 12, 12, 13, 14, 17, 30]
>>> obs, reward, done, _ = env.step([3])
>>> obs["position"], obs["legal_actions"][:4], obs["x_batch"].shape
('landlord_down', [[], [4], [5], [6]], (11, 484))

Seats: 0 ``landlord``, 1 ``landlord_down`` (plays after the landlord), 2 ``landlord_up``. The
game is ``fastdou.Game.from_hands(..., rules("classic", profile="douzero"), start="play",
landlord=0)``: the landlord holds the kitty and leads, as in DouZero.

* :class:`Env` (``objective`` ``"wp"``, ``"adp"`` or ``"logadp"``): ``reset(card_play_data=
  None)`` deals like DouZero (``numpy.random.shuffle`` of the same deck list, so one numpy
  seed gives both the same deal) or takes DouZero's deal dict; ``step(action)`` takes a
  DouZero card list and returns ``(obs, reward, done, {})`` with DouZero's rewards (from
  the landlord's side: +-1, +-2**bombs, +-(bombs + 1)); ``infoset`` is readable by DouZero's
  own ``get_obs``. ``env.game`` is the fastdou ``Game`` the env steps.
* :func:`encode` ``(game)`` -> the dict ``get_obs`` returns (``position``, ``x_batch``,
  ``z_batch``, ``legal_actions``, ``x_no_action``, ``z``), from compiled code
  (:mod:`fastdou.kernels.douzero_encoding`, whose kernels a user's ``@njit`` code can call).
* :class:`GameEnv` and :func:`evaluate`: DouZero's evaluation (its agents: ``"random"``,
  ``"rlcard"``, or a model path when torch is installed) run on fastdou.
* :class:`Agent` ``(policy)``: a fastdou policy (:func:`fastdou.policy`) as a DouZero agent
  (``act(infoset)``), in these envs and in DouZero's own ``GameEnv``.

Actions. DouZero's actions are card multisets, fastdou's moves are (cards, reading): the
adapter lists each multiset once, and plays the reading that is legal, preferring the longer
chain, then the higher rank (so ``333444555666`` leads as a 4-trio chain, as DouZero reads
it). DouZero's generator lists some multisets twice; the adapter lists them once, in
fastdou's order (the pass first), so ``x_batch`` has a row per distinct action.

Known differences (RULES.md §2: DouZero's generator bugs are not copied). The adapter's legal
actions differ from DouZero's env exactly when the move to beat is one of these:

* ``"unread"``: a plane DouZero offers but its own move detector rejects (a plane of 4 or
  5 trios whose wings hold a trio, or all four cards of a rank): DouZero then lets the next
  players answer only with bombs, the rocket or a pass; fastdou with a higher plane too.
* ``"reread"``: a plane of 3 trios with a wing trio next to its chain (``444555666+333``)
  played to beat a plane: DouZero reads those cards as a 4-trio chain, fastdou as the plane
  that was played.
* ``"wing_trio"``: a plane with solo wings (DouZero's type 11) where the move to beat or an
  answer holds a wing trio: DouZero ranks planes by their highest trio, wings included;
  fastdou by the chain's top trio.

Everything else (observations, rewards, ``done``) is the same; ``tests/adapters/test_adapter_douzero.py``
replays random games through both and counts those cases.

Infoset fields are DouZero's; lists of cards are sorted except ``played_cards`` (in play order,
as DouZero keeps them) and ``card_play_action_seq``. The hand keeps them step by step and an
infoset makes each field when first read, as fresh lists. An action given unsorted is recorded
sorted (DouZero records it as given, then misreads it: its move filters assume sorted lists).
After the last action ``infoset`` stays the one it was before it, and ``step`` returns
``obs=None``, as DouZero's env does.
"""

from __future__ import annotations

import multiprocessing
import pickle

import numpy as np

from fastdou import cards as _cards
from fastdou.adapters.douzero_infoset import (  # noqa: F401  (re-exported)
    _BUILD, _LIST_OF, _LISTS, FIELDS, POSITIONS, SEATS, InfoSet, _History, card_list)
from fastdou.compiling.entry_points import entry_point
from fastdou.checks import short
from fastdou.errors import ArgumentError, GameStateError, IllegalMoveError, InvalidCardsError
from fastdou.game import Game
from fastdou.kernels import action_ids as KA
from fastdou.kernels import douzero_encoding as DE
from fastdou.kernels import state as S
from fastdou.kernels.packing import contains
from fastdou.rules import rules as _make_rules, rules_array
from fastdou.stepper import kernel_table

RULES = _make_rules("classic", profile="douzero")
OBJECTIVES = ("wp", "adp", "logadp")
DECK = [v for v in _cards.DOUZERO[:13] for _ in range(4)] + [20, 30]   # DouZero's deck list
DEAL_KEYS = ("landlord", "landlord_up", "landlord_down", "three_landlord_cards")
DIFFERENCES = ("unread", "reread", "wing_trio")              # see the module docstring

_SHIFT = {v: 1 << (4 * i) for i, v in enumerate(_cards.DOUZERO)}
_BOMBS = frozenset([4 << (4 * r) for r in range(13)] + [_SHIFT[20] | _SHIFT[30]])
_FULL_DECK = sum(_SHIFT[c] for c in DECK)


def packed_cards(action) -> int:
    """The packed form of a DouZero card list (checked: DouZero integers only)."""
    try:
        return sum(map(_SHIFT.__getitem__, action))
    except (KeyError, TypeError):
        _cards.from_douzero(action)          # raises InvalidCardsError naming the problem
        raise InvalidCardsError(f"not a DouZero card list: {short(action)}") from None


def random_deal() -> dict:
    """A deal as DouZero's ``Env.reset`` makes it (``numpy.random.shuffle`` of its deck):
    the same numpy seed gives the same deal."""
    deck = DECK.copy()
    np.random.shuffle(deck)
    deal = {"landlord": deck[:20], "landlord_up": deck[20:37], "landlord_down": deck[37:54],
            "three_landlord_cards": deck[17:20]}
    for v in deal.values():
        v.sort()
    return deal


def _check_deal(card_play_data) -> tuple:
    """DouZero's deal dict -> the packed hands by seat as dealt (the landlord's with the
    kitty) and the packed kitty."""
    if not isinstance(card_play_data, dict) or set(DEAL_KEYS) - card_play_data.keys():
        raise InvalidCardsError(f"a DouZero deal is a dict with keys {', '.join(DEAL_KEYS)}, "
                                f"not {short(card_play_data)}")
    packed = []
    for key, size in zip(DEAL_KEYS, (20, 17, 17, 3)):
        cards = card_play_data[key]
        if not isinstance(cards, (list, tuple)):
            raise InvalidCardsError(f"the deal's {key} is a list of DouZero cards, "
                                    f"not {short(cards)}")
        if len(cards) != size:
            raise InvalidCardsError(f"the deal's {key} holds {len(cards)} cards, not {size}")
        try:
            packed.append(packed_cards(cards))
        except InvalidCardsError as e:
            raise InvalidCardsError(f"the deal's {key}: {e}") from None
    lord, up, down, kitty = packed
    # 54 cards in all whose packed sum is the deck's: no count overflowed, one whole deck
    if lord + down + up != _FULL_DECK:
        raise InvalidCardsError("the deal's hands are not one whole deck of 54 cards")
    if not contains(np.uint64(lord), np.uint64(kitty)):
        raise InvalidCardsError("the deal's three_landlord_cards are not all in the "
                                "landlord's 20 cards")
    return (lord, down, up), kitty




def _reward(objective: str, landlord_won: bool, bombs: int) -> float:
    """DouZero's reward, from the landlord's side."""
    if objective == "adp":
        value = 2.0 ** bombs
    elif objective == "logadp":
        value = bombs + 1.0
    else:
        value = 1.0
    return value if landlord_won else -value


_WRITABLE: dict = {}         # rules -> a writable copy of its array
_FILL: list = []             # the entry point of DE.fill


def _fill_entry():
    """The compiled entry point of ``DE.fill`` for the hand's arrays (``fastdou.compiling.entry_points``:
    it skips the typing of every argument, and is given only arrays of the exact types it
    was made for, which these are)."""
    if not _FILL:
        state = np.zeros(S.STATE_SIZE, np.int64)
        cards = np.empty(1, np.uint64)
        x = np.empty((1, DE.X_FARMER), np.float32)
        z_batch = np.empty((1, DE.Z_ROWS, DE.Z_COLS), np.float32)
        x_no, z = np.empty(1, np.int8), np.empty((DE.Z_ROWS, DE.Z_COLS), np.int8)
        _FILL.append(entry_point(DE.fill, (state, cards, x, z_batch, x_no, z)))
    return _FILL[0]


class _HandGame(Game):
    """The ``Game`` of a hand, stepped by ``DE.step_actions`` (``fastdou.stepper``): each
    step also lists the next seat's DouZero actions into ``_extra``, ``(cards, played,
    count)``; ``_played`` and ``_count`` are memoryviews of the last two (read as ints,
    not numpy items). A hand's game takes over the last one's buffers
    (``Stepper._take_over``). Its start (the game record's) is made when first read."""

    _KERNEL = staticmethod(DE.step_actions)

    def __init__(self, state: np.ndarray, dealt: tuple, kitty: int):
        self._deal = dealt, kitty
        Game.__init__(self, RULES, state, None)

    @property
    def _start(self) -> dict:
        if self._begin is None:
            (lord, down, up), kitty = self._deal
            self._begin = Game.from_hands(
                [_cards.unpack(p) for p in (lord - kitty, down, up)], RULES,
                kitty=_cards.unpack(kitty), start="play", landlord=0)._start
        return self._begin

    @_start.setter
    def _start(self, begin) -> None:
        self._begin = begin

    def _new_ids(self, room: int) -> None:
        Game._new_ids(self, room)
        n = len(self._ids[2])            # the actions are grouped from the records
        if not self._extra or len(self._extra[0]) < n:
            self._extra = (np.empty(n, np.uint64), np.empty(n, np.int64),
                           np.zeros(1, np.int64))
            self._played, self._count = map(memoryview, self._extra[1:])

    def _take_over(self, other: "_HandGame") -> None:
        Game._take_over(self, other)
        self._played, self._count = other._played, other._count

    def __getstate__(self) -> dict:
        state = Game.__getstate__(self)
        state.pop("_played", None)       # memoryviews are not pickled: made again from
        state.pop("_count", None)        # _extra
        return state

    def __setstate__(self, state: dict) -> None:
        Game.__setstate__(self, state)
        if self._extra:
            self._played, self._count = map(memoryview, self._extra[1:])

    def _actions_now(self) -> int:
        """List the seat to act's legal ids and DouZero actions (``_extra``) in the compiled
        step, applying nothing; their number."""
        step = self._step or self._setup_ids()
        end = self._ids_end
        m = step(self._state, self._kernel, self._bufs, self._log, self._extra, 0,
                 len(self._actions), end, DE.LIST_ONLY)
        if m < 0:                        # the ids did not fit: list them in a fresh buffer
            self._renew_ids(-m - KA.OVERFLOW)
            return self._actions_now()
        self._ids_end, self._n_ids = end + m, m
        return self._count[0]


_WIDTH = (DE.X_LANDLORD, DE.X_FARMER, DE.X_FARMER)     # x_batch columns by seat
_Z = (DE.Z_ROWS, DE.Z_COLS)


class _Hand:
    """One hand on fastdou with DouZero's view of it: a :class:`_HandGame`, each step one
    compiled call (``DE.step_actions``: the action id applied and the next seat's DouZero
    actions), a second for an env's observation (``DE.fill``: its arrays, made here), and
    the infoset's fields kept up to date in Python (each hand, each seat's played cards, the
    last to play, the bombs). ``game`` is that ``Game``; the next hand's takes over its
    buffers."""

    def __init__(self, observe: bool = True):
        self._observe = observe          # an env's observation arrays at every step
        self.game = None
        self._spent = None               # the last hand's game, whose buffers the next takes
        self._over = False
        self.info = None

    def clear(self) -> None:
        """No hand dealt, as a fresh ``_Hand`` (the next keeps this one's buffers)."""
        self._spent = self.game or self._spent
        self.game = self.info = None
        self._over = False

    def start(self, card_play_data) -> None:
        dealt, kitty = _check_deal(card_play_data)
        self._state = np.empty(S.STATE_SIZE, np.int64)
        DE.deal_start(self._state, kernel_table(RULES)[0],
                      np.array([dealt[0] - kitty, dealt[1], dealt[2]], np.uint64),
                      np.uint64(kitty))
        g = _HandGame(self._state, dealt, kitty)
        spent = self.game or self._spent
        if spent is not None:
            g._take_over(spent)
        self.game, self._spent = g, None
        self._hands = list(dealt)        # each seat's packed cards now
        self._h = _History(list(card_play_data["three_landlord_cards"]),
                           tuple(len(_LISTS[p]) for p in dealt))
        self._last_pid = "landlord"
        self._bombs = 0
        self._over = False
        self._look(self.game._actions_now(), 0)

    def _look(self, m: int, t: int) -> None:
        """The seat to act after ``t`` actions, with its ``m`` actions: its infoset (and
        an env's observation)."""
        cards = self.game._extra[0]
        self._legal = legal = cards[:m].tolist()
        info = self.info = InfoSet()
        info.player_position = POSITIONS[t % 3]
        info.last_pid = self._last_pid
        info.bomb_num = self._bombs
        info._h, info._t, info._hands, info._legal = self._h, t, tuple(self._hands), legal
        info._state = self._state
        if self._observe:
            width = _WIDTH[t % 3]
            x_batch = np.empty((m, width), np.float32)
            z_batch = np.empty((m, *_Z), np.float32)
            x_no_action = np.empty(width - DE.CARD_FEATURES, np.int8)
            z = np.empty(_Z, np.int8)
            (_FILL or [_fill_entry()])[0](self._state, cards, x_batch, z_batch, x_no_action, z)
            self.obs_parts = x_batch, z_batch, x_no_action, z

    @property
    def done(self) -> bool:
        return self._over

    def apply(self, action) -> bool:
        """Play a DouZero card list; returns whether the hand is over."""
        if self.game is None:
            raise GameStateError("no hand dealt: call reset() (or card_play_init) first")
        if self._over:
            raise GameStateError("the hand is over")
        packed = packed_cards(action)
        try:
            i = self._legal.index(packed)
        except ValueError:
            i = -1
        if i < 0 or len(action) != len(_LISTS[packed]):
            raise IllegalMoveError(f"{short(action)} is not a legal action of "
                                   f"{POSITIONS[self.seat]} now")
        g = self.game                    # apply the id it plays, list the next actions
        a = g._played[i]
        status = g._stepped(a, -1)
        if status < 0:                   # unreachable: ids come from the legal actions
            raise IllegalMoveError(f"action id {a} was refused (status {-status})")
        m = g._count[0] if g._n_ids >= 0 else g._actions_now()
        acts = self._h.acts
        seat = len(acts) % 3
        acts.append(_LISTS[packed])
        if packed:
            self._hands[seat] -= packed
            self._h.played[seat].extend(_LISTS[packed])
            self._last_pid = POSITIONS[seat]
            self._bombs += packed in _BOMBS
        if m == 0:                       # the hand is over: the last infoset stays, as
            self._over = True            # DouZero's does
        else:
            self._look(m, len(acts))
        return self._over

    @property
    def seat(self) -> int:
        """The seat to act (once the hand is over: the seat that ended it, as DouZero)."""
        return (len(self._h.acts) - self._over) % 3

    # ------------------------------------------------------------------ views
    def bombs(self) -> int:
        return self._bombs

    def landlord_won(self) -> bool:
        return int(self._state[S.G_WINNER]) == S.SIDE_LANDLORD

    def obs(self) -> dict:
        x_batch, z_batch, x_no_action, z = self.obs_parts
        return {"position": POSITIONS[self.seat], "x_batch": x_batch, "z_batch": z_batch,
                "legal_actions": list(map(list, map(_LIST_OF, self._legal))),
                "x_no_action": x_no_action, "z": z}


class Env:
    """A drop-in for ``douzero.env.env.Env`` on fastdou (see the module docstring)."""

    def __init__(self, objective: str = "wp"):
        if objective not in OBJECTIVES:
            raise ArgumentError(f"objective is one of {', '.join(OBJECTIVES)}, "
                                f"not {short(objective)}")
        self.objective = objective
        self._hand = _Hand()

    def reset(self, card_play_data=None) -> dict:
        """Deal a new hand (DouZero's random deal, or ``card_play_data``); returns the
        landlord's observation."""
        self._hand.start(random_deal() if card_play_data is None else card_play_data)
        return self._hand.obs()

    def step(self, action):
        """Play the DouZero card list ``action`` for the acting position: ``(obs, reward,
        done, {})``, ``obs`` None and ``reward`` DouZero's once the hand is over."""
        if self._hand.apply(action):
            h = self._hand
            return None, _reward(self.objective, h.landlord_won(), h.bombs()), True, {}
        return self._hand.obs(), 0.0, False, {}

    @property
    def infoset(self) -> InfoSet:
        """DouZero's infoset of the acting position."""
        return self._hand.info

    def close(self) -> None:
        """Nothing to release (DouZero's training wrapper calls it)."""

    @property
    def game(self) -> Game:
        """The fastdou Game of the hand, the one the Env steps (play on the Env, not on
        it)."""
        return self._hand.game

    @property
    def _acting_player_position(self) -> str:
        return POSITIONS[self._hand.seat]

    @property
    def _game_over(self) -> bool:
        return self._hand.done


def encode(game) -> dict:
    """DouZero's ``get_obs`` dict for the seat to act in a classic play-phase ``game``
    (positions relative to its landlord), from compiled code. ``legal_actions`` lists each
    card multiset once."""
    if not isinstance(game, Game):
        raise ArgumentError(f"encode takes a fastdou Game, not {short(game)}")
    r = game.rules
    if r.name != "classic":
        raise ArgumentError(f"DouZero's encoding is for classic rules, not {r.name}")
    if game.phase != "play":
        raise GameStateError(f"DouZero's encoding is of the play phase; the game is in its "
                             f"{game.phase} phase")
    st = game.state
    rules = _WRITABLE.get(r)
    if rules is None:
        rules = _WRITABLE[r] = np.array(r.array)    # dispatched faster than read-only
    actions, x_batch, z_batch, x_no_action, z = DE.observe(st, rules)
    rel = (int(st[S.G_PLAYER]) - int(st[S.G_LANDLORD])) % 3
    return {"position": POSITIONS[rel], "x_batch": x_batch, "z_batch": z_batch,
            "legal_actions": [card_list(c) for c in actions[1].tolist()],
            "x_no_action": x_no_action, "z": z}


# ---------------------------------------------------------------------- evaluation
class GameEnv:
    """A drop-in for ``douzero.env.game.GameEnv``, the engine DouZero's evaluation drives:
    ``players`` maps each position to an agent with ``act(infoset) -> action``;
    ``card_play_init(deal)``, ``step()`` until ``game_over``, ``reset()``; ``num_wins`` and
    ``num_scores`` add up as DouZero's do (a landlord win scores 2 * 2**bombs to the landlord
    and -2**bombs to the farmers, a farmer win the reverse)."""

    def __init__(self, players):
        self.players = players
        self.num_wins = {"landlord": 0, "farmer": 0}
        self.num_scores = {"landlord": 0, "farmer": 0}
        self._hand = _Hand(observe=False)
        self.winner = None

    def card_play_init(self, card_play_data) -> None:
        self._hand.start(card_play_data)

    @property
    def game_over(self) -> bool:
        return self._hand.done

    @property
    def acting_player_position(self) -> str:
        return POSITIONS[self._hand.seat]

    @property
    def game_infoset(self) -> InfoSet:
        return self._hand.info

    def step(self) -> None:
        action = self.players[self.acting_player_position].act(self.game_infoset)
        if self._hand.apply(action):
            won = self._hand.landlord_won()
            self.winner = "landlord" if won else "farmer"
            stake = 2 ** self._hand.bombs()
            for pos, base in (("landlord", 2), ("farmer", 1)):
                if (pos == "landlord") == won:
                    self.num_wins[pos] += 1
                    self.num_scores[pos] += base * stake
                else:
                    self.num_scores[pos] -= base * stake

    def get_winner(self) -> str:
        return self.winner

    def get_bomb_num(self) -> int:
        return self._hand.bombs()

    def reset(self) -> None:
        self._hand.clear()


class Agent:
    """DouZero's agent protocol for a fastdou policy: ``act(infoset)`` returns the card list
    that ``policy`` (a :class:`fastdou.Policy`, or what :func:`fastdou.policy` takes) picks,
    for this module's :class:`Env` and :class:`GameEnv` and for DouZero's own ``GameEnv``.

    On this module's infosets the policy runs on the hand's engine state. A DouZero infoset
    is replayed into one (the hands as dealt are each hand plus its played cards): exact,
    but for the kitty once the landlord has played cards of its ranks (DouZero keeps only
    what is left of it; a kitty consistent with that is used: only a user policy reading
    ``G_KITTY`` could tell), and a hand where DouZero's game departs from the rules
    (:data:`DIFFERENCES`) raises IllegalMoveError. A move is handed over as its cards, which
    the game reads as it reads any card list (module docstring, Actions)."""

    def __init__(self, policy):
        from fastdou.players import bind
        self.policy = bind(policy, RULES)

    def act(self, infoset) -> list:
        state = _state_of(infoset)
        records, i = self.policy.pick_state(state, rules_array(RULES))
        return card_list(int(records[i, 0]))


def _state_of(infoset) -> np.ndarray:
    """The engine state of the decision ``infoset`` shows (see :class:`Agent`)."""
    if isinstance(infoset, InfoSet):
        if len(infoset._h.acts) == infoset._t:
            return infoset._state
        kitty = list(infoset._h.kitty)
    else:
        kitty = _kitty(infoset.three_landlord_cards, infoset.played_cards["landlord"])
    hands, played = infoset.all_handcards, infoset.played_cards
    deal = {p: sorted(list(hands[p]) + list(played[p])) for p in POSITIONS}
    deal["three_landlord_cards"] = kitty
    hand = _Hand(observe=False)
    hand.start(deal)
    for k, action in enumerate(infoset.card_play_action_seq):
        try:
            hand.apply(list(action))
        except IllegalMoveError as e:
            raise IllegalMoveError(f"action {k} of the infoset, {short(action)}, is not legal "
                                   f"in fastdou's game (DouZero's rules differ here): {e}"
                                   ) from None
    if POSITIONS[hand.seat] != infoset.player_position:
        raise ArgumentError(f"the infoset's actions leave {POSITIONS[hand.seat]} to act, "
                            f"not {infoset.player_position}")
    return hand._state


def _kitty(left, lord_played) -> list:
    """A kitty as dealt given what DouZero keeps of it: ``left``, after the landlord's cards
    ``lord_played`` took, one for one, the first of each value they matched. A value still
    left was taken as often as the landlord played it; the rest is filled from values the
    landlord played, lowest first."""
    kitty = list(left) + [v for v in lord_played if v in left]
    for v in sorted(lord_played):
        if len(kitty) >= 3:
            break
        if v not in left:
            kitty.append(v)
    return sorted(kitty)


def _agents(paths: dict) -> dict:
    """DouZero's own agents for each position (``"random"``, ``"rlcard"`` or a model path,
    which needs torch)."""
    try:
        from douzero.evaluation.simulation import load_card_play_models
    except ImportError as e:
        raise ArgumentError(f"DouZero's agents need douzero installed (pip install --no-deps "
                            f"douzero==1.1.0; model agents need torch too): {e}") from None
    return load_card_play_models(paths)


def simulate(deals, paths: dict) -> tuple:
    """Play ``deals`` with DouZero's agents named by ``paths`` (position -> ``"random"``,
    ``"rlcard"`` or a model path) on fastdou: ``(landlord wins, farmer wins, landlord
    score, farmer score)``, what DouZero's ``mp_simulate`` reports."""
    env = GameEnv(_agents(paths))
    for deal in deals:
        env.card_play_init(deal)
        while not env.game_over:
            env.step()
        env.reset()
    return (env.num_wins["landlord"], env.num_wins["farmer"], env.num_scores["landlord"],
            env.num_scores["farmer"])


def _worker(deals, paths, queue):
    queue.put(simulate(deals, paths))


def evaluate(landlord, landlord_up, landlord_down, eval_data, num_workers: int = 1) -> dict:
    """DouZero's ``evaluate`` on fastdou: its deals (a pickle file's path, as DouZero takes,
    or a list of deal dicts) played by its agents, split round robin over ``num_workers``
    processes (1: in this process). Returns the figures DouZero prints: ``{"wp":
    {"landlord", "farmers"}, "adp": {"landlord", "farmers"}, "games"}``."""
    if isinstance(eval_data, (str, bytes)) or hasattr(eval_data, "__fspath__"):
        with open(eval_data, "rb") as f:
            deals = pickle.load(f)
    else:
        deals = list(eval_data)
    if not isinstance(num_workers, int) or num_workers < 1:
        raise ArgumentError(f"num_workers is a whole number >= 1, not {short(num_workers)}")
    paths = {"landlord": landlord, "landlord_up": landlord_up, "landlord_down": landlord_down}
    parts = [deals[k::num_workers] for k in range(num_workers)]
    if num_workers == 1:
        results = [simulate(parts[0], paths)]
    else:
        ctx = multiprocessing.get_context("spawn")
        queue = ctx.SimpleQueue()
        procs = [ctx.Process(target=_worker, args=(p, paths, queue)) for p in parts]
        for p in procs:
            p.start()
        results = [queue.get() for _ in procs]
        for p in procs:
            p.join()
    lw, fw, ls, fs = (sum(r[i] for r in results) for i in range(4))
    games = lw + fw
    if games == 0:
        raise ArgumentError("eval_data holds no deals")
    return {"wp": {"landlord": lw / games, "farmers": fw / games},
            "adp": {"landlord": ls / games, "farmers": 2 * fs / games}, "games": games}
