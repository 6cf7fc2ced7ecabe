"""Gate: the compiled generator against the naive oracle on the same 12-card hands."""

import time

import numpy as np

import fastdou
from benchmarks.loops import best_time
from tests.shared.corpus import deals
from fastdou import kernels as K
from fastdou.rules import rules_array
from benchmarks.loops import lead_all

from tests.reference import oracle  # noqa: E402


def test_kernel_over_oracle():
    rules = fastdou.rules("classic")
    d = deals(40, seed=1)
    hands = d[:, 0].copy()
    hands[:, :] = 0
    for i in range(len(hands)):             # the first 12 cards of each hand, low to high
        left = 12
        for r in range(15):
            take = min(int(d[i, 0, r]), left)
            hands[i, r] = take
            left -= take
    packed = K.pack_rows(hands, np.empty(len(hands), np.uint64))
    out = K.new_moves(1 << 12)
    lead_all(packed[:2], rules_array(rules), out)
    t_kernel, total = best_time(lead_all, packed, rules_array(rules), out)
    start = time.perf_counter()
    expected = sum(len(oracle.leading_moves(h, rules)) for h in hands)
    t_oracle = time.perf_counter() - start
    assert total == expected
    ratio = t_oracle / t_kernel
    print(f"\nkernel is {ratio:,.0f}x the naive oracle on 12-card hands")
    assert ratio > 1000
