"""Adapters that present fastdou games through other libraries' interfaces (each imports its
library; import the submodule you need, e.g. ``fastdou.adapters.openspiel`` or
``fastdou.adapters.pettingzoo``)."""
