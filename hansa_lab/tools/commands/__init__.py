"""The ``hansa-lab`` commands, grouped by job; :mod:`hansa_lab.tools.cli` builds the parser
from them and dispatches.

- :mod:`~hansa_lab.tools.commands.common`: the argument types, shared argument blocks and
  the errors every command raises (exit status 2 for a usage error, another for a failure)
- :mod:`~hansa_lab.tools.commands.inspect`: one game (``play``, ``replay``), a run's report
  (``report``) and the rule options (``options``)
- :mod:`~hansa_lab.tools.commands.measure`: benchmarks and the engine parity check
  (``bench``, ``parity``)
- :mod:`~hansa_lab.tools.commands.simulate`: runs of games (``simulate``, ``run``, ``main``)
- :mod:`~hansa_lab.tools.commands.survey`: tables over many line-ups (``ladder``,
  ``lengths``)
- :mod:`~hansa_lab.tools.commands.populations`: the same questions for several populations
  side by side (``populations``)
- :mod:`~hansa_lab.tools.commands.learn`: tuning and learning by self-play (``tune``,
  ``learn``, ``learn-measure``)
"""
