"""What a :class:`~fastdou.Game` records of its hand: the checks of a hand dealt by the
caller (``Game.from_hands``, and a record's replay through it), the history of actions, the
result (:class:`GameResult`, and the outcome ``repr`` names), the deals, and the JSON game
record (rules as changes to a preset, how the hand began, every action and every deal) that
``Game.record`` / ``Game.dumps`` write and ``Game.loads`` replays, every action checked.

``game.py`` imports this module; it imports ``fastdou.game`` for type hints only, and takes
the Game (or subclass) to build as an argument.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

import numpy as np

from fastdou import cards as _cards
from fastdou.checks import is_whole, seat as _seat, short, whole
from fastdou.errors import ArgumentError, FastdouError, InvalidCardsError, RecordError
from fastdou.kernels import state as S
from fastdou.moves import Move
from fastdou.rules import Rules

if TYPE_CHECKING:
    from fastdou.game import Game


PHASES = {S.PH_BID: "bid", S.PH_REVEAL: "reveal", S.PH_DOUBLE: "double", S.PH_PLAY: "play",
          S.PH_DONE: "done"}
SIDES = {S.SIDE_LANDLORD: "landlord", S.SIDE_FARMERS: "farmers", S.SIDE_VOID: "void"}


@dataclasses.dataclass(frozen=True)
class GameResult:
    """The outcome of a finished hand."""

    winner: str                 # "landlord", "farmers" (the landlord's opponents) or "void"
    scores: tuple               # every seat's score change
    multiplier: int
    causes: dict                # bombs, rockets, spring, anti_spring, doubles, grabs, reveals
    bid: int                    # the base score (the winning bid; 1 for calling games)
    landlord: int               # -1 for a void hand
    partner: int                # five_player's dark landlord, else -1
    plays: int                  # non-pass plays
    redeals: int
    history: tuple              # (seat, phase, action) for every action
    wild: str | None = None     # the wild rank(s) drawn (Game.wild), None without wild cards


def _is_logged_id(action) -> bool:
    """Whether a logged action was pushed by its id (``push_id`` logs ``~id``, below 0;
    ``push`` logs a Move or a phase value of 0 or more)."""
    return type(action) is int and action < 0


def _decoded(game: Game, before, action):
    """A stacked action as ``Game.push`` takes it (ids decoded by the table)."""
    if not _is_logged_id(action):
        return action
    record = game._id_record(~action, before)
    if before[S.G_PHASE] == S.PH_PLAY:
        return Move.from_record(record, int(before[S.G_WILDS]), game.rules)
    return int(record[0])


def history(game: Game) -> tuple:
    """``Game.history``: ``(seat, phase, action)`` for every logged action."""
    return tuple((int(before[S.G_PLAYER]), PHASES[int(before[S.G_PHASE])],
                  _decoded(game, before, action))
                 for before, action in zip(game._log, game._actions))


def dealt_start(hands, rules: Rules, kitty, first, landlords, marked, seed) -> tuple:
    """Check a hand dealt by the caller (``Game.from_hands``' arguments, as a record's
    ``"hands"`` start replays them): ``(seed, hands, kitty, first, (bright, dark), mark)``,
    hands and kitty as lists of 15 int counts, ``mark`` the marked card's rank or -1."""
    if not isinstance(hands, (list, tuple)):
        raise InvalidCardsError(f"hands are a list of one hand per seat, not {short(hands)}")
    if len(hands) != rules.players:
        raise InvalidCardsError(f"{len(hands)} hands for {rules.players} players")
    seed = whole("seed", seed)
    first = _seat("first", first, rules.players)
    counts = [_cards.parse(h, rules) for h in hands]
    for seat, c in enumerate(counts):
        if c.sum() != rules.hand_size:
            raise InvalidCardsError(f"seat {seat} holds {int(c.sum())} cards; "
                                    f"{rules.name} deals {rules.hand_size}")
    kit = _cards.parse(kitty if kitty is not None else np.zeros(15, np.uint8), rules)
    if kit.sum() != rules.kitty:
        raise InvalidCardsError(f"the kitty holds {int(kit.sum())} cards; {rules.name} "
                                f"has {rules.kitty}")
    total = sum(c.astype(np.int64) for c in counts) + kit
    over = np.flatnonzero(total > rules.deck)
    if over.size:
        r = int(over[0])
        raise InvalidCardsError(f"the hands and kitty hold {int(total[r])} of "
                                f"{_cards.TOKENS[r]!r}; the deck has {int(rules.deck[r])}")
    bright = dark = 0
    if rules.bidding == "marked":
        if not isinstance(landlords, (list, tuple)) or len(landlords) != 2:
            raise ArgumentError("marked-card rules need landlords=(bright, dark) seats")
        bright, dark = (_seat("landlords", s, rules.players) for s in landlords)
    elif landlords is not None or marked is not None:
        raise ArgumentError(f"landlords= and marked= are for marked-card rules; "
                            f"{rules.name} bids")
    mark = -1
    if marked is not None:
        suited = _cards.TOKENS[:S.N_SUITED_RANKS]
        if isinstance(marked, str) and len(marked) == 1 and marked.upper() in suited:
            mark = suited.index(marked.upper())
        elif not isinstance(marked, (str, bool)) and is_whole(marked) \
                and 0 <= int(marked) < len(suited):
            mark = int(marked)
        else:
            raise ArgumentError(f"marked is a non-joker rank: a token such as '7' or its "
                                f"index 0..{len(suited) - 1}, not {short(marked)}")
        holders = [s for s in {bright, dark} if counts[s][mark] == 0]
        if holders:
            raise InvalidCardsError(f"landlord seat {holders[0]} holds no {suited[mark]}, "
                                    f"the marked card")
    return (seed, [c.tolist() for c in counts], kit.tolist(), first, (bright, dark), mark)


def _rules_from_json(d) -> Rules:
    """A record's rules (:meth:`Rules.from_json`): changes to the preset it names."""
    if not isinstance(d, dict) or not isinstance(d.get("name"), str) \
            or not isinstance(d.get("profile", "standard"), str):
        raise RecordError(f"a record's rules are an object with a name, not {short(d)}")
    return Rules.from_json(d)


def _action_from_json(a, rules, wild):
    """An action of a record: ``"pass"``, an int, or ``[text, kind]`` (under the wild ranks
    ``wild`` of the game replaying it)."""
    if isinstance(a, list):
        if len(a) != 2 or not all(isinstance(x, str) for x in a):
            raise RecordError(f"a move in a record is [text, kind], not {short(a)}")
        return Move.parse(a[0], rules, kind=a[1], wild=wild)
    if isinstance(a, str) or is_whole(a):
        return a
    raise RecordError(f"an action in a record is 'pass', an int or [text, kind], "
                      f"not {short(a)}")


def _deal_of(state, rules, after: int, holder: int = -1) -> dict:
    """The deal in ``state``; ``holder``: a seat already holding the kitty, shown without it."""
    packed = [int(state[S.G_HANDS + p]) for p in range(rules.players)]
    if holder >= 0:
        packed[holder] -= int(state[S.G_KITTY])
    hands = [_cards.to_text(_cards.unpack(h)) for h in packed]
    return {"after": after, "hands": hands,
            "kitty": _cards.to_text(_cards.unpack(int(state[S.G_KITTY])))}


def result(game: Game) -> GameResult:
    """``Game.result``: the outcome read from the final state, moves in the history as text."""
    scores = game.scores
    st = game._state
    spring = int(st[S.G_SPRING])
    history = [(seat, phase, action.text() if isinstance(action, Move) else action)
               for seat, phase, action in game.history]
    return GameResult(
        winner=SIDES[int(st[S.G_WINNER])],
        scores=scores,
        multiplier=int(st[S.G_MULT]),
        causes={"bombs": int(st[S.G_BOMBS]), "rockets": int(st[S.G_ROCKETS]),
                "spring": spring == S.SPRUNG_SPRING,
                "anti_spring": spring == S.SPRUNG_ANTI,
                "doubles": int(st[S.G_DOUBLES]), "grabs": int(st[S.G_GRABS]),
                "reveals": int(st[S.G_REVEALS])},
        bid=int(st[S.G_BID]), landlord=int(st[S.G_LANDLORD]),
        partner=int(st[S.G_PARTNER]), plays=int(st[S.G_PLAYS]),
        redeals=int(st[S.G_REDEALS]), history=tuple(history), wild=game.wild)


def outcome(game: Game) -> str:
    """A finished hand's outcome in words, for ``repr(game)``."""
    winner = SIDES[int(game._state[S.G_WINNER])]
    partner = int(game._state[S.G_PARTNER])
    if winner == "landlord" and partner not in (-1, game.landlord):
        return f"landlord side (seats {game.landlord} and {partner}) wins"
    if winner == "landlord":
        return f"landlord (seat {game.landlord}) wins"
    return "farmers win" if winner == "farmers" else "void, no winner"


def deals(game: Game) -> list:
    """``Game.deals``: every deal of the hand, read from the states logged before each
    action."""
    states = list(game._log[:len(game._actions)]) + [game._state]
    taken = game._start.get("landlord", -1) if game.rules.landlord_gets_kitty else -1
    out = [_deal_of(states[0], game.rules, -1, taken)]
    for k in range(len(game._actions)):
        if states[k + 1][S.G_REDEALS] > states[k][S.G_REDEALS] and \
                states[k + 1][S.G_PHASE] != S.PH_DONE:
            out.append(_deal_of(states[k + 1], game.rules, k))
    return out


def record(game: Game) -> dict:
    """``Game.record``: rules, how the hand began, every action, and every deal."""
    actions = []
    for _, _, action in game.history:
        if isinstance(action, Move):
            actions.append("pass" if action.is_pass else
                           [action.text(), action.kind.name.lower()])
        elif isinstance(action, str):
            actions.append(action)
        else:
            actions.append(int(action))
    out = {"rules": game.rules.to_json(changes=True), "start": game._start, "actions": actions,
           "deals": game.deals}
    if game.rules.wilds:
        out["wild"] = game.wild
    return out


def dumps(game: Game) -> str:
    """``Game.dumps``: the record as JSON."""
    return json.dumps(game.record())


def loads(cls: type[Game], text: str) -> Game:
    """``Game.loads``: replay a JSON record with ``cls``'s constructors (the caller's class,
    a subclass included; this module does not import ``fastdou.game``)."""
    if not isinstance(text, (str, bytes)):
        raise RecordError(f"a game record is JSON text, not {short(text)}")
    try:
        rec = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"not a fastdou game record: {short(str(e))}") from None
    if not isinstance(rec, dict) or not {"rules", "start", "actions"} <= rec.keys():
        raise RecordError("a game record is an object with rules, start and actions")
    rules, start, actions = _rules_from_json(rec["rules"]), rec["start"], rec["actions"]
    if not isinstance(start, dict) or not isinstance(actions, list):
        raise RecordError("a record's start is an object and its actions a list")
    try:
        if "position" in start:
            from fastdou.position import Position
            if not isinstance(start["position"], str):
                raise RecordError(f"a record's position is its text, not "
                                  f"{short(start['position'])}")
            game = cls.from_position(Position.parse(start["position"], rules=rules))
        elif "hands" in start:
            game = cls.from_hands(start["hands"], rules, kitty=start.get("kitty"),
                                  first=start.get("first", 0), seed=start.get("seed", 0),
                                  landlords=start.get("landlords"),
                                  marked=start.get("marked"),
                                  start=start.get("start", "bidding"),
                                  landlord=start.get("landlord"))
        else:
            game = cls.new(rules, seed=start.get("seed"), deal=start.get("deal"),
                           start=start.get("start", "bidding"),
                           landlord=start.get("landlord"))
    except FastdouError as e:
        raise RecordError(f"the record's start: {e}") from None
    for k, a in enumerate(actions):
        try:
            game.play(_action_from_json(a, rules, game.wild))
        except FastdouError as e:
            raise type(e)(f"action {k} of the record: {e}") from None
    if "deals" in rec and rec["deals"] != game.deals:
        raise RecordError("the record's deals are not those its replay deals")
    if "wild" in rec and rec["wild"] != game.wild:
        raise RecordError(f"the record's wild rank(s) {short(rec['wild'])} are not those its "
                          f"replay draws ({game.wild})")
    return game
