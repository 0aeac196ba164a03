"""Pictures and viewers of games: ``render`` (a state or a board as SVG), ``timeline``
(a played game position by position, with its events and scores, and what-if
continuations), ``viewer`` (``GameViewer``, the ipywidgets viewer) and ``export`` (a
replay as one offline HTML file). Board geometry for the pictures is ``data/layout.json``.

May import every layer below it (engine, strategies, play, stats, sim); never the tools.
"""
