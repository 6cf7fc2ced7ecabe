"""Compile-time helpers in one place: Numba's disk cache and entry points, the compile
notices, the cold start's helper process, and warmup (every entry point run once)."""
from fastdou.submodules import lazy

__getattr__ = lazy(__name__)
