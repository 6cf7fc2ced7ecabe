"""Rule sets: the eight presets of RULES.md §4, the kicker profiles of §2, validated overrides,
and the frozen Rules value with its kernel array."""

import dataclasses

import numpy as np
import pytest

import fastdou
from fastdou import Kind, cards
from fastdou import kernels as K
from fastdou.kernels import layout as L

CLASSIC_KINDS = {"solo", "pair", "trio", "trio_solo", "trio_pair", "solo_chain", "pair_chain",
                 "trio_chain", "plane_solo", "plane_pair", "four_two_solo", "four_two_pair"}

# RULES.md §4, preset by preset.
PRESETS = {
    "classic": dict(
        players=3, decks=1, hand_size=17, kitty=3, landlord_size=20, deck_size=54,
        solo_chain_min=5, pair_chain_min=3, trio_chain_min=2, bomb_min=4, bomb_max=4,
        joker_pairs=False, joker_bombs="all", max_move=20, kinds=CLASSIC_KINDS),
    "two_player": dict(
        players=2, decks=1, hand_size=17, kitty=3, landlord_size=20, deck_size=46,
        solo_chain_min=5, pair_chain_min=3, trio_chain_min=2, bomb_min=4, bomb_max=4,
        joker_pairs=False, joker_bombs="all", max_move=20, kinds=CLASSIC_KINDS,
        chain_low=2, chain_high=L.ACE),
    "two_landlords": dict(
        players=2, decks=1, hand_size=20, kitty=3, landlord_size=23, deck_size=54,
        solo_chain_min=5, pair_chain_min=3, trio_chain_min=2, bomb_min=4, bomb_max=4,
        joker_pairs=False, joker_bombs="all", max_move=23, kinds=CLASSIC_KINDS),
    "four_player": dict(
        players=4, decks=2, hand_size=25, kitty=8, landlord_size=33, deck_size=108,
        solo_chain_min=5, pair_chain_min=3, trio_chain_min=2, bomb_min=4, bomb_max=8,
        joker_pairs=True, joker_bombs="all", bomb_order="size_rank", max_move=33,
        kinds={"solo", "pair", "trio", "trio_pair", "solo_chain", "pair_chain", "trio_chain",
               "plane_pair"}),
    "five_player": dict(
        players=5, decks=2, hand_size=21, kitty=3, landlord_size=24, deck_size=108,
        solo_chain_min=5, pair_chain_min=3, trio_chain_min=2, bomb_min=4, bomb_max=8,
        joker_pairs=False, joker_bombs="any", bomb_order="size_rank", max_move=24,
        kinds={"solo", "solo_chain", "pair", "pair_chain", "trio", "trio_chain", "trio_pair",
               "plane_pair"}),
    "emperor": dict(
        players=3, decks=2, hand_size=33, kitty=9, landlord_size=42, deck_size=108,
        solo_chain_min=5, pair_chain_min=4, trio_chain_min=3, quad_chain_min=2, bomb_min=5,
        bomb_max=8, joker_pairs=True, joker_bombs="all", max_move=42,
        kinds={"solo", "solo_chain", "pair", "pair_chain", "trio", "trio_chain", "trio_pair",
               "plane_pair", "quad", "quad_chain", "quad_trio", "carrier", "dress",
               "spaceship"}),
    "jinling": dict(
        players=3, decks=1, hand_size=17, kitty=3, landlord_gets_kitty=False, landlord_size=17,
        deck_size=54, solo_chain_min=5, pair_chain_min=3, bomb_min=3, bomb_max=3,
        bomb_order="rank", joker_bombs="lone", joker_pairs=False, max_move=17,
        joker_solos=False, kitty_trump=True, max_bid=3, scoring="points",
        card_points=(3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 5, 10, 15, 20),      # §4.7
        kinds={"solo", "pair", "solo_chain", "pair_chain"}),
    "laizi": dict(                                                            # §4.8
        players=3, decks=1, hand_size=17, kitty=3, landlord_size=20, deck_size=54,
        solo_chain_min=5, pair_chain_min=3, trio_chain_min=2, bomb_min=4, bomb_max=4,
        joker_pairs=False, joker_bombs="all", max_move=20, kinds=CLASSIC_KINDS, wilds=1,
        soft_below_hard=True, soft_bomb_factor=2, wild_bomb_factor=4,
        bomb_factors=(1, 1, 1, 1, 4, 2, 2, 2, 2), joker_bomb_factor=4),
}

# RULES.md §2's profile table: (four_two, rocket_kickers, bomb_wings, wing_trio).
PROFILES = {
    "standard": (True, False, False, "not_adjacent"),
    "openspiel": (False, False, False, "anywhere"),
    "douzero": (True, True, True, "anywhere"),
}


def kind_names(r):
    return {k.name.lower() for k in r.kinds}


def kinds_played(hand, r):
    """The kind names of the moves that ``hand`` may lead."""
    return {m.kind.name for m in fastdou.legal_moves(hand, rules=r)}


def profile_fields(r):
    return (r.four_two, r.rocket_kickers, r.bomb_wings, r.wing_trio)


# ------------------------------------------------------------------ presets

def test_exactly_the_seven_presets():
    assert set(fastdou.PRESETS) == set(PRESETS)
    assert set(fastdou.PROFILES) == set(PROFILES)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_fields(name):
    r = fastdou.rules(name)
    want = dict(PRESETS[name])
    assert kind_names(r) == want.pop("kinds")
    for field, value in want.items():
        assert getattr(r, field) == value, field
    assert r.name == name


def test_two_player_deck_has_no_threes_or_fours():
    deck = fastdou.rules("two_player").deck
    assert deck[0] == deck[1] == 0
    assert list(deck[2:13]) == [4] * 11 and list(deck[13:]) == [1, 1]


@pytest.mark.parametrize("name", ["four_player", "five_player", "emperor"])
def test_two_deck_presets_hold_eight_of_a_rank_and_two_jokers(name):
    assert list(fastdou.rules(name).deck) == [8] * 13 + [2, 2]


# ------------------------------------------------------------------ profiles

@pytest.mark.parametrize("profile", PROFILES)
def test_profiles(profile):
    r = fastdou.rules("classic", profile=profile)
    assert r.profile == profile
    assert profile_fields(r) == PROFILES[profile]
    four_two = {"four_two_solo", "four_two_pair"}
    assert kind_names(r) == (CLASSIC_KINDS if r.four_two else CLASSIC_KINDS - four_two)


def test_default_profile_is_standard():
    assert fastdou.rules("classic") == fastdou.rules("classic", profile="standard")


def test_profile_applied_to_rules_object():
    openspiel = fastdou.rules("classic", profile="openspiel")
    assert profile_fields(fastdou.rules(openspiel, profile="douzero")) == PROFILES["douzero"]


# ------------------------------------------------------------------ overrides

def test_override_bomb_min():
    r = fastdou.rules("four_player", bomb_min=5)
    assert (r.bomb_min, r.bomb_max) == (5, 8)
    assert r.array[L.R_BOMB_MIN] == 5
    assert fastdou.rules("four_player").bomb_min == 4      # the preset is untouched
    bombs = [m.text() for m in fastdou.legal_moves("33333", rules=r) if m.kind == Kind.BOMB]
    assert bombs == ["33333"]


def test_override_of_a_rules_object_and_pass_through():
    r = fastdou.rules("four_player")
    assert fastdou.rules(r) is r
    assert fastdou.rules(r, bomb_min=6) == fastdou.rules("four_player", bomb_min=6)
    assert r.replace(bomb_max=6).bomb_max == 6


def test_four_two_false_removes_both_four_two_kinds():
    r = fastdou.rules("classic", four_two=False)
    assert kind_names(r) == CLASSIC_KINDS - {"four_two_solo", "four_two_pair"}
    assert not r.four_two
    assert not r.array[L.R_KINDS] & (1 << L.FOUR_TWO_SOLO | 1 << L.FOUR_TWO_PAIR)
    hand = "33334455"
    assert {"FOUR_TWO_SOLO", "FOUR_TWO_PAIR"} <= kinds_played(hand, fastdou.rules("classic"))
    assert not {"FOUR_TWO_SOLO", "FOUR_TWO_PAIR"} & kinds_played(hand, r)
    assert fastdou.rules("classic", profile="openspiel", four_two=True).four_two


def test_kinds_given_as_names():
    r = fastdou.rules("classic", kinds=["solo", "PAIR", Kind.TRIO])
    assert kind_names(r) == {"solo", "pair", "trio"}
    assert kinds_played("33345", r) == {"SOLO", "PAIR", "TRIO"}


@pytest.mark.parametrize("name, overrides, fragment", [
    ("four_player", dict(bomb_min=6, bomb_max=5), "6..5"),
    ("classic", dict(bomb_max=5), "1 deck"),
    ("classic", dict(bogus_field=1), "bogus_field"),
    ("no_such_preset", {}, "no_such_preset"),
    ("classic", dict(profile="no_such_profile"), "no_such_profile"),
    ("classic", dict(joker_pairs=True), "joker_pairs"),
    ("classic", dict(chain_low=5, chain_high=4), "5..4"),
    ("classic", dict(chain_high=12), "0..12"),
    ("classic", dict(wing_trio="sometimes"), "sometimes"),
    ("classic", dict(kinds=["solo", "triple"]), "triple"),
    ("classic", dict(kinds=["solo", 99]), "99"),
    ("classic", dict(kinds=["bomb"]), "BOMB"),
    ("classic", dict(four_two="yes"), "yes"),
    ("classic", dict(decks=3), "decks"),
    ("classic", dict(players=9), "players"),
    ("classic", dict(max_move=0), "unknown rules field.*max_move"),    # derived, not set
    ("classic", dict(max_bid=0), "max_bid"),
    ("classic", dict(joker_solos=False), "joker_solos"),
    ("classic", dict(kitty_trump=True), "kitty_trump"),
    ("classic", dict(scoring="points"), "card_points"),
    ("jinling", dict(card_points=(1,) * 14), "card_points"),
    ("classic", dict(hand_size=20), "hands of 20"),
    ("four_player", dict(joker_bombs="some"), "some"),
    ("jinling", dict(bomb_order="suit"), "suit"),
])
def test_bad_rules(name, overrides, fragment):
    with pytest.raises(fastdou.RulesError, match=fragment) as info:
        fastdou.rules(name, **overrides)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("overrides", [dict(bomb_min="4"), dict(players="3")], ids=repr)
def test_wrongly_typed_override(overrides):
    with pytest.raises(fastdou.RulesError):
        fastdou.rules("classic", **overrides)


# ------------------------------------------------------------------ the Rules value

def test_rules_is_frozen():
    r = fastdou.rules("classic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.bomb_min = 3
    assert r.bomb_min == 4


def test_rules_is_hashable_by_value():
    a, b = fastdou.rules("classic"), fastdou.rules("classic", profile="standard")
    assert a == b and hash(a) == hash(b)
    table = {a: "standard"}
    assert table[b] == "standard"
    douzero = fastdou.rules("classic", profile="douzero")
    assert douzero != a and douzero not in table
    assert len({fastdou.rules(n) for n in PRESETS}) == len(PRESETS)


@pytest.mark.parametrize("name", PRESETS)
def test_rules_array(name):
    r = fastdou.rules(name)
    a = r.array
    assert a.dtype == np.int64 and a.shape == (L.RULES_SIZE,)
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[L.R_BOMB_MIN] = 2
    assert a[L.R_DECKS] == r.decks
    assert (a[L.R_BOMB_MIN], a[L.R_BOMB_MAX], a[L.R_MAX_MOVE]) == (r.bomb_min, r.bomb_max,
                                                                   r.max_move)
    # The lowered fields mean what the kernels do with them: the kinds bits are the kinds the
    # generator finds in the whole deck, the packed deck holds the preset's cards.
    deck = np.uint64(a[L.R_DECK].view(np.uint64))
    counts = cards.unpack(deck)
    assert counts.sum() == PRESETS[name]["deck_size"]
    assert (counts[:L.SMALL_JOKER] <= 4 * r.decks).all()
    assert (counts[L.SMALL_JOKER:] == r.decks).all()
    out = K.new_moves(K.count_leading(deck, a))
    K.leading_moves(deck, a, out)
    found = {int(k) for k in out[:, 1] & np.uint64(L.INFO_FIELD_MASK)} - {L.BOMB, L.ROCKET}
    assert found == {k for k in range(L.N_KINDS) if a[L.R_KINDS] >> k & 1}
    assert {L.KIND_NAMES[k].lower() for k in found} == PRESETS[name]["kinds"]


def test_max_move_follows_the_largest_hand():
    """max_move is derived: more cards dealt, longer moves allowed."""
    assert fastdou.rules("two_landlords", hand_size=25).max_move == 28
    assert fastdou.rules("jinling").max_move == 17          # the kitty stays out of play
    assert fastdou.rules("classic", kitty=0, hand_size=18).max_move == 18


@pytest.mark.parametrize("name", PRESETS)
def test_seated_rules_keep_every_pattern(name):
    """Rules.seated(n), the rules of an n-seat position: valid for 2..8 seats, and the
    generator's fields (patterns, bombs, max_move, the deck) are the preset's."""
    base = fastdou.rules(name)
    most = 8
    if base.wilds:        # laizi's bomb factors at 8 seats pass what a score holds
        with pytest.raises(fastdou.RulesError, match="past the 2\\*\\*62 scores hold"):
            base.seated(8)
        most = 7
    for seats in range(2, most + 1):
        r = base.seated(seats)
        assert r.players == seats and r.max_move == base.max_move
        assert (r.array[:L.R_PLAYERS] == base.array[:L.R_PLAYERS]).all()
        assert r.array[L.R_JOKER_SOLOS] == base.array[L.R_JOKER_SOLOS]


def test_a_field_of_the_wrong_type_is_named_with_its_article():
    classic = fastdou.rules("classic")
    with pytest.raises(fastdou.RulesError, match="decks must be an int, not '2'"):
        dataclasses.replace(classic, decks="2")
    with pytest.raises(fastdou.RulesError, match="name must be a str, not 3"):
        dataclasses.replace(classic, name=3)


# ------------------------------------------------------------------ Rules' own forms
def _house_rules():
    out = [fastdou.rules(n, profile=p) for n in PRESETS for p in fastdou.PROFILES]
    out += [fastdou.rules("four_player", bomb_min=5), fastdou.rules("classic").seated(2),
            fastdou.rules("five_player").seated(3),
            fastdou.rules("classic", doubling="farmers",
                          bomb_factors=(1, 1, 1, 1, 3, 2, 2, 2, 2)),
            dataclasses.replace(fastdou.rules("jinling"), name="my_house")]
    return out


def _full_json_as_it_was(r):
    """Every field as JSON values, as results files have always written them."""
    out = {}
    for f in dataclasses.fields(r):
        v = getattr(r, f.name)
        out[f.name] = sorted(k.name.lower() for k in v) if isinstance(v, frozenset) else \
            list(v) if isinstance(v, tuple) else v
    return out


def _changes_as_they_were(r):
    """The fields that differ from the preset (name and profile always), as game records
    have always written them."""
    base = fastdou.rules(r.name, profile=r.profile) if r.name in PRESETS else \
        fastdou.Rules(name=r.name, profile=r.profile)
    full, before = _full_json_as_it_was(r), _full_json_as_it_was(base)
    return {k: v for k, v in full.items() if v != before[k] or k in ("name", "profile")}


@pytest.mark.parametrize("r", _house_rules(), ids=lambda r: f"{r.name}-{r.profile}")
def test_json_forms_round_trip_as_written_before(r):
    import json
    full, changes = r.to_json(), r.to_json(changes=True)
    assert json.dumps(full) == json.dumps(_full_json_as_it_was(r))
    assert json.dumps(changes) == json.dumps(_changes_as_they_were(r))
    assert fastdou.Rules.from_json(full) == r == fastdou.Rules.from_json(changes)
    assert fastdou.Rules.from_json(json.loads(json.dumps(full))) == r
    assert r.to_json() == full and fastdou.Rules.from_json(full) == r


def test_json_is_read_over_the_named_preset():
    assert fastdou.Rules.from_json({}) == fastdou.rules("classic")
    assert fastdou.Rules.from_json({"name": "four_player", "bomb_min": 5}) == \
        fastdou.rules("four_player", bomb_min=5)
    assert fastdou.Rules.from_json({"name": "classic", "profile": "douzero"}) == \
        fastdou.rules("classic", profile="douzero")
    assert fastdou.Rules.from_json({"name": "mine", "players": 2}) == \
        fastdou.Rules(name="mine", players=2)
    with pytest.raises(fastdou.RecordError, match="must be an object"):
        fastdou.Rules.from_json(["classic"])
    with pytest.raises(fastdou.RecordError, match="unknown field.*bomb_mn"):
        fastdou.Rules.from_json({"name": "classic", "bomb_mn": 5})
    with pytest.raises(fastdou.RulesError, match="unknown kind 'sol'"):
        fastdou.Rules.from_json({"kinds": ["sol"]})
    with pytest.raises(fastdou.RulesError, match="bombs of 9..4 cards"):
        fastdou.Rules.from_json({"name": "classic", "bomb_min": 9})


def test_the_kernel_array_is_built_in_rules_only():
    """``Rules.array`` is the one place a rules array is laid out and answer_fields run
    (state.py sizes the game state's copy of it by its length)."""
    import pathlib
    root = pathlib.Path(fastdou.__file__).parent
    allowed = {"rules.py", "layout.py", "answer_counts.py", "state.py"}
    for path in [*root.rglob("*.py"), *pathlib.Path(K.__file__).parent.rglob("*.py")]:
        if path.name not in allowed:
            text = path.read_text()
            assert "RULES_SIZE" not in text and "answer_fields" not in text, path


def test_preset_decks_without_rules():
    from fastdou.presets import preset_deck
    for name in PRESETS:
        assert (preset_deck(name) == fastdou.rules(name).deck).all()
    with pytest.raises(fastdou.RulesError, match="unknown preset 'nope'"):
        preset_deck("nope")
