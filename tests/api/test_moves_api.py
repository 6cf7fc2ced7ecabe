"""The Python API of moves: Move, MoveList, legal_moves, beats, classify, generate_batch."""

import numpy as np
import pytest

import fastdou
from fastdou import Kind, Move, cards
from fastdou.kernels.layout import INFO_RANK_SHIFT

CLASSIC = fastdou.rules("classic")
OPENSPIEL = fastdou.rules("classic", profile="openspiel")
EMPEROR = fastdou.rules("emperor")


def move(text, kind, rank, length=1):
    """A Move built field by field, without the parser."""
    return Move(cards.pack(cards.parse(text.replace("+", ""))), kind, rank, length)


def texts(moves):
    return [m.text() for m in moves]


# ------------------------------------------------------------------ Move

@pytest.mark.parametrize("text, kind, rank, length", [
    ("3", Kind.SOLO, 0, 1),
    ("22", Kind.PAIR, 12, 1),
    ("AAA", Kind.TRIO, 11, 1),
    ("333+4", Kind.TRIO_SOLO, 0, 1),
    ("222+R", Kind.TRIO_SOLO, 12, 1),
    ("333+44", Kind.TRIO_PAIR, 0, 1),
    ("34567", Kind.SOLO_CHAIN, 4, 5),
    ("TJQKA", Kind.SOLO_CHAIN, 11, 5),
    ("334455", Kind.PAIR_CHAIN, 2, 3),
    ("333444", Kind.TRIO_CHAIN, 1, 2),
    ("333444+55", Kind.PLANE_SOLO, 1, 2),
    ("333444+5566", Kind.PLANE_PAIR, 1, 2),
    ("3333+45", Kind.FOUR_TWO_SOLO, 0, 1),
    ("3333+55", Kind.FOUR_TWO_SOLO, 0, 1),
    ("3333+4455", Kind.FOUR_TWO_PAIR, 0, 1),
    ("3333", Kind.BOMB, 0, 1),
    ("BR", Kind.ROCKET, 14, 1),
])
def test_move_fields_and_text(text, kind, rank, length):
    m = Move.parse(text)
    assert (m.kind, m.rank, m.length) == (kind, rank, length)
    assert m == move(text, kind, rank, length)
    np.testing.assert_array_equal(m.cards, cards.parse(text.replace("+", "")))
    assert len(m) == len(text.replace("+", ""))
    assert m.text() == str(m) == text
    assert Move.from_record(m.record) == m
    assert m.record.dtype == np.uint64 and m.record.shape == (2,)


def test_text_is_canonical_whatever_the_input_order():
    assert Move.parse("4333").text() == "333+4"
    assert Move.parse("5 4, 3 7 6").text() == "34567"
    assert Move.parse("x d").text() == "BR"


ROUND_TRIP_HANDS = [
    (CLASSIC, "3334445556667778882BR"),
    (OPENSPIEL, "3334445556667778882BR"),
    (fastdou.rules("classic", profile="douzero"), "3334445556667778882BR"),
    (fastdou.rules("two_player"), "5556667778899TTJ2BR"),
    (fastdou.rules("four_player"), "33334444555566BBRR789TJ"),
    (fastdou.rules("five_player"), "333344445556667BBR"),
    (EMPEROR, "3333444455556667778889TTJJ"),
    (fastdou.rules("jinling"), "33345678899TTJQKBR"),
]


@pytest.mark.parametrize("rules, hand", ROUND_TRIP_HANDS,
                         ids=[f"{r.name}-{r.profile}" for r, _ in ROUND_TRIP_HANDS])
def test_parse_round_trip_of_every_move(rules, hand):
    moves = fastdou.legal_moves(hand, rules=rules)
    assert len(moves) > 40
    for m in moves:
        assert Move.parse(m.text(), rules, kind=m.kind) == m
        assert Move.parse(m.text(), rules, kind=m.kind.name.lower()) == m


def test_emperor_carrier_or_spaceship_is_ambiguous():
    text = "33334444555666"
    readings = fastdou.classify(text, EMPEROR)
    assert {m.kind for m in readings} == {Kind.CARRIER, Kind.SPACESHIP}
    assert {m.text() for m in readings} == {"33334444+555666"}   # the '+' cannot tell them apart
    for given in (text, "33334444+555666"):
        with pytest.raises(fastdou.AmbiguousMoveError, match="CARRIER.*SPACESHIP"):
            Move.parse(given, EMPEROR)
    for m in readings:
        assert Move.parse(text, EMPEROR, kind=m.kind) == m


def test_openspiel_planes_need_the_plus():
    text = "333444555666"
    assert Move.parse(text, OPENSPIEL).kind == Kind.TRIO_CHAIN     # the reading without '+'
    with pytest.raises(fastdou.AmbiguousMoveError):
        Move.parse(text, OPENSPIEL, kind="plane_solo")
    low, high = Move.parse("333444555+666", OPENSPIEL), Move.parse("444555666+333", OPENSPIEL)
    assert (low.kind, low.rank, high.kind, high.rank) == (Kind.PLANE_SOLO, 2, Kind.PLANE_SOLO, 3)
    assert low.packed == high.packed and low != high


@pytest.mark.parametrize("text, rules, kind", [
    ("3345", CLASSIC, None),                  # no reading
    ("34", CLASSIC, None),
    ("3333+4", CLASSIC, None),
    ("3456", CLASSIC, None),                  # a chain too short
    ("QKA2B", CLASSIC, None),                 # 2 and jokers never chain
    ("33+3444", CLASSIC, None),               # wrong '+' split
    ("333+444", CLASSIC, None),
    ("33334+5", CLASSIC, None),
    ("333444+55", CLASSIC, "bomb"),           # a kind the cards cannot be
    ("333444555666", CLASSIC, "plane_solo"),  # standard: no wing trio next to the chain
    ("3333+45", OPENSPIEL, None),             # no four_two under openspiel
    ("BR", fastdou.rules("four_player"), None),   # needs all four jokers
    ("3333", fastdou.rules("jinling"), None),
    ("3", CLASSIC, "no_such_kind"),
])
def test_illegal_moves(text, rules, kind):
    with pytest.raises(fastdou.IllegalMoveError) as info:
        Move.parse(text, rules, kind=kind)
    assert isinstance(info.value, ValueError)


def test_move_parse_bad_cards():
    with pytest.raises(fastdou.InvalidCardsError, match="'Z'"):
        Move.parse("33Z")
    with pytest.raises(fastdou.IllegalMoveError):
        Move.parse(3)


def test_pass():
    p = Move.PASS
    assert p.is_pass and not p.is_bomb and p.kind == Kind.PASS
    assert p.text() == "pass" and len(p) == 0 and repr(p) == "Move.PASS"
    for text in ("pass", "PASS", " pass ", "p", ""):
        assert Move.parse(text) is p
    assert not Move.parse("3").is_pass


def test_equality_and_hashing():
    a = Move.parse("333+4")
    b = move("3334", Kind.TRIO_SOLO, 0)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Move(b.packed, Kind.TRIO_SOLO, 1, 1)            # another rank
    assert a != "333+4" and a != a.record.tolist()
    chain, plane = Move.parse("333444555666", OPENSPIEL), Move.parse("333444555+666", OPENSPIEL)
    assert chain.packed == plane.packed and chain != plane and len({chain, plane}) == 2


def test_move_is_immutable():
    m = Move.parse("3")
    for field in ("packed", "kind", "rank", "length", "other"):
        with pytest.raises(AttributeError):
            setattr(m, field, 1)
    assert m == Move.parse("3")


def test_move_fields_cannot_be_deleted():
    m = Move.parse("3")
    with pytest.raises(AttributeError):
        del m.rank


# ------------------------------------------------------------------ MoveList

def test_move_list():
    moves = fastdou.legal_moves("33344455BR", last="3334")
    assert len(moves) == 5
    assert texts(moves) == moves.texts() == ["444+3", "444+5", "444+B", "444+R", "BR"]
    assert all(isinstance(m, Move) for m in moves)
    assert moves[0] == next(iter(moves)) and moves[-1] == Move.parse("BR")
    assert Move.parse("444+3") in moves and "444+5" in moves and "R 444" in moves
    assert "BR" in moves and "444" not in moves and "333+4" not in moves
    assert Move.PASS not in moves and "pass" not in moves
    assert 3 not in moves and None not in moves
    a = moves.array
    assert a.dtype == np.uint64 and a.shape == (5, 2)
    assert [Move.from_record(r) for r in a] == list(moves)


def test_leading_move_list_has_no_pass_and_no_duplicates():
    moves = fastdou.legal_moves("3334445556667778882BR")
    assert all(not m.is_pass for m in moves)
    assert len(set(moves)) == len(moves)
    empty = fastdou.legal_moves("")
    assert len(empty) == 0 and empty.array.shape == (0, 2) and list(empty) == []


# ------------------------------------------------------------------ legal_moves

def test_legal_moves_last_forms():
    hand = "33344455BR"
    lead = texts(fastdou.legal_moves(hand))
    assert "3" in lead and "333444+55" in lead and "BR" in lead
    for last in (None, Move.PASS, "pass"):
        assert texts(fastdou.legal_moves(hand, last=last)) == lead
    want = ["444+3", "444+5", "444+B", "444+R", "BR"]
    for last in ("3334", "333+4", Move.parse("3334")):
        assert texts(fastdou.legal_moves(hand, last=last)) == want
    assert texts(fastdou.legal_moves(hand, last="2")) == ["B", "R", "BR"]
    assert texts(fastdou.legal_moves(hand, last="BR")) == []
    assert texts(fastdou.legal_moves(hand, last="3", rules=CLASSIC)) == \
        texts(fastdou.legal_moves(hand, last="3", rules="classic"))


@pytest.mark.parametrize("last, error", [
    ("3345", fastdou.IllegalMoveError),
    ("33Z", fastdou.InvalidCardsError),
    (move("3", Kind.SOLO, 5), fastdou.IllegalMoveError),            # wrong rank
    (move("33", Kind.SOLO, 0), fastdou.IllegalMoveError),           # wrong kind
    (move("34567", Kind.SOLO_CHAIN, 4, 4), fastdou.IllegalMoveError),  # wrong length
    (move("333444+55", Kind.PLANE_SOLO, 2, 2), fastdou.IllegalMoveError),
    (Move(5, Kind.BOMB, 0), fastdou.InvalidCardsError),             # 5 threes, one deck
    (3, fastdou.IllegalMoveError),
    (cards.parse("3"), fastdou.IllegalMoveError),
])
def test_legal_moves_bad_last(last, error):
    with pytest.raises(error):
        fastdou.legal_moves("33344455BR", last=last)


@pytest.mark.parametrize("hand, rules", [
    ("33Z", CLASSIC), ("33333", CLASSIC), ("BB", CLASSIC), ("35", "two_player"), (17, CLASSIC),
])
def test_legal_moves_bad_hand(hand, rules):
    with pytest.raises(fastdou.InvalidCardsError):
        fastdou.legal_moves(hand, rules=rules)


# ------------------------------------------------------------------ beats, classify

@pytest.mark.parametrize("a, b, rules, expected", [
    ("4", "3", CLASSIC, True),
    ("3", "4", CLASSIC, False),
    ("3", "3", CLASSIC, False),
    ("2", "A", CLASSIC, True),
    ("R", "B", CLASSIC, True),
    ("44", "3", CLASSIC, False),              # another kind
    ("45678", "34567", CLASSIC, True),
    ("456789", "34567", CLASSIC, False),      # another length
    ("444+3", "333+4", CLASSIC, True),
    ("444+33", "333+4", CLASSIC, False),
    ("444555+36", "333444+55", CLASSIC, True),
    ("3333", "22", CLASSIC, True),            # a bomb beats any non-bomb
    ("22", "3333", CLASSIC, False),
    ("4444", "3333", CLASSIC, True),
    ("BR", "2222", CLASSIC, True),
    ("3333", "BR", CLASSIC, False),
    ("pass", "3", CLASSIC, False),
    ("3", "pass", CLASSIC, False),
    ("33333", "2222", "four_player", True),   # size first
    ("22222", "333333", "four_player", False),
    ("BBRR", "88888888", "four_player", True),
    ("BR", "2222", "five_player", True),      # J jokers beat bombs of up to 2J cards
    ("BR", "33333", "five_player", False),
    ("BBR", "222222", "five_player", True),
    ("BBR", "3333333", "five_player", False),
    ("BBR", "RR", "five_player", True),
    ("RR", "BR", "five_player", False),
    ("BBRR", "88888888", "five_player", True),
    ("333", "22", "jinling", True),           # trios are bombs, by rank
    ("B", "222", "jinling", True),
    ("R", "B", "jinling", True),
    ("B", "R", "jinling", False),
    ("33333", "BB", "emperor", True),         # quads are not bombs there
    ("3333", "BB", "emperor", False),
])
def test_beats(a, b, rules, expected):
    assert fastdou.beats(a, b, rules) is expected


def test_beats_spaceship_by_quads_then_trios():
    def ship(text):
        return Move.parse(text, EMPEROR, kind=Kind.SPACESHIP)
    low, high, top = ship("33334444+555666"), ship("33334444+666777"), ship("44445555+666777")
    assert fastdou.beats(high, low, EMPEROR) and not fastdou.beats(low, high, EMPEROR)
    assert fastdou.beats(top, high, EMPEROR) and fastdou.beats(top, low, EMPEROR)
    carrier = Move.parse("33334444+666777", EMPEROR, kind=Kind.CARRIER)
    assert not fastdou.beats(carrier, low, EMPEROR)


def test_beats_rejects_illegal_moves():
    with pytest.raises(fastdou.IllegalMoveError):
        fastdou.beats("3345", "3")


@pytest.mark.parametrize("given, rules, expected", [
    ("333444555666", CLASSIC, ["333444555666"]),
    ("333444555666", OPENSPIEL, ["333444555666", "333444555+666", "444555666+333"]),
    ("3334", CLASSIC, ["333+4"]),
    ([3, 3, 3, 4], CLASSIC, ["333+4"]),
    (np.array([3, 1] + [0] * 13), CLASSIC, ["333+4"]),
    ("3345", CLASSIC, []),
    ("", CLASSIC, []),
    ("BR", "four_player", []),
    ("BBRR", "four_player", ["BBRR"]),
    ("56789", "two_player", ["56789"]),       # chains start at 5 there
    ("B", "jinling", ["B"]),                  # a lone joker is a bomb
])
def test_classify(given, rules, expected):
    assert texts(fastdou.classify(given, rules)) == expected


@pytest.mark.parametrize("threes", [5, 16])
def test_classify_checks_uint8_vectors_against_the_deck(threes):
    with pytest.raises(fastdou.InvalidCardsError):
        fastdou.classify(np.array([threes] + [0] * 14, np.uint8))


# ------------------------------------------------------------------ generate_batch

BATCH = np.array([cards.parse(h) for h in
                  ("33344455BR", "3456789TJQKA2", "", "2222BR", "3334445556667778882")])


def batch_rows(hands, lasts=None, rules=CLASSIC):
    moves, offsets = fastdou.generate_batch(hands, lasts, rules)
    assert offsets.shape == (len(hands) + 1,) and offsets[0] == 0
    assert offsets[-1] == moves.shape[0] and moves.dtype == np.uint64
    return [moves[offsets[i]:offsets[i + 1]] for i in range(len(hands))]


def assert_batch_matches(hands, lasts, rules=CLASSIC):
    """generate_batch gives, hand by hand, the records legal_moves gives."""
    hands = np.asarray(hands)
    if lasts is None:
        per_hand = [None] * len(hands)
    elif isinstance(lasts, np.ndarray):
        per_hand = [Move.from_record(r) for r in lasts]
    else:
        per_hand = list(lasts)
    for hand, last, rows in zip(hands, per_hand, batch_rows(hands, lasts, rules)):
        np.testing.assert_array_equal(rows, fastdou.legal_moves(hand, last, rules).array)


def test_generate_batch_leading():
    assert_batch_matches(BATCH, None)
    assert sum(map(len, batch_rows(BATCH))) > 100


def test_generate_batch_with_lasts():
    lasts = ["3334", None, "3", Move.parse("2"), "pass"]
    assert_batch_matches(BATCH, lasts)
    records = np.array([Move.parse(t).record if t else Move.PASS.record
                        for t in ("33", "34567", None, "3333", None)])
    assert_batch_matches(BATCH, records)
    assert [len(r) for r in batch_rows(BATCH, records)][:4] == [3, 7, 0, 2]


def test_generate_batch_other_rules_and_lists():
    rules = fastdou.rules("four_player")
    hands = np.array([cards.parse(h, rules) for h in ("33333333BBRR", "556677889")])
    assert_batch_matches(hands, None, rules)
    for a, b in zip(batch_rows(hands.tolist(), None, rules), batch_rows(hands, None, rules)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("hands, lasts, error", [
    (BATCH[:, :14], None, fastdou.InvalidCardsError),                 # wrong shape
    (BATCH[0], None, fastdou.InvalidCardsError),
    (BATCH.astype(float), None, fastdou.InvalidCardsError),           # float dtype
    (np.full((2, 15), 5), None, fastdou.InvalidCardsError),           # over the deck
    (np.full((2, 15), -1), None, fastdou.InvalidCardsError),
    (BATCH, ["3"] * 4, fastdou.IllegalMoveError),                     # wrong number of lasts
    (BATCH, np.zeros((4, 2), np.uint64), fastdou.IllegalMoveError),
    (BATCH, np.zeros((5, 2), np.int64), fastdou.IllegalMoveError),
    (BATCH, ["3", "3345", None, None, None], fastdou.IllegalMoveError),
    (BATCH, np.array([[cards.pack(cards.parse("3")), 5 << INFO_RANK_SHIFT | Kind.SOLO]]
                     + [[0, 0]] * 4, np.uint64), fastdou.IllegalMoveError),  # wrong rank
])
def test_generate_batch_errors(hands, lasts, error):
    with pytest.raises(error):
        fastdou.generate_batch(hands, lasts)


def test_generate_batch_two_player_deck():
    with pytest.raises(fastdou.InvalidCardsError, match="'3'"):
        fastdou.generate_batch(BATCH, rules="two_player")


def test_generate_batch_record_of_unknown_kind():
    lasts = np.zeros((len(BATCH), 2), np.uint64)
    lasts[0] = (1, 99)
    with pytest.raises(fastdou.IllegalMoveError):
        fastdou.generate_batch(BATCH, lasts)


@pytest.mark.parametrize("preset", sorted(fastdou.PRESETS))
def test_repr_evaluates_back_in_every_preset(preset):
    if fastdou.rules(preset).wilds:        # a wild move's id depends on the rank: a game's
        moves = fastdou.Game.new(preset, seed=3, start="play").legal_actions()[1:]
    else:
        moves = fastdou.action_table(preset).moves
    assert all(eval(repr(m)) == m for m in moves[::5])
