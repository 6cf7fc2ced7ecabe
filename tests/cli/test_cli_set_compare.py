"""``--set FIELD=VALUE`` reaches every Rules field with the API's errors, and ``fastdou
compare`` rotates the policies through every seat of the same deals."""

import json

import numpy as np
import pytest

import fastdou
from fastdou.cli import main
from fastdou.sim.compare import compare, rotations
from fastdou.kinds import Kind
from fastdou.overrides import SETTABLE, parse_sets

# field -> (preset, text, expected value): a valid change of every settable field.
EVERY_FIELD = {
    "players": ("classic", "2", 2),
    "decks": ("classic", "2", 2),
    "removed_ranks": ("two_player", "0", (0,)),
    "hand_size": ("classic", "16", 16),
    "kitty": ("classic", "2", 2),
    "landlord_gets_kitty": ("classic", "false", False),
    "kinds": ("classic", "solo,pair,trio", frozenset({Kind.SOLO, Kind.PAIR, Kind.TRIO})),
    "solo_chain_min": ("classic", "6", 6),
    "pair_chain_min": ("classic", "4", 4),
    "trio_chain_min": ("classic", "3", 3),
    "quad_chain_min": ("emperor", "3", 3),
    "chain_low": ("classic", "1", 1),
    "chain_high": ("classic", "10", 10),
    "rocket_kickers": ("classic", "true", True),
    "bomb_wings": ("classic", "yes", True),
    "wing_trio": ("classic", "anywhere", "anywhere"),
    "joker_pairs": ("emperor", "off", False),
    "bomb_min": ("four_player", "5", 5),
    "bomb_max": ("four_player", "7", 7),
    "bomb_order": ("classic", "rank", "rank"),
    "joker_bombs": ("classic", "none", "none"),
    "joker_solos": ("jinling", "true", True),
    "kitty_trump": ("jinling", "false", False),
    "kitty_shown": ("classic", "no", False),
    "max_bid": ("classic", "4", 4),
    "card_points": ("jinling", ",".join(["1"] * 15), (1,) * 15),
    "bidding": ("classic", "call", "call"),
    "max_redeals": ("classic", "3", 3),
    "doubling": ("classic", "farmers", "farmers"),
    "max_grabs": ("two_player", "2", 2),
    "handicap": ("two_player", "0", False),
    "spring": ("classic", "none", "none"),
    "scoring": ("classic", "team", "team"),
    "bomb_factors": ("classic", "1,1,1,1,3,3,3,3,3", (1, 1, 1, 1, 3, 3, 3, 3, 3)),
    "joker_bomb_factor": ("classic", "4", 4),
    "four_two": ("classic", "false", None),
    "wilds": ("classic", "1", 1),                  # through `moves` too
    "soft_below_hard": ("classic", "false", False),
    "soft_bomb_factor": ("classic", "3", 3),
    "wild_bomb_factor": ("classic", "8", 8),
}


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_table_covers_every_field():
    assert set(EVERY_FIELD) == set(SETTABLE)


@pytest.mark.parametrize("field", sorted(EVERY_FIELD))
def test_set_reaches_every_field(capsys, field):
    preset, text, expected = EVERY_FIELD[field]
    if field == "wilds":
        status, out, err = run(capsys, "moves", "5557", "--rules", preset, "--set",
                               f"{field}={text}", "--wild", "7", "--json")
        assert status == 0, err
        assert json.loads(out)["moves"][-1] == {"text": "5557(5)", "kind": "bomb", "rank": 2,
                                                "length": 1, "bomb_class": "soft"}
    status, out, err = run(capsys, "simulate", "--deals", "20", "--rules", preset,
                           "--set", f"{field}={text}", "--json")
    assert status == 0, err
    got = fastdou.Rules.from_json(json.loads(out)["rules_fields"])
    assert got == fastdou.rules(preset, **parse_sets([f"{field}={text}"]))
    if field == "four_two":
        assert not got.four_two
    else:
        assert getattr(got, field) == expected
        assert getattr(got, field) != getattr(fastdou.rules(preset), field)


def test_set_is_repeatable_and_reaches_moves(capsys):
    status, out, _ = run(capsys, "simulate", "--deals", "20", "--rules", "four_player",
                         "--set", "bomb_min=5", "--set", "bomb_max=6", "--set",
                         "bomb_min=6", "--json")
    fields = json.loads(out)["rules_fields"]
    assert status == 0 and (fields["bomb_min"], fields["bomb_max"]) == (6, 6)
    status, out, _ = run(capsys, "moves", "3333", "--set", "bomb_min=0", "--json")
    assert status == 0 and "bomb" not in {m["kind"] for m in json.loads(out)["moves"]}


@pytest.mark.parametrize("item,message", [
    ("bomb_mn=5", "unknown rules field 'bomb_mn'"),
    ("bomb_min", "FIELD=VALUE"),
    ("bomb_min=five", "bomb_min must be a whole number"),
    ("bomb_min=1.5", "bomb_min must be a whole number"),
    ("handicap=maybe", "handicap must be true or false"),
    ("bomb_factors=1,x", "bomb_factors must be a whole number"),
    ("kinds=solo,pear", "unknown kind 'pear'"),
    ("name=mine", "preset name and --profile"),
    ("doubling=sometimes", "doubling must be one of"),
    ("bomb_min=9", "do not fit"),
    ("bomb_factors=1,2", "bomb_factors must be 9 whole numbers"),
    ("players=9", "players must be 2 to 8"),
])
def test_set_errors_are_one_line(capsys, item, message):
    status, out, err = run(capsys, "simulate", "--deals", "10", "--set", item)
    assert status == 2 and out == ""
    assert err.startswith("fastdou: error:") and err.count("\n") == 1
    assert message in err


def test_set_range_errors_are_the_apis():
    with pytest.raises(fastdou.RulesError) as api:
        fastdou.rules("classic", bomb_min=9)
    with pytest.raises(fastdou.RulesError) as cli:
        fastdou.rules("classic", **parse_sets(["bomb_min=9"]))
    assert str(api.value) == str(cli.value)


def test_rotations_put_every_policy_in_every_seat():
    for k in (2, 3, 4, 5):
        for players in (2, 3, 4, 5):
            rots = rotations(k, players)
            for seat in range(players):
                assert sorted(r[seat] for r in rots) == list(range(k))


def test_compare_equals_the_rotated_runs():
    rules = fastdou.rules("classic")
    got = compare(["greedy", "random"], 1500, rules, seed=4)
    per = np.zeros((2, 1500))
    for seat_of in rotations(2, 3):
        res = fastdou.simulate(1500, rules, [["greedy", "random"][i] for i in seat_of],
                               seed=4, per_deal=True).per_deal
        for s, i in enumerate(seat_of):
            per[i] += res["scores"][:, s]
    per /= 3
    for i in range(2):
        assert got.per_policy[i]["score"] == pytest.approx(per[i].mean())
    d = per[1] - per[0]
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(len(d))
    assert got.differences[0]["mean"] == pytest.approx(d.mean())
    assert got.differences[0]["ci95"] == pytest.approx([d.mean() - half, d.mean() + half])
    # zero-sum: the two policies' figures cancel; greedy beats random clearly
    assert got.per_policy[0]["score"] == pytest.approx(-got.per_policy[1]["score"])
    assert got.differences[0]["ci95"][1] < 0


def test_compare_of_a_policy_with_itself_is_exactly_zero():
    got = compare(["random", "random"], 800, "four_player", seed=1)
    assert got.differences[0]["mean"] == 0 and got.differences[0]["ci95"] == [0, 0]


def test_compare_command_line(capsys):
    status, out, err = run(capsys, "compare", "--policies", "greedy", "random", "--deals",
                           "600", "--rules", "two_player", "--set", "max_grabs=1", "--json")
    assert status == 0, err
    d = json.loads(out)
    assert d["rules"]["max_grabs"] == 1 and d["policies"] == ["greedy", "random"]
    assert d["per_policy"][0]["score"] == pytest.approx(
        compare(["greedy", "random"], 600, fastdou.rules("two_player", max_grabs=1))
        .per_policy[0]["score"])
    status, out, _ = run(capsys, "compare", "--policies", "greedy", "random", "--deals",
                         "300")
    assert status == 0 and "greedy" in out and "95% CI" in out


@pytest.mark.parametrize("argv,message", [
    (["--policies", "greedy"], "2 to 16 policies"),
    (["--policies", "greedy", "clever"], "unknown policy"),
    (["--policies", "greedy", "nosuchmodule:fn"], "cannot import policy"),
    (["--policies", "greedy", "random", "--deals", "0"], "whole number"),
    (["--policies", "greedy", "random", "--set", "x=1"], "unknown rules field"),
])
def test_compare_errors_are_one_line(capsys, argv, message):
    status, out, err = run(capsys, "compare", *argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert message in err


def test_rules_command_shows_house_rules(capsys):
    status, out, _ = run(capsys, "rules", "four_player", "--set", "bomb_min=5", "--json")
    assert status == 0 and json.loads(out)["bomb_min"] == 5
    status, _, err = run(capsys, "rules", "--set", "bomb_min=5")
    assert status == 2 and "need a preset name" in err
