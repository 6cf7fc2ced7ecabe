"""``fastdou.evaluate`` with a Python agent on one side: the deals ``evaluate`` plays in
compiled code (:mod:`fastdou.kernels.evaluation`), played here one decision at a time.

A side is a *Python agent* (an RLCard agent: ``eval_step(state)`` and ``use_raw``; a DouZero
agent: ``act(infoset)``; a :class:`fastdou.Policy`) or a compiled policy (a name, an
``@njit`` function or its import path), played through :func:`fastdou.policy`. Each turn of
each deal starts from the state the compiled loop starts from (DouZero's protocol: the
landlord fixed, no bidding; ``bidding=True``: whole games, A in seat t on turn t), and the
compiled policies and fastdou Policies draw, in turn, from the stream the compiled loop
gives that deal (``play.policy_stream(seed, deal)``, one for all of them, as the loop shares
it), so a compiled policy wrapped as a Python agent that draws nothing (``greedy``) scores
exactly as the compiled policy does.

The game a turn plays on is its ecosystem's view of the deal, from the adapters:

* RLCard agents: :class:`fastdou.adapters.rlcard.DoudizhuEnv` (classic, ``standard``
  profile, the landlord at seat 0, RLCard's own encoding, quirks included), its state dicts
  as RLCard's ``env.run`` hands them to ``eval_step`` (and ``step(action, use_raw)``); the
  other side plays through ``fastdou.adapters.rlcard.Agent``;
* DouZero agents: the hand behind :class:`fastdou.adapters.douzero.GameEnv` (classic,
  ``douzero`` profile), its infosets; the other side through
  ``fastdou.adapters.douzero.Agent`` (moves handed over as card lists, read as DouZero's
  ``GameEnv`` reads them);
* fastdou Policies only: a :class:`fastdou.Game` of the run's rules (any preset, bidding
  or not).

RLCard's and DouZero's agents play classic only, from the play phase: other rules, another
profile or ``bidding=True`` raise a FastdouError.
"""

from __future__ import annotations

import numpy as np

from fastdou.checks import short
from fastdou.errors import FastdouError, GameStateError, IllegalMoveError, PolicyError
from fastdou.kernels import evaluation as KE
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.policies import policy_names

_FIELDS = list(P.RESULT_FIELDS)
_PROFILES = {"rlcard": "standard", "douzero": "douzero"}
_ECOSYSTEM = {"rlcard": "RLCard's", "douzero": "DouZero's"}


def agent_name(p, kind) -> str:
    """A side's name in the Evaluation: a compiled policy's as simulate names it, a fastdou
    Policy's name, else the agent's class as ``module:Class``."""
    if kind is None:
        return policy_names(p, 1)[0]
    if kind == "policy":
        return p.name
    cls = type(p)
    return f"{cls.__module__}:{cls.__qualname__}"


class _Side:
    """One side (A or B): ``agent``, what the view's loop calls (the RLCard or DouZero agent
    given, or the fastdou adapter's Agent around ``policy``; None on a fastdou Game);
    ``policy``, the fastdou Policy that draws from the deal's stream (None for an RLCard or
    DouZero agent, which keeps its own randomness)."""

    def __init__(self, p, kind, ecosystem, rules, seed):
        from fastdou.players import policy
        self.kind = kind
        self.agent = None
        self.policy = None
        if kind in ("rlcard", "douzero"):
            self.agent = p
            return
        self.policy = policy(p, rules, seed)     # a Policy too: rebound to the run's rules
        if ecosystem == "rlcard":
            from fastdou.adapters.rlcard import Agent
            self.agent = Agent(self.policy)
        elif ecosystem == "douzero":
            from fastdou.adapters.douzero import Agent
            self.agent = Agent(self.policy)


class AgentTable:
    """Plays chunks of deals of ``evaluate(a, b, ...)`` when ``a`` or ``b`` is a Python
    agent (``kinds``: :func:`fastdou.sim.evaluation.agent_kind` of each), filling the arrays
    the compiled kernel fills (see the module docstring)."""

    def __init__(self, a, b, kinds, rules, seed, mode):
        ecosystems = {k for k in kinds if k in _PROFILES}
        if len(ecosystems) > 1:
            raise PolicyError("an RLCard agent and a DouZero agent cannot play one run: "
                              "each plays its own ecosystem's view of classic (standard / "
                              "douzero profile)")
        self.ecosystem = ecosystem = ecosystems.pop() if ecosystems else None
        if ecosystem is not None:
            _check_classic(ecosystem, rules, mode)
        self.rules, self.seed, self.mode = rules, seed, mode
        self.turns = rules.players if mode == KE.BIDDING else 2
        self.sides = (_Side(a, kinds[0], ecosystem, rules, seed),
                      _Side(b, kinds[1], ecosystem, rules, seed))
        self.names = (agent_name(a, kinds[0]), agent_name(b, kinds[1]))
        self._view = None

    # ------------------------------------------------------------------ a chunk
    def play(self, first, res, scores, errors) -> None:
        """Deals ``first .. first + len(res) - 1``, each once per turn, into ``res``
        (``play.RESULT_FIELDS``), ``scores`` (SCORE_UNITs) and ``errors`` (all zero: an
        agent's illegal action raises a PolicyError naming the deal)."""
        from fastdou.game import Game
        errors[:] = P.ERROR_NONE
        start = "bidding" if self.mode == KE.BIDDING else "play"
        for k in range(len(res)):
            deal = first + k
            dealt = Game.new(self.rules, seed=self.seed, deal=deal, start=start)._state
            team = int(dealt[S.G_TEAM])
            for t in range(self.turns):
                if self.mode == KE.BIDDING:
                    mine = [s == t for s in range(self.rules.players)]
                else:
                    mine = [((team >> s) & 1 == 1) == (t == 0)
                            for s in range(self.rules.players)]
                try:
                    final = self._turn(dealt, mine, deal)
                except (IllegalMoveError, GameStateError, PolicyError) as e:
                    raise PolicyError(f"deal {deal}: {short(str(e))}") from None
                res[k, t] = final[_FIELDS]
                scores[k, t] = final[S.G_SCORES:S.G_SCORES + self.rules.players]

    def _turn(self, dealt, mine, deal) -> np.ndarray:
        """One game of deal ``deal`` (dealt: ``dealt``), A in the seats ``mine``; its final
        engine state."""
        rng = int(P.policy_stream(self.seed, deal))
        if self.ecosystem == "rlcard":
            return self._play_rlcard(dealt, mine, rng)
        if self.ecosystem == "douzero":
            return self._play_douzero(dealt, mine, rng)
        return self._play_fastdou(deal, mine, rng)

    @staticmethod
    def _draw(side, rng, decide):
        """``decide()`` with ``side``'s Policy (if any) on the deal's stream ``rng``;
        returns (its answer, the stream after it)."""
        if side.policy is None:
            return decide(), rng
        side.policy.rng = rng
        out = decide()
        return out, side.policy.rng

    def _play_fastdou(self, deal, mine, rng) -> np.ndarray:
        from fastdou.game import Game
        game = Game.new(self.rules, seed=self.seed, deal=deal,
                        start="bidding" if self.mode == KE.BIDDING else "play")
        while not game.is_terminal():
            side = self.sides[0 if mine[game.current_player] else 1]
            aid, rng = self._draw(side, rng, lambda: side.policy.choose_id(game))
            game.play_id(aid)
        return game._state

    def _play_rlcard(self, dealt, mine, rng) -> np.ndarray:
        env = self._view
        if env is None:
            from fastdou.adapters.rlcard import DoudizhuEnv
            env = self._view = DoudizhuEnv({"seed": 0})
        g = env.game
        g.init_from_state(dealt)
        env.action_recorder = []
        env.timestep = 0
        while not g.is_over():
            seat = g.current
            side = self.sides[0 if mine[seat] else 1]
            state = env._extract_state(seat)
            (action, _), rng = self._draw(side, rng, lambda: side.agent.eval_step(state))
            env.step(action, side.agent.use_raw)
        return g.st

    def _play_douzero(self, dealt, mine, rng) -> np.ndarray:
        from fastdou.adapters import douzero as AD
        hand = self._view
        if hand is None:
            hand = self._view = AD._Hand(observe=False)
        hands = [int(dealt[S.G_HANDS + s]) for s in range(3)]
        deal = {position: AD.card_list(hands[seat])
                for seat, position in enumerate(AD.POSITIONS)}
        deal["three_landlord_cards"] = AD.card_list(int(dealt[S.G_KITTY]))
        hand.clear()
        hand.start(deal)
        while not hand.done:
            side = self.sides[0 if mine[hand.seat] else 1]
            info = hand.info
            action, rng = self._draw(side, rng, lambda: side.agent.act(info))
            hand.apply(list(action))
        return hand._state


def _check_classic(ecosystem, rules, mode) -> None:
    profile = _PROFILES[ecosystem]
    if rules.name != "classic" or rules.profile != profile:
        raise FastdouError(f"{_ECOSYSTEM[ecosystem]} agents play classic rules, "
                           f"{profile} profile (rules=fastdou.rules('classic', "
                           f"profile='{profile}')), not {rules.name} ({rules.profile})")
    from fastdou.rules import rules as make_rules
    if rules != make_rules("classic", profile=profile):
        raise FastdouError(f"{_ECOSYSTEM[ecosystem]} agents play classic's {profile} "
                           f"profile as it is, without house rules")
    if mode == KE.BIDDING:
        raise FastdouError(f"{_ECOSYSTEM[ecosystem]} agents play from the play phase, the "
                           f"landlord fixed: bidding=True needs compiled policies or "
                           f"fastdou Policies")
