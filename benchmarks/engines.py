"""The other engines beside fastdou in ``compare.py``: DouZero, RLCard and OpenSpiel installed
(pip, when missing) and imported, their native inputs built from fastdou's positions, and
their drivers: move generation (leads, responses) and whole random games; with fastdou's
kicker profile matching each engine."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from types import SimpleNamespace

import numpy as np

import fastdou
from tests.shared.corpus import deals
from fastdou import cards as C

PROG = "compare.py"
STANDARD = fastdou.rules("classic")
DOUZERO_PROFILE = fastdou.rules("classic", profile="douzero")
OPENSPIEL_PROFILE = fastdou.rules("classic", profile="openspiel")
INSTALLS = {  # import name -> pip arguments
    "rlcard": ["rlcard"],
    "douzero": ["--no-deps", "douzero==1.1.0"],
    "pyspiel": ["open_spiel"],
}
DISTRIBUTIONS = {"douzero": "douzero", "rlcard": "rlcard", "pyspiel": "open_spiel"}
ENGINES = ("douzero", "rlcard", "openspiel")
NAMES = {"douzero": "DouZero", "rlcard": "RLCard", "openspiel": "OpenSpiel"}


class CompareError(Exception):
    """A problem reported as one line, without a traceback."""


# --------------------------------------------------------------------------- tools


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
        return True
    except ImportError:
        return False


def ensure_tools(install: bool = True) -> None:
    """Import DouZero, RLCard and OpenSpiel, installing the missing ones with pip unless
    ``install`` is false."""
    missing = [name for name in INSTALLS if not _importable(name)]
    if missing and not install:
        hints = "; ".join(f"pip install {' '.join(INSTALLS[m])}" for m in missing)
        raise CompareError(f"{', '.join(missing)} not installed and --no-install given "
                           f"(install with: {hints})")
    for name in missing:
        cmd = [sys.executable, "-m", "pip", "install", *INSTALLS[name]]
        print(f"{PROG}: installing {name}: {' '.join(cmd[1:])}", file=sys.stderr)
        try:
            subprocess.check_call(cmd, stdout=sys.stderr)
        except (OSError, subprocess.CalledProcessError) as e:
            raise CompareError(f"could not install {name} ({e})") from None
    importlib.invalidate_caches()
    for name in INSTALLS:
        if not _importable(name):
            raise CompareError(f"{name} still cannot be imported after installing it")


def tools():
    """The engines' entry points (imported lazily: they may be installed late)."""
    import pyspiel
    from douzero.env.game import GameEnv
    from douzero.env.move_generator import MovesGener
    from rlcard.games.base import Card
    from rlcard.games.doudizhu.game import DoudizhuGame
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards
    return SimpleNamespace(MovesGener=MovesGener, GameEnv=GameEnv, Card=Card,
                           DoudizhuJudger=DoudizhuJudger, get_gt_cards=get_gt_cards,
                           DoudizhuGame=DoudizhuGame, pyspiel=pyspiel,
                           os_game=pyspiel.load_game("dou_dizhu"))


# --------------------------------------------------------------------------- inputs


def _counts(packed) -> np.ndarray:
    return C.unpack(int(packed))


def _rlcard_cards(T, counts):
    """RLCard ``Card`` objects of a hand (suits are irrelevant to its move generation)."""
    out = []
    for r, c in enumerate(counts):
        for k in range(int(c)):
            if r == 13:
                out.append(T.Card("BJ", ""))
            elif r == 14:
                out.append(T.Card("RJ", ""))
            else:
                out.append(T.Card("SHDC"[k], C.TOKENS[r]))
    return out


def _os_deal(seats):
    """OpenSpiel card ids of the seats' hands, suits given out in turn so that no physical
    card is dealt twice: rank r < 13 of suit k is ``13 k + r``; jokers 52, 53."""
    used = [0] * 15
    out = []
    for counts in seats:
        cards = []
        for r, c in enumerate(counts):
            for _ in range(int(c)):
                cards.append(52 + r - 13 if r >= 13 else 13 * used[r] + r)
                used[r] += 1
        out.append(cards)
    return out


def _os_dealt(T, seats):
    """An OpenSpiel dou_dizhu state with ``seats[s]`` (17 counts each) dealt to seat s
    (the 3 cards left are the kitty), seat 0 bidding first; seat 0 bids 3 and so leads."""
    state = T.os_game.new_initial_state()
    state.apply_action(0)                      # the face-up card: position 0, seat 0 bids
    cards = _os_deal(seats)
    for i in range(51):                        # dealt card i goes to seat i % 3
        state.apply_action(51 + cards[i % 3][i // 3])
    state.apply_action(3)                      # seat 0 bids 3: landlord, takes the kitty
    return state


def openspiel_positions(T, d, lasts):
    """OpenSpiel states of the lead corpus (deals ``d``) and of the response corpus (the
    farmer at seat 1 after the landlord's lead ``lasts[i]``): (lead states, response states,
    indices of the response positions OpenSpiel can reach)."""
    table = fastdou.action_table(OPENSPIEL_PROFILE)
    lead_states = [_os_dealt(T, [row[0], row[1], row[2]]) for row in d]
    ids = table.ids(np.ascontiguousarray(lasts))
    resp_states, reached = [], []
    for i, a in enumerate(ids):
        if a < 0:
            continue                           # a lead OpenSpiel's rules lack
        state = lead_states[i].clone()
        state.apply_action(int(a))
        resp_states.append(state)
        reached.append(i)
    return lead_states, resp_states, np.array(reached, np.int64)


def make_inputs(T, lead_packed, resp_packed, lasts):
    """DouZero's and RLCard's native input for the given positions, built outside the
    timers."""
    lead_counts = [_counts(h) for h in lead_packed]
    resp_counts = [_counts(h) for h in resp_packed]
    last_counts = [_counts(r[0]) for r in lasts]
    return {
        "dz_lead": [C.to_douzero(c) for c in lead_counts],
        "rl_lead": [C.to_text(c) for c in lead_counts],
        "dz_resp": [(C.to_douzero(h), C.to_douzero(l))
                    for h, l in zip(resp_counts, last_counts)],
        "rl_resp": [(SimpleNamespace(current_hand=_rlcard_cards(T, h)),
                     SimpleNamespace(played_cards=C.to_text(l)))
                    for h, l in zip(resp_counts, last_counts)],
    }


# --------------------------------------------------------------------------- generators


def douzero_lead(T, cards_list):
    """DouZero's leading moves: lists of DouZero integers, duplicates included."""
    return T.MovesGener(cards_list).gen_moves()


def douzero_respond(T, cards_list, rival_move):
    """DouZero's ``GameEnv.get_legal_card_play_actions`` for ``cards_list`` facing
    ``rival_move``, run on a stand-in state; returns its list, whose last entry is the pass
    ``[]``."""
    state = SimpleNamespace(
        info_sets={"landlord_down": SimpleNamespace(player_hand_cards=list(cards_list))},
        acting_player_position="landlord_down",
        card_play_action_seq=[list(rival_move)])
    return T.GameEnv.get_legal_card_play_actions(state)


def rlcard_lead(T, text):
    """RLCard's playable cards of a hand: a set of card strings."""
    return T.DoudizhuJudger.playable_cards_from_hand(text)


def rlcard_respond(T, player, greater_player):
    """RLCard's cards greater than the rival's: a list of strings starting with 'pass'."""
    return T.get_gt_cards(player, greater_player)


def openspiel_legal(T, state):
    """OpenSpiel's legal action ids of a prepared state (a list of ints)."""
    return state.legal_actions()



# --------------------------------------------------------------------------- games


def openspiel_python_games(T, n, seed):
    """OpenSpiel dou_dizhu driven from Python: chance outcomes and random legal actions
    chosen by ``random.Random(seed)``; returns the player actions taken."""
    rnd, actions = random.Random(seed), 0
    for _ in range(n):
        state = T.os_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
                actions += 1
    return actions


def openspiel_cpp_games(T, n, seed):
    """OpenSpiel's C++ random simulation: ``pyspiel.evaluate_bots`` with a uniform random bot
    per seat, the chance outcomes sampled in C++; returns the games someone won (the others
    ended in bidding: all passed)."""
    bots = [T.pyspiel.make_uniform_random_bot(p, seed + p) for p in range(3)]
    won = 0
    for k in range(n):
        returns = T.pyspiel.evaluate_bots(T.os_game.new_initial_state(), bots, seed + k)
        won += max(returns) > 0
    return won


def rlcard_games(T, n, seed):
    """RLCard's DoudizhuGame, a random choice of ``state['actions']`` at every step (its
    dealer names the landlord: no bidding); returns the actions taken."""
    game, rnd, actions = T.DoudizhuGame(), random.Random(seed), 0
    game.np_random = np.random.RandomState(seed)
    for _ in range(n):
        state, _ = game.init_game()
        while not game.is_over():
            legal = state["actions"]
            state, _ = game.step(legal[rnd.randrange(len(legal))])
            actions += 1
    return actions


class _DouZeroRandom:
    def __init__(self, rnd):
        self.rnd = rnd

    def act(self, infoset):
        legal = infoset.legal_actions
        return legal[self.rnd.randrange(len(legal))]


def douzero_deals(n, seed):
    """DouZero's ``card_play_data`` of fastdou's deals 0..n-1 (seat 0 the landlord)."""
    out = []
    for row in deals(n, seed):
        out.append({"landlord": C.to_douzero(row[0] + row[3]),
                    "landlord_down": C.to_douzero(row[1]),
                    "landlord_up": C.to_douzero(row[2]),
                    "three_landlord_cards": C.to_douzero(row[3])})
    return out


def douzero_games(T, data, seed):
    """DouZero's GameEnv with a random agent per seat over ``data`` (copied: the engine
    consumes its lists); returns the actions taken."""
    rnd, actions = random.Random(seed), 0
    agent = _DouZeroRandom(rnd)
    env = T.GameEnv({p: agent for p in ("landlord", "landlord_up", "landlord_down")})
    for d in data:
        env.reset()
        env.card_play_init({k: list(v) for k, v in d.items()})
        while not env.game_over:
            env.step()
            actions += 1
    return actions
