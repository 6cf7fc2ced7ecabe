"""Invariants of the game engine over many simulated games of every preset.

* Replayed games: a small ``@njit`` loop runs ``play_out`` with a history array; each game is
  then replayed action by action through ``fastdou.Game`` while checking that no card is
  created or lost (hands + kitty + set-aside + played cards = the deck, at every step), that
  every play was legal for the hand that made it (``fastdou.legal_moves``, with the trick
  followed independently), that every bid, call, grab, reveal and double was allowed, that
  the hand ends exactly when RULES.md says (a hand emptied, or two_player's handicap), that
  the multiplier and its causes match the history (with the rules' factors), and that the
  scores follow the rules' formula and sum to zero.
* Bulk games (``fastdou.simulate``): zero-sum scores, results consistent with each other.
* Determinism: threads, ``first`` / chunking, and summaries against the per-deal arrays.
"""

from collections import Counter

import numpy as np
import pytest
from numba import njit

import fastdou
from tests.reference import reference_game as ref
from tests.shared.rulesets import SLOW
from fastdou import Move, cards
from fastdou.kernels import engine as E
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.rules import rules_array

PRESETS = tuple(fastdou.PRESETS)
# replayed through play_out, the classic loop (wild cards: tests/engine/test_wild_game.py)
CLASSIC = tuple(p for p in PRESETS if not fastdou.rules(p).wilds)
ALL_RULES = [fastdou.rules(p) for p in PRESETS] + [
    fastdou.rules("classic", doubling="farmers"),
    fastdou.rules("four_player", max_redeals=1),
]
RULES_IDS = [r.name + ("" if r == fastdou.rules(r.name) else "-house") for r in ALL_RULES]
SEED = 77
SCALE = 10 if SLOW else 1
N_REPLAY = 30 * SCALE          # games replayed step by step, per rules and policy set
N_BULK = 20_000 * SCALE        # games checked from the per-deal arrays, per preset
N_DET = 3000
UNIT = S.SCORE_UNIT
MAX_ROWS = 8192


@njit
def play_with_history(rules, seed, index, codes, history):
    """Deal ``index`` of ``seed`` played by ``play_out``; returns (final state, error)."""
    state = E.new_state()
    E.start(state, rules, seed, index)
    err = P.play_out(state, rules, codes, P.policy_stream(seed, index), history)
    return state, err


def policy_codes(rules, policies):
    return fastdou.sim.simulation.policy_codes(policies, rules)[0]


def counts_of(packed):
    return cards.unpack(int(packed)).astype(np.int64)


def handicap_met(rules, st, seat, left):
    """two_player: a farmer holding at most as many cards as there were grabs."""
    farmer = not (int(st[S.G_TEAM]) >> seat) & 1
    return bool(rules.handicap and farmer and st[S.G_GRABS] > 0 and left <= st[S.G_GRABS])


class Replay:
    """Follows one hand from its history, independently of the engine's bookkeeping."""

    def __init__(self, rules, seed, index):
        self.rules, self.seed, self.index = rules, seed, index
        self.redeals = 0
        self.new_deal()
        self.plays = {True: 0, False: 0}      # by the landlord side / the other side
        self.factor = 1                       # bombs and joker bombs
        self.bombs = self.rockets = 0
        self.grabs = self.doubles = self.reveals = 0
        self.n_plays = 0

    def new_deal(self):
        self.deal = ref.deal(self.rules, self.seed, self.index, self.redeals)
        self.played = [np.zeros(15, np.int64) for _ in range(self.rules.players)]
        self.last = None                      # the move to beat (None: leading)
        self.last_player = -1
        self.bid = 0
        self.calls = 0                        # call_grab: calls and grabs made

    def check_cards(self, st):
        """hands + kitty (unless the landlord holds it) + set-aside + played = the deck, and
        each seat holds what it was dealt less what it played."""
        rules = self.rules
        d = self.deal
        lord = int(st[S.G_LANDLORD])
        kitty_held = lord >= 0 and rules.landlord_gets_kitty
        assert np.array_equal(counts_of(st[S.G_KITTY]), d.kitty)
        total = d.set_aside + (0 if kitty_held else d.kitty)
        for s in range(rules.players):
            hand = counts_of(st[S.G_HANDS + s])
            dealt = d.hands[s] + (d.kitty if kitty_held and s == lord else 0)
            assert np.array_equal(hand + self.played[s], dealt), f"seat {s}"
            total = total + hand + self.played[s]
        assert np.array_equal(total, rules.deck)

    def check_choice(self, st, phase, seat, value):
        rules = self.rules
        if phase == S.PH_BID and rules.bidding in ("score", "score_once"):
            assert value == 0 or self.bid < value <= 3, (value, self.bid)
            self.bid = max(self.bid, value)
        else:
            assert value in (0, 1)
        if phase == S.PH_BID and rules.bidding == "call_grab" and value:
            self.calls += 1
            self.grabs = self.calls - 1       # the first 1 is the call
        if phase == S.PH_DOUBLE:
            self.doubles += value
        if phase == S.PH_REVEAL:
            self.reveals += value
            assert seat in (int(st[S.G_LANDLORD]), int(st[S.G_PARTNER]))

    def check_play(self, st, seat, move):
        rules = self.rules
        hand = counts_of(st[S.G_HANDS + seat])
        if self.last is None:
            assert not move.is_pass, "a pass when leading"
            assert move in fastdou.legal_moves(hand, None, rules), f"{move} not a lead"
        elif not move.is_pass:
            assert move in fastdou.legal_moves(hand, self.last, rules), \
                f"{move} does not answer {self.last} from {cards.to_text(hand)}"
        nxt = (seat + 1) % rules.players
        if move.is_pass:
            if nxt == self.last_player:
                self.last = None
            return
        self.played[seat] += move.cards
        self.last, self.last_player = move, seat
        self.n_plays += 1
        self.plays[bool((int(st[S.G_TEAM]) >> seat) & 1)] += 1
        size = int(move.cards.sum())
        if move.kind == fastdou.Kind.BOMB:
            self.bombs += 1
            self.factor *= rules.bomb_factors[min(size, 8)]
        elif move.kind == fastdou.Kind.ROCKET:
            self.rockets += 1
            self.factor *= rules.joker_bomb_factor


def replay_and_check(rules, seed, index, policies):
    history = np.zeros((MAX_ROWS, 4), np.int64)
    final, err = play_with_history(rules_array(rules), seed, index, policy_codes(rules, policies),
                                   history)
    assert err == P.ERROR_NONE
    n = int(final[S.G_ACTIONS])
    assert 0 < n <= MAX_ROWS
    game = fastdou.Game.new(rules, seed=seed, deal=index)
    r = Replay(rules, seed, index)
    r.check_cards(game.state)
    for k in range(n):
        phase, seat, c, info = (int(x) for x in history[k])
        st = game.state
        assert not game.is_terminal(), f"the hand went on after it ended (step {k})"
        assert (phase, seat) == (st[S.G_PHASE], st[S.G_PLAYER]), f"step {k}"
        if phase == S.PH_PLAY:
            move = Move.from_record(np.array([c, info], np.uint64))
            r.check_play(st, seat, move)
            game.play(move)
        else:
            r.check_choice(st, phase, seat, c)
            game.play(c)
        st = game.state
        if game.is_terminal() and st[S.G_WINNER] == S.SIDE_VOID:
            assert phase == S.PH_BID and c == 0 and k == n - 1
            assert st[S.G_REDEALS] in (rules.max_redeals, S.MAX_REDEALS_CAP)
            r.redeals += 1
            break
        if st[S.G_REDEALS] != r.redeals:                # nobody took the landlord
            assert phase == S.PH_BID and c == 0 and st[S.G_REDEALS] == r.redeals + 1
            r.redeals += 1
            r.new_deal()
        r.check_cards(st)
        # the hand ends exactly when a hand is emptied (or two_player's handicap is met)
        if phase == S.PH_PLAY:
            left = int(counts_of(st[S.G_HANDS + seat]).sum())
            ends = left == 0 or handicap_met(rules, st, seat, left)
            assert game.is_terminal() == ends, f"step {k}: {left} cards left"
        if not game.is_terminal():
            assert all(counts_of(st[S.G_HANDS + s]).sum() > 0 for s in range(rules.players))
    assert game.is_terminal()
    st = game.state
    assert np.array_equal(st, final), "Game replay and play_out differ"
    check_result(rules, st, r, n)
    return st


def spring_of(rules, landlord_won, plays):
    if rules.spring == "classic":
        if landlord_won and plays[False] == 0:
            return ref.SPRING
        if not landlord_won and plays[True] == 1:
            return ref.ANTI_SPRING
    elif rules.spring == "losers_silent" and plays[not landlord_won] == 0:
        return ref.SPRING if landlord_won else ref.ANTI_SPRING
    return ref.NO_SPRING


def check_result(rules, st, r, n):
    """Multiplier, causes and scores of a finished hand against its replayed history."""
    players = rules.players
    scores = [int(st[S.G_SCORES + s]) for s in range(players)]
    assert sum(scores) == 0, scores
    assert st[S.G_ACTIONS] == n
    assert (st[S.G_REDEALS], st[S.G_GRABS], st[S.G_DOUBLES], st[S.G_REVEALS]) == \
        (r.redeals, r.grabs, r.doubles, r.reveals)
    if st[S.G_WINNER] == S.SIDE_VOID:
        assert scores == [0] * players and st[S.G_LANDLORD] == -1 and st[S.G_OUT] == -1
        return
    team = int(st[S.G_TEAM])
    out = int(st[S.G_OUT])
    landlord_won = bool((team >> out) & 1)
    assert st[S.G_WINNER] == (S.SIDE_LANDLORD if landlord_won else S.SIDE_FARMERS)
    spring = spring_of(rules, landlord_won, r.plays)
    assert (st[S.G_BOMBS], st[S.G_ROCKETS], st[S.G_PLAYS], st[S.G_SPRING]) == \
        (r.bombs, r.rockets, r.n_plays, spring)
    mult = r.factor * 2 ** (r.grabs + r.doubles + r.reveals + (spring > 0))
    assert st[S.G_MULT] == mult
    lord = int(st[S.G_LANDLORD])
    stake = int(st[S.G_BID]) * mult * UNIT
    on_team = [bool((team >> s) & 1) for s in range(players)]
    if rules.scoring == "landlord":
        sign = 1 if landlord_won else -1
        expected = [sign * stake * (players - 1) if on_team[s] else -sign * stake
                    for s in range(players)]
    elif rules.scoring == "team":
        won = [on_team[s] == landlord_won for s in range(players)]
        w = sum(won)
        expected = [stake if won[s] else -stake * w // (players - w) for s in range(players)]
    else:                                              # jinling's card points
        hands = [counts_of(st[S.G_HANDS + s]) for s in range(players)]
        expected = [0] * players
        for s in range(players):
            if s != lord:
                pay = ref.card_points(hands[s]) if landlord_won else -ref.card_points(
                    hands[lord])
                expected[s] -= pay * mult * UNIT
                expected[lord] += pay * mult * UNIT
    assert scores == expected


def replay_policies(rules):
    n = rules.players
    return ["random", ["greedy"] + ["random"] * (n - 1), ["random"] + ["greedy"] * (n - 1)]


@pytest.mark.parametrize("rules", [r for r in ALL_RULES if not r.wilds],
                         ids=[i for r, i in zip(ALL_RULES, RULES_IDS) if not r.wilds])
def test_replayed_games_keep_every_invariant(rules):
    seed = SEED
    ends = Counter()
    for j, policies in enumerate(replay_policies(rules)):
        for index in range(j * 10_000, j * 10_000 + N_REPLAY):
            st = replay_and_check(rules, seed, index, policies)
            ends[int(st[S.G_WINNER])] += 1
    assert ends[S.SIDE_LANDLORD] and ends[S.SIDE_FARMERS]


def test_replay_reaches_the_handicap_end():
    """two_player games that end on the handicap (a farmer still holding cards)."""
    rules = fastdou.rules("two_player")
    sim = fastdou.simulate(2000, rules, seed=SEED, per_deal=True).per_deal
    picked = np.flatnonzero((sim["winner"] == S.SIDE_FARMERS) & (sim["grabs"] > 0))[:40]
    handicap_wins = 0
    for index in picked:
        st = replay_and_check(rules, SEED, int(index), "random")
        handicap_wins += counts_of(st[S.G_HANDS + st[S.G_OUT]]).sum() > 0
    assert handicap_wins >= 5


def test_replay_of_void_hands():
    rules = fastdou.rules("four_player", max_redeals=1)
    sim = fastdou.simulate(3000, rules, seed=SEED, per_deal=True).per_deal
    voids = np.flatnonzero(sim["winner"] == S.SIDE_VOID)
    assert voids.size >= 3
    for index in voids[:5]:
        st = replay_and_check(rules, SEED, int(index), "random")
        assert st[S.G_WINNER] == S.SIDE_VOID


def test_play_out_and_simulate_agree_on_replayed_deals():
    for preset in CLASSIC:
        rules = fastdou.rules(preset)
        sim = fastdou.simulate(20, rules, seed=SEED, per_deal=True).per_deal
        for index in range(20):
            history = np.zeros((MAX_ROWS, 4), np.int64)
            st, _ = play_with_history(rules_array(rules), SEED, index,
                                      policy_codes(rules, "random"), history)
            for j, name in enumerate(P.RESULT_NAMES):
                assert sim[name][index] == st[P.RESULT_FIELDS[j]], (preset, index, name)
            units = [st[S.G_SCORES + s] for s in range(rules.players)]
            assert np.array_equal(sim["scores"][index] * UNIT, units)


# ------------------------------------------------------------------ bulk results

def bulk(preset, policies="random", n=N_BULK, seed=SEED):
    return fastdou.simulate(n, preset, policies, seed=seed, per_deal=True).per_deal


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("policies", ["random", "greedy"])
def test_bulk_results_are_consistent(preset, policies):
    rules = fastdou.rules(preset)
    f = bulk(preset, policies)
    players = rules.players
    units = np.rint(f["scores"] * UNIT).astype(np.int64)
    assert np.allclose(units, f["scores"] * UNIT, rtol=0, atol=1e-6)
    assert (units.sum(axis=1) == 0).all(), "scores do not sum to zero"
    decided = f["winner"] != S.SIDE_VOID
    d = {k: v[decided] for k, v in f.items()}
    u = units[decided]
    seat = np.arange(players)
    on_team = (d["team"][:, None] >> seat) & 1 == 1
    out_on_team = on_team[np.arange(len(u)), d["out"]]
    assert np.array_equal(d["winner"] == S.SIDE_LANDLORD, out_on_team)
    assert (on_team[np.arange(len(u)), d["landlord"]]).all()
    assert ((d["partner"] == -1) | on_team[np.arange(len(u)), np.maximum(d["partner"], 0)]).all()
    assert (d["plays"] <= d["actions"]).all() and (d["plays"] >= 1).all()
    assert (d["bombs"] + d["rockets"] <= d["plays"]).all()
    # the multiplier against its causes
    base = 2 ** (d["grabs"] + d["doubles"] + d["reveals"] + (d["spring"] > 0))
    rest = d["multiplier"] // base
    assert (rest * base == d["multiplier"]).all()
    if set(rules.bomb_factors[rules.bomb_min:]) == {2} and rules.joker_bomb_factor == 2:
        assert (rest == 2 ** (d["bombs"] + d["rockets"])).all()
    elif preset == "jinling":
        assert (rest == 1).all()
    elif rules.wilds:     # each bomb x2 (soft) or x4 (hard, wild, the rocket)
        powers = np.log2(rest).round().astype(np.int64)
        assert (2 ** powers == rest).all()
        n = d["bombs"] + d["rockets"]
        assert ((n <= powers) & (powers <= 2 * n)).all()
    else:        # four_player: each factor 1, 2 or 3; five_player: 1 or 2
        twos, threes = rest.copy(), np.zeros_like(rest)
        while (m := twos % 3 == 0).any():
            twos[m] //= 3
            threes[m] += 1
        powers = np.log2(twos).round().astype(np.int64)
        assert (2 ** powers == twos).all()
        assert (powers + threes <= d["bombs"] + d["rockets"]).all()
    # the stakes
    stake = d["bid"] * d["multiplier"] * UNIT
    if rules.scoring == "landlord":
        lord = u[np.arange(len(u)), d["landlord"]]
        sign = np.where(d["winner"] == S.SIDE_LANDLORD, 1, -1)
        assert (lord == sign * stake * (players - 1)).all()
        farmer_share = -sign[:, None] * stake[:, None]
        assert (np.where(on_team, 0, u) == np.where(on_team, 0, farmer_share)).all()
    elif rules.scoring == "team":
        won = on_team == (d["winner"] == S.SIDE_LANDLORD)[:, None]
        assert (np.where(won, u, 0) == np.where(won, stake[:, None], 0)).all()
    if (~decided).any():
        v = {k: x[~decided] for k, x in f.items()}
        assert (units[~decided] == 0).all()
        assert (v["landlord"] == -1).all() and (v["out"] == -1).all()
        assert set(np.unique(v["redeals"])) <= {rules.max_redeals, S.MAX_REDEALS_CAP}


# ------------------------------------------------------------------ determinism

def same_per_deal(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k]), k


@pytest.mark.parametrize("preset", PRESETS)
def test_threads_do_not_change_results(preset):
    policies = ["greedy"] + ["random"] * (fastdou.rules(preset).players - 1)
    one = fastdou.simulate(N_DET, preset, policies, seed=SEED, threads=1, per_deal=True)
    two = fastdou.simulate(N_DET, preset, policies, seed=SEED, threads=2, per_deal=True)
    same_per_deal(one.per_deal, two.per_deal)
    assert one.summary == two.summary


@pytest.mark.parametrize("preset", PRESETS)
def test_first_and_chunking_do_not_change_results(preset, monkeypatch):
    whole = fastdou.simulate(N_DET, preset, seed=SEED, per_deal=True)
    a = fastdou.simulate(1000, preset, seed=SEED, per_deal=True)
    b = fastdou.simulate(N_DET - 1000, preset, seed=SEED, first=1000, per_deal=True)
    joined = {k: np.concatenate([a.per_deal[k], b.per_deal[k]]) for k in a.per_deal}
    same_per_deal(whole.per_deal, joined)
    done = []
    monkeypatch.setattr("fastdou.sim.simulation_result.CHUNK", 701)
    chunked = fastdou.simulate(N_DET, preset, seed=SEED, per_deal=True, progress=done.append)
    assert done == list(range(701, N_DET, 701)) + [N_DET]
    same_per_deal(whole.per_deal, chunked.per_deal)
    assert chunked.summary == whole.summary
    # a later slice alone is the same as inside the whole run
    tail = fastdou.simulate(7, preset, seed=SEED, first=N_DET - 7, per_deal=True)
    same_per_deal(tail.per_deal, {k: v[-7:] for k, v in whole.per_deal.items()})
    other = fastdou.simulate(N_DET, preset, seed=SEED + 1, per_deal=True)
    assert not np.array_equal(other.per_deal["scores"], whole.per_deal["scores"])


def summary_from(per_deal, players):
    """The Summary fields, computed directly from per-deal arrays."""
    f = per_deal
    n = len(f["winner"])
    units = np.rint(f["scores"] * UNIT).astype(np.int64)
    decided = f["winner"] != S.SIDE_VOID
    nd = int(decided.sum())
    wins = int((f["winner"] == S.SIDE_LANDLORD).sum())
    on_team = (f["team"][:, None] >> np.arange(players)) & 1 == 1
    lord_seats = int(on_team[decided].sum())
    other_seats = int((~on_team)[decided].sum())
    return dict(
        deals=n, void=n - nd, landlord_wins=wins, landlord_win_rate=wins / nd,
        landlord_win_ci95=fastdou.sim.simulation.wilson(wins, nd),
        landlord_side_score=int(units[on_team].sum()) / UNIT / lord_seats,
        farmer_side_score=int(units[~on_team & decided[:, None]].sum()) / UNIT / other_seats,
        seat_scores=tuple(int(units[:, s].sum()) / UNIT / n for s in range(players)),
        multiplier=int(f["multiplier"][decided].sum()) / nd,
        bombs=int(f["bombs"].sum()) / n, rockets=int(f["rockets"].sum()) / n,
        spring_rate=int((f["spring"] == 1).sum()) / n,
        anti_spring_rate=int((f["spring"] == 2).sum()) / n, plays=int(f["plays"].sum()) / n,
        bids={int(b): int(c) for b, c in Counter(f["bid"][decided].tolist()).items()},
        redeal_rate=int(f["redeals"].sum()) / n, void_rate=(n - nd) / n)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_summary_equals_the_per_deal_arrays(rules):
    kept = fastdou.simulate(N_DET, rules, seed=SEED + 5, per_deal=True)
    plain = fastdou.simulate(N_DET, rules, seed=SEED + 5, per_deal=False)
    assert plain.per_deal is None
    assert plain.summary == kept.summary
    expected = summary_from(kept.per_deal, rules.players)
    got = dict(plain.summary.__dict__)
    assert got.pop("warnings") == ()            # random play always finds a landlord
    assert expected.keys() <= got.keys()
    for k, v in expected.items():
        assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-12), k
    # the scores of the two sides, seat by seat, add up to zero too
    assert sum(plain.summary.seat_scores) == pytest.approx(0, abs=1e-9)


def test_wilson_interval():
    lo, hi = fastdou.sim.simulation.wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert fastdou.sim.simulation.wilson(0, 10)[0] == pytest.approx(0, abs=1e-12)
