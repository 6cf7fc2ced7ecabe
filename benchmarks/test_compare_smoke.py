"""Smoke test of compare.py on a few positions; skipped unless DouZero and RLCard are already
importable (it never installs anything)."""

import json

import pytest

pytest.importorskip("douzero.env.move_generator")
pytest.importorskip("rlcard.games.doudizhu.judger")

import compare  # noqa: E402

N = 20


@pytest.fixture(scope="module")
def result():
    return compare.run(positions=N, large=2 * N, seed=0, repeat=1)


def test_figures(result):
    for work in ("lead", "respond"):
        rows = result[work]
        assert rows["fastdou_subset"]["positions"] == N
        assert rows["fastdou_large"]["positions"] == 2 * N
        for key in ("fastdou_subset", "fastdou_large", "douzero", "rlcard"):
            assert rows[key]["positions_per_s"] > 0 and rows[key]["moves"] > 0
        for key in ("douzero", "rlcard"):
            assert rows[key]["positions"] == N
            assert rows[key]["speedup_same_positions"] > 0
    # Every tool sees the same hands: fastdou's standard lead count equals RLCard's, a set of
    # the same distinct multisets, whenever the cross-check says they agree everywhere.
    check = result["cross_check"]
    for work in ("lead", "respond"):
        for c in check[work]:
            assert c["positions"] == N and 0 <= c["percent_equal"] <= 100
    rl = check["lead"][1]
    if rl["equal"] == N:
        assert result["lead"]["rlcard"]["moves"] == round(rl["mean_distinct_fastdou"] * N)


def test_table_and_json(result, capsys):
    text = compare.format_table(result)
    assert "DouZero" in text and "RLCard" in text and "Cross-check" in text
    json.loads(json.dumps(result))


def test_cli_errors(capsys):
    with pytest.raises(SystemExit):
        compare.main(["--positions", "0"])
    assert "must be at least 1" in capsys.readouterr().err
