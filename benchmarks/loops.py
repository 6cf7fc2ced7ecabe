"""The timed loops: single-threaded ``@njit`` loops over a corpus, calling the public kernels
exactly as a user's own ``@njit`` code would, plus the same-run baseline."""

from numba import njit

from fastdou import kernels as K


@njit(cache=True)
def lead_all(hands, rules, out):
    """Generate every leading move of every hand; returns the total number of moves."""
    total = 0
    for i in range(hands.shape[0]):
        n = K.leading_moves(hands[i], rules, out)
        if n > out.shape[0]:
            raise ValueError("benchmark buffer too small")
        total += n
    return total


@njit(cache=True)
def count_lead_all(hands, rules):
    total = 0
    for i in range(hands.shape[0]):
        total += K.count_leading(hands[i], rules)
    return total


@njit(cache=True)
def respond_all(hands, lasts, rules, out):
    """Generate every response of every position; returns the total number of moves."""
    total = 0
    for i in range(hands.shape[0]):
        n = K.responses(hands[i], lasts[i], rules, out)
        if n > out.shape[0]:
            raise ValueError("benchmark buffer too small")
        total += n
    return total


@njit(cache=True)
def copy_all(moves, offsets, out):
    """Baseline: copy each hand's precomputed records into the buffer, as generation writes
    them. Generation time over this time is the cost of finding the moves."""
    total = 0
    for i in range(offsets.shape[0] - 1):
        lo = offsets[i]
        n = offsets[i + 1] - lo
        for j in range(n):
            out[j, 0] = moves[lo + j, 0]
            out[j, 1] = moves[lo + j, 1]
        total += n
    return total
