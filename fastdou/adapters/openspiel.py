"""OpenSpiel games over fastdou: ``import fastdou.adapters.openspiel`` registers, for every
preset, ``pyspiel.load_game("python_fastdou_<preset>")`` (``python_fastdou_classic``,
``python_fastdou_two_player``, ...) and ``python_fastdou_classic_openspiel`` (the classic
``openspiel`` profile, whose player action ids are OpenSpiel's own ``dou_dizhu`` ids).

A state wraps a :class:`fastdou.Game`; player actions are the ids of the preset's
:func:`fastdou.action_table` (``num_distinct_actions = table.size``).

Chance (explicit, exact). Each deal is a run of chance nodes: one card at a time, the
outcome is the card's rank (id ``0..14``) with probability ``copies left / cards left``,
filling seat 0's hand, then seat 1's, ..., then the kitty; cards the preset sets aside are
never dealt. Then one more node names who opens: the first bidder, uniform over seats (id =
seat); or, with marked-card rules (five_player), two nodes: the marked card, id
``seat * 15 + rank``, uniform over the non-joker cards in hands (its holder is the bright
landlord), and where its twin lies, id = the seat holding it, or ``players`` for the kitty
(the bright landlord is then a lone landlord; fastdou's dealer deals no cards aside here). That is the distribution fastdou's own dealer
draws from. When nobody takes the landlord the hand is redealt (fastdou's rule) and the
state returns to chance for a fresh deal; after ``max_redeals`` deals (or the engine's cap
when the preset sets none) the hand is void and every return is 0.

Returns are ``Game.result().scores`` at the end, 0 before (``RewardModel.TERMINAL``); every
preset's scoring is zero-sum. ``min_utility`` / ``max_utility`` are ``-/+ (players - 1) x
stake``, a true bound: no seat wins or pays more than ``players - 1`` stakes (landlord
scoring: the landlord ``players - 1``, a farmer 1; team scoring: a winner 1, a loser
``winners / losers`` <= ``players - 1``), and the stake is at most the highest base (the top
bid, or jinling's card points of a full hand) times the highest multiplier: the best product
of bomb factors the deck's cards can make (each rank's copies split into bombs in the most
multiplying way, the jokers likewise), x2 for spring, x2 per possible double, grab and
reveal. ``max_game_length`` (player actions) is ``deals x landlord-selection actions per
deal + doubling actions + players x cards in play``: each play removes a card or more and is
followed by at most ``players - 1`` passes.

Observations: ``observation_tensor`` is ``Game.encode(seat)`` (fastdou's per-seat encoding,
as float32), zeros while cards are being dealt; ``observation_string`` writes the same view
as text. No information-state tensor or string is provided (nor does OpenSpiel's own
dou_dizhu).

Errors: an action the state cannot apply raises what pyspiel raises for one, a
``pyspiel.SpielError`` (OpenSpiel's dou_dizhu: "Cannot act in terminal states"), that is
also a fastdou error: :class:`SpielStateError` after the end, :class:`SpielActionError` for
a chance outcome that is not one of ``chance_outcomes()`` or an illegal player action; the
state is left as it was.

Limits: chance deals ranks, not suits, so jinling's trump suit (a record-only field that
play never reads) stays unset; five_player's marked card is passed on by rank
(``Game.from_hands(marked=...)``), which is all the dark landlord's reveal reads.

``python_fastdou_classic_openspiel`` against OpenSpiel's ``dou_dizhu`` (open_spiel 2.0.2,
``tests/test_adapter_openspiel.py`` replays deals through both): the same player ids, legal
ids and returns (base = the bid, x2 per bomb and rocket, x2 for spring or anti-spring,
landlord +-2 stakes, farmers -+1), except where OpenSpiel's game departs from the rules
(docs/rules.md): it lets a bomb answer the rocket; it offers no solo, pair or trio chain
starting at a rank the player holds four of; and when all three pass it ends the hand at 0
where fastdou redeals. Its chance ids differ: OpenSpiel draws the face-up card's position
(``0..50``; its holder, seat ``position % 3``, bids first) and then deals card ``c`` (id
``51 + c``, rank ``c % 13``, jokers 52 and 53) to seats 0, 1, 2 in turn.
"""

from __future__ import annotations

import collections
import functools

import numpy as np
import pyspiel

from fastdou import cards as _cards
from fastdou.actions import action_table
from fastdou.errors import GameStateError, IllegalMoveError
from fastdou.game import Game
from fastdou.kernels import encoding as KE
from fastdou.kernels import state as S
from fastdou.kernels.layout import N_RANKS, SMALL_JOKER
from fastdou.rules import PRESETS, rules as make_rules

_TOKENS = _cards.TOKENS

# short name -> (preset, profile)
GAMES = {f"python_fastdou_{name}": (name, None) for name in PRESETS}
GAMES["python_fastdou_classic_openspiel"] = ("classic", "openspiel")

_DEALING, _OPENING, _MARKED, _TWIN, _PLAYING, _VOID = range(6)


class SpielStateError(GameStateError, pyspiel.SpielError):
    """An action applied to a terminal state (a ``pyspiel.SpielError``, as OpenSpiel's)."""


class SpielActionError(IllegalMoveError, pyspiel.SpielError):
    """A chance outcome that is not one of ``chance_outcomes()``, or an illegal player
    action (a ``pyspiel.SpielError``, as OpenSpiel's)."""


# --------------------------------------------------------------------- game constants
def _best_product(copies: int, factors: dict) -> int:
    """The largest product of ``factors[size]`` over disjoint bombs from ``copies`` cards."""
    best = [1] * (copies + 1)
    for c in range(1, copies + 1):
        best[c] = max([best[c - 1]] + [best[c - s] * f for s, f in factors.items() if s <= c])
    return best[copies]


def max_multiplier(rules) -> int:
    """A true upper bound on a hand's multiplier (see the module docstring)."""
    deck = rules.deck
    rank_factors = {s: rules.bomb_factors[s] for s in range(max(rules.bomb_min, 1),
                                                           rules.bomb_max + 1)
                    if rules.bomb_min > 0}
    mult = 1
    for r in range(SMALL_JOKER):
        mult *= _best_product(int(deck[r]), rank_factors)
    jokers = int(deck[SMALL_JOKER:].sum())
    joker_sizes = {"all": [jokers], "any": range(2, jokers + 1), "lone": [1]}.get(
        rules.joker_bombs, [jokers])
    mult *= _best_product(jokers, {s: rules.joker_bomb_factor for s in joker_sizes if s})
    if rules.spring != "none":
        mult *= 2
    mult *= 2 ** {"none": 0, "farmers": rules.players, "landlord": 1,
                  "everyone": rules.players}[rules.doubling]
    if rules.bidding == "call_grab":
        mult *= 2 ** rules.max_grabs
    if rules.bidding == "marked":
        mult *= 2 ** 2                                   # bright and dark reveals
    return mult


def _largest_hand(rules) -> int:
    return rules.hand_size + (rules.kitty if rules.landlord_gets_kitty else 0)


def max_stake(rules) -> float:
    """A true upper bound on one stake: the highest base times :func:`max_multiplier`."""
    if rules.scoring == "points":      # jinling: the card points of a full hand
        points = np.repeat(np.asarray(rules.card_points), rules.deck)
        base = int(np.sort(points)[::-1][:_largest_hand(rules)].sum())
    else:
        base = rules.max_bid if rules.bidding in ("score", "score_once") else 1
    return float(base * max_multiplier(rules))


def _deals(rules) -> int:
    """How many deals a hand may take."""
    if rules.bidding in ("call_grab", "marked"):         # these always name a landlord
        return 1
    return rules.max_redeals if rules.max_redeals > 0 else S.MAX_REDEALS_CAP


def max_game_length(rules) -> int:
    """A true bound on the player actions of a hand (see the module docstring)."""
    n = rules.players
    selection = {"score": (rules.max_bid + 1) * n, "score_once": n, "call": n,
                 "call_grab": rules.max_grabs + 3, "marked": 2}[rules.bidding]
    doubling = {"none": 0, "farmers": n, "landlord": 1, "everyone": n}[rules.doubling]
    cards = n * rules.hand_size + (rules.kitty if rules.landlord_gets_kitty else 0)
    return _deals(rules) * selection + doubling + n * cards


def _dealt(rules) -> int:
    return rules.players * rules.hand_size + rules.kitty


def game_type(short_name: str, rules) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"fastdou {rules.name}" + (f" ({rules.profile})" if rules.profile else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.players,
        min_num_players=rules.players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={})


def game_info(rules) -> pyspiel.GameInfo:
    stake = max_stake(rules)
    chance = max(N_RANKS, rules.players + 1)
    if rules.bidding == "marked":
        chance = max(chance, rules.players * N_RANKS)
    return pyspiel.GameInfo(
        num_distinct_actions=action_table(rules).size,
        max_chance_outcomes=chance,
        num_players=rules.players,
        min_utility=-(rules.players - 1) * stake,
        max_utility=(rules.players - 1) * stake,
        utility_sum=0.0,
        max_game_length=max_game_length(rules))


@functools.lru_cache(maxsize=None)
def action_names(rules) -> tuple:
    """A distinct string per action id: the table's name (``ActionTable.names``), with the
    reading added where cards read several ways (``'333444555666 (plane_solo, 345)'``)."""
    table = action_table(rules)
    names = list(table.names)
    seen = collections.Counter(names)
    for i, name in enumerate(names):
        if seen[name] > 1:
            move = table.action(i)
            low = move.rank - move.length + 1
            names[i] = (f"{name} ({move.kind.name.lower()}, "
                        f"{''.join(_TOKENS[r] for r in range(low, move.rank + 1))})")
    if len(set(names)) != len(names):
        raise RuntimeError(f"{rules.name}: two actions with one name")
    return tuple(names)


# --------------------------------------------------------------------- game and state
class FastdouGame(pyspiel.Game):
    """A fastdou preset as an OpenSpiel game (one subclass per registered name, in
    :data:`GAME_CLASSES`; pyspiel calls it with the game parameters)."""

    short_name = "python_fastdou_classic"

    def __init__(self, params=None):
        short_name = self.short_name
        name, profile = GAMES[short_name]
        self.rules = make_rules(name, profile=profile)
        self.table = action_table(self.rules)
        super().__init__(game_type(short_name, self.rules), game_info(self.rules),
                         params or {})

    def new_initial_state(self):
        return FastdouState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is not None and (
                iig_obs_type.perfect_recall or not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("fastdou games observe one seat's view only (no perfect-recall, "
                             "public-only or all-private observations)")
        return FastdouObserver(self.rules)


class _Held:
    """The wrapped Game. OpenSpiel clones a state by deep-copying its attributes (this copies
    the Game with :meth:`Game.clone`, not the rules and action table it refers to) and
    serializes it by pickling them (this pickles the Game's record, :meth:`Game.dumps`)."""

    __slots__ = ("game",)

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return _Held(None if self.game is None else self.game.clone())

    def __getstate__(self):
        return None if self.game is None else self.game.dumps()

    def __setstate__(self, record):
        self.game = None if record is None else Game.loads(record)


class FastdouState(pyspiel.State):
    """One hand: chance nodes while dealing, then the wrapped :class:`fastdou.Game`."""

    def __init__(self, game: FastdouGame):
        super().__init__(game)
        self._rules = game.rules
        self._redeals = 0
        self._held = _Held(None)
        self._new_deal()

    def _new_deal(self):
        self._stage = _DEALING
        self._left = self._rules.deck.astype(np.int64)       # cards not dealt yet
        self._dealt = np.zeros((self._rules.players + 1, N_RANKS), np.int64)  # + kitty
        self._count = 0
        self._marked = None

    @property
    def fastdou_game(self) -> Game | None:
        """The wrapped :class:`fastdou.Game` (None while dealing)."""
        return self._held.game

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self):
        if self._stage == _PLAYING:
            g = self._held.game
            return pyspiel.PlayerId.TERMINAL if g.is_terminal() else g.current_player
        if self._stage == _VOID:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE

    def is_terminal(self):
        return self._stage == _VOID or (self._stage == _PLAYING
                                        and self._held.game.is_terminal())

    def _legal_actions(self, player):
        if player != self.current_player() or self.is_terminal():
            return []
        return np.sort(self._held.game.legal_action_ids()).tolist()

    def chance_outcomes(self):
        r = self._rules
        if self._stage == _DEALING:
            total = self._left.sum()
            return [(k, self._left[k] / total) for k in np.flatnonzero(self._left)]
        if self._stage == _OPENING:
            return [(s, 1.0 / r.players) for s in range(r.players)]
        hands = self._dealt[:r.players]
        if self._stage == _MARKED:
            normal = hands[:, :SMALL_JOKER]
            total = normal.sum()
            return [(int(s) * N_RANKS + int(k), normal[s, k] / total)
                    for s, k in zip(*np.nonzero(normal))]
        seat, rank = self._marked
        twins = hands[:, rank].copy()
        twins[seat] -= 1
        out = [(t, twins[t] / (r.deck[rank] - 1)) for t in np.flatnonzero(twins)]
        elsewhere = r.deck[rank] - 1 - twins.sum()          # in the kitty or set aside
        return out + ([(r.players, elsewhere / (r.deck[rank] - 1))] if elsewhere else [])

    def _apply_action(self, action):
        if self.is_terminal():
            raise SpielStateError(f"Cannot act in terminal states (action {action})")
        if self._stage != _PLAYING and not any(action == a for a, _ in
                                               self.chance_outcomes()):
            raise SpielActionError(f"chance outcome {action}: {self._refusal(action)}")
        if self._stage == _PLAYING:
            self._play(int(action))
        elif self._stage == _DEALING:
            self._deal(int(action))
        elif self._stage == _OPENING:
            self._start(first=int(action))
        elif self._stage == _MARKED:
            self._marked = divmod(int(action), N_RANKS)
            self._stage = _TWIN
        else:
            bright = self._marked[0]
            self._start(landlords=(bright, bright if action >= self._rules.players
                                   else int(action)))

    def _refusal(self, action) -> str:
        """Why chance ``action`` is not an outcome of this node."""
        if self._stage == _DEALING:
            return "no card of that rank is left" if 0 <= action < N_RANKS else \
                f"a dealt card is a rank, 0..{N_RANKS - 1}"
        if self._stage == _OPENING:
            return f"the opening seat is 0..{self._rules.players - 1}"
        return "not one of chance_outcomes() here"

    def _deal(self, rank):
        r = self._rules
        self._dealt[min(self._count // r.hand_size, r.players), rank] += 1
        self._left[rank] -= 1
        self._count += 1
        if self._count == _dealt(r):
            self._stage = _MARKED if r.bidding == "marked" else _OPENING

    def _start(self, first=0, landlords=None):
        r = self._rules
        hands = [self._dealt[s].astype(np.uint8) for s in range(r.players)]
        kitty = self._dealt[r.players].astype(np.uint8)
        marked = None if landlords is None else _TOKENS[self._marked[1]]
        self._held.game = Game.from_hands(hands, r, kitty=kitty, first=first,
                                          landlords=landlords, marked=marked)
        self._stage = _PLAYING

    def _play(self, action_id):
        g = self._held.game
        bidding = g.phase == "bid"
        try:
            g.play_id(action_id)
        except IllegalMoveError as e:
            raise SpielActionError(str(e)) from None
        if bidding and g.state[S.G_REDEALS] > 0 and not g.is_terminal():
            self._redeals += 1                 # fastdou redealt: deal again by chance
            limit = self._rules.max_redeals
            self._held.game = None
            if (limit > 0 and self._redeals >= limit) or self._redeals >= S.MAX_REDEALS_CAP:
                self._stage = _VOID
            else:
                self._new_deal()

    def returns(self):
        if self._stage == _PLAYING and self._held.game.is_terminal():
            return list(self._held.game.result().scores)
        return [0.0] * self._rules.players

    def _action_to_string(self, player, action):
        if player != pyspiel.PlayerId.CHANCE:
            return action_names(self._rules)[action]
        if self._stage == _DEALING:
            return f"deal {_TOKENS[action]}"
        if self._stage == _OPENING:
            return f"seat {action} opens"
        if self._stage == _MARKED:
            seat, rank = divmod(action, N_RANKS)
            return f"marked card: a {_TOKENS[rank]} of seat {seat}"
        return "twin: " + (f"seat {action}" if action < self._rules.players
                           else "not in a hand")

    def __str__(self):
        if self._stage in (_DEALING, _OPENING, _MARKED, _TWIN):
            parts = [_cards.to_text(self._dealt[s].astype(np.uint8))
                     for s in range(self._rules.players + 1)]
            return f"deal {self._redeals}: " + " | ".join(parts)
        if self._stage == _VOID:
            return f"void after {self._redeals} redeals"
        g = self._held.game
        hands = " | ".join(_cards.to_text(g.perfect_information_hand(s))
                           for s in range(self._rules.players))
        return (f"deal {self._redeals}: {g.phase}, seat {g.current_player} to act, "
                f"last {g.last_move.text()}, bid {g.state[S.G_BID]}, x{g.multiplier}, "
                f"hands {hands}, {len(g.history)} actions")


class FastdouObserver:
    """One seat's view: ``tensor`` is ``Game.encode(seat)`` (zeros while dealing)."""

    def __init__(self, rules):
        self.tensor = np.zeros(int(KE.encoding_size(rules.array)), np.float32)
        self.dict = {"observation": self.tensor}
        self._buf = np.zeros(len(self.tensor), np.int8)

    def set_from(self, state, player):
        g = state.fastdou_game
        if g is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = g.encode(player, out=self._buf)

    def string_from(self, state, player):
        g = state.fastdou_game
        if g is None:
            return f"seat {player}: dealing, holds " + _cards.to_text(
                state._dealt[player].astype(np.uint8))
        o = g.observation(player)
        return (f"seat {player}: {o.phase}, seat {o.to_act} to act, hand "
                f"{_cards.to_text(o.hand)}, landlord {o.landlord}, bid {o.bid}, "
                f"x{o.multiplier}, last {o.last_move.text()} by {o.last_player}, left "
                f"{list(o.cards_left)}, {len(o.history)} actions")


# A class, not a closure, per name: pyspiel keeps its factories until the interpreter has
# shut down, and releasing a closure then aborts the process.
GAME_CLASSES = {n: type(f"FastdouGame_{n[len('python_fastdou_'):]}", (FastdouGame,),
                        {"short_name": n}) for n in GAMES}


def register() -> None:
    """Register every game of :data:`GAMES` with pyspiel (done on import)."""
    known = set(pyspiel.registered_names())
    for short_name, (name, profile) in GAMES.items():
        if short_name not in known:
            pyspiel.register_game(game_type(short_name, make_rules(name, profile=profile)),
                                  GAME_CLASSES[short_name])


register()
