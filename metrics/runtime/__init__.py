"""How the engine runs work, knowing nothing of coreference: pieces spread over forked processes
(`parallel`) and the cyclic collector paused while many small objects are built (`gc_pause`).

Layer 0, beside `metrics.model`: imports nothing of the engine."""
