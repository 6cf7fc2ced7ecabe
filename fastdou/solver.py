"""The exact open-hand solver, perft and min_plays: validating wrappers around
:mod:`fastdou.kernels.solver`, :mod:`fastdou.kernels.perft_count` and
:mod:`fastdou.kernels.fewest_plays`.

``solve`` is exact under perfect information: negamax on win / loss, the landlord side
against the other seats as one team, with a bounded transposition table that stores full
keys. It never guesses: when a limit stops it, ``landlord_wins`` is None.
"""

from __future__ import annotations

import dataclasses
import numbers
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

import numba
import numpy as np

from fastdou import cards as _cards
from fastdou import memory
from fastdou.checks import short, whole
from fastdou.compiling.cold_start import generator_from_helper, solver_parts
from fastdou.compiling.entry_points import typed_entry_point
from fastdou.errors import FastdouError, PositionError
from fastdou.hints import CardsLike, RulesLike
from fastdou.kernels import fewest_plays as _fewest_plays
from fastdou.kernels import perft_count as _perft
from fastdou.kernels import search as _search
from fastdou.kernels import solver as _solver
from fastdou.kernels.layout import REC_WIDTH
from fastdou.moves import Move, wild_mask
from fastdou.position import Position, state_array
from fastdou.rules import as_rules, rules_array

if TYPE_CHECKING:
    from fastdou.game import Game

DEFAULT_TABLE = 1 << 20


class LimitError(FastdouError):
    """A solver limit that is not a positive number."""


@dataclasses.dataclass(frozen=True)
class Solution:
    """The result of :func:`solve`.

    ``landlord_wins``: True / False, or None when a limit stopped the search;
    ``winning_moves``: every first action of the seat to act that keeps its side winning, in
    generator order (``Move.PASS`` if passing wins; empty when its side loses; None when
    stopped); ``line``: a principal variation to the end of the game (None when stopped);
    ``nodes``: positions searched; ``seconds``: wall time; ``table_bytes``: the
    transposition table's memory."""

    landlord_wins: bool | None
    winning_moves: tuple | None
    line: tuple | None
    nodes: int
    seconds: float
    table_bytes: int = 0


def as_position(position: Position | str | Game) -> Position:
    """A :class:`Position` from a Position, its text, or a Game in its play phase."""
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position.parse(position)
    from fastdou.game import Game
    if isinstance(position, Game):
        return position.position()
    raise PositionError(f"expected a Position, its text or a Game, not "
                        f"{type(position).__name__}")


def _searched(position: Position | str | Game) -> tuple:
    """``(array, rules)`` of what :func:`solve` and :func:`perft` search: a Game's state
    converted by the kernels (no Position built), else the Position's array."""
    from fastdou.game import Game
    if isinstance(position, Game):
        return state_array(position.state, position.rules, position.phase), position.rules
    pos = as_position(position)
    return pos.array(), pos.rules


_LIMITS = {"max_nodes": 2 ** 62, "threads": 1024, "table_size": 2 ** 27}
MAX_SECONDS = 1e7                # a time limit of about four months at most
MAX_DEPTH = 10_000               # longer than any hand: perft stops where the games end


def _positive(name, value, kind=int, optional=True):
    if value is None and optional:
        return None
    if kind is int:
        return whole(name, value, 1, _LIMITS[name], error=LimitError)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)) \
            or not 0 < float(value) <= MAX_SECONDS:
        raise LimitError(f"{name} must be a number of seconds in (0, {MAX_SECONDS:.0e}], not "
                         f"{short(value)}")
    return float(value)


def _actions(arr, rules) -> np.ndarray:
    """The actions of ``arr`` as records: generated into a buffer (again into one of their
    size when more), not counted first (which would compile the counters as well)."""
    out = np.zeros((_ROOM, REC_WIDTH), np.uint64)
    n = _generated(arr, rules, out)
    if n > _ROOM:
        out = np.zeros((n, REC_WIDTH), np.uint64)
        _generated(arr, rules, out)
    return out[:n].copy()


def _generated(arr, rules, out) -> int:
    """``search.actions`` of ``arr`` into ``out``: its wild-card body only under wild cards
    (compiled apart, so classic callers never compile it)."""
    if rules.wilds:
        return _search.actions(arr, rules_array(rules, wild=True), out, True)
    return _search.actions(arr, rules_array(rules), out)


_ROOM = 1024                     # rows of the first buffer of _actions
_spare = {}                      # (threads, size, width) -> a table not in use
_spare_lock = threading.Lock()
_CHUNK = 1 << 23                 # bytes set up between two looks at the stop flag


def _take_table(groups, size, width):
    """``(keys, values, kept, mapped)``: the table the last call of this shape used
    (``kept``; ``mapped`` if every page of it was written), or a new one (its memory
    checked first; a kept table of another shape is freed before); see :func:`_set_up`."""
    with _spare_lock:
        table = _spare.pop((groups, size, width), None)
        if table is None:
            _spare.clear()
    if table is not None:
        return table[0], table[1], True, table[2]
    memory.check(f"solve with {groups} threads of {size:,}-entry tables",
                 groups * size * (8 * width + 1), "lower table_size or threads")
    keys = np.empty((groups, size, width), np.uint64)      # a zero value marks a free slot:
    return keys, np.zeros((groups, size), np.uint8), False, False  # keys need no clearing


def _set_up(keys, vals, kept, mapped, touch, ctl) -> bool:
    """Clear a kept table's values and, when ``touch``, write to every page not yet
    ``mapped``, so that the time the memory takes to map is spent here, counted and
    stoppable, not in the search. In ``_CHUNK``-byte pieces, each after a look at
    ``ctl``'s stop flag; False if stopped."""
    page = 4096
    pieces = [(vals.reshape(-1), 1)] if kept else []
    if touch and not mapped:
        pieces += [] if kept else [(vals.reshape(-1), page)]
        pieces += [(keys.reshape(-1), page // keys.itemsize)]
    for flat, stride in pieces:
        step = _CHUNK // flat.itemsize
        for start in range(0, len(flat), step):
            if ctl[0, _solver.C_STOP]:
                return False
            flat[start:start + step:stride] = 0
    return True


def _give_back(keys, vals, mapped):
    with _spare_lock:
        _spare.clear()               # keep one table at most
        _spare[keys.shape] = (keys, vals, mapped)


class _Timer:
    """Sets ``flags[:, C_STOP]`` after ``seconds`` (the kernels poll it)."""

    def __init__(self, ctl, seconds):
        self.timer = None
        if seconds is not None:
            self.timer = threading.Timer(seconds, self._stop, args=(ctl,))
            self.timer.daemon = True
            self.timer.start()

    @staticmethod
    def _stop(ctl):
        ctl[..., _solver.C_STOP] = 1

    def cancel(self):
        if self.timer is not None:
            self.timer.cancel()


_searcher = None                 # the main thread's searches run here (see _interruptible)


def _interruptible(search, stop):
    """``search()``; from the main thread, on a worker while the main thread waits, so that
    Ctrl-C (or an exception a signal handler raises) reaches it: then ``stop()`` sets the
    flag the kernels poll, the search returns within a few thousand nodes, and the
    exception goes on. Other threads run the search themselves (no signal reaches them)."""
    global _searcher
    if threading.current_thread() is not threading.main_thread():
        return search()
    if _searcher is None:
        _searcher = ThreadPoolExecutor(1, thread_name_prefix="fastdou-search")
    future = _searcher.submit(search)
    try:
        return future.result()
    except BaseException:
        if not future.done():
            stop()
            wait([future])
        raise


def solve(position: Position | str | Game, *, max_nodes: int | None = None,
          time_limit: float | None = None, threads: int = 1,
          table_size: int = DEFAULT_TABLE) -> Solution:
    """Solve a position (a :class:`Position`, its text, or a :class:`~fastdou.Game` in its
    play phase) exactly, every hand open.

    ``max_nodes`` / ``time_limit`` (seconds) stop the search (then ``landlord_wins`` is
    None); ``threads`` > 1 splits the first actions among threads, each with its own table
    (the answer is the same for any thread count); ``table_size``: transposition-table
    entries per thread (rounded up to a power of two; the last table is kept for the next
    call of the same shape, so repeated solves do not pay for fresh memory). The tables'
    memory (``threads x table_size x`` about 33 to 41 bytes) is checked against what the
    machine has first: OutOfMemoryError names both figures.

    ``time_limit`` counts from the call, the tables' set-up included: with a limit, a
    fresh table's memory is mapped before the search, in pieces between which the limit
    is checked (the stop is then seen within a piece or 1024 nodes).
    """
    arr, rules = _searched(position)
    if rules.wilds:                                   # the helper compiles classic parts
        return _solve(arr, rules, max_nodes, time_limit, threads, table_size)
    with generator_from_helper(solver_parts):        # on an empty cache, on two cores
        return _solve(arr, rules, max_nodes, time_limit, threads, table_size)


def _kernel(kernel, rules, *args):
    """``kernel(*args)``; under wild cards its specialisation for a literal ``wild=True``
    (an argument typed only as a bool would not prune the classic code it holds)."""
    if not rules.wilds:
        return kernel(*args)
    signature = tuple(numba.typeof(a) for a in args) + (numba.types.literal(True),)
    return typed_entry_point(kernel, signature)(*args, True)


def _solve(arr, rules, max_nodes, time_limit, threads, table_size) -> Solution:
    max_nodes = _positive("max_nodes", max_nodes)
    time_limit = _positive("time_limit", time_limit, kind=float)
    threads = _positive("threads", threads, optional=False)
    table_size = _positive("table_size", table_size, optional=False)
    size = 1 << max(10, int(table_size - 1).bit_length())
    start = time.perf_counter()
    moves = _actions(arr, rules)
    width = int(_search.key_width(arr))
    groups = max(1, min(int(threads), len(moves)))
    results = np.full(len(moves), -1, np.int64)         # -1: not searched (stopped)
    ctl = np.zeros((groups, _solver.CTL_SIZE), np.int64)
    if max_nodes is not None:
        ctl[:, _solver.C_MAX_NODES] = -(-int(max_nodes) // groups)
    timer = _Timer(ctl, None if time_limit is None else    # before the tables: they count
                   time_limit - (time.perf_counter() - start))
    try:
        keys, vals, kept, mapped = _take_table(groups, size, width)
    except BaseException:
        timer.cancel()
        raise

    ready = [False]                  # whether every page of the table is now mapped

    def search():
        touch = time_limit is not None
        if not _set_up(keys, vals, kept, mapped, touch, ctl):
            return None
        ready[0] = mapped or touch
        out = np.zeros((int(_solver._depth_bound(arr)), REC_WIDTH), np.uint64)
        ra = rules_array(rules, wild=True)
        if groups == 1:
            plies = _kernel(_solver.solve_root, rules, arr, ra, moves, keys[0], vals[0], ctl[0],
                            results, out, max_nodes or 0)
        else:
            before = numba.get_num_threads()       # per thread: set where the search runs
            numba.set_num_threads(min(groups, numba.config.NUMBA_NUM_THREADS))
            try:
                _kernel(_solver.solve_root_parallel, rules, arr, ra, moves, keys, vals, ctl,
                        results)
            finally:
                numba.set_num_threads(before)
            if (results < 0).any():
                return None
            if max_nodes is not None:
                ctl[0, _solver.C_MAX_NODES] = int(ctl[0, _solver.C_NODES]) + int(max_nodes)
            plies = _kernel(_solver.principal_line, rules, arr, ra, keys[0], vals[0], ctl[0],
                            out, _solver.new_work(arr))
        if (results < 0).any():
            return None
        return tuple(_move(r, arr, rules) for r in out[:plies]) if plies >= 0 else None

    try:
        line = _interruptible(search, lambda: _Timer._stop(ctl))
    finally:
        timer.cancel()
        _give_back(keys, vals, ready[0])
    nodes = int(ctl[:, _solver.C_NODES].sum())
    seconds = time.perf_counter() - start
    table_bytes = int(keys.nbytes + vals.nbytes)
    if (results < 0).any():
        return Solution(None, None, None, nodes, seconds, table_bytes)
    winning = tuple(_move(m, arr, rules) for m, r in zip(moves, results) if r == 1)
    mover_is_landlord = bool(arr[_search.S_TEAM] >> arr[_search.S_TO_MOVE] & 1)
    return Solution(bool(winning) == mover_is_landlord, winning, line, nodes, seconds,
                    table_bytes)


def _depth(depth):
    return whole("depth", depth, 0, MAX_DEPTH, error=LimitError)


def perft(position: Position | str | Game, depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``position``: an action is a
    legal (cards, reading) move or, when not leading, the pass; a move that empties a hand
    ends the game (it counts at depth 1 and has no successors)."""
    arr, rules = _searched(position)
    depth = _depth(depth)
    if depth == 0:
        return 1
    stop = np.zeros(1, np.int64)
    if rules.wilds:
        ra = rules_array(rules, wild=True)
        return int(_interruptible(lambda: _perft.wild_perft_until(arr, ra, depth, stop),
                                  lambda: stop.fill(1)))
    ra = rules_array(rules)
    with generator_from_helper(solver_parts):
        return int(_interruptible(lambda: _perft.perft_until(arr, ra, depth, stop),
                                  lambda: stop.fill(1)))


def perft_divide(position: Position | str | Game, depth: int) -> dict:
    """perft per first action: ``{Move: count}`` in generator order (``Move.PASS`` first
    when passing is legal); the counts sum to ``perft(position, depth)``."""
    arr, rules = _searched(position)
    depth = _depth(depth)
    if depth == 0:
        raise LimitError("perft_divide needs depth >= 1")
    moves = _actions(arr, rules)
    out, stop = np.zeros(len(moves), np.int64), np.zeros(1, np.int64)
    divide = _perft.wild_perft_divide if rules.wilds else _perft.perft_divide
    ra = rules_array(rules, wild=True)
    _interruptible(lambda: divide(arr, ra, depth, moves, out, stop), lambda: stop.fill(1))
    return {_move(m, arr, rules): int(c) for m, c in zip(moves, out)}


def _move(record, arr, rules) -> Move:
    """The Move of an action record of search array ``arr`` (under its wild ranks)."""
    return Move.from_record(record, int(arr[_search.S_WILDS]), rules) if rules.wilds else \
        Move.from_record(record)


def min_plays(hand: CardsLike, rules: RulesLike = "classic", *, wild=None) -> int:
    """The least number of plays that empty ``hand`` with nobody answering (each play a
    legal lead): the fewest legal moves the hand splits into. 0 for no cards. Under wild
    cards ``wild`` names the wild rank(s), as :func:`fastdou.legal_moves` takes them."""
    rules = as_rules(rules)
    mask = wild_mask(wild, rules)
    packed = np.uint64(_cards.pack(_cards.parse(hand, rules)))
    if mask:
        return int(_fewest_plays.wild_min_plays(packed, rules_array(rules, wild=True), mask))
    return int(_fewest_plays.min_plays(packed, rules_array(rules)))
