"""fastdou beside DouZero, RLCard and OpenSpiel on the same seeded positions and the same kind
of games; the figures as JSON, the README's speed table (``speed_table.py``) and CI's gates.

Workloads (classic rules, corpora from ``corpus.py``, seed ``--seed``):

* **lead**: every leading move of the landlord's 20-card hand (17 + kitty) of deal i;
* **respond**: every move of a farmer's 17-card hand that beats a realistic lead of the
  landlord (``corpus.response_positions``);
* **games**: random self-play, whole games, one thread unless said;
* **presets**: fastdou's four_player and emperor leads (no other engine has them);
* **clients**: OpenSpiel's, DouZero's and RLCard's own loops, unchanged, over fastdou's
  adapters and the original engines, beside a costless engine (``clients.py``).

What each engine runs, single-threaded, on its own native input built before the clock starts:

* fastdou: the ``@njit`` loops of the benchmarks (``loops.lead_all`` / ``respond_all`` over
  ``kernels.leading_moves`` / ``responses``, profile ``standard``); games:
  ``fastdou.simulate`` (dealing, bidding, play; ``random`` and ``greedy`` policies, 1 and 2
  threads);
* DouZero: ``MovesGener(cards).gen_moves()`` to lead; ``GameEnv.get_legal_card_play_actions``
  on a stand-in state to respond; games: its ``GameEnv`` with a uniformly random agent per
  seat on fastdou's deals (DouZero has no bidding: the landlord is fixed);
* RLCard: ``DoudizhuJudger.playable_cards_from_hand`` to lead, ``utils.get_gt_cards`` to
  respond; games: ``DoudizhuGame`` stepped with a random choice of ``state['actions']`` (its
  engine without the env's observation encoding; no bidding either);
* OpenSpiel (``pyspiel``, game ``dou_dizhu``): ``state.legal_actions()`` on states dealt
  card by card to the same hands (seat 0 holds the landlord's 17, bids 3 and takes the
  kitty; for responses it then plays the lead, in OpenSpiel's id), the pass id left out of
  the count; games, two ways: driven from Python (chance outcomes and a random legal action
  chosen in Python, as the other engines are driven) and OpenSpiel's own C++ random
  simulation, ``pyspiel.evaluate_bots`` with ``make_uniform_random_bot`` for every seat (the
  deal's chance outcomes sampled in C++ too), both with OpenSpiel's bidding.

OpenSpiel cannot answer a lead its rules lack (four_two kinds and some plane readings): its
response figures are on the positions whose lead it has, and fastdou is timed on the same
ones for that ratio.

The cross-check compares move sets position by position: DouZero against fastdou's
``douzero`` kicker profile and RLCard against ``standard`` (distinct card multisets, what their
lists hold), OpenSpiel against ``openspiel`` (action ids). Every difference is counted and
classified; RULES.md section 2 names the known bugs: OpenSpiel forbids a chain that starts at
a rank held four times and offers a bomb against the rocket; DouZero emits duplicate moves
(counted) and ranks a plane by its highest trio, wing trios included. A difference of no
known class is "unexplained"; ``--gate`` fails on any.

Speedups are ratios of rates measured in the same run, each the fastest of ``--repeat`` runs
(a run under 50 ms calls the loop several times in a row and divides); the generators of
one table (leads, responses) run in turn, round by round, so that a drift of the machine's
speed falls alike on each. ``--gate`` (CI, with
``--quick``) fails when a ratio falls below its gate (``GATES``: about half what the project's
machine measures; never an absolute time) or a move-set difference is unexplained; whether
each of the issue's targets (``TARGETS``) holds is reported beside it.

Missing engines are installed with pip (``rlcard``, ``open_spiel``, and ``--no-deps
douzero==1.1.0``: DouZero's PyPI package depends on torch, which its game engine never
imports); ``--no-install`` fails with a one-line error instead.

Usage::

    python -m benchmarks.compare [--quick] [--gate] [--out FILE.json] [--json]
                                 [--positions N] [--large N] [--games N] [--seed S]
                                 [--repeat R] [--no-install]
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import sys

import numba  # noqa: E402

try:
    import fastdou
except ImportError as e:  # pragma: no cover - an environment problem, said in one line
    sys.exit(f"compare.py: error: cannot import fastdou ({e}); run 'pip install -e .' in the "
             f"repository first")
from tests.shared.corpus import deals, lead_hands, response_positions  # noqa: E402
from benchmarks import clients  # noqa: E402
from benchmarks.crosscheck import cross_check  # noqa: E402
from benchmarks.engines import (DISTRIBUTIONS, ENGINES, PROG, CompareError, douzero_deals,  # noqa: E402
                     douzero_games, douzero_lead, douzero_respond, ensure_tools, make_inputs,
                     openspiel_cpp_games, openspiel_positions, openspiel_python_games,
                     rlcard_games, rlcard_lead, rlcard_respond, tools)
from benchmarks.report import format_table, gates  # noqa: E402
from benchmarks.timing import (fastdou_games, fastdou_lead, fastdou_respond, generator_rows,  # noqa: E402
                    openspiel_work, python_work, thread_figures, time_games)

SIZES = {  # (positions, large, games for Python engines, fastdou deals)
    False: (2000, 200_000, 300, 200_000),
    True: (300, 20_000, 40, 50_000),
}


# --------------------------------------------------------------------------- driver


def _version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def machine():
    """What the figures ran on, and when."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpu": cpu, "cores": os.cpu_count(), "numba_threads": numba.config.NUMBA_NUM_THREADS,
            "system": f"{platform.system()} {platform.release()}",
            "load_average_1min": load,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def _speedups(rows, fastdou_key, keys):
    for k in keys:
        rows[k]["speedup_same_positions"] = (rows[fastdou_key]["positions_per_s"]
                                             / rows[k]["positions_per_s"])


def run(positions=2000, large=200_000, seed=0, repeat=3, games=300, deals_=200_000,
        quick=False, check=True, T=None, client_size=None):
    """Every measurement as a dict (what ``--out`` writes); ``client_size``: (games,
    rounds) of each client's loop instead of ``clients.SIZES``'."""
    T = T or tools()
    n_large = max(large, positions)
    lead_big = lead_hands(n_large, 20, seed)
    resp_big, lasts_big = response_positions(n_large, seed)
    lead, resp, lasts = lead_big[:positions], resp_big[:positions], lasts_big[:positions]
    inputs = make_inputs(T, lead, resp, lasts)
    os_lead, os_resp, reached = openspiel_positions(T, deals(positions, seed), lasts)

    result = {"config": {"positions": positions, "large": n_large, "seed": seed,
                         "repeat": repeat, "games": games, "fastdou_deals": deals_,
                         "quick": quick, "rules": "classic (fastdou profile standard)"},
              "machine": machine(),
              "versions": {"python": platform.python_version(), "fastdou": fastdou.__version__,
                           "numba": _version("numba"),
                           **{e: _version(DISTRIBUTIONS[m]) for e, m in
                              (("douzero", "douzero"), ("rlcard", "rlcard"),
                               ("openspiel", "pyspiel"))}}}
    lead_rows = generator_rows({
        "fastdou": fastdou_lead(lead), "fastdou_large": fastdou_lead(lead_big),
        "douzero": python_work(douzero_lead, T, [(c,) for c in inputs["dz_lead"]], 0),
        "rlcard": python_work(rlcard_lead, T, [(t,) for t in inputs["rl_lead"]], 0),
        "openspiel": openspiel_work(T, os_lead, leading=True)}, repeat)
    _speedups(lead_rows, "fastdou", ENGINES)
    resp_rows = generator_rows({
        "fastdou": fastdou_respond(resp, lasts),
        "fastdou_large": fastdou_respond(resp_big, lasts_big),
        "douzero": python_work(douzero_respond, T, inputs["dz_resp"], 1),
        "rlcard": python_work(rlcard_respond, T, inputs["rl_resp"], 1),
        "fastdou_openspiel_positions": fastdou_respond(resp[reached], lasts[reached]),
        "openspiel": openspiel_work(T, os_resp, leading=False)}, repeat)
    _speedups(resp_rows, "fastdou", ("douzero", "rlcard"))
    _speedups(resp_rows, "fastdou_openspiel_positions", ("openspiel",))
    result["lead"], result["respond"] = lead_rows, resp_rows

    presets = {}
    for preset in ("four_player", "emperor"):
        r = fastdou.rules(preset)
        n = max(positions, n_large // 10)
        presets[preset] = {
            **generator_rows({
                "landlord": fastdou_lead(lead_hands(n, r.landlord_size, seed, preset), r),
                "farmer": fastdou_lead(lead_hands(n, r.hand_size, seed, preset), r)}, repeat),
            "landlord_size": r.landlord_size, "hand_size": r.hand_size}
    result["presets"] = presets

    g = {"fastdou_random": fastdou_games(deals_, "random", 1, repeat),
         "fastdou_greedy": fastdou_games(deals_, "greedy", 1, repeat)}
    if numba.config.NUMBA_NUM_THREADS >= 2:
        two = thread_figures(deals_, repeat)
        g["threads_ratio"] = two.pop("threads_ratio")
        g["spin_threads_ratio"] = two.pop("spin_threads_ratio")
        g["fastdou_random_2_threads"] = two
    g["openspiel_python"] = time_games(openspiel_python_games, T, games, repeat, seed,
                                       "actions_per_game")
    g["openspiel_cpp"] = time_games(openspiel_cpp_games, T, 10 * games, repeat, seed,
                                    "share_played_out")
    g["rlcard"] = time_games(rlcard_games, T, games, repeat, seed, "actions_per_game")
    data = douzero_deals(games, seed)
    g["douzero"] = time_games(lambda T, n, s: douzero_games(T, data[:n], s), T, games, repeat,
                              seed, "actions_per_game")
    ours = g["fastdou_random"]["games_per_s"]
    for k in ("openspiel_python", "openspiel_cpp", "rlcard", "douzero"):
        g[k]["speedup"] = ours / g[k]["games_per_s"]
    result["games"] = g
    result["clients"] = clients.figures(quick, client_size)
    if check:
        result["cross_check"] = cross_check(T, lead, resp, lasts, inputs, os_lead, os_resp,
                                            reached)
    result["gates"] = gates(result)
    return result

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
        prog=PROG, description="Time fastdou beside DouZero, RLCard and OpenSpiel on the "
        "same seeded classic positions and games (see the module docstring).")
    p.add_argument("--quick", action="store_true",
                   help="small corpora (CI): 300 positions, 40 games of the Python engines")
    p.add_argument("--positions", type=_positive, help="positions every engine is timed on "
                   "(default 2000; --quick 300)")
    p.add_argument("--large", type=_nonnegative,
                   help="positions for fastdou's larger-corpus figure (default 200000)")
    p.add_argument("--games", type=_positive, help="games of OpenSpiel (from Python), RLCard "
                   "and DouZero (default 300; OpenSpiel's C++ simulation plays 10x)")
    p.add_argument("--deals", type=_positive, help="fastdou's games (default 200000)")
    p.add_argument("--seed", type=_nonnegative, default=0, help="corpus seed (default 0)")
    p.add_argument("--repeat", type=_positive, default=3,
                   help="timed runs per figure; the fastest counts (default 3)")
    p.add_argument("--no-check", action="store_true", help="skip the move-set cross-check")
    p.add_argument("--no-install", action="store_true",
                   help="do not pip-install missing engines; fail instead")
    p.add_argument("--gate", action="store_true",
                   help="exit 1 when a gate fails (a ratio under its gate, or a move-set "
                        "difference of no known class)")
    p.add_argument("--out", help="write the results as JSON to this file")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    args = p.parse_args(argv)
    positions, large, games, deals_ = SIZES[args.quick]
    try:
        ensure_tools(install=not args.no_install)
        res = run(args.positions or positions, large if args.large is None else args.large,
                  args.seed, args.repeat, args.games or games, args.deals or deals_,
                  quick=args.quick, check=not args.no_check)
    except CompareError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    if args.out:
        with open(args.out, "w") as f:
            json.dump(res, f, indent=1)
            f.write("\n")
    print(json.dumps(res, indent=2) if args.json else format_table(res))
    failed = [g["name"] for g in res["gates"] if not g["gate_ok"]]
    if args.gate and failed:
        print(f"{PROG}: gates failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
