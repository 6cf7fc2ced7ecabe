"""Report figures, rendered headless: each panel holds what the results say."""

import os

import numpy as np
import pytest

import fastdou
from fastdou.cli import main
from fastdou.sim.plots import PANELS, WILD_PANELS, report_data

pytest.importorskip("matplotlib")
pytest.importorskip("pyarrow")


def bar_groups(ax):
    from matplotlib.container import BarContainer
    return [c for c in ax.containers if isinstance(c, BarContainer)]


def bars(ax, i):
    return [p.get_height() for p in bar_groups(ax)[i].patches]


def test_one_result_figure_holds_its_rates():
    res = fastdou.simulate(4000, "classic", ["greedy", "random", "random"], seed=2,
                           per_deal=True)
    fig = res.plot()
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == list(PANELS)
    f = res.per_deal
    won = f["winner"] == 0
    decided = f["winner"] != 2
    # win rate by bid and by seat: the bar heights are the rates of the per-deal arrays
    bids = sorted(np.unique(f["bid"][decided]))
    assert bars(axes[1], 0) == pytest.approx(
        [won[decided & (f["bid"] == b)].mean() for b in bids])
    assert [t.get_text() for t in axes[1].get_xticklabels()] == [str(b) for b in bids]
    assert bars(axes[2], 0) == pytest.approx(
        [won[decided & (f["landlord"] == s)].mean() for s in range(3)])
    assert bars(axes[2], 0)[0] > 0.8 > max(bars(axes[2], 0)[1:])   # greedy sits in seat 0
    values, counts = np.unique(f["multiplier"][decided], return_counts=True)
    assert bars(axes[3], 0) == pytest.approx(counts / decided.sum())
    # score histograms: one for each side, densities integrating to 1 over their range
    hist = [p for p in axes[0].patches]
    assert len(hist) == 2
    data = report_data(res)
    assert len(data["landlord_scores"]) == decided.sum()
    assert len(data["farmer_scores"]) == 2 * decided.sum()


def test_comparison_figure_and_command_line(tmp_path, capsys):
    paths = []
    for name, policy in (("random", "random"), ("greedy", "greedy")):
        path = tmp_path / f"{name}.parquet"
        assert main(["simulate", "--deals", "3000", "--policy", policy, "--out",
                     str(path)]) == 0
        paths.append(str(path))
    out = tmp_path / "report.png"
    assert main(["plot", *paths, "-o", str(out), "--labels", "random", "greedy"]) == 0
    assert out.stat().st_size > 10_000 and out.read_bytes()[:4] == b"\x89PNG"
    assert sorted(os.listdir(tmp_path)) == ["greedy.parquet", "random.parquet", "report.png"]
    results = [fastdou.load_results(p) for p in paths]
    fig = results[0].plot(others=results[1:], labels=["random", "greedy"])
    by_seat = fig.axes[2]
    assert len(bar_groups(by_seat)) == 2                  # one bar group per result
    for i, r in enumerate(results):
        f = r.per_deal
        d = f["winner"] != 2
        assert bars(by_seat, i) == pytest.approx(
            [(f["winner"] == 0)[d & (f["landlord"] == s)].mean() for s in range(3)])
    assert [t.get_text() for t in by_seat.get_legend().get_texts()] == ["random", "greedy"]
    assert len(fig.axes[0].patches) == 4                 # two sides for each result
    capsys.readouterr()


def test_wild_cards_add_a_row_by_wild_rank(tmp_path, capsys):
    """A result with wild cards (from a file, through ``fastdou plot``) draws three more
    panels: landlord win rate, bombs per deal and mean multiplier by wild rank; one without
    wild cards beside it draws none there."""
    path = tmp_path / "laizi.parquet"
    assert main(["simulate", "--deals", "2000", "--rules", "laizi", "--out", str(path)]) == 0
    assert main(["plot", str(path), "-o", str(tmp_path / "laizi.png")]) == 0
    res = fastdou.load_results(str(path))
    classic = fastdou.simulate(500, seed=3, per_deal=True)
    fig = res.plot(others=[classic], labels=["laizi", "classic"])
    assert [ax.get_title() for ax in fig.axes] == list(PANELS + WILD_PANELS)
    f = res.per_deal
    d = f["winner"] != 2
    ranks = np.log2(f["wilds"][d]).astype(int)
    seen = sorted(set(ranks.tolist()))
    won = (f["winner"] == 0)[d]
    assert bars(fig.axes[4], 0) == pytest.approx([won[ranks == r].mean() for r in seen])
    assert bars(fig.axes[5], 0) == pytest.approx([f["bombs"][d][ranks == r].mean()
                                                  for r in seen])
    assert bars(fig.axes[6], 0) == pytest.approx([f["multiplier"][d][ranks == r].mean()
                                                  for r in seen])
    assert all(len(bar_groups(ax)) == 1 for ax in fig.axes[4:])    # classic: no bars there
    assert "by_wild" not in report_data(classic)
    capsys.readouterr()


@pytest.mark.parametrize("argv,message", [
    (["plot", "nosuch.parquet", "-o", "r.png"], "no such results file"),
    (["plot", "FILE", "-o", "r.txt"], "figure file ends in"),
    (["plot", "FILE", "-o", "/no/such/dir/r.png"], "does not exist"),
    (["plot", "FILE", "FILE", "-o", "r.png", "--labels", "one"], "one text label"),
    (["plot", "FILE", "-o", ".png"], "name before its extension"),
    (["plot", "FILE", "-o", "r.png", "--labels", "$x^$"], "cannot draw the figure"),
])
def test_plot_errors_are_one_line(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    main(["simulate", "--deals", "200", "--out", "f.csv"])
    capsys.readouterr()
    argv = [a.replace("FILE", "f.csv") for a in argv]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err
    assert sorted(os.listdir(tmp_path)) == ["f.csv"]


def test_rates_of_one_or_zero_plot():
    """Every decided deal won by the landlord (rate 1, as small runs give per bid): the
    95% interval still holds the rate, and the figure draws."""
    res = fastdou.simulate(300, "classic", per_deal=True)
    res.per_deal["winner"][:] = 0
    for k, n in ((0, 7), (7, 7), (0, 1), (1, 1), (300, 300)):
        lo, hi = fastdou.sim.summary.wilson(k, n)
        assert 0 <= lo <= k / n <= hi <= 1
    assert bars(res.plot().axes[1], 0) == [1.0] * len(bars(res.plot().axes[1], 0))
