"""Layout of a game state: one ``int64`` array of ``STATE_SIZE`` entries, indexed by the
``G_*`` constants. Packed hands are stored as int64 (they use 60 bits). Copying the array
copies the game; nothing else holds game state.

The state carries the rules it is played under: entries ``G_RULES ..`` hold a copy of the
rules array (:mod:`fastdou.kernels.layout`), written by every engine function that starts a
hand (``engine.start``, ``start_from_hands``, ``start_dealt``,
``position_state.state_of_position``); :func:`state_rules` gives a policy that view. The
rules are public: a policy reading them reads nothing its seat may not know.

Scores are kept in units of 1/``SCORE_UNIT`` point, so that five_player's shared
payments stay whole numbers and sums never depend on the order they are added in.
"""

from fastdou.kernels.jit import inline_nrt_kernel
from fastdou.kernels.layout import RULES_SIZE

# Phases.
PH_BID = 0        # bidding, calling or grabbing (depends on R_BIDDING)
PH_REVEAL = 1     # five_player: bright, then dark landlord may reveal
PH_DOUBLE = 2     # doubling (depends on R_DOUBLING)
PH_PLAY = 3
PH_DONE = 4

# What G_SPRING records when a hand ends.
SPRUNG_NONE = 0
SPRUNG_SPRING = 1   # the landlord side won and the others never played (a spring)
SPRUNG_ANTI = 2     # the others won and the landlord side played only its first lead

# Sides of the result.
SIDE_LANDLORD = 0
SIDE_FARMERS = 1
SIDE_VOID = 2     # no landlord after the last allowed redeal
SIDE_NONE = -1    # not finished

MAX_PLAYERS = 8
SCORE_UNIT = 420   # lcm(1..7): a payment shared by up to 7 losers stays whole
MAX_REDEALS_CAP = 1000  # deals in a row with no landlord before a hand is void, whatever
#                        the rules say: a safety net for policies that never take the landlord

G_PHASE = 0
G_PLAYER = 1        # whose turn
G_FIRST = 2         # first bidder (dealer's left in jinling)
G_LANDLORD = 3      # the landlord (five_player: the bright landlord); -1 before it is known
G_PARTNER = 4       # five_player's dark landlord (-1: none or lone landlord)
G_BID = 5           # the current / winning bid: the base score
G_BIDDER = 6        # the current highest bidder, caller or grabber (-1: none)
G_TURNS = 7         # actions taken in the current phase (play: passes included)
G_PASSES = 8        # consecutive passes (bidding and play)
G_REDEALS = 9       # deals redone because nobody took the landlord
G_GRABS = 10
G_MULT = 11         # the multiplier so far
G_BOMBS = 12        # rank bombs played (jinling: trio and lone-joker bombs too)
G_ROCKETS = 13      # joker bombs played
G_DOUBLES = 14      # doubles and redoubles made
G_REVEALS = 15
G_SPRING = 16       # SPRUNG_* of the finished hand
G_LAST_CARDS = 17   # the move to beat (0 and PASS info when leading)
G_LAST_INFO = 18
G_LAST_PLAYER = 19  # who made it (-1: nobody yet)
G_PLAYS = 20        # non-pass plays
G_ACTIONS = 21      # every action of the hand, passes and bids included
G_TEAM = 22         # bit mask of the landlord side's seats
G_WINNER = 23       # SIDE_* of the finished hand
G_OUT = 24          # the seat that ended the hand
G_SEED = 25
G_DEAL = 26         # deal index
G_MARKED = 27       # five_player: the marked card (rank * 4 + suit), -1 otherwise
N_SUITED_RANKS = 13  # ranks 3 .. 2 have suits; the jokers do not
G_TRUMP = 28        # jinling: the trump suit (0..3), -1 otherwise
G_DECLINED = 29     # bit mask: players who declined to call (call modes)
G_TEAM_PLAYS = 30   # plays made by the landlord side
G_OTHER_PLAYS = 31  # plays made by the other side
G_KITTY = 32        # packed kitty
G_HANDS = 33        # G_HANDS + seat: packed hand
G_SCORES = G_HANDS + MAX_PLAYERS   # G_SCORES + seat: score change in SCORE_UNITs
G_DOUBLED = G_SCORES + MAX_PLAYERS  # bit mask: players who doubled (doubling phase)
G_BOMB_SIZES = G_DOUBLED + 1  # rank bombs by size: size k counted in 7 bits at bit 7 * (k - 1)
BOMB_SIZE_BITS = 7
# What each seat may see of the play (observations, fastdou.kernels.encoding).
G_PARTNER_KNOWN = G_BOMB_SIZES + 1  # five_player: 1 once the dark landlord is known
G_PLAYED = G_PARTNER_KNOWN + 1      # G_PLAYED + seat: packed cards the seat has played
G_SEAT_LAST = G_PLAYED + MAX_PLAYERS  # G_SEAT_LAST + 2 seat (+1): cards, info of the seat's
#                                      last play-phase action (info 0 a pass, -1 none yet)
G_SEAT_FIRST = G_SEAT_LAST + 2 * MAX_PLAYERS  # the same for the seat's first one
HISTORY_LEN = 16    # play-phase actions kept: action t (G_TURNS counts them) at slot t % 16
G_HISTORY = G_SEAT_FIRST + 2 * MAX_PLAYERS  # G_HISTORY + 3 slot (+0, +1, +2): cards, info, seat
NO_ACTION = -1      # the info of a seat that has not acted in play yet
G_WILDS = G_HISTORY + 3 * HISTORY_LEN   # bit mask of the wild ranks: drawn when play opens
G_RULES = G_WILDS + 1   # G_RULES + i: entry i of the rules array
N_RULE_FIELDS = RULES_SIZE
STATE_SIZE = G_RULES + N_RULE_FIELDS


@inline_nrt_kernel
def state_rules(state):
    """The rules array ``state`` is played under, as a view (read it, never write it): what
    a policy, which is given no rules, reads them from. Inlined, so that the view is taken
    with its caller's reference counting (a leaf takes none)."""
    return state[G_RULES:G_RULES + N_RULE_FIELDS]
