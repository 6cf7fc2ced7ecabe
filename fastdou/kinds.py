"""The kinds of play, named as in docs/rules.md §2."""

import enum

from fastdou.kernels import layout as _layout

Kind = enum.IntEnum("Kind", {n: i for i, n in enumerate(_layout.KIND_NAMES)})
Kind.__doc__ = """A kind of play (docs/rules.md §2); values are the kernels' kind ids."""
Kind.__module__ = __name__
