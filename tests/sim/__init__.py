"""Simulation: summaries, results files, Dask, plots and evaluation."""
