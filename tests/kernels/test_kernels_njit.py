"""fastdou.kernels called from a user's own ``@njit`` code, as README's "Kernels" section
promises: the same results as the Python API, packed arithmetic, batches, short buffers."""

import numpy as np
import pytest
from numba import njit

import fastdou
from tests.reference import oracle
from tests.shared.as_oracle import as_record, as_tuples
from fastdou import Move, cards
from fastdou import kernels as K

HANDS = [
    ("classic", "33344455BR"),
    ("classic", "3334445556667778882BR"),
    ("four_player", "33334444555566BBRR789TJ"),
    ("emperor", "3333444455556667778889TTJJ"),
    ("five_player", "333344445556667BBR"),
    ("jinling", "33345678899TTJQKBR"),
]
IDS = [f"{name}-{text}" for name, text in HANDS]


def position(name, text):
    """(rules, counts, packed hand) of a named preset and a hand's text."""
    rules = fastdou.rules(name)
    counts = cards.parse(text, rules)
    return rules, counts, K.pack(counts)


# ------------------------------------------------------------------ the user's own kernels

@njit
def user_leads(hand, rules):
    n = K.count_leading(hand, rules)
    out = K.new_moves(n)
    written = K.leading_moves(hand, rules, out)
    return n, written, out


@njit
def user_replies(hand, last, rules):
    n = K.count_responses(hand, last, rules)
    out = K.new_moves(n)
    written = K.responses(hand, last, rules, out)
    return n, written, out


@njit
def user_readings(cards, rules):
    out = K.new_moves(K.readings(cards, rules, K.new_moves(0)))
    K.readings(cards, rules, out)
    return out


@njit
def user_beats_matrix(moves, rules):
    n = moves.shape[0]
    out = np.zeros((n, n), np.bool_)
    for i in range(n):
        for j in range(n):
            out[i, j] = K.beats(moves[i], moves[j], rules)
    return out


@njit
def user_fields(moves):
    out = np.empty((moves.shape[0], 3), np.int64)
    for i in range(moves.shape[0]):
        info = moves[i, 1]
        out[i, 0] = K.kind_of(info)
        out[i, 1] = K.rank_of(info)
        out[i, 2] = K.length_of(info)
    return out


@njit
def user_pack_unpack(counts):
    packed = K.pack(counts)
    return packed, K.unpack(packed, np.zeros(15, np.uint8))


@njit
def play_out_greedily(hand, rules):
    """Lead the move with the most cards, subtract its packed cards, until the hand is empty.

    Returns the records played (each checked to be part of the hand before it is played)."""
    played = K.new_moves(K.size(hand))
    steps = 0
    while hand != 0:
        moves = K.new_moves(K.count_leading(hand, rules))
        K.leading_moves(hand, rules, moves)
        best = 0
        for i in range(moves.shape[0]):
            if K.size(moves[i, 0]) > K.size(moves[best, 0]):
                best = i
        if not K.contains(hand, moves[best, 0]):
            return played[:0]
        hand -= moves[best, 0]           # packed subtraction removes the move's cards
        played[steps] = moves[best]
        steps += 1
    return played[:steps]


# ------------------------------------------------------------------ tests

@pytest.fixture(scope="module")
def oracle_leads():
    """The naive oracle's leading moves of each hand (the independent reference)."""
    return {(name, text): oracle.leading_moves(cards.parse(text, fastdou.rules(name)),
                                               fastdou.rules(name)) for name, text in HANDS}


@pytest.mark.parametrize("name, text", HANDS, ids=IDS)
def test_user_kernel_leads_like_the_oracle_and_the_api(name, text, oracle_leads):
    rules, counts, hand = position(name, text)
    n, written, out = user_leads(hand, rules.array)
    assert as_tuples(out) == oracle_leads[name, text] and n == written == len(out)
    api = fastdou.legal_moves(counts, rules=rules)
    np.testing.assert_array_equal(out, api.array)


@pytest.mark.parametrize("name, text", HANDS, ids=IDS)
def test_user_kernel_responds_like_the_oracle(name, text, oracle_leads):
    rules, counts, hand = position(name, text)
    leads = oracle_leads[name, text]
    for last in sorted(leads)[::7]:
        n, written, out = user_replies(hand, as_record(last), rules.array)
        assert n == written == len(out)
        assert as_tuples(out) == {m for m in leads if oracle.beats(m, last, rules)}


@pytest.mark.parametrize("name, text", HANDS, ids=IDS)
def test_user_kernel_readings_fields_and_beats(name, text):
    rules, counts, hand = position(name, text)
    moves = fastdou.legal_moves(counts, rules=rules)
    fields = user_fields(moves.array)
    assert fields.tolist() == [[int(m.kind), m.rank, m.length] for m in moves]
    for m in list(moves)[::5]:
        got = user_readings(np.uint64(m.packed), rules.array)
        assert [Move.from_record(r) for r in got] == fastdou.classify(m.cards, rules)
    sample = moves.array[::3]
    matrix = user_beats_matrix(sample, rules.array)
    expected = [[fastdou.beats(Move.from_record(a), Move.from_record(b), rules)
                 for b in sample] for a in sample]
    assert matrix.tolist() == expected
    assert matrix.any()


@pytest.mark.parametrize("name, text", HANDS, ids=IDS)
def test_user_pack_unpack(name, text):
    rules, counts, hand = position(name, text)
    packed, unpacked = user_pack_unpack(counts)
    assert int(packed) == cards.pack(counts) == int(hand)
    np.testing.assert_array_equal(unpacked, counts)


@pytest.mark.parametrize("name, text", HANDS, ids=IDS)
def test_play_out_greedily(name, text):
    rules, counts, hand = position(name, text)
    played = play_out_greedily(hand, rules.array)
    assert len(played) > 0
    total = np.zeros(15, np.int64)
    for record in played:
        move = Move.from_record(record)
        assert move in fastdou.classify(move.cards, rules)
        total += move.cards
    np.testing.assert_array_equal(total, counts)
    # Greedy takes the largest move first: sizes never grow.
    sizes = [len(Move.from_record(r)) for r in played]
    assert sizes == sorted(sizes, reverse=True)


def test_generate_batch_equals_per_hand_responses():
    rules = fastdou.rules("classic")
    rng = np.random.default_rng(5)
    deck = np.repeat(np.arange(15), rules.deck)
    hands = np.array([K.pack(np.bincount(rng.choice(deck, 17, replace=False), minlength=15))
                      for _ in range(12)], dtype=np.uint64)
    lasts = np.zeros((12, 2), np.uint64)
    for i in range(0, 12, 2):            # odd rows lead, even rows answer another hand's move
        _, _, other = user_leads(hands[i + 1], rules.array)
        lasts[i] = other[len(other) // 2]
    moves, offsets = K.generate_batch(hands, lasts, rules.array)
    assert offsets[0] == 0 and offsets[-1] == len(moves) > 12
    for i in range(12):
        n, _, out = user_replies(hands[i], lasts[i], rules.array)
        assert offsets[i + 1] - offsets[i] == n
        np.testing.assert_array_equal(moves[offsets[i]:offsets[i + 1]], out)


SENTINEL = np.uint64(0xDEADBEEF)
OPENSPIEL = fastdou.rules("classic", profile="openspiel")
PLANES = cards.parse("333444555666")     # three readings under openspiel


def generator(kind):
    """(a kernel call writing into a given buffer, the full records from the Python API)."""
    rules, counts, hand = position("classic", "3334445556667778882BR")
    if kind == "leading":
        return (lambda out: K.leading_moves(hand, rules.array, out),
                fastdou.legal_moves(counts, rules=rules).array)
    if kind == "responses":
        last = Move.parse("3").record
        return (lambda out: K.responses(hand, last, rules.array, out),
                fastdou.legal_moves(counts, "3", rules).array)
    return (lambda out: K.readings(K.pack(PLANES), OPENSPIEL.array, out),
            np.array([m.record for m in fastdou.classify(PLANES, OPENSPIEL)]))


@pytest.mark.parametrize("kind", ["leading", "responses", "readings"])
@pytest.mark.parametrize("room", [0, 1, 2])
def test_buffer_too_small(kind, room):
    call, full = generator(kind)
    assert len(full) > room
    buffer = np.full((room + 2, 2), SENTINEL, np.uint64)
    assert call(buffer[:room]) == len(full)           # the full count, not the room
    np.testing.assert_array_equal(buffer[:room], full[:room])
    assert (buffer[room:] == SENTINEL).all()           # nothing written past the room
