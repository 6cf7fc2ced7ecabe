"""fastdou against DouZero's and RLCard's move generators, on the same seeded positions.

Two workloads, from ``corpus.py`` (seed ``--seed``, classic rules):

* **lead**: every leading move of the landlord's 20-card hand (17 + kitty);
* **respond**: every move of a farmer's 17-card hand that beats a realistic lead of the
  landlord (``corpus.response_positions``).

What each tool runs, single-threaded, each on its own native input built before the clock
starts (DouZero's sorted integer list, RLCard's sorted card text or ``Card`` objects, fastdou's
packed ``uint64``):

* fastdou: ``loops.lead_all`` (``kernels.leading_moves``) and ``loops.respond_all``
  (``kernels.responses``), the ``@njit`` loops of the benchmarks;
* DouZero: ``MovesGener(cards).gen_moves()`` to lead; to respond, DouZero's own
  ``GameEnv.get_legal_card_play_actions`` run on a stand-in game state holding the hand and
  the rival move (so exactly its ``get_move_type`` + ``MovesGener.gen_type_*`` +
  ``filter_type_*`` + bombs and rocket, the ``[]`` pass it appends and its final sort);
* RLCard: ``DoudizhuJudger.playable_cards_from_hand(text)`` to lead (what its judger computes
  for a fresh hand) and ``utils.get_gt_cards(player, greater_player)`` to respond (what
  ``DoudizhuPlayer.available_actions`` calls), the player holding RLCard ``Card`` objects.

fastdou runs the ``standard`` kicker profile (``fastdou.rules("classic")``). Each tool's move
count is its own: DouZero's lists hold duplicates, RLCard's lead is a set of card strings,
and pass is never counted (DouZero's ``[]`` and RLCard's ``'pass'`` are left out of the count,
though the time includes producing them). The slow Python tools are timed on the first
``--positions`` positions; fastdou on those same positions and, separately, on the first
``--large`` positions of the same corpus (the corpora are counter-based, so a smaller corpus
is a prefix of a larger one). Speedups are ratios of positions/s, that is of the time for the
same positions; the "vs large" column compares fastdou's large-corpus rate with the tool's
subset rate, which is a different set of positions. Each figure is the fastest of ``--repeat``
runs; a run shorter than 50 ms (fastdou, or any tool on few positions) calls the loop several
times in a row and divides (``calls_per_run`` in the JSON), which keeps a small corpus hot in
cache.

A sanity cross-check, which never fails the run, compares distinct card multisets position by
position: DouZero against fastdou's ``douzero`` kicker profile, RLCard against ``standard``
(RULES.md section 2 lists known bugs of those engines, so a mismatch is reported with its first
example, not treated as an error). It also compares the responses, beyond what it times.

Missing tools are installed with ``pip install rlcard`` and ``pip install --no-deps
douzero==1.1.0``: DouZero's PyPI package depends on torch, which its move generator
(``douzero.env``) never imports, so ``--no-deps`` avoids a multi-GB download. ``--no-install``
skips installing and fails with a one-line error instead.

Usage::

    python benchmarks/compare.py [--positions N] [--large N] [--seed S] [--repeat R]
                                 [--no-check] [--no-install] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import time
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

try:
    import fastdou
except ImportError as e:  # pragma: no cover - an environment problem, said in one line
    sys.exit(f"compare.py: error: cannot import fastdou ({e}); run 'pip install -e .' in the "
             f"repository first")
from corpus import lead_hands, response_positions  # noqa: E402
from fastdou import cards as C  # noqa: E402
from fastdou import kernels as K  # noqa: E402
from loops import lead_all, respond_all  # noqa: E402

PROG = "compare.py"
STANDARD = fastdou.rules("classic")
DOUZERO_PROFILE = fastdou.rules("classic", profile="douzero")
INSTALLS = {  # import name -> pip arguments
    "rlcard": ["rlcard"],
    "douzero": ["--no-deps", "douzero==1.1.0"],
}
_DZ_SHIFT = {v: 4 * i for i, v in enumerate(C.DOUZERO)}
_TEXT_SHIFT = {t: 4 * i for i, t in enumerate(C.TOKENS)}


class CompareError(Exception):
    """A problem reported as one line, without a traceback."""


# --------------------------------------------------------------------------- tools


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
        return True
    except ImportError:
        return False


def ensure_tools(install: bool = True) -> None:
    """Import DouZero and RLCard, installing the missing ones with pip unless ``install`` is
    false."""
    missing = [name for name in INSTALLS if not _importable(name)]
    if missing and not install:
        hints = "; ".join(f"pip install {' '.join(INSTALLS[m])}" for m in missing)
        raise CompareError(f"{', '.join(missing)} not installed and --no-install given "
                           f"(install with: {hints})")
    for name in missing:
        cmd = [sys.executable, "-m", "pip", "install", *INSTALLS[name]]
        print(f"{PROG}: installing {name}: {' '.join(cmd[1:])}", file=sys.stderr)
        try:
            subprocess.check_call(cmd, stdout=sys.stderr)
        except (OSError, subprocess.CalledProcessError) as e:
            raise CompareError(f"could not install {name} ({e})") from None
    importlib.invalidate_caches()
    for name in INSTALLS:
        if not _importable(name):
            raise CompareError(f"{name} still cannot be imported after installing it")


def tools():
    """DouZero's and RLCard's entry points (imported lazily: they may be installed late)."""
    from douzero.env.game import GameEnv
    from douzero.env.move_generator import MovesGener
    from rlcard.games.base import Card
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards
    return SimpleNamespace(MovesGener=MovesGener, GameEnv=GameEnv, Card=Card,
                           DoudizhuJudger=DoudizhuJudger, get_gt_cards=get_gt_cards)


# --------------------------------------------------------------------------- inputs


def _counts(packed) -> np.ndarray:
    return C.unpack(int(packed))


def _rlcard_cards(T, counts):
    """RLCard ``Card`` objects of a hand (suits are irrelevant to its move generation)."""
    out = []
    for r, c in enumerate(counts):
        for k in range(int(c)):
            if r == 13:
                out.append(T.Card("BJ", ""))
            elif r == 14:
                out.append(T.Card("RJ", ""))
            else:
                out.append(T.Card("SHDC"[k], C.TOKENS[r]))
    return out


def make_inputs(T, lead_packed, resp_packed, lasts):
    """Every tool's native input for the given positions, built outside the timers."""
    lead_counts = [_counts(h) for h in lead_packed]
    resp_counts = [_counts(h) for h in resp_packed]
    last_counts = [_counts(r[0]) for r in lasts]
    return {
        "dz_lead": [C.to_douzero(c) for c in lead_counts],
        "rl_lead": [C.to_text(c) for c in lead_counts],
        "dz_resp": [(C.to_douzero(h), C.to_douzero(l))
                    for h, l in zip(resp_counts, last_counts)],
        "rl_resp": [(SimpleNamespace(current_hand=_rlcard_cards(T, h)),
                     SimpleNamespace(played_cards=C.to_text(l)))
                    for h, l in zip(resp_counts, last_counts)],
    }


# --------------------------------------------------------------------------- generators


def douzero_lead(T, cards_list):
    """DouZero's leading moves: lists of DouZero integers, duplicates included."""
    return T.MovesGener(cards_list).gen_moves()


def douzero_respond(T, cards_list, rival_move):
    """DouZero's ``GameEnv.get_legal_card_play_actions`` for ``cards_list`` facing
    ``rival_move``, run on a stand-in state; returns its list, whose last entry is the pass
    ``[]``."""
    state = SimpleNamespace(
        info_sets={"landlord_down": SimpleNamespace(player_hand_cards=list(cards_list))},
        acting_player_position="landlord_down",
        card_play_action_seq=[list(rival_move)])
    return T.GameEnv.get_legal_card_play_actions(state)


def rlcard_lead(T, text):
    """RLCard's playable cards of a hand: a set of card strings."""
    return T.DoudizhuJudger.playable_cards_from_hand(text)


def rlcard_respond(T, player, greater_player):
    """RLCard's cards greater than the rival's: a list of strings starting with 'pass'."""
    return T.get_gt_cards(player, greater_player)


# --------------------------------------------------------------------------- timing


MIN_RUN_SECONDS = 0.05


def _best(fn, repeat):
    """The fastest of ``repeat`` runs of ``fn()``, in seconds per call, and its result. A run
    shorter than ``MIN_RUN_SECONDS`` (fastdou, or any tool on a small corpus) calls ``fn``
    several times in a row, so timer resolution does not matter."""
    start = time.perf_counter()
    result = fn()
    once = time.perf_counter() - start
    inner = 1 if once >= MIN_RUN_SECONDS else int(MIN_RUN_SECONDS / max(once, 1e-7)) + 1
    best = once if inner == 1 else float("inf")
    for _ in range(repeat - (inner == 1)):
        start = time.perf_counter()
        for _ in range(inner):
            result = fn()
        best = min(best, (time.perf_counter() - start) / inner)
    return best, result, inner


def _row(n, seconds, moves, inner=1):
    return {"positions": n, "seconds": seconds, "positions_per_s": n / seconds,
            "moves": moves, "moves_per_s": moves / seconds, "moves_per_position": moves / n,
            "calls_per_run": inner}


def time_fastdou_lead(hands, repeat):
    out = K.new_moves(1 << 16)
    lead_all(hands[:4], STANDARD.array, out)  # compile or load from cache
    t, total, inner = _best(lambda: lead_all(hands, STANDARD.array, out), repeat)
    return _row(len(hands), t, int(total), inner)


def time_fastdou_respond(hands, lasts, repeat):
    out = K.new_moves(1 << 16)
    respond_all(hands[:4], lasts[:4], STANDARD.array, out)
    t, total, inner = _best(lambda: respond_all(hands, lasts, STANDARD.array, out), repeat)
    return _row(len(hands), t, int(total), inner)


def time_python(fn, T, items, repeat, pass_entries):
    """Time ``fn(T, *item)`` over ``items``; its count is ``len(result) - pass_entries``."""
    for item in items[:4]:
        fn(T, *item)

    def run():
        total = 0
        for item in items:
            total += len(fn(T, *item)) - pass_entries
        return total

    t, total, inner = _best(run, repeat)
    return _row(len(items), t, total, inner)


def time_douzero_respond(T, items, repeat):
    """Like :func:`time_python`, the pass ``[]`` DouZero appends left out of the count."""
    return time_python(douzero_respond, T, items, repeat, pass_entries=1)


# --------------------------------------------------------------------------- cross-check


def _pack_dz(move) -> int:
    return sum(1 << _DZ_SHIFT[v] for v in move)


def _pack_text(text) -> int:
    return sum(1 << _TEXT_SHIFT[t] for t in text)


def _text(packed: int) -> str:
    return C.to_text(C.unpack(packed)) or "pass"


def _fastdou_sets(hands, lasts, rules):
    moves, offsets = K.generate_batch(hands, lasts, rules.array)
    return [set(int(x) for x in moves[offsets[i]:offsets[i + 1], 0])
            for i in range(len(hands))]


def _agreement(name, theirs, ours, positions):
    """Fraction of positions where two lists of sets agree, and the first disagreement."""
    same = sum(a == b for a, b in zip(theirs, ours))
    res = {"name": name, "positions": len(ours), "equal": same,
           "percent_equal": 100.0 * same / len(ours),
           "mean_distinct_tool": float(np.mean([len(s) for s in theirs])),
           "mean_distinct_fastdou": float(np.mean([len(s) for s in ours]))}
    for i, (a, b) in enumerate(zip(theirs, ours)):
        if a != b:
            res["first_mismatch"] = {
                "index": i, "position": positions[i],
                "only_tool": sorted(_text(x) for x in a - b)[:8],
                "only_fastdou": sorted(_text(x) for x in b - a)[:8],
                "n_only_tool": len(a - b), "n_only_fastdou": len(b - a)}
            break
    return res


def cross_check(T, lead_packed, resp_packed, lasts, inputs):
    """Distinct card multisets per position: DouZero vs fastdou ``douzero``, RLCard vs
    fastdou ``standard``; leading (the check asked for) and responding (extra)."""
    zero = np.zeros((len(lead_packed), 2), np.uint64)
    lead_pos = inputs["rl_lead"]
    resp_pos = [f"{C.to_text(_counts(h))} vs {g.played_cards}"
                for h, (_, g) in zip(resp_packed, inputs["rl_resp"])]
    dz_lead = [{_pack_dz(m) for m in douzero_lead(T, c)} for c in inputs["dz_lead"]]
    rl_lead = [{_pack_text(s) for s in rlcard_lead(T, t)} for t in inputs["rl_lead"]]
    dz_resp = [{_pack_dz(m) for m in douzero_respond(T, h, l) if m}
               for h, l in inputs["dz_resp"]]
    rl_resp = [{_pack_text(s) for s in rlcard_respond(T, p, g) if s != "pass"}
               for p, g in inputs["rl_resp"]]
    return {
        "lead": [
            _agreement("DouZero = fastdou douzero", dz_lead,
                       _fastdou_sets(lead_packed, zero, DOUZERO_PROFILE), lead_pos),
            _agreement("RLCard = fastdou standard", rl_lead,
                       _fastdou_sets(lead_packed, zero, STANDARD), lead_pos)],
        "respond": [
            _agreement("DouZero = fastdou douzero", dz_resp,
                       _fastdou_sets(resp_packed, lasts, DOUZERO_PROFILE), resp_pos),
            _agreement("RLCard = fastdou standard", rl_resp,
                       _fastdou_sets(resp_packed, lasts, STANDARD), resp_pos)],
    }


# --------------------------------------------------------------------------- driver


def _version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def run(positions=2000, large=200_000, seed=0, repeat=3, check=True, T=None):
    """Every measurement as a dict (what ``--json`` prints)."""
    T = T or tools()
    n_large = max(large, positions)
    lead_big = lead_hands(n_large, 20, seed)
    resp_big, lasts_big = response_positions(n_large, seed)
    lead, resp, lasts = lead_big[:positions], resp_big[:positions], lasts_big[:positions]
    inputs = make_inputs(T, lead, resp, lasts)

    result = {"config": {"positions": positions, "large": n_large, "seed": seed,
                         "repeat": repeat, "rules": "classic (fastdou profile standard)",
                         "threads": 1},
              "versions": {"python": platform.python_version(), "fastdou": fastdou.__version__,
                           "numba": _version("numba"), "douzero": _version("douzero"),
                           "rlcard": _version("rlcard")}}
    for work in ("lead", "respond"):
        if work == "lead":
            rows = {"fastdou_subset": time_fastdou_lead(lead, repeat),
                    "fastdou_large": time_fastdou_lead(lead_big, repeat),
                    "douzero": time_python(douzero_lead, T,
                                           [(c,) for c in inputs["dz_lead"]], repeat, 0),
                    "rlcard": time_python(rlcard_lead, T,
                                          [(t,) for t in inputs["rl_lead"]], repeat, 0)}
        else:
            rows = {"fastdou_subset": time_fastdou_respond(resp, lasts, repeat),
                    "fastdou_large": time_fastdou_respond(resp_big, lasts_big, repeat),
                    "douzero": time_douzero_respond(T, inputs["dz_resp"], repeat),
                    "rlcard": time_python(rlcard_respond, T, inputs["rl_resp"], repeat, 1)}
        for tool in ("douzero", "rlcard"):
            rate = rows[tool]["positions_per_s"]
            rows[tool]["speedup_same_positions"] = rows["fastdou_subset"]["positions_per_s"] / rate
            rows[tool]["speedup_vs_large"] = rows["fastdou_large"]["positions_per_s"] / rate
        result[work] = rows
    if check:
        result["cross_check"] = cross_check(T, lead, resp, lasts, inputs)
    return result


TITLES = {"lead": "Leading moves, 20-card landlord hands",
          "respond": "Responses, 17-card farmer hands against a realistic lead"}
LABELS = {"lead": {"douzero": "DouZero MovesGener.gen_moves",
                   "rlcard": "RLCard playable_cards_from_hand"},
          "respond": {"douzero": "DouZero get_legal_card_play_actions",
                      "rlcard": "RLCard get_gt_cards"}}


def format_table(res) -> str:
    cfg = res["config"]
    n, big = cfg["positions"], cfg["large"]
    v = res["versions"]
    lines = [
        f"fastdou {v['fastdou']} vs DouZero {v['douzero']} vs RLCard {v['rlcard']}: classic "
        f"Dou Dizhu, seed {cfg['seed']}, one thread, best of {cfg['repeat']} runs",
        f"DouZero and RLCard timed on the first {n:,} positions; fastdou on the same {n:,} "
        f"and on the first {big:,}.",
        "Speedup = fastdou positions/s over the tool's: 'same' on the same positions, "
        "'large' with fastdou's larger-corpus rate.",
    ]
    head = (f"{'tool':38} {'positions':>9} {'positions/s':>13} {'moves/s':>13} "
            f"{'moves/pos':>9} {'speedup same':>12} {'large':>8}")
    for work in ("lead", "respond"):
        rows = res[work]
        lines += ["", TITLES[work], head, "-" * len(head)]
        labels = {"fastdou_subset": f"fastdou (same {n:,} positions)",
                  "fastdou_large": f"fastdou ({big:,} positions)", **LABELS[work]}
        for key, label in labels.items():
            r = rows[key]
            same = f"{r['speedup_same_positions']:,.0f}x" if "speedup_same_positions" in r else ""
            lg = f"{r['speedup_vs_large']:,.0f}x" if "speedup_vs_large" in r else ""
            lines.append(f"{label:38} {r['positions']:>9,} {r['positions_per_s']:>13,.0f} "
                         f"{r['moves_per_s']:>13,.0f} {r['moves_per_position']:>9.1f} "
                         f"{same:>12} {lg:>8}")
    lines.append("")
    lines.append("Moves are each tool's own count (DouZero's include duplicates; pass never "
                 "counted); fastdou runs the standard profile.")
    if "cross_check" in res:
        lines += ["", f"Cross-check on the {n:,} positions: positions whose distinct card "
                  "multisets agree (not a failure: the engines have known bugs)"]
        for work, what in (("lead", "lead"), ("respond", "respond (extra)")):
            for c in res["cross_check"][work]:
                lines.append(f"  {what:16} {c['name']:27} {c['percent_equal']:6.2f}% "
                             f"({c['equal']:,}/{c['positions']:,}; distinct per position "
                             f"{c['mean_distinct_tool']:.1f} vs {c['mean_distinct_fastdou']:.1f})")
                m = c.get("first_mismatch")
                if m:
                    lines.append(f"    first mismatch #{m['index']} {m['position']}: "
                                 f"only tool {m['n_only_tool']} {m['only_tool'][:4]}, "
                                 f"only fastdou {m['n_only_fastdou']} {m['only_fastdou'][:4]}")
    return "\n".join(lines)


def _at_least(low):
    """An argparse type: an integer of at least ``low``."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value
    return parse


_positive = _at_least(1)
_nonnegative = _at_least(0)


def main(argv=None):
    p = argparse.ArgumentParser(
        prog=PROG, description="Time fastdou against DouZero's and RLCard's move generators "
        "on the same seeded classic positions (see the module docstring).")
    p.add_argument("--positions", type=_positive, default=2000,
                   help="positions the Python tools (and fastdou, for the same-positions "
                        "figure) are timed on (default 2000)")
    p.add_argument("--large", type=_nonnegative, default=200_000,
                   help="positions for fastdou's larger-corpus figure (default 200000; at "
                        "least --positions)")
    p.add_argument("--seed", type=_nonnegative, default=0, help="corpus seed (default 0)")
    p.add_argument("--repeat", type=_positive, default=3,
                   help="timed runs per figure; the fastest counts (default 3)")
    p.add_argument("--no-check", action="store_true", help="skip the cross-check")
    p.add_argument("--no-install", action="store_true",
                   help="do not pip-install missing DouZero or RLCard; fail instead")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    args = p.parse_args(argv)
    try:
        ensure_tools(install=not args.no_install)
        res = run(args.positions, args.large, args.seed, args.repeat, check=not args.no_check)
    except CompareError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    print(json.dumps(res, indent=2) if args.json else format_table(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
