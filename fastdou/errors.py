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


class PolicyError(FastdouError):
    """An unknown policy name, a policy function that does not fit the signature, or one
    that fails while playing."""


class ArgumentError(FastdouError):
    """An argument of the wrong type, range or shape (a seat, seed, count, thread number)."""


class GameStateError(FastdouError):
    """A request the game's state does not allow: a result before the end, an undo with
    nothing to undo."""


class RecordError(FastdouError):
    """A game record (``Game.loads``) that is not valid JSON of the documented form."""


class PositionError(FastdouError):
    """A position that cannot arise in play: cards beyond the deck, a seat out of range, a
    move to beat that is not a legal move, or one without the seat that made it."""


class MissingExtraError(FastdouError, ImportError):
    """An optional dependency that is not installed; the message names the extra that
    installs it (also an ``ImportError``, as an import that fails is)."""


class ConcurrentUseError(FastdouError):
    """A ``Game`` or ``VectorEnv`` called from a second thread while a call from another
    is running (each is for one thread at a time; give every thread its own)."""


class OutOfMemoryError(FastdouError, MemoryError):
    """What a call would allocate is more than the machine has available; the message
    names both figures (also a ``MemoryError``)."""
