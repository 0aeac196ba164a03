"""Studies: questions answered with many games, on top of the runner (:mod:`hansa_lab.sim`).

``tune`` (a strategy's parameters tuned by paired games), ``learn`` (data sets and models
of the learned players), ``ladder`` (a rating ladder of strategies), ``lengths`` (game
lengths per board and player count), ``moves`` (a position's moves judged by playing
them on), ``populations`` (the same questions asked of several populations), ``planning``
(how many games a question needs, and sequential tests that stop when it is decided) and
``audit`` (the checks behind a claimed result).

May import :mod:`hansa_lab.errors`, the engine, strategies, :mod:`hansa_lab.play`,
:mod:`hansa_lab.stats` and :mod:`hansa_lab.sim`; never the viewers or the tools.
"""
