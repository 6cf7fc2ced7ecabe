"""Results files are checked against their own metadata and schema: a cut, padded,
mixed or crafted file or dataset is refused with a ``RecordError`` naming the file, the row
and the rule; every file fastdou writes, of every preset and format, loads back exactly; and a
signal while a writer starts leaves no temporary file."""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import fastdou
from fastdou.cli import main
from fastdou.sim.results import part_name
from fastdou.errors import RecordError

RULES = [fastdou.rules(n) for n in fastdou.PRESETS] + [
    fastdou.rules("classic", profile=p) for p in ("openspiel", "douzero")]
FORMATS = (".parquet", ".csv", ".jsonl", ".npz")


@pytest.fixture(scope="module")
def run():
    return fastdou.simulate(5000, "classic", "random", seed=3, per_deal=True)


def saved(run, tmp_path, ext, name="r"):
    path = str(tmp_path / (name + ext))
    run.save(path)
    return path


def lines(path):
    with open(path) as f:
        return f.readlines()


def write_lines(path, rows):
    with open(path, "w") as f:
        f.writelines(rows)


def refused(path, *words):
    with pytest.raises(RecordError) as e:
        fastdou.load_results(path)
    text = str(e.value)
    assert os.path.basename(os.path.normpath(path)) in text, text
    for w in words:
        assert w in text, text
    return text


def same(a, b):
    assert a.per_deal.keys() == b.per_deal.keys()
    for k in a.per_deal:
        assert np.array_equal(a.per_deal[k], b.per_deal[k]), k
    assert a.summary.to_dict() == b.summary.to_dict()


# ------------------------------------------------------------------ what fastdou writes
@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-{r.profile}")
def test_every_format_of_every_preset_round_trips(rules, tmp_path):
    for policy in ("random", "greedy", "tests.shared.policies:first_listed"):   # void deals too
        result = fastdou.simulate(150, rules, policy, seed=2, first=11, per_deal=True)
        for ext in FORMATS:
            back = fastdou.load_results(saved(result, tmp_path, ext))
            same(back, result)
            assert (back.seed, back.first, back.policies) == (2, 11, result.policies)


def test_command_line_files_load(tmp_path, capsys):
    for ext in FORMATS:
        out = str(tmp_path / ("c" + ext))
        assert main(["simulate", "--deals", "700", "--rules", "five_player", "--seed", "4",
                     "--out", out]) == 0
        assert fastdou.load_results(out).summary.deals == 700
    capsys.readouterr()


# ------------------------------------------------------------------ the breaks once found
@pytest.mark.parametrize("ext", [".csv", ".jsonl"])
def test_a_file_cut_at_a_line_boundary_is_refused(run, tmp_path, ext):
    path = saved(run, tmp_path, ext)
    rows = lines(path)
    write_lines(path, rows[:len(rows) // 2])
    refused(path, "metadata says 5,000")


def test_plot_refuses_a_cut_file(run, tmp_path, capsys):
    path = saved(run, tmp_path, ".csv")
    write_lines(path, lines(path)[:2501])
    status = main(["plot", path, "-o", str(tmp_path / "r.png")])
    err = capsys.readouterr().err
    assert status != 0 and "r.csv" in err and "metadata says" in err
    assert not (tmp_path / "r.png").exists()


def test_a_blank_line_inside_a_csv_is_refused(run, tmp_path):
    path = saved(run, tmp_path, ".csv")
    rows = lines(path)
    write_lines(path, rows[:100] + ["\n"] + rows[100:])
    refused(path, "line 101")


def dataset(ds, parts, seed=1, first=0, deals=None):
    """Declare the folder ``ds`` a finished dataset of ``parts`` (file names), as a Dask
    run does once its parts are written."""
    from fastdou.sim.results import metadata, write_manifest
    write_manifest(str(ds), metadata(fastdou.Rules(), seed, ["random"] * 3, first,
                                     100 * len(parts) if deals is None else deals), parts)


def test_a_dataset_without_its_manifest_is_refused(tmp_path):
    pytest.importorskip("pyarrow")
    ds = tmp_path / "ds"
    ds.mkdir()
    fastdou.simulate(100, seed=1, per_deal=True).save(str(ds / part_name(0, 100)))
    refused(str(ds), "not a finished dataset", "_dataset.json")
    dataset(ds, [part_name(0, 100)])
    assert fastdou.load_results(str(ds)).summary.deals == 100


def test_a_dataset_holding_a_part_twice_is_refused(run, tmp_path):
    pytest.importorskip("pyarrow")
    ds = tmp_path / "ds"
    ds.mkdir()
    run.save(str(ds / part_name(0, 5000)))
    shutil.copy(ds / part_name(0, 5000), ds / "part-copy.parquet")
    dataset(ds, [part_name(0, 5000), "part-copy.parquet"], seed=3, deals=10_000)
    refused(str(ds), "must be named")
    dataset(ds, [part_name(0, 5000)] * 2, seed=3, deals=10_000)
    refused(str(ds), "overlapping")
    dataset(ds, [part_name(0, 5000)], seed=3, deals=5000)
    assert fastdou.load_results(str(ds)).summary.deals == 5000


@pytest.mark.parametrize("seed,first,deals,reason", [
    (2, 100, 200, "seed"), (1, 200, 200, "overlapping"), (1, 100, 300, "its _dataset.json says"),
    (1, 100, 100, "its _dataset.json says")])
def test_a_dataset_of_two_seeds_or_with_a_gap_is_refused(tmp_path, seed, first, deals, reason):
    pytest.importorskip("pyarrow")
    ds = tmp_path / "ds"
    ds.mkdir()
    fastdou.simulate(100, seed=1, per_deal=True).save(str(ds / part_name(0, 100)))
    fastdou.simulate(100, seed=seed, first=first, per_deal=True).save(
        str(ds / part_name(first, 100)))
    dataset(ds, [part_name(0, 100), part_name(first, 100)], deals=deals)
    refused(str(ds), reason)


def test_a_dataset_listing_a_missing_part_is_refused(tmp_path):
    pytest.importorskip("pyarrow")
    ds = tmp_path / "ds"
    ds.mkdir()
    fastdou.simulate(100, seed=1, per_deal=True).save(str(ds / part_name(0, 100)))
    dataset(ds, [part_name(0, 100), part_name(100, 100)])
    refused(str(ds), "missing", part_name(100, 100))


def test_parts_its_manifest_does_not_list_are_not_read(tmp_path):
    """Parts of an unfinished longer run beside a finished dataset leave it as it was."""
    pytest.importorskip("pyarrow")
    ds = tmp_path / "ds"
    ds.mkdir()
    fastdou.simulate(100, seed=1, per_deal=True).save(str(ds / part_name(0, 100)))
    dataset(ds, [part_name(0, 100)])
    fastdou.simulate(100, seed=1, first=100, per_deal=True).save(str(ds / part_name(100, 100)))
    got = fastdou.load_results(str(ds))
    assert got.summary.to_dict() == fastdou.simulate(100, seed=1).summary.to_dict()


def edit_meta(path, change):
    rows = lines(path)
    meta = json.loads(rows[0])
    change(meta["fastdou"])
    rows[0] = json.dumps(meta) + "\n"
    write_lines(path, rows)


@pytest.mark.parametrize("change, words", [
    (lambda m: m.update(policies="random"), "policies"),
    (lambda m: m.update(policies=["random"] * 2), "policies"),
    (lambda m: m.update(seed=1.5), "seed"),
    (lambda m: m.update(seed=True), "seed"),
    (lambda m: m.update(schema=2), "schema"),
    (lambda m: m.update(format="other"), "format"),
    (lambda m: m.update(deals="5000"), "deals"),
    (lambda m: m.update(first=-1), "first"),
    (lambda m: m.update(extra=1), "fields"),
    (lambda m: m["rules"].update(players="3"), "rules"),
])
def test_bad_metadata_is_refused(run, tmp_path, change, words):
    path = saved(run, tmp_path, ".jsonl")
    edit_meta(path, change)
    refused(path, words)


def edit_rows(path, row, **values):
    rows = lines(path)
    data = json.loads(rows[row + 1])
    data.update(values)
    rows[row + 1] = json.dumps(data) + "\n"
    write_lines(path, rows)


@pytest.mark.parametrize("values, rule", [
    ({"score_0": 7.0}, "sum to zero"),
    ({"bombs": 0, "bombs_4": 1}, "more bombs_* than bombs"),
    ({"landlord": 0.7}, "landlord"),
    ({"landlord": 5}, "landlord outside"),
    ({"deal": 4}, "twice"),
    ({"deal": 9000}, "outside"),
    ({"winner": "nobody"}, "winner"),
    ({"team_0": 1}, "team_0"),
    ({"plays": 10 ** 6}, "more plays than actions"),
    ({"multiplier": 0}, "multiplier below 1"),
    ({"multiplier": 2 ** 62}, "multiplier"),
    ({"score_0": 1e300, "score_1": -1e300}, "too large"),
    ({"score_0": float("nan")}, "not finite"),
])
def test_impossible_rows_are_refused(run, tmp_path, values, rule):
    path = saved(run, tmp_path, ".jsonl")
    edit_rows(path, 6, **values)
    text = refused(path, rule)
    assert "line 8" in text or "row 7" in text, text          # the row, read or checked


def npz_with(path, **columns):
    with np.load(path) as data:
        cols = {k: data[k] for k in data.files}
    cols.update(columns)
    np.savez(path, **cols)


def test_a_fractional_landlord_in_npz_is_refused(run, tmp_path):
    path = saved(run, tmp_path, ".npz")
    with np.load(path) as data:
        lord = data["landlord"].astype(np.float64)
    lord[3] = 0.7
    npz_with(path, landlord=lord)
    refused(path, "row 4", "landlord", "whole number")


@pytest.mark.parametrize("column, value, rule", [
    ("multiplier", 2 ** 62, "multiplier"),
    ("plays", 2 ** 62, "plays"),
])
def test_overflowing_values_are_refused(run, tmp_path, column, value, rule):
    path = saved(run, tmp_path, ".npz")
    with np.load(path) as data:
        a = data[column].astype(np.int64)
    a[:] = value
    if column == "plays":
        with np.load(path) as data:
            npz_with(path, actions=np.full(len(a), value, np.int64))
    npz_with(path, **{column: a})
    refused(path, "row 1", rule)


def test_a_file_padded_with_a_row_of_another_file_is_refused(run, tmp_path):
    path = saved(run, tmp_path, ".csv")
    rows = lines(path)
    write_lines(path, rows + rows[2:3])
    refused(path, "metadata says")


# ------------------------------------------------------------------ signals
def test_a_signal_right_after_mkstemp_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "r.parquet"
    code = textwrap.dedent(f"""
        import os, signal, sys, tempfile, time
        real = tempfile.mkstemp
        def mkstemp(*a, **k):
            made = real(*a, **k)
            if k.get("prefix") == ".fastdou-":
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(2)             # the signal lands right after mkstemp
            return made
        tempfile.mkstemp = mkstemp
        from fastdou.cli import main
        sys.exit(main(["simulate", "--deals", "100", "--out", {str(out)!r}]))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 143, proc.stderr            # never a negative status
    assert os.listdir(tmp_path) == []
