"""``moves.responses`` runs only the generator a response query reaches (``_answers``): it
must give ``emit``'s records, in ``emit``'s order, for every preset and profile."""

import numpy as np
import pytest
from numba import njit

import fastdou
from fastdou import kernels as K
from fastdou.kernels.generate import emit
from fastdou.kernels.moves import response_query
from fastdou.rules import PROFILES, rules_array


@njit
def _mismatch(hands, rules, out, a, b, picks):
    """Answer a move picked from each hand's leads with every hand, both ways; returns the
    first (hand, last) index pair that differs, or (-1, -1), and the lasts tried."""
    tried = 0
    for i in range(hands.shape[0]):
        c = K.leading_moves(hands[i], rules, out)
        if c == 0:
            continue
        last = (out[picks[i] % c, 0], out[picks[i] % c, 1])
        tried += 1
        for j in range(hands.shape[0]):
            n = K.responses(hands[j], last, rules, a)
            m = emit(hands[j], rules, response_query(last, rules), b)
            if n != m:
                return i, j, tried
            for k in range(min(n, a.shape[0])):
                if a[k, 0] != b[k, 0] or a[k, 1] != b[k, 1]:
                    return i, j, tried
    return -1, -1, tried


# the classic generator's rules (wild cards: tests/kernels/test_wild_moves.py)
CASES = [(name, None) for name in fastdou.PRESETS if not fastdou.rules(name).wilds] + \
    [("classic", p) for p in PROFILES]


@pytest.mark.parametrize("preset,profile", CASES)
def test_responses_are_emits_records_in_order(preset, profile):
    r = fastdou.rules(preset) if profile is None else fastdou.rules(preset, profile=profile)
    rng = np.random.default_rng(7)
    deck = np.repeat(np.arange(15), r.deck)
    hands = np.array([K.pack(np.bincount(rng.permutation(deck)[:int(rng.integers(1, 40))],
                                         minlength=15)) for _ in range(150)], np.uint64)
    out, a, b = (K.new_moves(1 << 16) for _ in range(3))
    i, j, tried = _mismatch(hands, rules_array(r), out, a, b, rng.integers(0, 1 << 30, len(hands)))
    assert (i, j) == (-1, -1), f"hand {j} answering a lead of hand {i}"
    assert tried > 100
