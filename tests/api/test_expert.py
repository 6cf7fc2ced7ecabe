"""The ``expert`` player (kernels/expert.py, docs/players.md): the rules every state carries
(what it reads them from), its registration by name, legal and deterministic in every
preset, blind to what its seat cannot see, its plans and rules of play on known hands, its
exact endgame search under each classic profile, and its strength against random and greedy
over a few hundred deals."""

import numpy as np
import pytest

import fastdou
from fastdou import cards as C
from fastdou.errors import PolicyError
from fastdou.kernels import engine as E
from fastdou.kernels import state as S
from fastdou.kernels.expert import expert_policy
from fastdou.kernels.expert_endgame import ENDGAME_CARDS, endgame_values, hands_cards
from fastdou.kernels.expert_plan import plan
from fastdou.kernels.fewest_plays import min_plays
from fastdou.kernels.play import RESULT_NAMES
from fastdou.rules import rules_array
from tests.shared.players import (
    classic_state, expert, hidden_mismatches, peeking, replay, solved_values,
)
from tests.shared.policies import last_listed

PRESETS = ["classic", "two_player", "two_landlords", "four_player", "five_player", "emperor",
           "jinling"]


def step_games(rules, deals, seed, check):
    """Play ``deals`` deals with expert in every seat, calling ``check(state, actions, i)``
    before each action is applied."""
    buf = np.empty((1 << 14, 2), np.uint64)
    for d in range(deals):
        st = E.new_state()
        E.start(st, rules_array(rules), seed, d)
        while st[S.G_PHASE] != S.PH_DONE:
            n = E.legal_actions(st, rules_array(rules), buf)
            i, _ = expert(st, buf[:n], n, np.uint64(d))
            assert 0 <= i < n
            check(st, buf[:n], i)
            E.apply(st, rules_array(rules), buf[i].copy())


def choice(st):
    """The text of expert's choice in ``st`` ('pass' for the pass)."""
    buf = np.empty((4096, 2), np.uint64)
    n = E.legal_actions(st, S.state_rules(st), buf)
    i, _ = expert(st, buf[:n], n, np.uint64(0))
    if buf[i, 1] == 0:
        return "pass"
    return C.to_text(C.unpack(int(buf[i, 0])))


# ------------------------------------------------------------------ the rules in the state
def _carries(state, rules):
    return (S.state_rules(state) == rules.array).all() and \
        (state[S.G_RULES:S.STATE_SIZE] == rules.array).all()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_way_of_starting_a_hand_writes_its_rules(preset):
    """engine.start, start_from_hands / start_dealt (Game.from_hands), skip_to_play,
    state_of_position (Game.from_position) and VectorEnv's slots: the state's rules region
    is the rules array, and playing on never changes it."""
    rules = fastdou.rules(preset, profile="douzero") if preset == "classic" \
        else fastdou.rules(preset)
    assert S.N_RULE_FIELDS == len(rules.array) and S.STATE_SIZE == S.G_RULES + S.N_RULE_FIELDS
    st = E.new_state()
    E.start(st, rules_array(rules), 5, 2)
    assert _carries(st, rules)
    hands = [C.unpack(int(np.uint64(st[S.G_HANDS + s]))) for s in range(rules.players)]
    kitty = C.unpack(int(np.uint64(st[S.G_KITTY])))
    landlords = None
    if rules.bidding == "marked":             # the deal named the landlords: kitty taken
        bright, dark = int(st[S.G_LANDLORD]), int(st[S.G_PARTNER])
        hands[bright] = hands[bright] - kitty
        landlords = (bright, bright if dark < 0 else dark)
    game = fastdou.Game.from_hands(hands, rules, kitty=kitty, landlords=landlords)
    assert _carries(game.state, rules)
    game = fastdou.Game.new(rules, seed=3, start="play")
    assert _carries(game.state, rules)
    rng = np.random.default_rng(0)
    while not game.is_terminal():
        game.play(game.legal_actions()[int(rng.integers(len(game.legal_actions())))])
    assert _carries(game.state, rules)
    env = fastdou.VectorEnv(rules, num_envs=2, seed=0)
    env.reset()
    assert all(_carries(row, rules) for row in env._states)


@pytest.mark.parametrize("profile", ["standard", "openspiel", "douzero"])
def test_a_position_state_carries_its_rules(profile):
    rules = fastdou.rules("classic", profile=profile)
    pos = fastdou.Position(["3455KK", "345522", "9"], rules, landlord=1)
    assert _carries(fastdou.Game.from_position(pos).state, rules)


def test_a_state_without_rules_gets_a_legal_answer():
    """A state built by hand, its rules region left zero: expert plans nothing and still
    answers within the actions it is given."""
    st = classic_state(["3456789TJ", "5KA", "9Q2"], to_move=1, last="4", last_player=0)
    st[S.G_RULES:] = 0
    buf = np.empty((4096, 2), np.uint64)
    n = E.legal_actions(st, rules_array(fastdou.rules("classic")), buf)
    i, _ = expert(st, buf[:n], n, np.uint64(0))
    assert 0 <= i < n


# ------------------------------------------------------------------ by name
@pytest.mark.parametrize("preset", ["classic", "two_player", "five_player"])
def test_the_name_plays_what_the_function_plays(preset):
    """simulate by name and by function give the same deals; fastdou.policy("expert")
    replays them decision by decision."""
    rules = fastdou.rules(preset)
    by_name = fastdou.simulate(300, rules, "expert", seed=7, per_deal=True, threads=1)
    by_fn = fastdou.simulate(300, rules, expert_policy, seed=7, per_deal=True, threads=1)
    assert by_name.policies == ("expert",) * rules.players
    for name in RESULT_NAMES:
        assert (by_name.per_deal[name] == by_fn.per_deal[name]).all(), name
    p = fastdou.policy("expert", rules, seed=7)
    for k in range(30):
        assert replay(rules, p, 7, k) == [int(by_name.per_deal[n][k]) for n in RESULT_NAMES]


def test_the_name_reaches_every_entry_point():
    e = fastdou.evaluate("expert", "greedy", 50, seed=1)
    assert e.a == "expert" and e.overall.games == 100
    mixed = fastdou.simulate(50, "classic", ["expert", "greedy", "random"], seed=1)
    assert mixed.policies == ("expert", "greedy", "random")
    game = fastdou.Game.new(seed=2, start="play")
    assert fastdou.policy("expert").choose_id(game) in game.legal_action_ids()


def test_expert_beside_a_user_function():
    """The loops take two policy functions: expert (passed as one) plays beside a user's;
    a third function is refused."""
    from tests.shared.policies import first_listed
    e = fastdou.evaluate("expert", last_listed, 10)
    assert e.b == "tests.shared.policies:last_listed" and e.overall.games == 20
    assert fastdou.evaluate(last_listed, "expert", 10).overall.wins == \
        20 - e.overall.wins
    mixed = fastdou.simulate(10, "classic", ["expert", last_listed, "random"])
    assert mixed.summary.deals == 10
    with pytest.raises(PolicyError, match="2 policy functions at most"):
        fastdou.simulate(10, "classic", ["expert", last_listed, first_listed])


def test_the_command_line_takes_the_name(capsys):
    from fastdou.cli import main
    assert main(["evaluate", "expert", "greedy", "--deals", "40"]) == 0
    assert "expert" in capsys.readouterr().out
    assert main(["simulate", "--policy", "expert", "--deals", "40"]) == 0
    assert "expert" in capsys.readouterr().out


# ------------------------------------------------------------------ legality, determinism
@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_out(preset):
    """2,000 deals with expert in every seat and 2,000 against random players: every index
    it returns is one of the legal actions (simulate raises PolicyError otherwise), and the
    games are the same on one thread and on two."""
    rules = fastdou.rules(preset)
    for seats in ("expert", ["expert"] + ["random"] * (rules.players - 1)):
        r = fastdou.simulate(2000, rules, seats, seed=3, threads=1, per_deal=True)
        assert r.summary.deals == 2000
        again = fastdou.simulate(2000, rules, seats, seed=3, threads=2, per_deal=True)
        for name in ("winner", "plays", "actions", "multiplier"):
            assert (r.per_deal[name] == again.per_deal[name]).all(), (preset, name)


@pytest.mark.parametrize("profile", ["standard", "openspiel", "douzero"])
def test_classic_rules_of_play_hold(profile):
    """In every classic decision: it goes out when one move empties its hand, and a farmer
    passes on its partner's move otherwise (outside the endgame, where the search
    decides)."""
    rules = fastdou.rules("classic", profile=profile)
    seen = {"out": 0, "partner": 0}

    def check(st, actions, i):
        if st[S.G_PHASE] != S.PH_PLAY:
            return
        hand = np.uint64(st[S.G_HANDS + st[S.G_PLAYER]])
        if (actions[:, 0] == hand).any():
            seen["out"] += 1
            assert actions[i, 0] == hand
            return
        p, landlord = st[S.G_PLAYER], st[S.G_LANDLORD]
        if actions[0, 1] == 0 and p != landlord and st[S.G_LAST_PLAYER] not in (p, landlord) \
                and hands_cards(st) > ENDGAME_CARDS:
            seen["partner"] += 1
            assert i == 0

    step_games(rules, 150, 5, check)
    assert seen["out"] > 100 and seen["partner"] > 100


# ------------------------------------------------------------------ hidden information
@pytest.mark.parametrize("preset", ["classic", "two_player", "two_landlords", "four_player",
                                    "five_player", "jinling"])
def test_hidden_information_does_not_change_the_choice(preset):
    checked, changed, wrong = hidden_mismatches(expert, preset, 60)
    assert checked > 1000 and changed > checked // 2
    assert wrong == 0


def test_hidden_information_test_catches_a_peek():
    checked, changed, wrong = hidden_mismatches(peeking, "classic", 10)
    assert wrong > 100


# ------------------------------------------------------------------ plans
@pytest.mark.parametrize("hand, plays", [
    ("3456789", 1), ("33445566", 1), ("33344456", 1), ("3334445566", 1), ("3333", 1),
    ("3456789TJQKA2BR", 3), ("33334", 2), ("3456778899", 4), ("34567789TJQ", 2),
    ("3579JKA2", 8), ("333579", 3),
])
def test_plan_counts_the_plays_of_known_hands(hand, plays):
    assert plan(np.uint64(C.pack(C.parse(hand))))[1] == plays


def test_plan_never_beats_the_fewest_plays():
    """A plan is a split into legal plays, so it never has fewer than min_plays."""
    rules = fastdou.rules("classic")
    rng = np.random.default_rng(1)
    deck = np.repeat(np.arange(15), rules.deck)
    for _ in range(150):
        c = np.bincount(rng.permutation(deck)[:int(rng.integers(5, 21))], minlength=15)
        h = np.uint64(C.pack(c))
        assert plan(h)[1] >= min_plays(h, rules_array(rules)), C.to_text(c)


# ------------------------------------------------------------------ rules of play
def test_goes_out_and_leads_its_weakest_play():
    assert choice(classic_state(["8899TT", "3", "4"])) == "8899TT"
    assert choice(classic_state(["34567KK2", "B", "AA"])) == "34567"


def test_farmer_passes_on_its_partner_and_beats_the_landlord():
    hands = ["3456789TJ", "5KA", "9Q2"]
    assert choice(classic_state(hands, to_move=2, last="4", last_player=1)) == "pass"
    assert choice(classic_state(hands, to_move=1, last="4", last_player=0)) != "pass"


def test_farmer_feeds_a_partner_holding_one_card():
    st = classic_state(["3456789TJQ", "46KKA", "8"], to_move=1)
    assert choice(st) == "4"


def test_keeps_a_bomb_until_it_wins():
    hands = ["34568TJQKK2", "7777359J", "89TJ"]
    # an ace from a landlord with many cards: no bomb spent on it
    assert choice(classic_state(hands, to_move=1, last="A", last_player=0)) == "pass"
    # the landlord about to go out: bomb
    st = classic_state(["3K", "7777359J", "89TJ"], to_move=1, last="A", last_player=0)
    assert choice(st) == "7777"


def test_blocks_an_opponent_holding_one_card():
    # the landlord holds one card: a farmer leads no solo it can beat...
    st = classic_state(["A", "3399K", "8TQ"], landlord=0, to_move=1)
    assert choice(st) in ("33", "99")
    # ... and answers its solo with the highest card it has
    st = classic_state(["A2", "34Q", "8TJ"], landlord=0, to_move=1, last="5", last_player=0)
    assert choice(st) == "Q"


# ------------------------------------------------------------------ endgame search
def _endgame_states(count, rules):
    """States of expert self-play where the hands hold ENDGAME_CARDS or fewer."""
    buf = np.empty((4096, 2), np.uint64)
    found = []
    for d in range(4000):
        st = E.new_state()
        E.start(st, rules_array(rules), 8, d)
        while st[S.G_PHASE] != S.PH_DONE and len(found) < count:
            n = E.legal_actions(st, rules_array(rules), buf)
            if st[S.G_PHASE] == S.PH_PLAY and n > 1 and hands_cards(st) <= ENDGAME_CARDS:
                found.append((st.copy(), buf[:n].copy()))
            i, _ = expert(st, buf[:n], n, np.uint64(0))
            E.apply(st, rules_array(rules), buf[i].copy())
        if len(found) >= count:
            break
    return found


@pytest.mark.parametrize("profile, count", [("standard", 40), ("openspiel", 12),
                                            ("douzero", 12)])
def test_endgame_search_is_exact(profile, count):
    """Under each classic profile: the search reads the rules the state carries."""
    rules = fastdou.rules("classic", profile=profile)
    states = _endgame_states(count, rules)
    assert len(states) == count
    for st, actions in states:
        hand = np.uint64(st[S.G_HANDS + st[S.G_PLAYER]])
        want = solved_values(st, actions, rules)
        for default in range(len(actions)):
            got = np.zeros(len(actions), np.int64)
            searched, _ = endgame_values(st, actions, len(actions), hand, np.uint64(0), got,
                                         default, False)
            assert searched > 0 and (got == want).all()
            # bounded: the best value found is the best there is, the rest lower bounds
            got[:] = 0
            endgame_values(st, actions, len(actions), hand, np.uint64(0), got, default, True)
            assert got.max() == want.max() and (got <= want).all()


@pytest.mark.parametrize("profile, wins", [("standard", True), ("openspiel", False)])
def test_the_search_plays_the_rules_of_the_state(profile, wins):
    """Four 4s and two kickers against two 2s: four-with-two wins at once under the
    standard profile; OpenSpiel's has no four-with-two, and every line loses."""
    st = classic_state(["444456", "2", "2"], profile=profile)
    rules = fastdou.rules("classic", profile=profile)
    buf = np.empty((4096, 2), np.uint64)
    n = E.legal_actions(st, rules_array(rules), buf)
    actions = buf[:n].copy()
    got = np.zeros(n, np.int64)
    endgame_values(st, actions, n, np.uint64(st[S.G_HANDS]), np.uint64(0), got, 0, False)
    assert (got == solved_values(st, actions, rules)).all()
    assert got.max() == (4 if wins else 0)


# ------------------------------------------------------------------ strength
def test_strength_against_random_and_greedy():
    """Short runs (docs/players.md gives the full-size figures): expert wins at least 93%
    of games against random and 56% against greedy over 300 deals played both ways."""
    vs_random = fastdou.evaluate("expert", "random", 300, seed=2)
    assert vs_random.overall.wp >= 0.93 and vs_random.overall.adp >= 2.2
    vs_greedy = fastdou.evaluate("expert", "greedy", 300, seed=2)
    assert vs_greedy.overall.wp >= 0.56


@pytest.mark.parametrize("preset", ["two_player", "two_landlords"])
def test_it_plans_two_seat_games_too(preset):
    """Its plan and search at two seats: well above greedy (0.76 and 0.82 over these
    deals; a plan that went wrong there plays about as greedy does)."""
    assert fastdou.evaluate("expert", "greedy", 300, preset, seed=2).overall.wp >= 0.65
