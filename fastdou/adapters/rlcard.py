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
which equal RLCard's ``ACTION_2_ID``. ``obs`` comes from one compiled call
(:mod:`fastdou.kernels.rlcard_encoding`) and equals RLCard's ``_extract_state`` byte for
byte, quirks included (see that module). ``config["fastdou_fix_quirks"] = True`` takes the
corrected readings instead: the farmers' "last landlord / teammate action" is their most
recent action, 0 cards left is an all-zero one-hot, and ``raw_obs["seen_cards"]`` is the
kitty less, rank by rank, the cards the landlord has played (RLCard drops every copy of a
rank once the landlord plays one, and ``step_back`` never restores them).

Orders: RLCard lists the actions of a player who answers a play in its own order (pass
first, the same type by weight, then the rocket and the bombs); this env lists them in
that same order, so rule agents that take the first best action choose the same one. A
player who leads gets RLCard's actions from a Python ``set`` (its order varies with
``PYTHONHASHSEED``); here they are in ascending id order.

RLCard behaviours kept on purpose: ``step_back`` leaves ``action_record`` and
``timestep`` as they are; ``get_state(p)`` for a seat that is not to act lists the
actions ``p`` would have against the last play (``[]`` once the hand is over).
"""

from __future__ import annotations

import functools
from collections import OrderedDict

import numpy as np
from rlcard.envs import Env
from rlcard.envs.registration import DEFAULT_CONFIG, register, registry
from rlcard.utils import seeding

from fastdou import kernels as K
from fastdou.actions import action_table
from fastdou.cards import TOKENS
from fastdou.errors import GameStateError, IllegalMoveError
from fastdou.game import Game
from fastdou.kernels import layout as L
from fastdou.kernels import rlcard_encoding as KR
from fastdou.kernels import state as S
from fastdou.rules import rules as _rules

__all__ = ["DoudizhuEnv", "ENV_ID", "rlcard_deal"]

ENV_ID = "fastdou-doudizhu"
N_SEATS = 3
HAND = 17
SUITS = "SHDC"                       # RLCard's deck order of suits within a rank
RLCARD_RANKS = "3456789TJQKA2"       # RLCard's Card.rank of the 13 ranks
_RULES = _rules("classic", profile="standard")


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


def rlcard_deal(np_random) -> list:
    """RLCard's deal from ``np_random`` (it draws exactly what RLCard's dealer draws): a
    shuffled list of the 54 cards of RLCard's sorted deck, as indices (see
    ``_card_rank``). Seats 0, 1, 2 get ``deck[0:17]``, ``[17:34]``, ``[34:51]``; the kitty
    is ``deck[51:]``."""
    deck = list(range(54))
    np_random.shuffle(deck)
    return deck


def deal_counts(deck) -> tuple:
    """The three 17-card hands and the kitty of a shuffled deck, as 15 counts each."""
    ranks = _CARD_RANKS[np.asarray(deck)]
    parts = [ranks[s * HAND:(s + 1) * HAND] for s in range(N_SEATS)] + [ranks[3 * HAND:]]
    return tuple(np.bincount(p, minlength=L.N_RANKS).astype(np.uint8) for p in parts)


# ----------------------------------------------------------------------- tables
@functools.lru_cache(maxsize=1 << 16)
def _text(packed: int) -> str:
    """RLCard's text of packed cards: the tokens sorted low to high (``""`` for none)."""
    return "".join(TOKENS[r] * ((packed >> (4 * r)) & 15) for r in range(L.N_RANKS))


def _nibble_mask(packed: int) -> int:
    """0xF in every nibble where ``packed`` holds a card."""
    m = 0
    for r in range(L.N_RANKS):
        if (packed >> (4 * r)) & 15:
            m |= 15 << (4 * r)
    return m


class _Tables:
    """What every env shares, built once: names, card blocks and RLCard's answer order."""

    def __init__(self):
        table = action_table(_RULES)
        self.table = table
        self.pass_id = table.pass_id
        self.size = table.pass_id + 1           # RLCard's actions: the plays and pass
        self.names = table.names[:self.size]    # (the table's bids follow; RLCard has none)
        self.name_to_id = {n: i for i, n in enumerate(self.names)}
        self.packed = table.id_records[:self.size, L.REC_CARDS].astype(np.uint64)
        self.packed_int = [int(p) for p in self.packed]
        self.cards = KR.card_rows(self.packed)             # (size, 54) int8
        info = table.id_records[:self.size, L.REC_INFO].astype(np.int64)
        kind = info & L.INFO_FIELD_MASK
        length = (info >> L.INFO_LENGTH_SHIFT) & L.INFO_FIELD_MASK
        self.kind = kind
        self.group = kind * 64 + length                    # RLCard's type: kind and length
        self.is_bomb = kind == L.BOMB
        self.position = self._rlcard_positions()

    def _rlcard_positions(self) -> np.ndarray:
        """Each id's place in RLCard's enumeration of answers (``TYPE_CARD``'s order within a
        type, which is not id order for planes with solo wings). Only the order is read."""
        from rlcard.games.doudizhu.utils import TYPE_CARD
        pos = np.full(self.size, -1, dtype=np.int64)
        k = 0
        for by_weight in TYPE_CARD.values():
            for weight in sorted(by_weight, key=int):
                for cards in by_weight[weight]:
                    pos[self.name_to_id[cards]] = k
                    k += 1
        return pos

    def answer_order(self, ids: np.ndarray, target: int) -> np.ndarray:
        """``ids`` (pass first, then answers to play id ``target``) in RLCard's order: pass,
        the target's type by RLCard's enumeration, then the rocket, then the bombs (a bomb
        target: the higher bombs, then the rocket)."""
        plays = ids[ids != self.pass_id]
        other = self.group[plays] != self.group[target]
        key = self.position[plays] + (other * (1 + self.is_bomb[plays])) * (1 << 32)
        out = np.empty(len(plays) + 1, dtype=np.int64)
        out[0] = self.pass_id
        out[1:] = plays[np.argsort(key, kind="stable")]
        return out


@functools.lru_cache(maxsize=1)
def tables() -> _Tables:
    return _Tables()


# ----------------------------------------------------------------------- the game
class FastdouDoudizhuGame:
    """The game object behind :class:`DoudizhuEnv`, with the methods RLCard's ``Env`` calls
    (``init_game``, ``step``, ``step_back``, ``get_state``, ``is_over``, ...). Its states are
    seat numbers; the env reads everything else from here."""

    def __init__(self, allow_step_back=False, fix_quirks=False):
        self.allow_step_back = allow_step_back
        self.fix_quirks = bool(fix_quirks)
        self.np_random = np.random.RandomState()
        self.num_players = N_SEATS
        self.t = tables()
        self.game = None

    # RLCard's Game interface --------------------------------------------------------
    @staticmethod
    def get_num_players():
        return N_SEATS

    @staticmethod
    def get_num_actions():
        return tables().size

    def init_game(self):
        deck = rlcard_deal(self.np_random)
        h0, h1, h2, kitty = deal_counts(deck)
        self.deck = deck
        self.game = Game.from_hands([h0, h1, h2], _RULES, kitty=kitty, start="play",
                                    landlord=0)
        self.trace: list = []            # (seat, action text), RLCard's trace
        self.trace_ids: list = []
        self.seen_gone = 0               # ranks the landlord ever played (RLCard's seen_cards)
        self._suits = None               # suited hands, built when asked for
        self._ops: list = []             # until then, the (seat, id) plays and None undos
        self._undo: list = []
        self._legal = None               # the player to act's ids, once asked for
        self.winner_id = None
        self.state = self.current = 0
        return self.get_state(0), 0

    def get_player_id(self):
        """The seat to act; once the hand is over, the seat after the winner (RLCard's)."""
        return self.current

    def is_over(self):
        return self.game is not None and self.game.is_terminal()

    def step(self, action):
        """Apply an action given as RLCard's text (``"33344"``, ``"pass"``) or an id."""
        if self.is_over():
            raise GameStateError("the hand is over; call reset()")
        aid = self.t.name_to_id.get(action, -1) if isinstance(action, str) else action
        seat = self.check_legal(aid, action)
        self.game.push_id(aid)
        self._legal = None
        self.trace.append((seat, self.t.names[aid]))
        self.trace_ids.append(aid)
        if seat == 0:
            self.seen_gone |= self.t.packed_int[aid]
        if self._suits is None:
            self._ops.append((seat, aid))
        else:
            self._suits_play(seat, aid)
        if self.game.is_terminal():
            self.winner_id = seat
        nxt = self.current = (seat + 1) % N_SEATS
        self.state = nxt
        return nxt, nxt

    def check_legal(self, aid, action) -> int:
        """The seat to act, after checking that id ``aid`` is legal for it now."""
        if self.is_over():
            raise GameStateError("the hand is over; call reset()")
        seat = self.get_player_id()
        legal = self.legal_ids(seat)
        if not (legal == aid).any():
            raise IllegalMoveError(f"{action!r} is not a legal action of seat {seat} now "
                                   f"({len(legal)} legal)")
        return seat

    def step_back(self):
        if not self.trace:
            return False
        self.game.pop()
        self._legal = None
        self.current, _ = self.trace.pop()
        self.trace_ids.pop()
        if self._suits is None:
            self._ops.append(None)
        else:
            self._suits_back()
        self.winner_id = None
        self.state = self.get_player_id()
        return True

    def get_state(self, player_id):
        return player_id

    # what the env reads ------------------------------------------------------------
    def legal_ids(self, seat: int) -> np.ndarray:
        """Seat ``seat``'s actions in RLCard's order (see the module docstring); for a seat
        not to act, the actions it would have against the last play, as RLCard lists them."""
        current = seat == self.get_player_id()
        if current and self._legal is not None:
            return self._legal
        if self.is_over():
            ids = np.empty(0, dtype=np.int64)
        elif current:
            ids = self.game.legal_action_ids()
        else:
            ids = self._off_turn_ids(seat)
        target = self._target(seat)
        ids = np.sort(ids) if target < 0 else self.t.answer_order(ids, target)
        if current:
            self._legal = ids
        return ids

    def _target(self, seat: int) -> int:
        """The play id ``seat`` answers (-1: it leads)."""
        if self.is_over():
            return -1
        for k in range(len(self.trace_ids) - 1, -1, -1):
            aid = self.trace_ids[k]
            if aid != self.t.pass_id:
                return -1 if self.trace[k][0] == seat else aid
        return -1

    def _off_turn_ids(self, seat: int) -> np.ndarray:
        hand = np.uint64(self.game._state[S.G_HANDS + seat])
        target = self._target(seat)
        rules = _RULES.array
        if target < 0:
            out = K.new_moves(K.count_leading(hand, rules))
            K.leading_moves(hand, rules, out)
            return self.t.table.ids(out)
        record = self.t.table.id_records[target].astype(np.uint64)
        out = K.new_moves(K.count_responses(hand, record, rules))
        K.responses(hand, record, rules, out)
        return np.concatenate(([self.t.pass_id], self.t.table.ids(out)))

    # suited hands (get_perfect_information) ---------------------------------------
    def _suits_build(self):
        """RLCard's suited hands: per seat and rank the suits in hand order. RLCard plays the
        first card of a rank in hand order and puts cards back after the others of their
        rank on ``step_back``; replaying every play and undo since the deal reproduces that."""
        hands = [[[] for _ in range(L.N_RANKS)] for _ in range(N_SEATS)]
        deck = self.deck
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

    def _extract_state(self, seat):
        g = self.game
        st = g.game._state
        ids = g.legal_ids(seat)
        names = self._t.names
        raw_actions = [names[i] for i in ids.tolist()]
        out = OrderedDict(obs=KR.encode(st, seat, self.fix_quirks),
                          legal_actions=self._get_legal_actions())
        out["raw_obs"] = self._raw_obs(seat, st, raw_actions)
        out["raw_legal_actions"] = list(raw_actions)
        out["action_record"] = self.action_recorder
        return out

    def _raw_obs(self, seat, st, actions) -> dict:
        g = self.game
        hands = [int(st[S.G_HANDS + s]) for s in range(N_SEATS)]
        kitty = int(st[S.G_KITTY])
        if self.fix_quirks:
            landlord = int(st[S.G_PLAYED])
            seen = sum(max(0, ((kitty >> (4 * r)) & 15) - ((landlord >> (4 * r)) & 15))
                       << (4 * r) for r in range(L.N_RANKS))
        else:
            seen = kitty & ~_nibble_mask(g.seen_gone)
        return {"seen_cards": _text(seen), "landlord": 0, "trace": list(g.trace),
                "played_cards": [_text(int(st[S.G_PLAYED + s])) for s in range(N_SEATS)],
                "self": seat, "current_hand": _text(hands[seat]),
                "others_hand": _text(sum(hands) - hands[seat]),
                "num_cards_left": [_n_cards(h) for h in hands], "actions": actions}

    def step(self, action, raw_action=False):
        """RLCard's ``step``; an action that is not legal now raises ``IllegalMoveError``
        before anything is recorded."""
        if raw_action:
            aid = self._t.name_to_id.get(action, -1) if isinstance(action, str) else -1
            self.game.check_legal(aid, action)
        return super().step(action, raw_action)

    def _decode_action(self, action_id):
        if not isinstance(action_id, (int, np.integer)) or \
                not 0 <= action_id < self._t.size:
            raise IllegalMoveError(f"action id {action_id!r} is not in 0..{self._t.size - 1}")
        return self._t.names[int(action_id)]

    def _get_legal_actions(self):
        """The legal actions of the seat to act (also in ``get_state`` of another seat, as
        in RLCard, whose ``raw_obs["actions"]`` are then that seat's)."""
        ids = self.game.legal_ids(self.game.get_player_id())
        return OrderedDict(zip(ids.tolist(), self._t.cards[ids]))

    def get_payoffs(self):
        """RLCard's payoffs: 1 to each seat of the winning side, 0 to the others. Before the
        hand ends RLCard answers as if the farmers had won ([0, 1, 1]); with
        ``fastdou_fix_quirks``: [0, 0, 0]."""
        if not self.game.is_over():
            return np.array([0, 0, 0]) if self.fix_quirks else np.array([0, 1, 1])
        landlord_won = int(self.game.game._state[S.G_WINNER]) == S.SIDE_LANDLORD
        return np.array([1, 0, 0]) if landlord_won else np.array([0, 1, 1])

    def get_perfect_information(self):
        g = self.game
        st = g.game._state
        seat = g.get_player_id()
        return {"hand_cards_with_suit": [g.suited_hand(s) for s in range(N_SEATS)],
                "hand_cards": [_text(int(st[S.G_HANDS + s])) for s in range(N_SEATS)],
                "trace": list(g.trace), "current_player": seat,
                "legal_actions": [self._t.names[i] for i in g.legal_ids(seat).tolist()]}

    def get_action_feature(self, action):
        self._decode_action(action)
        return self._t.cards[int(action)].copy()


def _n_cards(packed: int) -> int:
    return sum((packed >> (4 * r)) & 15 for r in range(L.N_RANKS))


if ENV_ID not in registry.env_specs:
    register(env_id=ENV_ID, entry_point="fastdou.adapters.rlcard:DoudizhuEnv")
