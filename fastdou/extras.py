"""Optional dependencies: each imported only where its feature is used, or a one-line error
naming the extra that installs it."""

import importlib

from fastdou.errors import MissingExtraError


def need(module: str, extra: str):
    """Import ``module``, or raise a MissingExtraError saying which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"{module.split('.')[0]} is not installed: "
                                f"pip install 'fastdou[{extra}]'") from None
