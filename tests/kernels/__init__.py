"""Move generation, counting and search kernels against the references."""
