"""Batches (kernels/batch.py, fastdou.generate_batch): the one-generation batch gives, hand
by hand and in order, the records the per-hand generator gives, on every preset and kicker
profile, on the benchmark corpora and on random hands; the caller's reusable buffer gives
the same; threads never change a result."""

import mmap
import sys

import numba
import numpy as np
import pytest
from numba import njit

import fastdou
from tests.shared.rulesets import every_rules, random_hand, rules_id
from fastdou import kernels as K
from fastdou.errors import ArgumentError
from fastdou.kernels.batch import batch_offsets, fill_batch, generate_batch_into
from fastdou.kernels.huge_pages import advise_huge_pages
from fastdou.rules import rules_array
from tests.shared.counting_cases import concentrated, lasts_for, packed



@njit(cache=True)
def _per_hand(hands, lasts, rules, scratch):
    """The reference: each hand's responses one at a time, concatenated."""
    total = 0
    for i in range(hands.shape[0]):
        total += K.responses(hands[i], lasts[i], rules, scratch[:0])
    moves = np.empty((total, 2), np.uint64)
    offsets = np.zeros(hands.shape[0] + 1, np.int64)
    for i in range(hands.shape[0]):
        n = K.responses(hands[i], lasts[i], rules, scratch)
        moves[offsets[i]:offsets[i] + n] = scratch[:n]
        offsets[i + 1] = offsets[i] + n
    return moves, offsets


def batch_for(rules, rng, n=120):
    """Random and concentrated hands, each leading or answering a move of some kind."""
    top = rules.landlord_size
    hands = packed([random_hand(rng, rules, int(rng.integers(1, top + 1))) for _ in range(n)]
                   + [concentrated(rng, rules, int(rng.integers(4, top + 1)))
                      for _ in range(n)])
    pool = lasts_for(rules, hands, rng)
    lasts = pool[rng.integers(len(pool), size=len(hands))]
    return hands, lasts


def check_equal(hands, lasts, rules):
    want_moves, want_offsets = _per_hand(hands, lasts, rules_array(rules), K.new_moves(1 << 16))
    moves, offsets = K.generate_batch(hands, lasts, rules_array(rules))
    np.testing.assert_array_equal(offsets, want_offsets)
    np.testing.assert_array_equal(moves, want_moves)           # same records, same order
    np.testing.assert_array_equal(K.count_batch(hands, lasts, rules_array(rules)),
                                  np.diff(want_offsets))
    return want_moves, want_offsets


@pytest.mark.parametrize("rules", every_rules(), ids=rules_id)
def test_batch_equals_per_hand_generation(rules):
    rng = np.random.default_rng(every_rules().index(rules))
    check_equal(*batch_for(rules, rng), rules)


@pytest.mark.parametrize("rules", every_rules(), ids=rules_id)
def test_batch_on_benchmark_corpora(rules):
    from tests.shared.corpus import deals, response_positions
    d = deals(400, rules=rules.name).astype(np.int64)
    hands = np.concatenate([d[:, k] for k in range(rules.players)]
                           + ([d[:, 0] + d[:, -1]] if rules.landlord_gets_kitty else []))
    leads = K.pack_rows(hands.astype(np.uint8), np.empty(len(hands), np.uint64))
    check_equal(leads, np.zeros((len(leads), 2), np.uint64), rules)
    check_equal(*response_positions(400, rules=rules.name), rules)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("size", [300, 20])
def test_reused_buffer(threads, size):
    """generate_batch_into, one buffer call after call: the same records as per-hand
    generation, on 1 and 2 parts (streamed) and 3 (counted first), on numba's 1 or 2
    threads; too small a buffer: the offsets are still right and the total reported."""
    rules = fastdou.rules("classic")
    rng = np.random.default_rng(3)
    hands, lasts = batch_for(rules, rng, size)
    want_moves, want_offsets = check_equal(hands, lasts, rules)
    buf = K.new_moves(len(want_moves) + 7)
    offsets = np.empty(len(hands) + 1, np.int64)
    available = numba.get_num_threads()
    try:
        numba.set_num_threads(min(threads, available))
        for _ in range(2):
            buf[:] = 99
            assert generate_batch_into(hands, lasts, rules_array(rules), buf, offsets,
                                       threads) == len(want_moves)
            np.testing.assert_array_equal(offsets, want_offsets)
            np.testing.assert_array_equal(buf[:len(want_moves)], want_moves)
            assert (buf[len(want_moves):] == 99).all()
        small = K.new_moves(len(want_moves) // 2)
        offsets[:] = -1
        assert generate_batch_into(hands, lasts, rules_array(rules), small, offsets, threads) == \
            len(want_moves)
        np.testing.assert_array_equal(offsets, want_offsets)
        np.testing.assert_array_equal(
            fill_batch(hands, lasts, rules_array(rules), offsets, np.empty_like(want_moves)),
            want_moves)
    finally:
        numba.set_num_threads(available)
    assert batch_offsets(hands[:0], lasts[:0], rules_array(rules), offsets[:1]) == 0


def test_python_api_with_out():
    rules = fastdou.rules("four_player")
    rng = np.random.default_rng(4)
    counts = np.array([random_hand(rng, rules, 25) for _ in range(50)])
    moves, offsets = fastdou.generate_batch(counts, rules=rules)
    out = K.new_moves(len(moves) + 10)
    got, got_offsets = fastdou.generate_batch(counts, rules=rules, out=out)
    assert np.shares_memory(got, out)
    np.testing.assert_array_equal(got, moves)
    np.testing.assert_array_equal(got_offsets, offsets)
    got, _ = fastdou.generate_batch(counts, rules=rules, out=K.new_moves(3))   # too small
    np.testing.assert_array_equal(got, moves)
    for bad in (np.zeros((10, 2), np.int64), np.zeros((10, 3), np.uint64),
                np.zeros((2, 10), np.uint64).T, [[0, 0]]):
        with pytest.raises(ArgumentError, match="out must be"):
            fastdou.generate_batch(counts, rules=rules, out=bad)


def _vm_flags(address):
    """The VmFlags of this process's mapping holding ``address`` (Linux's smaps)."""
    with open("/proc/self/smaps") as f:
        inside = False
        for line in f:
            head = line.split()[0]
            if "-" in head and ":" not in head:
                lo, hi = (int(x, 16) for x in head.split("-"))
                inside = lo <= address < hi
            elif inside and head == "VmFlags:":
                return line.split()[1:]
    raise AssertionError("no mapping holds the array")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="madvise is Linux's")
def test_advise_huge_pages():
    """``advise_huge_pages`` gives an array of 4 MB or more the huge-page advice numpy gives its
    own ("hg" in the mapping's flags), and leaves a smaller one alone. Each array is a fresh
    anonymous mapping of its own: memory from malloc may already carry numpy's advice."""
    def fresh(size):
        region = mmap.mmap(-1, size)
        array = np.frombuffer(region, np.uint64).reshape(-1, 2)
        assert "hg" not in _vm_flags(array.ctypes.data)
        advise_huge_pages(array)
        return "hg" in _vm_flags(array.ctypes.data + array.nbytes // 2)
    assert fresh(8 << 20)
    assert not fresh(2 << 20)
