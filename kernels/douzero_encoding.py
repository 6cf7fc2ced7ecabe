"""DouZero's observation (``douzero.env.env.get_obs``) computed from a classic game state.

Positions are relative to the landlord (``G_LANDLORD``): ``landlord_down`` plays after it,
``landlord_up`` before it (seats 0, 1, 2 in DouZero's own games).
The arrays are DouZero's, feature for feature (its paper's tables 4 and 5):

* a *card block* is 54 features: rank ``r`` (3..2) held ``c`` times sets ``4 * r .. 4 * r +
  c - 1``; the small and big jokers set 52 and 53;
* the landlord's ``x_no_action`` (319): own hand, the other two hands together, the last
  move, the cards played by ``landlord_up``, by ``landlord_down``, one-hot cards left of
  ``landlord_up`` (17) and ``landlord_down`` (17), one-hot bombs played (15);
* a farmer's (430): own hand, the other hands, the cards the landlord played, the cards the
  teammate played, the last move, the landlord's last action, the teammate's last action,
  one-hot cards left of the landlord (20) and of the teammate (17), one-hot bombs (15);
* ``x_batch`` (n, 373 / 484): ``x_no_action`` then the action's card block, one row per
  action; ``z`` (5, 162): the last 15 play actions (passes and missing ones all zero), three
  a row, oldest first; ``z_batch``: ``z`` once per action.

"The last move" is DouZero's: the last action if it was a play, else the one before it
(which is zero when that was a pass too). Bombs count rank bombs and the rocket.

Everything reads the state array (``G_HANDS``, ``G_PLAYED``, ``G_SEAT_LAST``, the ring
``G_HISTORY``, ``G_BOMBS`` + ``G_ROCKETS``), so these kernels work from a user's ``@njit``
code: :func:`observe` lists the acting seat's DouZero actions (one per card multiset) and
fills every array (:func:`observe_ids` does it from ``Game.legal_action_ids``,
:func:`step_observe` applies an action id first: one call per step of an environment);
:func:`encode` fills them for given actions; :func:`card_block` and :func:`no_action_size`
are the parts::

    from numba import njit
    from fastdou.kernels import douzero_encoding as DE

    @njit
    def douzero_features(state, rules):           # state: Game.state, rules: Rules.array
        actions, x_batch, z_batch, x_no_action, z = DE.observe(state, rules)
        return x_batch                            # actions[1]: each row's packed cards
"""

import numpy as np
from numba.extending import overload

from fastdou.kernels import engine as E
from fastdou.kernels.action_ids import OK, OVERFLOW, legal_ids, push_id, step_ids
from fastdou.kernels.encoding import plane_storable, standard_plane_store
from fastdou.kernels.jit import (
    LEAF_OVERLOAD, first_class_kernel, inline_leaf, kernel, leaf, nrt_kernel,
)
from fastdou.kernels.layout import (BIG_JOKER, INFO_FIELD_MASK, INFO_LENGTH_SHIFT,
                                    INFO_RANK_SHIFT, REC_WIDTH, SMALL_JOKER)
from fastdou.kernels.packing import count, size
from fastdou.kernels.engine import skip_to_play, start_from_hands
from fastdou.kernels.state import (G_BOMBS, G_HANDS, G_HISTORY, G_LANDLORD, G_PHASE,
                                   G_PLAYED, G_PLAYER, G_ROCKETS, G_SEAT_LAST, G_TURNS,
                                   HISTORY_LEN, PH_DONE)

CARD_FEATURES = 54
X_LANDLORD = 373          # x_batch columns; x_no_action has CARD_FEATURES fewer
X_FARMER = 484
Z_ROWS = 5
Z_COLS = 162
Z_MOVES = 15              # actions of history in z (Z_ROWS * 3)
BOMB_FEATURES = 15
_ACTIONS_HINT = 256
LIST_ONLY = -2            # step_actions' n to list the actions without a step


def card_block(packed, out, offset):
    """Write the 54 features of a packed multiset into ``out[offset:offset + 54]``, zeros
    too: the standard deck's card plane of ``fastdou.kernels.encoding`` (one vector store
    into a C-contiguous ``int8``, ``uint8`` or ``float32`` array; entry by entry into any
    other)."""


@overload(card_block, jit_options=LEAF_OVERLOAD)
def _card_block(packed, out, offset):
    if plane_storable(out):
        return lambda packed, out, offset: standard_plane_store(out, offset, np.uint64(packed))

    def by_entry(packed, out, offset):
        p = np.uint64(packed)
        for r in range(SMALL_JOKER):
            c = count(p, r)
            for k in range(4):
                out[offset + 4 * r + k] = 1 if k < c else 0
        out[offset + 52] = 1 if count(p, SMALL_JOKER) > 0 else 0
        out[offset + 53] = 1 if count(p, BIG_JOKER) > 0 else 0
    return by_entry


@inline_leaf            # inlined: each call's literal arguments would compile it once more
def _one_hot(out, offset, width, value):
    """DouZero's one-hot: ``value`` at ``value`` (bombs) or at ``value - 1`` (cards left),
    numpy's index ``-1`` (the last) for 0 cards left, as its code does."""
    i = value if value >= 0 else width + value
    out[offset + i] = 1


@kernel
def is_landlord(state, seat):
    """Whether ``seat`` is the landlord (DouZero's positions are relative to it)."""
    return seat == state[G_LANDLORD]


@kernel
def no_action_size(state, seat):
    """Length of ``x_no_action`` for ``seat`` (319 for the landlord, 430 for a farmer)."""
    return X_LANDLORD - CARD_FEATURES if is_landlord(state, seat) else X_FARMER - CARD_FEATURES


@kernel
def _last_move(state):
    """DouZero's last move: the last play action if it was a play, else the one before."""
    t = state[G_TURNS]
    if t == 0:
        return np.uint64(0)
    last = np.uint64(state[G_HISTORY + 3 * ((t - 1) % HISTORY_LEN)])
    if last != 0 or t < 2:
        return last
    return np.uint64(state[G_HISTORY + 3 * ((t - 2) % HISTORY_LEN)])


@kernel
def _no_action(state, seat, x):
    """Fill ``x`` (zeroed, ``no_action_size(seat)`` long) with DouZero's features."""
    hand = np.uint64(state[G_HANDS + seat])
    others = np.uint64(0)
    for s in range(3):
        if s != seat:
            others += np.uint64(state[G_HANDS + s])
    card_block(hand, x, 0)
    card_block(others, x, 54)
    bombs = min(state[G_BOMBS] + state[G_ROCKETS], BOMB_FEATURES - 1)
    lord = state[G_LANDLORD]
    if seat == lord:
        up = (lord + 2) % 3
        down = (lord + 1) % 3
        card_block(_last_move(state), x, 108)
        card_block(np.uint64(state[G_PLAYED + up]), x, 162)
        card_block(np.uint64(state[G_PLAYED + down]), x, 216)
        _one_hot(x, 270, 17, size(np.uint64(state[G_HANDS + up])) - 1)
        _one_hot(x, 287, 17, size(np.uint64(state[G_HANDS + down])) - 1)
        _one_hot(x, 304, BOMB_FEATURES, bombs)
    else:
        mate = 3 - seat - lord
        card_block(np.uint64(state[G_PLAYED + lord]), x, 108)
        card_block(np.uint64(state[G_PLAYED + mate]), x, 162)
        card_block(_last_move(state), x, 216)
        card_block(np.uint64(state[G_SEAT_LAST + 2 * lord]), x, 270)
        card_block(np.uint64(state[G_SEAT_LAST + 2 * mate]), x, 324)
        _one_hot(x, 378, 20, size(np.uint64(state[G_HANDS + lord])) - 1)
        _one_hot(x, 398, 17, size(np.uint64(state[G_HANDS + mate])) - 1)
        _one_hot(x, 415, BOMB_FEATURES, bombs)


@kernel
def _history(state, z):
    """Fill ``z`` (zeroed, (5, 162)) with the last 15 play actions, oldest first."""
    _history_at(state, z.reshape(Z_ROWS * Z_COLS), 0)


@kernel
def _history_at(state, flat, offset):
    """``z`` written flat into ``flat[offset:]`` (zeroed)."""
    t = state[G_TURNS]
    for j in range(Z_MOVES):
        k = t - Z_MOVES + j
        if k >= 0:
            card_block(np.uint64(state[G_HISTORY + 3 * (k % HISTORY_LEN)]), flat,
                       offset + CARD_FEATURES * j)


VECTOR_SIZE = X_FARMER - CARD_FEATURES + Z_ROWS * Z_COLS


@kernel
def vector_size(rules):
    """Entries of one game's DouZero row in ``fastdou.VectorEnv``: ``x_no_action`` (319
    for the landlord, 430 for a farmer; zeros after the landlord's) then ``z`` flattened
    (810). ``x_batch`` is that ``x_no_action`` beside each action's card block."""
    return VECTOR_SIZE


@first_class_kernel
def vector_encode(state, rules, seat, out):
    """Write ``seat``'s DouZero row (``vector_size``) into ``out`` (int8)."""
    out[:] = 0
    _no_action(state, seat, out[:no_action_size(state, seat)])
    _history_at(state, out, X_FARMER - CARD_FEATURES)


@kernel
def encode(state, seat, actions, x_batch, z_batch, x_no_action, z):
    """DouZero's observation of ``seat`` with one row per packed card multiset in
    ``actions`` (0 is the pass): fills ``x_no_action`` (int8, ``no_action_size(seat)``),
    ``z`` (int8, (5, 162)), ``x_batch`` (float32, (n, 373 / 484)) and ``z_batch`` (float32,
    (n, 5, 162)). The arrays need not be zeroed. ``seat`` is any seat; DouZero encodes only
    the one to act."""
    n = actions.shape[0]
    m = no_action_size(state, seat)
    if x_no_action.shape[0] != m or x_batch.shape[0] != n or \
            x_batch.shape[1] != m + CARD_FEATURES or z_batch.shape[0] != n or \
            z.shape[0] != Z_ROWS or z.shape[1] != Z_COLS:
        raise ValueError("encode: x_no_action must hold no_action_size(state, seat), "
                         "x_batch (n, that + 54), z (5, 162), z_batch (n, 5, 162)")
    x_no_action[:] = 0
    z[:] = 0
    _no_action(state, seat, x_no_action)
    _history(state, z)
    if n == 0:
        return
    flat = z.reshape(Z_ROWS * Z_COLS)
    zs = z_batch.reshape(n, Z_ROWS * Z_COLS)
    for i in range(n):      # element loops: a slice assignment checks overlap, may copy
        xi = x_batch[i]
        zi = zs[i]
        for j in range(m):
            xi[j] = x_no_action[j]
        for j in range(Z_ROWS * Z_COLS):
            zi[j] = flat[j]
        card_block(actions[i], xi, m)           # the last 54 columns


@leaf
def _better_reading(info, than):
    """Whether reading ``info`` is preferred to ``than`` for the same cards: the longer
    chain, then the higher rank (a 4-trio chain rather than a 3-trio plane with a wing
    trio, as DouZero reads those cards)."""
    li = (info >> np.uint64(INFO_LENGTH_SHIFT)) & np.uint64(INFO_FIELD_MASK)
    lt = (than >> np.uint64(INFO_LENGTH_SHIFT)) & np.uint64(INFO_FIELD_MASK)
    if li != lt:
        return li > lt
    ri = (info >> np.uint64(INFO_RANK_SHIFT)) & np.uint64(INFO_FIELD_MASK)
    rt = (than >> np.uint64(INFO_RANK_SHIFT)) & np.uint64(INFO_FIELD_MASK)
    return ri > rt


_FEW_ACTIONS = 48          # up to this many records, douzero_actions groups without sorting


@leaf
def _few_douzero_actions(records, out_cards, out_rows):
    """:func:`douzero_actions` by a scan of the actions found so far (no allocation; for
    the few records of most positions)."""
    m = 0
    for i in range(records.shape[0]):
        c = records[i, 0]
        k = 0
        while k < m and out_cards[k] != c:
            k += 1
        if k == m:
            out_cards[m] = c
            out_rows[m] = i
            m += 1
        elif _better_reading(records[i, 1], records[out_rows[k], 1]):
            out_rows[k] = i
    return m


@kernel
def douzero_actions(records, out_cards, out_rows):
    """The DouZero actions of ``records`` (legal actions, pass first): one per card
    multiset, in the order of its first record; ``out_rows[k]`` is the row of the reading
    it plays (see :func:`_better_reading`). Returns how many."""
    n = records.shape[0]
    if n <= _FEW_ACTIONS:
        return _few_douzero_actions(records, out_cards, out_rows)
    cards = records[:, 0].copy()
    order = np.argsort(cards, kind="mergesort")      # stable: a group starts at its first
    pick = np.full(n, -1, np.int64)
    i = 0
    while i < n:
        first = order[i]
        best = first
        j = i + 1
        while j < n and cards[order[j]] == cards[first]:
            if _better_reading(records[order[j], 1], records[best, 1]):
                best = order[j]
            j += 1
        pick[first] = best
        i = j
    m = 0
    for i in range(n):
        if pick[i] >= 0:
            out_cards[m] = cards[i]
            out_rows[m] = pick[i]
            m += 1
    return m


@nrt_kernel
def legal_records(state, rules):
    """The legal actions of the seat to act, as an (n, 2) record array."""
    out = np.empty((_ACTIONS_HINT, REC_WIDTH), np.uint64)
    n = E.legal_actions(state, rules, out)
    if n > out.shape[0]:
        out = np.empty((n, REC_WIDTH), np.uint64)
        E.legal_actions(state, rules, out)
    return out[:n]


@kernel
def observe_records(state, records):
    """The acting seat's DouZero observation given its legal ``records``: ``(actions,
    x_batch, z_batch, x_no_action, z)``: ``actions`` (int64, (2, m)) holds, for each DouZero
    action (one per card multiset), the row of the record it plays and its packed cards;
    then the arrays of :func:`encode`."""
    seat = state[G_PLAYER]
    n = records.shape[0]
    cards = np.empty(n, np.uint64)
    rows = np.empty(n, np.int64)
    m = douzero_actions(records, cards, rows)
    cards = cards[:m]
    width = X_LANDLORD if is_landlord(state, seat) else X_FARMER
    x_batch = np.empty((m, width), np.float32)
    z_batch = np.empty((m, Z_ROWS, Z_COLS), np.float32)
    x_no_action = np.empty(width - CARD_FEATURES, np.int8)
    z = np.empty((Z_ROWS, Z_COLS), np.int8)
    encode(state, seat, cards, x_batch, z_batch, x_no_action, z)
    actions = np.empty((2, m), np.int64)
    for k in range(m):
        actions[0, k] = rows[k]
        actions[1, k] = np.int64(cards[k])
    return actions, x_batch, z_batch, x_no_action, z


@nrt_kernel
def observe(state, rules):
    """:func:`observe_records` of the legal actions the engine lists now."""
    return observe_records(state, legal_records(state, rules))


@nrt_kernel
def observe_ids(state, ids, id_records):
    """:func:`observe_records` of legal action ids (``Game.legal_action_ids``) given the
    action table's ``id_records``; ``rows`` index ``ids``."""
    records = np.empty((ids.shape[0], REC_WIDTH), np.uint64)
    for i in range(ids.shape[0]):
        records[i, 0] = id_records[ids[i], 0]
        records[i, 1] = id_records[ids[i], 1]
    return observe_records(state, records)


@nrt_kernel
def step_observe(state, rules, keys, key_ids, selection, id_records, a):
    """Apply action id ``a`` of the action table (``ActionTable.kernel_args``; -1: apply
    nothing), then observe the seat to act: ``(status, actions, x_batch, z_batch,
    x_no_action, z)`` with ``actions[0]`` the id each DouZero action plays; ``status`` is
    ``action_ids.OK`` or why ``a`` was refused (nothing applied, empty arrays). A finished
    hand gives empty arrays too."""
    status = OK
    if a >= 0:
        status = push_id(state, rules, id_records, selection, a)
    if status != OK or state[G_PHASE] == PH_DONE:
        return (status, np.empty((2, 0), np.int64), np.empty((0, X_FARMER), np.float32),
                np.empty((0, Z_ROWS, Z_COLS), np.float32), np.empty(0, np.int8),
                np.empty((Z_ROWS, Z_COLS), np.int8))
    records = np.empty((_ACTIONS_HINT, REC_WIDTH), np.uint64)
    ids = np.empty(_ACTIONS_HINT, np.int64)
    n = legal_ids(state, rules, keys, key_ids, selection, records, ids)
    if n > _ACTIONS_HINT:
        records = np.empty((n, REC_WIDTH), np.uint64)
        ids = np.empty(n, np.int64)
        legal_ids(state, rules, keys, key_ids, selection, records, ids)
    actions, x_batch, z_batch, x_no_action, z = observe_records(state, records[:n])
    for k in range(actions.shape[1]):
        actions[0, k] = ids[actions[0, k]]
    return status, actions, x_batch, z_batch, x_no_action, z


# ---------------------------------------------------------------- an env's step, in two calls
@kernel
def deal_start(state, rules, hands, kitty):
    """Set ``state`` to DouZero's start of play: packed ``hands`` by seat (the landlord's
    without the kitty) and ``kitty``, the landlord at seat 0 taking it and leading:
    ``Game.from_hands(..., start="play", landlord=0).state`` without the Python checks."""
    state[:] = 0
    start_from_hands(state, rules, hands, kitty, 0, 0, 0)
    skip_to_play(state, rules, 0)


@nrt_kernel
def _sorted_douzero_actions(records, out_cards, out_rows):
    """:func:`douzero_actions`, counted whoever calls it (it allocates past ``_FEW_ACTIONS``
    records)."""
    return douzero_actions(records, out_cards, out_rows)


@leaf
def group_ids(state, records, ids, cards, played):
    """The DouZero actions of the seat to act given its legal ``records`` and their ``ids``:
    ``cards[:m]`` their packed cards, ``played[:m]`` the id each plays (both as long as
    ``records``). Returns ``m`` (0 once the hand is over)."""
    if state[G_PHASE] == PH_DONE:
        return 0
    if records.shape[0] <= _FEW_ACTIONS:
        m = _few_douzero_actions(records, cards, played)
    else:
        m = _sorted_douzero_actions(records, cards, played)
    for k in range(m):
        played[k] = ids[played[k]]
    return m


# a leaf: counting references here cost more than the step (the bundled tuples' arrays)
@leaf
def step_actions(state, table, bufs, log, extra, a, k, end, n):
    """An env step's first call (``fastdou.stepper``): ``action_ids.step_ids``, then
    :func:`group_ids` of the new legal ids into ``extra``, ``(cards, played, count)``
    (``cards`` and ``played`` as long as ``bufs``' records), their number into
    ``count[0]``. Returns what ``step_ids`` returns. ``n == LIST_ONLY`` (which ``Game``
    never passes) applies nothing: the legal ids now, listed and grouped the same way."""
    cards, played, count = extra
    ids, records = bufs
    if n == LIST_ONLY:
        rules, keys, key_ids, _, selection = table
        m = legal_ids(state, rules, keys, key_ids, selection, records, ids[end:])
        if m > ids.shape[0] - end or m > records.shape[0]:
            return -(OVERFLOW + m)
    else:
        m = step_ids(state, table, bufs, log, extra, a, k, end, n)
    if m >= 0:
        count[0] = group_ids(state, records[:m], ids[end:end + m], cards, played)
    return m


@nrt_kernel
def _encode(state, seat, actions, x_batch, z_batch, x_no_action, z):
    """:func:`encode`, compiled with reference counting whoever calls it (``fill`` is a
    ``leaf``: see ``action_ids.nrt_kernel``)."""
    encode(state, seat, actions, x_batch, z_batch, x_no_action, z)


@leaf
def fill(state, cards, x_batch, z_batch, x_no_action, z):
    """An env step's second call: :func:`encode` the seat to act with the first
    ``x_batch.shape[0]`` actions of ``cards`` into arrays the caller made (their sizes:
    :func:`no_action_size`)."""
    _encode(state, state[G_PLAYER], cards[:x_batch.shape[0]], x_batch, z_batch,
            x_no_action, z)
