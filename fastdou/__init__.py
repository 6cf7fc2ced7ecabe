"""fastdou: compiled move generation for the whole Dou Dizhu family.

>>> import fastdou
>>> moves = fastdou.legal_moves("33344455BR", last="3334")
>>> [m.text() for m in moves]
['444+3', '444+5', '444+B', '444+R', 'BR']
"""

from fastdou import cards
from fastdou.errors import (AmbiguousMoveError, FastdouError, IllegalMoveError,
                            InvalidCardsError, RulesError)
from fastdou.generation import beats, generate_batch, legal_moves
from fastdou.kinds import Kind
from fastdou.moves import Move, MoveList, classify
from fastdou.rules import PRESETS, PROFILES, Rules, rules

__version__ = "0.1.0"
__all__ = [
    "AmbiguousMoveError", "FastdouError", "IllegalMoveError", "InvalidCardsError", "Kind",
    "Move", "MoveList", "PRESETS", "PROFILES", "Rules", "RulesError", "beats", "cards",
    "classify", "generate_batch", "legal_moves", "rules",
]
