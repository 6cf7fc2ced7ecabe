"""The generator against the naive oracle (tests/reference/oracle.py): leading moves and responses,
on random hands of every size and on crafted hands, for every classic kicker profile."""

import numpy as np
import pytest

import fastdou
from fastdou.rules import rules_array
from tests.reference import oracle
from tests.shared.rulesets import CLASSIC_PROFILES, SLOW, random_hand
from tests.shared.as_oracle import as_record, generated

# Hands per size: the oracle's cost grows fast with the size, so 15- to 20-card hands are
# checked by test_universe.py (the oracle's universe filtered to the hand, 150 hands a rule
# set at 20 cards) and here only in the slow run.
HANDS_PER_SIZE = {**{s: 60 for s in range(1, 11)}, **{s: 15 for s in range(11, 15)},
                  **{s: 3 for s in range(15, 21)}}
if SLOW:
    HANDS_PER_SIZE = {s: 5 * n for s, n in HANDS_PER_SIZE.items()}


@pytest.mark.parametrize("profile", CLASSIC_PROFILES)
@pytest.mark.parametrize("size", range(1, 21 if SLOW else 15))
def test_random_hands_lead_and_respond(profile, size):
    rules = fastdou.rules("classic", profile=profile)
    rng = np.random.default_rng(1000 * size + CLASSIC_PROFILES.index(profile))
    for _ in range(HANDS_PER_SIZE[size]):
        hand = random_hand(rng, rules, size)
        expected = oracle.leading_moves(hand, rules)
        assert generated(hand, rules) == expected, fastdou.cards.to_text(hand)
        # Responses to a move of another hand and to one of this hand's own moves.
        other = sorted(generated(random_hand(rng, rules, 17), rules))
        own = sorted(expected)
        for last in (other[rng.integers(len(other))], own[rng.integers(len(own))]):
            want = {m for m in expected if oracle.beats(m, last, rules)}
            assert generated(hand, rules, last) == want, (fastdou.cards.to_text(hand), last)


CRAFTED = [
    "333444555666",            # a four-trio chain, or planes carrying a wing trio
    "3334445557",              # a plane next to a wing trio's rank
    "33344455566677",          # wing trio inside and outside the chain
    "333444555666777888",      # long trio chains
    "333444555666777888999T",  # more than 20 cards of chains (max_move)
    "3334442BR",               # 2s and jokers as kickers, the rocket as wings
    "22223333BR",              # bombs with jokers as kickers
    "3333444455",              # four-with-two carrying a pair, two bombs
    "3333444455556666",        # bombs split into chains
    "34567789TJQKA2",          # long solo chains, 2 outside the chain
    "33445566778899TTJJQQKK",  # pair chains, capped by 20 cards
    "BR",                      # the rocket alone
    "AAA222BR",                # trio of 2s, 2 never in a chain
    "QQQKKKAAA222",            # planes at the top of the chain ranks
    "333444BR",                # plane_solo with the two jokers as wings
    "33334444",                # two pairs of one rank are not four_two_pair
]


@pytest.mark.parametrize("profile", CLASSIC_PROFILES)
@pytest.mark.parametrize("text", CRAFTED)
def test_crafted_hands(profile, text):
    rules = fastdou.rules("classic", profile=profile)
    hand = fastdou.cards.parse(text, rules)
    assert generated(hand, rules) == oracle.leading_moves(hand, rules)


@pytest.mark.parametrize("profile", CLASSIC_PROFILES)
def test_responses_to_every_kind(profile):
    """A 14-card hand answering one move of every kind the rules have."""
    rules = fastdou.rules("classic", profile=profile)
    hand = fastdou.cards.parse("33344455667788AA22", rules)
    leads = sorted(oracle.leading_moves(fastdou.cards.parse("3334445566789TJQKA", rules),
                                        rules))
    expected = oracle.leading_moves(hand, rules)
    seen = set()
    for last in leads:
        if last[1] in seen:
            continue
        seen.add(last[1])
        want = {m for m in expected if oracle.beats(m, last, rules)}
        assert generated(hand, rules, last) == want, last
    assert len(seen) >= 10


@pytest.mark.parametrize("rules", [fastdou.rules("classic", profile=p) for p in CLASSIC_PROFILES]
                         + [fastdou.rules(n) for n in ("four_player", "emperor", "jinling")],
                         ids=lambda r: f"{r.name}-{r.profile}")
def test_batch_counts_equal_the_oracle(rules):
    """count_batch and generate_batch over one batch of small random hands, leading and
    answering another hand's move: each hand's count is the oracle's number of moves."""
    from fastdou import kernels as K
    rng = np.random.default_rng(5)
    hands = [random_hand(rng, rules, int(rng.integers(1, 11 if rules.decks == 1 else 9)))
             for _ in range(120)]
    lasts, expected = [], []
    for i, hand in enumerate(hands):
        moves = oracle.leading_moves(hand, rules)
        if i % 2:                               # every other hand answers a random move
            other = sorted(generated(random_hand(rng, rules, rules.hand_size), rules))
            last = other[rng.integers(len(other))]
            moves = {m for m in moves if oracle.beats(m, last, rules)}
            lasts.append(as_record(last))
        else:
            lasts.append(fastdou.Move.PASS.record)
        expected.append(len(moves))
    packed = K.pack_rows(np.array(hands, np.uint8), np.empty(len(hands), np.uint64))
    lasts = np.array(lasts, np.uint64)
    counts = K.count_batch(packed, lasts, rules_array(rules))
    assert counts.tolist() == expected
    _, offsets = K.generate_batch(packed, lasts, rules_array(rules))
    assert np.diff(offsets).tolist() == expected
