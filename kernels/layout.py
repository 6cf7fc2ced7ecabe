"""Integer layout shared by every kernel: ranks, kinds, move records, the rules array.

Everything here is a plain ``int`` constant or a small read-only table (``KINDS``,
``BIDDING_MODES``, ``DOUBLING_MODES``), so Numba folds it into compiled code; and
:func:`packed`, the packing written once for Python callers.

Cards
    A count vector over 15 ranks packs into one ``uint64``: rank ``r`` holds its count in
    bits ``4r .. 4r+3`` (two decks need at most 8 copies, so 4 bits suffice). Subtracting a
    move from a hand is one integer subtraction.

Move records
    A move is a row of a ``uint64`` array of shape ``(n, 2)``: column ``REC_CARDS`` is the
    packed cards, column ``REC_INFO`` is ``kind | rank << 8 | length << 16``. ``rank`` is the
    rank the move is compared by (a chain's top rank, a plane's top trio, a rocket's highest
    joker); ``length`` is the chain length (1 for a kind that is not a chain).

Rules
    A rules object lowers to an ``int64`` array of ``RULES_SIZE`` entries indexed by the
    ``R_*`` constants below; every kernel takes it as an argument.
"""

import numpy as np

N_RANKS = 15
COUNT_BITS = 4         # bits of one rank's count in a packed multiset
COUNT_MASK = 15        # (1 << COUNT_BITS) - 1: the largest count a rank can pack
MAX_DECK = 108         # cards of two decks, the most a deck can hold
SMALL_JOKER = 13
BIG_JOKER = 14
RANK_2 = 12
ACE = 11

# Kinds (docs/rules.md §2). PASS is not a kind of play; it marks "no move".
PASS = 0
SOLO = 1
PAIR = 2
TRIO = 3
TRIO_SOLO = 4
TRIO_PAIR = 5
SOLO_CHAIN = 6
PAIR_CHAIN = 7
TRIO_CHAIN = 8
PLANE_SOLO = 9
PLANE_PAIR = 10
FOUR_TWO_SOLO = 11
FOUR_TWO_PAIR = 12
BOMB = 13
ROCKET = 14
QUAD = 15
QUAD_CHAIN = 16
QUAD_TRIO = 17
CARRIER = 18
DRESS = 19
SPACESHIP = 20
N_KINDS = 21

# Move record columns and info-word fields.
REC_CARDS = 0
REC_INFO = 1
REC_WIDTH = 2
INFO_RANK_SHIFT = 8
INFO_LENGTH_SHIFT = 16
INFO_FIELD_MASK = 255  # each of kind, rank and length is one byte of the info word

# Rules array indices.
R_DECKS = 0            # 1 or 2
R_KINDS = 1            # bit k set: kind k (not BOMB/ROCKET) is enabled
R_SOLO_CHAIN_MIN = 2
R_PAIR_CHAIN_MIN = 3
R_TRIO_CHAIN_MIN = 4
R_QUAD_CHAIN_MIN = 5
R_CHAIN_LOW = 6        # lowest rank index a chain may use
R_CHAIN_HIGH = 7       # highest rank index a chain may use (A = 11)
R_ROCKET_KICKERS = 8   # both jokers may sit among solo kickers / wings
R_BOMB_WINGS = 9       # four (or more) of a rank may sit among solo wings
R_WING_TRIO = 10       # WING_TRIO_* below
R_JOKER_PAIRS = 11     # two identical jokers form a pair
R_BOMB_MIN = 12        # smallest rank bomb (0: no rank bombs)
R_BOMB_MAX = 13
R_BOMB_ORDER = 14      # BOMB_ORDER_* below
R_JOKER_BOMBS = 15     # JOKER_BOMBS_* below
R_MAX_MOVE = 16        # most cards one move may hold
R_DECK = 17            # packed count vector of the full deck
# Game flow (the engine; docs/rules.md §4).
R_PLAYERS = 18
R_HAND_SIZE = 19
R_KITTY = 20
R_KITTY_TO_LANDLORD = 21
R_BIDDING = 22         # BIDDING_* below
R_MAX_REDEALS = 23     # deals in a row with no landlord before the hand is void
R_DOUBLING = 24        # DOUBLING_* below
R_MAX_GRABS = 25
R_HANDICAP = 26        # two_player: each grab lets the farmer win with one more card left
R_SPRING = 27          # 1: a spring or anti-spring doubles the multiplier
R_SCORING = 28         # SCORING_* below
R_BOMB_FACTOR = 29     # R_BOMB_FACTOR + s: multiplier of a rank bomb of s cards (s = 0..8)
R_JOKER_FACTOR = 38    # multiplier of a joker bomb (rocket, king bomb, five_player's)
R_JOKER_SOLOS = 39     # a lone joker may be played as a solo
R_MAX_BID = 40         # the highest bid of score bidding
R_KITTY_TRUMP = 41     # the first non-joker kitty card names a trump suit (jinling)
R_CARD_POINTS = 42     # R_CARD_POINTS + r: points of a card of rank r (points scoring)
R_KITTY_SHOWN = R_CARD_POINTS + N_RANKS  # every seat sees the kitty the landlord takes
R_ANTI_SPRING_PLAYS = R_KITTY_SHOWN + 1  # the landlord side's plays in a farmers' anti-spring
# Entries derived from those above (``answer_counts.answer_fields``, which ``Rules.array`` calls):
# what counting a response would otherwise work out again for every position.
R_BOMBS_CLOSED = R_ANTI_SPRING_PLAYS + 1  # 1: every bomb of a hand has a closed form
R_PAIR_TOPS = R_BOMBS_CLOSED + 1   # the ranks that pair, as nibble top bits (bit 4r + 3)
R_ANSWER_RANKS = R_PAIR_TOPS + 1   # + kind: the ranks its core may use, as nibble top bits,
#                                    when counted in one pass; -1: counted apart; 0: disabled
# Wild cards (RULES.md §4.8; 0 in every rules without them).
R_WILDS = R_ANSWER_RANKS + N_KINDS  # how many ranks are wild (0, 1 or 2); which, the game draws
R_SOFT_BELOW_HARD = R_WILDS + 1    # 1: every soft bomb is below every hard bomb; 0: by rank
R_SOFT_FACTOR = R_WILDS + 2        # multiplier of a soft bomb
R_WILD_FACTOR = R_WILDS + 3        # multiplier of a wild bomb (four wild cards)
RULES_SIZE = R_WILDS + 4

# The kinds table: one row per kind, read by the generator and its counting twin, ``beats``,
# the policies and the Python tables (fastdou.kinds, fastdou.moves). A kind's moves hold, for
# each rank of its core (one rank, or each link of a chain), K_CORE cards of that rank and
# K_KICKERS attached cards (wings, kickers); a chain's least length is the rules entry named
# by K_CHAIN_MIN. Bombs (K_BOMB) are sized and ordered by the rules (``generate.bomb_power``).
# A new kind is one row here plus its case in ``generate.emit`` and ``counting.count_moves``.
K_CORE = 0             # cards of each core rank (0: a bomb, sized by the rules)
K_KICKERS = 1          # attached cards per core rank
K_CHAIN_MIN = 2        # R_* index of the least chain length; -1: not a chain
K_BOMB = 3             # 1: a bomb, which beats every non-bomb
K_FIELDS = 4

_KIND_ROWS = (
    # kind           name             core kickers chain minimum    bomb
    (PASS,           "PASS",           0,   0,     -1,                0),
    (SOLO,           "SOLO",           1,   0,     -1,                0),
    (PAIR,           "PAIR",           2,   0,     -1,                0),
    (TRIO,           "TRIO",           3,   0,     -1,                0),
    (TRIO_SOLO,      "TRIO_SOLO",      3,   1,     -1,                0),
    (TRIO_PAIR,      "TRIO_PAIR",      3,   2,     -1,                0),
    (SOLO_CHAIN,     "SOLO_CHAIN",     1,   0,     R_SOLO_CHAIN_MIN,  0),
    (PAIR_CHAIN,     "PAIR_CHAIN",     2,   0,     R_PAIR_CHAIN_MIN,  0),
    (TRIO_CHAIN,     "TRIO_CHAIN",     3,   0,     R_TRIO_CHAIN_MIN,  0),
    (PLANE_SOLO,     "PLANE_SOLO",     3,   1,     R_TRIO_CHAIN_MIN,  0),
    (PLANE_PAIR,     "PLANE_PAIR",     3,   2,     R_TRIO_CHAIN_MIN,  0),
    (FOUR_TWO_SOLO,  "FOUR_TWO_SOLO",  4,   2,     -1,                0),
    (FOUR_TWO_PAIR,  "FOUR_TWO_PAIR",  4,   4,     -1,                0),
    (BOMB,           "BOMB",           0,   0,     -1,                1),
    (ROCKET,         "ROCKET",         0,   0,     -1,                1),
    (QUAD,           "QUAD",           4,   0,     -1,                0),
    (QUAD_CHAIN,     "QUAD_CHAIN",     4,   0,     R_QUAD_CHAIN_MIN,  0),
    (QUAD_TRIO,      "QUAD_TRIO",      4,   3,     -1,                0),
    (CARRIER,        "CARRIER",        4,   3,     R_QUAD_CHAIN_MIN,  0),
    (DRESS,          "DRESS",          4,   5,     -1,                0),
    (SPACESHIP,      "SPACESHIP",      4,   3,     R_QUAD_CHAIN_MIN,  0),   # + a trio chain
)
KIND_NAMES = tuple(row[1] for row in _KIND_ROWS)
KINDS = np.array([row[2:] for row in _KIND_ROWS], np.int64)   # KINDS[kind, K_*]
KINDS.flags.writeable = False
CHAIN_KINDS = tuple(row[0] for row in _KIND_ROWS if row[4] >= 0)   # in kind order

BIDDING_SCORE = 0        # bid 1..3 round the table until players-1 pass after the last bid
BIDDING_SCORE_ONCE = 1   # one round of bids 1..3; 3 ends at once (four_player)
BIDDING_CALL = 2         # each in turn calls or not; the first call ends it
BIDDING_CALL_GRAB = 3    # call, then alternate grabs (two_player)
BIDDING_MARKED = 4       # the marked card names bright and dark landlords (five_player)

DOUBLING_NONE = 0
DOUBLING_FARMERS = 1     # each farmer may double; then the landlord may redouble
DOUBLING_LANDLORD = 2    # the landlord may double
DOUBLING_EVERYONE = 3    # every player may double once

# The modes table: the actions each landlord-selection (BIDDING_*) and doubling (DOUBLING_*)
# mode offers, read by the engine and fastdou.actions (the action table's names). A new mode
# is one row here plus its case in ``engine._bid`` / ``engine._double``.
M_BIDS = 0             # BIDDING_*: the bids are scores 1..R_MAX_BID
M_CALL = 1             # BIDDING_*: a yes/no call
M_GRAB = 2             # BIDDING_*: after a call the other seat may grab
M_REVEAL = 3           # BIDDING_*: no bidding; the landlords the marked card names may reveal
BIDDING_MODES = np.array([
    # bids call grab reveal
    (1,    0,   0,   0),   # BIDDING_SCORE
    (1,    0,   0,   0),   # BIDDING_SCORE_ONCE
    (0,    1,   0,   0),   # BIDDING_CALL
    (0,    1,   1,   0),   # BIDDING_CALL_GRAB
    (0,    0,   0,   1),   # BIDDING_MARKED
], np.int64)
BIDDING_MODES.flags.writeable = False
D_FARMERS = 0          # DOUBLING_*: the farmers may double
D_LANDLORD = 1         # DOUBLING_*: the landlord may double
D_ANSWER = 2           # DOUBLING_*: the landlord only answers a farmer's double (redoubles)
DOUBLING_MODES = np.array([
    # farmers landlord answer
    (0,       0,       0),   # DOUBLING_NONE
    (1,       1,       1),   # DOUBLING_FARMERS
    (0,       1,       0),   # DOUBLING_LANDLORD
    (1,       1,       0),   # DOUBLING_EVERYONE
], np.int64)
DOUBLING_MODES.flags.writeable = False

SCORING_LANDLORD = 0     # landlord +-(players-1) x base x mult, each farmer -+ base x mult
SCORING_TEAM = 1         # each winner +base x mult; the losers share paying it
SCORING_POINTS = 2       # jinling: card points left in hand

WING_TRIO_NEVER = 0
WING_TRIO_NOT_ADJACENT = 1
WING_TRIO_ANYWHERE = 2

BOMB_ORDER_SIZE_RANK = 0   # more cards first, then rank
BOMB_ORDER_RANK = 1        # rank alone (jinling's trio bombs and lone jokers)

JOKER_BOMBS_NONE = 0
JOKER_BOMBS_ALL = 1    # only every joker of the deck together: the rocket / king bomb, on top
JOKER_BOMBS_ANY = 2    # any J >= 2 jokers; beats rank bombs of up to 2J cards (five_player)
JOKER_BOMBS_LONE = 3   # each lone joker is a bomb above every rank bomb (jinling)


def packed(counts) -> int:
    """The packed ``uint64`` form of 15 counts (bits ``4r .. 4r+3`` for rank ``r``), as a
    Python int; the counts are not checked here."""
    return sum(int(c) << (COUNT_BITS * r) for r, c in enumerate(counts))


# Wild cards (RULES.md §4.8): the bomb class of a wild-card reading, bits 24..31 of its info word.
BOMB_CLASS_NONE = 0      # every non-bomb kind (four_two_* included)
BOMB_CLASS_SOFT = 1      # a bomb holding a wild card standing in for another rank
BOMB_CLASS_HARD = 2      # four natural cards of a rank that is not wild
BOMB_CLASS_WILD = 3      # the four wild cards of one wild rank
BOMB_CLASS_ROCKET = 4    # both jokers
INFO_CLASS_SHIFT = 24
