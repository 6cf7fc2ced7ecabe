"""The compiled batch of :class:`fastdou.VectorEnv`: many games in one ``(num_envs,
STATE_SIZE)`` state array, stepped in parallel (``prange``).

Slot ``i``'s ``k``-th game (``k`` counts the games the slot began since the seed was set) is
deal ``deal_index(i, k) = k * 2**32 + i`` of the seed, dealt as ``Game.new(rules, seed=seed,
deal=deal_index(i, k))`` deals it; the seats a compiled policy plays draw from
``policy_stream(seed, deal)``, as :func:`fastdou.simulate` does. A game is therefore a pure
function of (seed, slot, k) and the learner's actions: never of threads or batch size.

Seats whose code (``codes[seat]``) is ``LEARNER`` wait for the caller's action; the others
(``RANDOM``, ``GREEDY``, ``USER``: :mod:`fastdou.kernels.policies`) are played inside the
loop. Two first-class functions reach the kernels: ``user`` (:data:`POLICY_SIGNATURE`) and
``encode`` (:data:`ENCODE_SIGNATURE`: ``encode(state, rules, seat, out)`` writes one seat's
observation into the ``int8`` row ``out``), so the kernels compile once and are cached;
fastdou's own encoding, the default, is called directly instead (``direct``).

Wild cards (``wild`` a literal True; None prunes their code, so the classic kernel holds none):
the table is ``kernels.wild_steps``' ``(rules, keys, key_ids, id_records, selection, offsets)``
and the ids are its wild ids under each game's drawn rank; the helpers below (``_in_table``,
``_status_of``, ``_record_of``, ``_id_of``, ``_ids_into``) pick the path.

Legal ids: each game writes up to ``pool.shape[1]`` ids into its row of ``pool`` and its
count into ``counts``; :func:`_gather` packs them into one flat array at ``offsets``
(recomputing the rare games with more ids than a pool row holds).

A step is one call of :func:`step_batch` and ONE parallel region: idle OpenMP threads sleep
(``import fastdou`` sets ``OMP_WAIT_POLICY=passive``) and waking one cost about 57 us a
region, when a step was three (check, advance, gather): two threads then reached 1.42-1.51x
one thread on 4,096 games. The check before it and the packing of the ids after it are
serial and short; inside it, each thread takes the next block of games from a shared
counter (:func:`_take`), so the thread that runs at once does the blocks the woken one has
not reached yet.
"""

import numpy as np
from numba import prange, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from fastdou.compiling.entry_points import FunctionArg, typed_entry_point
from fastdou.kernels.action_ids import (BAD_ID, NOT_HELD, OK, RESERVED,
                                        WRONG_PHASE, action_id, check_id, legal_ids)
from fastdou.kernels.encoding import encode as fastdou_encode
from fastdou.kernels.engine import apply, legal_actions, skip_to_play, start
from fastdou.kernels.jit import kernel, leaf, nrt_kernel, parallel_kernel
from fastdou.kernels.layout import MAX_DECK, REC_WIDTH
from fastdou.kernels.play import ACTIONS_CAPACITY, POLICY_TYPE, choose, policy_stream
from fastdou.kernels.state import G_PHASE, G_PLAYER, G_SCORES, PH_DONE, SCORE_UNIT
from fastdou.kernels.wild import WILD_SCRATCH
from fastdou.kernels.wild_steps import (
    wild_action_id, wild_check_id, wild_in_table, wild_legal_ids,
)

LEARNER = -1          # a seat whose actions come from the caller
SLOT_BITS = 32        # deal_index(i, k) = k << SLOT_BITS | i
MAX_SLOTS = 1 << SLOT_BITS
BLOCK = 32            # games per parallel work item (one scratch buffer each)

# What the check reports per game (``status``; 0: fine); the codes of push_id, plus:
NOT_LEGAL = 16        # a well-formed id that is not among the legal ids now
# What the step reports per game (0: fine):
ERROR_POLICY = 1      # a compiled policy returned an index outside 0..n-1
NEED_ROOM = -1        # (internal) a seat had more actions than the buffer holds
# What step_batch does (``mode``) and returns:
STEP, RESET, GATHER = 0, 1, 2   # apply the actions / deal every slot / only pack the ids
DONE = 0              # stepped, the ids packed
REFUSED = 1           # an action failed the check (``status``): no game was changed
POLICY_FAILED = 2     # a policy erred in some game (``errors``); the ids not packed
NEED_IDS = 3          # stepped, ``offsets`` set, but ``flat`` is too short: grow it, GATHER

_I64 = types.int64
_RULES = types.Array(_I64, 1, "C")    # writable: rules.rules_array, as every caller passes
ENCODE_SIGNATURE = types.none(types.Array(_I64, 1, "C"), types.Array(_I64, 1, "C"), _I64,
                              types.Array(types.int8, 1, "C"))
ENCODE_TYPE = types.FunctionType(ENCODE_SIGNATURE)


@kernel
def deal_index(slot, game):
    """The deal index of slot ``slot``'s ``game``-th game."""
    return (np.int64(game) << SLOT_BITS) | np.int64(slot)


@leaf
def _begin(state, rules, seed, slot, game, start_play, deck):
    """Deal slot ``slot``'s ``game``-th game into ``state`` (``deck``: the shuffle's
    scratch); returns its policies' stream."""
    deal = deal_index(slot, game)
    start(state, rules, seed, deal, deck)
    if start_play:
        skip_to_play(state, rules, 0)
    return policy_stream(seed, deal)


@leaf
def _in_table(table, a, wild):
    """Whether ``a`` is an id of ``table`` (a reserved classic id is not)."""
    if wild is None:
        id_records = table[2]
        return 0 <= a < id_records.shape[0] and id_records[a, 1] != RESERVED
    return wild_in_table(table, a)


@leaf
def _status_of(state, rules, table, a, readings, wild):
    """What ``push_id`` would say of id ``a`` (in the table) in ``state``."""
    if wild is None:
        return check_id(state, rules, table[2], table[3], a)
    return wild_check_id(state, table, a, readings)[0]


@leaf
def _record_of(state, table, a, readings, wild):
    """The action record ``(value, info)`` of id ``a``, an action of ``state`` (checked)."""
    if wild is None:
        id_records = table[2]
        return id_records[a, 0], id_records[a, 1]
    _, value, info = wild_check_id(state, table, a, readings)
    return value, info


@leaf
def _id_of(state, rules, table, value, info, readings, wild):
    """The id of the action record ``[value, info]`` of ``state``'s phase."""
    if wild is None:
        return action_id(state, rules, table[0], table[1], table[3], value, info)
    return wild_action_id(state, table, value, info, readings)


@leaf
def _ids_into(state, rules, table, records, out, readings, wild):
    """``legal_ids`` (or ``wild_legal_ids``) of ``state`` into ``out``."""
    if wild is None:
        return legal_ids(state, rules, table[0], table[1], table[3], records, out)
    return wild_legal_ids(state, table, records, out, readings)


@leaf
def _opponents(state, rules, codes, rng, user, buf, deck, wild):
    """Play the policy seats until a learner seat is to act or the hand is over; returns
    (code, rng, n): 0, ``ERROR_POLICY``, or ``NEED_ROOM`` when the seat to act has ``n``
    actions, more than ``buf`` holds (nothing played then)."""
    while state[G_PHASE] != PH_DONE:
        code = codes[state[G_PLAYER]]
        if code == LEARNER:
            break
        n = legal_actions(state, rules, buf, wild)
        if n > buf.shape[0]:
            return NEED_ROOM, rng, n
        i, rng = choose(code, state, buf, n, rng, user)
        if i < 0 or i >= n:
            return ERROR_POLICY, rng, n
        apply(state, rules, (buf[i, 0], buf[i, 1]), deck)
    return 0, rng, 0


@nrt_kernel
def _scratch(pool, rules, codes):
    """One work item's buffers: action records (room for a pool row's), a deck to shuffle,
    its own copies of the rules and seat codes, and wild readings' scratch."""
    return (np.empty((max(ACTIONS_CAPACITY, pool.shape[1]), REC_WIDTH), np.uint64),
            np.empty(MAX_DECK, np.int64), rules.copy(), codes.copy(),
            np.empty((WILD_SCRATCH, REC_WIDTH), np.uint64))


@intrinsic
def _row(typingctx, array, i):
    """Row ``i`` of a C-contiguous 2-d ``array`` as a 1-d array with no meminfo: Numba's
    reference counting skips it (``NRT_incref(NULL)`` does nothing), so the engine's kernels
    can work on a game's state in place and threads never touch the shared array's count."""
    if not (isinstance(array, types.Array) and array.ndim == 2 and array.layout == "C"):
        return None
    row = types.Array(array.dtype, 1, "C")

    def codegen(context, builder, signature, args):
        src = context.make_array(signature.args[0])(context, builder, args[0])
        width = builder.extract_value(src.shape, 1)
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        itemsize = context.get_constant(types.intp,
                                        context.get_abi_sizeof(context.get_data_type(
                                            array.dtype)))
        out = context.make_array(row)(context, builder)
        populate_array(out, data=builder.gep(src.data, [builder.mul(index, width)]),
                       shape=cgutils.pack_array(builder, [width]),
                       strides=cgutils.pack_array(builder, [itemsize]), itemsize=itemsize,
                       meminfo=None)
        return out._getvalue()
    return row(array, i), codegen


@leaf
def _encode_row(encode, direct, state, rules, seat, dst, i):
    """``encode`` ``seat``'s view of ``state`` straight into row ``i`` of ``dst``; with
    ``direct``, ``encode`` is fastdou's, called as itself (inlined: no first-class function
    call, whose wrapper took 5% of a step)."""
    if direct:
        fastdou_encode(state, rules, seat, _row(dst, i))
    else:
        encode(state, rules, seat, _row(dst, i))


@leaf
def _run_block(lo, hi, resume, fresh, states, scratch, table, dealing, actions, slots, out,
               user, encode, direct, wild):
    """Advance games ``lo .. hi - 1``, each in place in its row of ``states``: deal game
    ``games[i]`` (``fresh``) or apply ``actions[i]`` (checked before, by
    :func:`_check`) for the seat ``seats[i]``; then play the policy seats; a hand
    that ends is recorded (once) and the slot's next game dealt; then the observation and
    legal ids of the learner seat to act. ``scratch``: the work item's (buf, deck, rules,
    codes, readings) (:func:`_scratch`); ``table``, ``dealing``, ``slots``, ``out``, ``wild``:
    as in :func:`step_batch`. Returns ``(hi, 0)``, or ``(i, n)`` when game ``i``'s seat to
    act had ``n`` actions, more than ``buf`` holds: call again from ``i`` with ``resume``
    and a larger buffer, and it goes on where it stopped.

    One call a block, the games' loop inside, and compiled without reference counting
    (``leaf``), as are the helpers it hands the shared arrays to (the engine's kernels get
    the work item's own rules and buffer, and each game's row by :func:`_row`): a call a
    game pushed its hundred-odd argument words every game (9% of a step's samples), and the
    counts' atomic operations took 35% before."""
    buf, deck, rules, codes, readings = scratch
    seed, start_play = dealing
    games, rngs, seats = slots
    obs, final_obs, rewards, terminated, final_scores, final_deals, pool, counts, errors = out
    for i in range(lo, hi):
        state = _row(states, i)
        acting = -1 if fresh else seats[i]
        if not (resume and i == lo):
            errors[i] = 0
            if fresh:
                rngs[i] = _begin(state, rules, seed, i, games[i], start_play, deck)
            else:
                apply(state, rules, _record_of(state, table, actions[i], readings, wild), deck)
                terminated[i] = False
                rewards[i] = 0.0
        rng = rngs[i]
        while True:
            err, rng, n = _opponents(state, rules, codes, rng, user, buf, deck, wild)
            if err != 0:
                rngs[i] = rng
                if err == NEED_ROOM:
                    return i, n
                errors[i] = err
                break
            if state[G_PHASE] != PH_DONE:
                break
            if acting >= 0 and not terminated[i]:
                terminated[i] = True
                _encode_row(encode, direct, state, rules, acting, final_obs, i)
                for s in range(final_scores.shape[1]):
                    final_scores[i, s] = state[G_SCORES + s] / SCORE_UNIT
                rewards[i] = state[G_SCORES + acting] / SCORE_UNIT
                final_deals[i] = deal_index(i, games[i])
            games[i] += 1
            rng = _begin(state, rules, seed, i, games[i], start_play, deck)
        rngs[i] = rng
        if errors[i] != 0:
            counts[i] = 0
            continue
        seat = state[G_PLAYER]
        seats[i] = seat
        _encode_row(encode, direct, state, rules, seat, obs, i)
        n = legal_actions(state, rules, buf, wild)   # the ids of legal_ids, into the pool row
        for j in range(min(n, pool.shape[1])):
            pool[i, j] = _id_of(state, rules, table, buf[j, 0], buf[j, 1], readings, wild)
        counts[i] = n
    return hi, 0


@nrt_kernel
def _room(scratch, n):
    """The work item's ``scratch``, with an action buffer for ``n`` records (its own if it
    has room)."""
    buf, deck, rules, codes, readings = scratch
    if n <= buf.shape[0]:
        return scratch
    return np.empty((2 * n, REC_WIDTH), np.uint64), deck, rules, codes, readings


@intrinsic
def _take(typingctx, counter):
    """Add 1 to ``counter[0]`` atomically; returns the value before: a work item's claim on
    the next block of games."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64):
        return None

    def codegen(context, builder, signature, args):
        a = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.atomic_rmw("add", a.data, context.get_constant(types.int64, 1),
                                  "monotonic")
    return types.int64(counter), codegen


@kernel
def _check(states, rules, table, actions, flat, offsets, legal_only, status, readings,
           wild):
    """``status[i]``: 0 if ``actions[i]`` may be applied to game ``i``: with ``legal_only``,
    when it is among the game's legal ids ``flat[offsets[i]:offsets[i + 1]]``
    (``NOT_LEGAL`` or ``BAD_ID`` otherwise), else when ``push_id`` would take it. Returns
    whether every game's is 0."""
    fine = True
    for i in range(states.shape[0]):
        a = actions[i]
        if not _in_table(table, a, wild):
            status[i] = BAD_ID
            fine = False
            continue
        if legal_only:
            s = NOT_LEGAL
            for j in range(offsets[i], offsets[i + 1]):
                if flat[j] == a:
                    s = OK
                    break
        else:
            s = _status_of(states[i], rules, table, a, readings, wild)
        status[i] = s
        if s != OK:
            fine = False
    return fine


@nrt_kernel
def _gather(states, rules, table, pool, counts, offsets, flat, games, deals, readings, wild):
    """Pack the games' legal ids into ``flat`` at ``offsets``: from ``pool`` rows, or
    computed again for a game with more ids than a row holds; and each game's deal index
    into ``deals``."""
    cap = pool.shape[1]
    for i in range(states.shape[0]):
        at = offsets[i]
        c = counts[i]
        if c <= cap:
            for j in range(c):
                flat[at + j] = pool[i, j]
        else:
            records = np.empty((c, REC_WIDTH), np.uint64)
            _ids_into(states[i], rules, table, records, flat[at:at + c], readings, wild)
        deals[i] = deal_index(i, games[i])


@parallel_kernel
def step_batch(states, rules, table, dealing, codes, actions, mode, legal_only, slots, out,
               ids, threads, user, encode, direct, wild):
    """One call of the env (``mode``): ``STEP`` checks every ``actions[i]`` (:func:`_check`;
    ``REFUSED`` if one fails, nothing changed), applies them and plays on to a learner
    seat's turn (:func:`_run_block`); ``RESET`` deals slot ``i``'s game ``games[i]``
    instead (``actions`` unread); then both set ``offsets`` and pack the legal ids
    (``POLICY_FAILED`` first if a policy erred, ``NEED_IDS`` if ``flat`` is too short:
    ``GATHER`` then only packs them). Returns ``DONE``, or what went wrong.

    The games are played in one parallel region (the rest is serial): work items, one a
    thread, each on its own buffers and copies of the rules and codes (threads share no
    reference counts), take blocks of ``BLOCK`` games from ``next_block`` (:func:`_take`)
    until none is left: which thread plays a game never changes its result.

    ``table``: the action ids' (keys, key_ids, id_records, selection)
    (:class:`fastdou.actions.ActionTable`), or with ``wild=True`` (rules with one wild rank)
    ``kernels.wild_steps``' table; ``wild=None`` compiles no wild-card code; ``dealing``: (seed, start_play); ``slots``:
    what each slot keeps between calls, (games, rngs, seats); ``out``: the per-game
    results, (obs, final_obs, rewards, terminated, final_scores, final_deals, pool,
    counts, errors); ``ids``: (flat, offsets, status, deals, next_block: one int64);
    ``threads``: the work items, ``numba.get_num_threads()`` (called here, it would make the
    kernel uncacheable); ``user``, ``encode``, ``direct``: the policy and the encoder
    (:func:`_encode_row`)."""
    n = states.shape[0]
    readings = np.empty((WILD_SCRATCH, REC_WIDTH), np.uint64)
    games = slots[0]
    obs, final_obs, rewards, terminated, final_scores, final_deals, pool, counts, errors = out
    flat, offsets, status, deals, next_block = ids
    if mode != GATHER:
        fresh = mode == RESET
        if not fresh and not _check(states, rules, table, actions, flat, offsets, legal_only,
                                    status, readings, wild):
            return REFUSED
        blocks = (n + BLOCK - 1) // BLOCK
        next_block[0] = 0
        for _ in prange(min(threads, blocks)):
            scratch = _scratch(pool, rules, codes)
            b = _take(next_block)
            while b < blocks:
                i, end = b * BLOCK, min(n, (b + 1) * BLOCK)
                resume = np.bool_(False)    # not a literal: _run_block would compile twice
                while i < end:
                    i, need = _run_block(i, end, resume, fresh, states, scratch, table,
                                         dealing, actions, slots, out, user, encode, direct,
                                         wild)
                    scratch = _room(scratch, need)
                    resume = True
                b = _take(next_block)
        for i in range(n):
            if errors[i] != 0:
                return POLICY_FAILED
        total = 0
        for i in range(n):
            total += counts[i]
            offsets[i + 1] = total
        if total > flat.shape[0]:
            return NEED_IDS
    _gather(states, rules, table, pool, counts, offsets, flat, games, deals, readings, wild)
    return DONE


@kernel
def masks(flat, offsets, out):
    """The dense legal mask ``out[i, id]`` of every game (``out`` zeroed here)."""
    out[:, :] = False
    for i in range(offsets.shape[0] - 1):
        for j in range(offsets[i], offsets[i + 1]):
            out[i, flat[j]] = True


# ----------------------------------------------------------------------- signatures
def _a(dtype, ndim, readonly=False):
    return types.Array(dtype, ndim, "C", readonly=readonly)


_STATES = _a(_I64, 2)
_TABLE = types.Tuple((_a(types.uint64, 2, True), _a(_I64, 1, True),   # keys, key_ids
                      _a(types.uint64, 2, True), _a(_I64, 1, True)))  # id_records, selection
_DEALING = types.UniTuple(_I64, 2)                                    # seed, start_play
_SLOTS = types.Tuple((_a(_I64, 1), _a(types.uint64, 1), _a(_I64, 1)))  # games, rngs, seats
_OUT = types.Tuple((_a(types.int8, 2), _a(types.int8, 2),             # obs, final_obs
                    _a(types.float64, 1), _a(types.boolean, 1),       # rewards, terminated
                    _a(types.float64, 2), _a(_I64, 1),                # scores, deals
                    _a(types.int32, 2), _a(_I64, 1), _a(_I64, 1)))    # pool, counts, errors
# kernels.wild_steps' table, writable: (rules, keys, key_ids, id_records, selection, offsets)
_WILD_TABLE = types.Tuple((_RULES, _a(types.uint64, 2), _a(_I64, 1), _a(types.uint64, 2),
                           _a(_I64, 1), _a(_I64, 1)))
_IDS = types.UniTuple(_a(_I64, 1), 5)     # flat, offsets, status, deals, next_block


def _step_signature(table, wild):
    return (_STATES, _RULES, table, _DEALING, _a(_I64, 1), _a(_I64, 1), _I64, types.boolean,
            _SLOTS, _OUT, _IDS, _I64, POLICY_TYPE, ENCODE_TYPE, types.boolean, wild)


# (kernel, wild) -> its one signature: the classic one, and the one with wild cards (a
# literal True: ``wild is None`` is pruned only for a None or a literal argument)
SIGNATURES = {("step_batch", False): _step_signature(_TABLE, types.none),
              ("step_batch", True): _step_signature(_WILD_TABLE, types.literal(True))}


def compiled(name, wild=False):
    """``step_batch`` compiled (or loaded from the disk cache) for its classic signature,
    or with ``wild`` its wild-card one (pass ``wild=True`` to it, else None), ``user`` and
    ``encode`` first-class functions; returned as the compiled overload's entry point, which
    skips the dispatcher's typing of every argument (pass exactly the signature's types, the
    functions as :class:`FunctionArg`). Each signature compiles when first asked for."""
    entry = _ENTRY_POINTS.get((name, wild))
    if entry is None:
        entry = _ENTRY_POINTS[name, wild] = typed_entry_point(globals()[name],
                                                              SIGNATURES[name, wild])
    return entry


_ENTRY_POINTS = {}


__all__ = ["LEARNER", "deal_index", "step_batch", "masks", "compiled", "FunctionArg",
           "ENCODE_SIGNATURE", "ENCODE_TYPE", "NOT_LEGAL", "ERROR_POLICY", "MAX_SLOTS",
           "WRONG_PHASE", "NOT_HELD", "STEP", "RESET", "GATHER", "DONE", "REFUSED",
           "POLICY_FAILED", "NEED_IDS"]
