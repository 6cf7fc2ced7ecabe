"""The README's strength table is what benchmarks/strength_table.py writes from the committed
benchmarks/strength.json (a hand edit of either, or a change of the script's format, fails
here)."""

import copy
import json

from benchmarks import strength_table


def _files():
    with open(strength_table.JSON) as f:
        res = json.load(f)
    with open(strength_table.README, encoding="utf-8") as f:
        return res, f.read()


def test_readme_strength_table_is_the_json_rendered():
    res, readme = _files()
    assert strength_table.check(readme, res), "run: python benchmarks/strength_table.py --write"
    assert strength_table.main(["--check"]) == 0
    assert len(res["matches"]) == len(strength_table.MATCHES)


def test_a_changed_figure_is_noticed():
    res, readme = _files()
    changed = copy.deepcopy(res)
    changed["matches"][0]["overall"]["wp"] += 0.01
    assert not strength_table.check(readme, changed)
    edited = readme.replace("| deals | WP of A |", "| deals | WP of A  |")
    assert not strength_table.check(edited, res)
