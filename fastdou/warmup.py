"""Compile (and cache to disk) every kernel the API uses, for every preset's rules array."""

import numpy as np

from fastdou.generation import beats, generate_batch, legal_moves
from fastdou.moves import classify


def warmup() -> None:
    """Run each entry point once; later processes load the compiled code from the cache."""
    legal_moves("33344455BR")
    legal_moves("33344455BR", last="3334")
    classify("333444555666")
    beats("BR", "2222")
    generate_batch(np.ones((2, 15), dtype=np.uint8) * np.array([1] * 13 + [0, 0], np.uint8))
