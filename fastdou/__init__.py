"""fastdou: compiled move generation and simulation for the whole Dou Dizhu family.

>>> import fastdou
>>> moves = fastdou.legal_moves("33344455BR", last="3334")
>>> [m.text() for m in moves]
['444+3', '444+5', '444+B', '444+R', 'BR']
"""

from fastdou import cards
from fastdou.errors import (AmbiguousMoveError, FastdouError, IllegalMoveError,
                            InvalidCardsError, PositionError, RulesError)
from fastdou.game import Game, GameResult
from fastdou.generation import beats, generate_batch, legal_moves
from fastdou.kinds import Kind
from fastdou.moves import Move, MoveList, classify
from fastdou.rules import PRESETS, PROFILES, Rules, rules
from fastdou.simulation import PolicyError, SimulationResult, Summary, simulate
from fastdou.position import Position
from fastdou.solver import LimitError, Solution, min_plays, perft, perft_divide, solve

__version__ = "0.1.0"
__all__ = [
    "AmbiguousMoveError", "FastdouError", "Game", "GameResult", "IllegalMoveError",
    "InvalidCardsError", "Kind", "Move", "MoveList", "PRESETS", "PROFILES", "PolicyError",
    "Rules", "RulesError", "SimulationResult", "Summary", "beats", "cards", "classify",
    "generate_batch", "legal_moves", "rules", "simulate",
    "LimitError", "Position", "PositionError", "Solution", "min_plays", "perft",
    "perft_divide", "solve",
]
