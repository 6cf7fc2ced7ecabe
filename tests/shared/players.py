"""What the tests of the compiled players share: expert (classic and wild) through its one
compiled version, classic play-phase states from hands, a replay by ``fastdou.policy``, the
hidden-information check (what a seat cannot see changed, its choice must not) and the
endgame values solved on every split."""

import functools
import itertools
from math import comb

import numpy as np
from numba import njit

import fastdou
from fastdou import cards as C
from fastdou.game import legal_records_into
from fastdou.kernels import engine as E
from fastdou.kernels import state as S
from fastdou.kernels.expert import expert_policy, expert_wild_policy
from fastdou.kernels.play import POLICY_SIGNATURE, RESULT_FIELDS
from fastdou.kernels.position_state import state_of_position
from fastdou.moves import mask_text
from fastdou.rules import rules_array


@functools.cache
def compiled(fn):
    """A policy function's one compiled version, as the loops call it (called with
    C-contiguous actions, Numba would compile it, and the solver under it, once more)."""
    return fn.compile(POLICY_SIGNATURE)


def expert(state, actions, n, rng):
    """expert_policy as the loops call it."""
    return compiled(expert_policy)(state, actions, n, rng)


def wild_expert(state, actions, n, rng):
    """expert_wild_policy (the expert under wild cards) as the loops call it."""
    return compiled(expert_wild_policy)(state, actions, n, rng)


def classic_state(hands, *, landlord=0, to_move=None, last=None, last_player=None,
                  profile="standard"):
    """A classic play-phase state: ``hands`` per seat, the cards no hand holds already
    played by the landlord (counts are all a seat sees of them)."""
    rules = fastdou.rules("classic", profile=profile)
    pos = fastdou.Position(hands, rules, landlord=landlord, to_move=to_move, last=last,
                           last_player=last_player)
    st = E.new_state()
    state_of_position(st, rules_array(rules), pos.array(), landlord)
    gone = rules.deck - sum(C.parse(h, rules) for h in hands)
    if last is not None:
        gone = gone - fastdou.Move.parse(last, rules).cards
    st[S.G_PLAYED + landlord] = np.int64(np.uint64(C.pack(gone)))
    return st


def replay(rules, policy, seed, deal):
    """Deal ``deal`` of ``seed`` played by ``policy.choose`` in every seat: its result row
    (simulate's RESULT_FIELDS)."""
    game = fastdou.Game.new(rules, seed=seed, deal=deal)
    policy.reset(deal)
    while not game.is_terminal():
        game.play(policy.choose(game))
    return [int(game._state[f]) for f in RESULT_FIELDS]


def hidden_changed(st, rules, me, rng):
    """``st`` with what seat ``me`` cannot see changed: the other hands' cards dealt again
    among them and the cards out of play (each hand keeping its count), with the kitty while
    it is hidden, and five_player's dark landlord moved while it is neither revealed nor
    ``me``."""
    st = st.copy()
    fields = [S.G_HANDS + s for s in range(rules.players) if s != me]
    if st[S.G_PHASE] == S.PH_BID or not rules.kitty_shown:
        fields.append(S.G_KITTY)
    counts = [C.unpack(int(np.uint64(st[f]))) for f in fields]
    places = [S.G_HANDS + s for s in range(rules.players)] + [S.G_PLAYED + s for s in
                                                              range(rules.players)]
    if not (rules.landlord_gets_kitty and st[S.G_LANDLORD] >= 0):   # the kitty apart
        places.append(S.G_KITTY)
    out = rules.deck - sum(C.unpack(int(np.uint64(st[f]))) for f in places)
    assert (out >= 0).all()
    pool = np.repeat(np.arange(len(counts[0])), sum(counts) + out)
    rng.shuffle(pool)
    at = 0
    for f, c in zip(fields, counts):
        k = int(c.sum())
        st[f] = np.int64(np.uint64(C.pack(np.bincount(pool[at:at + k], minlength=len(c)))))
        at += k
    dark = st[S.G_PARTNER]
    if (st[S.G_PHASE] == S.PH_PLAY and dark >= 0 and dark != me
            and st[S.G_PARTNER_KNOWN] == 0):
        others = [s for s in range(rules.players) if s not in (me, st[S.G_LANDLORD])]
        new = int(rng.choice(others))
        st[S.G_PARTNER] = new
        st[S.G_TEAM] = (1 << st[S.G_LANDLORD]) | (1 << new)
    return st


def hidden_mismatches(policy, preset, deals):
    """(choices checked, states changed, choices that changed) when what the seat to act
    cannot see is changed, over ``deals`` deals walked by ``policy`` (and a random action
    one time in four)."""
    rules = fastdou.rules(preset)
    array = rules_array(rules, wild=bool(rules.wilds))
    rng = np.random.default_rng(9)
    buf = np.empty((1 << 14, 2), np.uint64)
    checked = changed = wrong = 0
    for deal in range(deals):
        st = E.new_state()
        E.start(st, array, 4, deal)
        while st[S.G_PHASE] != S.PH_DONE:
            n = legal_records_into(st, array, buf, bool(rules.wilds))
            want, _ = policy(st, buf[:n], n, np.uint64(0))
            for _ in range(2):
                other = hidden_changed(st, rules, st[S.G_PLAYER], rng)
                changed += not (other == st).all()
                got, _ = policy(other, buf[:n].copy(), n, np.uint64(0))
                wrong += got != want
                checked += 1
            i = want if rng.random() < 0.75 else int(rng.integers(n))
            E.apply(st, array, buf[i].copy())
    return checked, changed, wrong


@njit
def peeking(state, actions, n, rng):
    """A cheat: plays by the next seat's hand (the test must catch it)."""
    nxt = (state[S.G_PLAYER] + 1) % 3
    return np.int64(np.uint64(state[S.G_HANDS + nxt]) % np.uint64(n)), rng


def solved_values(st, actions, rules):
    """What ``expert_endgame.endgame_values`` must give, from fastdou.solve under ``rules``
    (and the state's wild ranks) on every split of the unseen cards between the two other
    seats: per action, twice the deals (of the physical cards) it wins in."""
    p, landlord = int(st[S.G_PLAYER]), int(st[S.G_LANDLORD])
    a, b = (p + 1) % 3, (p + 2) % 3
    wilds = int(st[S.G_WILDS])
    hand = C.unpack(int(np.uint64(st[S.G_HANDS + p])))
    unseen = rules.deck - hand - sum(C.unpack(int(np.uint64(st[S.G_PLAYED + s])))
                                     for s in range(3))
    ka = int(C.unpack(int(np.uint64(st[S.G_HANDS + a]))).sum())
    leading = st[S.G_LAST_INFO] == 0
    last = None if leading else fastdou.Move.from_record(
        np.array([st[S.G_LAST_CARDS], st[S.G_LAST_INFO]]).astype(np.uint64), wilds, rules)
    want = np.zeros(len(actions), np.int64)
    for x in itertools.product(*(range(int(c) + 1) for c in unseen)):
        x = np.array(x)
        if x.sum() != ka:
            continue
        weight = int(np.prod([comb(int(u), int(k)) for u, k in zip(unseen, x)]))
        hands = [None] * 3
        hands[p], hands[a], hands[b] = hand, x, unseen - x
        pos = fastdou.Position(hands, rules, landlord=landlord, to_move=p, last=last,
                               last_player=None if leading else int(st[S.G_LAST_PLAYER]),
                               wild=mask_text(wilds) or None)
        wins = {m.record.tobytes() for m in fastdou.solve(pos).winning_moves}
        for i, rec in enumerate(actions):
            if rec.astype(np.uint64).tobytes() in wins:
                want[i] += 2 * weight
    return want
