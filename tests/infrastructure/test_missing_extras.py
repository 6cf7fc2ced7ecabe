"""An optional dependency that is missing is a one-line error naming the extra to install,
at the import of the module that needs it, not a raw ModuleNotFoundError."""

import subprocess
import sys

import pytest

BLOCK = "import sys\nfor m in {blocked!r}: sys.modules[m] = None\n"


def last_line(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1, done.stderr
    return done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("module,blocked,name", [
    ("fastdou.adapters.rlcard", ("rlcard",), "rlcard"),
    ("fastdou.adapters.pettingzoo", ("gymnasium",), "gymnasium"),
    ("fastdou.adapters.pettingzoo", ("pettingzoo",), "pettingzoo"),
])
def test_an_adapter_without_its_library_names_the_extra(module, blocked, name):
    line = last_line(BLOCK.format(blocked=blocked) + f"import {module}")
    assert line == (f"fastdou.errors.MissingExtraError: {name} is not installed: "
                    f"pip install 'fastdou[rl]'")


def test_the_error_is_an_import_error_and_a_fastdou_error():
    code = BLOCK.format(blocked=("rlcard",)) + (
        "import fastdou\n"
        "try:\n    import fastdou.adapters.rlcard\n"
        "except ImportError as e:\n    assert isinstance(e, fastdou.FastdouError)\n"
        "    raise SystemExit(1)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert done.returncode == 1, done.stderr
