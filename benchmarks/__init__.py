"""Benchmarks (pytest-benchmark, ``python -m pytest benchmarks [--quick]``) and the side-by-side comparison with other engines (``python -m benchmarks.compare``)."""
