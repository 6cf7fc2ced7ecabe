"""Smoke test of compare.py on a few positions and games; skipped unless DouZero, RLCard and
OpenSpiel are already importable (it never installs anything). CI runs the script itself in
quick mode with its gates (.ci/run)."""

import json

import numpy as np
import pytest

pytest.importorskip("douzero.env.move_generator")
pytest.importorskip("rlcard.games.doudizhu.judger")
pytest.importorskip("pyspiel")

from benchmarks import compare  # noqa: E402
from benchmarks import speed_table  # noqa: E402
from tests.shared.corpus import lead_hands  # noqa: E402
from benchmarks.crosscheck import _fastdou_records  # noqa: E402
from benchmarks.engines import DOUZERO_PROFILE  # noqa: E402
from benchmarks.report import format_table  # noqa: E402

N = 30


@pytest.fixture(scope="module")
def result():
    return compare.run(positions=N, large=2 * N, seed=0, repeat=1, games=4, deals_=2_000,
                       client_size=(2, 1))


def test_figures(result):
    for work in ("lead", "respond"):
        rows = result[work]
        assert rows["fastdou"]["positions"] == N
        assert rows["fastdou_large"]["positions"] == 2 * N
        for key in ("douzero", "rlcard", "openspiel"):
            assert rows[key]["positions_per_s"] > 0 and rows[key]["moves"] > 0
            assert rows[key]["speedup_same_positions"] > 0
    assert result["lead"]["openspiel"]["positions"] == N
    assert 0 < result["respond"]["openspiel"]["positions"] <= N
    g = result["games"]
    for key in ("fastdou_random", "fastdou_greedy", "openspiel_python", "openspiel_cpp",
                "rlcard", "douzero"):
        assert g[key]["games_per_s"] > 0
    assert g["openspiel_python"]["actions_per_game"] > 10
    for name, c in result["clients"].items():
        assert c["games"] == 2 and c["fastdou"] > 0 and c["original"] > 0, name
        assert c["ceiling"] == c["costless"] / c["original"]


def test_move_sets(result):
    """Every engine's moves, position by position, equal fastdou's matching profile's but for
    the known bugs; the counts of each are consistent with the timed move counts."""
    checks = {(c["engine"], c["work"]): c for c in result["cross_check"]}
    assert len(checks) == 6
    for c in checks.values():
        assert c["positions"] > 0 and c["unexplained"] == 0, c["examples"]
        assert set(c["known"]) <= {"duplicate moves", "plane ranked by a wing trio",
                                   "chain from a rank held four times (missing)",
                                   "bomb on the rocket (extra)"}
    # DouZero's lead lists hold the distinct multisets of fastdou's douzero-profile moves
    # plus the counted duplicates (leads have no other known difference).
    dz = checks[("douzero", "lead")]
    hands = lead_hands(N, 20, 0)
    ours = _fastdou_records(hands, np.zeros((N, 2), np.uint64), DOUZERO_PROFILE)
    assert result["lead"]["douzero"]["moves"] == \
        sum(len(set(r[:, 0])) for r in ours) + dz["known"].get("duplicate moves", 0)
    # RLCard's leads are fastdou's standard leads: same total count.
    if checks[("rlcard", "lead")]["equal"] == N:
        assert result["lead"]["rlcard"]["moves"] == result["lead"]["fastdou"]["moves"]


def test_gates_and_outputs(result):
    names = {g["name"] for g in result["gates"]}
    assert {"lead/douzero", "lead/openspiel", "games/openspiel_python",
            "moves/openspiel/lead", "clients/openspiel_evaluate_bots",
            "clients/douzero_random", "clients/rlcard_run"} <= names
    for g in result["gates"]:
        assert isinstance(g["gate_ok"], bool)
        assert g["gate"] is None or g["gate"] >= 1 or g["name"].startswith("moves/")
    text = format_table(result)
    assert "OpenSpiel" in text and "gates" in text
    # the README's table is written from exactly this JSON shape
    table = speed_table.render(json.loads(json.dumps(result)))
    assert table.startswith(speed_table.BEGIN) and "evaluate_bots" in table
    assert "MCTS" in table and "env.run" in table
    assert "Clients' own loops" in speed_table.render_page(json.loads(json.dumps(result)))


def test_cli_errors(capsys):
    with pytest.raises(SystemExit):
        compare.main(["--positions", "0"])
    assert "must be at least 1" in capsys.readouterr().err
