"""Third-party clients' own loops, unchanged, over fastdou and over the original engine, in
turn, beside the same loop over an engine that costs nothing (``benchmarks/clients.py`` says
what each loop is, its targets and its gates). Where the costless engine's own ratio (the
ceiling) is below a target, the client's code bounds it and no engine meets it.

``python -m pytest benchmarks/test_bench_clients.py -s`` (``--quick``: CI's sizes); the
same figures are in ``python -m benchmarks.compare`` and the README's table."""

import pytest

from benchmarks import clients

NEEDS = {"openspiel": "pyspiel", "douzero": "douzero", "rlcard": "rlcard"}


@pytest.mark.parametrize("name", list(clients.TARGETS))
def test_client_loop(benchmark, quick, name):
    pytest.importorskip(NEEDS[name.split("_")[0]])
    f = benchmark.pedantic(clients.figure, (name, quick), rounds=1)   # all three, in turn
    benchmark.extra_info.update({k: v for k, v in f.items() if k != "loop"})
    met = "met" if f["ratio"] >= f["target"] else \
        "not met" + (": above the ceiling" if f["ceiling"] < f["target"] else "")
    print(f"\n{f['loop']}, {f['games']:,} games: fastdou {f['fastdou']:,.1f} games/s, the "
          f"original {f['original']:,.1f}: {f['ratio']:.2f}x (target {f['target']:g}x, "
          f"{met}); a costless engine {f['costless']:,.1f}: {f['ceiling']:.2f}x, the ceiling "
          f"(fastdou at {f['of_costless']:.2f} of it)")
    if "tallies" in f:      # every deal played to its end on both engines
        assert sum(f["tallies"]["fastdou"][:2]) == sum(f["tallies"]["original"][:2]) == f["games"]
    gate, costless_gate = clients.GATES[name], clients.COSTLESS_GATES[name]
    assert gate is None or f["ratio"] >= gate
    assert f["of_costless"] >= costless_gate
