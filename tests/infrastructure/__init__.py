"""Caches, compile notices, cold start, imports, extras and signals."""
