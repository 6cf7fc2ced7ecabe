"""DouZero's card lists and ``InfoSet`` on fastdou: the view of one decision of a hand that
:mod:`fastdou.adapters.douzero` plays (its ``_Hand`` keeps the history, an infoset reads it
when a field is first read)."""

from __future__ import annotations

from fastdou import cards as _cards

POSITIONS = ("landlord", "landlord_down", "landlord_up")     # by seat
SEATS = {p: s for s, p in enumerate(POSITIONS)}
_DICT_ORDER = ("landlord", "landlord_up", "landlord_down")   # DouZero's dict order


class _Lists(dict):
    """Packed cards -> DouZero's sorted tuple, filled as cards are met."""

    def __missing__(self, packed):
        t = self[packed] = tuple(_cards.to_douzero(_cards.unpack(packed)))
        return t


_LISTS = _Lists()
_LIST_OF = _LISTS.__getitem__


def card_list(packed: int) -> list:
    """DouZero's sorted card list of packed cards (``[]`` for a pass)."""
    return list(_LISTS[packed])


FIELDS = ("player_position", "player_hand_cards", "num_cards_left_dict",
          "three_landlord_cards", "card_play_action_seq", "other_hand_cards", "legal_actions",
          "last_move", "last_two_moves", "last_move_dict", "played_cards", "all_handcards",
          "last_pid", "bomb_num")                     # DouZero's InfoSet attributes


class _History:
    """What one hand keeps as it goes (append only, so an infoset holds it and a length):
    each action's cards, each seat's played cards in play order."""

    __slots__ = ("acts", "played", "kitty", "sizes")

    def __init__(self, kitty, sizes):
        self.acts = []                   # each action's DouZero card tuple (sorted)
        self.played = ([], [], [])       # by seat
        self.kitty = kitty               # DouZero's three_landlord_cards as dealt
        self.sizes = sizes               # each seat's number of cards as dealt


class InfoSet:
    """DouZero's ``InfoSet`` (the acting position's view, perfect information included):
    the attributes DouZero's ``get_obs`` and agents read. Each is made when first read, from
    what the hand kept up to this decision, as fresh lists (an agent may change them, as
    it may change DouZero's deep-copied infoset)."""

    # _state: the hand's engine state, this decision's while len(_h.acts) == _t (agents)
    __slots__ = FIELDS + ("_h", "_t", "_hands", "_legal", "_state")

    def __getattr__(self, name):
        build = _BUILD.get(name)
        if build is None:
            raise AttributeError(f"'InfoSet' object has no attribute {name!r}")
        value = build(self)
        object.__setattr__(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"<InfoSet {self.player_position}, {self._t} actions>"


def _own(info) -> list:
    return list(_LISTS[info._hands[info._t % 3]])


def _left(info) -> dict:
    h = info._hands
    return {p: len(_LISTS[h[SEATS[p]]]) for p in _DICT_ORDER}


def _three(info) -> list:
    """DouZero's kitty less the cards the landlord has played, one for one."""
    three = list(info._h.kitty)
    for v in _played(info, 0):
        if not three:
            break
        if v in three:
            three.remove(v)
    return three


def _seq(info) -> list:
    return list(map(list, info._h.acts[:info._t]))


def _others(info) -> list:
    seat, h = info._t % 3, info._hands
    return [v for p in _DICT_ORDER if SEATS[p] != seat for v in _LISTS[h[SEATS[p]]]]


def _legal(info) -> list:
    return list(map(list, map(_LIST_OF, info._legal)))


def _act(info, k: int) -> list:
    """Action ``k`` from the last (1: the last) as a list; ``[]`` before the first."""
    t = info._t
    return list(info._h.acts[t - k]) if t >= k else []


def _last_move(info) -> list:
    acts, t = info._h.acts, info._t
    if not t:
        return []
    return list(acts[t - 1] if acts[t - 1] or t < 2 else acts[t - 2])


def _last_two(info) -> list:
    return [_act(info, 1), _act(info, 2)]


def _last_of(info, seat: int) -> list:
    """``seat``'s last action (``[]`` before its first)."""
    k = info._t - 1 - (info._t - 1 - seat) % 3
    return list(info._h.acts[k]) if k >= 0 else []


def _last_dict(info) -> dict:
    return {p: _last_of(info, SEATS[p]) for p in _DICT_ORDER}


def _played(info, seat: int) -> list:
    h = info._h
    return h.played[seat][:h.sizes[seat] - len(_LISTS[info._hands[seat]])]


def _played_dict(info) -> dict:
    return {p: _played(info, SEATS[p]) for p in _DICT_ORDER}


def _all_hands(info) -> dict:
    h = info._hands
    return {p: list(_LISTS[h[SEATS[p]]]) for p in _DICT_ORDER}


_BUILD = {"player_hand_cards": _own, "num_cards_left_dict": _left,
          "three_landlord_cards": _three, "card_play_action_seq": _seq,
          "other_hand_cards": _others, "legal_actions": _legal, "last_move": _last_move,
          "last_two_moves": _last_two, "last_move_dict": _last_dict,
          "played_cards": _played_dict, "all_handcards": _all_hands}
