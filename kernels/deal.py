"""Counter-based randomness: deal ``i`` of seed ``s`` is a pure function of ``(s, i)``, so
results never depend on threads, chunking or machines (the engine deals with it,
:func:`fastdou.kernels.engine.deal`).

The generator is SplitMix64 (Steele, Lea and Flood, 2014) keyed by seed and deal index.
"""

import numpy as np

from fastdou.kernels.jit import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@kernel
def mix64(z):
    """SplitMix64's finaliser: a bijective scramble of a ``uint64``."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
def stream(seed, index):
    """The starting state of the random stream of deal ``index`` under ``seed``."""
    return mix64(np.uint64(seed) ^ mix64(np.uint64(index) * _GOLDEN + _GOLDEN))


@kernel
def next_below(state, n):
    """``(value, state)``: a value uniform in ``0..n-1`` (n < 2**32) and the next state."""
    state = state + _GOLDEN
    v = mix64(state) >> np.uint64(32)
    return np.int64((v * np.uint64(n)) >> np.uint64(32)), state
