"""The one place that sets the kernels' Numba options.

``kernel``: every public kernel (cached to disk). ``uncached_kernel``: a kernel that holds
a first-class function as a constant, which Numba cannot cache. ``leaf``: small helpers that
take arrays but never allocate; compiled without reference counting, which otherwise costs
two atomic operations on every call that passes an array (measured: 3x slower move
emission).
``_nrt`` is a private Numba option (the one its own gufunc wrappers use); if a Numba
release drops it, ``leaf = kernel`` is the drop-in fallback, at that cost in speed.
"""

from numba import njit

kernel = njit(cache=True)
uncached_kernel = njit
parallel_kernel = njit(cache=True, parallel=True)
leaf = njit(cache=True, _nrt=False)
# Numba compiles a function's callees with the caller's reference-counting flag unless they
# set one, so a ``leaf`` caller compiles the ``kernel`` functions it reaches without it. A
# kernel that may allocate and is reached from a leaf is an ``nrt_kernel``: counted always
# (``action_ids.engine_apply``; ``engine.deck_buffer`` is an overload for the same reason).
nrt_kernel = njit(cache=True, _nrt=True)
# Entry points that run long (the solver): they release the GIL, so that a Python timer
# thread can ask them to stop (they poll a flag array).
nogil_kernel = njit(cache=True, nogil=True)
parallel_nogil_kernel = njit(cache=True, parallel=True, nogil=True)
