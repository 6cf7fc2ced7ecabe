"""The public Python API: cards, moves, rules, positions, the solver, policies."""
