"""The summary per seat, per side and per feature, recomputed here from the per-deal arrays
with plain numpy; the JSON keys; the warning when every deal is void."""

import json
import math

import numpy as np
import pytest

import fastdou
from fastdou.cli import main
from fastdou.kernels import state as S
from tests.shared.policies import first_listed

SEAT_KEYS = {"seat", "landlord_rate", "landlord_seat_rate", "as_landlord", "as_farmer",
             "score"}
RATE_KEYS = {"deals", "wins", "win_rate", "win_ci95"}
SCORE_KEYS = {"mean", "sd", "ci95"}
TOP_KEYS = {"deals", "void", "landlord_wins", "landlord_win_rate", "landlord_win_ci95",
            "landlord_side_score", "farmer_side_score", "seat_scores", "multiplier", "bombs",
            "rockets", "spring_rate", "anti_spring_rate", "plays", "bids", "redeal_rate",
            "void_rate", "seats", "sides", "features", "warnings"}
CASES = [("classic", ["greedy", "random", "random"], {}),
         ("jinling", "random", {}), ("emperor", "random", {}),
         ("classic", "random", {"doubling": "farmers"}),
         ("two_player", "random", {}), ("five_player", "random", {}),
         ("four_player", ["random", "greedy", "random", "random"], {})]


def score_stats(x):
    mean, sd = x.mean(), x.std(ddof=1)
    half = 1.959963984540054 * sd / math.sqrt(len(x))
    return mean, sd, (mean - half, mean + half)


@pytest.mark.parametrize("preset,policies,sets", CASES)
def test_seats_sides_and_features_from_the_per_deal_arrays(preset, policies, sets):
    r = fastdou.rules(preset, **sets)
    res = fastdou.simulate(3000, r, policies, seed=11, per_deal=True)
    f, s = res.per_deal, res.summary
    decided = f["winner"] != S.SIDE_VOID
    team = ((f["team"][:, None] >> np.arange(r.players)) & 1 == 1) & decided[:, None]
    farmer = ~team & decided[:, None]
    lord_won = (f["winner"] == S.SIDE_LANDLORD)[:, None]
    farmers_won = (f["winner"] == S.SIDE_FARMERS)[:, None]
    assert len(s.seats) == r.players
    for seat, got in enumerate(s.seats):
        assert got.keys() == SEAT_KEYS
        assert got["landlord_rate"] == pytest.approx(team[:, seat].sum() / decided.sum())
        assert got["landlord_seat_rate"] == pytest.approx(
            (f["landlord"][decided] == seat).mean())
        assert got["as_landlord"]["deals"] == team[:, seat].sum()
        assert got["as_landlord"]["win_rate"] == pytest.approx(
            (lord_won & team)[:, seat].sum() / team[:, seat].sum())
        assert got["as_farmer"]["win_rate"] == pytest.approx(
            (farmers_won & farmer)[:, seat].sum() / farmer[:, seat].sum())
        mean, sd, ci = score_stats(f["scores"][:, seat])
        assert got["score"]["mean"] == pytest.approx(mean, abs=1e-12)
        assert got["score"]["sd"] == pytest.approx(sd, rel=1e-9)
        assert got["score"]["ci95"] == pytest.approx(ci, rel=1e-9, abs=1e-12)
        assert got["score"]["mean"] == pytest.approx(s.seat_scores[seat], abs=1e-12)
    for name, mask in (("landlord", team), ("farmers", farmer)):
        side = s.sides[name]
        mean, sd, ci = score_stats(f["scores"][mask])
        assert side["score"]["mean"] == pytest.approx(mean)
        assert side["score"]["sd"] == pytest.approx(sd, rel=1e-9)
        assert side["score"]["ci95"] == pytest.approx(ci, rel=1e-9)
        assert side["seat_deals"] == mask.sum()
    assert s.sides["landlord"]["win_rate"] == pytest.approx(s.landlord_win_rate)
    assert s.sides["farmers"]["win_rate"] == pytest.approx(1 - s.landlord_win_rate)
    expected = {"doubles": r.doubling != "none", "grabs": r.max_grabs > 0,
                "reveals": r.bidding == "marked", "bombs": r.bomb_min > 0,
                "rockets": r.joker_bombs != "none"}
    for name, present in expected.items():
        assert (name in s.features) == present, name
        if present:
            assert s.features[name]["per_deal"] == pytest.approx(f[name].mean())
            assert s.features[name]["deal_rate"] == pytest.approx((f[name] > 0).mean())
    sizes = [k for k in range(1, 9) if f"bombs_{k}" in s.features]
    assert sizes == list(fastdou.sim.table.bomb_sizes(r))
    by_size = {k: (f["bomb_sizes"] >> (7 * (k - 1))) & 127 for k in range(1, 9)}
    assert sum(by_size.values()).tolist() == f["bombs"].tolist()     # every bomb, one size
    for k in range(1, 9):
        if k in sizes:
            assert s.features[f"bombs_{k}"]["total"] == by_size[k].sum()
            assert s.features[f"bombs_{k}"]["deal_rate"] == pytest.approx(
                (by_size[k] > 0).mean())
        else:
            assert not by_size[k].any()
    assert ("spring" in s.features) == (r.spring != "none")
    if r.spring != "none":
        assert s.features["spring"]["total"] == (f["spring"] == 1).sum()
        assert s.features["anti_spring"]["total"] == (f["spring"] == 2).sum()
    assert s.to_dict().keys() == TOP_KEYS
    json.dumps(s.to_dict(), allow_nan=False)


def test_summary_does_not_depend_on_chunking(monkeypatch):
    whole = fastdou.simulate(5000, "five_player", seed=2).summary
    monkeypatch.setattr("fastdou.sim.simulation_result.CHUNK", 777)
    assert fastdou.simulate(5000, "five_player", seed=2).summary == whole


def test_all_void_warns_instead_of_nan(capsys):
    r = fastdou.rules("classic", max_redeals=1)
    s = fastdou.simulate(200, r, first_listed).summary
    assert s.void == 200 and s.warnings and "void" in s.warnings[0]
    text = s.text()
    assert "WARNING" in text and "nan" not in text.lower()
    d = s.to_dict()
    json.dumps(d, allow_nan=False)                    # no NaN anywhere
    assert d["landlord_win_rate"] is None and d["seats"][0]["score"]["mean"] == 0.0
    assert d["seats"][0]["as_landlord"]["win_rate"] is None
    status = main(["simulate", "--deals", "50", "--set", "max_redeals=1", "--policy",
                   "tests.shared.policies:first_listed", "--json"])
    out, err = capsys.readouterr()
    assert status == 0
    assert "fastdou: warning: no deal was played" in err
    assert json.loads(out)["summary"]["warnings"]
    status = main(["simulate", "--deals", "50", "--set", "max_redeals=1", "--policy",
                   "tests.shared.policies:first_listed"])
    out, err = capsys.readouterr()
    assert "WARNING" in out and "nan" not in out.lower() and "warning" in err


def test_json_keys_are_stable(capsys):
    assert main(["simulate", "--deals", "300", "--rules", "five_player", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d.keys() == {"rules", "profile", "seed", "policies", "rules_fields", "summary"}
    s = d["summary"]
    assert s.keys() == TOP_KEYS
    assert [x["seat"] for x in s["seats"]] == list(range(5))
    for x in s["seats"]:
        assert x.keys() == SEAT_KEYS and x["as_farmer"].keys() == RATE_KEYS
        assert x["score"].keys() == SCORE_KEYS
    assert s["sides"].keys() == {"landlord", "farmers"}
    assert set(s["features"]) == {"doubles", "reveals", "bombs", "rockets", "spring",
                                  "anti_spring", "bombs_4", "bombs_5", "bombs_6", "bombs_7",
                                  "bombs_8"}
    assert fastdou.rules(**{"name": d["rules"]}) == \
        fastdou.Rules.from_json(d["rules_fields"])


def test_totals_exact_with_huge_scores_and_odd_bids():
    """The compiled pass (kernels.totals) and its fallbacks give the exact integer sums."""
    from fastdou.kernels import play as P
    from fastdou.sim.summary import Totals
    r = fastdou.rules("classic")
    per = fastdou.simulate(2000, r, "random", seed=3, per_deal=True).per_deal
    res = np.stack([per[n] for n in P.RESULT_NAMES], axis=1).astype(np.int64)
    units = np.rint(per["scores"] * S.SCORE_UNIT).astype(np.int64)
    col = {n: j for j, n in enumerate(P.RESULT_NAMES)}
    for big, odd in ((False, False), (True, False), (False, True), (True, True)):
        rs, sc = res.copy(), units.copy()
        if big:
            sc[5] = [-4 * 10 ** 12, 2 * 10 ** 12, 2 * 10 ** 12]
            rs[7, col["winner"]] = S.SIDE_VOID
            sc[7] = [3 * 10 ** 9, -3 * 10 ** 9, 0]
        if odd:
            rs[9, col["bid"]] = 100
        t = Totals(r.players, ("bombs", "rockets"))
        t.add(rs[:1500], sc[:1500])
        t.add(rs[1500:], sc[1500:])
        decided = rs[:, col["winner"]] != S.SIDE_VOID
        team = ((rs[:, col["team"], None] >> np.arange(3)) & 1 == 1) & decided[:, None]
        farmer = ~team & decided[:, None]
        squares = lambda a: sum(int(x) ** 2 for x in a.ravel())   # noqa: E731
        assert t.side == [int(sc[team].sum()), int(sc[farmer].sum())]
        assert t.side2 == [squares(sc[team]), squares(sc[farmer])]
        assert t.seats2 == [squares(sc[:, s]) for s in range(3)]
        assert t.seats == sc.sum(axis=0).tolist()
        assert t.lord == team.sum(axis=0).tolist()
        assert t.void == int((~decided).sum())
        bids, counts = np.unique(rs[decided, col["bid"]], return_counts=True)
        assert t.bids == dict(zip(bids.tolist(), counts.tolist()))
        assert list(t.bids) == sorted(t.bids)
        assert t.feature["bombs"] == [int(rs[:, col["bombs"]].sum()),
                                      int((rs[:, col["bombs"]] > 0).sum())]
