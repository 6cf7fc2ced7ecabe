"""A cold first simulation, solve or Game on two cores: the move generator compiled in a
helper process.

On an empty Numba cache, compiling the simulation spends about 40% of its time on the move
generator, ``generate.emit``, reached a few seconds in (docs/benchmarks.md); the solver
reaches it as early, a Game with its first legal moves. With :func:`generator_from_helper`
around that first compile, a second Python process compiles the generator and writes it to
the cache meanwhile; this process, when it first needs the generator, compiles parts it
needs later that do not call it (:func:`engine_parts` for the simulation,
:func:`solver_parts` for the solver and perft, :func:`game_parts` for a Game, whose
constructor starts the helper: :func:`game_generator`) until the helper is done, then loads
the generator from the cache. The code is the same either
way (a function loaded from the cache is linked into its callers as one compiled here).
If the helper cannot help (one core, a cache that cannot be written, a helper that fails),
this process compiles the generator itself, as without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from contextlib import contextmanager, nullcontext

HELPER = "from fastdou.compiling.cold_start import compile_generator; compile_generator()"
WAIT_SECONDS = 300.0     # the most this process waits for the helper
STOP_SECONDS = 5.0       # the most a stopped helper may take to finish a cache write
_HELPER_LOCK = threading.Lock()
_helper_open = False     # a block of generator_from_helper is open (its helper runs)
_game_checked = False    # a Game's constructor has looked for the generator (no look again)
_NOTHING = nullcontext()


def generator_signature():
    """The argument types of ``emit`` as the engine calls it: a packed hand, a rules array,
    a query and a record buffer."""
    from numba import typeof, types

    from fastdou import kernels as K
    from fastdou.kernels.generate import lead_query
    from fastdou.rules import rules, rules_array
    return (types.uint64, typeof(rules_array(rules("classic"))), typeof(lead_query()),
            typeof(K.new_moves(1)))


def engine_parts():
    """What the engine compiles after the generator that does not call it, with the types
    the simulation passes: the moves' application (and through it bidding, doubling,
    scoring) and the built-in policies. This process compiles them while it waits for the
    helper; with other types they are compiled again when reached, as without the helper."""
    import numpy as np
    from numba import typeof, types

    from fastdou.kernels import engine, policies
    from fastdou.kernels.state import STATE_SIZE
    _, rules_array, _, moves = generator_signature()
    state = typeof(np.zeros(STATE_SIZE, np.int64))
    choice = (state, moves, types.int64, types.uint64)
    return [(engine.apply, (state, rules_array, types.UniTuple(types.uint64, 2), state)),
            (policies.random_policy, choice), (policies.greedy_policy, choice)]


def solver_parts():
    """What the solver's control check compiles after the generator that does not call it,
    with the types it passes: the closed-form answer counts (``moves.count_responses``)."""
    from numba import types

    from fastdou.kernels import answer_counts, counting
    _, rules_array, _, _ = generator_signature()
    u, i = types.uint64, types.int64
    return [(counting.count_leading, (u, rules_array)),
            (answer_counts._winged_answers, (u, rules_array, i, i, i, u)),
            (answer_counts._count_bombs_above, (u, rules_array, u, i, i))]


def game_parts():
    """What a ``Game`` compiles after the generator that does not call it, with the types
    its steps pass: an id's application to the state and its undo log, and the encoder."""
    from numba import types

    from fastdou.kernels import action_ids, encoding
    vector, n = types.Array(types.int64, 1, "C"), types.int64
    records = types.Array(types.uint64, 2, "C")
    return [(action_ids.push_id_logged,
             (vector, vector, records, vector, n, types.Array(types.int64, 2, "C"), n)),
            (encoding.encode, (vector, vector, n, types.Array(types.int8, 1, "C")))]


def compile_generator() -> None:
    """The helper's work: compile ``emit`` for the engine, which caches it (a signal stops
    it, but never in the middle of writing a cache file)."""
    from fastdou.interrupts import stopping
    with stopping():
        from fastdou.kernels.generate import emit
        emit.compile(generator_signature())


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                        # not on Linux
        return os.cpu_count() or 1


def cache_index(dispatcher) -> str | None:
    """The path of a cached dispatcher's index file in Numba's on-disk cache (there or not
    yet), or None when Numba's cache layout cannot be read."""
    try:
        return dispatcher._cache._cache_file._index_path
    except AttributeError:
        return None


def _helps(dispatcher) -> bool:
    """Whether a helper can save this process work: two cores or more, and the dispatcher
    has no cache file yet in a folder this process may write."""
    index = cache_index(dispatcher)
    if index is None or cores() < 2 or os.environ.get("FASTDOU_COMPILE_HELPER", "1") == "0":
        return False
    folder = os.path.dirname(index)
    return not os.path.exists(index) and os.access(folder if os.path.isdir(folder)
                                                   else os.path.dirname(folder), os.W_OK)


@contextmanager
def generator_from_helper(meanwhile=engine_parts, *, first: bool = False):
    """Within the block, the move generator's first compile waits for a helper process
    that compiles and caches it (started here), compiling ``meanwhile()``'s ``(dispatcher,
    argument types)`` until it is done, then loads it from the cache. With ``first`` the
    generator is compiled (or loaded) at the block's end if the block did not reach it:
    for a block that compiles only what comes before it. One helper at a time: a block
    opened while another is open leaves the generator to that one. Set
    ``FASTDOU_COMPILE_HELPER=0`` to compile everything in this process."""
    global _helper_open
    from fastdou.interrupts import on_hard_exit
    from fastdou.kernels.generate import emit
    with _HELPER_LOCK:
        own = not (_helper_open or emit.signatures) and _helps(emit)
        _helper_open = _helper_open or own
    if not own:                                   # compiled, cannot help, or helped already
        yield
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # this fastdou's
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    try:
        helper = subprocess.Popen([sys.executable, "-c", HELPER], env=dict(os.environ,
                                  PYTHONPATH=path), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except BaseException:
        _helper_open = False
        raise
    compile_here = emit.compile

    def compile_after_helper(sig):
        for dispatcher, args in meanwhile():       # what comes after it
            if helper.poll() is not None:
                break
            dispatcher.compile(args)
        try:
            helper.wait(WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        return compile_here(sig)

    emit.compile = compile_after_helper           # Numba's typing calls dispatcher.compile
    try:
        with on_hard_exit(helper.terminate):     # the helper ends after any cache write
            yield
            if first and not emit.signatures:
                emit.compile(generator_signature())
    finally:
        del emit.compile
        _stop(helper)
        _helper_open = False


def game_generator(rules):
    """A ``Game`` constructor's block: on its first classic game in a process, on an empty
    cache, the generator is compiled by the helper while the block and :func:`game_parts`
    compile here (the generator is what the game's legal moves need next); afterwards a
    context that does nothing (a constructor called in a loop pays no more)."""
    return _NOTHING if _game_checked or rules.wilds else _first_game()


@contextmanager
def _first_game():
    global _game_checked
    with generator_from_helper(game_parts, first=True):
        yield
    _game_checked = True


def _stop(helper) -> None:
    """End the helper: SIGTERM, which it obeys once a cache file being written is whole,
    then SIGKILL if it still runs."""
    if helper.poll() is None:
        helper.terminate()
        try:
            helper.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            helper.kill()
    helper.wait()
