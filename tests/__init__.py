"""fastdou's tests, grouped by layer (a package, so tests and benchmarks import shared helpers as ``tests.shared`` and ``tests.reference``)."""
