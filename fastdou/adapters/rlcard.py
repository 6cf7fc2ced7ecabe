"""RLCard drop-in: fastdou's classic game behind RLCard's Dou Dizhu environment.

``import fastdou.adapters.rlcard`` registers the environment with RLCard as
``"fastdou-doudizhu"``; then ``rlcard.make("fastdou-doudizhu", config)`` (or
``DoudizhuEnv(config)``) gives an env with RLCard's ``doudizhu`` interface and state dicts
(``obs``, ``legal_actions``, ``raw_obs``, ``raw_legal_actions``, ``action_record``),
``reset``/``step``/``step_back``/``run``/``get_payoffs``/``get_perfect_information``/
``get_action_feature``, and RLCard's seeding: ``config["seed"]`` seeds the same
``np.random.RandomState`` RLCard builds, and each ``reset`` shuffles RLCard's sorted
54-card deck with it, so seed ``s`` deals exactly the hands RLCard's own env deals.

The game is fastdou's ``classic`` preset, ``standard`` profile, landlord fixed at seat 0
straight into play (RLCard's setting); action ids are ``fastdou.action_table("classic")``,
which equal RLCard's ``ACTION_2_ID`` (``num_actions`` 27,472: the plays and pass). A step
is one compiled call (:mod:`fastdou.kernels.rlcard_encoding`: check, apply, the next
seat's legal ids in RLCard's order, its ``obs``). ``legal_actions`` and ``raw_obs`` are
dicts made when first read (iterating ``legal_actions`` makes no arrays); they show the
moment they were handed out, like RLCard's.

RLCard 1.2.0's quirks, reproduced (``config["fastdou_fix_quirks"] = True`` corrects the
ones marked *fix*):

1. *fix* (rlcard#292) a farmer's "last landlord action" and "last teammate action" loop
   over ``reversed(trace)`` and so keep that seat's FIRST action; fixed: its latest (a
   pass: zeros).
2. *fix* ``_get_one_hot_array(0, n)`` sets entry ``n - 1``: a seat with no cards left (the
   winner, in the last states) reads as a full hand; fixed: an all-zero block.
3. *fix* ``raw_obs["seen_cards"]``: once the landlord plays a card of a rank, every copy of
   that rank leaves the string (kitty card or not), and ``step_back`` never puts it back;
   fixed: the kitty less, rank by rank, the cards the landlord has played.
4. *fix* ``get_payoffs()`` before the hand ends answers [0, 1, 1] (farmers won); fixed:
   [0, 0, 0].
5. ``get_state(p)`` for a seat not to act: ``legal_actions`` are the seat to act's,
   ``raw_obs["actions"]`` and ``raw_legal_actions`` what ``p`` could play against the last
   play (or lead, if it made it); ``[]`` once the hand is over.
6. ``step_back`` leaves ``action_record`` (shared by every state) and ``timestep`` as they
   are; after the last action the seat "to act" is the one after the winner.
7. A leader's actions come from a Python ``set`` (their order varies with
   ``PYTHONHASHSEED``); here they are in ascending id order. An answer's actions are in
   RLCard's order (pass, the same type by RLCard's enumeration, the rocket, the bombs; a
   bomb answered: bombs, then the rocket), so rule agents that keep the first best action
   choose as on RLCard.
8. Not reproduced: RLCard cannot encode a farmer's view before the landlord's first action
   (``UnboundLocalError``: after ``step_back`` to the start, or ``get_state(1)`` right after
   ``reset``); here the landlord-action block is zeros.

``Agent(policy)``: a fastdou policy (:func:`fastdou.policy`) as an RLCard agent of this env.

Other readings that are RLCard's and not quirks: "last action" is the last action unless it
is a pass, then the one before (two passes: zeros); ``others_hand`` is the other two hands
together; ``num_cards_left`` counts every seat.
"""

from __future__ import annotations

import functools
from collections import OrderedDict

import numpy as np

from fastdou.extras import need

need("rlcard", "rl")
from rlcard.envs import Env
from rlcard.envs.registration import DEFAULT_CONFIG, register, registry

from fastdou import kernels as K
from fastdou.actions import action_table
from fastdou.cards import TOKENS
from fastdou.errors import ArgumentError, GameStateError, IllegalMoveError
from fastdou.kernels import layout as L
from fastdou.kernels import rlcard_encoding as KR
from fastdou.kernels import state as S
from fastdou.rules import rules as _rules, rules_array
from fastdou.stepper import Stepper

__all__ = ["Agent", "DoudizhuEnv", "ENV_ID", "rlcard_deal"]

ENV_ID = "fastdou-doudizhu"
N_SEATS = 3
HAND = 17
SUITS = "SHDC"                       # RLCard's deck order of suits within a rank
RLCARD_RANKS = "3456789TJQKA2"       # RLCard's Card.rank of the 13 ranks
_RULES = _rules("classic", profile="standard")
_RULES_ARRAY = rules_array(_RULES)


# ----------------------------------------------------------------------- the deal
def _card_rank(card: int) -> int:
    """Rank of card ``card`` of RLCard's sorted deck (rank-major, suits S H D C; 52 the
    small joker, 53 the big)."""
    return card // 4 if card < 52 else card - 52 + L.SMALL_JOKER


_CARD_RANKS = np.array([_card_rank(c) for c in range(54)], dtype=np.int64)


def _card_name(card: int) -> str:
    """RLCard's ``suit + rank`` text of a card (``"S3"``, ``"BJ"``)."""
    if card >= 52:
        return ("BJ", "RJ")[card - 52]
    return SUITS[card % 4] + RLCARD_RANKS[card // 4]


def rlcard_deal(np_random) -> np.ndarray:
    """RLCard's deal from ``np_random`` (it draws exactly what RLCard's dealer draws: one
    shuffle of 54 items, which numpy does alike for a list and an array): the 54 cards of
    RLCard's sorted deck, shuffled, as indices (see ``_card_rank``). Seats 0, 1, 2 get
    ``deck[0:17]``, ``[17:34]``, ``[34:51]``; the kitty is ``deck[51:]``."""
    deck = np.arange(54, dtype=np.int64)
    np_random.shuffle(deck)
    return deck


def deal_counts(deck) -> tuple:
    """The three 17-card hands and the kitty of a shuffled deck, as 15 counts each."""
    ranks = _CARD_RANKS[np.asarray(deck)]
    parts = [ranks[s * HAND:(s + 1) * HAND] for s in range(N_SEATS)] + [ranks[3 * HAND:]]
    return tuple(np.bincount(p, minlength=L.N_RANKS).astype(np.uint8) for p in parts)


# ----------------------------------------------------------------------- tables
# _BYTE_TEXT[i][b]: the text of byte i of a packed multiset holding b (ranks 2i and 2i+1)
_BYTE_TEXT = [[TOKENS[2 * i] * (b & 15) + (TOKENS[2 * i + 1] * (b >> 4) if 2 * i + 1 <
                                            L.N_RANKS else "") for b in range(256)]
              for i in range(8)]


@functools.lru_cache(maxsize=1 << 16)     # a seat's hand and played cards repeat for steps
def _text(packed: int) -> str:
    """RLCard's text of packed cards: the tokens sorted low to high (``""`` for none)."""
    t0, t1, t2, t3, t4, t5, t6, t7 = _BYTE_TEXT
    b = packed.to_bytes(8, "little")
    return t0[b[0]] + t1[b[1]] + t2[b[2]] + t3[b[3]] + t4[b[4]] + t5[b[5]] + t6[b[6]] + t7[b[7]]


_LOW_BITS = sum(1 << (4 * r) for r in range(L.N_RANKS))     # the low bit of every nibble


def _nibble_mask(packed: int) -> int:
    """0xF in every nibble where ``packed`` holds a card."""
    return ((packed | packed >> 1 | packed >> 2 | packed >> 3) & _LOW_BITS) * 15


@functools.lru_cache(maxsize=1 << 12)
def _kitty_left(kitty: int, played: int) -> int:
    """The kitty less, rank by rank, the cards ``played`` (fixed ``seen_cards``)."""
    return sum(max(0, ((kitty >> (4 * r)) & 15) - ((played >> (4 * r)) & 15)) << (4 * r)
               for r in range(L.N_RANKS))


class _Tables:
    """What every env shares, built once: names, card blocks and RLCard's answer order."""

    def __init__(self):
        table = action_table(_RULES)
        self.table = table
        self.pass_id = table.pass_id
        self.size = table.pass_id + 1           # RLCard's actions: the plays and pass
        self.names = table.names[:self.size]    # (the table's bids follow; RLCard has none)
        self.names_array = np.array(self.names, dtype=object)
        self.name_to_id = {n: i for i, n in enumerate(self.names)}
        self.packed_int = [int(p) for p in table.id_records[:self.size, L.REC_CARDS]]
        self.cards = KR.card_rows(table.id_records[:self.size, L.REC_CARDS].copy())
        self.cards.setflags(write=False)        # (size, 54) int8: RLCard's _cards2array
        self.position = self._rlcard_positions()
        self.kernel_position = np.array(self.position)   # writable: see fastdou.stepper

    def _rlcard_positions(self) -> np.ndarray:
        """Each id's place in RLCard's enumeration of answers (``TYPE_CARD``'s order within a
        type, which is not id order for planes with solo wings). Only the order is read."""
        from rlcard.games.doudizhu.utils import TYPE_CARD
        pos = np.zeros(self.table.size, dtype=np.int64)
        k = 0
        for by_weight in TYPE_CARD.values():
            for weight in sorted(by_weight, key=int):
                for cards in by_weight[weight]:
                    pos[self.name_to_id[cards]] = k
                    k += 1
        pos.setflags(write=False)
        return pos


@functools.lru_cache(maxsize=1)
def tables() -> _Tables:
    return _Tables()


# ----------------------------------------------------------------------- lazy dicts
class _LazyDict(dict):
    """A dict made on first use, in two steps: a method that reads only keys first stores
    ``_keys(*args)`` (values ``None``), any other method first stores ``_make(*args)``'s
    items; from then on it is a plain dict. Python code (and dict(), ``**``, copy, pickle,
    json) sees the items; only C code reading the slots directly (``dict.values(d)``
    called unbound) could see what is stored before."""

    __slots__ = ("_args", "_keyed")

    def _filled(self):
        args = self._args
        if args is not None:
            self._args = None
            dict.update(self, self._make(*args))
        return self

    def _with_keys(self):
        if not self._keyed:
            self._keyed = True
            dict.update(self, dict.fromkeys(self._keys(*self._args)))
        return self


def _wrap(name, keys_only):
    method = getattr(dict, name)
    if keys_only:
        def wrapped(self, *args, **kwargs):
            return method(self._with_keys() if self._args is not None else self,
                          *args, **kwargs)
    else:
        def wrapped(self, *args, **kwargs):
            return method(self._filled() if self._args is not None else self,
                          *args, **kwargs)
    wrapped.__name__ = name
    wrapped.__doc__ = method.__doc__
    return wrapped


for _name in ("__contains__", "__iter__", "__len__", "__reversed__", "keys"):
    setattr(_LazyDict, _name, _wrap(_name, True))
for _name in ("__getitem__", "__eq__", "__ne__", "__repr__", "__setitem__", "__delitem__",
              "__or__", "__ior__", "values", "items", "get", "copy", "pop", "popitem",
              "setdefault", "update", "clear"):
    setattr(_LazyDict, _name, _wrap(_name, False))
_LazyDict.__hash__ = None
_LazyDict.__reduce_ex__ = lambda self, protocol: (dict, (dict(self._filled()),))


class _LegalActions(_LazyDict):
    """RLCard's ``legal_actions``: id -> the action's 54-entry card array (fresh arrays),
    made on first use (json.dumps of it before any use, which RLCard's arrays cannot pass
    anyway, would write ``{}``)."""

    __slots__ = ()

    def __init__(self, ids):
        self._args = (ids,)
        self._keyed = False

    @staticmethod
    def _keys(ids):
        return ids.tolist()

    @staticmethod
    def _make(ids):
        return zip(ids.tolist(), tables().cards[ids])

    def __iter__(self):           # iterating needs no dict: the ids in order
        return iter(self._args[0].tolist()) if self._args is not None else dict.__iter__(self)

    def __len__(self):
        return len(self._args[0]) if self._args is not None else dict.__len__(self)


_RAW_KEYS = dict.fromkeys(("seen_cards", "landlord", "trace", "played_cards", "self",
                           "current_hand", "others_hand", "num_cards_left", "actions"))


class _RawObs(_LazyDict):
    """RLCard's ``raw_obs`` of one seat at one moment, built when first read (its keys are
    stored at once, so json and C code see every key)."""

    __slots__ = ("fastdou_state",)

    def __init__(self, *snapshot):
        dict.update(self, _RAW_KEYS)
        self._args = snapshot
        self._keyed = True
        self.fastdou_state = snapshot[1]     # the engine state, for Agent (not a dict item)

    @staticmethod
    def _make(seat, st, trace, n_trace, seen_gone, fix, actions):
        hands = st[S.G_HANDS:S.G_HANDS + N_SEATS].tolist()
        kitty = int(st[S.G_KITTY])
        played = st[S.G_PLAYED:S.G_PLAYED + N_SEATS].tolist()
        seen = _kitty_left(kitty, played[0]) if fix else kitty & ~_nibble_mask(seen_gone)
        texts = [_text(h) for h in hands]
        return {"seen_cards": _text(seen), "landlord": 0, "trace": trace[:n_trace],
                "played_cards": [_text(p) for p in played], "self": seat,
                "current_hand": texts[seat], "others_hand": _text(sum(hands) - hands[seat]),
                "num_cards_left": [len(t) for t in texts], "actions": list(actions)}


# ----------------------------------------------------------------------- the game
LOG_ROWS = 256       # states logged for step_back (a classic hand has at most 162 actions)
IDS_ROOM = 4096      # the legal ids buffer: each state's after the last (20-card hands lead a
#                      few hundred moves); a fresh one when full, the states keep theirs
_OBS_SIZE = (KR.LANDLORD_SIZE, KR.FARMER_SIZE, KR.FARMER_SIZE)


class FastdouDoudizhuGame(Stepper):
    """The game behind :class:`DoudizhuEnv`: a fastdou classic state stepped by id
    (:class:`fastdou.stepper.Stepper`, its step ``KR.step_into``: the legal ids of the
    seat to act in RLCard's order and its ``obs``), with the methods RLCard's ``Env``
    calls (``init_game``, ``step``, ``step_back``, ``get_state``, ``is_over``, ...). Its
    "states" are seat numbers; the env reads the rest from here."""

    _KERNEL = staticmethod(KR.step_into)

    def __init__(self, allow_step_back=False, fix_quirks=False):
        Stepper.__init__(self, _RULES, np.empty(S.STATE_SIZE, np.int64))
        self.allow_step_back = allow_step_back
        self.fix_quirks = bool(fix_quirks)
        self.np_random = np.random.RandomState()
        self.num_players = N_SEATS
        self.t = t = tables()
        self._log = np.empty((LOG_ROWS, S.STATE_SIZE), np.int64)
        self._buffers()
        self._new_ids(IDS_ROOM)
        self._position = t.kernel_position
        self._fix = int(self.fix_quirks)
        self._extra = (self._position, np.empty(KR.FARMER_SIZE, np.int8), self._fix)
        self.st = self._state    # (the same array for the game's life)
        self.over = False
        self.obs = None          # the seat to act's obs, when the last step made it

    def _list_ids(self, records, out):
        """The legal ids in RLCard's order (``KR.legal``)."""
        ra, keys, key_ids, id_records, selection = self._kernel
        return KR.legal(self._state, ra, keys, key_ids, id_records, selection,
                        self._position, records, out)

    @property
    def ids(self) -> np.ndarray:
        """The buffer the legal ids are written to."""
        return self._ids[0]

    # RLCard's Game interface --------------------------------------------------------
    @staticmethod
    def get_num_players():
        return N_SEATS

    @staticmethod
    def get_num_actions():
        return tables().size

    def init_game(self):
        """Deal as RLCard does from ``np_random`` and start play, the landlord at seat 0."""
        self.deck = deck = rlcard_deal(self.np_random)
        KR.deal_start(self._state, _RULES_ARRAY, deck)
        self._actions = []
        self._n_ids = -1                 # the ids of the last deal stay where they are
        self.trace: list = []            # (seat, action text): RLCard's trace
        self.seen_gone = 0               # ranks the landlord ever played (RLCard's seen_cards)
        self._suits = None               # suited hands, built when asked for
        self._ops: list = []             # until then, the (seat, id) plays and None undos
        self._undo: list = []
        self.winner_id = None
        self.over = False
        self.current = 0
        self._legal_now()
        self.obs = None
        return 0, 0

    def init_from_state(self, state: np.ndarray):
        """Start as :meth:`init_game` does, from a classic play-phase engine ``state`` (the
        landlord at seat 0) instead of RLCard's deal; no suited hands are kept."""
        self.init_game()
        self._state[:] = state
        self._n_ids = -1
        self._legal_now()
        self.deck = None
        return 0, 0

    def get_player_id(self):
        """The seat to act; once the hand is over, the seat after the winner (RLCard's)."""
        return self.current

    def is_over(self):
        return self.over

    def get_state(self, player_id):
        return player_id

    def step(self, action):
        """Apply an action given as RLCard's text (``"33344"``, ``"pass"``) or an id."""
        if isinstance(action, str):
            aid = self.t.name_to_id.get(action, -1)
        elif isinstance(action, (int, np.integer)) and 0 <= action < self.t.size:
            aid = int(action)
        else:
            aid = -1
        self.play_id(aid, action)
        return self.current, self.current

    def play_id(self, aid: int, action=None):
        """Apply id ``aid`` (an int; -1 for none) if it is legal now (else
        ``IllegalMoveError``, and nothing changes); the next seat's obs is kept in
        ``self.obs``."""
        seat = self.current
        obs = np.empty(_OBS_SIZE[seat + 1 if seat < 2 else 0], np.int8)
        self._extra = (self._position, obs, self._fix)
        if self._n_ids < 0:
            self._write_ids()
        n = self._stepped(aid, self._n_ids)     # checked in the compiled step
        if n < 0:
            if self.over:
                raise GameStateError("the hand is over; call reset()")
            raise IllegalMoveError(f"{action if action is not None else aid!r} is not a "
                                   f"legal action of seat {seat} now")
        self.legal = self._legal_ids()
        self.obs = obs
        self.trace.append((seat, self.t.names[aid]))
        if seat == 0:
            self.seen_gone |= self.t.packed_int[aid]
        if self._suits is None:
            self._ops.append((seat, aid))
        else:
            self._suits_play(seat, aid)
        if n == 0:
            self.winner_id = seat
            self.over = True
        self.current = seat + 1 if seat < 2 else 0

    def step_back(self):
        """Undo the last action; False (and nothing done) at the start of the hand."""
        if not self._actions:
            return False
        self._unstep()
        self.trace = self.trace[:-1]     # a new list: states handed out keep their trace
        self.current = int(self._state[S.G_PLAYER])
        if self._suits is None:
            self._ops.append(None)
        else:
            self._suits_back()
        self.winner_id = None
        self.over = False
        self._legal_now()
        self.obs = None
        return True

    def _legal_now(self):
        """List the seat to act's legal ids (after the last ones: see fastdou.stepper)."""
        self.legal = self._legal_ids()   # the seat to act's ids (never written again)

    # what the env reads ------------------------------------------------------------
    def legal_ids(self, seat: int) -> np.ndarray:
        """Seat ``seat``'s actions in RLCard's order (see the module docstring); for a seat
        not to act, the actions it would have against the last play, as RLCard lists them
        (none once the hand is over)."""
        if seat == self.current:
            return self.legal
        if self.is_over():
            return np.empty(0, np.int64)
        hand = np.uint64(self.st[S.G_HANDS + seat])
        target = self._target(seat)
        rules = _RULES_ARRAY
        if target < 0:
            out = K.new_moves(K.count_leading(hand, rules))
            K.leading_moves(hand, rules, out)
            ids = self.t.table.ids(out)
            info = 0
        else:
            record = self.t.table.id_records[target]
            out = K.new_moves(K.count_responses(hand, record, rules))
            K.responses(hand, record, rules, out)
            ids = np.concatenate(([self.t.pass_id], self.t.table.ids(out)))
            info = int(record[L.REC_INFO])
        KR.order_ids(info, self.t.table.id_records, self.t.position, ids, len(ids))
        return ids

    def _target(self, seat: int) -> int:
        """The play id ``seat`` would answer: the last play, unless ``seat`` made it (-1)."""
        for s, name in reversed(self.trace):
            if name != "pass":
                return -1 if s == seat else self.t.name_to_id[name]
        return -1

    # suited hands (get_perfect_information) ---------------------------------------
    def _suits_build(self):
        """RLCard's suited hands: per seat and rank the suits in hand order. RLCard plays the
        first card of a rank in hand order and puts cards back after the others of their
        rank on ``step_back``; replaying every play and undo since the deal reproduces that."""
        hands = [[[] for _ in range(L.N_RANKS)] for _ in range(N_SEATS)]
        deck = self.deck.tolist()
        for s in range(N_SEATS):
            cards = deck[s * HAND:(s + 1) * HAND] + (deck[N_SEATS * HAND:] if s == 0 else [])
            for c in sorted(cards, key=_card_rank):      # stable, as RLCard's sort
                hands[s][_card_rank(c)].append(c)
        self._suits, self._undo = hands, []
        for op in self._ops:
            if op is None:
                self._suits_back()
            else:
                self._suits_play(*op)
        self._ops = []

    def _suits_play(self, seat, aid):
        packed = self.t.packed_int[aid]
        removed = []
        for r in range(L.N_RANKS):
            k = (packed >> (4 * r)) & 15
            if k:
                lst = self._suits[seat][r]
                removed.append((r, lst[:k]))
                del lst[:k]
        self._undo.append((seat, removed))

    def _suits_back(self):
        seat, removed = self._undo.pop()
        for r, cards in removed:
            self._suits[seat][r].extend(cards)

    def suited_hand(self, seat) -> str:
        if self._suits is None:
            self._suits_build()
        return " ".join(_card_name(c) for lst in self._suits[seat] for c in lst)


# ----------------------------------------------------------------------- the env
class DoudizhuEnv(Env):
    """RLCard's Dou Dizhu environment on fastdou (see the module docstring).

    ``config`` is RLCard's: ``seed`` (``None``: random) and ``allow_step_back``, plus
    ``fastdou_fix_quirks`` (default ``False``: RLCard's exact encoding)."""

    def __init__(self, config=None):
        config = {**DEFAULT_CONFIG, **(config or {})}
        self.name = "doudizhu"
        self.fix_quirks = bool(config.get("fastdou_fix_quirks", False))
        self.game = FastdouDoudizhuGame(config["allow_step_back"], self.fix_quirks)
        self._t = self.game.t
        super().__init__(config)
        self.state_shape = [[KR.LANDLORD_SIZE], [KR.FARMER_SIZE], [KR.FARMER_SIZE]]
        self.action_shape = [[KR.BLOCK] for _ in range(self.num_players)]

    def step(self, action, raw_action=False):
        """RLCard's ``step``: an id (or with ``raw_action`` RLCard's action text); an action
        that is not legal now raises ``IllegalMoveError`` and changes nothing."""
        g = self.game
        if raw_action:
            aid = self._t.name_to_id.get(action, -1) if isinstance(action, str) else -1
        elif type(action) is int and 0 <= action < self._t.size:
            aid = action
        else:
            aid = self._id(action)
        seat = g.current
        g.play_id(aid, action)
        self.timestep += 1
        self.action_recorder.append((seat, action if raw_action else self._t.names[aid]))
        return self._extract_state(g.current), g.current

    def is_over(self):
        return self.game.over

    def _extract_state(self, seat):
        g = self.game
        t = self._t
        legal = g.legal
        if seat == g.current:
            ids = legal
            obs = g.obs if g.obs is not None else KR.encode(g.st, seat, self.fix_quirks)
        else:
            ids = g.legal_ids(seat)
            obs = KR.encode(g.st, seat, self.fix_quirks)
        raw_actions = t.names_array[ids].tolist()
        out = OrderedDict()
        out["obs"] = obs
        out["legal_actions"] = _LegalActions(legal)
        out["raw_obs"] = _RawObs(seat, g.st.copy(), g.trace, len(g.trace), g.seen_gone,
                                 self.fix_quirks, raw_actions)
        out["raw_legal_actions"] = raw_actions
        out["action_record"] = self.action_recorder
        return out

    def _id(self, action_id) -> int:
        if type(action_id) is not int and not isinstance(action_id, np.integer) or \
                not 0 <= action_id < self._t.size:
            raise IllegalMoveError(f"action id {action_id!r} is not in 0..{self._t.size - 1}")
        return int(action_id)

    def _decode_action(self, action_id):
        return self._t.names[self._id(action_id)]

    def _get_legal_actions(self):
        """The legal actions of the seat to act (``get_state`` of another seat gives these
        too, as in RLCard, whose ``raw_obs["actions"]`` are then that seat's)."""
        return _LegalActions(self.game.legal)

    def get_payoffs(self):
        """RLCard's payoffs: 1 to each seat of the winning side, 0 to the others. Before the
        hand ends RLCard answers as if the farmers had won ([0, 1, 1]); with
        ``fastdou_fix_quirks``: [0, 0, 0]."""
        if not self.game.is_over():
            return np.array([0, 0, 0]) if self.fix_quirks else np.array([0, 1, 1])
        landlord_won = int(self.game.st[S.G_WINNER]) == S.SIDE_LANDLORD
        return np.array([1, 0, 0]) if landlord_won else np.array([0, 1, 1])

    def get_perfect_information(self):
        g = self.game
        return {"hand_cards_with_suit": [g.suited_hand(s) for s in range(N_SEATS)],
                "hand_cards": [_text(int(g.st[S.G_HANDS + s])) for s in range(N_SEATS)],
                "trace": list(g.trace), "current_player": g.current,
                "legal_actions": self._t.names_array[g.legal].tolist()}

    def get_action_feature(self, action):
        return self._t.cards[self._id(action)].copy()


if ENV_ID not in registry.env_specs:
    register(env_id=ENV_ID, entry_point="fastdou.adapters.rlcard:DoudizhuEnv")


# ----------------------------------------------------------------------- agents
class Agent:
    """RLCard's agent protocol for a fastdou policy (a :class:`fastdou.Policy`, or what
    :func:`fastdou.policy` takes) in this module's env: ``use_raw`` False; ``step(state)``
    and ``eval_step(state) -> (id, {})`` give the id of the action the policy picks on the
    engine state behind ``state`` (``state["raw_obs"].fastdou_state``)."""

    use_raw = False

    def __init__(self, policy):
        from fastdou.players import bind
        self.policy = bind(policy, _RULES)

    def step(self, state):
        return self.eval_step(state)[0]

    def eval_step(self, state):
        raw = state.get("raw_obs") if isinstance(state, dict) else None
        st = getattr(raw, "fastdou_state", None)
        if st is None:
            raise ArgumentError("an Agent plays the states of fastdou's RLCard env "
                                "(fastdou.adapters.rlcard.DoudizhuEnv)")
        records, i = self.policy.pick_state(st, _RULES_ARRAY)
        return int(tables().table.ids(records[i:i + 1])[0]), {}
