"""The compiled game loop (``fastdou.simulate(..., per_deal=True)``) against the plain-Python
reference loop of ``tests/reference/reference_game.py``, written from RULES.md §3-4: every per-deal
field and every seat's score agree exactly, deal by deal, for every preset, with random
policies and with a greedy / random mix, on a few hundred consecutive deals per preset and on
deals picked because they reach rare branches (redeals, void hands, three grabs, lone
landlords, springs, king bombs ...). FASTDOU_SLOW=1 plays ten times as many."""

import numpy as np
import pytest
from numba import njit

import fastdou
from tests.reference import reference_game as ref
from tests.shared.rulesets import SLOW
from fastdou.kernels import engine as E
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.rules import rules_array

PRESETS = tuple(fastdou.PRESETS)
# the reference plays the classic generator's rules (wild cards: tests/engine/test_wild_game.py)
CLASSIC = tuple(p for p in PRESETS if not fastdou.rules(p).wilds)
SEED = 20261130
SCALE = 10 if SLOW else 1
N_RANDOM = {"classic": 300, "two_player": 300, "two_landlords": 300, "four_player": 200,
            "five_player": 150, "emperor": 200, "jinling": 300}
N_MIXED = 100
SCAN = 20_000            # deals simulated (fast) to find rare branches to re-check
PER_BRANCH = 4           # deals re-checked per rare branch


def mixed(rules):
    """Greedy on even seats, random on odd ones."""
    return ["greedy" if s % 2 == 0 else "random" for s in range(rules.players)]


def compared_fields(rules):
    """The per-deal fields compared: all of them."""
    return list(P.RESULT_NAMES)


# ------------------------------------------------------------------ diagnostics

@njit
def _engine_history(rules, seed, index, codes, history):
    state = E.new_state()
    E.start(state, rules, seed, index)
    P.play_out(state, rules, codes, P.policy_stream(seed, index), history)
    return state[S.G_ACTIONS]


def _codes(rules, policies):
    return fastdou.sim.simulation.policy_codes(policies, rules)[0]


def first_divergence(rules, seed, index, policies, trace):
    """Where the engine's actions first differ from the reference's trace (for messages)."""
    history = np.zeros((4096, 4), np.int64)
    n = _engine_history(rules_array(rules), seed, index, _codes(rules, policies), history)
    phases = {v: k for k, v in ref.PHASE_CODES.items()}
    for k in range(min(n, len(trace), len(history))):
        phase, seat, cards, info = (int(x) for x in history[k])
        action = (fastdou.Move.from_record(np.array([cards, info], np.uint64))
                  if phases[phase] == "play" else cards)
        if (phases[phase], seat, action) != trace[k]:
            return (f"step {k}: engine {phases[phase]} seat {seat} {action}, reference "
                    f"{trace[k][0]} seat {trace[k][1]} {trace[k][2]}")
    return f"same first {min(n, len(trace))} actions; engine {n}, reference {len(trace)}"


def disagreements(rules, seed, indices, policies, per_deal, rows):
    """Compare the reference with ``per_deal`` (rows ``rows`` hold deals ``indices``);
    returns one message per disagreeing deal."""
    out = []
    fields = compared_fields(rules)
    for row, index in zip(rows, indices):
        r = ref.play_hand(rules, seed, int(index), policies)
        bad = [f"{name}: engine {int(per_deal[name][row])} reference {r[name]}"
               for name in fields if int(per_deal[name][row]) != r[name]]
        engine_scores = tuple(float(x) for x in per_deal["scores"][row])
        if engine_scores != tuple(float(x) for x in r["scores"]):
            bad.append(f"scores: engine {engine_scores} reference "
                       f"{tuple(str(x) for x in r['scores'])}")
        if bad:
            out.append(f"{rules.name} seed {seed} deal {index} policies {policies}: "
                       + "; ".join(bad) + " | "
                       + first_divergence(rules, seed, int(index), policies, r["trace"]))
    return out


# ------------------------------------------------------------------ conventions

def test_result_encodings_are_the_engines():
    assert (ref.LANDLORD_SIDE, ref.FARMER_SIDE, ref.VOID) == \
        (S.SIDE_LANDLORD, S.SIDE_FARMERS, S.SIDE_VOID)
    assert ref.PHASE_CODES == {"bid": S.PH_BID, "reveal": S.PH_REVEAL,
                               "double": S.PH_DOUBLE, "play": S.PH_PLAY}
    assert ref.REDEAL_CAP == S.MAX_REDEALS_CAP


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_flow_fields_match_rules_md(preset):
    """The reference reads the game-flow fields of the rules object; these are the values
    RULES.md §4 gives each preset."""
    r = fastdou.rules(preset)
    two = (1, 1, 1, 1, 2, 2, 2, 2, 2)
    expected = {
        "classic": dict(players=3, hand_size=17, kitty=3, bidding="score", doubling="none",
                        spring="classic", scoring="landlord", bomb_factors=two,
                        joker_bomb_factor=2, landlord_gets_kitty=True),
        "two_player": dict(players=2, hand_size=17, kitty=3, bidding="call_grab",
                           max_grabs=3, handicap=True, spring="none", scoring="landlord",
                           bomb_factors=two, joker_bomb_factor=2, deck_size=46),
        "two_landlords": dict(players=2, hand_size=20, kitty=3, bidding="call",
                              spring="classic", scoring="landlord", bomb_factors=two,
                              joker_bomb_factor=2, deck_size=54),
        "four_player": dict(players=4, hand_size=25, kitty=8, bidding="score_once",
                            max_redeals=3, spring="classic", scoring="landlord",
                            bomb_factors=(1, 1, 1, 1, 1, 1, 2, 2, 3), joker_bomb_factor=3),
        "five_player": dict(players=5, hand_size=21, kitty=3, bidding="marked",
                            doubling="everyone", spring="losers_silent", scoring="team",
                            bomb_factors=(1, 1, 1, 1, 1, 2, 2, 2, 2), joker_bomb_factor=2),
        "emperor": dict(players=3, hand_size=33, kitty=9, bidding="score", spring="classic",
                        scoring="landlord", bomb_factors=two, joker_bomb_factor=2),
        "jinling": dict(players=3, hand_size=17, kitty=3, landlord_gets_kitty=False,
                        bidding="call", doubling="landlord", spring="none",
                        scoring="points", joker_bomb_factor=1),
        "laizi": dict(players=3, hand_size=17, kitty=3, bidding="score", doubling="none",
                      spring="classic", scoring="landlord",
                      bomb_factors=(1, 1, 1, 1, 4, 2, 2, 2, 2), joker_bomb_factor=4,
                      soft_bomb_factor=2, wild_bomb_factor=4, landlord_gets_kitty=True),
    }[preset]
    for field, value in expected.items():
        assert getattr(r, field) == value, field
    if preset == "jinling":      # bombs do not multiply jinling's settlement
        assert all(f == 1 for f in r.bomb_factors)


@pytest.mark.parametrize("preset", PRESETS)
def test_deal_is_the_engines(preset):
    """The reference's shuffle, first bidder and marked card are the engine's."""
    rules = fastdou.rules(preset)
    for index in range(25):
        d = ref.deal(rules, SEED, index)
        g = fastdou.Game.new(rules, seed=SEED, deal=index)
        st = g.state
        assert int(st[S.G_FIRST]) == d.first
        assert np.array_equal(fastdou.cards.unpack(int(st[S.G_KITTY])), d.kitty)
        total = d.kitty + d.set_aside
        for s in range(rules.players):
            held = g.perfect_information_hand(s).astype(np.int64)
            expected = d.hands[s] + (d.kitty if s == d.bright else 0)
            assert np.array_equal(held, expected), (index, s)
            total = total + d.hands[s]
        assert np.array_equal(total, rules.deck)
        assert int(d.set_aside.sum()) == rules.deck_size - rules.players * rules.hand_size \
            - rules.kitty
        if rules.bidding == "marked":
            assert g.landlord == d.bright
            assert int(st[S.G_PARTNER]) == (d.dark if d.dark != d.bright else -1)
            assert int(st[S.G_MARKED]) == d.marked
            rank = d.marked // 4
            holders = [s for s in range(rules.players) if d.hands[s][rank] > 0]
            assert d.bright in holders and d.dark in holders
        else:
            assert g.current_player == d.first and g.phase == "bid"


# ------------------------------------------------------------------ agreement

@pytest.mark.parametrize("preset", CLASSIC)
def test_random_play_agrees(preset):
    rules = fastdou.rules(preset)
    n = N_RANDOM[preset] * SCALE
    sim = fastdou.simulate(n, rules, "random", seed=SEED, per_deal=True).per_deal
    bad = disagreements(rules, SEED, range(n), "random", sim, range(n))
    assert not bad, f"{len(bad)} of {n} deals disagree:\n" + "\n".join(bad[:10])


@pytest.mark.parametrize("preset", CLASSIC)
def test_greedy_random_mix_agrees(preset):
    rules = fastdou.rules(preset)
    n = N_MIXED * SCALE
    policies = mixed(rules)
    sim = fastdou.simulate(n, rules, policies, seed=SEED + 1, first=5000,
                           per_deal=True).per_deal
    bad = disagreements(rules, SEED + 1, range(5000, 5000 + n), policies, sim, range(n))
    assert not bad, f"{len(bad)} of {n} deals disagree:\n" + "\n".join(bad[:10])


@pytest.mark.parametrize("preset", ["classic", "five_player", "jinling", "two_player"])
def test_all_greedy_agrees(preset):
    rules = fastdou.rules(preset)
    n = 40 * SCALE
    sim = fastdou.simulate(n, rules, "greedy", seed=SEED + 2, per_deal=True).per_deal
    bad = disagreements(rules, SEED + 2, range(n), "greedy", sim, range(n))
    assert not bad, "\n".join(bad[:10])


# Rare branches, found by a fast scan of SCAN deals per policy set, then re-checked with the
# reference. Each branch is (mask, required): a required branch must be reached.
def _branches(rules, f):
    players = rules.players
    decided = f["winner"] != ref.VOID
    b = {
        "landlord wins": (f["winner"] == ref.LANDLORD_SIDE, True),
        "farmers win": (f["winner"] == ref.FARMER_SIDE, True),
        "bomb": (f["bombs"] > 0, True),
        "two bombs": (f["bombs"] > 1, True),
        # springs are rare in random play with big hands
        "void": (f["winner"] == ref.VOID, rules.max_redeals == 1),
    }
    if rules.name != "jinling":
        b["joker bomb"] = (f["rockets"] > 0, True)
    if rules.spring == "classic":
        required = rules.name in ("classic", "two_landlords")
        b["spring"] = (f["spring"] == ref.SPRING, required)
        b["anti-spring"] = (f["spring"] == ref.ANTI_SPRING, required)
    if rules.spring == "losers_silent":
        b["losers silent"] = (f["spring"] > 0, False)
    if rules.bidding in ("score", "score_once", "call"):
        b["redeal"] = (f["redeals"] == 1, True)
        b["two redeals"] = (f["redeals"] >= 2, rules.bidding != "score_once")
    if rules.bidding in ("score", "score_once"):
        for bid in (1, 2, 3):
            b[f"bid {bid}"] = (decided & (f["bid"] == bid), True)
    if rules.bidding == "call_grab":
        for g in range(rules.max_grabs + 1):
            b[f"{g} grabs"] = (f["grabs"] == g, True)
    if rules.bidding == "marked":
        b["lone landlord"] = (f["partner"] == -1, True)
        b["dark landlord"] = (f["partner"] >= 0, True)
        b["two reveals"] = (f["reveals"] == 2, True)
        b["all double"] = (f["doubles"] == players, True)
        b["dark goes out"] = (f["out"] == f["partner"], True)
    if rules.doubling != "none":
        b["doubled"] = (f["doubles"] > 0, True)
        b["not doubled"] = (f["doubles"] == 0, True)
    return b


RARE_RULES = [fastdou.rules(p) for p in CLASSIC] + [
    fastdou.rules("classic", doubling="farmers"),
    fastdou.rules("four_player", max_redeals=1),     # a void hand every ~256 deals
    fastdou.rules("two_player", max_grabs=5),
    fastdou.rules("two_landlords", doubling="everyone"),
]
RARE_IDS = [r.name + ("" if r == fastdou.rules(r.name) else "-house") for r in RARE_RULES]


@pytest.mark.parametrize("rules", RARE_RULES, ids=RARE_IDS)
def test_rare_branches_agree(rules):
    seed = SEED + 3
    n = rules.players
    scans = ["random", "greedy", ["random"] + ["greedy"] * (n - 1),
             ["greedy"] + ["random"] * (n - 1)]
    found, required, bad, checked = set(), set(), [], 0
    for policies in scans:
        sim = fastdou.simulate(SCAN, rules, policies, seed=seed, per_deal=True).per_deal
        picked = {}                                  # row -> the first branch picking it
        for name, (mask, needed) in _branches(rules, sim).items():
            if needed:
                required.add(name)
            rows = np.flatnonzero(mask)[:PER_BRANCH * SCALE]
            if rows.size:
                found.add(name)
            for r in rows:
                picked.setdefault(int(r), name)
        for name in dict.fromkeys(picked.values()):
            rows = [r for r, b in picked.items() if b == name]
            checked += len(rows)
            bad += [f"[{name}] {m}"
                    for m in disagreements(rules, seed, rows, policies, sim, rows)]
    assert not required - found, f"no deal of {len(scans)} x {SCAN} reached " \
                                 f"{sorted(required - found)}"
    assert not bad, f"{len(bad)} of {checked} deals disagree:\n" + "\n".join(bad[:10])


def test_reference_reaches_the_handicap_win():
    """two_player: some farmer wins still holding cards (at most the number of grabs), and
    the engine agrees on those deals."""
    rules = fastdou.rules("two_player")
    sim = fastdou.simulate(400, rules, "random", seed=SEED + 4, per_deal=True).per_deal
    wins = 0
    for k in np.flatnonzero((sim["winner"] == ref.FARMER_SIDE) & (sim["grabs"] > 0)):
        r = ref.play_hand(rules, SEED + 4, int(k), "random")
        left = int(r["hands"][r["out"]].sum())
        assert left <= r["grabs"]
        wins += left > 0
        assert tuple(float(x) for x in r["scores"]) == tuple(sim["scores"][k])
    assert wins >= 5


# ------------------------------------------------------------------ engine vs RULES.md

@pytest.mark.parametrize("preset", ["classic", "four_player", "emperor"])
def test_trump_is_recorded_only_in_jinling(preset):
    sim = fastdou.simulate(200, preset, seed=SEED, per_deal=True).per_deal
    assert (sim["trump"] == -1).all()


def test_jinling_trump_is_a_suit():
    sim = fastdou.simulate(500, "jinling", seed=SEED, per_deal=True).per_deal
    assert set(np.unique(sim["trump"])) == {0, 1, 2, 3}


def test_calling_games_without_max_redeals_never_end_void():
    sim = fastdou.simulate(SCAN, "two_landlords", "greedy", seed=SEED + 3,
                           per_deal=True).per_deal
    assert not (sim["winner"] == ref.VOID).any()
