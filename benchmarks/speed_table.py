"""The README's speed table, written from ``compare.py``'s JSON (``benchmarks/speed.json``).

Redo it in one command (full mode, a few minutes; it rewrites the JSON and the README)::

    python benchmarks/speed_table.py --run

``--check`` exits 1 when the README's table is not what this script writes from the JSON
(tests/test_speed_table.py runs it); ``--write`` rewrites the table from the JSON as it is.
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
BEGIN = ("<!-- speed-table: written by `python benchmarks/speed_table.py --run` from "
         "benchmarks/speed.json; do not edit by hand -->")
END = "<!-- /speed-table -->"
ENGINES = (("douzero", "DouZero"), ("rlcard", "RLCard"), ("openspiel", "OpenSpiel"))


def _rate(x: float) -> str:
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x:,.0f}"


def _engine_cell(row, speedup_key="speedup_same_positions", unit="") -> str:
    return f"{_rate(row['positions_per_s' if 'positions_per_s' in row else 'games_per_s'])}" \
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


def render(res: dict) -> str:
    """The markdown block (markers included) for results ``res``."""
    cfg, m, v, g = res["config"], res["machine"], res["versions"], res["games"]
    n = cfg["positions"]
    load = m.get("load_average_1min")
    lines = [
        BEGIN,
        f"Measured {m['date']} on {m['cpu']} ({m['cores']} cores, {m['system']}, load "
        f"average {load:.1f} at the start), seed {cfg['seed']}, one thread unless said, best "
        f"of {cfg['repeat']} runs; fastdou {v['fastdou']} (Numba {v['numba']}), DouZero "
        f"{v['douzero']}, RLCard {v['rlcard']}, OpenSpiel {v['openspiel']}. In parentheses: "
        f"fastdou's rate over the engine's, on the same positions or the same number of "
        f"random games (what each engine runs: benchmarks/compare.py).",
        "",
        "| classic | fastdou | DouZero | RLCard | OpenSpiel |",
        "|---|---|---|---|---|",
    ]
    lead, resp = res["lead"], res["respond"]
    lines.append(
        f"| leads of {n:,} landlord hands (20 cards), hands/s | "
        f"{_rate(lead['fastdou']['positions_per_s'])} "
        f"({_rate(lead['fastdou_large']['positions_per_s'])} on {cfg['large']:,}) | "
        + " | ".join(_engine_cell(lead[k]) for k, _ in ENGINES) + " |")
    lines.append(
        f"| responses of {n:,} farmer hands (17 cards) to a realistic lead, positions/s | "
        f"{_rate(resp['fastdou']['positions_per_s'])} | "
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
    lines += ["", "The issue's targets (fastdou's rate over the engine's) against these "
              "figures: " + "; ".join(f"{x['name']} {x['value']:,.2f} (target "
                                      f"{x['target']:g}: "
                                      f"{'met' if x['target_met'] else 'not met'})"
                                      for x in res["gates"] if x["target"]
                                      and not x["name"].startswith("moves/")) + ".",
              END]
    return "\n".join(lines)


def _split(text: str):
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        raise SystemExit(f"speed_table.py: the README has no table between the markers "
                         f"{BEGIN!r} and {END!r}")
    return text[:i], text[i:j + len(END)], text[j + len(END):]


def check(readme: str, res: dict) -> bool:
    """Whether the README's table is exactly what :func:`render` writes from ``res``."""
    return _split(readme)[1] == render(res)


def write(readme_path: str, res: dict) -> None:
    with open(readme_path) as f:
        head, _, tail = _split(f.read())
    with open(readme_path, "w") as f:
        f.write(head + render(res) + tail)


def main(argv=None):
    p = argparse.ArgumentParser(prog="speed_table.py", description=__doc__.splitlines()[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--run", action="store_true",
                      help="run compare.py in full mode, then write the JSON and the table")
    mode.add_argument("--write", action="store_true", help="write the table from the JSON")
    mode.add_argument("--check", action="store_true",
                      help="exit 1 if the README's table differs from the JSON's")
    p.add_argument("--json", default=JSON, help="compare.py's JSON (default %(default)s)")
    p.add_argument("--readme", default=README, help="the README (default %(default)s)")
    args = p.parse_args(argv)
    if args.run:
        subprocess.run([sys.executable, os.path.join(HERE, "compare.py"), "--out", args.json],
                       check=True)
    with open(args.json) as f:
        res = json.load(f)
    if args.check:
        with open(args.readme) as f:
            ok = check(f.read(), res)
        if not ok:
            print("speed_table.py: the README's speed table differs from what "
                  "benchmarks/speed_table.py --write makes of the JSON", file=sys.stderr)
        return 0 if ok else 1
    write(args.readme, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
