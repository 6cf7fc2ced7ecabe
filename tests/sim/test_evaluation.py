"""``fastdou.evaluate``: the same games as a plain Python loop (DouZero's protocol, two policy
functions included) and as ``simulate`` (with bidding), intervals against a bootstrap, the
symmetries that must hold exactly, threads and chunks, Python agents (RLCard's, DouZero's, a
fastdou Policy) on the same deals, bad arguments, and ``fastdou evaluate``."""

import json

import numba
import numpy as np
import pytest

import fastdou
from fastdou.sim import evaluation as EV
from fastdou.cli import main
from fastdou.errors import ArgumentError, PolicyError
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.kernels.policies import greedy_policy, random_policy
from fastdou.sim.summary import Z95
from tests.shared.policies import first_listed, last_listed

KERNELS = {"random": random_policy, "greedy": greedy_policy}


def python_protocol(a, b, deals, rules="classic", seed=0):
    """DouZero's protocol one decision at a time: ``Game.new(start="play")`` and the policy
    kernels. Per deal and turn: (A won, A's side's score in SCORE_UNITs)."""
    rules = fastdou.rules(rules) if isinstance(rules, str) else rules
    a, b = (fastdou.policy(p, rules)._fn if p == "expert" else KERNELS.get(p, p)
            for p in (a, b))
    out = np.zeros((deals, 2, 2), np.int64)
    for k in range(deals):
        for turn in range(2):
            g = fastdou.Game.new(rules, seed=seed, deal=k, start="play")
            team = int(g._state[S.G_TEAM])
            mine = [((team >> s) & 1 == 1) == (turn == 0) for s in range(rules.players)]
            rng = np.uint64(P.policy_stream(seed, k))
            while not g.is_terminal():
                records = g._records()
                policy = a if mine[g.current_player] else b
                i, rng = policy(g._state, records, len(records), rng)
                rng = np.uint64(rng)
                g.push(g.legal_actions()[i])
            result = g.result()
            score = sum(int(g._state[S.G_SCORES + s]) for s in range(rules.players)
                        if mine[s])
            out[k, turn] = ((result.winner == "landlord") == (turn == 0), score)
            if rules.name == "classic" and not (result.causes["spring"]
                                                or result.causes["anti_spring"]):
                # DouZero's side score: +-2 * 2**bombs, the rocket one of its bombs
                bombs = result.causes["bombs"] + result.causes["rockets"]
                assert abs(score) == 2 * 2 ** bombs * S.SCORE_UNIT
    return out


def bidding_by_simulate(a, b, deals, rules="classic", seed=0):
    """Whole games with A in seat t on turn t, from ``simulate``'s per-deal results: per
    deal and turn (decided, A won, A landlord, A's score in SCORE_UNITs)."""
    rules = fastdou.rules(rules) if isinstance(rules, str) else rules
    players = rules.players
    out = np.zeros((deals, players, 4), np.int64)
    for t in range(players):
        seats = [a if s == t else b for s in range(players)]
        d = fastdou.simulate(deals, rules, seats, seed=seed, per_deal=True, threads=1).per_deal
        decided = d["winner"] != S.SIDE_VOID
        landlord = (d["team"] >> t) & 1 == 1
        won = decided & (landlord == (d["winner"] == S.SIDE_LANDLORD))
        score = np.rint(d["scores"][:, t] * S.SCORE_UNIT).astype(np.int64)
        out[:, t] = np.stack([decided, won, landlord, score], axis=1)
    return out


@pytest.fixture(scope="module")
def greedy_random():
    deals = 300
    return deals, EV.evaluate("greedy", "random", deals), python_protocol("greedy", "random",
                                                                         deals)


def test_protocol_equals_a_python_loop(greedy_random):
    deals, ev, ref = greedy_random
    assert (ev.deals, ev.turns, ev.void, ev.bidding) == (deals, 2, 0, False)
    for role, turns in (("landlord", [0]), ("farmers", [1]), ("overall", [0, 1])):
        f = getattr(ev, role)
        games = deals * len(turns)
        wins = int(ref[:, turns, 0].sum())
        assert (f.games, f.wins) == (games, wins)
        assert f.wp == wins / games
        assert f.adp == int(ref[:, turns, 1].sum()) / (games * S.SCORE_UNIT)
    assert 0.7 < ev.overall.wp < 1.0 and ev.overall.adp > 1.0     # greedy beats random


@pytest.mark.parametrize("rules, a, b", [("classic", last_listed, "greedy"),
                                         ("classic", first_listed, last_listed),
                                         ("classic", "expert", last_listed),
                                         ("five_player", "random", "greedy"),
                                         ("two_player", "greedy", "random")])
def test_protocol_other_policies_and_presets(rules, a, b):
    """Names and functions, A and B both functions (the loops take two): the Python loop."""
    deals = 60
    ev = EV.evaluate(a, b, deals, rules, seed=5)
    ref = python_protocol(a, b, deals, rules, seed=5)
    assert ev.overall.wins == int(ref[:, :, 0].sum())
    assert ev.landlord.adp == int(ref[:, 0, 1].sum()) / (deals * S.SCORE_UNIT)
    assert ev.farmers.adp == int(ref[:, 1, 1].sum()) / (deals * S.SCORE_UNIT)


def test_intervals_are_the_paired_normal_interval_and_agree_with_a_bootstrap(
        greedy_random):
    deals, ev, ref = greedy_random
    rng = np.random.default_rng(0)
    draws = rng.integers(0, deals, size=(4000, deals))
    for f, per_deal in ((ev.overall.wp_ci95, ref[:, :, 0].mean(axis=1)),
                        (ev.landlord.wp_ci95, ref[:, 0, 0].astype(float)),
                        (ev.overall.adp_ci95, ref[:, :, 1].mean(axis=1) / S.SCORE_UNIT),
                        (ev.farmers.adp_ci95, ref[:, 1, 1] / S.SCORE_UNIT)):
        mean = per_deal.mean()
        half = Z95 * per_deal.std(ddof=1) / np.sqrt(deals)
        assert f == pytest.approx((mean - half, mean + half), rel=1e-9)
        lo, hi = np.percentile(per_deal[draws].mean(axis=1), [2.5, 97.5])
        assert (f[1] - f[0]) == pytest.approx(hi - lo, rel=0.15)
        assert f[0] == pytest.approx(lo, abs=0.25 * half) and \
            f[1] == pytest.approx(hi, abs=0.25 * half)


def test_bidding_equals_simulate_rotated():
    deals = 400
    ev = EV.evaluate("greedy", "random", deals, bidding=True, seed=3)
    ref = bidding_by_simulate("greedy", "random", deals, seed=3)
    decided, won, landlord, score = (ref[:, :, j] for j in range(4))
    assert ev.turns == 3 and ev.void == int((decided == 0).sum())
    for role, mask in (("landlord", landlord == 1), ("farmers", landlord == 0),
                       ("overall", np.ones_like(landlord, bool))):
        mask = mask & (decided == 1)
        f = getattr(ev, role)
        assert (f.games, f.wins) == (int(mask.sum()), int(won[mask].sum()))
        assert f.adp == int(score[mask].sum()) / (int(mask.sum()) * S.SCORE_UNIT)
    # the ratio interval (A's landlord games per deal vary) against a bootstrap
    mask = (landlord == 1) & (decided == 1)
    w, g = (won * mask).sum(axis=1), mask.sum(axis=1)
    draws = np.random.default_rng(1).integers(0, deals, size=(4000, deals))
    lo, hi = np.percentile(w[draws].sum(axis=1) / g[draws].sum(axis=1), [2.5, 97.5])
    f = ev.landlord.wp_ci95
    assert (f[1] - f[0]) == pytest.approx(hi - lo, rel=0.15)


def test_a_policy_against_itself_is_exactly_even():
    ev = EV.evaluate("random", "random", 500, seed=2)
    assert ev.overall.wp == 0.5 and ev.overall.wp_ci95 == (0.5, 0.5)
    assert ev.landlord.wins + ev.farmers.wins == 500
    assert ev.overall.adp == 0.0 and ev.overall.adp_ci95 == (0.0, 0.0)
    assert ev.landlord.adp == -ev.farmers.adp
    both = EV.evaluate("greedy", "greedy", 200, "four_player", bidding=True)
    decided_deals = 200 - both.void // 4       # every turn plays the same game
    assert both.landlord.games == decided_deals and both.overall.adp == 0.0


def test_swapping_a_and_b_mirrors_the_figures():
    ab = EV.evaluate("greedy", "random", 300, seed=4)
    ba = EV.evaluate("random", "greedy", 300, seed=4)
    assert ab.landlord.wins == ba.farmers.games - ba.farmers.wins
    assert ab.farmers.wins == ba.landlord.games - ba.landlord.wins
    assert ab.overall.wp == 1 - ba.overall.wp
    assert ab.landlord.adp == -ba.farmers.adp and ab.overall.adp == -ba.overall.adp


def test_threads_and_chunks_do_not_change_results(monkeypatch):
    args = ("greedy", "random", 1000)
    one = EV.evaluate(*args, threads=1)
    if numba.config.NUMBA_NUM_THREADS >= 2:
        assert EV.evaluate(*args, threads=2) == one
    monkeypatch.setattr(EV, "CHUNK", 97)
    assert EV.evaluate(*args, threads=1) == one
    assert EV.evaluate(*args, threads=1, bidding=True) == \
        EV.evaluate(*args, threads=1, bidding=True)


def test_bad_arguments():
    with pytest.raises(PolicyError, match="unknown policy"):
        EV.evaluate("greedy", "nosuch", 10)
    with pytest.raises(PolicyError, match="Python agents"):
        EV.evaluate(lambda obs: 0, "random", 10)
    with pytest.raises(ArgumentError, match="deals"):
        EV.evaluate("greedy", "random", 0)
    with pytest.raises(ArgumentError, match="bidding"):
        EV.evaluate("greedy", "random", 10, bidding="yes")
    with pytest.raises(ArgumentError, match=".json"):
        EV.evaluate("greedy", "random", 10, out="figures.txt")


def test_a_policy_that_never_bids_leaves_void_hands():
    ev = EV.evaluate(first_listed, first_listed, 3, bidding=True)
    assert ev.void == 9 and ev.overall.games == 0 and ev.overall.wp is None
    assert "n/a" in ev.text()


# ------------------------------------------------------------------ Python agents
def same_figures(x, y):
    return all(getattr(x, k) == getattr(y, k) for k in
               ("deals", "turns", "void", "landlord", "farmers", "overall"))


def test_an_rlcard_agent_wrapping_greedy_scores_as_greedy():
    """The Python loop plays the compiled loop's deals, the compiled side drawing from the
    deal's stream: greedy (which draws nothing) as an RLCard agent scores exactly as greedy,
    on either side."""
    AR = pytest.importorskip("fastdou.adapters.rlcard")
    wrapped = AR.Agent(fastdou.policy("greedy"))
    ev = EV.evaluate(wrapped, "random", 120, seed=3)
    assert same_figures(ev, EV.evaluate("greedy", "random", 120, seed=3))
    assert ev.a == "fastdou.adapters.rlcard:Agent" and ev.b == "random"
    ev = EV.evaluate("random", wrapped, 60, seed=4)
    assert same_figures(ev, EV.evaluate("random", "greedy", 60, seed=4))


def test_a_fastdou_policy_shares_the_deals_stream():
    """A fastdou Policy (rebound to the run's rules) draws from the deal's stream, as the
    compiled loop's seats do: random as a Policy scores exactly as random, with bidding and
    in other presets too."""
    ev = EV.evaluate(fastdou.policy("random"), "greedy", 80, seed=5)
    assert same_figures(ev, EV.evaluate("random", "greedy", 80, seed=5)) and ev.a == "random"
    ev = EV.evaluate("greedy", fastdou.policy("random"), 30, "four_player", bidding=True)
    assert same_figures(ev, EV.evaluate("greedy", "random", 30, "four_player", bidding=True))


def test_rlcard_rule_agent_against_random():
    pytest.importorskip("fastdou.adapters.rlcard")
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
    seen = []
    ev = EV.evaluate(DouDizhuRuleAgentV1(), "random", 50, progress=seen.append)
    assert ev.a == "rlcard.models.doudizhu_rule_models:DouDizhuRuleAgentV1"
    assert ev.overall.games == 100 and ev.void == 0 and seen[-1] == 50
    assert 0.8 < ev.overall.wp <= 1.0 and 1.0 < ev.overall.adp < 6.0     # V1 beats random
    lo, hi = ev.overall.wp_ci95
    assert lo <= ev.overall.wp <= hi
    assert ev.landlord.games == ev.farmers.games == 50


def test_douzero_agents_play_the_douzero_profile(tmp_path):
    pytest.importorskip("douzero")
    from douzero.evaluation.random_agent import RandomAgent
    from fastdou.adapters import douzero as AD
    dz = fastdou.rules("classic", profile="douzero")
    out = tmp_path / "dz.json"
    ev = EV.evaluate(RandomAgent(), "greedy", 40, dz, out=str(out))
    assert ev.overall.games == 80 and ev.overall.wp < 0.5          # random loses to greedy
    assert json.loads(out.read_text())["a"] == "douzero.evaluation.random_agent:RandomAgent"
    ev = EV.evaluate(AD.Agent(fastdou.policy("greedy", dz)), "random", 40, dz, seed=1)
    assert same_figures(ev, EV.evaluate("greedy", "random", 40, dz, seed=1))


def test_python_agents_refused_where_they_cannot_play():
    AR = pytest.importorskip("fastdou.adapters.rlcard")
    pytest.importorskip("douzero")
    from douzero.evaluation.random_agent import RandomAgent
    rl = AR.Agent("greedy")
    with pytest.raises(fastdou.FastdouError, match="classic rules, standard profile"):
        EV.evaluate(rl, "random", 5, "two_player")
    with pytest.raises(fastdou.FastdouError, match="bidding=True"):
        EV.evaluate(rl, "random", 5, bidding=True)
    with pytest.raises(fastdou.FastdouError, match="douzero profile"):
        EV.evaluate(RandomAgent(), "random", 5)
    with pytest.raises(PolicyError, match="cannot play one run"):
        EV.evaluate(rl, RandomAgent(), 5)
    with pytest.raises(PolicyError, match="unknown policy"):
        EV.evaluate(rl, "nosuch", 5)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


KEYS = {"a", "b", "rules", "profile", "rules_fields", "deals", "seed", "bidding", "turns",
        "void", "landlord", "farmers", "overall"}


def test_cli_json_table_and_out(capsys, tmp_path):
    out_file = tmp_path / "figures.json"
    status, out, _ = run(capsys, "evaluate", "greedy", "random", "--deals", "200", "--json",
                         "--out", str(out_file))
    assert status == 0
    data = json.loads(out)
    assert set(data) == KEYS
    assert set(data["overall"]) == {"games", "wins", "wp", "wp_ci95", "adp", "adp_ci95"}
    assert data == json.loads(json.dumps(EV.evaluate("greedy", "random", 200).as_dict()))
    assert json.loads(out_file.read_text()) == data
    status, out, _ = run(capsys, "evaluate", "greedy", "random", "--deals", "100",
                         "--bidding", "--rules", "four_player")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("A greedy against B random: 100 deals of "
                                               "four_player")
    assert any(line.startswith("overall") for line in lines) and "void hands" in out


@pytest.mark.parametrize("argv, message", [
    (["evaluate", "greedy", "nosuch", "--deals", "10"], "unknown policy"),
    (["evaluate", "greedy", "random", "--deals", "0"], "deals"),
    (["evaluate", "greedy", "random", "--deals", "lots"], "deals"),
    (["evaluate", "greedy", "--deals", "10"], "B"),
    (["evaluate", "greedy", "random", "--deals", "10", "--out", "x.csv"], ".json"),
    (["evaluate", "rlcard:NoSuchAgent", "random", "--deals", "10"], "no agent"),
    (["evaluate", "douzero:RandomAgent", "random", "--deals", "10"], "douzero profile"),
])
def test_cli_bad_arguments_exit_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("fastdou: error: ") and message in err and len(err.splitlines()) == 1


def test_cli_python_agents(capsys):
    pytest.importorskip("fastdou.adapters.rlcard")
    status, out, _ = run(capsys, "evaluate", "rlcard:DouDizhuRuleAgentV1", "random",
                         "--deals", "20", "--json")
    data = json.loads(out)
    assert status == 0 and data["a"].endswith(":DouDizhuRuleAgentV1")
    assert data["overall"]["games"] == 40
    pytest.importorskip("douzero")
    status, out, _ = run(capsys, "evaluate", "douzero:RandomAgent", "greedy", "--deals", "10",
                         "--profile", "douzero")
    assert status == 0 and out.startswith("A douzero.evaluation.random_agent:RandomAgent "
                                          "against B greedy: 10 deals of classic (douzero)")
