"""Benchmark options: ``--quick`` runs small corpora (CI); the default sizes give the README's
figures. Run with ``python -m pytest benchmarks [--quick]``."""

import pytest


def pytest_addoption(parser):
    parser.addoption("--quick", action="store_true", help="small corpora, for CI")


@pytest.fixture(scope="session")
def quick(request):
    return request.config.getoption("--quick")
