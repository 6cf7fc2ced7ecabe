"""Helpers shared by tests and benchmarks: rule sets, random hands and positions, the benchmark corpus, user policies for tests."""
