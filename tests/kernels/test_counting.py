"""Counting without building (kernels/counting.py, answer_counts.py, and the chain_counts.py
and bomb_counts.py they share) against generation: the closed forms equal ``len`` of the
generated moves for every preset, kicker profile and some house rules, on random,
concentrated and crafted hands, for leads, responses to a move of every kind the generator
can produce (thousands of random positions, bombs included), records it never makes (any
kind id, rank, chain length), and random ``emit`` filters (kind, length, size, rank, bomb
power). The generator (``responses``, ``emit``) is the reference."""


import numpy as np
import pytest
from numba import njit

import fastdou
from tests.shared.rulesets import every_rules, random_hand, rules_id
from fastdou import kernels as K
from fastdou.kernels.chain_counts import binomial
from fastdou.kernels.counting import count_moves
from fastdou.kernels.generate import emit, query
from fastdou.rules import rules_array
from fastdou.kernels.layout import (
    BOMB, JOKER_BOMBS_ALL, JOKER_BOMBS_ANY, N_KINDS, R_BOMB_MIN, R_JOKER_BOMBS, R_KINDS, ROCKET,
)
from tests.shared.counting_cases import concentrated, lasts_for, packed


HOUSE = [fastdou.rules("classic", wing_trio="never"),
         fastdou.rules("classic", bomb_wings=True, wing_trio="never"),
         fastdou.rules("classic", rocket_kickers=True),
         fastdou.rules("classic", joker_bombs="lone"),
         fastdou.rules("classic", bomb_min=3, bomb_order="rank"),
         fastdou.rules("classic", chain_low=0, chain_high=10, solo_chain_min=3,
                       pair_chain_min=2),
         fastdou.rules("four_player", bomb_min=6, joker_bombs="any"),
         fastdou.rules("four_player", bomb_min=5, bomb_max=7),
         fastdou.rules("five_player", joker_pairs=True),
         fastdou.rules("emperor", bomb_order="rank", bomb_min=5, bomb_max=5)]
ALL_RULES = every_rules() + HOUSE


@njit(cache=True)
def _mismatch(hands, lasts, rules, scratch):
    """First (hand, last) index pair where a count differs from the generator's: count_leading
    and count_responses against ``len`` of the moves written. (-1, -1) if none."""
    for i in range(hands.shape[0]):
        n = K.leading_moves(hands[i], rules, scratch)
        if n > scratch.shape[0] or K.count_leading(hands[i], rules) != n:
            return i, -1
        for j in range(lasts.shape[0]):
            n = K.responses(hands[i], lasts[j], rules, scratch)
            if n > scratch.shape[0] or K.count_responses(hands[i], lasts[j], rules) != n:
                return i, j
    return -1, -1


@njit(cache=True)
def _pair_mismatch(hands, lasts, rules, scratch):
    """First i where count_responses(hands[i], lasts[i]) differs from ``len`` of
    responses(hands[i], lasts[i]); -1 if none."""
    for i in range(hands.shape[0]):
        n = K.responses(hands[i], lasts[i], rules, scratch)
        if n > scratch.shape[0] or K.count_responses(hands[i], lasts[i], rules) != n:
            return i
    return -1


@njit(cache=True)
def _filter_mismatch(hands, queries, rules, scratch):
    """First (hand, query) where ``count_moves`` differs from ``emit`` under random filters."""
    for i in range(hands.shape[0]):
        for j in range(queries.shape[0]):
            q = query(queries[j, 0], queries[j, 1], queries[j, 2], queries[j, 3],
                      queries[j, 4], queries[j, 5])
            if count_moves(hands[i], rules, q) != emit(hands[i], rules, q, scratch[:0]):
                return i, j
    return -1, -1


def hands_for(rules, rng, n):
    """Random hands of every size up to the landlord's, and as many concentrated ones."""
    top = rules.landlord_size
    out = [random_hand(rng, rules, int(rng.integers(1, top + 1))) for _ in range(n)]
    out += [concentrated(rng, rules, int(rng.integers(4, top + 1))) for _ in range(n)]
    return packed(out)


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_counts_equal_generation(rules):
    rng = np.random.default_rng(ALL_RULES.index(rules))
    hands = hands_for(rules, rng, 150)
    lasts = lasts_for(rules, hands, rng)
    assert len(lasts) > 10
    scratch = K.new_moves(1 << 16)
    i, j = _mismatch(hands, lasts, rules_array(rules), scratch)
    assert i < 0, (fastdou.cards.to_text(K.unpack(hands[i], np.zeros(15, np.uint8))),
                   None if j < 0 else fastdou.Move.from_record(lasts[j]))


def positions(rules, rng, n):
    """``n`` random positions ``(hands, lasts)``: a hand (random or concentrated), and a
    last move of a kind drawn uniformly among those other hands can play (bombs, rockets
    and every chain length included), then uniformly among that kind's moves."""
    hands = hands_for(rules, rng, n // 2)
    pool = hands_for(rules, rng, 300)
    moves, _ = K.generate_batch(pool, np.zeros((len(pool), 2), np.uint64), rules_array(rules))
    kinds = (moves[:, 1] & np.uint64(255)).astype(np.int64)
    present = np.unique(kinds)
    pick = rng.choice(present, len(hands))
    lasts = np.empty((len(hands), 2), np.uint64)
    for k in present:
        at = np.flatnonzero(pick == k)
        lasts[at] = moves[rng.choice(np.flatnonzero(kinds == k), len(at))]
    return hands, lasts, set(present.tolist())


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_responses_of_random_positions(rules):
    """4,000 positions of each rule set, every kind the deck can lead as the last move
    (the kinds the rules enable, the bombs of every size and the joker bombs among them)."""
    rng = np.random.default_rng(200 + ALL_RULES.index(rules))
    hands, lasts, present = positions(rules, rng, 4000)
    a = rules.array
    assert {k for k in range(1, N_KINDS) if a[R_KINDS] >> k & 1} <= present
    assert (a[R_BOMB_MIN] > 0) <= (BOMB in present)
    assert (a[R_JOKER_BOMBS] in (JOKER_BOMBS_ALL, JOKER_BOMBS_ANY)) <= (ROCKET in present)
    i = _pair_mismatch(hands, lasts, rules_array(rules), K.new_moves(1 << 16))
    assert i < 0, (fastdou.cards.to_text(K.unpack(hands[i], np.zeros(15, np.uint8))),
                   fastdou.Move.from_record(lasts[i]))


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_responses_to_any_record(rules):
    """Records the generator never makes: any kind id (enabled or not, pass and bombs
    included), rank and chain length (0: any length), on the cards of another move."""
    rng = np.random.default_rng(300 + ALL_RULES.index(rules))
    hands, lasts, _ = positions(rules, rng, 2000)
    n = len(hands)
    info = rng.integers(0, 21, n) | rng.integers(0, 16, n) << 8 | \
        rng.choice([0, 1, 1, 2, 3, 4, 5, 6, 8, 12, 16], n) << 16
    lasts[:, 1] = info.astype(np.uint64)
    i = _pair_mismatch(hands, lasts, rules_array(rules), K.new_moves(1 << 16))
    assert i < 0, (fastdou.cards.to_text(K.unpack(hands[i], np.zeros(15, np.uint8))),
                   hex(int(lasts[i, 1])))


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_counts_under_random_filters(rules):
    """Every filter of ``emit``: one kind or all, a chain length, a card count, a rank (and a
    spaceship's second rank), a bomb power."""
    rng = np.random.default_rng(100 + ALL_RULES.index(rules))
    hands = hands_for(rules, rng, 60)
    n = 400
    kinds = rng.choice([-1, 0] + list(range(1, 21)), n)
    q = np.stack([kinds, rng.choice([0, 0, 1, 2, 3, 4, 5, 6], n),
                  rng.choice([0, 0, 0] + list(range(1, 21)), n), rng.integers(-1, 15, n),
                  rng.integers(-1, 13, n),
                  rng.choice([-1, 1 << 40, 20, 70, 100, 150, (1 << 20) - 1], n)], axis=1)
    i, j = _filter_mismatch(hands, q.astype(np.int64), rules_array(rules), K.new_moves(1))
    assert i < 0, (fastdou.cards.to_text(K.unpack(hands[i], np.zeros(15, np.uint8))),
                   q[j].tolist())


CRAFTED = {
    "classic": ["333444555666", "3334445557", "33344455566677", "333444555666777888",
                "333444555666777888999T", "3334442BR", "22223333BR", "3333444455",
                "3333444455556666", "34567789TJQKA2", "33445566778899TTJJQQKK", "BR",
                "QQQKKKAAA222", "333444BR", "33334444", "333444555666777BR"],
    "four_player": ["3333333344444444BBRR", "333444555666777888BBRR", "33334444555566667777",
                    "KKKKKKKKAAAAAAAA2222BR"],
    "five_player": ["BBRR", "BBR", "33333333BBRR", "333444555666BBR"],
    "emperor": ["3333444455556666777888999", "33334444555666777TTJJ", "33333333BBRR",
                "3333444455556666777788889999"],
    "jinling": ["BR", "333BR", "3334445556667", "22BR"],
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_crafted_hands(name):
    """Planes with wings, multi-card bombs, joker bombs, jinling's lone jokers, and every
    reply to each of the hand's own moves."""
    profiles = ("standard", "openspiel", "douzero") if name == "classic" else (None,)
    for profile in profiles:
        rules = fastdou.rules(name, profile=profile)
        hands = packed([fastdou.cards.parse(t, rules) for t in CRAFTED[name]])
        moves, _ = K.generate_batch(hands, np.zeros((len(hands), 2), np.uint64),
                                    rules_array(rules))
        lasts = np.concatenate([np.zeros((1, 2), np.uint64), moves])
        i, j = _mismatch(hands, lasts, rules_array(rules), K.new_moves(1 << 16))
        assert i < 0, (CRAFTED[name][i], profile, j)


@pytest.mark.parametrize("rules", every_rules(), ids=rules_id)
def test_benchmark_corpora(rules):
    """The seeded corpora the benchmarks time: every hand's count, and count_batch, equal
    the number of moves generated."""
    from tests.shared.corpus import deals, response_positions
    name = rules.name
    profile = rules.profile if name == "classic" else None
    d = deals(500, rules=name).astype(np.int64)
    seats = [d[:, k] for k in range(rules.players)]
    if rules.landlord_gets_kitty:
        seats.append(d[:, 0] + d[:, -1])
    scratch = K.new_moves(1 << 16)
    for counts in seats:
        hands = K.pack_rows(counts.astype(np.uint8), np.empty(len(counts), np.uint64))
        i, _ = _mismatch(hands, np.zeros((0, 2), np.uint64), rules_array(rules), scratch)
        assert i < 0, (profile, i)
    hands, lasts = response_positions(500, rules=name)
    counts = K.count_batch(hands, lasts, rules_array(rules))
    _, offsets = K.generate_batch(hands, lasts, rules_array(rules))
    assert counts.tolist() == np.diff(offsets).tolist(), profile


def test_binomial():
    from math import comb
    assert [binomial(n, k) for n in range(16) for k in range(-1, 18)] == \
        [comb(n, k) if k >= 0 else 0 for n in range(16) for k in range(-1, 18)]
