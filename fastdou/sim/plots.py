"""Report figures of simulation results (matplotlib, extra ``plot``; headless: a bare
``Figure`` drawn by the Agg canvas, never pyplot's global state).

:func:`report` draws one figure of four panels for one result or several side by side
(policies or rules compared), one colour per result:

1. score per seat, by side: histograms of the landlord side's and the farmers' seat scores
   in decided deals (landlord side solid, farmers dashed);
2. landlord win rate by winning bid, with 95% intervals;
3. landlord win rate by landlord seat, with 95% intervals;
4. multiplier distribution: the share of decided deals at each multiplier;

and, when a result was played with wild cards, a row by wild rank (a deal of two wild ranks
counts for each):

5. landlord win rate by wild rank, with 95% intervals;
6. bombs per deal (of every class) by wild rank;
7. mean multiplier by wild rank.

:func:`report_data` computes what the panels show (tests compare the figure with it).
"""

from __future__ import annotations

import os

import numpy as np

from fastdou.atomic import write_atomically
from fastdou.checks import short
from fastdou.errors import ArgumentError
from fastdou.kernels import state as S
from fastdou.sim.results import read_results
from fastdou.sim.summary import wilson

PANELS = ("Score per seat by side", "Landlord win rate by bid", "Landlord win rate by seat",
          "Multiplier distribution")
WILD_PANELS = ("Landlord win rate by wild rank", "Bombs per deal by wild rank",
               "Mean multiplier by wild rank")
_RANKS = "3456789TJQKA2"
FORMATS = (".png", ".svg", ".pdf")


def _rate(wins) -> tuple:
    """``(rate, lo, hi, deals)`` of the boolean array ``wins`` (a 95% Wilson interval)."""
    n, w = len(wins), int(wins.sum())
    return (w / n, *wilson(w, n), n)


def _rates(keys, wins):
    return {int(k): _rate(wins[keys == k]) for k in np.unique(keys)}


def report_data(result) -> dict:
    """What :func:`report` shows for one result: per-seat scores by side, win rates by bid
    and by seat ``{key: (rate, lo, hi, deals)}``, multiplier shares ``{value: share}``."""
    return _panel_data(result.kept())


def _panel_data(f) -> dict:
    """:func:`report_data` of the per-deal arrays ``f``."""
    decided = f["winner"] != S.SIDE_VOID
    players = f["scores"].shape[1]
    in_team = (f["team"][:, None] >> np.arange(players)) & 1 == 1
    scores = f["scores"][decided]
    team = in_team[decided]
    won = f["winner"][decided] == S.SIDE_LANDLORD
    mult = f["multiplier"][decided]
    values, counts = np.unique(mult, return_counts=True)
    out = {"landlord_scores": scores[team], "farmer_scores": scores[~team],
           "by_bid": _rates(f["bid"][decided], won),
           "by_seat": _rates(f["landlord"][decided], won),
           "multiplier": {int(v): c / len(mult) for v, c in zip(values, counts)},
           "decided": int(decided.sum())}
    wilds = np.asarray(f.get("wilds", np.zeros(len(decided), np.int64)))[decided]
    if wilds.any():
        ranks = [r for r in range(len(_RANKS)) if ((wilds >> r) & 1).any()]
        holds = {r: (wilds >> r) & 1 == 1 for r in ranks}
        out["by_wild"] = {r: _rate(won[m]) for r, m in holds.items()}
        bombs = f["bombs"][decided]
        out["bombs_by_wild"] = {r: float(bombs[m].mean()) for r, m in holds.items()}
        out["mult_by_wild"] = {r: float(mult[m].mean()) for r, m in holds.items()}
    return out


def report(results, labels=None, path=None):
    """One figure for ``results`` (SimulationResult objects with per-deal arrays), labelled
    by ``labels`` (default: their policies and rules). Saved to ``path`` if given (.png,
    .svg or .pdf, atomically, with the user's umask). Returns the matplotlib Figure."""
    results = list(results)
    # by what a result holds: SimulationResult is defined above this module
    if not results or not all(callable(getattr(r, "kept", None)) for r in results):
        raise ArgumentError(f"plot takes SimulationResult objects, not {short(results)}")
    if labels is None:
        labels = [_label(r.rules, r.policies) for r in results]
    return _figure([r.kept() for r in results], labels, path)


def _label(rules, policies) -> str:
    return f"{rules.name} {','.join(policies)}"


def _figure(runs, labels, path):
    """:func:`report` of ``runs``, each one result's per-deal arrays."""
    from fastdou.extras import need
    need("matplotlib", "plot")
    from matplotlib.figure import Figure
    if not isinstance(labels, (list, tuple)) or len(labels) != len(runs) or \
            not all(isinstance(x, str) for x in labels):
        raise ArgumentError(f"one text label per result: {len(runs)} results, labels "
                            f"{short(labels)}")
    if path is not None:
        _check_path(path)
    data = [_panel_data(f) for f in runs]
    if not any(d["decided"] for d in data):
        raise ArgumentError("nothing to plot: no deal was decided (all void)")
    wild = any("by_wild" in d for d in data)
    fig = Figure(figsize=(12, 12.5 if wild else 8.5), layout="constrained")
    grid = fig.add_gridspec(3 if wild else 2, 6)
    axes = [fig.add_subplot(grid[i // 2, 3 * (i % 2):3 * (i % 2) + 3]) for i in range(4)]
    if wild:
        axes += [fig.add_subplot(grid[2, 2 * i:2 * i + 2]) for i in range(3)]
    for ax, title in zip(axes, PANELS + WILD_PANELS):
        ax.set_title(title)
    colours = [f"C{i % 10}" for i in range(len(runs))]
    _score_panel(axes[0], data, labels, colours)
    _rate_panel(axes[1], data, labels, colours, "by_bid", "winning bid")
    _rate_panel(axes[2], data, labels, colours, "by_seat", "landlord seat")
    _share_panel(axes[3], data, labels, colours)
    if wild:
        _wild_panels(axes[4:], data, labels, colours)
    fig.suptitle(" vs ".join(labels) if len(labels) > 1 else labels[0])
    if path is not None:
        save(fig, path)
    return fig


def _score_panel(ax, data, labels, colours):
    both = np.concatenate([np.concatenate([d["landlord_scores"], d["farmer_scores"]])
                           for d in data])
    lo, hi = np.percentile(both, [0.5, 99.5]) if both.size else (0, 1)
    bins = np.linspace(lo, hi if hi > lo else lo + 1, 41)
    for d, label, c in zip(data, labels, colours):
        for key, style, side in (("landlord_scores", "-", "landlord side"),
                                 ("farmer_scores", "--", "farmers")):
            if d[key].size:
                ax.hist(d[key], bins=bins, histtype="step", linestyle=style, color=c,
                        density=True, label=f"{label}: {side}")
    ax.set_xlabel("score per seat (points; central 99%)")
    ax.set_ylabel("density")
    ax.legend(fontsize="small")


def _rate_panel(ax, data, labels, colours, key, xlabel):
    keys = sorted({k for d in data for k in d[key]})
    width = 0.8 / len(data)
    for i, (d, label, c) in enumerate(zip(data, labels, colours)):
        ks = [k for k in keys if k in d[key]]
        x = np.array([keys.index(k) for k in ks]) + (i - (len(data) - 1) / 2) * width
        rate = np.array([d[key][k][0] for k in ks])
        err = np.array([[rate[j] - d[key][k][1], d[key][k][2] - rate[j]]
                        for j, k in enumerate(ks)]).reshape(-1, 2).T
        ax.bar(x, rate, width, yerr=err, color=c, label=label, capsize=2)
    ax.set_xticks(range(len(keys)), [str(k) for k in keys])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("landlord win rate")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")


def _share_panel(ax, data, labels, colours):
    keys = sorted({k for d in data for k in d["multiplier"]})
    width = 0.8 / len(data)
    for i, (d, label, c) in enumerate(zip(data, labels, colours)):
        ks = [k for k in keys if k in d["multiplier"]]
        x = np.array([keys.index(k) for k in ks]) + (i - (len(data) - 1) / 2) * width
        ax.bar(x, [d["multiplier"][k] for k in ks], width, color=c, label=label)
    ax.set_xticks(range(len(keys)), [str(k) for k in keys],
                  rotation=90 if len(keys) > 12 else 0)
    ax.set_xlabel("multiplier")
    ax.set_ylabel("share of decided deals")
    ax.set_yscale("log")
    ax.legend(fontsize="small")


def _wild_panels(axes, data, labels, colours):
    """The row by wild rank, for the results played with wild cards."""
    pairs = [(d, label, c) for d, label, c in zip(data, labels, colours) if "by_wild" in d]
    width = 0.8 / len(pairs)
    for i, (d, label, c) in enumerate(pairs):
        ranks = sorted(d["by_wild"])
        x = np.array(ranks) + (i - (len(pairs) - 1) / 2) * width
        rate = np.array([d["by_wild"][r][0] for r in ranks])
        err = np.array([[d["by_wild"][r][0] - d["by_wild"][r][1],
                         d["by_wild"][r][2] - d["by_wild"][r][0]] for r in ranks]).T
        axes[0].bar(x, rate, width, yerr=err, color=c, label=label, capsize=2)
        axes[1].bar(x, [d["bombs_by_wild"][r] for r in ranks], width, color=c, label=label)
        axes[2].bar(x, [d["mult_by_wild"][r] for r in ranks], width, color=c, label=label)
    for ax, ylabel in zip(axes, ("landlord win rate", "bombs per deal", "mean multiplier")):
        ax.set_xticks(range(len(_RANKS)), list(_RANKS))
        ax.set_xlabel("wild rank")
        ax.set_ylabel(ylabel)
        ax.legend(fontsize="small")
    axes[0].set_ylim(0, 1)


def _check_path(path):
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path).endswith(FORMATS):
        raise ArgumentError(f"a figure file ends in {', '.join(FORMATS)}, not {short(path)}")
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    if not os.path.isdir(folder):
        raise ArgumentError(f"figure folder does not exist: {folder}")
    if name in FORMATS:
        raise ArgumentError(f"a figure file needs a name before its extension, not "
                            f"{short(path)}")


def save(fig, path) -> None:
    """Save ``fig`` to ``path`` atomically (:func:`fastdou.atomic.write_atomically`)."""
    path = os.fspath(path)
    _check_path(path)

    def draw(f):
        try:
            fig.savefig(f, format=os.path.splitext(path)[1][1:], dpi=110)
        except ValueError as e:         # text matplotlib cannot draw, as a bad $math$ label
            raise ArgumentError(f"cannot draw the figure: "
                                f"{short(str(e).strip().splitlines()[0])}") from None

    write_atomically(path, draw)


def plot_files(files, output, labels=None):
    """``fastdou plot``: read each results file and draw one report to ``output``."""
    _check_path(output)
    runs = [read_results(f) for f in files]
    if labels is None:
        labels = [os.path.basename(os.path.normpath(f)) for f in files] if len(files) > 1 \
            else [_label(rules, meta["policies"]) for _, rules, meta in runs]
    return _figure([arrays for arrays, _, _ in runs], labels, output)
