"""Fixtures shared by every test; helpers live in tests/shared (importable by benchmarks too)."""

import os

import numpy as np
import pytest

# compile notices are read in subprocesses that drop this; in-process tests read stderr whole
os.environ["FASTDOU_QUIET"] = "1"


@pytest.fixture
def rng():
    return np.random.default_rng(20261130)
