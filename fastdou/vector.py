"""``VectorEnv``: thousands of games stepped at once in compiled code, for RL training.

>>> import numpy as np, fastdou
>>> env = fastdou.VectorEnv("classic", num_envs=4, seed=0, start="play")
>>> obs, info = env.reset()
>>> obs.shape, obs.dtype
((4, 1434), dtype('int8'))
>>> ids, off = info["legal_ids"], info["legal_offsets"]
>>> first = ids[off[:-1]]                      # each game's first legal id
>>> obs, rewards, terminations, truncations, info = env.step(first)

Conventions (Gymnasium's vector API where it fits, autoreset in the same step):

* ``step(actions)`` takes one action id (:func:`fastdou.action_table`) per game, for the
  seat ``info["seat"][i]`` to act, and returns ``(obs, rewards, terminations, truncations,
  info)``. A game that ends is dealt again at once: ``obs[i]`` is then the new game's first
  observation, ``info["final_obs"][i]`` the ended game's last one (seen by the seat that
  acted), ``info["final_scores"][i]`` every seat's score, ``info["final_deal"][i]`` its deal
  index; ``rewards[i]`` is the score of the seat that acted (0 until a game ends).
  ``truncations`` are always False (a hand always ends).
* ``info["legal_ids"][info["legal_offsets"][i]:info["legal_offsets"][i + 1]]`` are game
  ``i``'s legal ids, in ``Game.legal_action_ids()``'s order; :meth:`VectorEnv.action_mask`
  makes the dense ``(num_envs, table.size)`` mask on request.
* ``obs``, ``rewards``, ``terminations``, ``truncations`` and every ``info`` array are
  read-only views of buffers the env owns and overwrites at the next call (the engine reads
  several back: a write would corrupt or crash it): copy what you keep or change.
* One thread at a time: a call made while another thread's call on the same env runs
  raises ConcurrentUseError (give each thread its own env). The constructor checks the
  memory it needs against what the machine has (OutOfMemoryError naming both figures);
  :meth:`VectorEnv.close` (or ``with VectorEnv(...) as env:``) frees it at once.
* Determinism: slot ``i``'s ``k``-th game (``k`` counts the games the slot began since
  ``reset(seed=...)``) is ``Game.new(rules, seed=seed, deal=k * 2**32 + i, start=start)``,
  its policy seats drawing from the stream :func:`fastdou.simulate` gives that deal: a pure
  function of (seed, i, k) and the actions, whatever ``threads`` or ``num_envs``.
  ``reset()`` without a seed starts every slot's next game; ``info["deal"]`` holds each
  game's deal index.
* ``opponents``: None (the caller plays every seat), a policy for every seat but seat 0, or
  one entry per seat with None for the caller's seats; a policy is ``"random"``,
  ``"greedy"`` or an ``@njit`` function ``(state, actions, n, rng) -> (index, rng)`` (see
  :func:`fastdou.simulate`). Policy seats are played inside the compiled loop: the caller
  sees only its own seats' turns.
* Wild cards (``"laizi"``, one wild rank): the ids are the wild table's
  (:class:`fastdou.wild_actions.WildActionTable`) under each game's drawn rank, with the
  ``fastdou`` encoding (its ``wild`` and ``last_rank`` blocks); the wild-card kernel
  compiles apart, on its first use.
* ``threads``: Numba threads for each call (default: Numba's current setting). The env
  sets them with ``numba.set_num_threads`` around its own kernel calls and restores the
  caller's value afterwards (the setting is per calling thread), so nothing leaks. Idle
  threads wait passively (``import fastdou`` sets ``OMP_WAIT_POLICY=passive`` unless it is
  set): OpenMP's spinning ones made two threads far slower than one on a machine with other
  work (docs/rl.md).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import threading

import numba
import numpy as np

from fastdou import cards
from fastdou.checks import flag, short, whole
from fastdou import memory
from fastdou.errors import (ArgumentError, ConcurrentUseError, GameStateError,
                            IllegalMoveError, PolicyError)
from fastdou.hints import RulesLike
from fastdou.kernels import action_ids as KA
from fastdou.kernels import encoding as KE
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.kernels import vector as KV
from fastdou.rules import as_rules, rules_array
from fastdou.stepper import kernel_table
from fastdou.wild_actions import rank_of_mask

STARTS = ("bidding", "play")
POOL_WIDTH = 128        # legal ids kept per game in the first pass (more: computed again)
_STATUS = {KA.BAD_ID: "is not an action id of {rules}",
           KA.WRONG_PHASE: "is not an action of the {phase} phase",
           KA.NOT_HELD: "is a move seat {seat} does not hold",
           KV.NOT_LEGAL: "is not a legal action of seat {seat} now"}
_PHASES = {S.PH_BID: "bid", S.PH_REVEAL: "reveal", S.PH_DOUBLE: "double", S.PH_PLAY: "play",
           S.PH_DONE: "done"}

# The encodings, by name: (kernel module, size function, encode kernel, presets or None for
# every preset). ``size(rules_array) -> int`` is the row width; ``encode(state, rules_array,
# seat, out)`` writes one seat's view into the int8 row ``out`` and must compile for
# ``fastdou.kernels.vector.ENCODE_SIGNATURE``. An encoding whose module or functions are
# missing from this build raises a clear ArgumentError.
ENCODINGS = {
    "fastdou": ("fastdou.kernels.encoding", "encoding_size", "encode", None),
    "douzero": ("fastdou.kernels.douzero_encoding", "vector_size", "vector_encode",
                ("classic",)),
    "rlcard": ("fastdou.kernels.rlcard_encoding", "vector_size", "vector_encode",
               ("classic",)),
}


def encoder(name: str, rules):
    """``(size, encode)`` of encoding ``name`` for ``rules``: the row width and the compiled
    encode kernel (raises ArgumentError when the encoding does not exist or is missing)."""
    if not isinstance(name, str) or name not in ENCODINGS:
        raise ArgumentError(f"encoding is one of {', '.join(ENCODINGS)}, not {short(name)}")
    module, size_name, encode_name, presets = ENCODINGS[name]
    if presets is not None and (rules.name not in presets or rules.wilds):
        raise ArgumentError(f"the {name} encoding is for {', '.join(presets)}, not "
                            f"{rules.name}" + (" with wild cards" if rules.wilds else ""))
    try:
        mod = importlib.import_module(module)
        size_fn, encode_fn = getattr(mod, size_name), getattr(mod, encode_name)
    except (ImportError, AttributeError):
        raise ArgumentError(f"the {name} encoding is not available in this build of fastdou "
                            f"({module}.{encode_name} is missing)") from None
    try:
        encode_fn.compile(KV.ENCODE_SIGNATURE)
    except Exception as e:
        raise ArgumentError(f"the {name} encoder does not compile as (state, rules, seat, "
                            f"int8 out): {short(str(e))}") from None
    return int(size_fn(rules_array(rules, wild=True))), encode_fn


def _seat_codes(opponents, rules):
    """Per-seat codes (``LEARNER`` for the caller's seats) and the user policy (or None)."""
    from fastdou.policies import policy_codes
    n = rules.players
    if opponents is None:
        seats = [None] * n
    elif isinstance(opponents, str) or callable(opponents):
        seats = [None] + [opponents] * (n - 1)
    elif isinstance(opponents, (list, tuple)):
        seats = list(opponents)
        if len(seats) != n:
            raise PolicyError(f"{len(seats)} opponents entries for {n} seats (None marks "
                              f"the caller's seats)")
    else:
        raise PolicyError(f"opponents are None, a policy, or one entry per seat (None for "
                          f"the caller's seats), not {short(opponents)}")
    if all(p is not None for p in seats):
        raise PolicyError("every seat has a policy: mark the caller's seats with None")
    codes, user = policy_codes([p if p is not None else "random" for p in seats], rules)
    for s, p in enumerate(seats):
        if p is None:
            codes[s] = KV.LEARNER
    return codes, user


def _guarded(user):
    """``user`` as a policy that returns index -1 where it raises: an exception raised in
    a parallel region is printed by Numba and lost, and the batch would play on."""
    @numba.njit
    def guarded(state, actions, n, rng):
        try:
            return user(state, actions, n, rng)
        except Exception:
            return np.int64(-1), rng
    guarded.compile(P.POLICY_SIGNATURE)
    return guarded


# The env's buffers: name -> (shape, dtype, first value), for num_envs n, players p and
# observation width w (the legal ids' buffer grows when a step needs more).
def _buffers(n: int, p: int, w: int) -> dict:
    return {"_states": ((n, S.STATE_SIZE), np.int64, 0), "_games": (n, np.int64, -1),
            "_rngs": (n, np.uint64, 0), "_seats": (n, np.int64, 0),
            "_obs": ((n, w), np.int8, 0), "_final_obs": ((n, w), np.int8, 0),
            "_rewards": (n, np.float64, 0), "_terminated": (n, bool, False),
            "_truncated": (n, bool, False), "_final_scores": ((n, p), np.float64, 0),
            "_final_deals": (n, np.int64, -1), "_pool": ((n, POOL_WIDTH), np.int32, 0),
            "_counts": (n, np.int64, 0), "_errors": (n, np.int64, 0),
            "_status": (n, np.int64, 0), "_offsets": (n + 1, np.int64, 0),
            "_flat": (16 * n, np.int64, 0), "_actions": (n, np.int64, 0),
            "_deals": (n, np.int64, 0), "_next_block": (1, np.int64, 0)}


# What the env hands out, read-only: name -> the buffer it views.
_HANDED_OUT = {"obs": "_obs", "rewards": "_rewards", "terminated": "_terminated",
               "truncated": "_truncated", "seat": "_seats", "offsets": "_offsets",
               "deal": "_deals", "final_obs": "_final_obs", "final_scores": "_final_scores",
               "final_deal": "_final_deals"}


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


def _exclusive(closing: bool = False):
    """A method run holding the env (``VectorEnv._enter``): one thread's call at a time."""
    def wrap(method):
        @functools.wraps(method)
        def exclusive(self, *args, **kwargs):
            self._enter(closing)
            try:
                return method(self, *args, **kwargs)
            finally:
                self._busy.release()
        return exclusive
    return wrap


class VectorEnv:
    """``num_envs`` games of ``rules`` stepped together in compiled code, with Gymnasium's
    vector conventions and autoreset in the same step.

    Arguments: ``start="play"`` skips the bidding (seat 0 is the landlord); ``opponents``
    are the seats the env plays itself (None: the caller plays every seat; a policy: every
    seat but 0; or one entry per seat, None for the caller's); ``check=False`` checks only
    what ``Game.push_id`` checks.
    Attributes: ``rules``, ``num_envs``, ``seed``, ``observation_size``, ``learner_seats``
    (the caller's seats) and ``table`` (the action ids, :func:`fastdou.action_table`).

    ``reset(seed=None)`` deals every slot a new game and returns ``(obs, info)``;
    ``step(actions)`` takes one action id per game (an integer array of shape
    ``(num_envs,)``) for the seat ``info["seat"][i]`` named, plays the env's own seats
    until one of the caller's seats is to act again, and returns ``(obs, rewards,
    terminations, truncations, info)``:

    * ``obs``: the observations, ``int8``, shape ``(num_envs, observation_size)``; row ``i``
      is game ``i`` as the seat to act, ``info["seat"][i]`` (always one of the caller's
      seats), sees it, in the chosen ``encoding`` (``"fastdou"``: 1434 columns for classic;
      ``"douzero"`` or ``"rlcard"``). After a game ends, row ``i`` is already the next
      game's first observation.
    * ``rewards``: ``float64``, shape ``(num_envs,)``; 0 except in the step where game ``i``
      ended (by the caller's action or the env's seats' plays after it). There it is the
      final score of the seat that took this step's action, ``info["seat"][i]`` before the
      step, not of every caller seat: with several caller seats, read each one's score in
      ``info["final_scores"]``. A score is the seat's score change, as
      ``Game.result().scores`` gives it (zero-sum over the seats; 0 for a void hand).
    * ``terminations``: ``bool``, shape ``(num_envs,)``: True where game ``i`` ended in
      this step (the slot is then dealt its next game at once). ``truncations``: ``bool``,
      always False (a hand always ends).
    * ``info``, a dict of arrays:

      - ``"seat"``: ``int64 (num_envs,)``, the seat to act in each game now, whose view
        ``obs[i]`` is and for which the next ``actions[i]`` is played;
      - ``"legal_ids"``, ``"legal_offsets"``: game ``i``'s legal action ids are
        ``legal_ids[legal_offsets[i]:legal_offsets[i + 1]]`` (``int64``, flat; offsets of
        shape ``(num_envs + 1,)``), in ``Game.legal_action_ids()``'s order;
        :meth:`action_mask` gives the dense ``bool (num_envs, table.size)`` mask instead;
      - ``"deal"``: ``int64 (num_envs,)``, the deal index of each game now in play (slot
        ``i``'s ``k``-th game is ``Game.new(rules, seed=seed, deal=k * 2**32 + i,
        start=start)``);
      - ``"final_obs"`` (``int8 (num_envs, observation_size)``: the ended game's last
        observation, seen by the seat that acted), ``"final_scores"`` (``float64
        (num_envs, players)``: every seat's score) and ``"final_deal"`` (``int64``: its
        deal index): meaningful only where ``terminations[i]`` (elsewhere they are left
        from an earlier step); ``"_final_obs"`` is that mask, as Gymnasium names it.

    ``reset`` returns zero rewards and no terminations. Every array returned is a
    read-only view of a buffer the env owns and overwrites at its next call: copy what
    you keep. ``state(i)`` is a copy of game ``i``'s engine state (perfect information).

    Threads: ``threads`` sets the Numba threads of each call (default: Numba's current
    setting; the caller's setting is restored after). One env serves one thread at a
    time: a call while another thread's call runs raises ``ConcurrentUseError``.
    ``close()`` (or ``with VectorEnv(...) as env:``) frees the buffers at once; a later
    call raises ``GameStateError``. Determinism, policies and encodings in more detail:
    the module docstring.
    """

    def __init__(self, rules: RulesLike = "classic", num_envs: int = 1024, *, seed: int = 0,
                 encoding: str = "fastdou", start: str = "bidding",
                 threads: int | None = None, opponents: object = None, check: bool = True):
        from fastdou.actions import action_table
        self.rules = as_rules(rules)
        self.num_envs = whole("num_envs", num_envs, 1, KV.MAX_SLOTS)
        self.seed = whole("seed", seed)
        if not isinstance(start, str) or start not in STARTS:
            raise ArgumentError(f"start is 'bidding' or 'play', not {short(start)}")
        self.start = start
        if threads is not None:
            threads = whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
        self.threads = threads
        self.check = flag("check", check)
        self.encoding = encoding
        if encoding == "rlcard" and start != "play":
            raise ArgumentError("the rlcard encoding is RLCard's setting: the landlord is "
                                "seat 0, so it needs start='play'")
        self.observation_size, self._encode = encoder(encoding, self.rules)
        self._codes, self._user = _seat_codes(opponents, self.rules)
        policy = P.no_user_policy if self._user is None else _guarded(self._user)
        self._functions = (KV.FunctionArg(policy, P.POLICY_SIGNATURE),
                           KV.FunctionArg(self._encode, KV.ENCODE_SIGNATURE))
        self.learner_seats = tuple(int(s) for s in np.flatnonzero(self._codes == KV.LEARNER))
        self.table = action_table(self.rules)
        self._busy = threading.Lock()          # held by the call running (one thread's)
        self._closed = False
        buffers = _buffers(self.num_envs, self.rules.players, self.observation_size)
        memory.check(f"VectorEnv({self.rules.name!r}, num_envs={self.num_envs:,})",
                     sum(int(np.prod(shape)) * np.dtype(dtype).itemsize
                         for shape, dtype, _ in buffers.values()), "lower num_envs")
        for name, (shape, dtype, fill) in buffers.items():
            setattr(self, name, np.full(shape, fill, dtype))
        self._mask = None
        self._started = False
        self._views()

    # ----------------------------------------------------------------- API
    @_exclusive()
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict]:
        """Deal a new game in every slot: with ``seed``, game 0 of every slot under that
        seed; without, every slot's next game. Returns ``(obs, info)``."""
        if seed is not None:
            self.seed = whole("seed", seed)
            self._games[:] = -1
        self._games += 1
        self._terminated[:] = False
        self._rewards[:] = 0.0
        with self._threads():
            self._advance(True)
        self._started = True
        return self._out["obs"], self._info()

    @_exclusive()
    def step(self, actions: np.ndarray) -> tuple:
        """Apply one action id per game (for the seat ``info["seat"]`` names) and play on
        to the caller's next turn; returns ``(obs, rewards, terminations, truncations,
        info)``. An illegal id raises IllegalMoveError naming the game (no game is changed
        then); with ``check=False`` only what ``Game.push_id`` checks is checked."""
        if not self._started:
            raise GameStateError("call reset() before step()")
        a = self._actions
        given = np.asarray(actions)
        if given.dtype.kind not in "iu" or given.shape != (self.num_envs,):
            raise ArgumentError(f"actions are {self.num_envs} integer action ids, not "
                                f"{given.dtype} {given.shape}")
        a[:] = given
        with self._threads():
            self._advance(False)
        out = self._out
        return out["obs"], out["rewards"], out["terminated"], out["truncated"], self._info()

    @_exclusive()
    def action_mask(self) -> np.ndarray:
        """The dense legal mask ``(num_envs, table.size)`` of the current turns (a read-only
        buffer reused between calls; 27,472 bytes a game for classic)."""
        if self._mask is None:
            memory.check(f"the action masks of {self.num_envs:,} games",
                         self.num_envs * self.table.size)
            self._mask = np.zeros((self.num_envs, self.table.size), bool)
            self._out["mask"] = _read_only(self._mask)
        KV.masks(self._flat, self._offsets, self._mask)
        return self._out["mask"]

    @property
    def obs(self) -> np.ndarray:
        """The observations of the last call (read-only)."""
        return self._out["obs"]

    @property
    def nbytes(self) -> int:
        """Bytes held by the env's arrays (the action table, shared, not counted)."""
        return sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))

    @_exclusive()
    def state(self, i: int) -> np.ndarray:
        """A copy of game ``i``'s engine state (perfect information)."""
        return self._states[whole("i", i, 0, self.num_envs - 1)].copy()

    @_exclusive(closing=True)
    def close(self) -> None:
        """Free the env's buffers now; any later call raises GameStateError (arrays handed
        out before stay valid: they keep their own memory). Closing again does nothing."""
        for name in _buffers(1, 1, 1):
            setattr(self, name, None)
        self._mask, self._out, self._closed = None, {}, True

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ----------------------------------------------------------------- internals
    def _enter(self, closing: bool = False) -> None:
        """Take the env for this call (released by :func:`_exclusive`), or raise: another
        thread's call is running, or the env is closed."""
        if not self._busy.acquire(False):
            raise ConcurrentUseError("this VectorEnv is used from two threads at once (a call "
                                     "is running on another thread): give each thread its "
                                     "own env")
        if self._closed and not closing:
            self._busy.release()
            raise GameStateError("the VectorEnv is closed")

    def _views(self) -> None:
        """The read-only views handed out, made once (the legal ids' is made per call)."""
        self._out = {name: _read_only(getattr(self, buf)) for name, buf in _HANDED_OUT.items()}

    def _advance(self, fresh: bool) -> None:
        """Deal every slot's game ``self._games[i]`` (``fresh``) or check and apply
        ``self._actions`` (IllegalMoveError if one is refused: no game changed then), play
        on to the caller's turns and pack the legal ids (inside ``_threads``): one call of
        the step kernel, one parallel region."""
        code = self._run(KV.RESET if fresh else KV.STEP)
        if code == KV.REFUSED:
            self._refuse(int(np.flatnonzero(self._status)[0]))
        if code == KV.POLICY_FAILED:    # a user policy that raises returns -1 (``_guarded``)
            i = int(np.flatnonzero(self._errors)[0])
            raise PolicyError(f"game {i}: a policy raised or returned an index outside the "
                              f"legal actions (reset the env)")
        if code == KV.NEED_IDS:
            total = int(self._offsets[-1])
            memory.check("the legal ids", 16 * total)
            self._flat = np.zeros(2 * total, np.int64)
            self._run(KV.GATHER)

    def _run(self, mode: int) -> int:
        """Run the step kernel in ``mode`` (inside ``_threads``); returns what it reports."""
        wild = bool(self.rules.wilds)
        if wild:                        # kernels.wild_steps' table, the rules array first
            table = kernel_table(self.rules)
        else:
            t = self.table
            table = (t.keys, t.key_ids, t.id_records, t.selection)
        return KV.compiled("step_batch", wild)(
            self._states, rules_array(self.rules, wild=True), table,
            (self.seed, int(self.start == "play")), self._codes, self._actions, mode,
            self.check, (self._games, self._rngs, self._seats),
            (self._obs, self._final_obs, self._rewards, self._terminated, self._final_scores,
             self._final_deals, self._pool, self._counts, self._errors),
            (self._flat, self._offsets, self._status, self._deals, self._next_block),
            numba.get_num_threads(), *self._functions, self._encode is KE.encode,
            True if wild else None)

    @contextlib.contextmanager
    def _threads(self):
        """Numba on ``threads`` threads inside the block (the caller's setting restored):
        every batch kernel of a call, the check included, runs under it."""
        previous = numba.get_num_threads()
        if self.threads is not None:
            numba.set_num_threads(self.threads)
        try:
            yield
        finally:
            numba.set_num_threads(previous)

    def _info(self) -> dict:
        out = self._out
        ids = self._flat[:self._offsets[-1]]
        ids.flags.writeable = False             # the env reads them back
        return {"seat": out["seat"], "legal_ids": ids, "legal_offsets": out["offsets"],
                "deal": out["deal"], "final_obs": out["final_obs"],
                "_final_obs": out["terminated"], "final_scores": out["final_scores"],
                "final_deal": out["final_deal"]}

    def _refuse(self, i: int):
        a = int(self._actions[i])
        st = self._states[i]
        seat = int(st[S.G_PLAYER])
        what = _STATUS.get(int(self._status[i]), "is refused").format(
            rules=self.rules.name, phase=_PHASES[int(st[S.G_PHASE])], seat=seat)
        name = ""
        if self.table.is_action(a):
            wild = rank_of_mask(st[S.G_WILDS])
            try:
                act = self.table.action(a, wild) if self.rules.wilds else self.table.action(a)
                name = f" ({act if isinstance(act, str) else act.text()})"
            except IllegalMoveError:    # a play id before the wild rank is drawn, or no move
                if wild is not None:    # under it
                    what = f"is no move when {cards.TOKENS[wild]} is wild"
        raise IllegalMoveError(f"game {i}: id {a}{name} {what}")

    def __repr__(self) -> str:
        return (f"<VectorEnv {self.rules.name} x{self.num_envs}, {self.encoding} encoding, "
                f"start={self.start!r}, learner seats {list(self.learner_seats)}>")
