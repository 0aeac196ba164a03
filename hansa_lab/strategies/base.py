"""The strategy interface and the registry that maps names to strategies.

A strategy never touches the real state: it receives its seat's view of the current
position (:func:`~hansa_lab.engine.observe.observe`: a :class:`State` whose bonus-marker
bag is a :class:`~hansa_lab.engine.observe.HiddenBag`, the markers' kinds and numbers
without their draw order; it must not modify it), the list of legal actions and its own
random stream, and returns one of the legal actions. A search that plays the position on
deals the bag with :func:`~hansa_lab.engine.observe.determinise` (a look-ahead on the
view itself draws in a fixed order that says nothing about the real one).

Tunable weights are constructor keyword arguments, so a spec like
``"greedy:depth=1"`` or a dict in an experiment file can set them by name.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from hansa_lab.engine.actions import Action
from hansa_lab.engine.limits import Limit, as_int
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.state import State

if TYPE_CHECKING:
    from hansa_lab.strategies.strategy_file import StrategyFile

_REGISTRY: dict[str, type[Strategy]] = {}


def search_box(limits: dict[str, Limit], *whole: str,
               **narrower: tuple[float, float]) -> dict[str, tuple[float, float]]:
    """A strategy's :attr:`Strategy.ranges`: the parameters ``whole`` over their whole
    range of ``limits`` (the shared table's, written once there), and ``narrower``
    useful values of others (each within its limit, else ``ValueError``)."""
    box = {name: (limits[name].low, limits[name].high) for name in whole}
    for name, (low, high) in narrower.items():
        lim = limits[name]
        if not lim.low <= low <= high <= lim.high:
            raise ValueError(f"parameter {name}: [{low:g}, {high:g}] is not within its "
                             f"range [{lim.low:g}, {lim.high:g}]")
        box[name] = (low, high)
    return box


class Strategy:
    """Base class: subclasses set ``defaults`` (every tunable parameter with its default)
    and implement :meth:`choose`. Parameters become attributes of the instance."""

    #: the registered name; a strategy built from a strategy file (:attr:`source`) carries
    #: the file's name instead (its class keeps the base's)
    name: str = "strategy"
    #: the strategy file this strategy was built from (None: built from its class)
    source: StrategyFile | None = None
    defaults: ClassVar[dict[str, Any]] = {}
    #: the ranges both engines play, from the shared table (``engine/data/limits.json``,
    #: :func:`~hansa_lab.engine.limits.parameter_limits` of the strategy's groups; the core
    #: checks the same): every numeric parameter of the package's strategies has one
    limits: ClassVar[dict[str, Limit]] = {}
    #: the tuner's search box of some numeric parameters, inclusive: parameter → (low,
    #: high), within :attr:`limits` (their whole range, or narrower useful values: written
    #: with :func:`search_box`); every number must also be finite. Both are checked
    #: whenever a strategy is built (:func:`make_strategy` or the class itself)
    ranges: ClassVar[dict[str, tuple[float, float]]] = {}
    #: True for the package's own strategies, which never modify the state they are shown
    #: (tests/test_strategy_isolation.py checks each one): the game skips the defensive
    #: copy and comparison it makes for every other strategy's decisions
    trusted: ClassVar[bool] = False

    def __init__(self, **params: Any) -> None:
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            known = ", ".join(self.defaults) or "none"
            raise ValueError(
                f"strategy {self.name!r} has no parameter {unknown[0]!r} (parameters: {known})"
            )
        checked = {}
        for k, v in params.items():
            try:
                checked[k] = _checked(type(self), k, v)
            except ValueError as e:
                raise ValueError(f"strategy {self.name!r} parameter {k!r}: {e}") from None
        self._params = {**self.defaults, **checked}
        for k, v in self._params.items():
            setattr(self, k, v)
        self.setup()

    def setup(self) -> None:
        """Hook for derived state (validated parameters, caches)."""

    @classmethod
    def tip_carrier(cls, tip: str) -> type[Strategy] | None:
        """The class that plays this strategy carrying the tip ``tip`` when the strategy
        has no ``tip`` parameter of its own (``greedy``: the tip's strategy, greedy plus
        the tip's term), or None: this strategy cannot carry a tip (the default)."""
        return None

    def choose(self, state: State, legal: list[Action], rng: Rng) -> Action:
        """One of ``legal`` for the seat deciding in ``state`` (the seat's view: reading
        the bag's draw order raises
        :class:`~hansa_lab.engine.observe.HiddenInformationError`)."""
        raise NotImplementedError

    @property
    def params(self) -> dict[str, Any]:
        """The strategy's parameters with their current values."""
        return dict(self._params)

    @property
    def spec(self) -> str:
        """Text that rebuilds this strategy with :func:`make_strategy`: the name and the
        parameters that differ from the defaults (from the strategy file's values, for a
        strategy built from one)."""
        reference = self.defaults if self.source is None else self.source.resolved
        changed = {k: v for k, v in self._params.items() if reference.get(k) != v}
        if not changed:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in sorted(changed.items()))

    def __repr__(self) -> str:
        return f"<strategy {self.spec}>"

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.source is not None:  # unpickled in a worker: its spec now rebuilds it there
            from hansa_lab.strategies.strategy_file import remember

            remember(self.source)


def register(name: str) -> Callable[[type[Strategy]], type[Strategy]]:
    """Class decorator adding a strategy to the registry under ``name``."""

    def deco(cls: type[Strategy]) -> type[Strategy]:
        if name in _REGISTRY:
            raise ValueError(f"strategy {name!r} is already registered")
        cls.name = name
        _REGISTRY[name] = cls
        return cls

    return deco


def registry() -> dict[str, type[Strategy]]:
    return dict(_REGISTRY)


def _convert(value: str, default: Any) -> Any:
    if isinstance(default, bool):
        if value.lower() in ("1", "true", "yes"):
            return True
        if value.lower() in ("0", "false", "no"):
            return False
        raise ValueError(f"expected true/false, got {value!r}")
    if isinstance(default, int):
        return int(value)
    if isinstance(default, float):
        return float(value)
    return value


def is_trusted(strategy: Strategy) -> bool:
    """Whether ``strategy`` is one of the package's own (``trusted`` and defined in
    :mod:`hansa_lab.strategies`; a user's subclass of one is not)."""
    cls = type(strategy)
    return cls.trusted and cls.__module__.startswith("hansa_lab.strategies.")


def parse_strategy_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,key=value"`` into the name and raw parameters."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"strategy {spec!r}: parameter {item!r} is not key=value")
            params[key.strip()] = value.strip()
    return name, params


def _checked(cls: type[Strategy], key: str, value: Any) -> Any:
    """A parameter value of the declared type (its default's: a bool is no number, a float
    no int; numpy numbers count as numbers and come back as Python's), finite, within
    ``cls.limits`` (the range both engines play) and ``cls.ranges``; else ``ValueError``
    saying why."""
    default = cls.defaults[key]
    if isinstance(default, bool):
        ok = isinstance(value, bool)
        kind = "true or false"
    elif isinstance(default, int):
        ok = as_int(value) is not None
        kind = "an integer"
        if ok and type(value) is not int:
            value = as_int(value)
    elif isinstance(default, float):
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
        kind = "a number"
        if ok and type(value) not in (int, float):
            value = as_int(value) if as_int(value) is not None else float(value)
    else:
        ok = isinstance(value, type(default)) or default is None
        kind = f"a {type(default).__name__}"
    if not ok:
        raise ValueError(f"must be {kind}, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"must be a finite number, got {value!r}")
    limit = cls.limits.get(key)
    if limit is not None and not isinstance(value, bool) and not limit.contains(value):
        raise ValueError(f"must be within [{limit.low:g}, {limit.high:g}] (the range both "
                         f"engines play), got {value!r}")
    if key in cls.ranges and not isinstance(value, bool):
        low, high = cls.ranges[key]
        if not low <= value <= high:
            raise ValueError(f"must be within [{low:g}, {high:g}], got {value!r}")
    return value


#: the players that carry a tip (:meth:`Strategy.tip_carrier` or a ``tip`` parameter)
TIP_CARRIERS = ("greedy (its archetypes and strategy files such as planner), learned, "
                "learned_rollout, strong, strong_v2")


def _tip_names() -> tuple[str, ...]:
    """The registered tips: the strategies whose ``tip`` parameter is a number."""
    return tuple(n for n, c in _REGISTRY.items()
                 if isinstance(c.defaults.get("tip"), float))


def _carrying_tip(cls: type[Strategy], name: str,
                  given: dict[str, Any]) -> tuple[type[Strategy], dict[str, Any]]:
    """The class and parameters of ``name`` carrying ``given["tip"]`` (weighted
    ``given["tip_weight"]``, default 1) when its class has no ``tip`` parameter: the
    class's :meth:`~Strategy.tip_carrier`; ValueError when it cannot carry a tip or the
    tip is unknown."""
    tip = str(given["tip"])
    rest = {k: v for k, v in given.items() if k not in ("tip", "tip_weight")}
    if tip == "none":
        if "tip_weight" in given:
            rest["tip_weight"] = given["tip_weight"]  # refused below: no such parameter
        return cls, rest
    if tip not in _tip_names():
        raise ValueError(f"strategy {name!r}: no tip {tip!r} (tips: "
                         f"{', '.join(_tip_names())}, or none)")
    carrier = cls.tip_carrier(tip)
    if carrier is None:
        raise ValueError(f"strategy {name!r} cannot carry a tip: a tip is a term of "
                         f"greedy's evaluation, added where a player's own evaluation "
                         f"uses it; the players that carry one: {TIP_CARRIERS}")
    rest["tip"] = given.get("tip_weight", 1.0)
    return carrier, rest


def make_strategy(spec: str | Strategy, **params: Any) -> Strategy:
    """Build a strategy from a spec string (``"greedy:depth=1"``) or pass one through.
    Unknown names or parameters, values of the wrong type, not finite or outside the
    strategy's declared :attr:`Strategy.ranges` raise ``ValueError`` naming them.

    A spec may also name a strategy file (:mod:`hansa_lab.strategies.strategy_file`): a
    registered one by its name (``"greedy_4p_tuned"``) or any by its path
    (``"my/tuned.toml:route=1.2"``); the parameters after the colon override the file's.

    ``tip=<name>`` (``tip_weight=<w>``, default 1) makes a player carry a strategy tip
    (:data:`~hansa_lab.strategies.greedy.TIPS`): ``greedy`` and the players built on its
    evaluation become the tip's strategy on their values (``greedy:tip=actions_first`` is
    ``actions_first``), the learned players take it as a parameter
    (``strong:tip=actions_first``); any other player is refused with a clear error."""
    if isinstance(spec, Strategy):
        return spec
    name, raw = parse_strategy_spec(spec)
    source: StrategyFile | None = None
    if name not in _REGISTRY:
        from hansa_lab.strategies.strategy_file import find_strategy_file, registered_files

        source = find_strategy_file(name)
        if source is None:
            names = sorted([*_REGISTRY, *registered_files()])
            raise ValueError(f"unknown strategy {name!r}; known: {', '.join(names)} (or the "
                             "path of a strategy file, ending in .toml)")
        name = source.name
    cls = _REGISTRY[source.base] if source is not None else _REGISTRY[name]
    given = {**raw, **params}
    kwargs: dict[str, Any] = dict(source.params) if source is not None else {}
    if "tip" in given and "tip" not in cls.defaults:
        carrier, given = _carrying_tip(cls, name, given)
        if carrier is not cls:  # the tip's strategy on this one's values, named after the tip
            kwargs = {**{k: v for k, v in cls.defaults.items()
                         if k in carrier.defaults and carrier.defaults[k] != v}, **kwargs}
            cls, source = carrier, None
    accepted = cls.defaults
    for key, value in given.items():
        if key not in accepted:
            known = ", ".join(accepted) or "none"
            raise ValueError(f"strategy {name!r} has no parameter {key!r} (parameters: {known})")
        if key == "tip" and isinstance(accepted[key], float) and value in _tip_names():
            raise ValueError(f"strategy {name!r} is greedy carrying one tip already: its "
                             f"'tip' is that tip's weight (a number); for another tip "
                             f"give greedy:tip={value}")
        try:
            converted = _convert(value, accepted[key]) if isinstance(value, str) else value
            kwargs[key] = _checked(cls, key, converted)
        except ValueError as e:
            raise ValueError(f"strategy {name!r} parameter {key!r}: {e}") from e
    strategy = cls(**kwargs)
    if source is not None:
        strategy.name = source.name
        strategy.source = source
    return strategy
