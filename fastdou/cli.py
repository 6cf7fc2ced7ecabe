"""The ``fastdou`` command: ``simulate``, ``moves``, ``rules``, ``warmup``, ``solve`` and
``perft``.

Bad arguments print one line, ``fastdou: error: ...``, and exit with status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time

from fastdou.errors import FastdouError


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _rules(args):
    from fastdou.rules import rules
    return rules(args.rules, profile=args.profile)


def _cmd_moves(args) -> int:
    from fastdou import cards
    from fastdou.generation import as_move, legal_moves
    r = _rules(args)
    moves = legal_moves(args.hand, last=args.last, rules=r)
    if args.json:
        print(json.dumps({"hand": cards.to_text(cards.parse(args.hand, r)),
                          "last": as_move(args.last, r).text(), "rules": r.name,
                          "moves": [{"text": m.text(), "kind": m.kind.name.lower(),
                                     "rank": m.rank, "length": m.length} for m in moves]}))
        return 0
    width = max((len(m.text()) for m in moves), default=0)
    for m in moves:
        print(f"{m.text():<{width}}  {m.kind.name.lower()}")
    print(f"{len(moves)} moves" + ("" if args.last is None else f" beating {args.last}")
          + ("" if args.last is None else ", or pass"))
    return 0


def _field_text(value):
    if isinstance(value, frozenset):
        return " ".join(sorted(k.name.lower() for k in value))
    return str(value)


def _cmd_rules(args) -> int:
    from fastdou.rules import PRESETS, rules
    if args.name is None:
        if args.profile is not None:
            raise _UsageError("--profile needs a preset name: fastdou rules classic --profile ...")
        for name in PRESETS:
            r = rules(name)
            print(f"{name:<14} {r.players} players, {r.decks} deck(s), "
                  f"{r.hand_size} cards each, kitty {r.kitty}")
        return 0
    r = rules(args.name, profile=args.profile)
    fields = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}
    if args.json:
        print(json.dumps({k: sorted(k2.name.lower() for k2 in v) if isinstance(v, frozenset)
                          else v for k, v in fields.items()}))
        return 0
    for k, v in fields.items():
        print(f"{k:<16} {_field_text(v)}")
    return 0


def _cmd_warmup(args) -> int:
    from fastdou.warmup import warmup
    start = time.perf_counter()
    warmup()
    print(f"kernels compiled and cached in {time.perf_counter() - start:.1f} s")
    return 0


def _count(text: str) -> int:
    """``1M``, ``200k``, ``1e6``, ``5000`` -> a positive int."""
    t = text.strip().lower().replace("_", "").replace(",", "")
    scale = {"k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9}.get(t[-1:], 1)
    try:
        value = float(t[:-1] if scale > 1 else t) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of deals: {text!r}") from None
    if value != int(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"deals must be a positive whole number: {text!r}")
    return int(value)


def _out_writer(path):
    """A chunk writer for ``--out`` (.jsonl streams; .npz collects) and its finish step.
    Both write to a temporary file renamed over ``path`` only when complete."""
    import os
    import tempfile

    import numpy as np
    if not path.endswith((".npz", ".jsonl")):
        raise _UsageError(f"--out must end in .npz or .jsonl, not {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise _UsageError(f"--out folder does not exist: {folder}")
    fd, tmp = tempfile.mkstemp(prefix=".fastdou-", suffix=os.path.splitext(path)[1],
                               dir=folder)
    os.close(fd)
    chunks = []
    stream = open(tmp, "w") if path.endswith(".jsonl") else None

    def write(arrays):
        if stream is None:
            chunks.append(arrays)
            return
        names = list(arrays)
        columns = [arrays[k].tolist() for k in names]
        for row in zip(*columns):
            stream.write(json.dumps(dict(zip(names, row))) + "\n")

    def finish(ok):
        if stream is not None:
            stream.close()
        if ok and stream is None:
            with open(tmp, "wb") as f:
                np.savez(f, **{k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]})
        if ok:
            os.replace(tmp, path)
        elif os.path.exists(tmp):
            os.remove(tmp)

    return write, finish


def _cmd_simulate(args) -> int:
    from tqdm import tqdm

    from fastdou.simulation import simulate
    r = _rules(args)
    policies = args.policy.split(",")
    if len(policies) == 1:
        policies = policies[0]
    write, finish = _out_writer(args.out) if args.out else (None, None)
    bar = tqdm(total=args.deals, unit="deal", unit_scale=True, file=sys.stderr,
               disable=None, leave=False)
    ok = False
    try:
        result = simulate(args.deals, r, policies=policies, seed=args.seed,
                          threads=args.threads, progress=lambda done: bar.update(done - bar.n),
                          on_chunk=write)
        ok = True
    finally:
        bar.close()
        if finish is not None:
            finish(ok)
    if args.json:
        print(json.dumps({"rules": r.name, "profile": r.profile, "seed": args.seed,
                          "policies": args.policy,
                          "summary": dataclasses.asdict(result.summary)}))
    else:
        print(f"{r.name} ({r.profile}), policies {args.policy}, seed {args.seed}")
        print(result.summary.text())
        if args.out:
            print(f"per-deal results written to {args.out}")
    return 0


def _position(args):
    from fastdou.position import Position
    return Position(args.hands, _rules(args), landlord=args.landlord, partner=args.partner,
                    to_move=args.to_move, last=args.last, last_player=args.last_player)


def _line_text(pos, moves):
    seat, out = pos.to_move, []
    for m in moves:
        out.append(f"{seat}:{m.text()}")
        seat = (seat + 1) % pos.seats
    return " ".join(out)


def _cmd_solve(args) -> int:
    from fastdou.solver import solve
    pos = _position(args)
    sol = solve(pos, time_limit=args.time_limit, max_nodes=args.max_nodes,
                threads=args.threads)
    if args.json:
        moves = None if sol.winning_moves is None else [m.text() for m in sol.winning_moves]
        line = None if sol.line is None else [m.text() for m in sol.line]
        print(json.dumps({"position": str(pos), "landlord_wins": sol.landlord_wins,
                          "winning_moves": moves, "line": line, "nodes": sol.nodes,
                          "seconds": sol.seconds}))
        return 0
    mover = pos.to_move
    side = pos.side(mover)
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
        print(f"seat {mover} has no winning move")
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
    parser.add_argument("hands", nargs="+", help="one hand per seat, e.g. 3455KK 345522")
    parser.add_argument("--landlord", type=int, default=0, help="the landlord's seat (0)")
    parser.add_argument("--partner", type=int, default=None,
                        help="a seat on the landlord's side (five_player's dark landlord)")
    parser.add_argument("--to-move", type=int, default=None,
                        help="the seat to act (default: the landlord)")
    parser.add_argument("--last", default=None, help="the play to beat, e.g. 333+4")
    parser.add_argument("--last-player", type=int, default=None, help="who played --last")
    parser.add_argument("--rules", default="classic", help="preset name (default classic)")
    parser.add_argument("--profile", default=None, help="kicker profile of classic rules")


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


def _add_solver_parsers(sub):
    v = sub.add_parser("solve", help="solve an open-hand position exactly")
    _add_position_args(v)
    v.add_argument("--time-limit", type=_positive_float, default=None, help="seconds")
    v.add_argument("--max-nodes", type=int, default=None)
    v.add_argument("--threads", type=int, default=1)
    v.add_argument("--json", action="store_true", help="print JSON")
    v.set_defaults(run=_cmd_solve)
    f = sub.add_parser("perft", help="count the action sequences of a given length")
    _add_position_args(f)
    f.add_argument("--depth", type=int, required=True)
    f.add_argument("--divide", action="store_true", help="the count per first action")
    f.set_defaults(run=_cmd_perft)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="fastdou", description="Dou Dizhu move generation and simulation.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    s = sub.add_parser("simulate", help="play many deals and summarise them")
    s.add_argument("--deals", type=_count, default=100_000, help="number of deals (1M, 200k)")
    s.add_argument("--rules", default="classic", help="preset name (default classic)")
    s.add_argument("--profile", default=None, help="kicker profile of classic rules")
    s.add_argument("--policy", default="random",
                   help="random or greedy, or one per seat separated by commas")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--threads", type=int, default=None)
    s.add_argument("--out", default=None, help="per-deal results: a .npz or .jsonl file")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.set_defaults(run=_cmd_simulate)
    m = sub.add_parser("moves", help="list the legal moves of a hand")
    m.add_argument("hand", help="cards, e.g. 33344455BR")
    m.add_argument("--last", default=None, help="the move to beat, e.g. 3334 or 333444+55")
    m.add_argument("--rules", default="classic", help="preset name (default classic)")
    m.add_argument("--profile", default=None, help="kicker profile: standard, openspiel, douzero")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(run=_cmd_moves)
    r = sub.add_parser("rules", help="list presets, or show one preset's fields")
    r.add_argument("name", nargs="?", default=None)
    r.add_argument("--profile", default=None)
    r.add_argument("--json", action="store_true")
    r.set_defaults(run=_cmd_rules)
    w = sub.add_parser("warmup", help="compile and cache every kernel")
    w.set_defaults(run=_cmd_warmup)
    _add_solver_parsers(sub)
    return p


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except (_UsageError, FastdouError, ValueError) as e:
        print(f"fastdou: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fastdou: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
