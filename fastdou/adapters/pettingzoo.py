"""PettingZoo AEC environments for every fastdou preset (needs ``pip install 'fastdou[rl]'``).

``env(rules="classic", start="bidding")`` is one hand per episode of :class:`fastdou.Game`,
wrapped in PettingZoo's ``OrderEnforcingWrapper``; ``raw_env`` is the bare environment.
Importing this module registers ``fastdou/<preset>-v0`` for every preset in PettingZoo's
registry (PettingZoo >= 1.27), so ``pettingzoo.make("aec", "fastdou/classic-v0")`` works after
``import fastdou.adapters.pettingzoo`` (PettingZoo has no plugin discovery: the import is the
registration). Wild cards: ``env("laizi")`` (one wild rank) acts over its wild ids, the mask
marking the legal ones under the drawn rank.

* Agents ``player_0 .. player_{n-1}``: agent ``player_k`` is seat ``k`` of the game.
* Observations ``{"observation": Game.encode(seat), "action_mask": ...}``, both ``int8`` 0/1
  (the encoding's layout: :mod:`fastdou.kernels.encoding`). As in PettingZoo's classic
  environments the mask is non-zero only for the agent to act, where it marks exactly
  ``Game.legal_action_ids()``; at the end of the hand every mask is zeros.
* Actions ``Discrete(table.size)``: the ids of :func:`fastdou.action_table` (bids, calls,
  reveals and doubles included; the pass id is every phase's "no"). An illegal id raises
  :class:`fastdou.IllegalMoveError` naming the agent and the id, and leaves the hand as it
  was (the mask says what is legal; PettingZoo's ``TerminateIllegalWrapper`` may be put
  around ``raw_env`` for its end-the-game convention instead).
* Rewards only when the hand ends: each seat's score change, ``Game.scores`` (zero
  sum; 0 for everyone in a void hand). Terminations: every agent when the hand ends.
  Truncations: never (every hand ends; there is no ``max_cycles``).
* ``reset(seed=s)`` plays deal 0 of fastdou's deal stream ``s`` (``Game.new(rules, seed=s,
  deal=0)``); each later ``reset()`` without a seed plays the next deal of the same stream;
  the first reset without any seed draws the stream at random. ``options={"deal": d}``
  picks deal ``d`` of the stream (other option keys are ignored, as PettingZoo's api_test
  passes arbitrary ones).
* ``state()`` is perfect information: every seat's encoding (seat order) and the kitty's
  card plane, for centralised critics; it is not what any agent may see.
* ``render()`` draws the hand as text (every seat's cards: it is for people watching):
  printed for ``render_mode="human"``, returned for ``"ansi"``.
"""

from __future__ import annotations

import secrets

import numpy as np

from fastdou.extras import need

gymnasium = need("gymnasium", "rl")
pettingzoo = need("pettingzoo", "rl")
from gymnasium import spaces
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AECEnv

from fastdou import cards as _cards
from fastdou.actions import action_table
from fastdou.checks import short
from fastdou.errors import ArgumentError, IllegalMoveError
from fastdou.game import Game, STARTS
from fastdou.kernels import encoding as KE
from fastdou.kernels import state as S
from fastdou.rules import PRESETS, as_rules, rules_array

RENDER_MODES = ("human", "ansi")
VERSION = 0
ENV_IDS = {name: f"fastdou/{name}-v{VERSION}" for name in PRESETS}


class FastdouAECEnv(AECEnv):
    """One hand of ``rules`` per episode (see the module docstring). Build it with
    :func:`env` (order-checked) or :data:`raw_env`."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "fastdou_v0",
                "is_parallelizable": False}

    def __init__(self, rules="classic", *, start: str = "bidding", landlord=None,
                 render_mode=None, max_cycles=None):
        super().__init__()
        self.rules = as_rules(rules)
        if max_cycles is not None:
            raise ArgumentError("fastdou hands always end, so its environments never "
                                "truncate: max_cycles does not apply")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ArgumentError(f"render_mode is None, 'human' or 'ansi', not "
                                f"{short(render_mode)}")
        if start not in STARTS:
            raise ArgumentError(f"start is 'bidding' or 'play', not {short(start)}")
        Game.new(self.rules, start=start, landlord=landlord)     # checks start / landlord
        self.start, self.landlord, self.render_mode = start, landlord, render_mode
        self.metadata = dict(self.metadata, name=f"fastdou_{self.rules.name}_v{VERSION}")
        self.table = action_table(self.rules)
        n = self.rules.players
        self.possible_agents = [f"player_{k}" for k in range(n)]
        self._seat_of = {a: k for k, a in enumerate(self.possible_agents)}
        self._obs_size = int(KE.encoding_size(rules_array(self.rules, wild=True)))
        self._plane = int(KE.card_plane_size(rules_array(self.rules, wild=True)))
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, 1, (self._obs_size,), np.int8),
            "action_mask": spaces.Box(0, 1, (self.table.size,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.size)
                              for a in self.possible_agents}
        self.state_space = spaces.Box(0, 1, (n * self._obs_size + self._plane,), np.int8)
        self._stream = None          # the deal stream (seed) and the next deal's index
        self._next_deal = 0
        self._deal = None
        self._game = None

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent):
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent):
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent):
        if agent not in self._seat_of:
            raise ArgumentError(f"{short(agent)} is not an agent of {self.rules.name} "
                                f"({', '.join(self.possible_agents)})")
        return agent

    # ----------------------------------------------------------------- episode
    def reset(self, seed=None, options=None):
        """Deal a new hand: deal 0 of stream ``seed``, else the stream's next deal."""
        if options is not None and not isinstance(options, dict):
            raise ArgumentError(f"options is a dict, not {short(options)}")
        stream = self._stream if seed is None else seed
        if stream is None:
            stream = secrets.randbits(63)
        deal = 0 if seed is not None or self._stream is None else self._next_deal
        if options and "deal" in options:
            deal = options["deal"]
        self._game = Game.new(self.rules, seed=stream, deal=deal, start=self.start,
                              landlord=self.landlord)           # checks seed and deal
        self._stream, self._deal, self._next_deal = int(stream), int(deal), int(deal) + 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._game.current_player]
        self._skip_agent_selection = None

    def step(self, action):
        """Play the action id ``action`` for ``agent_selection`` (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action[()]
        if action is None:
            raise IllegalMoveError(f"{agent} is to act: step takes an action id "
                                   f"(0..{self.table.size - 1}), not None")
        game = self._game
        try:
            game.play_id(action)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"{agent}: {e}") from None
        self._cumulative_rewards[agent] = 0.0
        if game.is_terminal():
            scores = game.scores
            for a in self.agents:
                self.rewards[a] = float(scores[self._seat_of[a]])
                self.terminations[a] = True
            n = len(self.possible_agents)
            self.agent_selection = self.possible_agents[(self._seat_of[agent] + 1) % n]
        else:
            self._clear_rewards()
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ----------------------------------------------------------------- views
    def observe(self, agent):
        """``agent``'s encoding and action mask (zeros unless it is to act)."""
        seat = self._seat_of[self._agent(agent)]
        game = self._game
        mask = np.zeros(self.table.size, np.int8)
        if agent == self.agent_selection and not game.is_terminal():
            mask[game.legal_action_ids()] = 1
        return {"observation": game.encode(seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        """Perfect information: every seat's encoding in seat order, then the kitty's card
        plane (also while it is hidden from the seats)."""
        game, size, n = self._game, self._obs_size, len(self.possible_agents)
        out = np.zeros(self.state_space.shape, np.int8)
        for s in range(n):
            game.encode(s, out[s * size:(s + 1) * size])
        kitty = game.state[S.G_KITTY:S.G_KITTY + 1].view(np.uint64)[0]
        KE.put_cards(out, n * size, kitty, rules_array(self.rules, wild=True))
        return out

    @property
    def game(self) -> Game:
        """A copy of the hand being played (perfect information; stepping it does not step
        the environment)."""
        return self._game.clone()

    @property
    def deal(self) -> tuple:
        """``(seed, deal)`` of the hand being played: ``Game.new(rules, seed=, deal=)``."""
        return self._stream, self._deal

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; "
                                  "make the environment with render_mode='human' or 'ansi'")
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        g = self._game
        st = g.state
        lines = [f"{self.rules.name}, deal {self._deal} of seed {self._stream}: {g.phase} "
                 f"phase, bid {int(st[S.G_BID])}, multiplier {g.multiplier}"]
        partner = int(st[S.G_PARTNER])
        for k, a in enumerate(self.possible_agents):
            role = ("landlord" if k == g.landlord else "partner" if k == partner else
                    "farmer" if g.landlord >= 0 else "")
            mark = "  <- to act" if not g.is_terminal() and k == g.current_player else ""
            hand = _cards.to_text(g.perfect_information_hand(k)) or "-"
            lines.append(f"  {a} {role:8s} {hand}{mark}")
        if g.phase == "play":
            last = g.last_move
            lines.append(f"  to beat: {'nothing (a lead)' if last.is_pass else last.text()}")
        if g.is_terminal():
            r = g.result()
            lines.append(f"  over: {r.winner} win, scores "
                         + ", ".join(f"{x:g}" for x in r.scores))
        return "\n".join(lines)

    def close(self):
        """Nothing to release (text rendering only)."""


raw_env = FastdouAECEnv


def env(rules="classic", *, start: str = "bidding", landlord=None, render_mode=None,
        max_cycles=None) -> AECEnv:
    """The environment of ``rules`` (a preset name or :class:`fastdou.Rules`) in PettingZoo's
    ``OrderEnforcingWrapper``. ``start="play"`` skips the landlord selection (seat
    ``landlord``, default 0, takes the kitty at base score 1, as RLCard and DouZero play)."""
    return wrappers.OrderEnforcingWrapper(raw_env(
        rules, start=start, landlord=landlord, render_mode=render_mode,
        max_cycles=max_cycles))


def _register() -> None:
    """Add ``fastdou/<preset>-v0`` to PettingZoo's AEC registry (PettingZoo >= 1.27)."""
    register = getattr(pettingzoo, "register", None)
    if register is None:
        return
    for name, env_id in ENV_IDS.items():
        if env_id not in pettingzoo.aec_registry:
            register("aec", env_id, entry_point=f"{__name__}:env", kwargs={"rules": name})


_register()
