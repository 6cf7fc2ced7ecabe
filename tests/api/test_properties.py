"""Properties of generation that hold for every hand (hypothesis): moves read back as
themselves and fit the hand, ``beats`` is a strict order, a move is generated from any hand
holding its cards, responses are exactly the leads that beat, and the count kernels agree."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastdou
from fastdou import kernels as K
from fastdou.rules import rules_array

RULE_SETS = [fastdou.rules("classic", profile=p) for p in ("standard", "openspiel", "douzero")]
RULE_SETS += [fastdou.rules(n) for n in ("four_player", "emperor", "jinling", "five_player",
                                         "two_player")]
IDS = [r.name if r.name != "classic" else f"classic-{r.profile}" for r in RULE_SETS]
MAX_HAND = 20
ROOM = 1 << 15                          # more moves than any hand of MAX_HAND cards has
UNWRITTEN = np.uint64(2**64 - 1)        # no record's info word

PROPERTY = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
for_every_rules = pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)


@st.composite
def hands(draw, deck, max_size=MAX_HAND):
    """A count vector within ``deck`` of at most ``max_size`` cards: ranks are visited in a
    random order, each taking a random count up to what the deck and the budget allow."""
    budget = draw(st.integers(0, max_size))
    counts = np.zeros(15, dtype=np.uint8)
    for r in draw(st.permutations(range(15))):
        counts[r] = draw(st.integers(0, min(int(deck[r]), budget)))
        budget -= int(counts[r])
    return counts


def packed(counts):
    return K.pack(counts)


def leads(hand, rules):
    """The records ``hand`` may lead (through the kernels, as a (n, 2) array)."""
    out = K.new_moves(K.count_leading(packed(hand), rules_array(rules)))
    assert K.leading_moves(packed(hand), rules_array(rules), out) == len(out)
    return out


def responses(hand, last, rules):
    out = K.new_moves(K.count_responses(packed(hand), last, rules_array(rules)))
    assert K.responses(packed(hand), last, rules_array(rules), out) == len(out)
    return out


def as_set(records):
    return {(int(c), int(i)) for c, i in records}


def sample(data, records, k):
    """Up to ``k`` records drawn by hypothesis (all of them when there are few)."""
    if len(records) <= k:
        return records
    rnd = data.draw(st.randoms(use_true_random=False))
    return records[sorted(rnd.sample(range(len(records)), k))]


def draw_move(data, records):
    return records[data.draw(st.integers(0, len(records) - 1))]


def written(generate):
    """The number of records ``generate(out)`` writes into a roomy buffer, counted by the
    rows it changed; checked against the count it returns."""
    out = np.full((ROOM, 2), UNWRITTEN, np.uint64)
    n = generate(out)
    assert n < ROOM
    assert (out[:n, 1] != UNWRITTEN).all() and (out[n:, 1] == UNWRITTEN).all()
    return n


def cards_of(records):
    return K.unpack_rows(records[:, 0].copy(), np.empty((len(records), 15), np.uint8))


# ------------------------------------------------------------------ properties

@for_every_rules
@PROPERTY
@given(data=st.data())
def test_moves_read_back_and_fit_the_hand(rules, data):
    hand = data.draw(hands(rules.deck))
    moves = leads(hand, rules)
    assert len(as_set(moves)) == len(moves), "a move was generated twice"
    held = cards_of(moves)
    assert (held <= hand).all()
    sizes = held.sum(axis=1)
    assert ((sizes >= 1) & (sizes <= rules.max_move)).all()
    for record in sample(data, moves, 150):
        move = fastdou.Move.from_record(record)
        assert move in fastdou.classify(move.cards, rules), move


@for_every_rules
@PROPERTY
@given(data=st.data())
def test_beats_is_a_strict_order(rules, data):
    moves = np.concatenate([leads(data.draw(hands(rules.deck)), rules) for _ in range(2)])
    if len(moves) == 0:
        return
    # Moves of one kind (comparable to each other) and moves of any kind.
    kind = K.kind_of(draw_move(data, moves)[1])
    same = moves[[K.kind_of(i) == kind for i in moves[:, 1]]]
    picked = np.concatenate([sample(data, same, 30), sample(data, moves, 20)])
    n = len(picked)
    b = np.array([[K.beats(picked[i], picked[j], rules_array(rules)) for j in range(n)]
                  for i in range(n)], dtype=bool).reshape(n, n)
    assert not b.diagonal().any(), "irreflexive"
    assert not (b & b.T).any(), "antisymmetric"
    two_steps = (b.astype(np.int64) @ b.astype(np.int64)) > 0
    assert not (two_steps & ~b).any(), "transitive"


@for_every_rules
@PROPERTY
@given(data=st.data())
def test_a_hand_holding_a_move_generates_it(rules, data):
    moves = leads(data.draw(hands(rules.deck)), rules)
    if len(moves) == 0:
        return
    move = draw_move(data, moves)
    cards = fastdou.cards.unpack(int(move[0]))
    extra = data.draw(hands(rules.deck - cards, max_size=12))
    hand = cards + extra
    assert (int(move[0]), int(move[1])) in as_set(leads(hand, rules)), \
        (fastdou.Move.from_record(move), fastdou.cards.to_text(hand))


@for_every_rules
@PROPERTY
@given(data=st.data())
def test_responses_are_the_leads_that_beat_last(rules, data):
    hand = data.draw(hands(rules.deck))
    # The move to beat: one of another hand, or one of this hand's own.
    other = hand if data.draw(st.booleans()) else data.draw(hands(rules.deck))
    candidates = leads(other, rules)
    if len(candidates) == 0:
        return
    last = draw_move(data, candidates)
    replies = responses(hand, last, rules)
    assert all(K.beats(r, last, rules_array(rules)) for r in replies)
    beating = [r for r in leads(hand, rules) if K.beats(r, last, rules_array(rules))]
    assert as_set(replies) == as_set(beating)
    assert len(replies) == len(beating)


@for_every_rules
@PROPERTY
@given(data=st.data())
def test_count_kernels_equal_list_lengths(rules, data):
    hand = data.draw(hands(rules.deck))
    h = packed(hand)
    lead = written(lambda out: K.leading_moves(h, rules_array(rules), out))
    assert K.count_leading(h, rules_array(rules)) == lead
    others = leads(data.draw(hands(rules.deck)), rules)
    if len(others):
        last = draw_move(data, others)
        reply = written(lambda out: K.responses(h, last, rules_array(rules), out))
        assert K.count_responses(h, last, rules_array(rules)) == reply
