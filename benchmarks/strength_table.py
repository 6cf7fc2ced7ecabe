"""The README's strength table: fastdou's built-in players against each other and against
RLCard's rule agent, by DouZero's protocol (:func:`fastdou.evaluate`: A as the landlord
against B as both farmers on the same deals, then the roles swapped), beside the published
papers of the strongest learned bots for scale.

    python benchmarks/strength_table.py --run      # plays the matches, rewrites both files
    python benchmarks/strength_table.py --write    # the README's table from the JSON
    python benchmarks/strength_table.py --check    # exit 1 if the README's table is not it

``--run`` plays every match of :data:`MATCHES` (about ten minutes on two cores, ``pimc``'s
matches most of it), writes ``benchmarks/strength.json`` (the figures, the machine, the
versions) and the README's table between its markers; tests/infrastructure/
test_speed_table.py checks the table against the JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
JSON = os.path.join(HERE, "strength.json")
README = os.path.join(HERE, "..", "README.md")
COMMAND = "python benchmarks/strength_table.py --run"
BEGIN = (f"<!-- strength-table: written by `{COMMAND}` from benchmarks/strength.json; "
         f"do not edit by hand -->")
END = "<!-- /strength-table -->"

# (A, B, deals): each deal played twice (A as landlord, then as both farmers). "rlcard":
# RLCard's DouDizhuRuleAgentV1, unchanged, through fastdou's RLCard adapter.
MATCHES = (
    ("pimc", "expert", 2_000),
    ("pimc", "rlcard", 1_000),
    ("expert", "rlcard", 5_000),
    ("expert", "greedy", 20_000),
    ("expert", "random", 20_000),
    ("greedy", "rlcard", 5_000),
    ("rlcard", "random", 5_000),
    ("greedy", "random", 20_000),
)
NAMES = {"rlcard": "RLCard's rule agent V1"}

# The learned bots' papers, whose head-to-head tables (DouZero's protocol) give the scale;
# their figures are not copied here until read from the papers themselves.
PAPERS = (("DouZero", "https://arxiv.org/abs/2106.06135"),
          ("PerfectDou", "https://arxiv.org/abs/2203.16406"))


def player(name):
    """What :func:`fastdou.evaluate` takes for a match's ``name``."""
    if name == "rlcard":
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
        return DouDizhuRuleAgentV1()
    return name


def play(matches=MATCHES, seed=0, scale=1.0) -> dict:
    """Every match's figures, the machine and the versions (what ``--run`` writes)."""
    import fastdou
    from benchmarks.compare import _version, machine
    rows = []
    for a, b, deals in matches:
        deals = max(1, int(deals * scale))
        start = time.perf_counter()
        e = fastdou.evaluate(player(a), player(b), deals, seed=seed)
        rows.append({"a": a, "b": b, "deals": deals, "seconds": time.perf_counter() - start,
                     **{role: getattr(e, role).as_dict()
                        for role in ("landlord", "farmers", "overall")}})
        print(f"{a} vs {b}: WP {e.overall.wp:.3f}, ADP {e.overall.adp:+.2f} "
              f"({deals:,} deals, {rows[-1]['seconds']:.0f} s)", file=sys.stderr)
    return {"command": COMMAND, "seed": seed, "matches": rows, "machine": machine(),
            "versions": {"python": platform.python_version(), "fastdou": fastdou.__version__,
                         "numba": _version("numba"), "rlcard": _version("rlcard")}}


def _name(p: str) -> str:
    return NAMES.get(p, f"`{p}`")


def _pm(value, ci, spec) -> str:
    half = (ci[1] - ci[0]) / 2
    return f"{format(value, spec)} ± {format(half, spec.lstrip('+'))}"


def render(res: dict) -> str:
    """The README's block: the table, the command, the papers (the machine and date stay in
    the JSON)."""
    lines = [BEGIN,
             "| A against B (DouZero's protocol) | deals | WP of A | ADP of A | A as landlord "
             "/ as farmers (WP) |",
             "|---|---|---|---|---|"]
    for r in res["matches"]:
        o = r["overall"]
        lines.append(f"| {_name(r['a'])} against {_name(r['b'])} | {r['deals']:,} | "
                     f"{_pm(o['wp'], o['wp_ci95'], '.3f')} | "
                     f"{_pm(o['adp'], o['adp_ci95'], '+.2f')} | "
                     f"{r['landlord']['wp']:.3f} / {r['farmers']['wp']:.3f} |")
    papers = " and ".join(f"[{name}]({url})" for name, url in PAPERS)
    lines += ["",
              f"± : half the 95% interval, paired by deal. Measured with `{res['command']}`; "
              f"the machine: benchmarks/strength.json and [docs/benchmarks.md]"
              f"(docs/benchmarks.md). For the scale of the learned bots, see the head-to-head "
              f"tables of the {papers} papers (the same protocol and measures).",
              END]
    return "\n".join(lines)


def _split(text: str):
    if BEGIN not in text or END not in text:
        raise SystemExit("the README has no strength-table markers")
    head, rest = text.split(BEGIN, 1)
    return head, rest.split(END, 1)[1]


def check(readme: str, res: dict) -> bool:
    head, tail = _split(readme)
    return readme == head + render(res) + tail


def write(readme_path: str, res: dict) -> None:
    with open(readme_path, encoding="utf-8") as f:
        text = f.read()
    head, tail = _split(text)
    with open(readme_path, "w", encoding="utf-8") as f:
        f.write(head + render(res) + tail)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--run", action="store_true", help="play the matches, write both")
    what.add_argument("--write", action="store_true", help="the README's table from the JSON")
    what.add_argument("--check", action="store_true", help="exit 1 if the table is not the JSON's")
    p.add_argument("--readme", default=README)
    args = p.parse_args(argv)
    if args.run:
        res = play()
        with open(JSON, "w") as f:
            json.dump(res, f, indent=1)
            f.write("\n")
    with open(JSON) as f:
        res = json.load(f)
    if args.check:
        with open(args.readme, encoding="utf-8") as f:
            ok = check(f.read(), res)
        if not ok:
            print(f"{args.readme}: the strength table is not benchmarks/strength.json's "
                  f"(run: python benchmarks/strength_table.py --write)", file=sys.stderr)
        return 0 if ok else 1
    write(args.readme, res)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(HERE))
    sys.exit(main())
