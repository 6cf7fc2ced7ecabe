"""The errors fastdou raises: each a ``ValueError`` subclass naming what is wrong."""


class FastdouError(ValueError):
    """Base class of every fastdou input error."""


class InvalidCardsError(FastdouError):
    """Cards that cannot be read, or that the deck of the rules in use cannot hold."""


class RulesError(FastdouError):
    """An unknown preset or profile, an unknown field, or fields that contradict each other."""


class IllegalMoveError(FastdouError):
    """Cards that form no legal move, or a move that may not be played here."""


class AmbiguousMoveError(FastdouError):
    """Cards with several readings, given without a hint saying which one is meant."""


class PositionError(FastdouError):
    """A position that cannot arise in play: cards beyond the deck, a seat out of range, a
    move to beat that is not a legal move, or one without the seat that made it."""
