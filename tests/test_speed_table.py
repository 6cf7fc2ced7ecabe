"""The README's speed table is what benchmarks/speed_table.py writes from the committed
benchmarks/speed.json (so a hand edit of the table, a JSON without its table, or a change of
the script's format fails here)."""

import copy
import json
import os
import sys

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

import speed_table  # noqa: E402


@pytest.fixture(scope="module")
def res():
    with open(speed_table.JSON) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def readme():
    with open(speed_table.README, encoding="utf-8") as f:
        return f.read()


def test_readme_table_is_the_json_rendered(res, readme):
    assert speed_table.check(readme, res), "run: python benchmarks/speed_table.py --write"
    assert speed_table.main(["--check"]) == 0


def test_a_changed_figure_is_noticed(res, readme):
    changed = copy.deepcopy(res)
    changed["lead"]["douzero"]["speedup_same_positions"] *= 2
    assert not speed_table.check(readme, changed)
    edited = readme.replace("| classic | fastdou |", "| classic | fastdou  |")
    assert not speed_table.check(edited, res)


def test_table_names_machine_date_and_every_engine(res):
    text = speed_table.render(res)
    for word in (res["machine"]["cpu"], res["machine"]["date"], "DouZero", "RLCard",
                 "OpenSpiel", "evaluate_bots", "greedy", "four_player", "emperor"):
        assert word in text
    assert text.startswith(speed_table.BEGIN) and text.endswith(speed_table.END)


def test_missing_markers_fail_clearly(res, tmp_path):
    path = tmp_path / "README.md"
    path.write_text("# no table here\n")
    with pytest.raises(SystemExit, match="no table between the markers"):
        speed_table.write(str(path), res)
