"""RLCard, DouZero, OpenSpiel and PettingZoo adapters against the real packages."""
