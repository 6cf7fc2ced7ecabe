"""Adapters: fastdou games behind other packages' environment interfaces (RLCard, ...)."""
