"""The ```bash blocks of README.md and docs/*.md, run: the Python blocks are doctests
(pyproject's ``--doctest-glob``); these are shell, so every ``fastdou ...`` command in them
is run here with ``fastdou.cli.main``, in a temporary folder, and must exit with status 0.

* A line is split at ``&&``; ``#`` starts a comment (``shlex``).
* Sizes are made small by one substitution, :data:`SMALL`: ``--deals N`` becomes
  ``--deals 60`` whatever N is (the examples ask for millions). Nothing else is changed.
* A command that is not ``fastdou ...``, or that cannot run here, must be listed in
  :data:`SKIPPED` with the reason, exactly as written; an unlisted one fails the test, a
  listed one no block holds fails it too, and at least :data:`MIN_RUN` commands must run.
* The commands of one file run in order in one folder: a later one reads the files an
  earlier one wrote (``fastdou plot bomb5.parquet`` after ``--out bomb5.parquet``).
"""

import re
import shlex
from pathlib import Path

import pytest

from fastdou.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SMALL = {"--deals": "60"}
SKIPPED = {
    "pip install -e .": "installs fastdou: done before the tests run",
    "pip install -e '.[test]'": "installs the test extra: done before the tests run",
    "python -m pytest -n 2 --dist loadfile": "the test suite itself",
    "fastdou simulate --deals 1G --scheduler tcp://head:8786 --out /shared/runs/1G/":
        "needs a Dask scheduler at tcp://head:8786",
}
MIN_RUN = 19


def commands(path):
    """Every command of the file's bash blocks, as written (comments and ``&&`` split)."""
    text = path.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.splitlines():
            words = shlex.split(line, comments=True) + ["&&"]
            while words:
                end = words.index("&&")
                if end:
                    out.append(shlex.join(words[:end]))
                words = words[end + 1:]
    return out


def small(argv):
    """``argv`` with :data:`SMALL`'s options set to their small values."""
    out = list(argv)
    for i, a in enumerate(out[:-1]):
        if a in SMALL:
            out[i + 1] = SMALL[a]
    return out


def to_run(path):
    """The argv (after ``fastdou``) of each command of ``path`` to run, in order."""
    return [shlex.split(c)[1:] for c in commands(path)
            if c not in SKIPPED and shlex.split(c)[0] == "fastdou"]


def test_every_command_is_run_or_listed():
    every = [c for path in DOCS for c in commands(path)]
    unknown = [c for c in every if c not in SKIPPED and shlex.split(c)[0] != "fastdou"]
    assert unknown == [], "not fastdou commands: list them in SKIPPED with a reason"
    assert set(SKIPPED) <= set(every), "SKIPPED lists commands no bash block holds"
    assert sum(len(to_run(path)) for path in DOCS) >= MIN_RUN


@pytest.mark.parametrize("path", [p for p in DOCS if to_run(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_bash_block_commands_run(path, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for argv in to_run(path):
        status = main(small(argv))
        _, err = capsys.readouterr()
        assert status == 0, f"fastdou {shlex.join(small(argv))}: {err}"
