"""``fastdou solve`` and ``fastdou perft``: output people read, JSON, bad input (exit 2)."""

import json
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import fastdou
from fastdou.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_text(capsys):
    code, out, _ = run(capsys, "solve", "3455KK", "345522")
    assert code == 0
    assert "the landlord side wins; seat 0 (landlord) to lead" in out
    assert "winning moves: 4, 5" in out and "line (seat:move): 0:4" in out


def test_solve_json_mid_trick(capsys):
    code, out, _ = run(capsys, "solve", "3455KK", "34552", "--to-move", "1", "--last", "2",
                       "--last-player", "0", "--json")
    data = json.loads(out)
    assert code == 0 and data["landlord_wins"] is True and data["winning_moves"] == []
    assert data["position"] == "3455KK/34552 1 0 2 0 classic"
    assert data["line"][0] == "pass"


def test_solve_three_seats_and_rules(capsys):
    code, out, _ = run(capsys, "solve", "22", "3", "4", "--to-move", "1", "--json")
    assert json.loads(out)["landlord_wins"] is False
    code, out, _ = run(capsys, "solve", "BR", "2", "--rules", "classic", "--profile",
                       "douzero", "--json")
    assert json.loads(out)["winning_moves"] == ["B", "R", "BR"]    # 2 beats neither joker
    code, out, _ = run(capsys, "solve", "34", "BR", "--rules", "jinling", "--json")
    assert json.loads(out)["landlord_wins"] is False    # jinling: each lone joker is a bomb


def test_solve_limit(capsys):
    code, out, _ = run(capsys, "solve", "448999TJJQQAR", "336688TAA22B", "--max-nodes",
                       "100")
    assert code == 0 and "no verdict" in out


def test_perft(capsys):
    code, out, _ = run(capsys, "perft", "33345AR", "QK222B", "--depth", "6")
    assert code == 0 and out.strip() == "2810"
    code, out, _ = run(capsys, "perft", "33345AR", "QK222B", "--depth", "3", "--divide")
    lines = out.strip().splitlines()
    assert lines[-1] == "total 111" and lines[0].split() == ["3", "16"]


def test_perft_with_wild_cards(capsys):
    argv = ["perft", "3457", "4448", "99", "--rules", "laizi", "--wild", "7", "--to-move",
            "1", "--last", "5557(5)", "--last-player", "0", "--depth"]
    code, out, _ = run(capsys, *argv, "5")
    assert code == 0 and out.strip() == "26"            # tests/api/test_wild_positions.py
    code, out, _ = run(capsys, *argv, "3", "--divide")
    assert out.strip().splitlines() == ["pass  7", "total 7"]
    code, out, _ = run(capsys, "solve", "3557", "4448", "--rules", "laizi", "--wild", "7",
                       "--json")
    data = json.loads(out)          # the whole hand at once: 555+3, the 7 standing for a 5
    assert code == 0 and data["position"] == "3557/4448 0 0 - - laizi 7"
    assert data["landlord_wins"] is True and data["line"] == ["557+3(5)"]
    assert "557+3(5)" in data["winning_moves"]


@pytest.mark.parametrize("argv", [
    ["solve", "3455KK"],                                         # one seat
    ["solve", "3455KK", "345522", "--last", "34", "--last-player", "1"],
    ["solve", "3455KK", "345522", "--last", "6"],                # no --last-player
    ["solve", "3455KK", "345522", "--landlord", "5"],
    ["solve", "33333", "4"],
    ["solve", "3", "4", "--rules", "nosuch"],
    ["solve", "3", "4", "--time-limit", "0"],
    ["solve", "3", "4", "--max-nodes", "-1"],
    ["perft", "3", "4", "--depth", "x"],
    ["perft", "3", "4", "--depth", "-1"],
    ["perft", "3", "4"],
    ["perft", "3", "4", "--rules", "laizi", "--depth", "2"],          # no --wild
    ["perft", "3", "4", "--wild", "7", "--depth", "2"],              # classic: no wild cards
])
def test_bad_input_one_line_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("fastdou: error: ") and err.count("\n") == 1


READY = ("import sys, fastdou.cli; print('ready', file=sys.stderr, flush=True); "
         "sys.exit(fastdou.cli.main(sys.argv[1:]))")


@pytest.mark.parametrize("argv,sig,status,message", [
    (["perft", "448999TJJQQAR", "336688TAA22B", "--depth", "40"], signal.SIGINT, 130,
     "fastdou: interrupted"),
    (["perft", "448999TJJQQAR", "336688TAA22B", "--depth", "40", "--divide"],
     signal.SIGTERM, 143, "fastdou: terminated"),
    (["solve", "4RK86TQQ77573A5AT", "Q59AQ9392J6J244B3", "JJ5682KK8K397A6TT"],
     signal.SIGTERM, 143, "fastdou: terminated"),
    (["solve", "4RK86TQQ77573A5AT", "Q59AQ9392J6J244B3", "JJ5682KK8K397A6TT", "--threads",
      "2"], signal.SIGINT, 130, "fastdou: interrupted"),
])
def test_signals_stop_a_long_search(argv, sig, status, message):
    """Searches that would run for hours stop at Ctrl-C or SIGTERM within seconds: the
    compiled search polls a flag that the waiting main thread sets."""
    proc = subprocess.Popen([sys.executable, "-c", READY, *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr.readline().strip() == "ready"
    time.sleep(3.0)                                 # into the search (compiled or cached)
    assert proc.poll() is None
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == status and err.strip() == message and out == ""


def test_searches_from_other_threads():
    """Off the main thread a search runs where it is called (no signal can reach it):
    several at once give what the main thread gives."""
    pos = fastdou.Position(["33345AR", "QK222B"])
    with ThreadPoolExecutor(2) as pool:
        perfts = list(pool.map(lambda d: fastdou.perft(pos, d), [6, 6, 5]))
        solved = pool.submit(fastdou.solve, fastdou.Position(["3455KK", "345522"])).result()
    assert perfts == [fastdou.perft(pos, 6)] * 2 + [fastdou.perft(pos, 5)]
    assert solved.winning_moves == fastdou.solve(fastdou.Position(["3455KK", "345522"])).winning_moves
