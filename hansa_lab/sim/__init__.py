"""Runs: many games played to tidy tables, on disk and back.

``experiment`` (experiment files and their fair designs), ``runner`` (``simulate``,
``run_experiment``: chunks of games in parallel with joblib/loky or dask), ``store`` (the
files of a run: parquet chunks, done-markers, manifest), ``logs`` (the tables' schema and
the recorder that turns a game into rows, with the numpy per-turn scoring) and ``results``
(``Results``: the tables as DataFrames, summaries and comparisons).

May import :mod:`hansa_lab.errors`, the engine, strategies, :mod:`hansa_lab.play` and
:mod:`hansa_lab.stats`; never the studies built on it (:mod:`hansa_lab.studies`), the
viewers or the tools.
"""
