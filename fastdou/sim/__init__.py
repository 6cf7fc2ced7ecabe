"""The simulation layer, above the game layer: local and Dask runs, results files, summaries,
plots, comparisons and evaluation."""
from fastdou.submodules import lazy

__getattr__ = lazy(__name__)
