"""Wild cards through the Python API (``wild=``): ``legal_moves``, ``classify``, ``beats``,
``Move.parse`` / ``text`` / ``stands_for`` against the brute-force reference
(``tests/reference/laizi_oracle.py``), the rules fields, and the clear errors of everything
that does not take wild cards yet.

Rank indices: 3=0 4=1 5=2 6=3 7=4 8=5 9=6 T=7 J=8 Q=9 K=10 A=11 2=12 B=13 R=14.
"""

import random

import numpy as np
import pytest

import fastdou
from fastdou import Move
from fastdou.errors import FastdouError, IllegalMoveError, RulesError
from fastdou.rules import rules_array
from tests.reference import laizi_oracle as LO

LAIZI = fastdou.rules(wilds=1)
TIANDI = fastdou.rules(wilds=2)
BY_RANK = fastdou.rules(wilds=1, soft_below_hard=False)
TOKENS = "3456789TJQKA2"


def ref(move):
    """A Move as the reference's 5-tuple."""
    return (tuple(int(c) for c in move.cards), move.kind.name, move.rank, move.length,
            move.bomb_class)


def wild_of(ws):
    return "".join(TOKENS[w] for w in LO.norm_wilds(ws))


def random_hand(rng, ws, size):
    """``size`` cards of one deck with one to three wild cards among them."""
    deck = [r for r in range(15) for _ in range(4 if r < 13 else 1)]
    wild = [r for r in deck if r in LO.norm_wilds(ws)]
    other = [r for r in deck if r not in LO.norm_wilds(ws)]
    k = rng.randint(1, 3)
    cards = rng.sample(wild, k) + rng.sample(other, size - k)
    return tuple(cards.count(r) for r in range(15))


SETTINGS = [(LAIZI, 4), (LAIZI, 0), (LAIZI, 12), (TIANDI, (4, 6)), (TIANDI, (0, 12))]


@pytest.mark.parametrize("rules,ws", SETTINGS)
def test_leads_responses_and_text_equal_the_reference(rules, ws):
    """For random hands: every lead and every response to one of them equal the reference's,
    each listed move's ``stands_for`` is the reference's canonical substitution, its text
    reads back as itself, and ``beats`` agrees with the reference on pairs of moves."""
    rng = random.Random(hash((rules.wilds, ws)) % 1000)
    for _ in range(3):
        hand = random_hand(rng, ws, rng.randint(5, 8))
        text = LO.cards_to_str(hand)
        leads = fastdou.legal_moves(text, rules=rules, wild=wild_of(ws))
        expected = LO.leading_moves(hand, ws)
        assert {ref(m) for m in leads} == expected, text
        assert len(leads) == len(expected)
        for m in leads:
            assert m.stands_for == LO.substitution(ref(m), ws)
            assert Move.parse(m.text(), rules, kind=m.kind, wild=wild_of(ws)) == m, m.text()
        last = rng.choice(sorted(expected))
        got = fastdou.legal_moves(text, last=Move(fastdou.cards.pack(last[0]),
                                                  fastdou.Kind[last[1]], last[2], last[3],
                                                  wilds=sum(1 << w for w in LO.norm_wilds(ws))),
                                  rules=rules, wild=wild_of(ws))
        assert {ref(m) for m in got} == LO.responses(hand, last, ws), (text, last)
        sample = rng.sample(list(leads), min(12, len(leads)))
        for a in sample:
            for b in sample:
                assert fastdou.beats(a, b, rules, wild=wild_of(ws)) == LO.beats(ref(a), ref(b))


def test_soft_bombs_by_rank_when_not_below_hard():
    """``soft_below_hard=False``: soft and hard bombs compare by rank (a hard bomb above a soft
    one of its rank), still below the wild bomb and the rocket; responses equal the
    reference's with that order."""
    rng = random.Random(5)
    hands = ["44445557BR", "3337777KKKK", "55556667"]
    hands += [LO.cards_to_str(random_hand(rng, 4, 8)) for _ in range(3)]
    for text in hands:
        hand = LO.cards_from_str(text)
        for last in sorted(m for m in LO.leading_moves(hand, 4) if LO.is_bomb(m)):
            record = Move(fastdou.cards.pack(last[0]), fastdou.Kind[last[1]], last[2],
                          last[3], wilds=1 << 4)
            got = fastdou.legal_moves(text, last=record, rules=BY_RANK, wild="7")
            assert {ref(m) for m in got} == \
                LO.responses(hand, last, 4, soft_below_hard=False), (text, last)
    assert fastdou.beats("5557", "4444", BY_RANK, wild="7")
    assert not fastdou.beats("5557", "4444", LAIZI, wild="7")
    assert fastdou.beats("4444", "4447", BY_RANK, wild="7")
    assert not fastdou.beats("4447", "4444", BY_RANK, wild="7")
    assert fastdou.beats("7777", "AAAA", BY_RANK, wild="7")


def test_the_issue_example():
    """``5557`` with 7 wild answers the soft bomb ``4447`` with the soft bomb of 5s only, and
    the trio_solo ``444+7`` with the trio_solo and the bomb."""
    moves = fastdou.legal_moves("5557", last="4447", rules=LAIZI, wild="7")
    assert moves.texts() == ["5557(5)"]
    (bomb,) = moves
    assert bomb.kind == fastdou.Kind.BOMB and bomb.rank == 2 and bomb.bomb_class == "soft"
    assert bomb.stands_for == ((4, 2),)
    assert sorted(fastdou.legal_moves("5557", last="444+7", rules=LAIZI, wild=4).texts()) == \
        ["555+7(7)", "5557(5)"]
    assert "5557(5)" in moves and "555+7" not in moves and "4447(4)" not in moves


def test_parse_reads_what_the_wild_cards_stand_for():
    """Without parentheses every substitution is read (a plain reading wins, as classic);
    with them only the readings of that substitution, in any order of the ranks."""
    assert Move.parse("4447", LAIZI, wild="7").kind == fastdou.Kind.BOMB
    assert Move.parse("444+7", LAIZI, wild="7").kind == fastdou.Kind.TRIO_SOLO
    assert Move.parse("4447(7)", LAIZI, wild="7").kind == fastdou.Kind.TRIO_SOLO
    assert Move.parse("4447(4)", LAIZI, wild="7").bomb_class == "soft"
    chain = Move.parse("34577(76)", LAIZI, wild="7")
    assert (chain.kind, chain.rank, chain.length) == (fastdou.Kind.SOLO_CHAIN, 4, 5)
    assert chain.text() == "34577(67)" and chain.stands_for == ((4, 3), (4, 4))
    wild_pair = Move.parse("77", LAIZI, wild="7")
    assert (wild_pair.kind, wild_pair.rank) == (fastdou.Kind.PAIR, 4)
    assert Move.parse("7777", LAIZI, wild="7").bomb_class == "wild"
    assert Move.parse("7779", TIANDI, wild="79").kind == fastdou.Kind.TRIO_SOLO
    with pytest.raises(IllegalMoveError):
        Move.parse("77(33)", LAIZI, wild="7")       # wild cards alone stand for themselves
    with pytest.raises(IllegalMoveError):
        Move.parse("7799", TIANDI, wild="79")
    assert Move.parse("3377(33)", TIANDI, wild=("7", "9")).bomb_class == "soft"
    assert Move.parse("3379(33)", TIANDI, wild="97").bomb_class == "soft"


def test_classify_lists_each_move_once_with_its_class():
    got = {(m.kind.name, m.rank, m.bomb_class) for m in fastdou.classify("5777", LAIZI, wild="7")}
    assert got == {(k, r, c) for _, k, r, _, c in LO.readings(LO.cards_from_str("5777"), 4)}
    assert ("BOMB", 2, "soft") in got and len(got) == 14     # and a trio_solo of each rank
    (rocket,) = fastdou.classify("BR", LAIZI, wild="7")
    assert rocket.bomb_class == "rocket" and rocket.stands_for == ()
    (hard,) = [m for m in fastdou.classify("3333", LAIZI, wild="7")]
    assert hard.bomb_class == "hard" and hard.text() == "3333"


@pytest.mark.parametrize("call", [
    lambda: fastdou.legal_moves("33", rules=LAIZI),
    lambda: fastdou.legal_moves("33", rules=LAIZI, wild="B"),
    lambda: fastdou.legal_moves("33", rules=LAIZI, wild="79"),
    lambda: fastdou.legal_moves("33", rules=LAIZI, wild=13),
    lambda: fastdou.legal_moves("33", rules=LAIZI, wild=1.5),
    lambda: fastdou.legal_moves("33", rules=TIANDI, wild="7"),
    lambda: fastdou.legal_moves("33", rules=TIANDI, wild="77"),
    lambda: fastdou.legal_moves("33", wild="7"),
    lambda: fastdou.classify("33", "classic", wild=4),
    lambda: Move.parse("3337(4)", "classic"),
    lambda: Move.parse("3337(44)", LAIZI, wild="7"),
    lambda: Move.parse("3337(B)", LAIZI, wild="7"),
    lambda: Move.parse("3(3)337", LAIZI, wild="7"),
    lambda: Move.parse("3337(4", LAIZI, wild="7"),
    lambda: fastdou.legal_moves("5557", last="4568(4)", rules=LAIZI, wild="7"),
    lambda: fastdou.beats(Move.parse("5557", LAIZI, wild="7"), "4447", LAIZI, wild="8"),
], ids=["no wild", "joker", "two for one", "index 13", "float", "one for two", "twice",
        "classic wild", "classify classic", "parens classic", "too many", "joker target",
        "parens inside", "unclosed", "bad last", "other wild rank"])
def test_bad_wild_arguments_are_clear_errors(call):
    with pytest.raises(FastdouError) as err:
        call()
    assert isinstance(err.value, ValueError) and str(err.value)


def test_what_does_not_take_wild_cards_yet_says_so():
    """What would play wild cards as classic refuses them: the kernels' rules array unless
    its caller takes wild cards."""
    with pytest.raises(RulesError, match="wild cards.*legal_moves"):
        rules_array(LAIZI)


def test_wild_rules_fields():
    """The fields, their checks, JSON and the score bound."""
    assert LAIZI.wilds == 1 and LAIZI.soft_below_hard and \
        (LAIZI.soft_bomb_factor, LAIZI.wild_bomb_factor) == (2, 4)
    assert fastdou.Rules.from_json(BY_RANK.to_json()) == BY_RANK
    assert BY_RANK.to_json(changes=True) == {"name": "classic", "profile": "standard",
                                             "wilds": 1, "soft_below_hard": False}
    assert fastdou.rules("classic").wilds == 0
    big = fastdou.rules(wilds=1, soft_bomb_factor=8)
    assert big.score_bits() > LAIZI.score_bits()
    with pytest.raises(RulesError, match="soft_bomb_factor 16"):
        fastdou.rules(wilds=1, soft_bomb_factor=16)
    for bad in [dict(wilds=3), dict(wilds=-1), dict(wilds=1, decks=2),
                dict(wilds=1, removed_ranks=(0,)), dict(wilds=1, soft_bomb_factor=0),
                dict(wilds=1, wild_bomb_factor=17), dict(soft_bomb_factor=2 ** 63),
                dict(wild_bomb_factor=0), dict(wilds=1, joker_bombs="none"),
                dict(wilds=1, kinds=["solo", "quad"]), dict(wilds=True)]:
        with pytest.raises(RulesError):
            fastdou.rules(**bad)
    assert fastdou.rules(wilds=1, profile="douzero").wilds == 1


def test_the_laizi_preset():
    """Classic with one wild rank, hard bombs and the rocket x4, one of PRESETS; the issue's
    examples; ``W`` for a card of the wild rank."""
    r = fastdou.rules("laizi")
    assert (r.wilds, r.bomb_factors[4], r.joker_bomb_factor, r.soft_bomb_factor,
            r.wild_bomb_factor) == (1, 4, 4, 2, 4)
    assert r.replace(wilds=0, bomb_factors=(1, 1, 1, 1, 2, 2, 2, 2, 2), joker_bomb_factor=2,
                     name="classic") == fastdou.rules("classic")
    assert "laizi" in fastdou.PRESETS and fastdou.rules("laizi", wilds=2).wilds == 2
    assert fastdou.Rules.from_json(r.to_json()) == r
    assert r.to_json(changes=True) == {"name": "laizi", "profile": "standard"}
    assert [m.text() for m in fastdou.legal_moves("5557", last="4447", rules="laizi",
                                                  wild="7")] == ["5557(5)"]
    assert list(fastdou.legal_moves("3334W", rules=r, wild="7")) == \
        list(fastdou.legal_moves("33347", rules=r, wild="7"))
    assert Move.parse("555W(5)", r, wild="7") == Move.parse("5557(5)", r, wild="7")
    assert fastdou.classify("WW", r, wild="9") == fastdou.classify("99", r, wild="9")
    with pytest.raises(fastdou.InvalidCardsError, match="'W'.*one wild rank"):
        fastdou.legal_moves("3334W", rules=fastdou.rules("laizi", wilds=2), wild="79")
    with pytest.raises(fastdou.InvalidCardsError, match="'W'"):
        fastdou.legal_moves("3334W")


@pytest.mark.parametrize("rules,ws", [(LAIZI, None), (TIANDI, None), (LAIZI, "7")])
def test_generate_batch_equals_legal_moves_hand_by_hand(rules, ws):
    """Per-hand wild ranks (or one for all), leads and responses, with and without a
    buffer: each hand's slice is its ``legal_moves``."""
    rng = np.random.default_rng(rules.wilds)
    n = 40
    hands = np.zeros((n, 15), np.uint8)
    for i in range(n):
        deck = np.repeat(np.arange(15), [4] * 13 + [1, 1])
        np.add.at(hands[i], rng.choice(deck, 17, replace=False), 1)
    if ws is None:
        wild = np.stack([rng.choice(13, rules.wilds, replace=False) for _ in range(n)])
        wild = wild[:, 0] if rules.wilds == 1 else wild
    else:
        wild = ws
    per_hand = [wild if isinstance(wild, str) else wild[i].tolist() for i in range(n)]
    per_hand = [w if isinstance(w, str) or rules.wilds == 2 else int(w) for w in per_hand]
    lasts = [None if i % 3 == 0 else
             fastdou.legal_moves(hands[i - 1], rules=rules, wild=per_hand[i])[i % 7]
             if len(fastdou.legal_moves(hands[i - 1], rules=rules, wild=per_hand[i])) > i % 7
             else None for i in range(n)]
    moves, offsets = fastdou.generate_batch(hands, lasts, rules, wild=wild)
    records = np.array([np.zeros(2, np.uint64) if m is None else m.record for m in lasts])
    into, offsets2 = fastdou.generate_batch(hands, records, rules,
                                            out=np.zeros((100, 2), np.uint64), wild=wild)
    assert (into == moves).all() and (offsets2 == offsets).all()
    for i in range(n):
        one = fastdou.legal_moves(hands[i], lasts[i], rules, wild=per_hand[i])
        assert (moves[offsets[i]:offsets[i + 1]] == one.array).all()


@pytest.mark.parametrize("kwargs", [
    dict(rules=LAIZI),
    dict(rules=LAIZI, wild=np.array([1, 2])),
    dict(rules=LAIZI, wild=np.array([1, 2, 13])),
    dict(rules=TIANDI, wild=np.array([[1, 1], [2, 3], [4, 5]])),
    dict(rules=LAIZI, wild=np.array([1.0, 2.0, 3.0])),
    dict(rules="classic", wild=np.array([1, 2, 3])),
    dict(rules=LAIZI, wild="7", lasts=np.array([[1, 1]] * 3, np.uint64)),
], ids=["no wild", "short", "joker", "twice", "floats", "classic", "bad last"])
def test_generate_batch_bad_wild_input(kwargs):
    hands = np.ones((3, 15), np.uint8)
    with pytest.raises(FastdouError):
        fastdou.generate_batch(hands, **kwargs)


def test_moves_pickle_and_copy():
    """Moves, wild or not, survive pickling and copying (equal, same hash, same text)."""
    import copy
    import pickle
    moves = [Move.parse("5557", LAIZI, wild="7"), Move.parse("333+4"), Move.PASS,
             Move.parse("3379(33)", TIANDI, wild="79")]
    for m in moves:
        for back in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m), copy.copy(m)):
            assert back == m and hash(back) == hash(m) and back.text() == m.text()


def test_generate_batch_checks_wild_records():
    """Records of moves under the hand's wild rank pass; a soft bomb without its class, or
    one under another wild rank, is refused."""
    hands = np.array([LO.cards_from_str("66678")] * 2, np.uint8)
    bomb = Move.parse("5557(5)", LAIZI, wild="7").record
    lasts = np.array([bomb, np.zeros(2, np.uint64)])
    moves, offsets = fastdou.generate_batch(hands, lasts, LAIZI, wild=np.array([4, 4]))
    assert [Move.from_record(r, 1 << 4).text() for r in moves[:offsets[1]]] == ["6667(6)"]
    classless = lasts.copy()
    classless[0, 1] &= np.uint64((1 << 24) - 1)
    with pytest.raises(IllegalMoveError, match=r"lasts\[0\]"):
        fastdou.generate_batch(hands, classless, LAIZI, wild=np.array([4, 4]))
    with pytest.raises(IllegalMoveError, match=r"lasts\[0\]"):
        fastdou.generate_batch(hands, lasts, LAIZI, wild=np.array([5, 4]))
