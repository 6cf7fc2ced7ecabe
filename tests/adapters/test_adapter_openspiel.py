"""OpenSpiel: fastdou's OpenSpiel action ids and its pyspiel games, against the installed
open_spiel (pyspiel's own strings, legal actions and returns)."""

import math

import numpy as np
import pytest

import fastdou
from fastdou import kernels as K
from fastdou.errors import IllegalMoveError
from fastdou.kinds import Kind
from fastdou.openspiel_ids import OPENSPIEL_PASS, OPENSPIEL_SIZE, PLAY_BASE, openspiel_ids
from fastdou.rules import rules_array

pyspiel = pytest.importorskip("pyspiel")

OS_RULES = fastdou.rules("classic", profile="openspiel")
_OS_RANKS = "3456789TJQKA2"


def _universe(rules):
    deck = np.uint64(fastdou.cards.pack(rules.deck))
    out = K.new_moves(K.count_leading(deck, rules_array(rules)))
    K.leading_moves(deck, rules_array(rules), out)
    return out


def _os_counts(text):
    """pyspiel's card text (``'33(BWJ)'``) -> 15 counts."""
    counts = np.zeros(15, np.int64)
    text = text.replace("(BWJ)", "B").replace("(CJ)", "R")
    for ch in text:
        counts[_OS_RANKS.index(ch) if ch in _OS_RANKS else 13 + "BR".index(ch)] += 1
    return counts


def os_move(text):
    """The fastdou move pyspiel's action string means: its cards, and the reading the string
    names. ``'333444555-666'`` (a plane's chain, '-', its wings) names the plane; a string
    without '-' names the one reading of those cards that is not a plane with wings."""
    if "-" in text:
        chain, wings = text.split("-")
        core, wing = _os_counts(chain), _os_counts(wings)
        assert set(core[core > 0]) == {3}
        ranks = np.flatnonzero(core)
        length = len(ranks)
        assert np.array_equal(ranks, np.arange(ranks[0], ranks[0] + length))
        kind = Kind.PLANE_SOLO if wing.sum() == length else Kind.PLANE_PAIR
        assert wing.sum() == length * (1 if kind == Kind.PLANE_SOLO else 2)
        return fastdou.Move(fastdou.cards.pack(core + wing), kind, int(ranks[-1]), length)
    options = [m for m in fastdou.classify(_os_counts(text), OS_RULES)
               if m.kind not in (Kind.PLANE_SOLO, Kind.PLANE_PAIR)]
    assert len(options) == 1, (text, options)
    return options[0]


@pytest.fixture(scope="module")
def os_game():
    return pyspiel.load_game("dou_dizhu")


@pytest.fixture(scope="module")
def os_strings(os_game):
    state = os_game.new_initial_state()
    return [state.action_to_string(0, i) for i in range(os_game.num_distinct_actions())]


def test_layout_matches_pyspiel(os_game, os_strings):
    assert OPENSPIEL_SIZE == os_game.num_distinct_actions() == 26057
    assert os_strings[OPENSPIEL_PASS] == "Pass"
    assert os_strings[1:PLAY_BASE] == ["Bid 1", "Bid 2", "Bid 3"]


def test_every_id_is_the_same_move(os_strings):
    universe = _universe(OS_RULES)
    ids = openspiel_ids(universe)
    assert len(universe) == 26053
    assert sorted(ids.tolist()) == list(range(PLAY_BASE, OPENSPIEL_SIZE))
    for record, i in zip(universe, ids):
        assert fastdou.Move.from_record(record) == os_move(os_strings[i]), (i, os_strings[i])


def test_ambiguous_cards_one_id_per_reading(os_strings):
    readings = fastdou.classify("333444555666", OS_RULES)
    assert len(readings) == 3
    ids = openspiel_ids(np.array([m.record for m in readings]))
    assert sorted(os_strings[i] for i in ids) == [
        "333444555-666", "333444555666", "444555666-333"]


@pytest.mark.parametrize("text, kind", [("33334455", "FOUR_TWO_PAIR"),
                                        ("333444555666+7777", None), ("333444+BR", None)])
def test_moves_openspiel_does_not_number(text, kind):
    rules = fastdou.rules("classic", profile="douzero")
    move = fastdou.Move.parse(text, rules, kind=kind)
    with pytest.raises(IllegalMoveError, match="openspiel profile"):
        openspiel_ids(move.record[None, :])


def test_bad_shape():
    with pytest.raises(IllegalMoveError, match="shape"):
        openspiel_ids(np.zeros(4, np.uint64))


@pytest.fixture(scope="module")
def os_table():
    return fastdou.action_table(OS_RULES)


def test_table_actions_are_pyspiels(os_table, os_strings):
    assert os_table.size == len(os_strings) and os_table.pass_id == OPENSPIEL_PASS
    assert os_table.n_plays == 26053
    for i, text in enumerate(os_strings):
        action = os_table.action(i)
        if text == "Pass":
            assert action == fastdou.Move.PASS
        elif text.startswith("Bid "):
            assert action == "bid_" + text[4:]
        else:
            assert action == os_move(text), (i, text, action)


def test_table_ids_round_trip(os_table):
    for i in range(os_table.size):
        assert os_table.id(os_table.action(i)) == i
    records = os_table.id_records[PLAY_BASE:]
    assert np.array_equal(os_table.ids(records), np.arange(PLAY_BASE, os_table.size))


# ------------------------------------------------------------------ the pyspiel games
from fastdou.adapters import openspiel as A  # noqa: E402  (registers the games)
from fastdou.kernels import encoding as KE  # noqa: E402

GAME_NAMES = sorted(A.GAMES)


def _rules_of(name):
    preset, profile = A.GAMES[name]
    return fastdou.rules(preset, profile=profile)


def test_every_preset_without_wild_cards_is_registered():
    assert {f"python_fastdou_{p}" for p in fastdou.PRESETS if p != "laizi"} | {
        "python_fastdou_classic_openspiel"} == set(A.GAMES)
    assert set(A.GAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_sim(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_game_constants(name):
    game, rules = pyspiel.load_game(name), _rules_of(name)
    gtype = game.get_type()
    assert game.num_players() == rules.players
    assert game.num_distinct_actions() == fastdou.action_table(rules).size
    assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.min_utility() == -game.max_utility() < 0
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.observation_tensor_shape() == [int(KE.encoding_size(rules_array(rules)))]


def test_classic_bounds():
    # 13 bombs and the rocket x2 each, spring x2, bid 3: a stake of 3 x 2^15; the landlord
    # takes two stakes. OpenSpiel's own bound (one spring or bomb fewer) lies inside.
    game = pyspiel.load_game("python_fastdou_classic_openspiel")
    assert game.max_utility() == 2 * 3 * 2 ** 15
    assert game.max_utility() >= pyspiel.load_game("dou_dizhu").max_utility()
    assert game.max_game_length() == 1000 * 12 + 3 * 54


def _random_game(state, rng):
    """Play ``state`` to the end at random (chance by its probabilities); yield each
    decision state before its action."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            yield state
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_observations_and_returns(name, rng):
    game = pyspiel.load_game(name)
    for _ in range(3):
        state = game.new_initial_state()
        for s in _random_game(state, rng):
            g = s.fastdou_game
            seat = int(rng.integers(game.num_players()))
            assert np.array_equal(s.observation_tensor(seat), g.encode(seat))
            assert s.legal_actions() == sorted(g.legal_action_ids().tolist())
        assert sum(state.returns()) == pytest.approx(0, abs=1e-9)   # thirds: float sums
        g = state.fastdou_game
        if g is not None:
            assert state.returns() == list(g.result().scores)


def _deal_probability(rules, places):
    """The chance of dealing ``places`` (15 counts per seat, the kitty, the cards set aside):
    of all ways to lay the deck's distinct cards into the places' slots, the share that
    gives these counts."""
    places = np.asarray(places, np.int64)
    log_p = sum(math.lgamma(int(c) + 1) for c in rules.deck)            # copies of a rank
    log_p -= sum(math.lgamma(int(n) + 1) for n in places.ravel())
    log_p += sum(math.lgamma(int(n) + 1) for n in places.sum(axis=1))  # slots of a place
    log_p -= math.lgamma(int(rules.deck.sum()) + 1)
    return math.exp(log_p)


@pytest.mark.parametrize("name", ["python_fastdou_classic", "python_fastdou_two_player",
                                  "python_fastdou_five_player"])
def test_deal_by_chance_is_exact(name, rng):
    """A deal's chance nodes multiply to the deal's exact probability (and 1/players for who
    opens), and deal_actions finds them."""
    game, rules = pyspiel.load_game(name), _rules_of(name)
    plan = A.deal_plan(rules)
    n = rules.players
    for _ in range(3):
        state, prob = game.new_initial_state(), 1.0
        while state._c.stage == A._DEALING:
            outcomes = dict(state.chance_outcomes())
            assert sum(outcomes.values()) == pytest.approx(1.0)
            assert max(outcomes) < game.max_chance_outcomes()
            action = int(rng.choice(list(outcomes), p=list(outcomes.values())))
            prob *= outcomes[action]
            state.apply_action(action)
        if state.fastdou_game is not None:
            g = state.fastdou_game
            hands = [g.perfect_information_hand(s) for s in range(n)]
            kitty = fastdou.cards.unpack(int(g.state[fastdou.kernels.state.G_KITTY]))
            first = g.current_player
        else:                               # marked-card rules: two nodes to come
            hands, kitty, first = [state.dealt(s) for s in range(n)], state.dealt(n), 0
        places = [h.astype(np.int64) for h in hands] + [kitty.astype(np.int64)]
        if len(plan.caps) > n + 1:
            places.append(rules.deck - sum(places))
        openers = max(o for _, o in plan.nodes)
        assert prob == pytest.approx(_deal_probability(rules, places) / openers, rel=1e-9)
        replay = game.new_initial_state()
        for action in A.deal_actions(rules, hands, kitty, first):
            replay.apply_action(action)
        assert str(replay) == str(state)


def test_deal_by_chance():
    state = pyspiel.load_game("python_fastdou_two_player").new_initial_state()
    rules = _rules_of("python_fastdou_two_player")
    plan = A.deal_plan(rules)
    assert plan.caps == (17, 17, 3, 9)            # two seats, the kitty, the cards aside
    assert plan.nodes[0] == (((13, 1), (14, 1)), 2)   # the jokers, and who opens
    joker = A.compositions(1, 4)
    state.apply_action((joker.index((0, 0, 0, 1)) * 4 + joker.index((1, 0, 0, 0))) * 2 + 1)
    caps = (16, 17, 3, 8)
    outcomes = dict(state.chance_outcomes())      # the first rank: 5 (no 3s or 4s)
    splits = A.compositions(4, 4)
    expect = {i: math.prod(math.comb(c, k) for c, k in zip(caps, s)) / math.comb(44, 4)
              for i, s in enumerate(splits)}
    assert outcomes == pytest.approx({i: p for i, p in expect.items() if p})
    assert splits.index((0, 0, 4, 0)) not in outcomes      # four cards in a kitty of 3
    state = pyspiel.load_game("python_fastdou_two_player").new_initial_state()
    order = np.repeat(np.arange(15), rules.deck)[::-1]      # the highest cards first
    hands = [np.bincount(order[:17], minlength=15), np.bincount(order[17:34], minlength=15)]
    kitty = np.bincount(order[34:37], minlength=15)
    actions = A.deal_actions(rules, hands, kitty, first=1)
    assert len(actions) == len(plan.nodes) == 11        # the 2s are not drawn
    for action in actions:
        state.apply_action(action)
    g = state.fastdou_game
    assert g.current_player == 1 and not state.is_chance_node()
    for seat in range(2):
        assert np.array_equal(g.perfect_information_hand(seat), hands[seat])
    dealt_kitty = fastdou.cards.unpack(int(g.state[fastdou.kernels.state.G_KITTY]))
    assert np.array_equal(dealt_kitty, kitty)


def test_classic_deal_takes_13_nodes():
    game = pyspiel.load_game("python_fastdou_classic")
    plan = game.plan
    assert len(plan.nodes) == 13 and plan.nodes[0] == (((13, 1), (14, 1)), 3)
    assert plan.nodes[1:] == tuple((((r, 4),), 1) for r in range(12))
    assert plan.last == (12, 4)                            # the 2s fill the room left
    assert game.max_chance_outcomes() == 48                # jokers 4 x 4, 3 openers


def _deal_at_random(state, rng):
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def test_redeal_returns_to_chance(rng):
    state = pyspiel.load_game("python_fastdou_classic").new_initial_state()
    _deal_at_random(state, rng)
    table = fastdou.action_table("classic")
    for _ in range(3):
        state.apply_action(table.pass_id)
    assert state.is_chance_node() and not state.is_terminal()
    assert str(state).startswith("deal 1:")


def test_void_after_max_redeals(rng):
    rules = _rules_of("python_fastdou_four_player")
    state = pyspiel.load_game("python_fastdou_four_player").new_initial_state()
    table = fastdou.action_table(rules)
    for _ in range(rules.max_redeals):
        _deal_at_random(state, rng)
        for _ in range(4):
            state.apply_action(table.pass_id)
    assert state.is_terminal() and state.returns() == [0.0] * 4


def test_marked_card_by_chance(rng):
    rules = _rules_of("python_fastdou_five_player")
    state = pyspiel.load_game("python_fastdou_five_player").new_initial_state()
    for _ in range(len(A.deal_plan(rules).nodes)):                  # the cards
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    hands = np.array([state.dealt(s) for s in range(5)])
    marked = dict(state.chance_outcomes())
    normal = hands[:, :13]
    assert marked == pytest.approx({s * 15 + r: normal[s, r] / normal.sum()
                                    for s, r in zip(*np.nonzero(normal))})
    bright, rank = divmod(max(marked), 15)
    state.apply_action(max(marked))
    twins = dict(state.chance_outcomes())
    held = hands[:, rank] - (np.arange(5) == bright)
    expect = {t: held[t] / 7 for t in range(5) if held[t]}
    if held.sum() < 7:
        expect[5] = (7 - held.sum()) / 7                # the twin lies in the kitty
    assert twins == pytest.approx(expect)
    dark = min(twins)
    state.apply_action(dark)
    g = state.fastdou_game
    assert g.landlord == bright and g.phase == "reveal"
    assert g.state[fastdou.kernels.state.G_PARTNER] == (-1 if dark in (bright, 5) else dark)


# ------------------------------------------------------------------ against OpenSpiel's game
CHAINS = (Kind.SOLO_CHAIN, Kind.PAIR_CHAIN, Kind.TRIO_CHAIN)


def _os_rank(card):
    """OpenSpiel's card id -> rank index (its CardToRank: suits of 13, then the jokers)."""
    return card - 52 + 13 if card >= 52 else card % 13


def _expected_os_actions(game, table, mine):
    """The legal ids OpenSpiel's dou_dizhu gives where fastdou gives ``mine``: it forbids a
    pure chain (solo, pair, trio) starting at a rank the player holds four of, and it lets a
    bomb answer the rocket."""
    expected, differences = set(mine), []
    if game.phase != "play":
        return expected, differences
    hand = game.perfect_information_hand(game.current_player)
    for i in mine:
        move = table.action(i)
        if i >= PLAY_BASE and move.kind in CHAINS and hand[move.rank - move.length + 1] == 4:
            expected.discard(i)
            differences.append("chain from a four")
    if game.last_move.kind == Kind.ROCKET:
        for r in np.flatnonzero(hand[:13] == 4):
            expected.add(table.id(fastdou.Move.parse(fastdou.cards.TOKENS[r] * 4)))
            differences.append("bomb on the rocket")
    return expected, differences


def _replay(os_game, fd_game, table, rng, seen):
    """Deal one random OpenSpiel deal to both games, then play random common actions."""
    os_state, fd_state = os_game.new_initial_state(), fd_game.new_initial_state()
    face_up, cards = int(rng.integers(51)), rng.permutation(54)
    os_state.apply_action(face_up)
    for c in cards[:51]:
        os_state.apply_action(51 + int(c))          # card i goes to seat i % 3
    hands = [np.bincount([_os_rank(int(c)) for c in cards[seat:51:3]], minlength=15)
             for seat in range(3)]
    kitty = np.bincount([_os_rank(int(c)) for c in cards[51:]], minlength=15)
    for action in A.deal_actions(OS_RULES, hands, kitty, first=face_up % 3):
        fd_state.apply_action(action)               # the face-up card's holder bids first
    bomb_ids = set(range(table.id("3333"), table.size))
    while not os_state.is_terminal():
        assert os_state.current_player() == fd_state.current_player()
        mine = set(fd_state.legal_actions())
        expected, differences = _expected_os_actions(fd_state.fastdou_game, table, mine)
        seen.update(differences)
        assert set(os_state.legal_actions()) == expected
        common = sorted(mine & expected)
        bombs = [a for a in common if a in bomb_ids]
        action = int(rng.choice(bombs if bombs and rng.random() < 0.5 else common))
        os_state.apply_action(action)
        fd_state.apply_action(action)
    if fd_state.is_chance_node():       # all passed: fastdou redeals, OpenSpiel scores 0
        assert os_state.returns() == [0.0] * 3
        seen.add("redeal")
        return
    assert fd_state.is_terminal()
    assert fd_state.returns() == os_state.returns()
    bid = fd_state.fastdou_game.result().bid
    seen.add("multiplier %d" % (abs(os_state.returns()[1]) // bid))


def test_replay_against_dou_dizhu(os_game):
    fd_game = pyspiel.load_game("python_fastdou_classic_openspiel")
    table = fastdou.action_table(OS_RULES)
    rng, seen = np.random.default_rng(20261201), set()
    for _ in range(200):
        _replay(os_game, fd_game, table, rng, seen)
    # the run met both documented differences, a redeal, bombs and springs
    assert {"chain from a four", "bomb on the rocket", "redeal", "multiplier 4",
            "multiplier 8"} <= seen
