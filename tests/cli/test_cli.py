"""The ``fastdou`` command: ``moves`` and ``rules`` in-process, errors as one line and exit
status 2, and the installed console script."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fastdou
from fastdou.cli import main


def run(capsys, *argv):
    """(exit status, stdout lines, stderr) of ``fastdou argv...`` run in-process."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_moves(capsys):
    status, lines, err = run(capsys, "moves", "33344455BR")
    assert status == 0 and err == ""
    texts = [line.split()[0] for line in lines[:-1]]
    assert texts == fastdou.legal_moves("33344455BR").texts()
    assert lines[0].split() == ["3", "solo"]
    assert ["333444+55", "plane_solo"] in [line.split() for line in lines]
    assert lines[-1] == f"{len(texts)} moves"


def test_moves_last(capsys):
    status, lines, _ = run(capsys, "moves", "33344455BR", "--last", "3334")
    assert status == 0
    assert [line.split() for line in lines[:-1]] == [
        ["444+3", "trio_solo"], ["444+5", "trio_solo"], ["444+B", "trio_solo"],
        ["444+R", "trio_solo"], ["BR", "rocket"]]
    assert lines[-1] == "5 moves beating 3334, or pass"


def test_moves_other_rules(capsys):
    status, lines, _ = run(capsys, "moves", "BR", "--rules", "four_player")
    assert status == 0 and lines == ["B  solo", "R  solo", "2 moves"]


def test_moves_json(capsys):
    status, lines, _ = run(capsys, "moves", "R B 5 4 4 4 3 3 3", "--last", "3 4 5 6 7",
                           "--json")
    assert status == 0 and len(lines) == 1
    data = json.loads(lines[0])
    assert data["hand"] == "3334445BR"
    assert data["last"] == "34567" and data["rules"] == "classic"
    assert data["moves"] == [{"text": "BR", "kind": "rocket", "rank": 14, "length": 1}]


def test_moves_with_wild_cards(capsys):
    """``--wild`` names the wild rank under ``--set wilds=1``: the issue's example, bombs with
    their class; a missing, needless or bad ``--wild`` is a one-line error, exit status 2."""
    status, lines, err = run(capsys, "moves", "5557", "--last", "4447", "--set", "wilds=1",
                             "--wild", "7")
    assert status == 0 and err == ""
    assert lines == ["5557(5)  bomb (soft)", "1 move beating 4447, or pass"]
    for argv in (["--set", "wilds=1"], ["--wild", "7"], ["--set", "wilds=1", "--wild", "B"],
                 ["--set", "wilds=2", "--wild", "7"], ["--set", "wilds=1", "--wild", "7",
                                                        "--last", "4568(4)"]):
        status, lines, err = run(capsys, "moves", "5557", *argv)
        assert status == 2 and lines == [] and len(err.strip().splitlines()) == 1, argv
        assert err.startswith("fastdou: error:") and ("wild" in err or "4568" in err), err


def test_laizi_from_the_command_line(capsys):
    """The preset by name: moves with ``W`` for a wild card, a simulation, its fields."""
    status, lines, err = run(capsys, "moves", "3334W", "--rules", "laizi", "--wild", "7")
    assert status == 0 and err == "" and "3337(3)    bomb (soft)" in lines
    assert lines[-1] == "13 moves"
    status, lines, err = run(capsys, "moves", "3334W", "--rules", "laizi", "--wild", "7",
                             "--json")
    data = json.loads(lines[0])
    assert status == 0 and data["hand"] == "33347" and data["wild"] == "7"
    assert len(data["moves"]) == 13
    status, lines, err = run(capsys, "simulate", "--rules", "laizi", "--deals", "50", "--json")
    assert status == 0, err
    assert json.loads(lines[0])["rules_fields"]["name"] == "laizi"
    status, lines, _ = run(capsys, "rules", "laizi")
    assert status == 0 and "wilds                1" in lines


def test_rules_lists_every_preset(capsys):
    status, lines, _ = run(capsys, "rules")
    assert status == 0
    assert [line.split()[0] for line in lines] == list(fastdou.PRESETS)
    assert "4 players, 2 deck(s), 25 cards each, kitty 8" in lines[3]


def test_rules_of_one_preset(capsys):
    status, lines, _ = run(capsys, "rules", "four_player")
    assert status == 0
    fields = dict(line.split(None, 1) for line in lines)
    assert fields["name"] == "four_player"
    assert (fields["players"], fields["decks"], fields["bomb_max"]) == ("4", "2", "8")
    assert "plane_pair" in fields["kinds"].split() and "trio_solo" not in fields["kinds"]


def test_rules_json_with_profile(capsys):
    status, lines, _ = run(capsys, "rules", "classic", "--profile", "douzero", "--json")
    assert status == 0 and len(lines) == 1
    data = json.loads(lines[0])
    assert data["profile"] == "douzero" and data["rocket_kickers"] is True
    assert data["bomb_wings"] is True and data["wing_trio"] == "anywhere"
    assert "four_two_solo" in data["kinds"]


@pytest.mark.parametrize("argv, fragment", [
    (["rules", "no_such_preset"], "no_such_preset"),
    (["moves", "333", "--rules", "no_such_preset"], "no_such_preset"),
    (["moves", "333", "--profile", "no_such_profile"], "no_such_profile"),
    (["moves", "33Z"], "'Z'"),
    (["moves", "33333"], "'3'"),
    (["moves", "333", "--last", "3345"], "3345"),
    (["moves", "333", "--last", "33Z"], "'Z'"),
    (["moves"], "hand"),
    (["no_such_command"], "no_such_command"),
    (["moves", "333", "--no-such-option"], "--no-such-option"),
])
def test_bad_arguments(capsys, argv, fragment):
    status, lines, err = run(capsys, *argv)
    assert status == 2 and lines == []
    assert err.startswith("fastdou: error: ") and err.endswith("\n")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert fragment in err


def console_script():
    """The installed ``fastdou`` script: beside this Python, else on PATH."""
    beside = Path(sys.executable).parent / "fastdou"
    return str(beside) if beside.exists() else shutil.which("fastdou") or "fastdou"


def test_console_script():
    done = subprocess.run([console_script(), "rules"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stderr == ""
    assert [line.split()[0] for line in done.stdout.splitlines()] == list(fastdou.PRESETS)
