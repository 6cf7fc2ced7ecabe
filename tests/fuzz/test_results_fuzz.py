"""Results fuzz: damaged, cut, mixed and crafted files and datasets are each either
loaded with exactly the deals they hold, matching their metadata, or refused with a
``FastdouError``; nothing else. Derandomized, no example database; ``FASTDOU_FUZZ_EXAMPLES``
sets the examples per test."""

import json
import os
import shutil
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastdou
from fastdou import FastdouError
from fastdou.sim import table as T

EXAMPLES = int(os.environ.get("FASTDOU_FUZZ_EXAMPLES", "60"))
fuzz = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                suppress_health_check=list(HealthCheck))
FORMATS = (".parquet", ".csv", ".jsonl", ".npz")
RUNS = {name: fastdou.simulate(40, name, "random", seed=1, first=3, per_deal=True)
        for name in ("classic", "five_player", "jinling")}
ORIGINAL = {}
WORK = tempfile.mkdtemp(prefix="fastdou-fuzz-")
for name, run in RUNS.items():
    for ext in FORMATS:
        path = os.path.join(WORK, name + ext)
        run.save(path)
        with open(path, "rb") as f:
            ORIGINAL[name + ext] = f.read()


def loaded_or_refused(path):
    """The result, or None when refused; anything else fails."""
    try:
        return fastdou.load_results(path)
    except FastdouError:
        return None


def holds_what_it_says(result, meta):
    """A loaded result: the deals its metadata names, once each, and valid rows."""
    deal = result.per_deal["deal"]
    assert np.array_equal(deal, np.arange(meta["first"], meta["first"] + meta["deals"]))
    assert result.summary.deals == meta["deals"] and result.seed == meta["seed"]
    assert list(result.policies) == meta["policies"]
    scores = T.score_units(result.per_deal["scores"])
    assert (scores.sum(axis=1) == 0).all()


def same(a, b):
    for k in a.per_deal:
        assert np.array_equal(a.per_deal[k], b.per_deal[k]), k


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


files = st.sampled_from(sorted(ORIGINAL))


@fuzz
@given(files, st.data())
def test_cut_files(name, data):
    raw = ORIGINAL[name]
    cut = data.draw(st.integers(0, len(raw)))
    path = os.path.join(WORK, "cut-" + name)
    write(path, raw[:cut])
    got = loaded_or_refused(path)
    if got is not None:                 # only the whole file (or one missing final newline)
        assert cut >= len(raw) - 1
        same(got, RUNS[name.split(".")[0]])


@fuzz
@given(files, st.data())
def test_damaged_bytes(name, data):
    raw = bytearray(ORIGINAL[name])
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = os.path.join(WORK, "bad-" + name)
    write(path, bytes(raw))
    got = loaded_or_refused(path)
    if got is not None:
        holds_what_it_says(got, fastdou.sim.results.read_table(path)[1])


text_files = st.sampled_from(sorted(n for n in ORIGINAL if n.endswith((".csv", ".jsonl"))))
line_edits = st.sampled_from(["delete", "duplicate", "swap", "blank", "foreign"])


@fuzz
@given(text_files, st.lists(st.tuples(line_edits, st.integers(0, 60), st.integers(0, 60)),
                            min_size=1, max_size=3))
def test_lines_cut_moved_and_mixed(name, edits):
    lines = ORIGINAL[name].decode().splitlines(keepends=True)
    other = ORIGINAL[("jinling" if not name.startswith("jinling") else "classic") + "."
                     + name.split(".")[1]].decode().splitlines(keepends=True)
    moved_only = True
    for edit, i, j in edits:
        i, j = i % len(lines), j % len(lines)
        if edit == "delete":
            del lines[i]
        elif edit == "duplicate":
            lines.insert(j, lines[i])
        elif edit == "swap":
            lines[i], lines[j] = lines[j], lines[i]
            continue
        elif edit == "blank":
            lines.insert(i, "\n")
        else:
            lines[i] = other[i % len(other)]
        moved_only = False
    path = os.path.join(WORK, "lines-" + name)
    write(path, "".join(lines).encode())
    got = loaded_or_refused(path)
    if got is not None:
        holds_what_it_says(got, fastdou.sim.results.read_table(path)[1])
        if moved_only:
            same(got, RUNS[name.split(".")[0]])


values = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70),
                   st.floats(allow_nan=True), st.text(max_size=8),
                   st.lists(st.integers(-2, 5), max_size=4),
                   st.sampled_from([0, 1, -1, 2 ** 63 - 1, 2 ** 31, 255, 0.5, "void"]))


@fuzz
@given(st.sampled_from(sorted(RUNS)), st.integers(0, 39), st.data(), values, st.booleans())
def test_crafted_rows_and_metadata(name, row, data, value, in_meta):
    lines = ORIGINAL[name + ".jsonl"].decode().splitlines(keepends=True)
    if in_meta:
        meta = json.loads(lines[0])
        key = data.draw(st.sampled_from(sorted(meta["fastdou"])))
        meta["fastdou"][key] = value
        lines[0] = json.dumps(meta) + "\n"
    else:
        obj = json.loads(lines[row + 1])
        key = data.draw(st.sampled_from(sorted(obj)))
        obj[key] = value
        lines[row + 1] = json.dumps(obj) + "\n"
    path = os.path.join(WORK, "crafted-" + name + ".jsonl")
    write(path, "".join(lines).encode())
    got = loaded_or_refused(path)
    if got is not None:
        holds_what_it_says(got, json.loads(lines[0])["fastdou"])


@fuzz
@given(st.lists(st.tuples(st.sampled_from([1, 2]), st.integers(0, 3), st.booleans()),
                min_size=1, max_size=4),
       st.one_of(st.none(), st.tuples(st.sampled_from([1, 2]), st.integers(0, 3),
                                      st.integers(1, 5), st.booleans())))
def test_mixed_datasets(parts, manifest):
    """Parts of one or two seeds, copies, gaps, and a manifest (or none) declaring a run of
    some seed and range, listing every part file or only those of that range."""
    pytest.importorskip("pyarrow")
    from fastdou.sim.results import metadata, part_name, write_manifest
    ds = tempfile.mkdtemp(dir=WORK)
    try:
        held = {}                        # file name -> (seed, k, copy): a later save wins
        for seed, k, copy in parts:
            run = fastdou.simulate(20, seed=seed, first=20 * k, per_deal=True)
            name = part_name(20 * k, 20) if not copy else f"part-copy-{seed}-{k}.parquet"
            run.save(os.path.join(ds, name))
            held[name] = (seed, k, copy)
        if manifest is not None:
            seed, k, n, every = manifest
            listed = sorted(held) if every else [part_name(20 * j, 20) for j in range(k, k + n)]
            write_manifest(ds, metadata(fastdou.Rules(), seed, ["random"] * 3, 20 * k, 20 * n),
                           listed)
        got = loaded_or_refused(ds)
        if got is not None:
            assert manifest is not None
            assert all(held.get(f, (None,))[0] == seed for f in listed)
            assert not any(held[f][2] for f in listed)
            assert np.array_equal(got.per_deal["deal"], np.arange(20 * k, 20 * (k + n)))
            assert got.seed == seed
            assert got.summary.to_dict() == fastdou.simulate(20 * n, seed=seed,
                                                             first=20 * k).summary.to_dict()
    finally:
        shutil.rmtree(ds)
