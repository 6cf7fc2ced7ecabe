"""Generator output in the oracle's terms: moves as (cards, kind name, rank, length) tuples,
and the oracle's move universes built once per test run."""
import numpy as np

import fastdou
from fastdou import kernels as K
from fastdou.rules import rules_array
from tests.reference import oracle

_ORACLE_UNIVERSES = {}


def oracle_universe(rules):
    """The oracle's one-deck move universe of ``rules``, built once per test run (several
    test modules check against it)."""
    if rules not in _ORACLE_UNIVERSES:
        _ORACLE_UNIVERSES[rules] = oracle.one_deck_universe(rules)
    return _ORACLE_UNIVERSES[rules]


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
    out = K.new_moves(K.count_responses(packed, record, rules_array(rules)))
    n = K.responses(packed, record, rules_array(rules), out)
    assert n == out.shape[0]
    moves = as_tuples(out)
    assert len(moves) == n, "the generator emitted a move twice"
    return moves
