"""The one place that sets the kernels' Numba options.

``kernel``: every public kernel (cached to disk). ``uncached_kernel``: a kernel that holds
a first-class function as a constant, which Numba cannot cache. ``leaf``: small helpers that
take arrays but never allocate; compiled without reference counting, which otherwise costs
two atomic operations on every call that passes an array (measured: 3x slower move
emission).
``inline_kernel`` / ``inline_leaf``: the same, but inlined into every caller at Numba IR
level: the game loop's per-action steps (legal actions, apply, the policy's choice) and the
generator's and the counter's per-kind helpers (typed in the caller, so that a literal
argument is a constant to LLVM). A call between compiled functions passes each array
unpacked (seven or nine words) and returns through memory, which cost more than most
actions' own work (measured: random self-play 1.4x faster with them inlined); each caller
compiles its own copy, so a cold start compiles longer. ``inline_nrt_kernel``: an
``nrt_kernel`` inlined the same way (``play.play_into`` in the simulation loop: each
compiled function a caller links is optimized again with it, so a call level less is
compile time saved; measured about 3 s of a cold start).
``first_class_kernel`` / ``first_class_leaf``: a function passed as a first-class function
value (a policy, a ``VectorEnv`` encoder: Numba's ``FunctionType``), which needs the C
wrapper Numba otherwise builds for every compiled function; every other kernel goes without
(``no_cfunc_wrapper``: measured about 2 s of a 38 s cold start), and passing one as a
first-class value raises Numba's ValueError.
``_nrt`` is a private Numba option (the one its own gufunc wrappers use); if a Numba
release drops it, ``leaf = kernel`` is the drop-in fallback, at that cost in speed.

A ``kernel`` is compiled with its first caller's reference counting, and Numba keys the
compiled (and disk-cached) versions by argument types alone. That is safe for a function
that returns no array; one that returns an array it was given (or a view of it), compiled
first for a ``leaf`` caller (no count taken) and then handed to a counting caller (which
releases what it is given), freed the array under its owner: a ``VectorEnv`` run followed
by ``simulate`` corrupted the heap that way. So a kernel that returns an array, or
allocates and is reached from a leaf, is an ``nrt_kernel``: counted always
(tests/kernels/test_refcount_flags.py checks every compiled function against this).
"""

import numba
from numba import njit

from fastdou.compiling.numba_cache import durable_cache
import fastdou.compiling.compile_notice  # noqa: F401  (says on stderr when kernels compile)


def _cache_probe():
    """Never compiled: where Numba would cache a kernel of this folder."""


# Damaged cache entries recompiled, a read-only NUMBA_CACHE_DIR read; False when there is no
# folder to cache in at all (a warning), so that the kernels compile without the disk cache.
CACHE = durable_cache(_cache_probe)
kernel = njit(cache=CACHE, no_cfunc_wrapper=True)
inline_kernel = njit(cache=CACHE, no_cfunc_wrapper=True, inline="always")
uncached_kernel = njit(_nrt=True, no_cfunc_wrapper=True)
parallel_kernel = njit(cache=CACHE, no_cfunc_wrapper=True, parallel=True, _nrt=True)
leaf = njit(cache=CACHE, no_cfunc_wrapper=True, _nrt=False)
inline_leaf = njit(cache=CACHE, no_cfunc_wrapper=True, _nrt=False, inline="always")
nrt_kernel = njit(cache=CACHE, no_cfunc_wrapper=True, _nrt=True)
inline_nrt_kernel = njit(cache=CACHE, no_cfunc_wrapper=True, _nrt=True, inline="always")
first_class_kernel = njit(cache=CACHE)
first_class_leaf = njit(cache=CACHE, _nrt=False)
# Entry points that run long: they release the GIL, so that a Python timer thread can ask
# them to stop (the solver polls a flag array), or Python threads run several at once.
nogil_kernel = njit(cache=CACHE, no_cfunc_wrapper=True, nogil=True, _nrt=True)
parallel_nogil_kernel = njit(cache=CACHE, no_cfunc_wrapper=True, parallel=True, nogil=True,
                             _nrt=True)
# The options of ``@overload`` implementations, which return no array: reached from leaves
# only (uncounted), or from either (with the caller's counting, as a ``kernel``).
LEAF_OVERLOAD = {"cache": CACHE, "_nrt": False, "no_cfunc_wrapper": True}
VOID_OVERLOAD = {"cache": CACHE, "no_cfunc_wrapper": True}

# Numba starts its thread pool when a parallel kernel is compiled, or loaded from the cache
# through its own dispatcher; not when a cached kernel that calls one (``generate_batch``,
# ``fill_batch``, ``generate_batch_into``, or a user's own ``@njit`` code) is loaded from a
# cache where the parallel kernel was compiled by another process. Its first parallel region
# then ran with no pool and crashed the interpreter (Numba issues 4807 and 8578;
# tests/infrastructure/test_cache_order.py). So the pool starts here, once, before any kernel runs (7 ms).
numba.get_num_threads()
