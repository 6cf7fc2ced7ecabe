"""Per-seat views: a seat's observation and encoding never depend on another seat's hidden
cards; the compiled encoding equals a plain-Python reading of the public history; five_player's
dark landlord becomes known exactly when RULES.md §4.5 says."""

import random

import numpy as np
import pytest

import fastdou
from fastdou import Game, Move, cards
from fastdou.kernels import encoding as KE
from fastdou.kernels import state as S
from fastdou.rules import rules_array

PRESETS = sorted(fastdou.PRESETS)


def _random_prefix(rules, seed, rng, start):
    """A game some random actions in (possibly finished), and the ids played."""
    g = Game.new(rules, seed=seed, deal=rng.randrange(1000), start=start)
    ids = []
    for _ in range(rng.randrange(1, 80)):
        if g.is_terminal():
            break
        legal = g.legal_action_ids()
        ids.append(int(legal[rng.randrange(len(legal))]))
        g.push_id(ids[-1])
    return g, ids


def _swapped_twin(g, ids, seat, rng):
    """The same hand with some still-held cards of two other seats swapped (none from the
    kitty), the same actions replayed; None when no such swap exists."""
    first = g.deals[-1]
    marked = g.rules.bidding == "marked"
    if len(g.deals) > 1:
        return None
    hands = [cards.parse(h, g.rules).astype(int) for h in first["hands"]]
    kitty = cards.parse(first["kitty"], g.rules).astype(int)
    landlords = None
    if marked:                                     # dealt hands, the kitty set apart
        hands[g.landlord] -= kitty
        partner = int(g.state[S.G_PARTNER])
        landlords = (g.landlord, g.landlord if partner < 0 else partner)
    others = [s for s in range(g.rules.players) if s != seat]
    rng.shuffle(others)
    aside = g.rules.deck.astype(int) - sum(hands) - kitty     # cards nobody was dealt
    a, b = (others + [None])[:2]                              # None: the cards set aside
    if b is None and not aside.any():
        return None

    def held(s):                    # cards dealt to ``s`` it still holds (by rank)
        if s is None:
            return aside
        return np.minimum(g.perfect_information_hand(s).astype(int), hands[s])
    keep = int(g.state[S.G_MARKED]) // 4 if marked else -1   # who is dark stays put
    held_a, held_b = held(a), held(b)
    ra = [r for r in range(15) if held_a[r] > 0 and held_b[r] == 0 and r != keep]
    rb = [r for r in range(15) if held_b[r] > 0 and held_a[r] == 0 and r != keep]
    if not ra or not rb:
        return None
    x, y = rng.choice(ra), rng.choice(rb)
    for s, out, into in ((a, x, y), (b, y, x)):
        if s is not None:
            hands[s][out] -= 1
            hands[s][into] += 1
    start = g.record()["start"]
    bidder = int(Game.new(g.rules, seed=start["seed"], deal=start["deal"]).state[S.G_FIRST])
    twin = Game.from_hands([cards.to_text(h) for h in hands], g.rules,
                           kitty=first["kitty"], first=bidder, landlords=landlords,
                           marked=cards.TOKENS[keep] if marked else None,
                           seed=start["seed"], start=start.get("start", "bidding"),
                           landlord=start.get("landlord"))
    twin._state[S.G_TRUMP] = g.state[S.G_TRUMP]     # from_hands turns up no trump card
    twin._state[S.G_DEAL] = g.state[S.G_DEAL]       # the wild rank is drawn from the deal index
    if twin.state[S.G_WILDS]:                       # already drawn (start="play")
        twin._state[S.G_WILDS] = g.state[S.G_WILDS]
    for i in ids:
        twin.push_id(i)
    return twin


def _same_view(o1, o2):
    for f in fastdou.Observation.__dataclass_fields__:
        v1, v2 = getattr(o1, f), getattr(o2, f)
        if isinstance(v1, np.ndarray) or (isinstance(v1, tuple) and v1 and
                                         isinstance(v1[0], np.ndarray)):
            assert np.array_equal(np.asarray(v1), np.asarray(v2)), f
        else:
            assert v1 == v2, f


@pytest.mark.parametrize("preset", PRESETS)
def test_a_seat_never_sees_other_seats_hidden_cards(preset):
    rules = fastdou.rules(preset)
    rng = random.Random(11)
    swapped = 0
    for trial in range(40):
        g, ids = _random_prefix(rules, 5, rng, rng.choice(["bidding", "play"]))
        seat = rng.randrange(rules.players)
        twin = _swapped_twin(g, ids, seat, rng)
        if twin is None:
            continue
        swapped += 1
        _same_view(g.observation(seat), twin.observation(seat))
        assert np.array_equal(g.encode(seat), twin.encode(seat))
        changed = [s for s in range(rules.players)
                   if not np.array_equal(g.perfect_information_hand(s),
                                         twin.perfect_information_hand(s))]
        assert len(changed) in (1, 2) and seat not in changed
        for s in changed:                            # the swap is visible to its owners
            assert not np.array_equal(g.encode(s), twin.encode(s))
    assert swapped >= 10


def _plane(counts, rules):
    return np.concatenate([[1] * int(c) + [0] * int(d - c)
                           for c, d in zip(counts, rules.deck)]).astype(np.int8)


def _expected_encoding(g, seat):
    """The encoding written from ``Game.observation`` and the history, in plain Python."""
    rules = g.rules
    o = g.observation(seat)
    n = rules.players
    rel = [(seat + k) % n for k in range(n)]
    most = rules.landlord_size + 1
    parts = [_plane(o.hand, rules)]
    parts += [_plane(o.played[s], rules) for s in rel]
    parts.append(_plane(rules.deck - o.hand - sum(p.astype(int) for p in o.played), rules))
    parts.append(_plane(o.kitty if o.kitty is not None else np.zeros(15, int), rules))
    for s in rel:
        parts.append(np.eye(most, dtype=np.int8)[o.cards_left[s]])

    def seat_hot(s):
        v = np.zeros(n, np.int8)
        if s >= 0:
            v[(s - seat) % n] = 1
        return v
    if o.last_move.is_pass:
        parts.append(np.zeros(KE.card_plane_size(rules_array(rules, wild=True)) + 21 + n,
                              np.int8))
    else:
        parts += [_plane(o.last_move.cards, rules), np.eye(21, dtype=np.int8)[
            int(o.last_move.kind)], seat_hot(o.last_player)]
    plays = [(s, a) for s, phase, a in o.history if phase == "play"][-KE.HISTORY_LEN:]
    rows = [np.zeros(KE.card_plane_size(rules_array(rules, wild=True)) + n + 1, np.int8)] * (
        KE.HISTORY_LEN - len(plays))
    for s, a in plays:
        rows.append(np.concatenate([_plane(a.cards, rules), seat_hot(s),
                                    [int(a.is_pass)]]).astype(np.int8))
    parts += rows
    phases = ["bid", "reveal", "double", "play", "done"]
    parts.append(np.eye(5, dtype=np.int8)[phases.index(o.phase)])
    parts += [seat_hot(o.to_act), seat_hot(o.landlord), seat_hot(o.partner)]
    parts.append(np.eye(rules.max_bid + 1, dtype=np.int8)[o.bid])
    parts.append(np.eye(16, dtype=np.int8)[min(o.multiplier.bit_length() - 1, 15)])
    parts.append(np.array([o.doubled[s] for s in rel], np.int8))
    trump = np.zeros(4, np.int8)
    if o.trump >= 0:
        trump[o.trump] = 1
    parts.append(trump)
    if rules.wilds:                     # the wild ranks, and the rank the move to beat reads as
        parts.append(np.array([r in (o.wild or "") for r in cards.TOKENS[:13]], np.int8))
        parts.append(np.zeros(15, np.int8) if o.last_move.is_pass else
                     np.eye(15, dtype=np.int8)[o.last_move.rank])
    return np.concatenate(parts).astype(np.int8)


@pytest.mark.parametrize("preset", PRESETS)
def test_encoding_is_the_observation(preset):
    rules = fastdou.rules(preset)
    rng = random.Random(3)
    for trial in range(25):
        g, _ = _random_prefix(rules, 9, rng, rng.choice(["bidding", "play"]))
        seat = rng.randrange(rules.players)
        assert np.array_equal(g.encode(seat), _expected_encoding(g, seat))
        assert len(g.encode(seat)) == KE.encoding_size(rules_array(rules, wild=True))


def test_played_cards_and_history_follow_the_moves():
    g = Game.new("classic", seed=1, start="play")
    low = cards.TOKENS[int(np.flatnonzero(g.perfect_information_hand(0))[0])]
    g.play(low)
    g.play_id(g.action_table.pass_id)
    o = g.observation(2)
    assert cards.to_text(o.played[0]) == low and o.played[1].sum() == 0
    assert o.trick == ((0, Move.parse(low)), (1, Move.PASS))
    assert (o.last_player, o.to_act, o.landlord, o.bid) == (0, 2, 0, 1)
    assert o.kitty is not None and o.hand.sum() == 17 and o.cards_left == (19, 17, 17)
    g.play_id(g.action_table.pass_id)               # the trick is won: seat 0 leads again
    assert g.observation(1).trick == () and g.observation(1).last_move.is_pass


def _dark_known_by_history(g):
    st = g.state
    partner, marked = int(st[S.G_PARTNER]), int(st[S.G_MARKED])
    for s, phase, a in g.history:
        if s != partner:
            continue
        if phase == "reveal" and a == 1:
            return True
        if phase == "play" and a.cards[marked // 4] > 0:
            return True
    return False


def test_five_player_dark_landlord_becomes_known():
    rng = random.Random(5)
    seen_known = seen_hidden = 0
    for deal in range(60):
        g = Game.new("five_player", seed=2, deal=deal)
        partner = int(g.state[S.G_PARTNER])
        while not g.is_terminal():
            ids = g.legal_action_ids()
            g.push_id(ids[rng.randrange(len(ids))])
            known = _dark_known_by_history(g)
            for seat in range(5):
                expect = partner if partner >= 0 and (known or seat == partner) else -1
                assert g.observation(seat).partner == expect
            if partner >= 0:
                seen_known += known
                seen_hidden += not known
    assert seen_known and seen_hidden



def test_a_wild_encoding_tells_apart_two_readings_of_the_same_cards():
    """Under wild cards one multiset of one kind may read as two ranks (8 9 T J and a wild
    7: 7-J or 8-Q); the encoding of the move to beat says which."""
    rng = random.Random(5)
    found = 0
    for deal in range(40):
        g = Game.new("laizi", seed=2, deal=deal, start="play")
        while not g.is_terminal() and found < 5:
            moves = g.legal_actions()
            same = {}
            for m in moves:
                same.setdefault((m.packed, m.kind), []).append(m)
            twins = [ms for ms in same.values() if len({m.rank for m in ms}) > 1]
            if twins:
                a, b = twins[0][:2]
                seen = []
                for m in (a, b):
                    t = g.clone()
                    t.play(m)
                    seen.append(t.encode(t.current_player))
                assert not np.array_equal(*seen), (a.text(), b.text())
                found += 1
            g.play(moves[rng.randrange(len(moves))])
    assert found == 5
