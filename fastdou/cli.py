"""The ``fastdou`` command: ``moves``, ``rules`` and ``warmup``.

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


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="fastdou", description="Dou Dizhu move generation.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
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
    return p


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except (_UsageError, FastdouError) as e:
        print(f"fastdou: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fastdou: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
