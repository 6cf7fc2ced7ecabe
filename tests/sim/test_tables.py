"""Per-deal results as tables: every format read back equals the in-memory arrays, the
summary recomputed from the file equals the run's, the metadata rebuilds the same Rules,
narrow dtypes, named categories, pandas, compression and the user's umask."""

import json
import os
import zipfile

import numpy as np
import pytest

import fastdou
from fastdou.sim import table as T
from fastdou.sim.results import FORMATS, ResultWriter, read_table

pd = pytest.importorskip("pandas")
pq = pytest.importorskip("pyarrow.parquet")

CASES = [("classic", {}, ["greedy", "random", "random"]),
         ("five_player", {}, "random"),
         ("four_player", {"bomb_min": 5}, "random"),
         ("classic", {"doubling": "farmers", "bomb_factors": (1, 1, 1, 1, 3, 2, 2, 2, 2)},
          "greedy")]


def write(path, rules, policies, deals, seed, first=0):
    ref = fastdou.simulate(deals, rules, policies, seed=seed, first=first, per_deal=True)
    writer = ResultWriter(str(path), rules, ref.metadata())
    fastdou.simulate(deals, rules, policies, seed=seed, first=first, on_chunk=writer.write)
    writer.close()
    return ref


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize("preset,sets,policies", CASES)
def test_every_format_reads_back_exactly(tmp_path, monkeypatch, suffix, preset, sets,
                                         policies):
    monkeypatch.setattr("fastdou.sim.simulation_result.CHUNK", 1000)  # several chunks / row groups
    rules = fastdou.rules(preset, **sets)
    path = tmp_path / f"run{suffix}"
    ref = write(path, rules, policies, 2500, seed=9, first=123)
    back = fastdou.load_results(str(path))
    assert back.rules == rules                                  # every field rebuilt
    assert back.seed == 9 and back.first == 123
    assert back.policies == ref.policies
    assert back.per_deal.keys() == ref.per_deal.keys()
    for name, values in ref.per_deal.items():
        assert np.array_equal(back.per_deal[name], values), name
    assert back.summary == ref.summary                         # recomputed from the file
    _, meta = read_table(str(path))
    assert meta["deals"] == 2500 and meta["fastdou_version"] == fastdou.__version__
    assert meta["rules"] == rules.to_json()
    assert os.listdir(tmp_path) == [path.name]


def test_columns_are_flat_narrow_and_named(tmp_path):
    rules = fastdou.rules("classic")
    path = tmp_path / "run.parquet"
    ref = write(path, rules, "random", 3000, seed=1)
    df = pd.read_parquet(path)
    assert list(df.columns) == T.names(rules)
    assert list(df.columns[-3:]) == ["score_0", "score_1", "score_2"]
    assert list(df["winner"].cat.categories) == ["landlord", "farmers", "void"]
    assert list(df["spring"].cat.categories) == ["none", "spring", "anti_spring"]
    assert set(df["winner"].unique()) <= {"landlord", "farmers"}
    assert df["team_0"].dtype == bool
    landlord = ref.per_deal["landlord"]
    assert (df[["team_0", "team_1", "team_2"]].to_numpy()
            == (landlord[:, None] == np.arange(3))).all()      # classic: the landlord alone
    ints = {c: str(df[c].dtype) for c in df.columns if df[c].dtype.kind in "iu"}
    assert ints.pop("deal") == "int64"
    assert ints.pop("multiplier") == "int32"
    assert set(ints.values()) <= {"int8", "int16", "int32"}
    assert ints["landlord"] == "int8" and ints["plays"] == "int16"
    pd.testing.assert_frame_equal(df, ref.to_pandas(), check_categorical=False)
    assert ref.to_pandas().attrs["fastdou"]["seed"] == 1
    meta = json.loads(pq.read_schema(path).metadata[b"fastdou"])
    assert fastdou.Rules.from_json(meta["rules"]) == rules


def test_csv_and_npz_read_with_plain_tools(tmp_path):
    rules = fastdou.rules("two_player")
    ref = write(tmp_path / "run.csv", rules, "random", 1500, seed=3)
    df = pd.read_csv(tmp_path / "run.csv", comment="#")
    assert list(df.columns) == T.names(rules)
    assert np.array_equal(df["score_1"], ref.per_deal["scores"][:, 1])
    assert set(df["winner"]) <= {"landlord", "farmers", "void"}
    write(tmp_path / "run.npz", rules, "random", 1500, seed=3)
    with zipfile.ZipFile(tmp_path / "run.npz") as zf:
        assert {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_DEFLATED}
    with np.load(tmp_path / "run.npz") as data:                # no pickle needed
        assert data["winner"].dtype.kind == "U" and data["landlord"].dtype == np.int8
        assert json.loads(str(data["_metadata"]))["rules"]["name"] == "two_player"
        frame = pd.DataFrame({k: data[k] for k in data.files if k != "_metadata"})
    assert len(frame) == 1500


@pytest.mark.parametrize("suffix", FORMATS)
def test_files_follow_the_umask(tmp_path, suffix):
    old = os.umask(0o027)
    try:
        write(tmp_path / f"run{suffix}", fastdou.rules("classic"), "random", 100, seed=0)
    finally:
        os.umask(old)
    assert os.stat(tmp_path / f"run{suffix}").st_mode & 0o777 == 0o640


def test_bad_files_are_fastdou_errors(tmp_path):
    (tmp_path / "x.jsonl").write_text("not json\n")
    (tmp_path / "x.npz").write_bytes(b"PK no zip")
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    for name in ("x.jsonl", "x.npz", "x.csv", "missing.parquet"):
        with pytest.raises(fastdou.FastdouError):
            fastdou.load_results(str(tmp_path / name))
    with pytest.raises(fastdou.ArgumentError, match="per_deal=True"):
        fastdou.simulate(10).to_pandas()


@pytest.mark.parametrize("suffix", FORMATS)
def test_save_writes_what_the_stream_writes(tmp_path, suffix):
    res = fastdou.simulate(1200, "jinling", seed=2, per_deal=True)
    res.save(str(tmp_path / f"a{suffix}"))
    back = fastdou.load_results(str(tmp_path / f"a{suffix}"))
    assert back.summary == res.summary and back.rules == res.rules
    for k, v in res.per_deal.items():
        assert np.array_equal(back.per_deal[k], v), k


@pytest.mark.parametrize("suffix", FORMATS)
def test_summary_recomputed_from_the_file_equals_the_printed_one(tmp_path, capsys, suffix):
    from fastdou.cli import main
    path = tmp_path / f"run{suffix}"
    assert main(["simulate", "--deals", "3000", "--rules", "five_player", "--set",
                 "doubling=none", "--seed", "4", "--out", str(path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    back = fastdou.load_results(str(path))
    assert back.summary.to_dict() == printed["summary"]
    assert back.rules == fastdou.Rules.from_json(printed["rules_fields"])
    assert back.rules.doubling == "none"
