"""fastdou's numeric observation of one seat, for every preset (docs/rules.md §10.2).

``encode(state, rules, seat, out)`` writes what ``seat`` may know into ``out`` (``int8``, of
``encoding_size(rules)`` entries, zeroed first). Seats are written relative to the observer:
slot ``k`` is seat ``(seat + k) % players``, so slot 0 is the observer itself. A *card
plane* has one entry per card of the deck: rank by rank, ``deck[r]`` entries for rank ``r``,
the first ``count`` of them set. Blocks, in order (``encoding_blocks`` gives their offsets):

====================  ======================================================================
hand                  card plane: the observer's cards
played                ``players`` card planes: the cards each seat has played
unseen                card plane: the deck less the observer's hand and every card played
kitty                 card plane: the kitty, where the observer may see it (else zeros)
cards_left            ``players`` one-hots over 0 .. the most cards a seat holds
last_move             card plane + one-hot kind (``N_KINDS``) + one-hot seat: the move to beat
                      (at the end: the last move)
history               ``HISTORY_LEN`` rows, oldest first, of card plane + one-hot seat + pass
phase                 one-hot over bid, reveal, double, play, done
to_act                one-hot seat to act
landlord              one-hot landlord (zeros before it is known)
partner               one-hot dark landlord, once the observer may know it (five_player)
bid                   one-hot base score 0 .. max_bid
multiplier            one-hot log2 of the multiplier, 0 .. 15 (larger: 15)
doubled               one flag per seat that doubled
trump                 one-hot trump suit (jinling)
wild                  the wild ranks 3..2, once play has drawn them (13 entries; none without
                      wild cards)
last_rank             one-hot compared-by rank of the move to beat (15 entries; none without
                      wild cards, where cards and kind alone may read as two moves)
====================  ======================================================================

Over the standard 54-card deck a card plane is one vector compare, written whole
(:func:`standard_plane_store`); other decks are written rank by rank (:func:`put_cards`).
"""

import numpy as np
from llvmlite import ir
from numba import literally, types
from numba.extending import intrinsic

from fastdou.kernels.jit import first_class_leaf, inline_leaf, leaf, nrt_kernel
from fastdou.kernels.layout import (COUNT_BITS, COUNT_MASK, N_KINDS, R_DECK, R_HAND_SIZE,
                                    R_KITTY, R_KITTY_SHOWN, R_KITTY_TO_LANDLORD, R_MAX_BID,
                                    R_PLAYERS, R_WILDS)
from fastdou.kernels.moves import kind_of, rank_of
from fastdou.kernels.packing import size
from fastdou.kernels.state import (G_BID, G_DOUBLED, G_HANDS, G_HISTORY, G_KITTY, G_LANDLORD,
                                   G_LAST_CARDS, G_LAST_INFO, G_LAST_PLAYER, G_MULT, G_PARTNER,
                                   G_PARTNER_KNOWN, G_PHASE, G_PLAYED, G_PLAYER, G_TRUMP,
                                   G_TURNS, G_WILDS, HISTORY_LEN, PH_DONE, PH_PLAY)

N_PHASES = PH_DONE + 1
MULT_SLOTS = 16
SUITS = 4
N_BLOCKS = 17
WILD_RANKS = 13
RANKS = 15
_NIBBLE = np.uint64(COUNT_MASK)   # one rank's count in a packed hand
_FOUR = np.uint64(COUNT_BITS)
# the four entries of a rank holding 0 .. 4 cards, as one little-endian word
_HELD_WORDS = (np.uint64(0), np.uint64(0x1), np.uint64(0x101), np.uint64(0x10101),
               np.uint64(0x1010101))


@leaf
def card_plane_size(rules):
    """Entries of a card plane: the cards of the deck."""
    return size(np.uint64(rules[R_DECK]))


@leaf
def block_offsets(rules):
    """The offset of each block (the order of the module docstring) and, last, the size, as
    a tuple (no allocation: the encoder calls it every time)."""
    n = rules[R_PLAYERS]
    c = card_plane_size(rules)
    most = rules[R_HAND_SIZE] + (rules[R_KITTY] if rules[R_KITTY_TO_LANDLORD] else 0)
    played = c
    unseen = played + n * c
    kitty = unseen + c
    left = kitty + c
    last = left + n * (most + 1)
    history = last + c + N_KINDS + n
    phase = history + HISTORY_LEN * (c + n + 1)
    to_act = phase + N_PHASES
    landlord = to_act + n
    partner = landlord + n
    bid = partner + n
    mult = bid + rules[R_MAX_BID] + 1
    doubled = mult + MULT_SLOTS
    trump = doubled + n
    wild = trump + SUITS
    last_rank = wild + (WILD_RANKS if rules[R_WILDS] else 0)
    return (0, played, unseen, kitty, left, last, history, phase, to_act, landlord, partner,
            bid, mult, doubled, trump, wild, last_rank,
            last_rank + (RANKS if rules[R_WILDS] else 0))


@nrt_kernel
def encoding_blocks(rules):
    """:func:`block_offsets` as an array of ``N_BLOCKS + 1`` entries."""
    return np.array(block_offsets(rules), np.int64)


@leaf
def encoding_size(rules):
    """Entries of one seat's encoding."""
    return block_offsets(rules)[N_BLOCKS]


@intrinsic
def _store4(typingctx, out, at, bits):
    """``out[at:at + 4] = `` the four low bytes of ``bits`` (``out``: an ``int8`` array with
    room for them), as one unaligned 32-bit store."""
    sig = types.void(out, at, bits)

    def codegen(context, builder, signature, args):
        array, index, value = args
        data = context.make_array(signature.args[0])(context, builder, array).data
        word = builder.bitcast(builder.gep(data, [index]), ir.IntType(32).as_pointer())
        builder.store(builder.trunc(value, ir.IntType(32)), word).align = 1
        return context.get_dummy_value()
    return sig, codegen


@leaf
def put_cards(out, at, cards, rules):
    """Write the card plane of packed ``cards`` at ``out[at:]``; returns the offset after it.
    ``out[at:]`` must hold zeros: only the ranks up to the highest one ``cards`` holds are
    written (a rank of four entries as one little-endian 4-byte word)."""
    deck = np.uint64(rules[R_DECK])
    end = at + size(deck)
    cards = np.uint64(cards)
    while cards != 0:
        width = np.int64(deck & _NIBBLE)
        held = np.int64(min(cards & _NIBBLE, deck & _NIBBLE))
        if width == 4:
            _store4(out, at, _HELD_WORDS[held])
        else:
            for j in range(held):
                out[at + j] = 1
        at += width
        deck >>= _FOUR
        cards >>= _FOUR
    return end


# The standard 54-card deck: ranks 3 .. 2 of four cards each, one of each joker.
STANDARD_DECK = 0x114444444444444
# Entry j of its card plane is set when rank _LANE_RANK[j] holds more than _LANE_MORE[j]
# cards: when byte _LANE_RANK[j] // 2 of the packed cards, masked to the rank's nibble, is
# above _LANE_LIMIT[j] (a high nibble h > m is a byte h * 16 > m * 16 + 15). The entries of
# the 64-byte vector past the plane's 54 are never set (mask 0).
_PLANE = 54
_LANE_RANK = [j // 4 for j in range(52)] + [13, 14] + [0] * 10
_LANE_MORE = [j % 4 for j in range(52)] + [0, 0] + [0] * 10
_LANE_MASK = [0xF0 if r % 2 else 0x0F for r in _LANE_RANK[:_PLANE]] + [0] * 10
_LANE_LIMIT = [m * 16 + 15 if r % 2 else m for r, m in zip(_LANE_RANK, _LANE_MORE)]


_PLANE_DTYPES = (types.int8, types.uint8, types.float32)


def plane_storable(array):
    """Whether :func:`standard_plane_store` takes ``array`` (a Numba type): C-contiguous
    ``int8``, ``uint8`` or ``float32``."""
    return isinstance(array, types.Array) and array.layout == "C" and \
        array.dtype in _PLANE_DTYPES


@intrinsic
def standard_plane_store(typingctx, out, at, cards):
    """``out[at:at + 54] = `` the standard deck's card plane of packed ``cards`` (``out``:
    see :func:`plane_storable`, with room for it), with vector operations: each byte of a
    64-byte vector picks its rank's byte of ``cards``, masks its nibble and compares it with
    the entry's limit; the 54 entries (zeros too) are stored as 32 + 16 + 4 + 2."""
    if not plane_storable(out):
        return None
    sig = types.void(out, at, cards)

    def codegen(context, builder, signature, args):
        array, index, word = args
        data = context.make_array(signature.args[0])(context, builder, array).data
        i8, i32 = ir.IntType(8), ir.IntType(32)
        v8, v64 = ir.VectorType(i8, 8), ir.VectorType(i8, 64)
        vec = builder.bitcast(word, v8)
        picks = builder.shuffle_vector(vec, ir.Constant(v8, None), ir.Constant(
            ir.VectorType(i32, 64), [r // 2 for r in _LANE_RANK]))
        nibbles = builder.and_(picks, ir.Constant(v64, _LANE_MASK))
        held = builder.icmp_unsigned(">", nibbles, ir.Constant(v64, _LANE_LIMIT))
        element = context.get_data_type(signature.args[0].dtype)
        bits = builder.uitofp(held, ir.VectorType(element, 64)) \
            if signature.args[0].dtype == types.float32 else builder.zext(held, v64)
        base = builder.gep(data, [index])
        at_ = 0
        for width in (32, 16, 4, 2):
            part = builder.shuffle_vector(bits, bits, ir.Constant(
                ir.VectorType(i32, width), list(range(at_, at_ + width))))
            ptr = builder.bitcast(builder.gep(base, [ir.Constant(ir.IntType(64), at_)]),
                                  ir.VectorType(element, width).as_pointer())
            builder.store(part, ptr).align = 1
            at_ += width
        return context.get_dummy_value()
    return sig, codegen


@inline_leaf            # inlined: a call with a literal ``at`` would compile once more
def _standard_plane(out, at, cards, rules):
    """``put_cards`` over the standard deck, the whole plane (zeros too)."""
    standard_plane_store(out, at, np.uint64(cards))
    return at + _PLANE


@leaf
def _plane(out, at, cards, rules, standard):
    """``put_cards``, or ``_standard_plane`` when ``standard`` (a literal, so that the call
    compiles to the one function and inlines)."""
    literally(standard)
    if standard:
        return _standard_plane(out, at, cards, rules)
    return put_cards(out, at, cards, rules)


@inline_leaf            # inlined: a call with literal arguments would compile once each
def _one_hot(out, at, index, width):
    if 0 <= index < width:
        out[at + index] = 1


@leaf
def sees_kitty(state, rules, seat):
    """Whether ``seat`` may see the kitty now."""
    landlord = state[G_LANDLORD]
    if landlord < 0:
        return False
    return (rules[R_KITTY_SHOWN] != 0) or (seat == landlord and rules[R_KITTY_TO_LANDLORD] != 0)


@leaf
def knows_partner(state, seat):
    """Whether ``seat`` may know five_player's dark landlord."""
    return state[G_PARTNER] >= 0 and (state[G_PARTNER_KNOWN] != 0 or seat == state[G_PARTNER])


@leaf
def _rel(a, b, n):
    """Seat ``a`` seen from seat ``b`` (both in 0 .. n - 1)."""
    d = a - b
    return d + n if d < 0 else d


@first_class_leaf
def encode(state, rules, seat, out):
    """Write ``seat``'s observation of ``state`` into ``out`` (zeroed here; nothing
    allocated, so it runs without reference counting)."""
    if rules[R_DECK] == STANDARD_DECK:
        _encode(state, rules, seat, out, True)
    else:
        _encode(state, rules, seat, out, False)


@leaf
def _encode(state, rules, seat, out, standard):
    """``encode``; ``standard`` (a literal: each value compiled on its own) when the deck
    is ``STANDARD_DECK``."""
    literally(standard)
    n = rules[R_PLAYERS]
    c = card_plane_size(rules)
    blocks = block_offsets(rules)
    for j in range(blocks[N_BLOCKS]):
        out[j] = 0
    own = np.uint64(state[G_HANDS + seat])
    _plane(out, blocks[0], own, rules, standard)
    played = np.uint64(0)
    for k in range(n):
        s = seat + k - n if seat + k >= n else seat + k
        p = np.uint64(state[G_PLAYED + s])
        played += p
        _plane(out, blocks[1] + k * c, p, rules, standard)
    _plane(out, blocks[2], np.uint64(rules[R_DECK]) - own - played, rules, standard)
    if sees_kitty(state, rules, seat):
        _plane(out, blocks[3], np.uint64(state[G_KITTY]), rules, standard)
    width = (blocks[5] - blocks[4]) // n
    for k in range(n):
        s = seat + k - n if seat + k >= n else seat + k
        _one_hot(out, blocks[4] + k * width, size(np.uint64(state[G_HANDS + s])), width)
    if state[G_LAST_INFO] != 0:
        at = _plane(out, blocks[5], np.uint64(state[G_LAST_CARDS]), rules, standard)
        _one_hot(out, at, kind_of(np.uint64(state[G_LAST_INFO])), N_KINDS)
        _one_hot(out, at + N_KINDS, _rel(state[G_LAST_PLAYER], seat, n), n)
    row = c + n + 1
    turns = state[G_TURNS] if state[G_PHASE] >= PH_PLAY else 0
    kept = min(turns, HISTORY_LEN)
    for i in range(kept):                       # oldest first, the latest in the last row
        t = turns - kept + i
        slot = G_HISTORY + 3 * (t % HISTORY_LEN)
        at = blocks[6] + (HISTORY_LEN - kept + i) * row
        _plane(out, at, np.uint64(state[slot]), rules, standard)
        _one_hot(out, at + c, _rel(state[slot + 2], seat, n), n)
        out[at + c + n] = state[slot + 1] == 0     # a pass (no branch: passes are random)
    _one_hot(out, blocks[7], state[G_PHASE], N_PHASES)
    if state[G_PHASE] != PH_DONE:
        _one_hot(out, blocks[8], _rel(state[G_PLAYER], seat, n), n)
    if state[G_LANDLORD] >= 0:
        _one_hot(out, blocks[9], _rel(state[G_LANDLORD], seat, n), n)
    if knows_partner(state, seat):
        _one_hot(out, blocks[10], _rel(state[G_PARTNER], seat, n), n)
    _one_hot(out, blocks[11], state[G_BID], rules[R_MAX_BID] + 1)
    m = state[G_MULT]
    lg = 0
    while m > 1 and lg < MULT_SLOTS - 1:
        m >>= 1
        lg += 1
    _one_hot(out, blocks[12], lg, MULT_SLOTS)
    doubled = state[G_DOUBLED]
    for k in range(n):
        s = seat + k - n if seat + k >= n else seat + k
        out[blocks[13] + k] = (doubled >> s) & 1
    _one_hot(out, blocks[14], state[G_TRUMP], SUITS)
    if rules[R_WILDS]:
        for r in range(WILD_RANKS):
            out[blocks[15] + r] = (state[G_WILDS] >> r) & 1
        if state[G_LAST_INFO] != 0:
            _one_hot(out, blocks[16], rank_of(np.uint64(state[G_LAST_INFO])), RANKS)


@leaf
def encode_all(states, rules, seats, out):
    """``encode`` of many games: row ``i`` of ``out`` for ``states[i]`` seen by
    ``seats[i]``."""
    for i in range(states.shape[0]):
        encode(states[i], rules, seats[i], out[i])
