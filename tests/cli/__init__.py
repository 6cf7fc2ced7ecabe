"""The command line and the README's commands."""
