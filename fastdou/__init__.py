"""fastdou: compiled move generation and simulation for the whole Dou Dizhu family.

>>> import fastdou
>>> moves = fastdou.legal_moves("33344455BR", last="3334")
>>> [m.text() for m in moves]
['444+3', '444+5', '444+B', '444+R', 'BR']
"""

import os
import sys
import types
import warnings
from typing import TYPE_CHECKING

from fastdou.submodules import submodule

# OpenMP's idle threads spin for milliseconds, taking a core from other work: wait passively
# unless the user chose. OpenMP reads it when Numba loads it, so only before its threads start.
_numba_pool = sys.modules.get("numba.np.ufunc.parallel")
if any(name in os.environ for name in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")):
    pass
elif not getattr(_numba_pool, "_is_initialized", False):
    os.environ.update(OMP_WAIT_POLICY="passive", KMP_BLOCKTIME="0")   # KMP_: Intel's OpenMP
elif _numba_pool.threading_layer() == "omp":
    warnings.warn("Numba's threads started before fastdou was imported, so they spin when "
                  "idle (OpenMP's default), which slows other work on a busy machine: set "
                  "OMP_WAIT_POLICY=passive before Python starts, or import fastdou first",
                  RuntimeWarning, stacklevel=2)
del _numba_pool

# What ``import fastdou`` offers, imported when first used: the command line's signal
# handling starts before Numba and the kernels are imported (fastdou.interrupts).
_EXPORTS = {
    "fastdou.actions": ("ActionTable", "action_table"),
    "fastdou.errors": ("AmbiguousMoveError", "ArgumentError", "ConcurrentUseError",
                       "FastdouError", "GameStateError", "IllegalMoveError",
                       "InvalidCardsError", "MissingExtraError", "OutOfMemoryError",
                       "PolicyError", "PositionError", "RecordError", "RulesError"),
    "fastdou.game": ("Game", "GameResult"),
    "fastdou.generation": ("beats", "generate_batch", "legal_moves"),
    "fastdou.kinds": ("Kind",),
    "fastdou.moves": ("Move", "MoveList", "classify"),
    "fastdou.observation": ("Observation",),
    "fastdou.rules": ("PRESETS", "PROFILES", "Rules", "rules"),
    "fastdou.sim.compare": ("Comparison", "compare"),
    "fastdou.sim.evaluation": ("Evaluation", "evaluate"),
    "fastdou.players": ("Policy", "policy"),
    "fastdou.position": ("Position",),
    "fastdou.sim.simulation": ("simulate",),
    "fastdou.sim.simulation_result": ("SimulationResult", "load_results"),
    "fastdou.sim.summary": ("Summary",),
    "fastdou.solver": ("LimitError", "Solution", "min_plays", "perft", "perft_divide",
                       "solve"),
    "fastdou.vector": ("VectorEnv",),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

if TYPE_CHECKING:                   # the same names, for type checkers
    from fastdou import cards
    from fastdou.actions import ActionTable, action_table
    from fastdou.errors import (AmbiguousMoveError, ArgumentError, ConcurrentUseError,
                                FastdouError, GameStateError, IllegalMoveError,
                                InvalidCardsError, MissingExtraError, OutOfMemoryError,
                                PolicyError, PositionError, RecordError, RulesError)
    from fastdou.game import Game, GameResult
    from fastdou.generation import beats, generate_batch, legal_moves
    from fastdou.kinds import Kind
    from fastdou.moves import Move, MoveList, classify
    from fastdou.observation import Observation
    from fastdou.rules import PRESETS, PROFILES, Rules, rules
    from fastdou.sim.compare import Comparison, compare
    from fastdou.sim.evaluation import Evaluation, evaluate
    from fastdou.players import Policy, policy
    from fastdou.position import Position
    from fastdou.sim.simulation import simulate
    from fastdou.sim.simulation_result import SimulationResult, load_results
    from fastdou.sim.summary import Summary
    from fastdou.solver import LimitError, Solution, min_plays, perft, perft_divide, solve
    from fastdou.vector import VectorEnv


def __getattr__(name):
    """Import a public name (or a submodule, such as ``fastdou.kernels``) when first used."""
    import importlib
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
    else:
        value = submodule(__name__, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """This package, whose ``rules`` and ``compare`` stay the functions when their
    submodules are imported (which sets the package's attribute to the module)."""

    def __setattr__(self, name, value):
        if not (isinstance(value, types.ModuleType) and name in _WHERE):
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__version__ = "0.1.0"
__all__ = [
    "action_table", "ActionTable", "AmbiguousMoveError", "ArgumentError", "beats", "cards",
    "classify", "compare", "Comparison", "ConcurrentUseError", "evaluate", "Evaluation",
    "FastdouError", "Game", "GameResult",
    "GameStateError", "generate_batch", "IllegalMoveError", "InvalidCardsError", "Kind",
    "legal_moves", "LimitError", "load_results", "min_plays", "MissingExtraError", "Move",
    "MoveList", "OutOfMemoryError",
    "Observation", "perft", "perft_divide", "Policy", "policy", "PolicyError", "Position",
    "PositionError",
    "PRESETS", "PROFILES", "RecordError", "Rules", "rules", "RulesError", "simulate",
    "SimulationResult", "Solution", "solve", "Summary", "VectorEnv",
]
