"""hansa_lab: simulate Hansa Teutonica at scale and study it in Jupyter.

The everyday API, in one import::

    import hansa_lab as hl

    s = hl.new_game(hl.GameConfig(n_players=3, seed=7))
    s = hl.apply(s, hl.legal_actions(s)[0])
    rec = hl.play_game(hl.GameConfig(4, seed=1), "greedy,random")
    res = hl.simulate(["greedy", "random", "random"], n_games=30, n_players=3)

Every name loads its module on first use, so ``import hansa_lab`` stays light: the rules
load with the first rules name, pandas, numpy and widgets only with ``simulate``,
``run_experiment``, ``open_results`` (runs, :mod:`hansa_lab.sim`) and ``GameViewer``
(:mod:`hansa_lab.viz`).

The package in layers, each importing only the ones before it: :mod:`hansa_lab.errors`,
:mod:`hansa_lab.engine` (rules; its compiled twin ``hansa_lab._core``, reached only through
:mod:`hansa_lab.compiled.bridge`), :mod:`hansa_lab.strategies` (players),
:mod:`hansa_lab.play` (games in either engine) and :mod:`hansa_lab.golden`,
:mod:`hansa_lab.stats` (statistics and plots of game tables), :mod:`hansa_lab.sim` (runs:
experiments, runner, logs, results), :mod:`hansa_lab.studies` (tuning, learning, ladders,
populations, planning), :mod:`hansa_lab.viz` (pictures and viewers),
:mod:`hansa_lab.tools` (command line, benchmarks).

>>> import hansa_lab as hl
>>> hl.winners(hl.play_game(hl.GameConfig(3, seed=1), "random").final)
[0]
"""

from __future__ import annotations

import sys
from importlib import import_module

#: typing.TYPE_CHECKING without importing typing (tens of milliseconds before the command
#: line's signal handling is in place); mypy reads a constant of this name the same way
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hansa_lab.engine.actions import Action, format_action, parse_action
    from hansa_lab.engine.board import load_board
    from hansa_lab.engine.rules import apply, legal_actions
    from hansa_lab.engine.scoring import final_scores, ranking, score_breakdown, winners
    from hansa_lab.engine.state import GameConfig, State, new_game
    from hansa_lab.errors import IllegalActionError
    from hansa_lab.play import GameRecord, play_game, replay
    from hansa_lab.sim.results import open_results
    from hansa_lab.sim.runner import run_experiment, simulate
    from hansa_lab.strategies import Strategy, make_strategy
    from hansa_lab.strategies.lineup import parse_lineup
    from hansa_lab.tools.commands.compare import compare
    from hansa_lab.version import __version__
    from hansa_lab.viz.viewer import GameViewer

#: name → module of the API; each loads on first use (PEP 562), so that ``import
#: hansa_lab`` costs nothing until a name is used: the ``hansa-lab`` command installs its
#: Ctrl-C and SIGTERM handling before the engine loads (hansa_lab.tools.cli)
_LAZY = {
    **dict.fromkeys(("Action", "format_action", "parse_action"), "hansa_lab.engine.actions"),
    "load_board": "hansa_lab.engine.board",
    "apply": "hansa_lab.engine.rules",
    "legal_actions": "hansa_lab.engine.rules",
    **dict.fromkeys(("final_scores", "ranking", "score_breakdown", "winners"),
                    "hansa_lab.engine.scoring"),
    **dict.fromkeys(("GameConfig", "State", "new_game"), "hansa_lab.engine.state"),
    "IllegalActionError": "hansa_lab.errors",
    **dict.fromkeys(("GameRecord", "play_game", "replay"), "hansa_lab.play"),
    "Strategy": "hansa_lab.strategies",
    "make_strategy": "hansa_lab.strategies",
    "parse_lineup": "hansa_lab.strategies.lineup",
    "simulate": "hansa_lab.sim.runner",
    "run_experiment": "hansa_lab.sim.runner",
    "open_results": "hansa_lab.sim.results",
    "GameViewer": "hansa_lab.viz.viewer",
    "compare": "hansa_lab.tools.commands.compare",
    "__version__": "hansa_lab.version",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hansa_lab' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


def show_states_as_pictures() -> bool:
    """In IPython or Jupyter, let a :class:`State` display as its board picture
    (:func:`hansa_lab.viz.render.render_svg`, loaded at the first display). Runs at
    ``import hansa_lab``; True if an IPython shell was there to register with."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    formatter = shell.display_formatter.formatters["image/svg+xml"]
    formatter.for_type_by_name("hansa_lab.engine.state", "State", _state_svg)
    return True


def _state_svg(state: State) -> str:
    # fluid: as wide as the output area, never wider (notebook output and its static HTML,
    # where the picture is an <img> whose size comes from the SVG's own width)
    from hansa_lab.viz.render import fluid_svg, render_svg

    return fluid_svg(render_svg(state))


show_states_as_pictures()


__all__ = [
    "Action",
    "GameConfig",
    "GameRecord",
    "GameViewer",
    "IllegalActionError",
    "State",
    "Strategy",
    "__version__",
    "apply",
    "compare",
    "final_scores",
    "format_action",
    "legal_actions",
    "load_board",
    "make_strategy",
    "new_game",
    "open_results",
    "parse_action",
    "parse_lineup",
    "play_game",
    "ranking",
    "replay",
    "run_experiment",
    "score_breakdown",
    "show_states_as_pictures",
    "simulate",
    "winners",
]
