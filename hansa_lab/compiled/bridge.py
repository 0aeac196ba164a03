"""The one door to the compiled core (``hansa_lab._core``, typed by ``_core.pyi``):
a core position as :class:`CoreGame` — legal actions as :class:`Action` values in the
Python engine's order, apply with the Python engine's messages, scores, events, the
learning environments' integer actions and observations, a core strategy's choice — the
conversion both ways between a core position and a Python :class:`State`, and typed
functions for the core's other objects (its strategies, matches, vector environments,
model checks and batch games). No other module of the package imports the extension
module or reaches into a core object.

On the level of the engine (it imports only the engine, the errors and the extension
module), so that strategies can ask the core too; the games played through the core
(:mod:`hansa_lab.play.core_game`) build on it.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> g = CoreGame(GameConfig(n_players=3, seed=7))
>>> g.to_state() == new_game(GameConfig(n_players=3, seed=7))
True
>>> g.apply(g.legal_actions()[0]); g.n_actions
1
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import fields
from types import ModuleType
from typing import TYPE_CHECKING, Any

from hansa_lab.engine.actions import MARKER_KINDS, Action
from hansa_lab.engine.board import PERMANENT_MARKERS
from hansa_lab.engine.decisions import Decision
from hansa_lab.engine.events import Event
from hansa_lab.engine.explain import explain_illegal
from hansa_lab.engine.invariants import check_state
from hansa_lab.engine.observe import draw_order
from hansa_lab.engine.position import (
    DECISIONS,
    PositionError,
    check_position,
    options_text,
    read_config,
)
from hansa_lab.engine.rng import MASK
from hansa_lab.engine.rules import check_types
from hansa_lab.engine.scoring import CATEGORIES
from hansa_lab.engine.state import FAVOUR_TILES, GameConfig, State
from hansa_lab.engine.vocabulary import END_REASONS
from hansa_lab.errors import IllegalActionError, InvariantError

if TYPE_CHECKING:  # the core's classes, for annotations elsewhere too (``as``: re-exported)
    from hansa_lab._core import CoreConfig as CoreConfig
    from hansa_lab._core import CoreMatch as CoreMatch
    from hansa_lab._core import CorePolicy as CorePolicy
    from hansa_lab._core import CoreState as CoreState
    from hansa_lab._core import CoreVectorEnv as CoreVectorEnv

_MISSING = ("the compiled core hansa_lab._core is not built: run `make .venv/.installed` "
            "(needs a Rust toolchain) or `maturin develop --release`")


class _Missing(ModuleType):
    """Stands for the extension module when it is not built: any name of it raises the
    ImportError saying how to build it."""

    def __init__(self, error: ImportError) -> None:
        super().__init__("hansa_lab._core")
        self.error = error

    def __getattr__(self, name: str) -> Any:
        raise ImportError(_MISSING) from self.error


try:  # the extension module is built by maturin (pip install -e . / maturin develop)
    from hansa_lab import _core
except ImportError as e:  # pragma: no cover - only without a build
    _core = _Missing(e)

__all__ = ["CoreGame", "available", "core_config", "core_divide", "core_feature_names",
           "core_from_text", "core_learned_policy", "core_learned_rollout_policy",
           "core_match", "core_max_envs", "core_max_threads", "core_model_forward",
           "core_module", "core_options", "core_perft", "core_policy_named",
           "core_random_games", "core_sample_games", "core_to_text", "core_vector_env",
           "play_random_game", "state_fields", "timings", "turn_columns"]


def available() -> bool:
    """Whether the compiled core is built and importable."""
    return not isinstance(_core, _Missing)


def core_module() -> ModuleType:
    """The extension module itself, for tests that probe the core's own checks
    (ImportError saying how to build it when it is missing); the package goes through
    this module's typed functions and :class:`CoreGame`."""
    if isinstance(_core, _Missing):
        raise ImportError(_MISSING) from _core.error
    return _core


def core_options(config: GameConfig) -> dict[str, Any]:
    """The rule options as the core receives them: resolved (``config.tuning``, by
    :func:`hansa_lab.engine.options.resolve`) and named as the options they come from,
    so the core resolves nothing; in the vocabulary's order, every option but those it
    says arrive resolved into another (``core_receives``). The plain integer options
    (``PLAIN_INT_OPTIONS``) pass their ``Tuning`` field as declared; of the others,
    ``start_supply`` arrives as ``start_supply_seats`` (the traders of every seat), the
    board's printed values (``None``) as numbers, the Bank's "all" as None,
    ``marker_set`` as the whole set and ``start_markers`` as the kinds on the taverns."""
    from hansa_lab.engine.vocabulary import PLAIN_INT_OPTIONS, vocabulary

    t = config.tuning
    shaped = {
        "special_points": config.option("special_points"),
        "prestige_to_end": config.option("prestige_to_end"),
        "east_alternative": config.option("east_alternative"),
        "emperor": config.option("emperor"),
        "east_west_points": list(t.east_west_points),
        "marker_points": list(t.marker_table[1:]),
        "region_points": list(t.region_points),
        "cities_to_end": t.cities_to_end,
        "actions_track": list(t.actions),
        "bank_track": list(t.bank),
        "book_track": list(t.book),
        "keys_track": list(t.keys),
        "start_supply_seats": list(t.start_supply),
        "marker_set": dict(t.marker_counts),
        "start_markers": list(t.start_markers),
    }
    out: dict[str, Any] = {}
    for entry in vocabulary()["rule_options"]:
        name = entry["name"]
        if "core_receives" not in entry:
            field = PLAIN_INT_OPTIONS.get(name)
            out[name] = shaped[name] if field is None else getattr(t, field)
    return out


def core_config(config: GameConfig) -> CoreConfig:
    """The configuration as the core's ``CoreConfig`` (built once per call site; the core
    plays every configuration of the Python engine), with the resolved options
    (:func:`core_options`)."""
    return _core.CoreConfig(config.n_players, config.side, config.edition,
                            int(config.seed) & MASK, core_options(config))


@functools.cache
def _plain_random() -> CorePolicy:
    """The core's ``random`` strategy with its default biases."""
    return _core.CorePolicy("random", [("establish", 1.0), ("gather", 1.0)])


def _decision(t: tuple[Any, ...]) -> Decision:
    kind, *values = t
    if kind == "permanent":
        values[1] = PERMANENT_MARKERS[values[1]]
    return DECISIONS[kind](*values)


def _names(table: tuple[str, ...], codes: Sequence[int]) -> tuple[str, ...]:
    return tuple(table[k] for k in codes)


class CoreGame:
    """A position of the compiled core, for one configuration."""

    __slots__ = ("_s", "config")

    def __init__(self, config: GameConfig, _state: CoreState | None = None) -> None:
        self.config = config
        self._s = _state if _state is not None else _core.CoreState(core_config(config))

    # ----------------------------------------------------------------- queries
    @property
    def current_player(self) -> int:
        return int(self._s.current_player)

    @property
    def is_over(self) -> bool:
        return bool(self._s.is_over)

    @property
    def n_actions(self) -> int:
        return int(self._s.n_actions)

    def legal_actions(self) -> list[Action]:
        return [Action(*t) for t in self._s.legal_actions()]

    def legal_tuples(self) -> list[tuple[str, int, int, int]]:
        """Legal actions as plain tuples (equal to the :class:`Action` values)."""
        out: list[tuple[str, int, int, int]] = self._s.legal_actions()
        return out

    def events(self) -> list[Event]:
        """Events of the last applied action (as the Python engine's ``state.events``)."""
        return [Event(*t) for t in self._s.events()]

    def score_rows(self) -> list[tuple[int, ...]]:
        """Score if the game ended now, per player in :data:`CATEGORIES` order."""
        return [tuple(r) for r in self._s.score_rows()]

    def score_breakdown(self) -> list[dict[str, int]]:
        return [dict(zip(CATEGORIES, r, strict=True)) for r in self._s.score_rows()]

    def ranking(self) -> list[int]:
        return list(self._s.ranking())

    def copy(self) -> CoreGame:
        return CoreGame(self.config, self._s.copy())

    # ----------------------------------------------------------------- apply
    def apply(self, action: Action) -> None:
        """Apply ``action`` in place; an illegal action (or any garbage) raises
        :class:`IllegalActionError` with the Python engine's message, the position
        unchanged."""
        check_types(action)  # what the Python engine refuses before looking at the rules
        if not self._s.try_apply(action.kind, action.a, action.b, action.c):
            raise IllegalActionError(explain_illegal(self.to_state(), action))

    def random_choice(self, rng_state: int) -> tuple[Action, int] | None:
        """The random strategy's choice with a SplitMix64 stream in state ``rng_state``:
        (action, the stream's state after), or None once the game is over."""
        return self.choice_of(_plain_random(), rng_state)

    def choice_of(self, policy: CorePolicy, rng_state: int) -> tuple[Action, int] | None:
        """What the core strategy ``policy`` (:func:`core_policy_named`,
        :func:`core_learned_policy` …) chooses here with a SplitMix64 stream in state
        ``rng_state``: (action, the stream's state after), or None once the game is
        over. The position is unchanged."""
        out = policy.choose(self._s, rng_state & MASK)
        if out is None:
            return None
        t, state = out
        return Action(*t), int(state)

    # ----------------------------------------------------------------- environments
    def legal_indices(self) -> list[int]:
        """The legal actions as the learning environments' integers (their action
        index, :class:`~hansa_lab.env.action_index.ActionIndex`)."""
        return list(_core.env_legal_indices(self._s))

    def apply_index(self, i: int) -> bool:
        """Apply the action of environment integer ``i`` in place; False (the position
        unchanged) when it is not legal now."""
        return bool(_core.env_apply_index(self._s, i))

    def observe_into(self, seat: int, out: Any) -> None:
        """Write ``seat``'s observation vector into ``out`` (a float32 buffer of the
        observation's size)."""
        _core.env_observe(self._s, seat, out)

    def mask_into(self, mask: Any) -> int:
        """Write the legal-action mask into ``mask`` (a uint8 buffer of the action
        index's size, 1 for each legal action); the number of legal actions."""
        return int(_core.env_mask(self._s, mask))

    def rank_rewards(self) -> list[float]:
        """Every seat's reward from its final rank (a finished game)."""
        return [float(r) for r in _core.env_rank_rewards(self._s)]

    # ----------------------------------------------------------------- conversions
    def to_state(self) -> State:
        """The position as a Python :class:`State` (equal field by field to the Python
        engine's state after the same actions, with the last action's events)."""
        d: dict[str, Any] = self._s.to_dict()
        config = self.config
        pending = tuple(_decision(t) for t in d["pending"])
        favours = tuple(_names(FAVOUR_TILES, f) for f in d["favours"])
        return State(
            config=config,
            board=config.load_board(),
            posts=list(d["posts"]),
            offices=list(d["offices"]),
            extras=[tuple(x) for x in d["extras"]],
            supply_t=list(d["supply_t"]),
            supply_m=list(d["supply_m"]),
            stock_t=list(d["stock_t"]),
            stock_m=list(d["stock_m"]),
            prestige=list(d["prestige"]),
            levels=[list(lv) for lv in d["levels"]],
            markers=[_names(MARKER_KINDS, m) for m in d["markers"]],
            markers_used=[_names(MARKER_KINDS, m) for m in d["markers_used"]],
            route_marker=[MARKER_KINDS[m] if m >= 0 else None for m in d["route_marker"]],
            bag=_names(MARKER_KINDS, d["bag"]),
            drawn=_names(MARKER_KINDS, d["drawn"]),
            special=list(d["special"]),
            special_points=tuple(d["special_points"]),
            east_west=tuple(d["east_west"]),
            discarded=_names(MARKER_KINDS, d["discarded"]),
            permits_used=tuple(d["permits_used"]),
            neutral_pool=int(d["neutral_pool"]),
            favour_display=_names(FAVOUR_TILES, d["favour_display"]),
            favours=favours,
            turn_start=int(d["turn_start"]),
            active=int(d["active"]),
            actions_left=int(d["actions_left"]),
            round=int(d["round"]),
            turn=int(d["turn"]),
            n_actions=int(d["n_actions"]),
            completed=int(d["completed"]),
            pending=pending,
            end_reason=None if d["end_reason"] is None else END_REASONS[d["end_reason"]],
            end_after_action=(
                None if d["end_after_action"] is None else END_REASONS[d["end_after_action"]]
            ),
            events=self.events(),
        )

    @classmethod
    def from_state(cls, state: State, *, check: bool = True) -> CoreGame:
        """The core's twin of a Python :class:`State`. The position is checked first:
        a malformed field (wrong length, type or range) or an inconsistent position (one
        the invariant checker :func:`~hansa_lab.engine.invariants.check_state` refuses,
        e.g. a pending marker placement with no drawn marker) raises ``ValueError`` naming
        it, before the core sees it; NotImplementedError for a configuration the core does
        not cover. ``check=False`` skips the invariant checker (about 0.5 ms), for
        positions the Python engine itself produced (the core still checks every field's
        length and range)."""
        if not isinstance(state, State):
            raise TypeError(f"CoreGame.from_state needs a State, got {type(state).__name__}")
        try:
            if check:
                check_state(state)
        except InvariantError as e:
            raise ValueError(f"CoreGame.from_state: inconsistent position: {e}") from e
        except (TypeError, ValueError, IndexError, AttributeError, KeyError) as e:
            raise ValueError(f"CoreGame.from_state: malformed position: "
                             f"{type(e).__name__}: {e}") from e
        game = cls(state.config)
        game._s.set_fields(state_fields(state))
        return game


def _codes(table: tuple[str, ...], names: Sequence[Any], field: str) -> list[int]:
    try:
        return [table.index(x) for x in names]
    except (ValueError, TypeError) as e:
        raise ValueError(f"state field {field}: {e}") from e


def state_fields(state: State) -> dict[str, Any]:
    """A Python :class:`State`'s fields as the core reads them (indices for names)."""
    pending: list[tuple[Any, ...]] = []
    for f in state.pending:
        kind = getattr(f, "KIND", None)
        if kind not in DECISIONS or type(f) is not DECISIONS[kind]:
            raise NotImplementedError(
                f"the compiled core has no pending decision like {f!s} yet"
            )
        values = [getattr(f, x.name) for x in fields(f)]
        if kind == "permanent":  # the marker's name as its index
            values[1] = _codes(PERMANENT_MARKERS, [values[1]], "pending")[0]
        pending.append((kind, *values))
    end = state.end_reason
    eaa = state.end_after_action
    return {
        "posts": state.posts,
        "offices": state.offices,
        "extras": [list(x) for x in state.extras],
        "supply_t": state.supply_t,
        "supply_m": state.supply_m,
        "stock_t": state.stock_t,
        "stock_m": state.stock_m,
        "prestige": state.prestige,
        "levels": state.levels,
        "markers": [_codes(MARKER_KINDS, m, "markers") for m in state.markers],
        "markers_used": [_codes(MARKER_KINDS, m, "markers_used") for m in state.markers_used],
        "route_marker": [-1 if m is None else _codes(MARKER_KINDS, [m], "route_marker")[0]
                         for m in state.route_marker],
        "bag": _codes(MARKER_KINDS, draw_order(state.bag), "bag"),
        "drawn": _codes(MARKER_KINDS, state.drawn, "drawn"),
        "special": state.special,
        "special_points": list(state.special_points),
        "east_west": list(state.east_west),
        "discarded": _codes(MARKER_KINDS, state.discarded, "discarded"),
        "permits_used": list(state.permits_used),
        "neutral_pool": state.neutral_pool,
        "favour_display": _codes(FAVOUR_TILES, state.favour_display, "favour_display"),
        "favours": [_codes(FAVOUR_TILES, f, "favours") for f in state.favours],
        "turn_start": state.turn_start,
        "active": state.active,
        "actions_left": state.actions_left,
        "round": state.round,
        "turn": state.turn,
        "n_actions": state.n_actions,
        "completed": state.completed,
        "pending": pending,
        "end_reason": None if end is None else _codes(END_REASONS, [end], "end_reason")[0],
        "end_after_action": None if eaa is None else _codes(END_REASONS, [eaa],
                                                            "end_after_action")[0],
    }


# --------------------------------------------------------------------------- positions
def core_from_text(text: str, config: GameConfig | None = None) -> CoreGame:
    """The core's position from a position text (:mod:`hansa_lab.engine.position`): the
    core parses the text; ``config`` as in :func:`~hansa_lab.engine.position.from_text`.
    Malformed text raises :class:`~hansa_lab.engine.position.PositionError` naming the
    field and its column; a position the rules cannot reach raises it too (the same
    :func:`~hansa_lab.engine.position.check_position` as the Python reader's)."""
    config = read_config(text, config)
    try:
        state = _core.position_from_text(core_config(config), text)
    except ValueError as e:
        raise PositionError(str(e)) from None
    game = CoreGame(config, state)
    check_position(game.to_state(), text)  # the one validator, as for the Python reading
    try:
        state.set_fields(state.to_dict())  # the core's own check of a position from outside
    except ValueError as e:
        raise PositionError(f"position text: not a position the rules can reach: {e}") from None
    return game


def core_to_text(game: CoreGame) -> str:
    """The core's position as text, written by the core (the same text as
    :func:`~hansa_lab.engine.position.to_text` of the equal Python state)."""
    return str(_core.position_to_text(game._s, options_text(game.config)))


def core_perft(game: CoreGame, depth: int) -> int:
    """:func:`~hansa_lab.engine.perft.perft`, counted by the core."""
    return int(_core.position_perft(game._s, depth))


def core_divide(game: CoreGame, depth: int) -> list[tuple[Action, int]]:
    """:func:`~hansa_lab.engine.perft.divide`, counted by the core."""
    if depth < 1:
        raise ValueError(f"divide depth must be >= 1, got {depth}")
    return [(Action(*t), int(n)) for t, n in _core.position_divide(game._s, depth)]


# --------------------------------------------------------------------------- strategies
#: a learned model's linear part as the core takes it: (features, mean, scale, weights,
#: bias) (:meth:`~hansa_lab.strategies.model_file.LearnedModel.core_args`)
ModelArgs = tuple[list[str], list[float], list[float], list[float], float]
#: a model's hidden layer as the core takes it (None: a linear model)
HiddenArgs = tuple[list[float], list[float], list[float]] | None


def core_policy_named(name: str, params: Sequence[tuple[str, float]]) -> CorePolicy:
    """The core's strategy ``name`` (one of its policy names) with ``params``
    (ValueError naming an unknown strategy or a parameter out of range)."""
    return _core.CorePolicy(name, params)


def core_learned_policy(model: ModelArgs, hidden: HiddenArgs, *, model_weight: float,
                        greedy_weight: float, explore: float,
                        evaluation: Sequence[tuple[str, float]], reply: float, tip: str,
                        tip_weight: float, tip_threshold: int,
                        temperature: float = 0.0) -> CorePolicy:
    """The core's one-ply learned player over ``model`` (ValueError: a knob out of its
    range, or a model whose features are not the core's)."""
    return _core.learned_policy(*model, model_weight, greedy_weight, explore, evaluation,
                                hidden=hidden, reply=reply, tip=tip, tip_weight=tip_weight,
                                tip_threshold=tip_threshold, temperature=temperature)


def core_learned_rollout_policy(model: ModelArgs, hidden: HiddenArgs, *,
                                model_weight: float, greedy_weight: float, explore: float,
                                candidates: int, samples: int, horizon: int,
                                evaluation: Sequence[tuple[str, float]], gap: float,
                                tip: str, tip_weight: float, tip_threshold: int,
                                temperature: float = 0.0) -> CorePolicy:
    """The core's learned search (candidates of the learned player, each played out)."""
    return _core.learned_rollout_policy(*model, model_weight, greedy_weight, explore,
                                        candidates, samples, horizon, evaluation, gap,
                                        hidden=hidden, tip=tip, tip_weight=tip_weight,
                                        tip_threshold=tip_threshold, temperature=temperature)


def core_model_forward(model: ModelArgs, hidden: HiddenArgs,
                       rows: Sequence[Sequence[float]]) -> list[float]:
    """The model's values of feature ``rows``, computed by the core (ValueError for
    whatever the core would refuse in a game: the check of a model file)."""
    return list(_core.model_forward(*model, rows, hidden=hidden))


def core_feature_names() -> list[str]:
    """The core's feature names, in vector order (the learned players' inputs)."""
    return list(_core.FEATURE_NAMES)


# --------------------------------------------------------------------------- batches
def core_match(start: CoreGame, seats: Sequence[CorePolicy | None], seed: int,
               max_actions: int, log: bool) -> CoreMatch:
    """A game in the core's match loop from ``start`` (copied): ``seats[p]`` a core
    strategy or None for a seat decided in Python, seat streams from ``seed``; ``log``:
    the core builds the ``turns`` and ``events`` rows."""
    return _core.CoreMatch(start._s, seats, seed, max_actions, log)


def core_sample_games(
    config: GameConfig, seats: Sequence[CorePolicy], seeds: Sequence[int], rate: float,
    max_actions: int,
) -> list[tuple[int, list[int], list[float], list[int], list[int], int, bool]]:
    """Self-play games of ``config``, one per seed, each decision point sampled with
    probability ``rate``: per game (seed, rounds, features, totals, ranks, actions,
    ended)."""
    return _core.sample_games(core_config(config), seats, seeds, rate, max_actions)


def core_vector_env(config: GameConfig, n_envs: int, seed: int, max_actions: int,
                    threads: int) -> CoreVectorEnv:
    """``n_envs`` games of ``config`` stepped together in the core."""
    return _core.CoreVectorEnv(core_config(config), n_envs, seed, max_actions, threads)


def core_max_envs() -> int:
    """The most environments one vector environment holds."""
    return int(_core.MAX_ENVS)


def core_max_threads() -> int:
    """The most threads one vector environment steps with."""
    return int(_core.MAX_THREADS)


def play_random_game(config: GameConfig, max_actions: int = 20_000) -> tuple[CoreGame,
                                                                               list[Action]]:
    """A whole game with the random strategy in every seat, played in the core (the same
    game as :func:`hansa_lab.play.play_game` ``(config, ["random"] * n)``)."""
    s, actions = _core.play_random_game(core_config(config), max_actions)
    return CoreGame(config, s), [Action(*t) for t in actions]


def core_random_games(config: GameConfig, seeds: Sequence[int],
                      max_actions: int) -> tuple[int, int, int]:
    """Random games for ``seeds`` (checked by the caller), all in the core: (games,
    actions, capped games)."""
    return _core.play_random_games(core_config(config), seeds, max_actions)


def timings(config: GameConfig, games: int = 50) -> tuple[float, float, float]:
    """Nanoseconds per state copy, full legal-action list and score-if-ended-now in the
    core, averaged over the positions of ``games`` random games."""
    return _core.timings(core_config(config), games)


def turn_columns() -> list[str]:
    """The columns of the ``turns`` rows the core builds, in their order."""
    return list(_core.TURN_COLUMNS)
