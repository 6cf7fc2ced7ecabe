"""Action ids: RLCard's table read from the installed package, every table's round trips,
and ``Game``'s id methods checked against its ``Move`` methods over random games."""

import random

import numpy as np
import pytest

import fastdou
from fastdou import Game, Move
from fastdou.errors import GameStateError, IllegalMoveError

PRESETS = sorted(fastdou.PRESETS)
ALL_RULES = [fastdou.rules(p) for p in PRESETS] + [
    fastdou.rules("classic", profile=p) for p in ("openspiel", "douzero")]
RULE_IDS = PRESETS + ["classic-openspiel", "classic-douzero"]


def test_classic_ids_are_rlcards():
    utils = pytest.importorskip("rlcard.games.doudizhu.utils")
    table = fastdou.action_table("classic")
    assert table.pass_id == utils.ACTION_2_ID["pass"] == 27471
    assert table.names[:27472] == [utils.ID_2_ACTION[i] for i in range(27472)]
    assert table.names[27472:] == ["bid_1", "bid_2", "bid_3"]


@pytest.mark.parametrize("rules", [r for r in ALL_RULES if not r.wilds],
                         ids=[i for r, i in zip(ALL_RULES, RULE_IDS) if not r.wilds])
def test_every_id_reads_back(rules):
    """(Wild ids: tests/engine/test_wild_ids_game.py.)"""
    table = fastdou.action_table(rules)
    valid = [i for i in range(table.size) if table.is_action(i)]
    assert len(valid) == table.n_plays + 1 + len(table.selection_names)
    assert [table.id(table.action(i)) for i in valid] == valid
    moves = table.moves
    assert len(set(moves)) == len(moves) == table.n_plays
    records = np.array([m.record for m in moves] + [Move.PASS.record], np.uint64)
    ids = table.ids(records)
    assert (table.records(ids) == records).all()
    assert ids[-1] == table.pass_id


def test_ids_reject_what_is_no_action():
    table = fastdou.action_table("classic")
    for bad in (-1, table.size, 2**70, 1.0, True, "27471"):
        with pytest.raises(IllegalMoveError):
            table.action(bad)
    for text in ("BBR", "34", "bid_4"):
        with pytest.raises(fastdou.FastdouError):
            table.id(text)
    with pytest.raises(IllegalMoveError):
        table.records(np.array([0, table.size]))
    assert table.ids(np.array([[1, 1]], np.uint64))[0] == -1     # no such play


def _expected_ids(game):
    """The ids of ``legal_actions()``, mapped by the table's Python lookups."""
    table = game.action_table
    out = []
    for a in game.legal_actions():
        if isinstance(a, Move):
            out.append(table.id(a))
        elif a == 0:
            out.append(table.pass_id)
        else:
            phase = game.phase
            if phase == "bid" and game.rules.bidding in ("score", "score_once"):
                out.append(table.id("bid_%d" % a))
            elif phase == "bid":
                grab = game.rules.bidding == "call_grab" and game.state[
                    fastdou.kernels.state.G_BIDDER] >= 0
                out.append(table.id("grab" if grab else "call"))
            else:
                out.append(table.id(phase))
    return out


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@pytest.mark.parametrize("start", ["bidding", "play"])
def test_legal_ids_are_the_legal_actions(rules, start):
    rng = random.Random(7)
    for deal in range(6):
        g = Game.new(rules, seed=3, deal=deal, start=start)
        twin = g.clone()
        while not g.is_terminal():
            ids = g.legal_action_ids()
            assert list(ids) == _expected_ids(g)
            mask = g.action_mask()
            assert mask.sum() == len(ids) and mask[ids].all()
            k = rng.randrange(len(ids))
            g.play_id(ids[k])
            twin.play(twin.legal_actions()[k])      # the same action through Moves
            assert (g.state == twin.state).all()
        assert g.result() == twin.result()
        assert Game.loads(g.dumps()).result() == g.result()


def test_push_id_checks_phase_and_cards_and_pops_exactly():
    g = Game.new("classic", seed=1)
    table = g.action_table
    with pytest.raises(IllegalMoveError, match="not an action of the bid phase"):
        g.push_id(table.id("3"))
    g.play_id(table.id("bid_3"))
    before = g.state
    with pytest.raises(IllegalMoveError, match="not an action of the play phase"):
        g.push_id(table.id("bid_1"))
    held = g.perfect_information_hand(g.current_player)
    absent = next(r for r in range(15) if held[r] == 0)
    with pytest.raises(IllegalMoveError, match="does not hold"):
        g.push_id(table.id(fastdou.cards.TOKENS[absent]))
    with pytest.raises(IllegalMoveError):
        g.play_id(table.pass_id)                    # the leader may not pass
    g.push_id(table.pass_id)                        # push does not check that
    assert g.pop() == table.pass_id and (g.state == before).all()
    for bad in (-1, table.size, 2**64, 3.0, None):
        with pytest.raises(IllegalMoveError):
            g.push_id(bad)
    assert (g.state == before).all()


def test_push_id_on_a_finished_hand():
    g = Game.new("classic", seed=2, start="play")
    while not g.is_terminal():
        g.push_id(g.legal_action_ids()[-1])
    with pytest.raises(GameStateError):
        g.push_id(g.action_table.pass_id)
    with pytest.raises(IllegalMoveError):
        g.play_id(g.action_table.pass_id)


@pytest.mark.parametrize("preset", PRESETS)
def test_start_play_fixes_the_landlord(preset):
    rules = fastdou.rules(preset)
    g = Game.new(rules, seed=4, deal=1, start="play", landlord=None)
    full = Game.new(rules, seed=4, deal=1)
    landlord = g.landlord
    assert g.phase == "play" and g.current_player == landlord
    assert (g.multiplier, g.state[fastdou.kernels.state.G_BID]) == (1, 1)
    if rules.bidding == "marked":
        assert landlord == full.landlord           # the marked card names it
    else:
        assert landlord == 0
        dealt = full.perfect_information_hand(0).sum()
        kitty = rules.kitty if rules.landlord_gets_kitty else 0
        assert g.perfect_information_hand(0).sum() == dealt + kitty
        g2 = Game.new(rules, seed=4, deal=1, start="play", landlord=1)
        assert g2.landlord == 1 == g2.current_player
    assert Game.loads(g.dumps()).state.tolist() == g.state.tolist()


def test_start_play_from_hands_and_bad_arguments():
    g = Game.new("classic", seed=5)
    hands = [fastdou.cards.to_text(g.perfect_information_hand(s)) for s in range(3)]
    kitty = fastdou.cards.to_text(fastdou.cards.unpack(int(g.state[
        fastdou.kernels.state.G_KITTY])))
    h = Game.from_hands(hands, kitty=kitty, start="play", landlord=2)
    assert h.current_player == h.landlord == 2
    assert h.perfect_information_hand(2).sum() == 20
    assert Game.loads(h.dumps()).state.tolist() == h.state.tolist()
    with pytest.raises(fastdou.ArgumentError):
        Game.new("classic", start="auction")
    with pytest.raises(fastdou.ArgumentError):
        Game.new("classic", landlord=1)
    with pytest.raises(fastdou.ArgumentError):
        Game.new("classic", start="play", landlord=3)
    with pytest.raises(fastdou.ArgumentError):
        Game.new("five_player", start="play", landlord=1)
