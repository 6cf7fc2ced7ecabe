"""Inputs that a probe of the API and the command line found mishandled: each
now gives a FastdouError naming the problem, or the right answer."""

import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import fastdou
from fastdou import cards
from fastdou.cli import main
from fastdou.sim.results import ResultWriter, metadata
from tests.shared.policies import raises_in_play

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_cards_take_a_preset_name_and_reject_a_number():
    assert cards.parse("33", "classic")[0] == 2
    with pytest.raises(fastdou.InvalidCardsError, match="5 of '3', but the classic deck"):
        cards.parse("33333", "classic")
    with pytest.raises(fastdou.InvalidCardsError, match="list of card values"):
        cards.from_douzero(3)


def test_texts_read_ascii_digits_and_kind_names():
    with pytest.raises(fastdou.PositionError, match="seat number"):
        fastdou.Position.parse("3/4 ² 0 - - classic")
    assert fastdou.Move.of("333+4", "trio_solo", 0) == fastdou.Move.parse("333+4")
    with pytest.raises(fastdou.IllegalMoveError, match="unknown kind"):
        fastdou.Move.of("333+4", "trio_solos", 0)


def test_marked_card_is_one_rank():
    r = fastdou.rules("five_player")
    deck = [t for t, n in zip(cards.TOKENS, r.deck) for _ in range(int(n))]
    hands = ["".join(deck[s::r.players][:r.hand_size]) for s in range(r.players)]
    left = np.asarray(r.deck, int) - sum(cards.parse(h, r).astype(int) for h in hands)
    kitty = "".join(t for t, n in zip(cards.TOKENS, left) for _ in range(int(n)))
    rank = hands[0][0]
    for bad in ("", rank + rank, "B", True, 13, -1, 1.5):
        with pytest.raises(fastdou.ArgumentError, match="marked is a non-joker rank"):
            fastdou.Game.from_hands(hands, r, kitty=kitty, landlords=(0, 0), marked=bad)
    by_token = fastdou.Game.from_hands(hands, r, kitty=kitty, landlords=(0, 0),
                                       marked=rank.lower())
    by_index = fastdou.Game.from_hands(hands, r, kitty=kitty, landlords=(0, 0),
                                       marked=cards.TOKENS.index(rank))
    assert by_token.dumps() == by_index.dumps()


def test_a_partner_leaves_a_farmer():
    with pytest.raises(fastdou.PositionError, match="no farmer"):
        fastdou.Position(["3", "4"], "five_player", landlord=0, partner=1)
    status = main(["solve", "3455KK", "345522", "--partner", "1"])
    assert status == 2


def test_openspiel_ids_only_where_openspiel_has_the_actions():
    """OpenSpiel's ids hold bids 1..3 only: other landlord selections take fastdou's own
    order, where every legal id names the action it is."""
    plain = fastdou.action_table(fastdou.rules("classic", profile="openspiel"))
    assert plain.size == 26057 and plain.action(1) == "bid_1"
    for sets, first in (({"max_bid": 5}, ["bid_1", "bid_2", "bid_3", "bid_4", "bid_5"]),
                        ({"bidding": "call"}, ["call"])):
        g = fastdou.Game.new(fastdou.rules("classic", profile="openspiel", **sets))
        t = fastdou.action_table(g.rules)
        ids = g.legal_action_ids()
        assert [t.action(int(i)) for i in ids] == [fastdou.Move.PASS] + first
        assert g.action_mask().sum() == len(ids)


def test_vector_env_hands_out_read_only_ids_and_offsets():
    env = fastdou.VectorEnv("classic", num_envs=2, seed=0)
    _, info = env.reset()
    for key in ("legal_ids", "legal_offsets"):
        with pytest.raises(ValueError, match="read-only"):
            info[key][1] = 10 ** 12
    assert env.action_mask().sum() == len(info["legal_ids"])


def test_encode_needs_a_contiguous_writeable_out():
    g = fastdou.Game.new("classic", seed=0)
    size = len(g.encode(0))
    strided = np.zeros(2 * size, np.int8)[::2]
    frozen = np.zeros(size, np.int8)
    frozen.flags.writeable = False
    for out in (strided, frozen):
        with pytest.raises(fastdou.ArgumentError, match="writeable, contiguous int8"):
            g.encode(0, out=out)


@pytest.mark.parametrize("name", [".csv", ".parquet", ".npz", ".jsonl"])
def test_out_needs_a_name(tmp_path, capsys, name):
    status = main(["simulate", "--deals", "10", "--out", str(tmp_path / name)])
    assert status == 2 and "name before its extension" in capsys.readouterr().err
    assert main(["simulate", "--deals", "10", "--out", ""]) == 2
    assert "must end in" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


def test_out_name_too_long(tmp_path, capsys):
    status = main(["simulate", "--deals", "10", "--out", str(tmp_path / ("x" * 300 + ".csv"))])
    assert status == 2 and "too long" in capsys.readouterr().err


@pytest.mark.parametrize("suffix", [".parquet", ".npz", ".csv"])
def test_a_failing_close_leaves_no_temporary_file(tmp_path, suffix):
    """On a full disk the file's close fails again in discard: the temporary file goes."""
    r = fastdou.rules("classic")
    w = ResultWriter(str(tmp_path / f"x{suffix}"), r, metadata(r, 0, ("random",) * 3, 0, 10))
    real = w._file

    class Full:
        def close(self):
            real.close()
            raise OSError(28, "No space left on device")
    w._file = Full()
    w.discard()
    assert os.listdir(tmp_path) == []


def _tamper(tmp_path, change):
    path = tmp_path / "run.npz"
    assert main(["simulate", "--deals", "200", "--out", str(path)]) == 0
    with np.load(path) as f:
        data = dict(f)
    change(data)
    np.savez(path, **data)
    return str(path)


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(landlord=np.full(200, 50, np.int8)), "landlord outside -1..2"),
    (lambda d: d.update(winner=np.full(200, 7, np.int64)), "winner outside 0..2"),
    (lambda d: d.update(bid=np.zeros((200, 3), np.int8)), "column bid has shape"),
    (lambda d: d.update(score_1=np.full(200, np.nan)), "scores that are not finite"),
    (lambda d: d.update(plays=np.full(200, -3, np.int16)), "negative plays"),
])
def test_results_that_no_simulation_writes(tmp_path, capsys, change, message):
    path = _tamper(tmp_path, change)
    with pytest.raises(fastdou.RecordError, match=message):
        fastdou.load_results(path)
    capsys.readouterr()


def test_sigterm_with_a_user_policy(tmp_path):
    """SIGTERM is not an error of the policy running when it lands: 143, 'terminated'."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys, fastdou.cli; print('ready', file=sys.stderr, "
         "flush=True); sys.exit(fastdou.cli.main(sys.argv[1:]))", "simulate", "--deals",
         "100M", "--policy", "greedy,tests.shared.policies:last_listed,random", "--out",
         str(tmp_path / "p.parquet")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr.readline().strip() == "ready"
    deadline = time.time() + 180
    while not os.listdir(tmp_path) and time.time() < deadline:   # past the checks
        time.sleep(0.05)
    time.sleep(2.0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143 and err.strip().splitlines()[-1] == "fastdou: terminated"
    assert os.listdir(tmp_path) == []


def test_a_bad_policy_path_is_one_line(capsys):
    assert main(["simulate", "--deals", "10", "--policy", "nosuchmodule:f"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot import policy" in err


def test_factors_whose_scores_overflow_are_refused():
    """Scores are int64 units: rules whose bombs can multiply past them are refused, every
    preset and moderate factors are not (the bound: ``Rules.score_bits``)."""
    with pytest.raises(fastdou.RulesError, match="past the 2\\*\\*62 scores hold"):
        fastdou.rules("classic", bomb_factors=(16,) * 9, joker_bomb_factor=16, max_bid=9)
    for p in fastdou.PRESETS:
        assert fastdou.rules(p).score_bits() < 55
    r = fastdou.rules("classic", bomb_factors=(4,) * 9, joker_bomb_factor=4)
    # 13 ranks with one bomb each (2**26), each joker counted a bomb (2**4); doubles of 3
    # seats, the spring, bid 3, paid by 3 seats, in 420ths.
    assert r.score_bits() == pytest.approx(26 + 4 + 6 + 3 + math.log2(3 * 3 * 420))


@pytest.mark.parametrize("threads", [1, 2])
def test_vector_env_reports_a_policy_that_raises(threads):
    """In the env's parallel kernels Numba would print the exception and play on."""
    env = fastdou.VectorEnv("classic", 2, opponents=raises_in_play, start="play",
                            threads=threads)
    with pytest.raises(fastdou.PolicyError, match="a policy raised or returned an index"):
        obs, info = env.reset()
        for _ in range(60):
            off = info["legal_offsets"]
            obs, _, _, _, info = env.step(info["legal_ids"][off[:-1]].copy())


def test_a_signal_after_the_file_is_complete(tmp_path, capsys, monkeypatch):
    """Ctrl-C or SIGTERM landing once the --out file is complete (while the summary prints)
    neither fails the run nor leaves a complete file behind a failure status."""
    import fastdou.cli as cli
    real = cli._print_summary

    def interrupted(*args):
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.1)
        real(*args)
    monkeypatch.setattr(cli, "_print_summary", interrupted)
    path = tmp_path / "run.csv"
    before = signal.getsignal(signal.SIGINT)    # SIG_IGN when started in the background
    assert main(["simulate", "--deals", "100", "--out", str(path)]) == 0
    assert "per-deal results written" in capsys.readouterr().out
    assert len(fastdou.load_results(str(path)).per_deal["deal"]) == 100
    assert signal.getsignal(signal.SIGINT) is before                         # restored
