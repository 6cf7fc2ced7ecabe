"""fastdou: compiled move generation and simulation for the whole Dou Dizhu family.

>>> import fastdou
>>> moves = fastdou.legal_moves("33344455BR", last="3334")
>>> [m.text() for m in moves]
['444+3', '444+5', '444+B', '444+R', 'BR']
"""

from fastdou import cards
from fastdou.actions import ActionTable, action_table
from fastdou.errors import (AmbiguousMoveError, ArgumentError, FastdouError, GameStateError,
                            IllegalMoveError, InvalidCardsError, PolicyError, PositionError,
                            RecordError, RulesError)
from fastdou.game import Game, GameResult
from fastdou.generation import beats, generate_batch, legal_moves
from fastdou.kinds import Kind
from fastdou.moves import Move, MoveList, classify
from fastdou.observation import Observation
from fastdou.rules import PRESETS, PROFILES, Rules, rules
from fastdou.compare import Comparison, compare
from fastdou.position import Position
from fastdou.results import load_results
from fastdou.simulation import SimulationResult, Summary, simulate
from fastdou.solver import LimitError, Solution, min_plays, perft, perft_divide, solve
from fastdou.vector import VectorEnv

__version__ = "0.1.0"
__all__ = [
    "action_table", "ActionTable", "AmbiguousMoveError", "ArgumentError", "beats", "cards",
    "classify", "compare", "Comparison", "FastdouError", "Game", "GameResult",
    "GameStateError", "generate_batch", "IllegalMoveError", "InvalidCardsError", "Kind",
    "legal_moves", "LimitError", "load_results", "min_plays", "Move", "MoveList",
    "Observation", "perft", "perft_divide", "PolicyError", "Position", "PositionError",
    "PRESETS", "PROFILES", "RecordError", "Rules", "rules", "RulesError", "simulate",
    "SimulationResult", "Solution", "solve", "Summary", "VectorEnv",
]
