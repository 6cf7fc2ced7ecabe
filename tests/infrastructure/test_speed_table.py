"""The README's ratio table and docs/benchmarks.md are what benchmarks/speed_table.py writes
from the committed benchmarks/speed.json (so a hand edit of either, a JSON without its table,
or a change of the script's format fails here)."""

import copy
import json
import os
import re

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

from benchmarks import speed_table  # noqa: E402


@pytest.fixture(scope="module")
def res():
    with open(speed_table.JSON) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def readme():
    with open(speed_table.README, encoding="utf-8") as f:
        return f.read()


@pytest.fixture(scope="module")
def page():
    with open(speed_table.BENCHMARKS, encoding="utf-8") as f:
        return f.read()


def test_readme_table_and_page_are_the_json_rendered(res, readme, page):
    assert speed_table.check(readme, res), "run: python benchmarks/speed_table.py --write"
    assert speed_table.check_page(page, res), "run: python benchmarks/speed_table.py --write"
    assert speed_table.main(["--check"]) == 0


def test_a_changed_figure_is_noticed(res, readme, page):
    changed = copy.deepcopy(res)
    changed["lead"]["douzero"]["speedup_same_positions"] *= 2
    assert not speed_table.check(readme, changed)
    assert not speed_table.check_page(page, changed)
    faster = copy.deepcopy(res)
    faster["games"]["fastdou_greedy"]["games_per_s"] *= 2     # on the page only
    assert not speed_table.check_page(page, faster)
    edited = readme.replace("| work | over DouZero |", "| work | over DouZero  |")
    assert not speed_table.check(edited, res)
    assert not speed_table.check_page(page.replace("| classic | fastdou |",
                                                   "| classic | fastdou  |"), res)


def test_check_fails_when_either_drifts(res, readme, page, tmp_path):
    good_readme, good_page = tmp_path / "README.md", tmp_path / "benchmarks.md"
    good_readme.write_text(readme, encoding="utf-8")
    good_page.write_text(page, encoding="utf-8")
    args = ["--check", "--readme", str(good_readme), "--page", str(good_page)]
    assert speed_table.main(args) == 0
    good_page.write_text(page.replace("AMD EPYC", "AMD  EPYC"), encoding="utf-8")
    assert speed_table.main(args) == 1
    good_page.write_text(page, encoding="utf-8")
    good_readme.write_text(readme.replace("x |", "0x |", 1), encoding="utf-8")   # a ratio
    assert speed_table.main(args) == 1
    missing = ["--check", "--readme", str(good_readme), "--page", str(tmp_path / "none.md")]
    assert speed_table.main(missing) == 1


def test_page_names_machine_command_and_every_engine(res):
    text = speed_table.render_page(res)
    m, v = res["machine"], res["versions"]
    for word in (m["cpu"], m["system"], f"{m['cores']} cores", v["numba"], v["python"],
                 speed_table.COMPARE, "DouZero", "RLCard", "OpenSpiel", "evaluate_bots",
                 "greedy", "four_player", "emperor"):
        assert word in text
    for _title, command, _gates, rows in speed_table.OTHER:   # every figure: command, machine
        assert f"Command: `{command}`" in text
        for _what, _figure, machine in rows:
            assert machine in (speed_table.XEON, speed_table.EPYC)


def test_readme_table_is_ratios_only(res):
    text = speed_table.render(res)
    assert text.startswith(speed_table.BEGIN) and text.endswith(speed_table.END)
    assert "docs/benchmarks.md" in text
    assert not re.search(r"\d M\b|/s\b", text)                   # no rates, only ratios
    assert all(len(line) <= 200 for line in text.splitlines()[1:-1])


def test_no_record_of_the_past_in_the_generated_text(res):
    for text in (speed_table.render(res), speed_table.render_page(res)):
        assert not re.search(r"\b20\d\d-\d\d-\d\d\b|\bUTC\b|load average", text)


def test_missing_markers_fail_clearly(res, tmp_path):
    path = tmp_path / "README.md"
    path.write_text("# no table here\n")
    with pytest.raises(SystemExit, match="no table between the markers"):
        speed_table.write(str(path), res)
