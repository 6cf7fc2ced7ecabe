"""``@njit`` policies that tests name by import path (``tests.shared.policies:NAME``), as the
command line and Dask workers do."""

from numba import njit


@njit
def first_listed(state, actions, n, rng):
    """Always the first legal action: pass when bidding or when passing is legal."""
    return 0, rng


@njit
def last_listed(state, actions, n, rng):
    """Always the last legal action: the highest bid, the last listed move."""
    return n - 1, rng


@njit
def raises_in_play(state, actions, n, rng):
    """Passes a policy's trial call (two actions), then raises once a seat has more."""
    if n > 2:
        raise ValueError("in play")
    return 0, rng
