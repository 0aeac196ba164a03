"""The command line (``cli``: ``hansa-lab play|simulate|run|bench|main|replay``, its
commands grouped by job in ``commands``), the benchmarks (``bench``) and the notebooks'
size switch (``study``).

The top layer: may import every other part of the package; nothing imports it.
"""
