"""Property and fuzz tests."""
