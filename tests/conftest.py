"""Shared helpers: the rule sets under test, random hands, generator output as oracle tuples."""

import os
import sys

import numpy as np
import pytest

import fastdou
from fastdou import kernels as K

sys.path.insert(0, os.path.dirname(__file__))
# compile notices are read in subprocesses that drop this; in-process tests read stderr whole
os.environ["FASTDOU_QUIET"] = "1"

SLOW = os.environ.get("FASTDOU_SLOW") == "1"

CLASSIC_PROFILES = ("standard", "openspiel", "douzero")
PRESETS = tuple(fastdou.PRESETS)


def every_rules():
    """The three classic profiles and every other preset."""
    out = [fastdou.rules("classic", profile=p) for p in CLASSIC_PROFILES]
    out += [fastdou.rules(name) for name in PRESETS if name != "classic"]
    return out


_ORACLE_UNIVERSES = {}


def oracle_universe(rules):
    """The oracle's one-deck move universe of ``rules``, built once per test run (several
    test modules check against it)."""
    import oracle
    if rules not in _ORACLE_UNIVERSES:
        _ORACLE_UNIVERSES[rules] = oracle.one_deck_universe(rules)
    return _ORACLE_UNIVERSES[rules]


def rules_id(r):
    return r.name if r.name != "classic" else f"classic-{r.profile}"


def random_hand(rng, rules, size):
    """A uniformly random ``size``-card hand from the rules' deck, as 15 uint8 counts."""
    deck = np.repeat(np.arange(15), rules.deck)
    picked = rng.choice(deck, size, replace=False)
    return np.bincount(picked, minlength=15).astype(np.uint8)


def as_tuples(records):
    """Kernel records -> the oracle's set of (cards, kind_name, rank, length)."""
    out = set()
    for m in (fastdou.Move.from_record(r) for r in records):
        out.add((tuple(int(c) for c in m.cards), m.kind.name, m.rank, m.length))
    return out


def as_record(move_tuple):
    """An oracle tuple -> a kernel record."""
    cards, kind, rank, length = move_tuple
    return fastdou.Move(fastdou.cards.pack(cards), fastdou.Kind[kind], rank, length).record


def generated(hand, rules, last=None):
    """The generator's moves (leading, or beating oracle tuple ``last``) as oracle tuples."""
    packed = np.uint64(fastdou.cards.pack(hand))
    record = fastdou.Move.PASS.record if last is None else as_record(last)
    out = K.new_moves(K.count_responses(packed, record, rules.array))
    n = K.responses(packed, record, rules.array, out)
    assert n == out.shape[0]
    moves = as_tuples(out)
    assert len(moves) == n, "the generator emitted a move twice"
    return moves


@pytest.fixture
def rng():
    return np.random.default_rng(20261130)
