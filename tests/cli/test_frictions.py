"""Smaller frictions of the command line, reprs and docstrings: bare ``fastdou``, help texts
with defaults, house rules in the summary, ``moves --json`` when leading, a finished game's
repr, ``solve`` naming the side to move, the guides' examples, ``VectorEnv``'s docstring and
error grammar."""

import argparse
import json
import re
import shlex
from pathlib import Path

import pytest

import fastdou
from fastdou.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("simulate", "evaluate", "compare", "plot", "moves", "rules", "warmup", "solve",
            "perft")


def run(capsys, *argv):
    """(exit status, stdout, stderr) of ``fastdou argv...`` run in-process."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def subparsers():
    """``{command: its parser}``."""
    sub, = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def flat(text):
    return " ".join(text.split())


def test_bare_command_prints_the_help_and_exits_2(capsys):
    status, out, err = run(capsys)
    assert status == 2 and out == ""
    assert err.startswith("usage: fastdou")
    assert all(command in err for command in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_every_default(capsys, command):
    status, out, err = run(capsys, command, "--help")
    assert status == 0 and err == "" and out.startswith(f"usage: fastdou {command}")
    parser = subparsers()[command]
    formatter = parser._get_formatter()
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.required or action.nargs == 0 \
                or action.nargs == "+":
            continue                      # flags and required arguments have no default
        text = flat(formatter._expand_help(action))
        assert "default" in text, (command, action.dest, text)
        if action.default not in (None, []):
            assert f"default: {action.default}" in text, (command, action.dest, text)
        assert flat(text) in flat(out)


def test_simulate_help_defaults(capsys):
    _, out, _ = run(capsys, "simulate", "--help")
    out = flat(out)
    for shown in ("(default: 100000)", "(default: classic)", "(default: random)",
                  "(default: 0)"):
        assert shown in out


def test_every_argument_has_help():
    parsers = {"fastdou": build_parser(), **subparsers()}
    assert set(parsers) == {"fastdou", *COMMANDS}
    for name, parser in parsers.items():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help and action.help.strip(), (name, action.dest)
            for choice in getattr(action, "_choices_actions", ()):
                assert choice.help and choice.help.strip(), (name, choice.dest)


def test_simulate_header_names_house_rules(capsys):
    status, out, _ = run(capsys, "simulate", "--deals", "50", "--rules", "four_player",
                         "--set", "bomb_min=5", "--set", "doubling=farmers")
    assert status == 0
    header = out.splitlines()[0]
    assert header.startswith("four_player (standard), policies random,random,random,random")
    assert "bomb_min=5" in header and "doubling=farmers" in header
    status, out, _ = run(capsys, "simulate", "--deals", "50", "--set", "four_two=false")
    assert "kinds=" in out.splitlines()[0] and "four_two" not in out.splitlines()[0]
    status, out, _ = run(capsys, "simulate", "--deals", "50")
    assert out.splitlines()[0] == "classic (standard), policies random,random,random, seed 0"


def test_moves_json_when_leading_has_no_last(capsys):
    status, out, _ = run(capsys, "moves", "345", "--json")
    assert status == 0 and json.loads(out)["last"] is None
    status, out, _ = run(capsys, "moves", "345", "--last", "pass", "--json")
    assert status == 0 and json.loads(out)["last"] is None
    status, out, _ = run(capsys, "moves", "345", "--last", "pass")
    assert out.splitlines()[-1] == "3 moves"
    status, out, _ = run(capsys, "moves", "345", "--last", "3", "--json")
    assert json.loads(out)["last"] == "3"


def finished(name="classic", **kwargs):
    g = fastdou.Game.new(name, seed=0, deal=3, start="play", **kwargs)
    while not g.is_terminal():
        g.play_id(g.legal_action_ids()[0])
    return g


def test_finished_game_repr_names_the_winner():
    g = finished()
    text = repr(g)
    winner = g.result().winner
    assert "to act" not in text and "finished" in text
    assert (f"landlord (seat {g.landlord}) wins" if winner == "landlord"
            else "farmers win") in text
    assert text.startswith("<Game classic finished, ") and text.endswith(" actions>")
    g.pop()
    assert "to act" in repr(g)


def test_solve_names_the_side_to_move(capsys):
    argv = ["solve", "3455KK", "34552", "--to-move", "1", "--last", "2", "--last-player", "0"]
    status, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert status == 0 and data["landlord_wins"] is True and data["winning_moves"] == []
    assert data["to_move"] == 1 and data["side_to_move"] == "farmers"
    assert data["side_to_move_wins"] is False
    assert "seat 1" in data["note"] and "loses" in data["note"]
    status, out, _ = run(capsys, *argv)
    assert "seat 1 (farmers) has no winning move: it loses whatever it plays" in out
    status, out, _ = run(capsys, "solve", "3455KK", "345522", "--json")
    data = json.loads(out)
    assert data["to_move"] == 0 and data["side_to_move"] == "landlord"
    assert data["side_to_move_wins"] is True and data["winning_moves"] == ["4", "5"]
    status, out, _ = run(capsys, "solve", "448999TJJQQAR", "336688TAA22B", "--max-nodes",
                         "100", "--json")
    data = json.loads(out)
    assert data["landlord_wins"] is None and data["side_to_move_wins"] is None
    assert "limit" in data["note"]


def bash_lines(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    blocks = re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_five_player_solve_example_runs(capsys):
    line, = [x for x in bash_lines("docs/solver.md") if "--partner" in x]
    argv = shlex.split(line, comments=True)
    assert argv[0] == "fastdou" and "five_player" in argv
    status, out, err = run(capsys, *argv[1:])
    assert status == 0, err
    assert "landlord side wins" in out or "farmers win" in out


def test_plot_example_labels_describe_its_files():
    lines = [shlex.split(x, comments=True) for x in bash_lines("docs/simulation.md")]
    made = {}                              # --out file -> the simulate command writing it
    for argv in lines:
        if argv[:2] == ["fastdou", "simulate"] and "--out" in argv:
            made[argv[argv.index("--out") + 1]] = argv
    plots = [argv for argv in lines if argv[:2] == ["fastdou", "plot"]]
    assert plots
    for argv in plots:
        files = [a for a in argv[2:argv.index("-o")]]
        labels = argv[argv.index("--labels") + 1:]
        assert len(labels) == len(files)
        for file, label in zip(files, labels):
            sim = made[file]
            preset = sim[sim.index("--rules") + 1] if "--rules" in sim else "classic"
            assert preset in label, (file, label)
            for i, a in enumerate(sim):
                if a in ("--set", "--policy"):
                    assert sim[i + 1] in label, (file, label)


def test_vector_env_docstring_documents_reset_and_step():
    doc = fastdou.VectorEnv.__doc__
    assert "see the module docstring" not in doc
    for word in ("observations", "rewards", "terminations", "truncations", "info",
                 "legal_ids", "legal_offsets", "final_scores", "final_obs", "final_deal",
                 "read-only", "threads", "close()", "int8", "float64"):
        assert word in doc, word


def test_a_type_phrase_reads_well():
    from fastdou.checks import type_phrase
    assert [type_phrase(v) for v in (5, 1.5, None, object(), b"", {}, [], True)] == [
        "an int", "a float", "None", "an object", "a bytes", "a dict", "a list", "a bool"]


def test_no_message_says_a_int():
    for value in (5, object()):
        with pytest.raises(fastdou.InvalidCardsError) as e:
            fastdou.cards.parse(value)
        assert not re.search(r"\ba (int|object)\b", str(e.value)), str(e.value)
