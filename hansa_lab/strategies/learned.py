"""``learned``: a one-ply player on a learned position evaluation.

For each legal action it values the resulting position with a model trained by
``hansa-lab learn`` (:mod:`hansa_lab.studies.learn`) and plays the best, as ``greedy`` does
with its hand-made evaluation. A position is worth ``model_weight`` times the model's
value (the log-odds of winning for the shipped model) plus ``greedy_weight`` times
greedy's evaluation on the weights of ``evaluation`` (``greedy``'s defaults, or a strategy
file built on greedy such as ``planner``; ``learned_rollout``'s playouts play on them
too): the model judges who is ahead in the long run, greedy's terms tell apart the small
steps inside a turn that the model, fitted to final outcomes, barely separates
(measured: the model alone won none of 16 games against three greedy; with
greedy_weight 1 and model_weight 1.5 it won 40 of 40; see
``docs/results/learned_players.md``). A Move or a move/remove marker is worth its best first
step, an action that fills a route is worth its best establishment. When no action is
worth more than the position itself, it plays what ``greedy`` (on the ``evaluation``
weights, its ``explore``) plays there: the blend values a pass (a Move that moves nothing) at the
position's own worth and most building steps below it, so without this all-learned
tables passed until the action cap. Ties and greedy's draws come from the seat's
stream, so a game is reproducible from its seed. ``model`` names the
model: a file shipped in ``hansa_lab/strategies/data/`` (``learned_*.json``) by name, any
model file by its path, or ``auto`` (the default): in each game the shipped model trained
for its board family and player count, ``learned_<family><n>p`` (e.g.
``learned_britannia4p``), where the package ships one, else ``learned_base4p``; of either,
its newest self-play generation ``_g<k>`` when one is shipped (``learned_base4p_g2``,
``learned_east4p_g1``, ``learned_britannia4p_g1``: trained on ``strong``'s games;
:func:`model_for`; rule options do not change the choice).

``reply`` (0 by default: the one-ply decision above) makes it look at the other seats'
answers, an experiment on the seat defect the audit finds (``docs/results.md``, "Player
audits": neither level removes it, the race for the one Actions city then costs another
seat): 1 values a displacement after the displaced seat has placed its pieces (``greedy``
places them) instead of while they are off the board; 2 also plays each of the 3 best
improving candidates on through the turn in progress and the next seat's turn (every seat
``greedy``, the bonus-marker bag re-dealt) and plays the one whose position there is worth
most. ``learned_rollout`` and ``strong`` decide on the one-ply values and have no ``reply``.

``temperature`` (0.05 by default) is how far its choice is drawn rather than the best:
among the actions that improve the position, each is played with weight exp((value − the
best value) / temperature), so near-ties are played about equally often and clearly worse
actions almost never; 0 always plays the best (ties from the seat's stream). Without it,
four identical players in one game all make the same choice in the same position, and at
4 players on the base board the one whose seat came third in the race for the one Actions
city (Göttingen) lost it game after game: all-``learned`` tables won 4.5% in seat 2
(``hansa-lab audit learned``, ``docs/results.md``, "Player audits"). At 0.05 no seat is
flagged at 3 or 4 players and one seat of it wins 23.2% [19.4, 27.6] against three of the
deterministic player (fair 25%).

``tip`` (a strategy tip's name, default ``none``) and ``tip_weight`` make the player
carry a tip: ``greedy_weight`` × the tip's term joins greedy's evaluation in the blend (see
:mod:`~hansa_lab.strategies.greedy`, "a tip is a bias any evaluating player can carry").

The features and the forward pass are computed in the compiled core
(``core/src/strategies/features.rs``, ``learned.rs``); in the Python engine this strategy
hands the position to the core and plays the action it returns (no Python twin of the
features is kept: a second copy of ~100 features would have to be kept exact by hand), so
it decides alike in both engines by construction.

>>> make_strategy("learned").params["model"]
'auto'
>>> model_for(GameConfig(4, "base"))
'learned_base4p_g2'
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, ClassVar

from hansa_lab.compiled.bridge import CoreGame, core_learned_policy
from hansa_lab.engine.actions import Action
from hansa_lab.engine.board import board_family
from hansa_lab.engine.limits import Limit, strategy_limits
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.state import GameConfig, State
from hansa_lab.strategies.base import Strategy, make_strategy, register, search_box
from hansa_lab.strategies.evaluation import Weights
from hansa_lab.strategies.greedy import NO_TIP, TIPS, Greedy, KeepSupply
from hansa_lab.strategies.model_file import (
    HIDDEN_MODEL_FORMAT,
    MODEL_FORMAT,
    HiddenLayer,
    LearnedModel,
    load_model,
)

__all__ = ["AUTO_MODEL", "FALLBACK_MODEL", "HIDDEN_MODEL_FORMAT", "MODEL_FOLDER",
           "MODEL_FORMAT", "HiddenLayer", "Learned", "LearnedModel", "find_model",
           "load_model", "make_strategy", "model_for", "shipped_models"]

#: where the package's models live (found by name, like strategy files)
MODEL_FOLDER = Path(__file__).parent / "data"
#: the ``model`` value that picks, game by game, the model trained for the game's board
#: family and player count (:func:`model_for`)
AUTO_MODEL = "auto"
#: what ``auto`` plays where no model was trained for the configuration
FALLBACK_MODEL = "learned_base4p"


def shipped_models() -> list[str]:
    """The names of the models shipped in the package."""
    return sorted(p.stem for p in MODEL_FOLDER.glob("learned_*.json"))


def model_for(config: GameConfig | None) -> str:
    """The shipped model ``model=auto`` plays in games of ``config``: the newest
    self-play generation of the board family and player count, ``learned_<family><n>p_g<k>``
    with the largest ``k``, when the package ships one; else ``learned_<family><n>p`` (the
    name ``hansa-lab learn`` gives a model of that board family and player count); else
    the newest generation of :data:`FALLBACK_MODEL`, else that model (also without a
    configuration). Rule options and the edition do not change it.

    >>> model_for(GameConfig(4))
    'learned_base4p_g2'
    >>> model_for(GameConfig(4, board="britannia"))
    'learned_britannia4p_g1'
    """
    if config is None:
        return _newest(FALLBACK_MODEL)
    return _shipped_model_for(config.side, config.n_players)


@functools.lru_cache(maxsize=64)
def _shipped_model_for(side: str, n_players: int) -> str:
    # cached: the Python engine's learned players ask at every decision, and the package's
    # models do not change during a run
    name = f"learned_{board_family(side)}{n_players}p"
    return _newest(name if (MODEL_FOLDER / f"{name}.json").is_file() else FALLBACK_MODEL)


def _newest(name: str) -> str:
    """``name``'s newest shipped generation (``name_g<k>``, largest ``k``), else ``name``."""
    prefix = f"{name}_g"
    generations = [(int(k), p.stem) for p in MODEL_FOLDER.glob(f"{prefix}*.json")
                   if (k := p.stem.removeprefix(prefix)).isdigit()]
    return max(generations)[1] if generations else name


def find_model(name: str) -> Path:
    """The file of a shipped model by name, or a model file by path: a name ending in
    ``.json`` or holding a ``/`` is taken as a path as it is (:func:`load_model` says what
    is wrong with it, naming the file); ValueError for any other name that is not a
    shipped model."""
    path = Path(name).expanduser()
    if path.suffix == ".json" or os.sep in name:
        return path
    if name and len(os.fsencode(name)) < 250:
        shipped = MODEL_FOLDER / f"{name}.json"
        if shipped.is_file():
            return shipped
    raise ValueError(f"no learned model {name!r}: shipped models are "
                     f"{', '.join(shipped_models()) or 'none'} (or give a .json path)")


def evaluation_weights(spec: str, owner: str = "learned") -> list[tuple[str, float]]:
    """The evaluation weights of ``spec`` — a one-ply player the core plays as plain
    greedy: ``greedy``, an archetype (``actions_rush`` …) or a strategy file built on
    them (``planner``) — as (name, value) pairs for the core; ValueError naming
    ``owner``'s parameter for anything else (a tip, a search or ``depth=2`` decides by
    more than its evaluation's weights)."""
    what = f"strategy {owner!r} parameter 'evaluation'"
    try:
        player = make_strategy(spec)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None
    plain = (isinstance(player, Greedy) and player.params.get("depth") == 1
             and getattr(type(player), "core_name", type(player).name) == "greedy")
    if not plain:
        raise ValueError(f"{what}: {spec!r} is not a one-ply greedy player (greedy, an "
                         "archetype or a strategy file on them): a tip, a search or "
                         "depth=2 decides by more than its evaluation's weights")
    return [(name, float(player.params[name])) for name in Weights.names()]


@functools.lru_cache(maxsize=16)
def _cached_model(path: str, mtime: float) -> LearnedModel:
    return load_model(path)


@register("learned")
class Learned(Strategy):
    """The one-ply learned player (see the module doc); ``model``: a shipped model's
    name, a model file's path or ``auto`` (:func:`model_for`)."""

    trusted: ClassVar[bool] = True
    defaults: ClassVar[dict[str, Any]] = {"model": AUTO_MODEL, "model_weight": 1.5,
                                          "greedy_weight": 1.0, "explore": 0.5,
                                          "evaluation": "greedy", "tip": NO_TIP,
                                          "tip_weight": 1.0, "reply": 0,
                                          "temperature": 0.05}
    limits: ClassVar[dict[str, Limit]] = strategy_limits("learned")
    ranges: ClassVar[dict[str, tuple[float, float]]] = search_box(
        limits, "model_weight", "greedy_weight", "explore", "reply")
    model: str
    model_weight: float
    greedy_weight: float
    explore: float
    evaluation: str
    tip: str
    tip_weight: float
    reply: int
    temperature: float

    def setup(self) -> None:
        if self.tip != NO_TIP and self.tip not in TIPS:
            raise ValueError(f"strategy {self.name!r} parameter 'tip': no tip {self.tip!r} "
                             f"(tips: {', '.join(TIPS)}, or {NO_TIP})")
        if self.model != AUTO_MODEL:
            self.learned_model_for(None)  # a bad name or file fails here, not in a game
        self._evaluation = evaluation_weights(self.evaluation, self.name)
        self._twins: dict[str, Any] = {}

    def model_name(self, config: GameConfig | None) -> str:
        """The model this player plays in games of ``config`` (``auto``: :func:`model_for`)."""
        return model_for(config) if self.model == AUTO_MODEL else self.model

    def learned_model_for(self, config: GameConfig | None) -> LearnedModel:
        path = find_model(self.model_name(config))
        try:
            mtime = path.stat().st_mtime
        except OSError:  # missing, a name too long...: load_model says so, naming the file
            mtime = -1.0
        return _cached_model(str(path), mtime)

    def core_twin(self, config: GameConfig | None = None) -> Any:
        """The core's ``CorePolicy`` playing this model in games of ``config`` (ValueError
        if its features are not the core's)."""
        m = self.learned_model_for(config)
        return core_learned_policy(m.core_args(), m.core_hidden(),
                                   model_weight=self.model_weight,
                                   greedy_weight=self.greedy_weight, explore=self.explore,
                                   evaluation=self._evaluation, reply=self.reply,
                                   temperature=self.temperature, **self.core_tip())

    def core_tip(self) -> dict[str, Any]:
        """The tip this player carries, as the core's ``learned_policy`` takes it."""
        return {"tip": self.tip, "tip_weight": self.tip_weight,
                "tip_threshold": KeepSupply.defaults["threshold"]}

    def choose(self, state: State, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        key = self.model_name(state.config)
        twin = self._twins.get(key)
        if twin is None:
            twin = self._twins[key] = self.core_twin(state.config)
        out = CoreGame.from_state(state, check=False).choice_of(twin, rng.state)
        if out is None:  # pragma: no cover - the game loop never asks after the end
            raise RuntimeError("learned asked to decide in a finished game")
        action, rng.state = out
        return legal[legal.index(action)]

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_twins"] = {}  # the core objects are rebuilt where the strategy plays
        return state
