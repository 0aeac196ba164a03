"""Experiments: validated specifications (arms × conditions) and their fair designs.

An :class:`Experiment` comes from a dict or TOML file (format in
:func:`hansa_lab.sim.runner.run_experiment`) through :func:`normalize_experiment`, which
checks every field before any game starts. A :class:`Design` lists its games.

Sweeps of rule options
    ``[variants]`` (named variants: ``ew_631 = {east_west_points = [6, 3, 1]}``) or
    ``[sweep]`` (a grid: ``control_points = [2, 3, 4]``, every combination of the listed
    values) turns every condition into one condition per variant, each with the variant's
    options on top of the condition's own. The unchanged game is always one of them (the
    *base variant*: a variant with no change, else one named ``default`` is added), so
    every variant can be compared with it deal by deal (the same seeds and rotations in
    every condition): :meth:`hansa_lab.sim.results.Results.variants`. A value equal to the
    option's default is no change.

Fair designs
    Every game belongs to a *deal* ``d`` (seed = base seed + ``d``: the bonus-marker
    draws and the strategies' random streams) and a *rotation* ``k`` of the line-up:
    in rotation ``k`` seat ``p`` plays ``lineup[(p - k) mod n]``, so the line-up's first
    (focal) strategy sits in seat ``k``. Each deal is played in all the line-up's
    distinct rotations — ``n`` when no strategy repeats; a line-up of one repeated
    strategy has a single one, as its rotations would replay the very same game (the
    random streams belong to the seats) — so every strategy plays every seat equally
    often, and the games per arm are rounded up to a multiple of that number. All arms
    use the same seeds, deal by deal, and the same rotations (paired design, common
    random numbers). Game ids are unique across arms and conditions and follow the
    order condition → deal → arm → rotation.

>>> exp = normalize_experiment({"games": 5, "players": 3,
...                             "arms": {"a": ["random:gather=false", "random", "random"]}})
>>> design = Design(exp)
>>> game = design[4]  # deal 1, rotation 1: the focal strategy sits in seat 1
>>> len(design), game.seed, game.rotation, game.lineup
(6, 1, 1, ('random', 'random:gather=False', 'random'))
"""

from __future__ import annotations

import bisect
import itertools
import json
import os
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from hansa_lab.engine.board import KNOWN_BOARDS
from hansa_lab.engine.rng import MAX_SEED  # the largest seed (re-exported: tune, commands)
from hansa_lab.engine.state import EDITIONS, RULE_OPTIONS, GameConfig
from hansa_lab.errors import ExperimentError
from hansa_lab.sim.logs import DEFAULT_STALL_ROUNDS
from hansa_lab.stats.tables import lineup_period
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.lineup import fill_seats, split_specs

#: Games per chunk (the unit of parallel work, of writing and of resuming).
DEFAULT_CHUNK_SIZE = 100
LOG_LEVELS = ("full", "summary")
BACKENDS = ("loky", "dask")
ROTATION_RULE = "rotation k: seat p plays lineup[(p - k) mod n]; lineup[0] sits in seat k"
SEED_RULE = "seed = base seed + deal"
GAME_ORDER = "condition, deal, arm, rotation"
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class Condition:
    """One game configuration of an experiment (everything but the seed)."""

    n_players: int
    board: str = "base"
    edition: str = "bigbox"
    options: tuple[tuple[str, Any], ...] = ()
    #: the rule variant of a sweep ("" outside sweeps)
    variant: str = ""

    def config(self, seed: int) -> GameConfig:
        return GameConfig(self.n_players, self.board, self.edition, seed, self.options)

    def as_dict(self) -> dict[str, Any]:
        out = {
            "players": self.n_players,
            "board": self.board,
            "edition": self.edition,
            "options": jsonable(dict(self.options)),
        }
        if self.variant:
            out["variant"] = self.variant
        return out

    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        head = f"{self.n_players}p {self.board} {self.edition}"
        if self.variant:
            return f"{head} variant {self.variant}"
        return head + (f" {opts}" if opts else "")


@dataclass(frozen=True)
class Experiment:
    """A validated experiment: arms × conditions × ``n_games`` paired games.

    ``arms`` maps an arm name to its line-up of canonical strategy specs as given
    (possibly shorter than the player count: it is repeated to fill the seats).
    """

    name: str
    arms: dict[str, tuple[str, ...]]
    conditions: tuple[Condition, ...]
    n_games: int
    seed: int = 0
    chunk_size: int | None = None
    log: str = "full"
    max_actions: int | None = None
    base_arm: str | None = None
    description: str = ""
    stall_rounds: int = DEFAULT_STALL_ROUNDS
    #: sweeps: the variant without changes, which the others are compared with
    base_variant: str | None = None
    #: the strategy files the arms use: name → base and every parameter's value, as read
    #: when the experiment was checked (a changed file then refuses to resume the run)
    strategy_files: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the model files the arms' learned players read in the conditions' games: model →
    #: file and SHA-256 (:mod:`hansa_lab.sim.model_files`; a changed file refuses a resume)
    model_files: dict[str, dict[str, Any]] = field(default_factory=dict)

    def lineup(self, arm: str, n_players: int) -> tuple[str, ...]:
        """The arm's line-up filled to ``n_players`` seats (before rotation)."""
        lineup = self.arms[arm]
        return lineup * (n_players // len(lineup))

    @property
    def comparison_base(self) -> str | None:
        """The arm the others are compared with: ``base_arm``, else an arm named "base"."""
        return self.base_arm or ("base" if "base" in self.arms else None)

    def select(self, arms: Sequence[str] | None = None,
               players: Sequence[int] | None = None) -> Experiment:
        """Part of the experiment: only ``arms`` (the base arm comes along, as every
        comparison needs it) and only the conditions with one of the player counts
        ``players``. The name gets a suffix (``strategy_tips--actions_first--3p``), so
        the part has its own results folder.

        >>> exp = normalize_experiment({"games": 4, "players": [3, 4], "arms": {
        ...     "base": ["greedy"], "tip": ["actions_first"], "other": ["blocker"]}})
        >>> part = exp.select(["tip"], [4])
        >>> part.name, list(part.arms), [c.n_players for c in part.conditions]
        ('experiment--tip--4p', ['base', 'tip'], [4])
        """
        chosen = dict(self.arms)
        suffix: list[str] = []
        if arms is not None:
            unknown = [a for a in arms if a not in self.arms]
            if unknown or not arms:
                raise ExperimentError("selected_arms", f"no arm {unknown[0]!r} in the experiment "
                                      f"(arms: {', '.join(self.arms)})" if unknown
                                      else "select at least one arm")
            keep = set(arms) | ({self.comparison_base} - {None})
            chosen = {a: lu for a, lu in self.arms.items() if a in keep}
            suffix.append("-".join(a for a in self.arms if a in arms))
        conditions = self.conditions
        if players is not None:
            conditions = tuple(c for c in self.conditions if c.n_players in set(players))
            if not conditions:
                counts = sorted({c.n_players for c in self.conditions})
                wanted = ", ".join(map(str, players))
                raise ExperimentError("selected_players", f"no condition with {wanted} players "
                                      f"(the experiment has {counts})")
            suffix.append("-".join(f"{n}p" for n in players))
        name = "--".join([self.name, *suffix])
        return replace(self, arms=chosen, conditions=conditions, name=name,
                       model_files=_model_files(chosen, conditions))

    def configuration(self) -> dict[str, Any]:
        """Everything that determines the games and the tables (compared on resume)."""
        return {
            "name": self.name,
            "arms": {k: list(v) for k, v in self.arms.items()},
            "conditions": [c.as_dict() for c in self.conditions],
            "games": self.n_games,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "log": self.log,
            "max_actions": self.max_actions,
            "base_arm": self.base_arm,
            "stall_rounds": self.stall_rounds,
            "base_variant": self.base_variant,
            # only with strategy files, so older runs' configurations still match
            **({"strategy_files": self.strategy_files} if self.strategy_files else {}),
            **({"model_files": self.model_files} if self.model_files else {}),
        }

    def strategies(self) -> dict[str, dict[str, Any]]:
        """Every spec of the arms with what it plays: class, name, every parameter's
        value and the strategy file it comes from, if any (for the run's manifest)."""
        out: dict[str, dict[str, Any]] = {}
        for spec in dict.fromkeys(s for lineup in self.arms.values() for s in lineup):
            strat = make_strategy(spec)
            out[spec] = {"name": strat.name, "class": type(strat).name,
                         "params": jsonable(strat.params),
                         "file": strat.source.record() if strat.source is not None else None}
        return out


_TOP_KEYS = {
    "name", "description", "games", "seed", "chunk_size", "log", "max_actions", "base_arm",
    "players", "board", "edition", "options", "arms", "conditions", "jobs", "backend",
    "dask_address", "decision_time_limit", "stall_rounds", "engine", "sweep", "variants",
}
#: Configuration fields added after runs were stored: a stored configuration without one
#: matches its default (so those runs still resume).
ADDED_FIELDS: dict[str, Any] = {"stall_rounds": DEFAULT_STALL_ROUNDS, "base_variant": None}
#: Identity fields added after runs were stored whose value a stored configuration cannot
#: supply: one without the field resumes as it was recorded (it is not compared).
UNRECORDED_FIELDS = ("model_files",)
#: The name of the base variant of a sweep when no variant leaves the game unchanged.
BASE_VARIANT = "default"
_CONDITION_KEYS = ("players", "board", "edition", "options")


def jsonable(x: Any) -> Any:
    """``x`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(x))


def is_int(x: Any) -> bool:
    """An integer that is not a bool."""
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


def _file_relative(spec: str, folder: Path | None) -> str:
    """``spec`` with a strategy file's relative path read from ``folder`` (the experiment
    file's folder)."""
    name, colon, rest = spec.strip().partition(":")
    if folder is None or not name.endswith(".toml") or Path(name).is_absolute():
        return spec
    return str(folder / name) + colon + rest


def _canonical_strategy(entry: Any, where: str, err: Callable[[str, str], Exception],
                        files: dict[str, dict[str, Any]] | None = None,
                        folder: Path | None = None) -> str:
    """A strategy entry (``"greedy:depth=1"``, ``{name = "greedy", depth = 1}``, or a
    strategy file: its registered name or its path, relative to ``folder``) as the
    canonical spec text, checked by building it. A strategy file's definition is added
    to ``files``."""
    try:
        if isinstance(entry, str):
            strat = make_strategy(_file_relative(entry, folder))
        elif isinstance(entry, Mapping):
            params = dict(entry)
            name = params.pop("name", None)
            if not isinstance(name, str):
                raise err(where, "a strategy table needs a name, e.g. {name = \"greedy\"}")
            strat = make_strategy(_file_relative(name, folder), **params)
        else:
            raise err(where, f"a strategy is a name like \"greedy\", got {entry!r}")
    except ExperimentError:
        raise
    except (ValueError, TypeError) as e:
        raise err(where, str(e)) from None
    spec = strat.spec
    if make_strategy(spec).spec != spec:  # pragma: no cover - defensive
        raise err(where, f"strategy spec {spec!r} does not rebuild the same strategy")
    if strat.source is not None and files is not None:
        files[strat.source.name] = jsonable(strat.source.definition())
    return spec


def normalize_experiment(
    raw: Mapping[str, Any],
    *,
    source: str | None = None,
    names: Mapping[str, str] | None = None,
    default_name: str = "experiment",
) -> Experiment:
    """Validate an experiment given as a dict (the TOML format of :func:`run_experiment`)
    and return it as an :class:`Experiment`. Errors are :class:`ExperimentError` naming
    the field; ``names`` renames top-level fields in messages (``{"games": "n_games"}``)."""
    names = dict(names or {})

    def fname(path: str) -> str:
        head = re.match(r"[^.\[]*", path).group(0)  # type: ignore[union-attr]
        return names.get(head, head) + path[len(head):]

    def err(path: str, message: str) -> ExperimentError:
        return ExperimentError(fname(path), message, source)

    if not isinstance(raw, Mapping):
        raise ExperimentError("", f"an experiment is a table/dict, got {type(raw).__name__}",
                              source)
    for key in raw:
        if key not in _TOP_KEYS:
            raise err(str(key), f"unknown field; known fields: {', '.join(sorted(_TOP_KEYS))}")

    name = raw.get("name", default_name)
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise err("name", f"must be a simple name (letters, digits, _ . -), got {name!r}")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise err("description", "must be a string")
    if "games" not in raw:
        raise err("games", "missing (number of games per arm and condition)")
    games = raw["games"]
    if not is_int(games) or games < 1:
        raise err("games", f"must be a positive integer, got {games!r}")
    seed = raw.get("seed", 0)
    if not is_int(seed) or seed < 0:
        raise err("seed", f"must be an integer >= 0, got {seed!r}")
    if seed + games > MAX_SEED + 1:  # seeds seed .. seed + deals - 1 are stored as int64
        raise err("seed", f"seed + games must stay within 2**63 (the seeds are stored as 64-bit "
                          f"integers), got seed {seed!r}")
    chunk_size = raw.get("chunk_size")
    if chunk_size is not None and (not is_int(chunk_size) or chunk_size < 1):
        raise err("chunk_size", f"must be a positive integer, got {chunk_size!r}")
    log = raw.get("log", "full")
    if log not in LOG_LEVELS:
        raise err("log", f"must be one of {', '.join(LOG_LEVELS)}, got {log!r}")
    max_actions = raw.get("max_actions")
    if max_actions is not None and (not is_int(max_actions) or max_actions < 1):
        raise err("max_actions", f"must be a positive integer, got {max_actions!r}")
    stall_rounds = raw.get("stall_rounds", DEFAULT_STALL_ROUNDS)
    if not is_int(stall_rounds) or stall_rounds < 1:
        raise err("stall_rounds", f"must be a positive integer (rounds), got {stall_rounds!r}")
    jobs = raw.get("jobs", 1)
    if not is_int(jobs) or jobs == 0:
        raise err("jobs", f"must be a non-zero integer (-1 = all cores), got {jobs!r}")
    backend = raw.get("backend", "loky")
    if backend not in BACKENDS:
        raise err("backend", f"must be one of {', '.join(BACKENDS)}, got {backend!r}")

    # arms -------------------------------------------------------------------
    if "arms" not in raw:
        raise err("arms", "missing (arm name = list of strategies)")
    raw_arms = raw["arms"]
    single = isinstance(raw_arms, list | tuple)
    if single:
        raw_arms = {"main": raw_arms}
    if not isinstance(raw_arms, Mapping) or not raw_arms:
        raise err("arms", "must be a non-empty table of arm name = [strategies]")
    arms: dict[str, tuple[str, ...]] = {}
    files: dict[str, dict[str, Any]] = {}
    folder = Path(source).parent if source is not None else None
    for arm, lineup in raw_arms.items():
        where = "arms" if single else f"arms.{arm}"
        if not isinstance(arm, str) or not arm:
            raise err(where, "arm names must be non-empty strings")
        if isinstance(lineup, str):
            lineup = split_specs(lineup)
        if not isinstance(lineup, list | tuple) or not lineup:
            raise err(where, f"must be a non-empty list of strategies, got {lineup!r}")
        arms[arm] = tuple(
            _canonical_strategy(entry, f"{where}[{i}]", err, files, folder)
            for i, entry in enumerate(lineup)
        )
    base_arm = raw.get("base_arm")
    if base_arm is not None and (not isinstance(base_arm, str) or base_arm not in arms):
        raise err("base_arm", f"{base_arm!r} is not an arm (arms: {', '.join(arms)})")

    # conditions ---------------------------------------------------------------
    top = {k: raw[k] for k in _CONDITION_KEYS if k in raw}
    entries = raw.get("conditions")
    if entries is None:
        entries = [{}]
    elif not isinstance(entries, list) or not entries:
        raise err("conditions", "must be a non-empty list of tables ([[conditions]])")
    variants, base_variant = _variants(raw, err)
    conditions: list[Condition] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise err(f"conditions[{i}]", "must be a table")
        for key in entry:
            if key not in _CONDITION_KEYS:
                raise err(f"conditions[{i}].{key}",
                          f"unknown field; known: {', '.join(_CONDITION_KEYS)}")
        for plain in _expand_condition(top, entry, i if raw.get("conditions") else None, err):
            for cond in _with_variants(plain, variants, err):
                same = next((c for c in conditions if _same_games(c, cond)), None)
                if same is not None and cond.variant and same.variant:
                    raise err("variants" if "variants" in raw else "sweep",
                              f"variants {same.variant!r} and {cond.variant!r} are the same "
                              f"game in {cond.label()}")
                if same is not None:
                    raise err("conditions", f"duplicate condition {cond.label()}")
                conditions.append(cond)

    # every arm must fill every condition's seats evenly --------------------------
    for cond in conditions:
        n = cond.n_players
        for arm, lineup in arms.items():
            try:
                fill_seats(lineup, n)
            except ValueError as e:
                where = "arms" if single else f"arms.{arm}"
                raise err(where, f"{e}, or change the player count") from None

    # the model files the learned players read ------------------------------------
    try:
        models = _model_files(arms, conditions)
    except ValueError as e:
        raise err("arms", str(e)) from None

    return Experiment(
        name=name,
        arms=arms,
        conditions=tuple(conditions),
        n_games=int(games),
        seed=int(seed),
        chunk_size=None if chunk_size is None else int(chunk_size),
        log=log,
        max_actions=None if max_actions is None else int(max_actions),
        base_arm=base_arm,
        description=description,
        stall_rounds=int(stall_rounds),
        base_variant=base_variant,
        strategy_files=dict(sorted(files.items())),
        model_files=models,
    )


def _model_files(arms: Mapping[str, Sequence[str]],
                 conditions: Sequence[Condition]) -> dict[str, dict[str, Any]]:
    """The model files of ``arms`` in ``conditions`` (:func:`model_files.model_files`)."""
    from hansa_lab.sim.model_files import model_files

    return model_files((s for lineup in arms.values() for s in lineup),
                       (c.config(0) for c in conditions))


def _same_games(a: Condition, b: Condition) -> bool:
    return (a.n_players, a.board, a.edition, a.options) == (b.n_players, b.board, b.edition,
                                                            b.options)


def _show(value: Any) -> str:
    return json.dumps(jsonable(value), separators=(",", ":"))


def _variants(
    raw: Mapping[str, Any], err: Callable[[str, str], ExperimentError]
) -> tuple[list[tuple[str | None, dict[str, Any]]], str | None]:
    """The rule variants of ``[variants]`` or ``[sweep]`` as (name, options) pairs and the
    base variant's name (None without a sweep). A sweep's grid points have no name yet
    (None): each condition names them by what they change there (:func:`_with_variants`)."""
    if "variants" in raw and "sweep" in raw:
        raise err("sweep", "give [variants] or [sweep], not both")
    out: list[tuple[str | None, dict[str, Any]]] = []
    if "variants" in raw:
        table = raw["variants"]
        if not isinstance(table, Mapping) or not table:
            raise err("variants", "must be a non-empty table of name = {option = value, ...}")
        for name, opts in table.items():
            if not isinstance(name, str) or not name.strip():
                raise err("variants", f"variant names must be non-empty strings, got {name!r}")
            if not isinstance(opts, Mapping):
                raise err(f"variants.{name}", f"must be a table of rule options, got {opts!r}")
            out.append((name, dict(opts)))
    elif "sweep" in raw:
        table = raw["sweep"]
        if not isinstance(table, Mapping) or not table:
            raise err("sweep", "must be a non-empty table of option = [values]")
        for key, values in table.items():
            if not isinstance(values, list | tuple) or not values:
                raise err(f"sweep.{key}", f"a sweep lists the values to try, e.g. {key} = "
                                          f"[a, b], got {values!r}")
        keys = list(table)
        out = [(None, dict(zip(keys, combo, strict=True)))
               for combo in itertools.product(*(table[k] for k in keys))]
    else:
        return [("", {})], None
    for name, opts in out:
        for k in opts:
            if k not in RULE_OPTIONS:
                where = f"variants.{name}.{k}" if name is not None else f"sweep.{k}"
                raise err(where, f"unknown rule option; known: {', '.join(RULE_OPTIONS)}")
    if "sweep" in raw:
        return out, BASE_VARIANT
    unchanged = [n for n, opts in out if not opts]  # a variant that changes nothing
    if unchanged:
        base = str(unchanged[0])
        return [(base, {})] + [(n, o) for n, o in out if n != base], base
    if any(name == BASE_VARIANT for name, _ in out):
        raise err(f"variants.{BASE_VARIANT}", f"the name {BASE_VARIANT!r} is kept for the "
                                              "unchanged game; this variant changes options")
    return [(BASE_VARIANT, {}), *out], BASE_VARIANT


def _is_default(name: str, value: Any) -> bool:
    """Whether ``value`` is option ``name``'s default (then it changes nothing)."""
    return jsonable(value) == jsonable(RULE_OPTIONS.get(name))


def _changes(plain: Condition, opts: Mapping[str, Any]) -> dict[str, Any]:
    """The options of ``opts`` that change the game of condition ``plain``: a value equal
    to the condition's own (given or default) changes nothing, nor does the value the
    board prints given explicitly (``east_west_points = [7, 4, 2]``)."""
    base = dict(plain.options)
    here = GameConfig(plain.n_players, plain.board, plain.edition, 0, plain.options)
    out: dict[str, Any] = {}
    for k, v in opts.items():
        if jsonable(v) == jsonable(base.get(k, RULE_OPTIONS[k])):
            continue
        try:
            given = GameConfig(plain.n_players, plain.board, plain.edition, 0,
                               tuple({**base, k: v}.items()))
        except (ValueError, TypeError):
            out[k] = v  # the variant's own validation names the error
            continue
        if _game_numbers(given) != _game_numbers(here):
            out[k] = v
    return out


def _game_numbers(config: GameConfig) -> tuple[Any, ...]:
    """Everything the rule options decide in a game of ``config``."""
    sp = config.option("special_points")
    special = tuple(sp) if sp is not None else tuple(
        p for p, _ in config.load_board().special_spaces)
    return (config.tuning, special, config.option("prestige_to_end"),
            config.option("east_alternative"), config.option("emperor"))


def _with_variants(plain: Condition, variants: list[tuple[str | None, dict[str, Any]]],
                   err: Callable[[str, str], ExperimentError]) -> list[Condition]:
    """``plain`` once per variant, the variant's changes on top of the condition's options.
    A sweep's grid point is named by its changes here (``control_points=3``), the one
    without changes being the base variant, added when the grid lacks it."""
    if variants == [("", {})]:
        return [plain]
    out: list[Condition] = []
    for name, opts in variants:
        changes = _changes(plain, opts)
        if name is None:  # a grid point
            name = ",".join(f"{k}={_show(v)}" for k, v in changes.items()) or BASE_VARIANT
            if any(c.variant == name for c in out):
                continue  # the same changes as a point already there
        merged = {**dict(plain.options), **changes}
        merged = {k: v for k, v in merged.items() if not _is_default(k, v)}  # absent: default
        try:
            cfg = GameConfig(plain.n_players, plain.board, plain.edition, 0,
                             tuple(merged.items()))
        except (ValueError, TypeError) as ex:
            where = f"variants.{name}" if name in {n for n, _ in variants} else "sweep"
            raise err(where, f"{ex} ({plain.n_players} players, {plain.board}, "
                             f"{plain.edition})") from None
        out.append(replace(plain, options=cfg.options, variant=name))
    if not any(c.variant == BASE_VARIANT for c in out) and all(n is None for n, _ in variants):
        out.insert(0, replace(plain, variant=BASE_VARIANT))
    base = [c for c in out if not c.variant or c.options == plain.options]
    out.sort(key=lambda c: c not in base[:1])  # the base variant first
    return out


def _expand_condition(
    top: Mapping[str, Any],
    entry: Mapping[str, Any],
    index: int | None,
    err: Callable[[str, str], ExperimentError],
) -> list[Condition]:
    """Merge a condition entry over the top-level fields and expand list values
    (``players = [3, 4, 5]``) into their cross product."""

    def where(key: str) -> str:
        return f"conditions[{index}].{key}" if index is not None and key in entry else key

    merged = {**top, **{k: v for k, v in entry.items() if k != "options"}}
    options: dict[str, Any] = {}
    for src, opts in (("top", top.get("options", {})), ("entry", entry.get("options", {}))):
        key = "options" if src == "top" else where("options")
        if not isinstance(opts, Mapping):
            raise err(key, f"must be a table of rule options, got {opts!r}")
        for k, v in opts.items():
            if k not in RULE_OPTIONS:
                raise err(f"{key}.{k}", f"unknown rule option; known: {', '.join(RULE_OPTIONS)}")
            options[k] = tuple(v) if isinstance(v, list) else v

    def values(key: str, default: Any) -> list[Any]:
        v = merged.get(key, default)
        if isinstance(v, list | tuple) and not v:
            raise err(where(key), "an empty list sweeps nothing; give at least one value")
        return list(v) if isinstance(v, list | tuple) else [v]

    players = values("players", 4)
    boards = values("board", "base")
    editions = values("edition", "bigbox")
    for p in players:
        if not is_int(p):
            raise err(where("players"), f"must be an integer, got {p!r}")
        try:
            GameConfig(int(p))
        except ValueError as ex:
            raise err(where("players"), str(ex)) from None
    for b in boards:
        if b not in KNOWN_BOARDS:
            raise err(where("board"), f"unknown board {b!r}; known: {', '.join(KNOWN_BOARDS)}")
    for e in editions:
        if e not in EDITIONS:
            raise err(where("edition"), f"must be one of {', '.join(EDITIONS)}, got {e!r}")
    out = []
    for p, b, e in itertools.product(players, boards, editions):
        try:
            GameConfig(int(p), b, e, 0)
        except ValueError as ex:
            board_ok = any(_playable(n, b) for n in range(2, 6))
            raise err(where("players") if board_ok else where("board"), str(ex)) from None
        try:
            cfg = GameConfig(int(p), b, e, 0, tuple(options.items()))
        except (ValueError, TypeError) as ex:  # e.g. special_points = 5 (not a list)
            raise err(where("options"), f"{ex} (options: {jsonable(options)})") from None
        out.append(Condition(int(p), b, e, cfg.options))
    return out


def load_experiment(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read an experiment TOML file into a dict (syntax errors name the file)."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except OSError as e:
        raise ExperimentError("", f"cannot read experiment file: {e.strerror}", str(path)) from None
    except UnicodeDecodeError as e:
        raise ExperimentError("", f"not a UTF-8 text file (byte {e.start}: {e.reason})",
                              str(path)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError("", f"invalid TOML: {e}", str(path)) from None


def _playable(n_players: int, board: str) -> bool:
    try:
        GameConfig(n_players, board)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class GameSpec:
    """One game of a design: its id, arm, seed, rotation, configuration and the strategy
    spec of every seat (rotation applied)."""

    game_id: int
    arm: str
    seed: int
    rotation: int
    config: GameConfig
    lineup: tuple[str, ...]


def auto_chunk_size(n_games: int) -> int:
    """The chunk size when none is given: about 16 chunks, at most
    :data:`DEFAULT_CHUNK_SIZE` games each (small runs still spread over the workers)."""
    return max(1, min(DEFAULT_CHUNK_SIZE, -(-n_games // 16)))


@dataclass(frozen=True)
class _Segment:
    """Consecutive deals of a condition in which the same arms play."""

    first_deal: int
    end_deal: int
    offset: int  # game id of the first game of ``first_deal``
    arms: tuple[int, ...]  # indices of the arms still dealing
    per_deal: int  # games per deal (sum of the arms' periods)


class Design:
    """The games of an experiment, generated on demand (a 100k-game design costs nothing).

    In each condition, every arm plays its line-up's distinct seat rotations (see
    :func:`lineup_period`) for each deal: ``ceil(games / period)`` deals, so ``games``
    is the number of distinct games per arm, rounded up to a multiple of the period.
    All arms use the same seeds, deal by deal (an arm with more deals goes on alone).
    Game ids follow the order condition → deal → arm → rotation.

    ``design[i]`` is the :class:`GameSpec` of game id ``i``; ``design.chunk(c)`` the
    games of chunk ``c``; iterating yields every game in id order.
    """

    def __init__(self, experiment: Experiment, chunk_size: int | None = None) -> None:
        self.experiment = experiment
        self.arms = tuple(experiment.arms)
        self.blocks: list[tuple[Condition, list[tuple[str, ...]], list[_Segment]]] = []
        self.per_arm: list[dict[str, dict[str, int]]] = []
        offsets: list[tuple[int, int, int]] = []  # (game id, block, segment)
        offset = 0
        for cond in experiment.conditions:
            lineups = [experiment.lineup(a, cond.n_players) for a in self.arms]
            periods = [lineup_period(lu) for lu in lineups]
            deals = [-(-experiment.n_games // p) for p in periods]
            segments: list[_Segment] = []
            start = 0
            for end in sorted(set(deals)):
                active = tuple(i for i, d in enumerate(deals) if d >= end)
                per_deal = sum(periods[i] for i in active)
                offsets.append((offset, len(self.blocks), len(segments)))
                segments.append(_Segment(start, end, offset, active, per_deal))
                offset += (end - start) * per_deal
                start = end
            self.blocks.append((cond, lineups, segments))
            self.per_arm.append({
                arm: {"deals": d, "rotations": p, "games": d * p}
                for arm, d, p in zip(self.arms, deals, periods, strict=True)
            })
        self._offsets = [o[0] for o in offsets]
        self._where = [o[1:] for o in offsets]
        self.n_games = offset
        self.chunk_size = int(chunk_size or experiment.chunk_size or auto_chunk_size(offset))

    def __len__(self) -> int:
        return self.n_games

    @property
    def n_chunks(self) -> int:
        return -(-self.n_games // self.chunk_size)

    def __getitem__(self, game_id: int) -> GameSpec:
        if not 0 <= game_id < self.n_games:
            raise IndexError(f"game id {game_id} outside 0..{self.n_games - 1}")
        b, s = self._where[bisect.bisect_right(self._offsets, game_id) - 1]
        cond, lineups, segments = self.blocks[b]
        seg = segments[s]
        deal, rest = divmod(game_id - seg.offset, seg.per_deal)
        for a in seg.arms:
            period = lineup_period(lineups[a])
            if rest < period:
                break
            rest -= period
        n = cond.n_players
        filled = lineups[a]
        seed = self.experiment.seed + seg.first_deal + deal
        return GameSpec(
            game_id=game_id,
            arm=self.arms[a],
            seed=seed,
            rotation=rest,
            config=cond.config(seed),
            lineup=tuple(filled[(p - rest) % n] for p in range(n)),
        )

    def __iter__(self) -> Iterator[GameSpec]:
        return (self[i] for i in range(self.n_games))

    def chunk_ids(self, index: int) -> range:
        """The game ids of chunk ``index``."""
        lo = index * self.chunk_size
        return range(lo, min(lo + self.chunk_size, self.n_games))

    def chunk(self, index: int) -> list[GameSpec]:
        return [self[i] for i in self.chunk_ids(index)]

    def summary(self) -> dict[str, Any]:
        """What the manifest records about the design (sizes, seeds, rounding)."""
        exp = self.experiment
        per: list[dict[str, Any]] = []
        for (cond, _, segments), arms in zip(self.blocks, self.per_arm, strict=True):
            deals = max(a["deals"] for a in arms.values())
            per.append({
                "condition": cond.as_dict(),
                "arms": arms,
                "first_game_id": segments[0].offset,
                "games": sum(a["games"] for a in arms.values()),
                "seeds": {"first": exp.seed, "last": exp.seed + deals - 1, "count": deals},
            })
        rounded = any(a["games"] != exp.n_games for p in per for a in p["arms"].values())
        note = (
            f"games per arm ({exp.n_games} asked) are rounded up to a multiple of the "
            "line-up's distinct seat rotations: "
            + "; ".join(
                f"{p['condition']['players']}p " + ", ".join(
                    f"{arm} {a['games']} ({a['rotations']} rotation"
                    f"{'s' if a['rotations'] > 1 else ''})" for arm, a in p["arms"].items())
                for p in per
            )
        )
        return {
            "games_requested_per_arm": exp.n_games,
            "rounding": note,
            "rounded": rounded,
            "arms": list(exp.arms),
            "conditions": per,
            "total_games": self.n_games,
            "chunk_size": self.chunk_size,
            "n_chunks": self.n_chunks,
            "game_order": GAME_ORDER,
            "rotation": ROTATION_RULE,
        }
