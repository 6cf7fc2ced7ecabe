"""The README's ratio table and docs/benchmarks.md, written from ``compare.py``'s JSON
(``benchmarks/speed.json``) and from the figures of the other benchmarks listed below.

Redo both in one command (full mode, a few minutes; it rewrites the JSON, the README's table
and docs/benchmarks.md)::

    python benchmarks/speed_table.py --run

``--check`` exits 1 when the README's table or docs/benchmarks.md is not what this script
writes (tests/infrastructure/test_speed_table.py runs it); ``--write`` rewrites both from the JSON as it is.

The machine a figure ran on is the JSON's ``machine`` (what ``compare.py`` records: the CPU,
its cores, Numba's threads, the system) and ``versions``. The figures of the other benchmarks
(:data:`OTHER`) are kept here, each with the command that reproduces it and the machine it
ran on; rerun the command and edit the entry when it changes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
JSON = os.path.join(HERE, "speed.json")
README = os.path.join(HERE, "..", "README.md")
BENCHMARKS = os.path.join(HERE, "..", "docs", "benchmarks.md")
BEGIN = ("<!-- speed-table: written by `python benchmarks/speed_table.py --run` from "
         "benchmarks/speed.json; do not edit by hand -->")
END = "<!-- /speed-table -->"
PAGE_MARK = ("<!-- written by `python benchmarks/speed_table.py --write` from "
             "benchmarks/speed.json and the script's OTHER figures; do not edit by hand -->")
ENGINES = (("douzero", "DouZero"), ("rlcard", "RLCard"), ("openspiel", "OpenSpiel"))
COMPARE = "python -m benchmarks.compare --out benchmarks/speed.json"
XEON = "2-core Intel Xeon"
EPYC = "2-core AMD EPYC"


def _bench(name: str, *flags: str) -> str:
    return " ".join(["python -m pytest", f"benchmarks/{name}", *flags,
                     "-s -p no:cacheprovider"])


# The other benchmarks: (section, command, what CI gates, [(what, figure, machine), ...]).
# Each figure is of the current code, measured by the section's command (single thread
# after warm-up unless it says otherwise; `--quick` is CI's smaller run).
OTHER = (
    ("Move generation, counting and batches", _bench("test_bench_generation.py"),
     "the total number of moves over each seeded corpus is a golden value; generation may cost "
     "at most 25x copying the same records and must stay over 1,000x the naive oracle "
     "(`test_bench_oracle_ratio.py`); counting at least 2.7x generating for leads and 2.5x "
     "for responses (target 3x); `generate_batch` into a reused buffer on 2 threads at least "
     "0.65 of the same work split where its offset is known (a second thread doing nothing "
     "gives 0.55 when that split gives 1.8x; the 1.8x target is printed, met or not)",
     [("counting leads without building them, over generating them",
       "20-card classic 5.4x (29.7 M hands/s); 17-card classic 4.2x; four_player 33 cards "
       "16.0x; emperor 42 cards 31.2x; five_player 24 cards 4.3x; jinling 17 cards 3.9x", XEON),
      ("counting responses over generating them (three full runs; five `--quick` runs)",
       "classic 3.32-3.77x (41.0-68.3 M positions/s), four_player 3.58-4.41x, emperor "
       "3.92-4.31x; quick: classic 3.09-3.66x, four_player 3.65-3.82x, emperor 3.94-4.07x",
       EPYC),
      ("`generate_batch` per thread against the kernel in an `@njit` loop over the same hands "
       "(`-k batch`, three runs and three `--quick` runs)",
       "into a reused buffer (`out=`) 0.94-0.97x on 200,000 hands (3.53-3.81 M hands/s), "
       "0.87-0.94x on 20,000; into a fresh output 0.57-0.59x on 200,000 (256 MB of fresh huge "
       "pages a call), 0.73-0.78x on 20,000", EPYC),
      ("`generate_batch` on 2 threads into a reused buffer, against the same work split at a "
       "known offset (`-k two_threads`, five `--quick` runs, best of 30 rounds)",
       "0.81-0.94 of the split (the split itself 1.35-2.11x); the design's bound is "
       "(2 - c/(1 + c))/2 = 0.92 of the split for counting at c = 0.18-0.2 of generating",
       EPYC),
      ("`generate_batch` on 2 threads over 1 thread, 200,000 hands (`-k two_threads`, three "
       "runs, best of 30 rounds)",
       "into a reused buffer 1.51-1.78x (5.47-6.98 M hands/s); into a fresh output "
       "1.70-1.88x; the same work split at a known offset 1.86-1.94x", EPYC)]),
    ("Games and simulation", _bench("test_bench_games.py"),
     "each preset's corpus has a golden number of plays; the compiled game loop stays over 20x "
     "the plain-Python reference loop; the loop allocates nothing per action or per deal "
     "(Numba's allocations counted over n and 8n deals); two threads at least 0.7 of what an "
     "arithmetic loop gets from the machine's two threads in the same turns; a simulation's "
     "peak memory does not grow with the number of deals", []),
    ("Results files and Dask", _bench("test_bench_results.py"),
     "writing parquet costs at most 20% of the simulation that produces it, the file at most "
     "24 bytes a deal; a 2-worker Dask LocalCluster reaches 80% of the local two-thread rate "
     "on 4M deals (60% in quick mode, whose four chunks make one slow task start weigh a "
     "quarter)",
     [("writing 200k simulated classic deals as `.parquet` (lz4; `--quick -k parquet`, two "
       "runs)", "13% and 17% of the simulation, 6.0 bytes a deal", XEON),
      ("1M deals written as `.npz` (deflate) / `.csv` / `.jsonl`",
       "10.6 / 87.9 / 372 bytes a deal", XEON),
      ("4M classic deals on a 2-worker LocalCluster (1 thread each, 250k-deal chunks) against "
       "2 local threads, the machine otherwise idle (`-k dask_two`)",
       "140,047 against 138,936 deals/s (101%)", XEON),
      ("Dask's overhead per chunk (100k deals in 200 chunks against 4)", "1.2-4.7 ms", XEON)]),
    ("Wild cards (laizi)", _bench("test_bench_wild.py"),
     "the moves over each seeded corpus and the plays of laizi's random self-play are golden "
     "values; the wild-card generator stays over 1,000x the naive reference; the shares of "
     "classic's rates (targets: a quarter for leads, a half for responses, a third for "
     "self-play) are printed, met or not",
     [("leads of 10,000 17-card hands, one random wild rank each, against classic's leads of "
       "the same hands (two runs)", "0.33 and 0.34 M hands/s, 158.6 and 158.8 M moves/s, 474 "
       "moves a hand; 0.0506x and 0.0511x classic's hands/s", EPYC),
      ("responses of 10,000 farmer hands to realistic leads, the same",
       "4.06 and 4.17 M positions/s, 69.6 and 71.5 M moves/s, 17.1 moves a position; 0.2495x "
       "and 0.2483x classic's", EPYC),
      ("leads of 12 20-card hands against the naive reference", "265,896x and 282,563x", EPYC),
      ("laizi random self-play in `simulate`, 1 thread, 20,000 deals, against classic's",
       "79,859 against 251,879 games/s (0.3171x) and 81,901 against 244,272 (0.3353x): "
       "target 1/3 met in one of the two runs, so not held; the leads of the 17-card hands "
       "above number 474 a hand with a wild rank, 44 without", EPYC)]),
    ("Start-up and compilation", _bench("test_bench_startup.py"),
     "a cold first `simulate` compiles at most 97 functions nested at most 8 deep in one "
     "process, and with the helper process none of the move generator and at most 66 "
     "(Numba's compile events); a new user policy compiles no fastdou kernel again",
     [("first `fastdou simulate` on an empty cache, compiling included (two runs each)",
       "19.4 s and 22.4 s with the helper process compiling the move generator meanwhile; "
       "27.8 s and 27.9 s in one process (`FASTDOU_COMPILE_HELPER=0`)", EPYC),
      ("the same, cache warm", "1.46-1.93 s", EPYC),
      ("first `fastdou solve 448999TJJQQAR 336688TAA22B` on an empty cache, idle machine "
       "(two runs each, alternated)", "53.1 s and 54.9 s with the helper process compiling "
       "the move generator meanwhile; 60.7 s and 69.9 s in one process "
       "(`FASTDOU_COMPILE_HELPER=0`)", EPYC),
      ("first `Game` on an empty cache (`Game.new()`, its legal ids, a `play_id`, "
       "`encode(0)`; idle machine; `-k \"cold_first_call and Game\"`, with "
       "`FASTDOU_COMPILE_HELPER=0` for one process)", "24.5, 25.4 and 26.1 s with the helper "
       "process compiling the move generator meanwhile; 37.1 s and 38.2 s in one process",
       EPYC),
      ("cold compile and first `legal_moves`", "22.2 s", EPYC),
      ("`import fastdou`", "0.64-0.84 s", EPYC),
      ("a new user policy's first deal, the engine cached", "0.71 s", XEON),
      ("each entry point's first call on an empty cache, in its own process (`-k "
       "cold_first_call`; `--quick` runs the first only)",
       "legal_moves 13.8 s, `fastdou simulate` 19.7 s, `Game` (new, legal ids, play, "
       "encode) 24.5 s, DouZero `Env` 39.2 s, `solve` 54.9 s, `VectorEnv` 64.1 s, idle "
       "machine; 1.1-1.9 s each once cached (goal: none over 20 s)", EPYC),
      ("`fastdou warmup` on an empty cache (every kernel of the API; command: `fastdou "
       "warmup`)", "391 s on an idle machine, VectorEnv's three encodings, the installed "
       "adapters and the wild-card kernels (141 s of it, by the notices) included", EPYC)]),
    ("Solver and perft", _bench("test_bench_solver.py"),
     "the solver's node counts and perft's leaf counts are golden values; a `time_limit` "
     "ends within 1.2x of itself, wall clock, the table's set-up included",
     [("WeChat expert level 50 (`448999TJJQQAR` leads against `336688TAA22B`: first wins, only "
       "with 8)", "0.042 s, 73,070 nodes, 1.7 M nodes/s, table 33 MB (target 0.1 s)", XEON),
      ("10 random two-player endgames, 16 cards a side (seed 16), each capped at 10 M nodes",
       "all 10 solved; median 0.59 s, the slowest 3.9 s (6.7 M nodes); 1.6 M nodes/s "
       "(targets: median under 1 s, each under 10 s)", XEON),
      ("three-player endgame, 8 cards a seat (`46788QA2/3577KKAA/56667TQK`, farmers as a team)",
       "0.010 s, 15,817 nodes, table 41 MB", XEON),
      ("perft 10 of `34567789TJ/3456789TJQ` (8,716,271 leaves)", "18 M leaves/s", XEON),
      ("perft 8 of `33345AR/QK222B` against the naive reference", "24x", XEON),
      ("`time_limit=0.5` on an endgame far beyond it, with a 2**26-entry table (2.1 GB, "
       "mapped and cleared within the limit; `-k time_limit`, 3 rounds)",
       "wall 0.514-0.580 s (at most 1.16x the limit)", EPYC)]),
    ("Players", _bench("test_bench_expert.py benchmarks/test_bench_pimc.py"),
     "expert self-play at least 0.22 of random self-play's games/s (target 0.25) and its "
     "corpus's plays exactly; expert's WP at least 0.95 (ADP 2.5) against random, 0.58 "
     "against greedy and 0.62 against RLCard's rule agent; pimc's at least 0.58 against "
     "expert and 0.70 against RLCard's rule agent, at most 50 ms a decision on average "
     "(`--quick`: fewer deals, the WP gates less a margin)",
     [("expert self-play in `simulate` against random self-play, 1 thread, 100k deals "
       "(`-k speed`)", "95,165 against 324,808 games/s, 0.293 (target 0.25)", EPYC),
      ("pimc's decisions against expert (1,000 deals x 2, `fastdou.policy` in a Python "
       "loop; `-k against_expert`)", "33,025 decisions: mean 2.99 ms, median 1.70, p99 "
       "12.5, slowest 31.6 (target: 50 ms); WP 0.698 (0.681 .. 0.715)", EPYC),
      ("the players' strength against each other and RLCard's rule agent (command: "
       "`python benchmarks/strength_table.py --run`)", "the README's Strength table, "
       "from `benchmarks/strength.json`", EPYC)]),
    ("Agents from Python and the adapters",
     _bench("test_bench_openspiel.py benchmarks/test_bench_rlcard.py "
            "benchmarks/test_bench_douzero.py", "--quick"),
     "the OpenSpiel line at 1x and at 0.2 of a costless engine's games/s (`NullGame`, the same "
     "four calls with no work behind them); the adapters and the encoder at their targets "
     "less a noise margin",
     [("a Python agent stepping `Game` by ids against OpenSpiel's `dou_dizhu` from Python, "
       "classic, random legal actions", "1.27-1.46x OpenSpiel's games/s (target 3x, not met; "
       "`NullGame` 3.9-4.7x: the loop's own Python takes most of the budget)", EPYC),
      ("the RLCard adapter against RLCard's env (quirks kept; with `fastdou_fix_quirks`)",
       "178,777 against 7,403 steps/s, 24.1x; 24.4x (target 20x)", XEON),
      ("the DouZero adapter against DouZero's env", "129,572 against 5,769 steps/s, 22.5x "
       "(target 20x)", XEON),
      ("the compiled DouZero encoder against `get_obs`",
       "706,022 against 10,055 positions/s, 70.2x (target 50x)", XEON)]),
    ("VectorEnv", _bench("test_bench_vector.py", "--quick"),
     "one thread at least 4x `fastdou.Game` from Python and 120x RLCard's env",
     [("classic straight into play, 4,096 games, random legal ids drawn by numpy, best of 3: "
       "1 thread, fastdou encoding", "3,016,916 env steps/s, 386x RLCard's env (7,824 in the "
       "same run)", XEON),
      ("2 threads, fastdou encoding, idle threads spinning (before `OMP_WAIT_POLICY=passive` "
       "became the default: see the next section)", "5,578,918 (1.85x one thread), 713x "
       "RLCard's env (target 500x)", XEON),
      ("2 threads, DouZero / RLCard encoding", "2,658,513 / 3,378,520 (1,372,234 / 1,829,191 "
       "on 1 thread)", XEON),
      ("1 thread, random opponents on seats 1 and 2", "1,701,630 learner steps/s", XEON),
      ("memory", "5,893 bytes a game (65,536 games in 368 MiB)", XEON),
      ("where a step goes (1 thread, 361 ns; `-k where_a_step_goes`)",
       "the fastdou encoding 100 ns, move generation 75 ns, the ids of the moves 35 ns, "
       "applying the action 33 ns, numpy's choice 5 ns, a step call's fixed cost 26 us "
       "(6 ns a game), the rest 87 ns (deals, bookkeeping, the game's 1,120-byte state row)",
       XEON)]),
    ("Threads on a shared machine", _bench("test_bench_threads.py"),
     "2 threads over 1 at least 0.7 for `VectorEnv` and `simulate` with one other CPU-bound "
     "process running (OpenMP's spinning default gave `VectorEnv` 0.14-0.44); the targets, 1.0 "
     "busy and 1.8 idle, are printed, met or not",
     [("`VectorEnv`, 4,096 classic games, 2 threads over 1, one other job spinning, other "
       "sessions' jobs also running (four runs)", "0.83-0.97x", EPYC),
      ("classic random self-play (`simulate`), the same", "0.94-1.07x", EPYC),
      ("`VectorEnv`, 4,096 games on a quiet machine, best of 7 x 20 steps: idle threads "
       "passive (the default) / spinning (`OMP_WAIT_POLICY=active`)", "1.42-1.51x / "
       "1.87-1.94x (target 1.8x: not met with the default)", EPYC),
      ("OpenMP's former default (idle threads spin for milliseconds), `VectorEnv`: the "
       "machine as it is / one other job", "0.14-0.17x / 0.27-0.44x", EPYC)]),
)


def _rate(x: float) -> str:
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x:,.0f}"


def _engine_cell(row, speedup_key="speedup_same_positions", unit="") -> str:
    return f"{_rate(row['positions_per_s'] if 'positions_per_s' in row else row['games_per_s'])}" \
           f"{unit} ({row[speedup_key]:,.0f}x)"


def _moves(res, work) -> str:
    rows = res[work]
    parts = [f"fastdou {rows['fastdou']['moves_per_position']:.1f}"]
    parts += [f"{name} {rows[k]['moves_per_position']:.1f}" for k, name in ENGINES]
    return ", ".join(parts)


def _check_cell(res, engine) -> str:
    cells = []
    for c in res.get("cross_check", ()):
        if c["engine"] != engine:
            continue
        known = "; ".join(f"{k} {n:,}" for k, n in c["known"].items())
        work = {"lead": "leads", "respond": "responses"}[c["work"]]
        cells.append(f"{work} {c['equal']:,}/{c['positions']:,} equal"
                     + (f" ({known})" if known else "")
                     + (f", {c['unexplained']:,} UNEXPLAINED" if c["unexplained"] else ""))
    return "; ".join(cells) or "not checked"


def _machine(res) -> str:
    m, v = res["machine"], res["versions"]
    return (f"{m['cpu']} ({m['cores']} cores, {m.get('numba_threads', m['cores'])} Numba "
            f"threads, {m['system']}), Python {v['python']}, fastdou {v['fastdou']} (Numba "
            f"{v['numba']}), DouZero {v['douzero']}, RLCard {v['rlcard']}, OpenSpiel "
            f"{v['openspiel']}")


def render(res: dict) -> str:
    """The README's ratio table (markers included) for results ``res``."""
    lead, resp, g = res["lead"], res["respond"], res["games"]
    n = res["config"]["positions"]

    def x(v, digits=0):
        return f"{v:,.{digits}f}x"

    lines = [
        BEGIN,
        f"fastdou's rate over each engine's on the same seeded classic positions or the same "
        f"number of random games, one thread, on {res['machine']['cpu']} "
        f"({res['machine']['cores']} cores);",
        "the figures, their commands and the machine: [docs/benchmarks.md](docs/benchmarks.md).",
        "",
        "| work | over DouZero | over RLCard | over OpenSpiel |",
        "|---|---|---|---|",
        f"| every lead of {n:,} 20-card landlord hands | "
        + " | ".join(x(lead[k]["speedup_same_positions"]) for k, _ in ENGINES) + " |",
        f"| every response of {n:,} 17-card farmer hands to a realistic lead | "
        f"{x(resp['douzero']['speedup_same_positions'])} | "
        f"{x(resp['rlcard']['speedup_same_positions'])} | "
        f"{x(resp['openspiel']['speedup_same_positions'])} (the "
        f"{resp['openspiel']['positions']:,} leads it has) |",
        f"| random self-play, whole games | {x(g['douzero']['speedup'])} (it has no bidding) | "
        f"{x(g['rlcard']['speedup'])} (no bidding) | {x(g['openspiel_python']['speedup'], 1)} "
        f"driven from Python; {x(g['openspiel_cpp']['speedup'], 1)} against its C++ "
        f"`evaluate_bots` |",
        *_client_rows(res),
        END,
    ]
    return "\n".join(lines)


def _client_cell(c) -> str:
    return f"{c['ratio']:.2f}x (ceiling {c['ceiling']:.2f}x)"


def _client_rows(res) -> list:
    """The README rows of the clients' own loops (none in results made before them)."""
    c = res.get("clients")
    if not c:
        return []
    return [
        "| a client's own loop, unchanged (ceiling: a costless engine) | "
        f"{_client_cell(c['douzero_random'])} `mp_simulate` | "
        f"{_client_cell(c['rlcard_run'])} `env.run`, rule vs random | "
        f"{_client_cell(c['openspiel_evaluate_bots'])} `evaluate_bots` |",
        "| the same, a stronger player: its `rlcard` agent as landlord; `MCTSBot` | "
        f"{_client_cell(c['douzero_rlcard'])} | | {_client_cell(c['openspiel_mcts'])} |"]


def _clients_table(res) -> list:
    lines = ["| client's loop | games | fastdou, games/s | original | costless engine | "
             "ratio | ceiling | target |", "|---|---|---|---|---|---|---|---|"]
    for c in res["clients"].values():
        met = "met" if c["ratio"] >= c["target"] else "not met" + (
            ", above the ceiling" if c["ceiling"] < c["target"] else "")
        lines.append(f"| {c['loop']} | {c['games']:,} | {_rate(c['fastdou'])} | "
                     f"{_rate(c['original'])} | {_rate(c['costless'])} | {c['ratio']:.2f}x | "
                     f"{c['ceiling']:.2f}x | {c['target']:g}x ({met}) |")
    return lines


def _compare_table(res) -> list:
    cfg, g = res["config"], res["games"]
    n = cfg["positions"]
    lead, resp = res["lead"], res["respond"]
    lines = ["| classic | fastdou | DouZero | RLCard | OpenSpiel |", "|---|---|---|---|---|"]
    lines.append(
        f"| leads of {n:,} landlord hands (20 cards), hands/s | "
        f"{_rate(lead['fastdou']['positions_per_s'])} "
        f"({_rate(lead['fastdou_large']['positions_per_s'])} on {cfg['large']:,}) | "
        + " | ".join(_engine_cell(lead[k]) for k, _ in ENGINES) + " |")
    lines.append(
        f"| responses of {n:,} farmer hands (17 cards) to a realistic lead, positions/s | "
        f"{_rate(resp['fastdou']['positions_per_s'])} "
        f"({_rate(resp['fastdou_large']['positions_per_s'])} on {cfg['large']:,}) | "
        + " | ".join(_engine_cell(resp[k]) for k, _ in ENGINES[:2])
        + f" | {_engine_cell(resp['openspiel'])} on the {resp['openspiel']['positions']:,} "
          f"leads it has |")
    lines.append(f"| moves per lead; per response | {_moves(res, 'lead')}; "
                 f"{_moves(res, 'respond')} | | | |")
    two = g.get("fastdou_random_2_threads")
    threads = (f"; {_rate(two['games_per_s'])} on 2 threads ({g['threads_ratio']:.2f}x; "
               f"an arithmetic loop {g['spin_threads_ratio']:.2f}x in the same run)"
               if two else "")
    lines.append(
        f"| random self-play, games/s (fastdou and OpenSpiel with bidding; DouZero and RLCard "
        f"have none) | {_rate(g['fastdou_random']['games_per_s'])}{threads} | "
        f"{_rate(g['douzero']['games_per_s'])} ({g['douzero']['speedup']:,.0f}x) | "
        f"{_rate(g['rlcard']['games_per_s'])} ({g['rlcard']['speedup']:,.0f}x) | "
        f"{_rate(g['openspiel_python']['games_per_s'])} driven from Python "
        f"({g['openspiel_python']['speedup']:,.1f}x); {_rate(g['openspiel_cpp']['games_per_s'])}"
        f" in C++, `evaluate_bots` ({g['openspiel_cpp']['speedup']:,.1f}x) |")
    lines.append(f"| greedy self-play, games/s | {_rate(g['fastdou_greedy']['games_per_s'])} "
                 f"| | | |")
    lines.append("| move sets against fastdou's matching profile (douzero, standard, "
                 "openspiel) | | " + " | ".join(_check_cell(res, k) for k, _ in ENGINES)
                 + " |")
    for preset, p in res["presets"].items():
        a, b = p["landlord"], p["farmer"]
        lines.append(
            f"| {preset} leads, {p['landlord_size']}- / {p['hand_size']}-card hands, hands/s "
            f"| {_rate(a['positions_per_s'])} ({a['moves_per_position']:,.0f} moves each) / "
            f"{_rate(b['positions_per_s'])} ({b['moves_per_position']:,.0f}) | | | |")
    return lines


def _gates_table(res) -> list:
    lines = ["| ratio | measured | target | CI gate |", "|---|---|---|---|"]
    for x in res["gates"]:
        if x["name"].startswith("moves/"):
            continue
        target = "none" if x["target"] is None else \
            f"{x['target']:g} ({'met' if x['target_met'] else 'not met'})"
        gate = "none" if x["gate"] is None else f"{x['gate']:g}"
        lines.append(f"| {x['name']} | {x['value']:,.2f} | {target} | {gate} |")
    return lines


def render_page(res: dict) -> str:
    """docs/benchmarks.md for results ``res``."""
    cfg = res["config"]
    lines = [
        "# Benchmarks",
        "",
        PAGE_MARK,
        "",
        "Every figure here names the command that reproduces it and the machine it ran on. "
        "Absolute rates move with a machine's other load (a shared 2-core machine's speed "
        "can vary by half); the ratios, each timed in the same run, move much less. CI gates "
        "speed on same-run ratios and exact work counters, never on stored times.",
        "",
        "## fastdou beside DouZero, RLCard and OpenSpiel",
        "",
        f"Command: `{COMPARE}` (full mode, a few minutes; it installs the other engines, "
        f"DouZero with `--no-deps`), or `python benchmarks/speed_table.py --run`, which also "
        f"rewrites this page and the README's ratio table. CI runs `python -m "
        f"benchmarks.compare --quick --gate`.",
        "",
        f"Machine: {_machine(res)}.",
        "",
        f"Settings: classic rules, seed {cfg['seed']}, the same positions for every engine "
        f"(`tests/shared/corpus.py`), each engine on its own native input built before the clock "
        f"starts, one thread unless said, best of {cfg['repeat']} runs; "
        f"{cfg['games']:,} random games of DouZero, RLCard and OpenSpiel from Python "
        f"({10 * cfg['games']:,} in OpenSpiel's C++), {cfg['fastdou_deals']:,} of fastdou. "
        f"What each engine runs is in the docstring of `benchmarks/compare.py`. In "
        f"parentheses: fastdou's rate over the engine's.",
        "",
        *_compare_table(res),
        "",
        "The generators of the leads and of the responses are timed in turn, round by round, so "
        "that a drift of a shared machine's speed falls alike on fastdou and on the engine it "
        "is divided by. Every engine's move sets are checked against fastdou's matching kicker "
        "profile and each difference is counted under the engine's known bugs "
        "(`benchmarks/compare.py`): OpenSpiel forbids a chain that starts at a rank held "
        "four times and offers a bomb against the rocket; DouZero emits duplicate moves. On a "
        "fresh cache, code compiled in one process (as `fastdou warmup` does) runs up to 1.5x "
        "faster than a loop compiled against kernels another process cached, which Numba links "
        "without inlining; `--run` starts from the cache as it finds it.",
        "",
        *(["### Clients' own loops", "",
            "Each client's loop, unchanged, over fastdou's adapter, over the original engine "
            "and over an engine that costs nothing (it hands the client recorded states, or "
            "answers with no work: `benchmarks/clients.py`), in turn. The costless engine's "
            "ratio is the ceiling: where it is below a target, the client's own code bounds "
            "the target and no engine meets it. `python -m pytest "
            "benchmarks/test_bench_clients.py -s` times the same loops alone.", "",
            *_clients_table(res), ""] if res.get("clients") else []),
        "### Targets and gates",
        "",
        "fastdou's targets (the rate over the engine's it aims for) against these figures, and "
        "the gate `compare.py --quick --gate` applies in CI (about half what the machine "
        "measures: a margin for noise). It also fails on a move-set difference of no known "
        "class.",
        "",
        *_gates_table(res),
        "",
        "## The other benchmarks",
        "",
        "`python -m pytest benchmarks -s -p no:cacheprovider` runs them all on the full "
        "corpora; `--quick` is CI's smaller run. Each prints its figures; the ones below are "
        "from the command of their section, on the machine named (a 2-core Intel Xeon or a "
        "2-core AMD EPYC, Linux, Python 3.11).",
    ]
    for title, command, gates, rows in OTHER:
        lines += ["", f"### {title}", "", f"Command: `{command}`.", "",
                  f"CI gates: {gates}."]
        if rows:
            lines += ["", "| what | figure | machine |", "|---|---|---|"]
            lines += [f"| {what} | {figure} | {machine} |" for what, figure, machine in rows]
    return "\n".join(lines) + "\n"


def _split(text: str, where: str = "the README"):
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        raise SystemExit(f"speed_table.py: {where} has no table between the markers "
                         f"{BEGIN!r} and {END!r}")
    return text[:i], text[i:j + len(END)], text[j + len(END):]


def check(readme: str, res: dict) -> bool:
    """Whether the README's table is exactly what :func:`render` writes from ``res``."""
    return _split(readme)[1] == render(res)


def check_page(page: str, res: dict) -> bool:
    """Whether docs/benchmarks.md is exactly what :func:`render_page` writes from ``res``."""
    return page == render_page(res)


def write(readme_path: str, res: dict) -> None:
    with open(readme_path, encoding="utf-8") as f:
        head, _, tail = _split(f.read())
    with open(readme_path, "w", encoding="utf-8") as f:
        f.write(head + render(res) + tail)


def write_page(page_path: str, res: dict) -> None:
    with open(page_path, "w", encoding="utf-8") as f:
        f.write(render_page(res))


def main(argv=None):
    p = argparse.ArgumentParser(prog="speed_table.py", description=__doc__.splitlines()[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--run", action="store_true",
                      help="run compare.py in full mode, then write the JSON, the README's "
                           "table and docs/benchmarks.md")
    mode.add_argument("--write", action="store_true",
                      help="write the README's table and docs/benchmarks.md from the JSON")
    mode.add_argument("--check", action="store_true",
                      help="exit 1 if the README's table or docs/benchmarks.md differ from "
                           "what the JSON makes")
    p.add_argument("--json", default=JSON, help="compare.py's JSON (default %(default)s)")
    p.add_argument("--readme", default=README, help="the README (default %(default)s)")
    p.add_argument("--page", default=BENCHMARKS,
                   help="the benchmarks page (default %(default)s)")
    args = p.parse_args(argv)
    if args.run:
        subprocess.run([sys.executable, "-m", "benchmarks.compare", "--out", args.json],
                       check=True, cwd=os.path.dirname(HERE))
    with open(args.json) as f:
        res = json.load(f)
    if args.check:
        with open(args.readme, encoding="utf-8") as f:
            ok_readme = check(f.read(), res)
        try:
            with open(args.page, encoding="utf-8") as f:
                ok_page = check_page(f.read(), res)
        except FileNotFoundError:
            ok_page = False
        for ok, what in ((ok_readme, "the README's speed table"),
                         (ok_page, "docs/benchmarks.md")):
            if not ok:
                print(f"speed_table.py: {what} differs from what "
                      f"benchmarks/speed_table.py --write makes of the JSON", file=sys.stderr)
        return 0 if ok_readme and ok_page else 1
    write(args.readme, res)
    write_page(args.page, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
