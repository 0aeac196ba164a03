"""hansa_lab: simulate Hansa Teutonica at scale and study it in Jupyter.

The everyday API, in one import::

    import hansa_lab as hl

    s = hl.new_game(hl.GameConfig(n_players=3, seed=7))
    s = hl.apply(s, hl.legal_actions(s)[0])
    rec = hl.play_game(hl.GameConfig(4, seed=1), "greedy,random")
    res = hl.simulate(["greedy", "random", "random"], n_games=30, n_players=3)

``simulate``, ``run_experiment``, ``open_results`` (runs, :mod:`hansa_lab.sim`) and
``GameViewer`` (:mod:`hansa_lab.viz`) load on first use, so ``import hansa_lab`` stays
light (no pandas, numpy or widgets until they are needed).

The package in layers, each importing only the ones before it: :mod:`hansa_lab.errors`,
:mod:`hansa_lab.engine` (rules; its compiled twin ``hansa_lab._core``),
:mod:`hansa_lab.strategies` (players), :mod:`hansa_lab.play`, :mod:`hansa_lab.compiled.games` and
:mod:`hansa_lab.golden` (games), :mod:`hansa_lab.stats`
(statistics and plots of game tables), :mod:`hansa_lab.sim` (runs: experiments, runner,
logs, results), :mod:`hansa_lab.viz` (pictures and viewers), :mod:`hansa_lab.tools`
(command line, benchmarks).

>>> import hansa_lab as hl
>>> hl.winners(hl.play_game(hl.GameConfig(3, seed=1), "random").final)
[0]
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

from hansa_lab.engine.actions import Action, format_action, parse_action
from hansa_lab.engine.board import load_board
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import final_scores, ranking, score_breakdown, winners
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.errors import IllegalActionError
from hansa_lab.play import GameRecord, play_game, replay
from hansa_lab.strategies import Strategy, make_strategy
from hansa_lab.strategies.lineup import parse_lineup

if TYPE_CHECKING:
    from hansa_lab.sim.results import open_results
    from hansa_lab.sim.runner import run_experiment, simulate
    from hansa_lab.viz.viewer import GameViewer

__version__ = "0.1.0"

#: name → module of the parts of the API that load on first use (PEP 562)
_LAZY = {
    "simulate": "hansa_lab.sim.runner",
    "run_experiment": "hansa_lab.sim.runner",
    "open_results": "hansa_lab.sim.results",
    "GameViewer": "hansa_lab.viz.viewer",
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
