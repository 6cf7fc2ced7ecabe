"""Conversions between the engine's game state (:mod:`fastdou.kernels.state`) and the
search kernels' position array (:mod:`fastdou.kernels.search`), callable from ``@njit`` code.

* :func:`state_of_position` ``(state, rules, pos, landlord)``: set ``state`` to a hand in its
  play phase at position ``pos``: the position's seats, hands, seat to act and play to beat;
  ``landlord`` leads the landlord side ``pos[S_TEAM]`` (any other seat of it is the
  partner); base score 1, multiplier 1, no plays made yet; the position's wild ranks;
  ``rules`` copied into it;
* :func:`position_of_state` ``(state, rules, out) -> status``: write the position of a
  play-phase ``state`` into ``out`` (``int64[SEARCH_SIZE]``), hash included; the status is
  ``POSITION_OK``, or ``NOT_IN_PLAY`` / ``HANDICAPPED`` (a two_player hand with a grab
  handicap ends before a hand is empty, which a position cannot say) with ``out`` untouched.

Both trust their input, as kernels do: ``pos`` a valid position of ``rules``' seats
(``fastdou.Position(...).array()``), ``landlord`` a seat of ``pos[S_TEAM]``.
"""

from fastdou.kernels.engine import begin_play, put_rules, reset
from fastdou.kernels.jit import kernel
from fastdou.kernels.layout import R_HANDICAP, R_PLAYERS
from fastdou.kernels.search import (
    S_HANDS, S_HASH, S_LAST_CARDS, S_LAST_INFO, S_LAST_PLAYER, S_SEATS, S_TEAM, S_TO_MOVE,
    S_WILDS, S_WINNER, position_hash,
)
from fastdou.kernels.state import (
    G_BID, G_FIRST, G_GRABS, G_HANDS, G_LANDLORD, G_LAST_CARDS, G_LAST_INFO, G_LAST_PLAYER,
    G_PARTNER, G_PHASE, G_PLAYER, G_TEAM, G_WILDS, PH_PLAY,
)

POSITION_OK = 0
NOT_IN_PLAY = 1      # the state is not in its play phase
HANDICAPPED = 2      # two_player after a grab: the hand may end with cards in every hand


@kernel
def state_of_position(state, rules, pos, landlord):
    """Set ``state`` to the play phase at search position ``pos``, ``landlord`` leading its
    side (see the module's docstring)."""
    reset(state, 0, 0)
    put_rules(state, rules)
    for s in range(pos[S_SEATS]):
        state[G_HANDS + s] = pos[S_HANDS + s]
    team = pos[S_TEAM]
    partner = -1
    for s in range(pos[S_SEATS]):
        if s != landlord and (team >> s) & 1:
            partner = s
    state[G_FIRST] = landlord
    state[G_LANDLORD] = landlord
    state[G_PARTNER] = partner
    state[G_TEAM] = team
    state[G_BID] = 1
    begin_play(state, rules)
    state[G_WILDS] = pos[S_WILDS]          # the position's, not the draw of seed 0
    state[G_PLAYER] = pos[S_TO_MOVE]
    if pos[S_LAST_INFO] != 0:
        state[G_LAST_CARDS] = pos[S_LAST_CARDS]
        state[G_LAST_INFO] = pos[S_LAST_INFO]
        state[G_LAST_PLAYER] = pos[S_LAST_PLAYER]


@kernel
def position_of_state(state, rules, out):
    """Write the search position of play-phase ``state`` into ``out``; the status (see the
    module's docstring)."""
    if state[G_PHASE] != PH_PLAY:
        return NOT_IN_PLAY
    if rules[R_HANDICAP] and state[G_GRABS] > 0:
        return HANDICAPPED
    out[:] = 0
    seats = rules[R_PLAYERS]
    out[S_SEATS] = seats
    for s in range(seats):
        out[S_HANDS + s] = state[G_HANDS + s]
    out[S_TEAM] = state[G_TEAM]
    out[S_TO_MOVE] = state[G_PLAYER]
    leading = state[G_LAST_INFO] == 0     # the engine keeps the last player while leading
    out[S_LAST_CARDS] = 0 if leading else state[G_LAST_CARDS]
    out[S_LAST_INFO] = 0 if leading else state[G_LAST_INFO]
    out[S_LAST_PLAYER] = -1 if leading else state[G_LAST_PLAYER]
    out[S_WINNER] = -1
    out[S_WILDS] = state[G_WILDS]
    out[S_HASH] = position_hash(out)
    return POSITION_OK
