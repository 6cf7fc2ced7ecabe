"""The compiled game engine, Game by ids, observations and VectorEnv."""
