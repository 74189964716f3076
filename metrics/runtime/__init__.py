"""How the engine runs work, knowing nothing of coreference: pieces spread over forked processes
(`parallel`), the cyclic collector paused while many small objects are built (`gc_pause`), and
items joined in pairs given their components' least members (`union_find`: the one union-find).

Layer 0, beside `metrics.model`: imports nothing of the engine."""
