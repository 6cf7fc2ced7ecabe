"""The ``fastdou`` command: ``simulate``, ``compare``, ``evaluate``, ``plot``, ``moves``,
``rules``, ``warmup``, ``solve`` and ``perft``.

Bad arguments print one line, ``fastdou: error: ...``, and exit with status 2; a bare
``fastdou`` prints the help on stderr and exits with status 2. Every option's help shows
its default.
"""

from __future__ import annotations

import argparse
import dataclasses
import decimal
import json
import os
import re
import signal
import sys
import time

from fastdou import interrupts


class _HelpFormatter(argparse.HelpFormatter):
    """Help that ends with the option's default, unless the help names it already or there
    is none to show (a flag, a required argument, an unset default)."""

    def _get_help_string(self, action):
        text = action.help or ""
        unset = any(action.default is v for v in (None, False, argparse.SUPPRESS)) \
            or action.default == []
        if "default" in text or unset or action.required or action.nargs == 0:
            return text
        return text + " (default: %(default)s)"


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _finishing() -> None:
    """Ignore SIGINT and SIGTERM from here on (until :func:`main` returns): the run's file
    is complete, and only its summary is left to print."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _rules(args):
    from fastdou.overrides import house_rules
    return house_rules(args.rules, profile=args.profile, sets=getattr(args, "set", None))


def _cmd_moves(args) -> int:
    from fastdou import cards
    from fastdou.generation import as_move, legal_moves
    from fastdou.moves import mask_text, wild_mask, wild_text
    r = _rules(args)
    mask = wild_mask(args.wild, r)
    hand = wild_text(args.hand, mask)       # W: a card of the wild rank
    last = as_move(args.last, r, mask)
    leading = last.is_pass                  # no --last, or --last pass: the hand leads
    moves = legal_moves(hand, last=last, rules=r, wild=args.wild)
    if args.json:
        wild = {} if not r.wilds else {"wild": mask_text(mask)}
        print(json.dumps({"hand": cards.to_text(cards.parse(hand, r)),
                          "last": None if leading else last.text(), "rules": r.name,
                          "profile": r.profile, **wild,
                          "moves": [{"text": m.text(), "kind": m.kind.name.lower(),
                                     "rank": m.rank, "length": m.length,
                                     **({"bomb_class": m.bomb_class} if r.wilds else {})}
                                    for m in moves]}))
        return 0
    width = max((len(m.text()) for m in moves), default=0)
    for m in moves:
        soft = f" ({m.bomb_class})" if r.wilds and m.is_bomb else ""
        print(f"{m.text():<{width}}  {m.kind.name.lower()}{soft}")
    print(f"{len(moves)} move{'' if len(moves) == 1 else 's'}"
          + ("" if leading else f" beating {args.last}, or pass"))
    return 0


def _field_text(value):
    if isinstance(value, frozenset):
        return " ".join(sorted(k.name.lower() for k in value))
    return str(value)


def _cmd_rules(args) -> int:
    from fastdou.rules import PRESETS, rules
    if args.name is None:
        if args.profile is not None or args.set:
            raise _UsageError("--profile and --set need a preset name: fastdou rules classic "
                              "--set ...")
        if args.json:
            print(json.dumps({name: rules(name).to_json() for name in PRESETS}))
            return 0
        for name in PRESETS:
            r = rules(name)
            print(f"{name:<14} {r.players} players, {r.decks} deck(s), "
                  f"{r.hand_size} cards each, kitty {r.kitty}")
        return 0
    from fastdou.overrides import house_rules
    r = house_rules(args.name, profile=args.profile, sets=args.set)
    if args.json:
        print(json.dumps(r.to_json()))
        return 0
    fields = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}
    width = max(len(k) for k in fields)
    for k, v in fields.items():
        print(f"{k:<{width}}  {_field_text(v)}")
    return 0


def _cmd_warmup(args) -> int:
    from fastdou.compiling.warmup import warmup
    start = time.perf_counter()
    warmup()
    print(f"kernels compiled and cached in {time.perf_counter() - start:.1f} s")
    return 0


_COUNT = re.compile(r"^(\d+(\.\d*)?|\.\d+)(e[+-]?\d{1,3})?([kmg])?$")


def _count(text: str) -> int:
    """``1M``, ``200k``, ``1e6``, ``5000`` -> a whole number of deals 1..MAX_DEALS."""
    from fastdou.checks import short
    from fastdou.sim.simulation import MAX_DEALS
    t = text.strip().lower().replace("_", "").replace(",", "")
    match = _COUNT.match(t) if len(t) <= 40 else None
    if match is None:
        raise argparse.ArgumentTypeError(f"not a number of deals: {short(text)}")
    number = t[:-1] if match.group(4) else t
    value = decimal.Decimal(number) * {"k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9, None: 1}[
        match.group(4)]
    if value != value.to_integral_value() or not 1 <= value <= MAX_DEALS:
        raise argparse.ArgumentTypeError(f"deals must be a whole number 1..{MAX_DEALS:.0e}, "
                                         f"not {short(text)}")
    return int(value)


def _policies(text: str):
    """``random`` or one policy per seat: ``greedy, random, random``."""
    from fastdou.checks import short
    names = [p.strip() for p in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"empty policy name in {short(text)}")
    return names[0] if len(names) == 1 else names


def _bar(total, unit="deal"):
    from tqdm import tqdm
    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, disable=None,
                leave=False)


def _cmd_simulate(args) -> int:
    from fastdou.policies import policy_names
    from fastdou.sim.simulation import simulate
    r = _rules(args)
    if args.workers is not None or args.scheduler is not None:
        return _simulate_on_dask(args, r)
    if args.chunk is not None:
        raise _UsageError("--chunk is for Dask runs (--scheduler or --workers)")
    from fastdou.compiling.first_compile import compiled
    from fastdou.sim.results import ResultWriter, metadata
    names = policy_names(args.policy, r.players) if isinstance(args.policy, str) \
        or len(args.policy) == r.players else ()
    writer = ResultWriter(args.out, r, metadata(r, args.seed, names, 0, args.deals)) \
        if args.out is not None else None
    try:                                 # a signal ending the process removes the writer's file
        compiled(r, args.policy)
        bar = _bar(args.deals)
        try:
            result = simulate(args.deals, r, policies=args.policy, seed=args.seed,
                              threads=args.threads,
                              progress=lambda done: bar.update(done - bar.n),
                              on_chunk=writer.write if writer else None)
        finally:
            bar.close()
        if writer:
            writer.close()
            _finishing()                 # the file is complete: no signal says otherwise
    finally:
        if writer:
            writer.discard()             # a no-op once closed: never a partial file
    _print_summary(args, r, result.summary, result.policies)
    return 0


def _house_rules(r) -> dict:
    """The fields of ``r`` that differ from its preset and profile, as JSON values."""
    from fastdou.rules import rules
    base, now = rules(r.name, profile=r.profile).to_json(), r.to_json()
    return {k: v for k, v in now.items() if v != base[k]}


def _set_text(value) -> str:
    """A house rule's value as ``--set`` takes it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _print_summary(args, r, summary, policies) -> None:
    text = ",".join(policies)
    for w in summary.warnings:
        print(f"fastdou: warning: {w}", file=sys.stderr)
    if args.json:
        print(json.dumps({"rules": r.name, "profile": r.profile, "seed": args.seed,
                          "policies": text, "rules_fields": r.to_json(),
                          "summary": summary.to_dict()}))
    else:
        house = _house_rules(r)
        print(f"{r.name} ({r.profile}), policies {text}, seed {args.seed}"
              + ("" if not house else ", house rules "
                 + " ".join(f"{k}={_set_text(v)}" for k, v in house.items())))
        print(summary.text())
        if args.out is not None:
            print(f"per-deal results written to {args.out}")


def _simulate_on_dask(args, r) -> int:
    from fastdou.sim.distributed import cluster_client, remove_leftovers, simulate_on_dask
    if args.out is None:
        raise _UsageError("--scheduler / --workers need --out DATASET_FOLDER: the workers "
                          "write the per-deal results there")
    def leftovers():                      # files of local workers stopped mid-chunk
        if args.workers is not None and os.path.isdir(args.out):
            remove_leftovers(args.out)

    def stopped():                        # a signal: no local worker may start another file
        if args.workers is not None:
            import multiprocessing
            children = multiprocessing.active_children()
            for child in children:
                child.kill()
            for child in children:
                child.join(5.0)
        leftovers()
    try:
        with interrupts.on_hard_exit(stopped), \
                cluster_client(args.scheduler, args.workers) as client:
            bar = _bar(args.deals)
            try:
                result = simulate_on_dask(client, args.deals, r, args.policy, args.seed,
                                          out=args.out, chunk=args.chunk,
                                          threads=args.threads,
                                          progress=lambda done: bar.update(done - bar.n))
            finally:
                bar.close()
    finally:
        leftovers()
    _print_summary(args, r, result.summary, result.policies)
    return 0


def _cmd_compare(args) -> int:
    from fastdou.sim.compare import compare
    r = _rules(args)
    bar = _bar(args.deals * len(args.policies), unit="game")
    try:
        result = compare(args.policies, args.deals, r, seed=args.seed, threads=args.threads,
                         progress=lambda done: bar.update(done - bar.n))
    finally:
        bar.close()
    print(json.dumps(result.to_dict()) if args.json else result.text())
    return 0


# ``fastdou evaluate rlcard:NAME`` / ``douzero:NAME``: the agents those packages ship
_AGENT_MODULES = {"rlcard": ("rlcard.models.doudizhu_rule_models",),
                  "douzero": ("douzero.evaluation.random_agent",
                              "douzero.evaluation.rlcard_agent")}


def _evaluate_side(spec: str):
    """A side of ``fastdou evaluate``: a policy name or ``module:function`` as given, or a
    Python agent class (``module:Class``, or ``rlcard:NAME`` / ``douzero:NAME`` for the
    agents those packages ship) made with no arguments."""
    from fastdou.errors import PolicyError
    from fastdou.policies import import_policy
    module, colon, name = spec.partition(":")
    if not colon:
        return spec
    if module.strip() in _AGENT_MODULES and "." not in name:
        places = _AGENT_MODULES[module.strip()]
        for place in places:
            try:
                found = import_policy(f"{place}:{name.strip()}")
                break
            except PolicyError as e:
                why = e
        else:
            raise PolicyError(f"no agent {name.strip()!r} in {', '.join(places)}: {why}")
    else:
        found = import_policy(spec)
    if not isinstance(found, type):
        return spec                       # a policy function: evaluate imports it itself
    try:
        return found()
    except Exception as e:
        raise PolicyError(f"cannot make agent {spec} with no arguments: "
                          f"{type(e).__name__}: {e}") from None


def _cmd_evaluate(args) -> int:
    from fastdou.sim.evaluation import evaluate
    a, b = _evaluate_side(args.a), _evaluate_side(args.b)
    bar = _bar(args.deals)
    try:
        result = evaluate(a, b, args.deals, _rules(args), seed=args.seed,
                          bidding=args.bidding, threads=args.threads, out=args.out,
                          progress=lambda done: bar.update(done - bar.n))
    finally:
        bar.close()
    print(json.dumps(result.as_dict()) if args.json else result.text())
    return 0


def _cmd_plot(args) -> int:
    from fastdou.sim.plots import plot_files
    plot_files(args.files, args.output, labels=args.labels)
    print(f"report written to {args.output}")
    return 0


_PROFILE_HELP = "kicker profile: standard, openspiel or douzero (default: standard)"
_THREADS_HELP = "threads playing deals (default: Numba's setting, normally one per core)"


def _add_rules_options(p):
    p.add_argument("--rules", default="classic", help="preset name; fastdou rules lists them")
    p.add_argument("--profile", default=None, help=_PROFILE_HELP)
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="house rule: any Rules field, e.g. bomb_min=5, doubling=farmers, "
                        "bomb_factors=1,1,1,1,2,2,2,2,2 (repeatable; default: the preset's "
                        "own rules)")


def _position(args):
    from fastdou.position import Position
    return Position(args.hands, _rules(args), landlord=args.landlord, partner=args.partner,
                    to_move=args.to_move, last=args.last, last_player=args.last_player,
                    wild=args.wild)


def _line_text(pos, moves):
    seat, out = pos.to_move, []
    for m in moves:
        out.append(f"{seat}:{m.text()}")
        seat = (seat + 1) % pos.seats
    return " ".join(out)


def _solve_note(mover, side, mover_wins) -> str:
    """What the verdict means for the seat to move, and what ``winning_moves`` holds."""
    if mover_wins is None:
        return "a limit stopped the search: no verdict (winning_moves and line are null)"
    if mover_wins:
        return (f"seat {mover} ({side}) wins: winning_moves lists every first action of "
                f"seat {mover} that keeps its side winning")
    return (f"seat {mover} ({side}) loses whatever it plays: winning_moves lists seat "
            f"{mover}'s winning first actions, so it is empty")


def _cmd_solve(args) -> int:
    from fastdou.solver import solve
    pos = _position(args)
    sol = solve(pos, time_limit=args.time_limit, max_nodes=args.max_nodes,
                threads=args.threads)
    mover = pos.to_move
    side = pos.side(mover)
    mover_wins = None if sol.landlord_wins is None else sol.landlord_wins == (
        side == "landlord")
    if args.json:
        moves = None if sol.winning_moves is None else [m.text() for m in sol.winning_moves]
        line = None if sol.line is None else [m.text() for m in sol.line]
        print(json.dumps({"position": str(pos), "landlord_wins": sol.landlord_wins,
                          "to_move": mover, "side_to_move": side,
                          "side_to_move_wins": mover_wins,
                          "winning_moves": moves, "line": line,
                          "note": _solve_note(mover, side, mover_wins), "nodes": sol.nodes,
                          "seconds": sol.seconds}))
        return 0
    print(f"position {pos}")
    if sol.landlord_wins is None:
        print(f"no verdict: a limit stopped the search after {sol.nodes:,} nodes "
              f"({sol.seconds:.2f} s)")
        return 0
    winner = "the landlord side wins" if sol.landlord_wins else "the farmers win"
    print(f"{winner}; seat {mover} ({side}) to "
          f"{'lead' if pos.is_leading() else 'answer ' + pos.last.text()}")
    if sol.winning_moves:
        print("winning moves: " + ", ".join(m.text() for m in sol.winning_moves))
    else:
        print(f"seat {mover} ({side}) has no winning move: it loses whatever it plays")
    if sol.line is not None:
        print("line (seat:move): " + _line_text(pos, sol.line))
    print(f"{sol.nodes:,} nodes in {sol.seconds:.3f} s")
    return 0


def _cmd_perft(args) -> int:
    from fastdou.solver import perft, perft_divide
    pos = _position(args)
    if args.divide:
        counts = perft_divide(pos, args.depth)
        width = max((len(m.text()) for m in counts), default=0)
        for m, c in counts.items():
            print(f"{m.text():<{width}}  {c}")
        print(f"total {sum(counts.values())}")
        return 0
    print(perft(pos, args.depth))
    return 0


def _add_position_args(parser):
    parser.add_argument("hands", nargs="+",
                        help="one hand per seat, seat 0 first, e.g. 3455KK 345522")
    parser.add_argument("--landlord", type=int, default=0, metavar="SEAT",
                        help="the landlord's seat")
    parser.add_argument("--partner", type=int, default=None, metavar="SEAT",
                        help="a seat on the landlord's side (five_player's dark landlord; "
                             "default: none)")
    parser.add_argument("--to-move", type=int, default=None, metavar="SEAT",
                        help="the seat to act (default: the landlord)")
    parser.add_argument("--last", default=None, metavar="MOVE",
                        help="the play to beat, e.g. 333+4 (default: none, the seat to act "
                             "leads)")
    parser.add_argument("--last-player", type=int, default=None, metavar="SEAT",
                        help="the seat that played --last (default: none; needed with "
                             "--last)")
    parser.add_argument("--rules", default="classic",
                        help="preset name; fastdou rules lists them")
    parser.add_argument("--profile", default=None, help=_PROFILE_HELP)
    parser.add_argument("--wild", default=None, metavar="RANKS",
                        help="the wild rank(s) under rules with wild cards, e.g. 7 "
                             "(default: none)")


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


def _add_solver_parsers(sub):
    text = "solve an open-hand position exactly"
    v = _add_command(sub, "solve", text, text + ": which side wins, the winning first moves "
                     "of the seat to act, and a line of play")
    _add_position_args(v)
    v.add_argument("--time-limit", type=_positive_float, default=None, metavar="SECONDS",
                   help="stop the search after this many seconds, with no verdict "
                        "(default: no limit)")
    v.add_argument("--max-nodes", type=int, default=None, metavar="N",
                   help="stop the search after N positions, with no verdict (default: no "
                        "limit)")
    v.add_argument("--threads", type=int, default=1, metavar="N",
                   help="threads, each searching some of the first actions")
    v.add_argument("--json", action="store_true", help="print JSON")
    v.set_defaults(run=_cmd_solve)
    text = "count the action sequences of a given length"
    f = _add_command(sub, "perft", text, text + " from an open-hand position")
    _add_position_args(f)
    f.add_argument("--depth", type=int, required=True, metavar="N",
                   help="the number of actions (plays and passes) in each sequence")
    f.add_argument("--divide", action="store_true", help="print the count per first action")
    f.set_defaults(run=_cmd_perft)


def _add_command(sub, name, text, description=None):
    """A subcommand parser: ``text`` in the command list, and atop its own help."""
    return sub.add_parser(name, help=text, description=description or text)


def build_parser() -> argparse.ArgumentParser:
    from fastdou import __version__
    p = _Parser(prog="fastdou", description="Dou Dizhu move generation and simulation.")
    p.add_argument("--version", action="version", version=f"fastdou {__version__}")
    sub = p.add_subparsers(dest="command", title="commands", metavar="COMMAND",
                           parser_class=_Parser,
                           help="fastdou COMMAND --help describes its options")
    s = _add_command(sub, "simulate", "play many deals and summarise them")
    s.add_argument("--deals", type=_count, default=100_000,
                   help="number of deals: 5000, 200k, 1M, 1e6")
    _add_rules_options(s)
    s.add_argument("--policy", type=_policies, default="random",
                   help="random, greedy, expert, pimc or module:function, or one per seat "
                        "separated by commas")
    s.add_argument("--seed", type=int, default=0, metavar="N",
                   help="the run's seed: each deal is a function of (seed, deal index)")
    s.add_argument("--threads", type=int, default=None, metavar="N", help=_THREADS_HELP)
    s.add_argument("--out", default=None, metavar="FILE",
                   help="per-deal results: a .parquet, .csv, .jsonl or .npz file (with "
                        "--scheduler/--workers: a parquet dataset folder; default: none, "
                        "the summary only)")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on the Dask cluster at ADDRESS, e.g. tcp://host:8786 "
                        "(default: none, run here)")
    s.add_argument("--workers", type=int, default=None, metavar="N",
                   help="run on a local Dask cluster of N worker processes (default: none, "
                        "run here)")
    s.add_argument("--chunk", type=_count, default=None, metavar="DEALS",
                   help="deals per Dask task (default: 1M)")
    s.set_defaults(run=_cmd_simulate)
    c = _add_command(sub, "compare", "compare policies on the same deals, rotated through "
                                     "every seat")
    c.add_argument("--policies", nargs="+", required=True,
                   help="two or more policies: random, greedy, expert, pimc, module:function")
    c.add_argument("--deals", type=_count, default=100_000,
                   help="deals per rotation: 5000, 200k, 1M, 1e6")
    _add_rules_options(c)
    c.add_argument("--seed", type=int, default=0, metavar="N",
                   help="the run's seed: each deal is a function of (seed, deal index)")
    c.add_argument("--threads", type=int, default=None, metavar="N", help=_THREADS_HELP)
    c.add_argument("--json", action="store_true", help="print JSON")
    c.set_defaults(run=_cmd_compare)
    e = _add_command(sub, "evaluate", "policy A against policy B, DouZero's way: WP and ADP")
    e.add_argument("a", metavar="A", help="random, greedy, expert, pimc, module:function, or a "
                                         "Python agent class: module:Class, "
                                         "rlcard:DouDizhuRuleAgentV1, douzero:RandomAgent")
    e.add_argument("b", metavar="B", help="the opponent, as A")
    e.add_argument("--deals", type=_count, default=10_000, help="deals: 5000, 200k, 1M")
    _add_rules_options(e)
    e.add_argument("--seed", type=int, default=0, metavar="N", help="the run's seed")
    e.add_argument("--bidding", action="store_true",
                   help="whole games with bidding, A in each seat in turn (default: "
                        "DouZero's protocol, landlord fixed, each deal with A as landlord, "
                        "then as farmers)")
    e.add_argument("--threads", type=int, default=None, metavar="N", help=_THREADS_HELP)
    e.add_argument("--json", action="store_true", help="print JSON")
    e.add_argument("--out", default=None, metavar="FILE.json",
                   help="also write the JSON to this file (default: none)")
    e.set_defaults(run=_cmd_evaluate)
    pl = _add_command(sub, "plot", "a report figure of one or more results files")
    pl.add_argument("files", nargs="+", help="results files (.parquet, .csv, .jsonl, .npz) "
                                            "or dataset folders")
    pl.add_argument("-o", "--output", required=True, help="the figure: .png, .svg or .pdf")
    pl.add_argument("--labels", nargs="+", default=None,
                    help="one label per file (default: each file's rules and policies)")
    pl.set_defaults(run=_cmd_plot)
    m = _add_command(sub, "moves", "list the legal moves of a hand")
    m.add_argument("hand", help="cards, e.g. 33344455BR")
    m.add_argument("--last", default=None, metavar="MOVE",
                   help="the move to beat, e.g. 3334 or 333444+55 (default: none, list the "
                        "leads)")
    m.add_argument("--wild", default=None, metavar="RANKS",
                   help="the wild rank(s) under rules with wild cards (--set wilds=1 or 2), "
                        "e.g. 7 or 79; a move's wild cards stand for what its parentheses "
                        "say, e.g. 5557(5) (default: none)")
    _add_rules_options(m)
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(run=_cmd_moves)
    r = _add_command(sub, "rules", "list presets, or show one preset's fields")
    r.add_argument("name", nargs="?", default=None,
                   help="a preset whose fields to show (default: list every preset)")
    r.add_argument("--profile", default=None, help=_PROFILE_HELP)
    r.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="show the preset with house rules applied (repeatable; default: "
                        "none)")
    r.add_argument("--json", action="store_true", help="print JSON")
    r.set_defaults(run=_cmd_rules)
    w = _add_command(sub, "warmup", "compile and cache every kernel")
    w.set_defaults(run=_cmd_warmup)
    _add_solver_parsers(sub)
    return p


def main(argv=None) -> int:
    """Run the command line; returns the exit status (2 for bad input or no command, 0
    after ``--help`` or ``--version``). SIGINT / SIGTERM end the process with status
    130 / 143 (:mod:`fastdou.interrupts`)."""
    with interrupts.stopping():
        return _run(argv)


def _run(argv) -> int:
    from fastdou.errors import FastdouError
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:            # --help, --version: a status returned, not raised
            return e.code if isinstance(e.code, int) else 0
        if args.command is None:           # a bare ``fastdou``: the help, as a usage error
            parser.print_help(sys.stderr)
            return 2
        return args.run(args)
    except (_UsageError, FastdouError) as e:
        print(f"fastdou: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        if isinstance(e, BrokenPipeError):       # output piped to a reader that closed
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
        print(f"fastdou: error: {e.strerror or e}"
              + (f": {e.filename}" if e.filename else ""), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
