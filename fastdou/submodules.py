"""A package's submodules as attributes imported on first use (``fastdou.sim.results`` after
``import fastdou``), as ``import fastdou.sim.results`` would import them."""
import importlib


def submodule(package: str, name: str):
    """The submodule ``name`` of ``package``, imported; AttributeError when it has none."""
    if not name.startswith("_"):
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{package}.{name}":
                raise
    raise AttributeError(f"module {package!r} has no attribute {name!r}") from None


def lazy(package: str):
    """A module ``__getattr__`` for ``package``: its submodules, imported when first used."""
    def __getattr__(name):
        return submodule(package, name)
    return __getattr__
