"""The naive reference for wild-card moves (preset ``laizi``, RULES.md §4.8), read straight
from RULES.md and built on the classic oracle (:mod:`tests.reference.oracle`).

Like the classic oracle it is deliberately simple and slow and shares no code with the
compiled generator: it imports the classic oracle's reading function (never a copy of it) and,
through it, only the plain constants of ``fastdou.kernels.layout``. The rules are classic with
kicker profile ``standard`` plus wild cards; the classic ``Rules`` object is
``fastdou.rules("classic")``.

How it reads a multiset of cards (:func:`readings`): every *substitution* of its wild cards
(each wild card stands for one rank 3..2) gives a substituted multiset; each substituted
multiset is read with the classic oracle's readings; every reading is classified (bomb class)
and the readings are merged by the identity rule. :func:`leading_moves` tries every
sub-multiset of a hand; :func:`beats` / :func:`responses` compare.

Representation
--------------
* ``cards``: a tuple of 15 counts (index 0..14 = ranks 3 4 5 6 7 8 9 T J Q K A 2 B R), the
  cards that leave the hand, each wild card counted at its OWN rank (``5557`` with 7 wild is
  ``cards_from_str("5557")`` whatever the 7 stands for).
* ``wilds``: the wild ranks as rank indices: an int, or a tuple of one or two distinct ints
  in 0..12 (never a joker). ``()`` means no wild rank (then everything is classic, every bomb
  hard). :func:`norm_wilds` normalises to a sorted tuple.
* A move is ``(cards, kind_name, rank, length, bomb_class)``: ``kind_name``, ``rank`` and
  ``length`` exactly as the classic oracle (the rank a move is compared by: a chain's / plane's
  top rank, the trio's rank, the four's rank; length 1 for non-chains). ``rank`` is the rank
  of the SUBSTITUTED reading (the soft bomb ``5557`` with 7 wild has rank 2 = the 5s).
* ``bomb_class`` is one of :data:`BOMB_CLASSES`:
  ``"none"`` every non-bomb kind (four_two_* included, whatever its four is made of);
  ``"soft"`` a bomb (kind BOMB) holding at least one wild card standing in for another rank;
  ``"hard"`` a bomb of four natural cards of a rank that is not wild;
  ``"wild"`` the four wild cards of one wild rank (cards = 4 of a wild rank, rank = that rank);
  ``"rocket"`` both jokers (kind ROCKET).
* A substitution is kept OUTSIDE the identity: :func:`substitution` (or
  :func:`readings_with_substitutions`) gives the canonical one as a sorted tuple of
  ``(wild_rank, stands_for)`` pairs, one pair per wild card of the move (empty when the move
  holds no wild card). :func:`text` writes e.g. ``5557(5)``.

Rule decisions (each from RULES.md §4.8, written out where the text leaves a choice)
-----------------------------------------------------------------------------------
1. Identity: one move per ``(cards, kind, rank, length, bomb_class)``; readings of the same
   cards that agree on these are ONE move whatever each wild card stood for. So with 7 wild,
   ``3337`` is one trio_solo of 3s (the kicker may stand for any of 12 ranks: one move) and
   one soft bomb of 3s. For kind BOMB the class is a function of (cards, rank), see 6.
2. A wild card stands for any rank 3..2 (indices 0..12), never a joker; jokers are never wild
   and never stood for. Inside a chain / plane body it can only be a chain rank (3..A): this
   comes for free from the classic reading of the substituted multiset (2 never in a chain), so
   a wild 2 may stand for 3..A inside a chain but a 2 (wild or not) is never a chain rank itself.
3. A wild card standing for its own rank is a NATURAL card (with 7 wild, ``34567`` is a natural
   chain; ``5557`` read as 555 + 7 is a trio_solo whose kicker is the 7 itself).
4. A move made ONLY of wild cards (no non-wild card, jokers count as non-wild) stands for
   their own ranks alone: every wild card stands for its own rank, the only substitution tried.
   With 7 wild: ``7`` solo 7, ``77`` pair 7 (not a pair of 3s), ``777`` trio 7, ``7777`` the
   wild bomb. With two wild ranks (7 and 9 wild) this applies to a mix of both: ``7779`` is only
   the trio_solo 777+9 (NOT a soft bomb of 7s), ``7799`` and ``79`` are no move. As soon as one
   non-wild card (a joker included) is in the move, every wild card is free: with 7 wild,
   ``777B`` is a trio_solo of ANY rank 3..2 with the small joker as kicker (13 moves).
5. Substituted counts stay within one deck (at most 4 of a rank): the classic reading rejects
   anything else, and no kind needs five of a rank (``55557`` is no bomb; bombs are exactly 4).
6. Bomb classes (kind BOMB, always exactly four cards standing for one rank r):
   soft = at least one wild card stands in (its own rank != r); hard = four natural cards of
   a non-wild r; wild = the four wild cards of one wild rank (rule 4 forces them to stand for
   themselves). Consequences: a bomb of a wild rank is always the wild bomb (other cards that
   could stand for it are wild too, and an only-wild move stands for itself), so soft bombs
   are never of a wild rank; a hard bomb holds no wild card.
7. Same cards, bomb and non-bomb: distinct moves, since the kinds differ. With 7 wild ``5557``
   is both the soft bomb of 5s (7 as 5) and the trio_solo 555+7 (7 as itself, or as any rank
   but 5); ``5777`` is the soft bomb of 5s and trio_solos of every rank (777 as ttt + 5 for
   t != 5, and 5+77 as 555 with the last 7 as the kicker).
8. Kicker and wing rules are those of profile ``standard`` applied to the SUBSTITUTED reading:
   trio_solo's single of another rank than the trio (a wild kicker standing for the trio's rank
   would make a bomb instead); no both-jokers among kickers / wings; no four of a rank among
   solo wings (even if some are wild standing in); a wing trio just below the chain's start or
   just above its end (never 2) is not allowed. The rule is checked per substitution, so the
   same cards may still be a plane through another substitution: with 6 wild, ``333444555666``
   is the four-trio chain (666 as itself) and the plane 345 with
   the wings 666 standing for e.g. 6,6,7 (a wing pair plus one card, allowed).
9. The four of four_two_solo / four_two_pair may be made up with wild cards; it is not a bomb
   (class ``none``); ``7777`` + two cards (7 wild) is a four_two_solo of every rank it can be.
10. Comparing (:func:`beats`): non-bombs as classic (same kind, same length, same number of
    cards, higher rank). A bomb beats every non-bomb; bombs compare by class first
    ``soft < hard < wild < rocket`` and then within a class by rank (two wild bombs under
    ``wilds=2`` by rank). Equal class and rank: neither beats the other.
11. Canonical substitution (display only; the kernel must produce the same): among all
    substitutions that give the move's identity, the one with the FEWEST wild cards standing in
    (so a wild card stands for its own rank whenever it can), ties broken by the
    lexicographically smallest sorted tuple of ``(wild_rank, stands_for)`` pairs (so the
    lower wild rank's cards first, each standing for the lowest rank it can).
    E.g. 7 wild: ``5557`` soft bomb -> ((4, 2),) (the 7 as 5), its trio_solo -> ((4, 4),)
    (the 7 as itself); ``777B`` trio_solo of 3s -> ((4, 0),) * 3; 6 wild, plane 345 + ``666``
    -> ((3, 3), (3, 3), (3, 4)) (two as 6, one as 7: 666 as wings would be a trio next to 5).
12. Moves hold at most 20 cards (classic max_move), counted as they leave the hand.

Cost: :func:`readings` tries C(12 + k, k) substitutions per wild rank for k wild cards of it
(1820 for four); :func:`leading_moves` does that for every sub-multiset of the hand, so keep
brute-force hands small (a dozen cards). For big hands, filter the move universe of
:mod:`tests.reference.laizi_universe` by the hand (the two are cross-checked there and in
``test_laizi_oracle.py``); its docstring holds the universe counts of the 13 wild ranks.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import fastdou
from tests.reference import oracle
from tests.reference.oracle import _readings as _classic_readings, cards_from_str, cards_to_str

N = oracle.N             # 15 ranks
SJ = oracle.SJ           # 13
BJ = oracle.BJ           # 14
TWO = oracle.TWO         # 12
TOKENS = oracle.TOKENS
CLASSIC = fastdou.rules("classic")          # profile standard
DECK = tuple(int(c) for c in CLASSIC.deck)  # 4 x 13, 1, 1
MAX_MOVE = CLASSIC.max_move                 # 20

BOMB_CLASSES = ("none", "soft", "hard", "wild", "rocket")
_CLASS_ORDER = {"soft": 0, "hard": 1, "wild": 2, "rocket": 3}

__all__ = ["BOMB_CLASSES", "CLASSIC", "beats", "bomb_class", "cards_from_str", "cards_to_str",
           "is_bomb", "leading_moves", "norm_wilds", "readings", "readings_with_substitutions",
           "responses", "substitution", "text"]


def norm_wilds(wilds) -> tuple:
    """An int or an iterable of distinct rank indices 0..12 (at most two) -> sorted tuple."""
    if isinstance(wilds, int):
        wilds = (wilds,)
    out = tuple(sorted(int(w) for w in wilds))
    if len(out) > 2 or len(set(out)) != len(out) or any(not 0 <= w <= TWO for w in out):
        raise ValueError(f"wild ranks must be one or two distinct ranks 3..2, got {wilds!r}")
    return out


def bomb_class(kind, rank, cards, stand_ins, wilds) -> str:
    """The class of a reading: ``stand_ins`` is how many wild cards stand for a rank other
    than their own in the substitution that produced it."""
    if kind == "ROCKET":
        return "rocket"
    if kind != "BOMB":
        return "none"
    if stand_ins:
        return "soft"
    if rank in wilds:                 # no stand-in, a bomb of a wild rank: its 4 wild cards
        return "wild"
    return "hard"


def _substitutions(cards, wilds):
    """Every substitution of the wild cards of ``cards``: yields (substituted multiset,
    sorted tuple of (wild_rank, stands_for) pairs, number of stand-ins)."""
    natural = list(cards)
    for w in wilds:
        natural[w] = 0
    if sum(natural) == 0:             # only wild cards: each stands for its own rank (rule 4)
        pairs = tuple((w, w) for w in wilds for _ in range(cards[w]))
        yield tuple(cards), pairs, 0
        return
    per_wild = [itertools.combinations_with_replacement(range(TWO + 1), cards[w])
                for w in wilds]
    for choice in itertools.product(*per_wild):
        sub = list(natural)
        pairs = []
        stand_ins = 0
        for w, targets in zip(wilds, choice):
            for t in targets:
                sub[t] += 1
                pairs.append((w, t))
                stand_ins += t != w
        if max(sub) > 4:              # beyond one deck: the classic reading rejects it (rule 5)
            continue
        yield tuple(sub), tuple(pairs), stand_ins


@lru_cache(maxsize=1 << 18)
def _readings_map(cards, wilds):
    """{move: canonical substitution} for ``cards`` played whole (see the module docstring)."""
    if len(cards) != N or any(c < 0 or c > d for c, d in zip(cards, DECK)):
        return {}
    n = sum(cards)
    if n == 0 or n > MAX_MOVE:
        return {}
    best = {}
    for sub, pairs, stand_ins in _substitutions(cards, wilds):
        for kind, rank, length in _classic_readings(sub, CLASSIC):
            move = (cards, kind, rank, length, bomb_class(kind, rank, cards, stand_ins, wilds))
            key = (stand_ins, pairs)
            if move not in best or key < best[move][0]:
                best[move] = (key, pairs)
    return {m: p for m, (_, p) in best.items()}


def readings_with_substitutions(cards, wilds) -> dict:
    """``{move: canonical substitution}`` of every move ``cards`` (played whole) can be."""
    return dict(_readings_map(tuple(int(c) for c in cards), norm_wilds(wilds)))


def readings(cards, wilds) -> set:
    """Every distinct move ``(cards, kind_name, rank, length, bomb_class)`` one multiset can be
    played as (empty set when it is no move)."""
    return set(_readings_map(tuple(int(c) for c in cards), norm_wilds(wilds)))


def substitution(move, wilds) -> tuple:
    """The canonical substitution of ``move``: a sorted tuple of ``(wild_rank, stands_for)``,
    one per wild card it holds (rule 11). KeyError if ``move`` is no move under ``wilds``."""
    return _readings_map(tuple(int(c) for c in move[0]), norm_wilds(wilds))[tuple(move)]


def text(move, wilds) -> str:
    """Display form: the cards low to high, then in parentheses what each wild card stands for
    (in the order of the pairs of :func:`substitution`) when at least one stands in:
    ``5557(5)``; ``5557`` for the trio_solo."""
    pairs = substitution(move, wilds)
    body = cards_to_str(move[0])
    if all(w == t for w, t in pairs):
        return body
    return body + "(" + "".join(TOKENS[t] for _, t in pairs) + ")"


# ---------------------------------------------------------------------------- move lists
def leading_moves(hand, wilds) -> set:
    """Every move the hand can lead (pass excluded): each non-empty sub-multiset of at most 20
    cards, once per distinct move."""
    hand = tuple(int(c) for c in hand)
    wilds = norm_wilds(wilds)
    moves = set()
    for sub in itertools.product(*[range(c + 1) for c in hand]):
        size = sum(sub)
        if size == 0 or size > MAX_MOVE:
            continue
        moves.update(_readings_map(sub, wilds))
    return moves


def is_bomb(move) -> bool:
    return move[1] in ("BOMB", "ROCKET")


def beats(a, b, soft_below_hard=True) -> bool:
    """Does move ``a`` beat move ``b``? (rule 10; both are 5-tuples). With
    ``soft_below_hard=False`` (the rules field) soft and hard bombs compare by rank, and a
    hard bomb beats a soft one of its rank."""
    a_bomb, b_bomb = is_bomb(a), is_bomb(b)
    if a_bomb and not b_bomb:
        return True
    if b_bomb and not a_bomb:
        return False
    if a_bomb and b_bomb:
        if not soft_below_hard and {a[4], b[4]} <= {"soft", "hard"}:
            return (a[2], _CLASS_ORDER[a[4]]) > (b[2], _CLASS_ORDER[b[4]])
        return (_CLASS_ORDER[a[4]], a[2]) > (_CLASS_ORDER[b[4]], b[2])
    return oracle.beats(a[:4], b[:4], CLASSIC)     # same kind, length, card count; higher rank


def responses(hand, last, wilds, soft_below_hard=True) -> set:
    """The leading moves of ``hand`` that beat the move ``last`` (pass excluded)."""
    return {m for m in leading_moves(hand, wilds) if beats(m, last, soft_below_hard)}
