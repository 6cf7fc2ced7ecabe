"""Rule sets: the frozen :class:`Rules` dataclass, built from the eight presets and their kicker
profiles (:mod:`fastdou.presets`), and its JSON form.

``fastdou.rules("classic")`` returns a preset; keyword overrides change single fields and are
validated (``fastdou.rules("four_player", bomb_min=5)``). Kernels see a rules object only as
the small ``int64`` array :meth:`Rules.array` returns.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from fastdou.checks import is_whole, short
from fastdou.errors import RecordError, RulesError
from fastdou.kernels import layout as L
from fastdou.kernels.answer_counts import answer_fields
from fastdou.kernels.state import MAX_PLAYERS as S_MAX_PLAYERS
from fastdou.kernels.state import SCORE_UNIT
from fastdou.kinds import Kind
from fastdou.presets import (  # PRESETS: looked up here by fastdou and the command line
    CLASSIC_KINDS, PRESETS, PROFILES, deck_of, is_preset, preset_fields, preset_name,
)

# Not kinds a rule set enables: the pass, and the bombs (sized by the bomb fields).
_NOT_ENABLED = frozenset({Kind.PASS} | {k for k in Kind if L.KINDS[k, L.K_BOMB]})
WING_TRIO = {"never": L.WING_TRIO_NEVER, "not_adjacent": L.WING_TRIO_NOT_ADJACENT,
             "anywhere": L.WING_TRIO_ANYWHERE}
BOMB_ORDER = {"size_rank": L.BOMB_ORDER_SIZE_RANK, "rank": L.BOMB_ORDER_RANK}
JOKER_BOMBS = {"none": L.JOKER_BOMBS_NONE, "all": L.JOKER_BOMBS_ALL,
               "any": L.JOKER_BOMBS_ANY, "lone": L.JOKER_BOMBS_LONE}
BIDDING = {"score": L.BIDDING_SCORE, "score_once": L.BIDDING_SCORE_ONCE,
           "call": L.BIDDING_CALL, "call_grab": L.BIDDING_CALL_GRAB,
           "marked": L.BIDDING_MARKED}
DOUBLING = {"none": L.DOUBLING_NONE, "farmers": L.DOUBLING_FARMERS,
            "landlord": L.DOUBLING_LANDLORD, "everyone": L.DOUBLING_EVERYONE}
# Spring modes as (R_SPRING, R_ANTI_SPRING_PLAYS): a landlord's win where no farmer played
# is a spring; a farmers' win where the landlord's side made exactly that many plays (classic:
# the opening lead alone; losers_silent: none) is an anti-spring.
SPRING = {"none": (0, 0), "classic": (1, 1), "losers_silent": (1, 0)}
SCORING = {"landlord": L.SCORING_LANDLORD, "team": L.SCORING_TEAM,
           "points": L.SCORING_POINTS}


_TYPE_NAMES = {int: "an int", bool: "a bool", str: "a str", tuple: "a tuple",
               frozenset: "a frozenset"}


@dataclass(frozen=True)
class Rules:
    """Every rule that varies between the games of the family, as one frozen value
    (docs/rules.md §3).

    Pattern fields (what may be played) are lowered to the kernels' rules array; deal fields
    describe the table. Build one with :func:`fastdou.rules`; however it is built, it is
    validated on construction (``RulesError``), so kernels only ever see rules they can run.
    """

    name: str = "classic"
    profile: str = "standard"
    # The table and the deal.
    players: int = 3
    decks: int = 1
    removed_ranks: tuple = ()
    hand_size: int = 17
    kitty: int = 3
    landlord_gets_kitty: bool = True
    kitty_trump: bool = False      # the first non-joker kitty card, turned up, names a trump
    kitty_shown: bool = True       # every seat sees the kitty once the landlord takes it
    # Which non-bomb kinds exist, and chain limits.
    kinds: frozenset = CLASSIC_KINDS
    solo_chain_min: int = 5
    pair_chain_min: int = 3
    trio_chain_min: int = 2
    quad_chain_min: int = 2
    chain_low: int = 0
    chain_high: int = L.ACE
    # Kicker rules (the one-deck profiles).
    rocket_kickers: bool = False
    bomb_wings: bool = False
    wing_trio: str = "not_adjacent"
    joker_pairs: bool = False
    # Bombs.
    bomb_min: int = 4
    bomb_max: int = 4
    bomb_order: str = "size_rank"
    joker_bombs: str = "all"
    joker_solos: bool = True       # a lone joker may be played as a solo
    # Game flow (docs/rules.md §4).
    bidding: str = "score"
    max_bid: int = 3               # the highest bid of score bidding (it ends the bidding)
    max_redeals: int = 0
    doubling: str = "none"
    max_grabs: int = 0
    handicap: bool = False
    spring: str = "classic"
    scoring: str = "landlord"
    bomb_factors: tuple = (1, 1, 1, 1, 2, 2, 2, 2, 2)
    joker_bomb_factor: int = 2
    card_points: tuple = ()        # points scoring: the points of a card of each rank (15)
    # Wild cards (RULES.md §4.8): which ranks are wild is drawn per game, not a rule.
    wilds: int = 0                 # ranks drawn wild after bidding (0 none, 2 天地癞子)
    soft_below_hard: bool = True   # every soft bomb below every hard one (else by rank)
    soft_bomb_factor: int = 2      # a bomb holding a wild card standing in
    wild_bomb_factor: int = 4      # the four wild cards of a wild rank

    def __post_init__(self):
        self._validate()

    # ------------------------------------------------------------------ derived views
    @property
    def four_two(self) -> bool:
        """Whether four_two_solo and four_two_pair exist."""
        return Kind.FOUR_TWO_SOLO in self.kinds or Kind.FOUR_TWO_PAIR in self.kinds

    @cached_property
    def deck(self) -> np.ndarray:
        """The full deck as 15 counts (uint8)."""
        return deck_of(self.decks, self.removed_ranks)

    @cached_property
    def array(self) -> np.ndarray:
        """The rules lowered to the kernels' ``int64`` array (see ``fastdou.kernels.layout``)."""
        a = np.zeros(L.RULES_SIZE, dtype=np.int64)
        a[L.R_DECKS] = self.decks
        a[L.R_KINDS] = sum(1 << int(k) for k in self.kinds)
        a[L.R_SOLO_CHAIN_MIN] = self.solo_chain_min
        a[L.R_PAIR_CHAIN_MIN] = self.pair_chain_min
        a[L.R_TRIO_CHAIN_MIN] = self.trio_chain_min
        a[L.R_QUAD_CHAIN_MIN] = self.quad_chain_min
        a[L.R_CHAIN_LOW] = self.chain_low
        a[L.R_CHAIN_HIGH] = self.chain_high
        a[L.R_ROCKET_KICKERS] = self.rocket_kickers
        a[L.R_BOMB_WINGS] = self.bomb_wings
        a[L.R_WING_TRIO] = WING_TRIO[self.wing_trio]
        a[L.R_JOKER_PAIRS] = self.joker_pairs
        a[L.R_BOMB_MIN] = self.bomb_min
        a[L.R_BOMB_MAX] = self.bomb_max
        a[L.R_BOMB_ORDER] = BOMB_ORDER[self.bomb_order]
        a[L.R_JOKER_BOMBS] = JOKER_BOMBS[self.joker_bombs]
        a[L.R_MAX_MOVE] = self.max_move
        a[L.R_DECK] = np.int64(np.uint64(L.packed(self.deck)).view(np.int64))
        a[L.R_PLAYERS] = self.players
        a[L.R_HAND_SIZE] = self.hand_size
        a[L.R_KITTY] = self.kitty
        a[L.R_KITTY_TO_LANDLORD] = self.landlord_gets_kitty
        a[L.R_BIDDING] = BIDDING[self.bidding]
        a[L.R_MAX_REDEALS] = self.max_redeals
        a[L.R_DOUBLING] = DOUBLING[self.doubling]
        a[L.R_MAX_GRABS] = self.max_grabs
        a[L.R_HANDICAP] = self.handicap
        a[L.R_SPRING], a[L.R_ANTI_SPRING_PLAYS] = SPRING[self.spring]
        a[L.R_SCORING] = SCORING[self.scoring]
        a[L.R_BOMB_FACTOR:L.R_BOMB_FACTOR + 9] = self.bomb_factors
        a[L.R_JOKER_FACTOR] = self.joker_bomb_factor
        a[L.R_JOKER_SOLOS] = self.joker_solos
        a[L.R_MAX_BID] = self.max_bid
        a[L.R_KITTY_TRUMP] = self.kitty_trump
        a[L.R_KITTY_SHOWN] = self.kitty_shown
        if self.card_points:
            a[L.R_CARD_POINTS:L.R_CARD_POINTS + L.N_RANKS] = self.card_points
        a[L.R_WILDS] = self.wilds
        a[L.R_SOFT_BELOW_HARD] = self.soft_below_hard
        a[L.R_SOFT_FACTOR] = self.soft_bomb_factor
        a[L.R_WILD_FACTOR] = self.wild_bomb_factor
        answer_fields(a)
        a.flags.writeable = False
        return a

    @cached_property
    def kernel_array(self) -> np.ndarray:
        """A writable copy of :attr:`array`, never written: the one array type every Python
        call into the kernels passes (through :func:`rules_array`), so that each kernel
        compiles once whichever entry point reaches it first (and Numba's dispatch takes a
        writable array faster than a read-only one)."""
        return np.array(self.array)

    @property
    def max_move(self) -> int:
        """Most cards one move may hold: the largest hand a seat can have."""
        return self.landlord_size

    @property
    def deck_size(self) -> int:
        return int(self.deck.sum())

    @property
    def landlord_size(self) -> int:
        """Cards the landlord holds after taking the kitty."""
        return self.hand_size + (self.kitty if self.landlord_gets_kitty else 0)

    def seated(self, seats: int) -> "Rules":
        """These rules for a position of ``seats`` seats (``fastdou.Position``): ``players``
        set to ``seats``. Where the deal does not fit that many seats, the hand and kitty
        sizes change so that it does while the largest hand, and so ``max_move``, stays (the
        kitty then goes to the landlord and names no trump); points scoring (three players
        only) becomes landlord scoring and two_player's call-and-grab (two players only)
        plain calling. The patterns of play never change."""
        if seats == self.players:
            return self
        changes = {"players": seats}
        if seats * self.hand_size + self.kitty > self.deck_size:
            largest = self.landlord_size
            hand = (self.deck_size - largest) // (seats - 1)
            changes.update(hand_size=hand, kitty=largest - hand, landlord_gets_kitty=True,
                           kitty_trump=False)
        if self.scoring == "points" and seats != 3:
            changes.update(scoring="landlord", card_points=())
        if self.bidding == "call_grab" and seats != 2:
            changes.update(bidding="call", max_grabs=0, handicap=False)
        return dataclasses.replace(self, **changes)

    def replace(self, **changes: object) -> "Rules":
        """A validated copy with some fields changed (see :func:`rules` for shorthands)."""
        return dataclasses.replace(self, **_normalise(self, changes))

    # ------------------------------------------------------------------ JSON
    def to_json(self, *, changes: bool = False) -> dict:
        """The rules as JSON values (kinds by name, tuples as lists): every field (results
        files' metadata), or with ``changes`` only the fields that differ from the preset
        of this name and profile (game records; name and profile always)."""
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if isinstance(v, frozenset):
                v = sorted(k.name.lower() for k in v)
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        if not changes:
            return out
        base = _json_base(self.name, self.profile).to_json()
        return {k: v for k, v in out.items() if v != base[k] or k in ("name", "profile")}

    @classmethod
    def from_json(cls, d) -> "Rules":
        """The rules :meth:`to_json` wrote, in either form: the fields given, over the preset
        of the given name and profile (over the dataclass defaults for any other name).
        RecordError for what is not such an object; RulesError for bad values."""
        if not isinstance(d, dict):
            raise RecordError(f"rules metadata must be an object, not {short(d)}")
        unknown = set(d) - FIELDS
        if unknown:
            raise RecordError(f"rules metadata has unknown field(s) "
                              f"{', '.join(sorted(map(str, unknown)))}")
        changes = {k: v for k, v in d.items() if k not in ("name", "profile")}
        base = _json_base(d.get("name", cls.name), d.get("profile", cls.profile))
        return base.replace(**changes) if changes else base

    # ------------------------------------------------------------------ validation
    def _validate(self) -> None:
        def bad(msg):
            raise RulesError(f"rules {self.name!r}: {msg}")

        for f in dataclasses.fields(self):
            value, default = getattr(self, f.name), getattr(Rules, f.name)
            if type(default) in (int, bool, str, tuple, frozenset) and \
                    type(value) is not type(default):
                bad(f"{f.name} must be {_TYPE_NAMES[type(default)]}, not {short(value)}")
        if not self.name or len(self.name) > 64:
            bad("name must be 1 to 64 characters")
        if self.decks not in (1, 2):
            bad(f"decks must be 1 or 2, not {self.decks!r}")
        if not 2 <= self.players <= S_MAX_PLAYERS:
            bad(f"players must be 2 to {S_MAX_PLAYERS}, not {self.players!r}")
        for r in self.removed_ranks:
            if not (is_whole(r) and 0 <= r < L.N_RANKS):
                bad(f"removed_ranks holds {short(r)}, not a rank index 0..14")
        if self.hand_size < 1:
            bad(f"hand_size must be at least 1, not {self.hand_size}")
        if self.kitty < 0:
            bad(f"kitty must be 0 or more, not {self.kitty}")
        for k in self.kinds:
            if not isinstance(k, Kind) or k in _NOT_ENABLED:
                bad(f"kinds holds {short(k)}: not a Kind of play (bombs are set by "
                    f"bomb_min/bomb_max/joker_bombs)")
        if Kind.SOLO not in self.kinds:
            bad("kinds must include solo: without it a hand of odd cards has no legal lead")
        for f in ("solo_chain_min", "pair_chain_min", "trio_chain_min", "quad_chain_min"):
            if not 2 <= getattr(self, f) <= 12:
                bad(f"{f} must be 2..12, not {getattr(self, f)!r}")
        if not 0 <= self.chain_low <= self.chain_high <= L.ACE:
            bad(f"chain ranks {self.chain_low}..{self.chain_high} must lie within 0..11 (3..A)")
        if self.wing_trio not in WING_TRIO:
            bad(f"wing_trio must be one of {sorted(WING_TRIO)}, not {self.wing_trio!r}")
        if self.bomb_order not in BOMB_ORDER:
            bad(f"bomb_order must be one of {sorted(BOMB_ORDER)}, not {self.bomb_order!r}")
        if self.joker_bombs not in JOKER_BOMBS:
            bad(f"joker_bombs must be one of {sorted(JOKER_BOMBS)}, not {self.joker_bombs!r}")
        if self.bomb_min != 0 and not 2 <= self.bomb_min <= self.bomb_max <= 4 * self.decks:
            bad(f"bombs of {self.bomb_min}..{self.bomb_max} cards do not fit "
                f"{self.decks} deck(s) (0 disables rank bombs)")
        if self.joker_pairs and self.decks == 1:
            bad("joker_pairs needs two decks (one deck holds one joker of each kind)")
        if self.deck_size < self.players * self.hand_size + self.kitty:
            bad(f"{self.players} hands of {self.hand_size} and a kitty of {self.kitty} "
                f"need more than the {self.deck_size} cards of the deck")
        if not self.joker_solos and self.joker_bombs != "lone":
            bad("joker_solos=False needs joker_bombs='lone': a lone joker must be playable")
        if not 1 <= self.max_bid <= 9:
            bad(f"max_bid must be 1..9, not {self.max_bid}")
        if self.kitty_trump and (self.kitty == 0 or self.landlord_gets_kitty):
            bad("kitty_trump turns up a kitty card: it needs a kitty kept out of play "
                "(kitty > 0, landlord_gets_kitty=False)")
        if (self.scoring == "points") != bool(self.card_points):
            bad("card_points (15 points, one per rank) go with scoring='points', and only")
        if self.card_points and (len(self.card_points) != L.N_RANKS or not all(
                is_whole(p) and 0 <= p <= 100 for p in self.card_points)):
            bad("card_points must be 15 whole numbers 0..100, one per rank 3..A 2 B R")
        for f, table in (("bidding", BIDDING), ("doubling", DOUBLING), ("spring", SPRING),
                         ("scoring", SCORING)):
            if getattr(self, f) not in table:
                bad(f"{f} must be one of {sorted(table)}, not {getattr(self, f)!r}")
        if not 0 <= self.max_redeals <= 1000:
            bad(f"max_redeals must be 0 (no limit) to 1000, not {self.max_redeals!r}")
        if not 0 <= self.max_grabs <= 16:
            bad(f"max_grabs must be 0..16, not {self.max_grabs!r}")
        if len(self.bomb_factors) != 9 or not all(
                is_whole(f) and 1 <= f <= 16 for f in self.bomb_factors):
            bad("bomb_factors must be 9 whole numbers 1..16 (the factor of a bomb of 0..8 cards)")
        for f in ("joker_bomb_factor", "soft_bomb_factor", "wild_bomb_factor"):
            if not 1 <= getattr(self, f) <= 16:
                bad(f"{f} must be 1..16, not {getattr(self, f)!r}")
        if self.bidding == "marked" and self.decks != 2:
            bad("marked-card landlords need two decks (two copies of the marked card)")
        jokers = int(self.deck[L.SMALL_JOKER:].sum())
        if self.bidding == "marked" and self.players * self.hand_size <= jokers:
            bad("marked-card landlords need a card that is not a joker in the hands")
        if self.bidding in ("call_grab",) and self.players != 2:
            bad("call_grab bidding is for two players")
        if self.scoring == "points" and (self.players != 3 or self.bidding == "marked"):
            bad("points scoring is jinling's: three players, one landlord")
        if self.bidding == "marked" and self.scoring == "landlord":
            bad("marked-card landlords may be two: their side scores as a team "
                "(scoring='team')")
        if self.profile not in PROFILES:
            bad(f"profile must be one of {sorted(PROFILES)}, not {self.profile!r}")
        if self.wilds:
            self._validate_wilds(bad)
        bits = self.score_bits()
        if bits > 62:
            wild = f", soft_bomb_factor {self.soft_bomb_factor} and wild_bomb_factor " \
                f"{self.wild_bomb_factor}" if self.wilds else ""
            bad(f"bomb_factors {self.bomb_factors}, joker_bomb_factor "
                f"{self.joker_bomb_factor}{wild} can multiply a score to about "
                f"2**{bits:.0f}, past the 2**62 scores hold; lower them")

    def _validate_wilds(self, bad) -> None:
        """Wild cards (``wilds`` 1 or 2) on a one-deck table with classic's bombs and kinds."""
        if not 0 <= self.wilds <= 2:
            bad(f"wilds must be 0, 1 or 2 wild ranks, not {self.wilds!r}")
        if self.decks != 1 or self.removed_ranks:
            bad("wild cards need the full one-deck table (decks=1, no removed_ranks)")
        if (self.bomb_min, self.bomb_max, self.bomb_order, self.joker_bombs,
                self.joker_solos) != (4, 4, "size_rank", "all", True):
            bad("wild cards need classic's bombs: four of a rank and the rocket "
                "(bomb_min=bomb_max=4, bomb_order='size_rank', joker_bombs='all')")
        if not self.kinds <= CLASSIC_KINDS:
            extra = sorted(k.name.lower() for k in self.kinds - CLASSIC_KINDS)
            bad(f"wild cards fill classic's kinds only, not {', '.join(extra)}")

    def score_bits(self) -> float:
        """An upper bound of log2 of any score in ``SCORE_UNIT``s: each rank's cards split
        into the bombs whose factors multiply most, every joker a bomb at its factor, every
        double, grab and the spring, the highest bid, paid by every other seat."""
        lo, hi = (self.bomb_min, self.bomb_max) if self.bomb_min else (1, 0)
        factors = list(self.bomb_factors)
        if self.wilds:         # a bomb of a rank's four cards (wild cards standing in or not)
            factors[4] = max(factors[4], self.soft_bomb_factor, self.wild_bomb_factor)
        best = [1] * (int(self.deck.max()) + 1)     # best[c]: the most c cards of a rank give
        for c in range(1, len(best)):
            best[c] = max([best[c - 1]] + [factors[k] * best[c - k]
                                           for k in range(max(lo, 1), min(hi, c) + 1)])
        bits = sum(math.log2(best[int(n)]) for n in self.deck[:L.SMALL_JOKER])
        bits += int(self.deck[L.SMALL_JOKER:].sum()) * math.log2(self.joker_bomb_factor)
        return bits + 2 * self.players + self.max_grabs + 3 + \
            math.log2(max(self.max_bid, 1) * self.players * SCORE_UNIT)


_NO_FOUR_TWO = frozenset({Kind.FOUR_TWO_SOLO, Kind.FOUR_TWO_PAIR})
FIELDS = frozenset(f.name for f in dataclasses.fields(Rules))
_TUPLE_FIELDS = tuple(f.name for f in dataclasses.fields(Rules)
                      if isinstance(getattr(Rules, f.name), tuple))


def _kind_list(value) -> frozenset:
    """Kinds given as Kind values, ids or names."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise RulesError(f"kinds must be a collection of kinds, not {short(value)}")
    kinds = []
    for k in value:
        try:
            if isinstance(k, str):
                kinds.append(Kind[k.upper()])
            elif is_whole(k):
                kinds.append(Kind(int(k)))
            else:
                raise TypeError
        except (KeyError, ValueError, TypeError):
            raise RulesError(f"unknown kind {short(k)}") from None
    return frozenset(kinds)


def _normalise(base: Rules, changes: dict) -> dict:
    """Turn shorthands (``four_two=``, kind names as strings) into real field values."""
    changes = dict(changes)
    if "kinds" in changes:
        changes["kinds"] = _kind_list(changes["kinds"])
    if "four_two" in changes:
        four_two = changes.pop("four_two")
        if not isinstance(four_two, (bool, np.bool_)):
            raise RulesError(f"four_two must be True or False, not {short(four_two)}")
        kinds = changes.get("kinds", base.kinds) - _NO_FOUR_TWO
        changes["kinds"] = kinds | (_NO_FOUR_TWO if four_two else frozenset())
    for f, v in changes.items():                   # numpy scalars as Python values
        if isinstance(v, np.bool_):
            changes[f] = bool(v)
        elif isinstance(v, np.integer):
            changes[f] = int(v)
    for f in _TUPLE_FIELDS:
        if isinstance(changes.get(f), (list, tuple)):
            changes[f] = tuple(changes[f])
    if "removed_ranks" in changes and isinstance(changes["removed_ranks"], tuple):
        try:
            changes["removed_ranks"] = tuple(sorted(changes["removed_ranks"]))
        except TypeError:
            raise RulesError(f"removed_ranks must be rank indices 0..14, not "
                             f"{short(changes['removed_ranks'])}") from None
    unknown = set(changes) - FIELDS
    if unknown:
        raise RulesError(f"unknown rules field(s): {', '.join(sorted(unknown))}")
    return changes


@functools.lru_cache(maxsize=None)
def _preset(name: str) -> Rules:
    """A preset as given (cached: a Rules is immutable, and its kernel array is built once)."""
    return Rules(name=name, **preset_fields(name))


def rules(name: str | Rules = "classic", *, profile: str | None = None,
          **overrides: object) -> Rules:
    """The preset ``name`` (one of :data:`PRESETS`), with a kicker ``profile`` and overrides.

    ``profile`` is ``"standard"`` (default), ``"openspiel"`` or ``"douzero"`` (docs/rules.md §2.2);
    ``"openspiel"`` also switches four_two off. A :class:`Rules` passes through unchanged
    when no profile or override is given.
    """
    if isinstance(name, Rules):
        base = name
        if profile is None and not overrides:
            return base
    else:
        base = _preset(preset_name(name))
        if profile is None and not overrides:
            return base
    fields = {}
    if profile is not None:
        if not isinstance(profile, str) or profile not in PROFILES:
            raise RulesError(f"unknown profile {short(profile)}; profiles: "
                             f"{', '.join(PROFILES)}")
        fields.update(PROFILES[profile], profile=profile)
        preset_kinds = preset_fields(base.name).get("kinds", Rules.kinds) \
            if is_preset(base.name) else base.kinds
        if not _NO_FOUR_TWO & preset_kinds:   # four_two is the profile's only for presets
            del fields["four_two"]            # that have it

    fields.update(overrides)
    return base.replace(**fields)


def _json_base(name, profile) -> Rules:
    """What JSON rules are read and written against: the preset ``name`` with ``profile``,
    or for any other name the dataclass defaults."""
    if is_preset(name):
        return rules(name, profile=profile)
    return Rules(name=name, profile=profile)


# What takes rules with wild cards so far; everything else refuses them (rules_array).
WILD_ENTRY_POINTS = ("legal_moves, classify, beats, Move.parse, simulate, evaluate, Game, "
                     "Position, solve, perft and min_plays, and with one wild rank action ids, "
                     "encodings, VectorEnv and the PettingZoo adapter")


def rules_array(rules: Rules, *, wild: bool = False) -> np.ndarray:
    """``rules.array`` as the Python layer hands it to the kernels: :attr:`Rules.kernel_array`,
    one private writable copy per rules, shared and never written. Rules with wild cards
    only for callers that pass ``wild=True`` (their kernels read the wild ranks); any other
    would play them as classic, so it gets a RulesError instead."""
    if not wild:
        without_wilds(rules)
    return rules.kernel_array


def without_wilds(rules: Rules) -> Rules:
    """``rules``, checked to have no wild cards: RulesError naming what takes them."""
    if rules.wilds:
        raise RulesError(f"rules {rules.name!r} have wild cards (wilds={rules.wilds}): only "
                         f"{WILD_ENTRY_POINTS} take them so far")
    return rules


def as_rules(r) -> Rules:
    """Accept a preset name or a :class:`Rules`; reject anything else."""
    if isinstance(r, Rules):
        return r
    if isinstance(r, str):
        return rules(r)
    raise RulesError(f"rules must be a preset name or a Rules object, not {short(r)}")
