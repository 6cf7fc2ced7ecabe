"""The solver's limits: its tables' memory is checked before they are allocated,
and ``time_limit`` counts the tables' set-up, which is stoppable. Times here are only ever
lower bounds of sleeps the test makes itself; the limit's accuracy is measured, not
asserted (see the benchmarks)."""

import time

import numpy as np
import pytest

import fastdou
from fastdou import Position
from fastdou import solver as SV
from fastdou.errors import FastdouError
from fastdou.kernels import solver as K

LEVEL_50 = Position(["448999TJJQQAR", "336688TAA22B"])          # 20-odd root actions
HARD = Position(["3345667899TJQKA2B", "34557889TJQKKA22R"])     # far beyond 0.1 s


@pytest.fixture(autouse=True)
def no_spare_table():
    """Each test starts and ends without a kept table (they would reuse its memory)."""
    SV._spare.clear()
    yield
    SV._spare.clear()


def test_threads_times_table_checked_before_allocating(monkeypatch):
    monkeypatch.setattr("fastdou.memory.available", lambda: 16 * 10 ** 9)
    with pytest.raises(FastdouError, match=r"8 threads.*needs 35\.4 GB, 16\.0 GB available"):
        fastdou.solve(LEVEL_50, threads=8, table_size=2 ** 27)


def test_two_threads_of_large_tables_refused_on_a_small_machine(monkeypatch):
    monkeypatch.setattr("fastdou.memory.available", lambda: 4 * 10 ** 9)
    with pytest.raises(FastdouError, match=r"2 threads.*needs \d+\.\d GB, 4\.0 GB "
                                           r"available"):
        fastdou.solve(LEVEL_50, threads=2, table_size=2 ** 27)


def test_table_within_memory_still_solves(monkeypatch):
    monkeypatch.setattr("fastdou.memory.available", lambda: 10 ** 9)
    sol = fastdou.solve(LEVEL_50)
    assert sol.landlord_wins is True


def test_time_limit_counts_the_table_set_up(monkeypatch):
    """A set-up longer than the limit: the search never starts (the clock started first)."""
    take = SV._take_table

    def slow(*args):
        time.sleep(0.3)
        return take(*args)
    monkeypatch.setattr(SV, "_take_table", slow)
    sol = fastdou.solve(HARD, time_limit=0.05)
    assert sol.landlord_wins is None and sol.line is None
    assert sol.nodes == 0
    assert sol.seconds >= 0.3


def test_set_up_stops_when_the_flag_is_set():
    keys = np.ones((1, 1 << 16, 4), np.uint64)
    vals = np.ones((1, 1 << 16), np.uint8)
    ctl = np.zeros((1, K.CTL_SIZE), np.int64)
    ctl[:, K.C_STOP] = 1
    assert SV._set_up(keys, vals, True, True, True, ctl) is False
    assert vals.all()                                  # stopped before clearing anything
    ctl[:, K.C_STOP] = 0
    assert SV._set_up(keys, vals, True, True, True, ctl) is True
    assert not vals.any()                              # a reused table's values cleared


def test_set_up_is_done_in_chunks_that_poll(monkeypatch):
    """The flag set while setting up a fresh table stops it at the next chunk."""
    monkeypatch.setattr(SV, "_CHUNK", 1 << 12)
    keys = np.empty((1, 1 << 16, 4), np.uint64)
    vals = np.zeros((1, 1 << 16), np.uint8)
    ctl = np.zeros((1, K.CTL_SIZE), np.int64)
    chunks = []

    class Flag(np.ndarray):
        """A ctl whose stop flag reads set from the third look on."""
        def __getitem__(self, item):
            if item == (0, K.C_STOP):
                chunks.append(1)
                return int(len(chunks) > 2)
            return super().__getitem__(item)
    assert SV._set_up(keys, vals, False, False, True, ctl.view(Flag)) is False
    assert len(chunks) == 3


def test_repeated_solves_with_a_limit_still_answer():
    for _ in range(2):
        sol = fastdou.solve(LEVEL_50, time_limit=60, table_size=2 ** 16)
        assert sol.landlord_wins is True and sol.winning_moves == (fastdou.Move.parse("8"),)
