"""coref-workbench scoring engine: readers, mention types, metrics, error analysis.

numpy and scipy only; never imports a UI library.
"""
