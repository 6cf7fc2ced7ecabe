"""Action ids with one wild rank (``kernels/wild_ids.py``): the sub-multiset numbering against
plain enumeration; every lead of random hands, under every wild rank, an id of its own that
gives the move back, its stand-ins the reference's canonical substitution; ids that are no
move under a wild rank say so."""

import itertools
import random

import numpy as np
import pytest
from numba import njit

import fastdou
from fastdou.kernels import wild as KW
from fastdou.kernels import wild_ids as WI
from fastdou.rules import rules_array
from tests.reference import laizi_oracle as LO

RULES = rules_array(fastdou.rules("classic"))
LAIZI = fastdou.rules("laizi")
TABLE = fastdou.action_table("classic")
KEYS, KEY_IDS, ID_RECORDS, _ = TABLE.kernel_args
SIZES = np.zeros(TABLE.n_plays, np.int64)
WI.block_sizes(ID_RECORDS[:TABLE.n_plays], SIZES)
OFFSETS = np.concatenate(([0], np.cumsum(SIZES))).astype(np.int64)
TOKENS = "3456789TJQKA2"


def scratch():
    return np.empty((KW.WILD_SCRATCH, 2), np.uint64)


def packed(counts):
    return np.uint64(sum(int(c) << (4 * r) for r, c in enumerate(counts)))


def subs_in_order(counts):
    """Every sub-multiset of at most 4 cards of ranks 3..2 of ``counts``, in lexicographic
    order of their counts, rank 3 first."""
    ranges = [range(min(c, 4) + 1) for c in counts[:13]]
    return [s for s in itertools.product(*ranges) if sum(s) <= 4]


def test_sub_multisets_are_numbered_in_order():
    rng = random.Random(3)
    deck = [r for r in range(15) for _ in range(4 if r < 13 else 1)]
    for _ in range(60):
        counts = [0] * 15
        for r in rng.sample(deck, rng.randint(0, 20)):
            counts[r] += 1
        cards = packed(counts)
        subs = subs_in_order(counts)
        assert WI.ways(cards) == len(subs)
        for i in sorted(rng.sample(range(len(subs)), min(25, len(subs)))):
            s = packed(subs[i] + (0, 0))
            assert WI.sub_index(cards, s) == i
            assert WI.sub_at(cards, np.int64(i)) == s


def random_hand(rng, size):
    deck = [r for r in range(15) for _ in range(4 if r < 13 else 1)]
    counts = [0] * 15
    for r in rng.sample(deck, size):
        counts[r] += 1
    return counts


@pytest.mark.parametrize("wild", range(13))
def test_every_lead_has_an_id_that_gives_it_back(wild):
    rng = random.Random(wild)
    buf = scratch()
    for _ in range(3):
        counts = random_hand(rng, 17)
        counts[wild] = max(counts[wild], rng.randint(1, 4))
        hand = "".join(TOKENS[r] * counts[r] for r in range(13)) + "B" * counts[13] + \
            "R" * counts[14]
        leads = fastdou.legal_moves(hand, rules=LAIZI, wild=TOKENS[wild])
        ids = []
        for m in leads:
            cards, info = m.record
            a = WI.wild_play_id(cards, info, wild, RULES, KEYS, KEY_IDS, OFFSETS, buf)
            assert a >= 0, m
            got = WI.wild_id_record(a, wild, RULES, KEYS, KEY_IDS, ID_RECORDS, OFFSETS, buf)
            assert got == (cards, info), (m, got)
            sub, stands = WI.canonical(cards, info, wild, RULES, buf)
            expected = sum(1 << (4 * t) for w, t in m.stands_for if w != t)
            assert int(stands) == expected, m
            ids.append(a)
        assert len(set(ids)) == len(ids) == len(leads)


def test_stand_ins_are_the_reference_substitution():
    rng = random.Random(7)
    buf = scratch()
    for wild in (0, 6, 12):
        counts = random_hand(rng, 9)
        counts[wild] = 3
        hand = "".join(TOKENS[r] * counts[r] for r in range(13)) + "B" * counts[13] + \
            "R" * counts[14]
        leads = list(fastdou.legal_moves(hand, rules=LAIZI, wild=TOKENS[wild]))
        for m in rng.sample(leads, min(15, len(leads))):
            ref = (tuple(int(c) for c in m.cards), m.kind.name, m.rank, m.length,
                   m.bomb_class)
            pairs = LO.substitution(ref, wild)
            cards, info = m.record
            _, stands = WI.canonical(cards, info, wild, RULES, buf)
            assert int(stands) == sum(1 << (4 * t) for w, t in pairs if w != t), m


def test_ids_with_no_move_under_a_wild_rank():
    buf = scratch()
    # the classic play 3 + 4 stand-ins is past a single card's block
    solo3 = TABLE.id(fastdou.Move.parse("3"))
    assert SIZES[solo3] == 2                        # no stand-in, or the 3 stood in for
    stood = OFFSETS[solo3] + 1                      # a wild card standing for the 3: alone,
    for wild in range(13):                          # it stands for itself: no move
        assert WI.wild_id_record(stood, wild, RULES, KEYS, KEY_IDS, ID_RECORDS, OFFSETS,
                                 buf) == (0, 0)
    for a in (-1, OFFSETS[-1], OFFSETS[-1] + 5):
        assert WI.wild_id_record(a, 4, RULES, KEYS, KEY_IDS, ID_RECORDS, OFFSETS,
                                 buf) == (0, 0)
    # a soft bomb of 5s with the 7 wild: its id, and no move when the 9 is wild
    bomb = fastdou.Move.parse("5557(5)", LAIZI, wild="7")
    cards, info = bomb.record
    a = WI.wild_play_id(cards, info, 4, RULES, KEYS, KEY_IDS, OFFSETS, buf)
    assert WI.wild_play_id(cards, info, 6, RULES, KEYS, KEY_IDS, OFFSETS, buf) == -1
    cards9, info9 = WI.wild_id_record(a, 6, RULES, KEYS, KEY_IDS, ID_RECORDS, OFFSETS, buf)
    assert fastdou.Move.from_record(np.array([cards9, info9], np.uint64), 1 << 6,
                                    LAIZI).text() == "5559(5)"


@njit
def _moves_with_ids(wild, rules, keys, key_ids, id_records, offsets, buf):
    n = 0
    for a in range(offsets[-1]):
        cards, _ = WI.wild_id_record(a, wild, rules, keys, key_ids, id_records, offsets, buf)
        n += cards != 0
    return n


# tests/reference/laizi_universe.py's counts of the move universe by wild rank
UNIVERSE = {0: 1_615_093, 4: 947_487, 12: 1_810_830}


@pytest.mark.parametrize("wild", sorted(UNIVERSE))
def test_the_ids_of_a_wild_rank_are_its_move_universe(wild):
    """The ids that are moves under a wild rank number exactly its move universe: with the
    round trip and distinct ids above, one id per move of the universe."""
    assert OFFSETS[-1] == 7_409_258
    assert _moves_with_ids(wild, RULES, KEYS, KEY_IDS, ID_RECORDS, OFFSETS,
                           scratch()) == UNIVERSE[wild]
