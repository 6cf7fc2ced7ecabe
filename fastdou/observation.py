"""What one seat may know of a game: :class:`Observation` (``Game.observation(seat)``).

Everything here is public information or the seat's own: its hand, the kitty where the
preset shows it, what every seat has played, the cards each holds, the trick so far, the
public history, bids, doubles, multiplier, the landlord and (five_player) the dark landlord
once it is known. ``Game.encode(seat)`` is the same view as numbers, computed in compiled
code (``fastdou.kernels.encoding``).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from fastdou import cards as _cards
from fastdou.kernels import encoding as KE
from fastdou.kernels import state as S
from fastdou.moves import Move
from fastdou.rules import rules_array


@dataclasses.dataclass(frozen=True)
class Observation:
    """Seat ``seat``'s view of a game (seats are absolute; counts over the 15 ranks)."""

    seat: int
    phase: str                  # "bid", "reveal", "double", "play" or "done"
    to_act: int                 # the seat to act (-1 when the hand is over)
    hand: np.ndarray            # the seat's own cards
    kitty: np.ndarray | None    # the kitty where the seat may see it, else None
    played: tuple               # per seat: the cards it has played
    cards_left: tuple           # per seat: how many cards it holds
    last_move: Move             # the move to beat (Move.PASS when leading)
    last_player: int            # who made it (-1: nobody)
    trick: tuple                # (seat, Move) of the current trick so far, passes included
    history: tuple              # (seat, phase, action) of every action so far
    bid: int                    # the current base score
    doubled: tuple              # per seat: whether it doubled
    multiplier: int
    landlord: int               # -1 before it is known
    partner: int                # five_player's dark landlord once the seat may know it, else -1
    trump: int                  # jinling's trump suit (0..3), else -1
    wild: str | None = None     # the wild rank(s) once play has drawn them (Game.wild)


def observe(game, seat: int) -> Observation:
    st = game._state
    rules = game.rules
    n = rules.players
    history = game.history
    played = [np.zeros(15, np.uint8) for _ in range(n)]
    for s, phase, action in history:
        if phase == "play":
            played[s] += action.cards
    trick = []
    if st[S.G_PHASE] == S.PH_PLAY and st[S.G_LAST_INFO] != 0:
        for before, (s, _, action) in zip(game._log[len(history) - 1::-1], reversed(history)):
            trick.append((s, action))
            if before[S.G_LAST_INFO] == 0:           # this play led the trick
                break
        trick.reverse()
    return Observation(
        seat=seat, phase=game.phase,
        to_act=-1 if game.is_terminal() else int(st[S.G_PLAYER]),
        hand=_cards.unpack(int(st[S.G_HANDS + seat])),
        kitty=(_cards.unpack(int(st[S.G_KITTY]))
               if KE.sees_kitty(st, rules_array(rules, wild=True), seat) else None),
        played=tuple(played),
        cards_left=tuple(int(_cards.unpack(int(st[S.G_HANDS + s])).sum()) for s in range(n)),
        last_move=game.last_move,
        last_player=int(st[S.G_LAST_PLAYER]) if st[S.G_LAST_INFO] != 0 else -1,
        trick=tuple(trick), history=history, bid=int(st[S.G_BID]),
        doubled=tuple(bool((st[S.G_DOUBLED] >> s) & 1) for s in range(n)),
        multiplier=int(st[S.G_MULT]), landlord=int(st[S.G_LANDLORD]),
        partner=int(st[S.G_PARTNER]) if KE.knows_partner(st, seat) else -1,
        trump=int(st[S.G_TRUMP]), wild=game.wild)

