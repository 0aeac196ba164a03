"""Parity harness: the Python engine and the compiled core step the same random games.

At every step both engines' legal action lists, states (every field, through
:meth:`hansa_lab.compiled.bridge.CoreGame.to_state`), the applied action's events and scores if the
game ended now are compared, and the core's random strategy must pick the
same action as the Python one from the same SplitMix64 stream. After the last step the
final states, scores and rankings are compared too. The report counts games, actions
compared and mismatches, with the first mismatch's configuration, seed, step and both
sides.

Games cycle over every configuration (:func:`parity_configs`): the five board sides with
every player count (``base_3p`` with 2 players has the neutral colour), both editions, and
the rule options (printed or other special-prestige points, start supply, prestige to end,
Emperor's Favour, the East's alternative disputed cities); two games in three also draw
random non-default values for two to six of the tunable numbers
(:func:`random_tuning`: awards, score tables, tracks, start supply and markers).
"""

from __future__ import annotations

import random
import time
from typing import Any

from hansa_lab.compiled.bridge import CoreGame
from hansa_lab.engine.actions import Action, format_action
from hansa_lab.engine.limits import option_limit
from hansa_lab.engine.options import ALL, MARKER_KINDS, MARKER_SETS, RULE_OPTIONS
from hansa_lab.engine.rng import seat_stream
from hansa_lab.engine.rules import apply_in_place, legal_actions
from hansa_lab.engine.scoring import ranking, score_rows
from hansa_lab.engine.state import GameConfig, State, new_game
from hansa_lab.engine.vocabulary import PLAIN_INT_OPTIONS
from hansa_lab.strategies.random_policy import RandomStrategy

#: (board, players) pairs cycled by game index: every side and player count
_TABLES: tuple[tuple[str, int], ...] = (
    ("base_3p", 2), ("base_3p", 3), ("base_45p", 4), ("base_45p", 5),
    ("east", 3), ("east", 4), ("east", 5),
    ("britannia_3p", 3), ("britannia_45p", 4), ("britannia_45p", 5),
)
#: option sets cycled on top (East also alternates east_alternative)
_OPTION_SETS: tuple[tuple[tuple[str, Any], ...], ...] = (
    (),
    (("emperor", True),),
    (("special_points", (5, 6, 8, 12)), ("prestige_to_end", 12)),
    (("start_supply", 3), ("emperor", True)),
    (("start_supply", 1), ("prestige_to_end", 30)),
)


def parity_configs(seed: int) -> GameConfig:
    """The configuration of parity game ``seed`` (every combination in turn: board side
    and player count, then edition, then rule options; two in three add
    :func:`random_tuning`)."""
    board, n = _TABLES[seed % len(_TABLES)]
    rest = seed // len(_TABLES)
    edition = ("bigbox", "original")[rest % 2]
    options = _OPTION_SETS[(rest // 2) % len(_OPTION_SETS)]
    if board == "east" and (rest // 2) % 2:
        options = (*options, ("east_alternative", True))
    config = GameConfig(n_players=n, board=board, edition=edition, seed=seed, options=options)
    if (rest // (2 * len(_OPTION_SETS))) % 3:
        config = config.replace(options=(*options, *random_tuning(config)))
    return config


def _sorted_ints(rng: random.Random, n: int, lo: int, hi: int) -> tuple[int, ...]:
    return tuple(sorted(rng.randint(lo, hi) for _ in range(n)))


def random_tuning(config: GameConfig) -> tuple[tuple[str, Any], ...]:
    """Random non-default values for two to six tunable rule options (drawn from the
    configuration's seed, so a parity game's configuration is fixed by its number)."""
    rng = random.Random(config.seed * 7919 + 17)
    n = config.n_players
    start_markers = rng.randint(0, 2)
    _, start = MARKER_SETS[config.edition]
    marker_set = {k: rng.randint(0, 3) for k in MARKER_KINDS}
    for k in start[:start_markers]:
        marker_set[k] = max(marker_set[k], 1)
    bank: list[int | str] = list(_sorted_ints(rng, 4, 1, 9))
    for i in range(rng.randint(0, 2)):
        bank[3 - i] = ALL
    draws: dict[str, Any] = {
        "east_west_points": tuple(rng.randint(0, 12) for _ in range(rng.randint(0, 4))),
        "control_points": rng.choice((0, 1, 3, 4, 6)),
        "favour_control_bonus": rng.choice((0, 1, 5)),
        "ability_points": rng.choice((0, 2, 7, 10)),
        "favour_abilities_bonus": rng.choice((0, 2, 8)),
        "marker_points": tuple(rng.randint(0, 25) for _ in range(rng.randint(1, 12))),
        "region_points": tuple(rng.randint(0, 12) for _ in range(rng.randint(0, 5))),
        "cities_to_end": rng.randint(3, 12),
        "actions_track": _sorted_ints(rng, 6, 1, 6),
        "bank_track": tuple(bank),
        "book_track": _sorted_ints(rng, 4, 1, 6),
        "keys_track": _sorted_ints(rng, 5, 0, 6),
        "start_supply_seats": tuple(rng.randint(0, 11) for _ in range(rng.randint(n, 5))),
        "start_merchants": 0,
        "marker_set": marker_set,
        "start_markers": start_markers,
    }
    if "start_supply" in dict(config.options):
        del draws["start_supply_seats"]
    names = rng.sample(sorted(draws), rng.randint(2, 6))
    if "marker_set" in names and "start_markers" not in names:
        names.append("start_markers")
    # a plain integer option the table above lacks (declared in the vocabulary alone) is
    # drawn within 2 of its default (games of a usual length), within its declared range,
    # half the time, by a stream of its own: the draws above stay those of the same seed
    for name in sorted(set(PLAIN_INT_OPTIONS) - set(draws)):
        own = random.Random(f"{config.seed}/{name}")
        if own.random() < 0.5:
            lim, default = option_limit(name), RULE_OPTIONS[name]
            values = [v for v in range(default - 2, default + 3)
                      if v != default and lim.low <= v <= lim.high]
            draws[name] = own.choice(values)
            names.append(name)
    return tuple((k, draws[k]) for k in sorted(names))


def _describe(config: GameConfig) -> dict[str, Any]:
    return {"players": config.n_players, "board": config.side, "edition": config.edition,
            "seed": config.seed, "options": {k: v for k, v in config.options}}


def _state_diff(py: State, core: State) -> dict[str, Any]:
    a, b = py.__getstate__(), core.__getstate__()
    return {k: {"python": repr(a[k]), "core": repr(b.get(k))} for k in a if a[k] != b.get(k)}


def parity_game(config: GameConfig, max_actions: int = 20_000) -> tuple[int, dict[str, Any] |
                                                                        None]:
    """Step one random game in both engines; (actions compared, first mismatch or None)."""
    py = new_game(config)
    core = CoreGame(config)
    strategy = RandomStrategy()
    rngs = [seat_stream(config.seed, p) for p in range(config.n_players)]
    step = 0

    def mismatch(what: str, python: Any, core_side: Any) -> dict[str, Any]:
        return {"configuration": _describe(config), "seed": config.seed, "step": step,
                "what": what, "python": python, "core": core_side}

    while True:
        cs = core.to_state()
        if cs != py:
            return step, mismatch("state", None, None) | {"fields": _state_diff(py, cs)}
        p_rows, c_rows = score_rows(py), core.score_rows()
        if p_rows != c_rows:
            return step, mismatch("score", p_rows, c_rows)
        legal = legal_actions(py)
        core_legal = core.legal_tuples()
        if legal != core_legal:
            fmt = [format_action(py.board, a) for a in legal]
            cfmt = [format_action(py.board, Action(*a)) for a in core_legal]
            return step, mismatch("legal_actions", fmt, cfmt)
        if py.is_over or step >= max_actions:
            break
        p = py.current_player
        rng = rngs[p]
        before = rng.state
        action = strategy.choose(py, legal, rng)
        core_choice = core.random_choice(before)
        if core_choice != (action, rng.state):
            return step, mismatch("random_choice", [action, rng.state], core_choice)
        apply_in_place(py, action, check=False)
        core.apply(action)
        step += 1
        if core.events() != py.events:
            return step, mismatch("events", [list(e) for e in py.events],
                                  [list(e) for e in core.events()])
    if ranking(py) != core.ranking():
        return step, mismatch("ranking", ranking(py), core.ranking())
    return step, None


def run_parity(games: int, first_seed: int = 0, max_actions: int = 20_000,
               seconds: float | None = None) -> dict[str, Any]:
    """Parity games ``first_seed`` … (configurations by :func:`parity_configs`), stopping
    after ``games`` or ``seconds``; the report as a dict."""
    t0 = time.perf_counter()
    n_games = compared = mismatches = 0
    first: dict[str, Any] | None = None
    configs: set[tuple[int, str, str, tuple[tuple[str, Any], ...]]] = set()
    for seed in range(first_seed, first_seed + games):
        if seconds is not None and time.perf_counter() - t0 > seconds:
            break
        config = parity_configs(seed)
        steps, bad = parity_game(config, max_actions)
        n_games += 1
        compared += steps
        configs.add((config.n_players, config.side, config.edition, config.options))
        if bad is not None:
            mismatches += 1
            first = first or bad
    return {
        "games": n_games,
        "actions_compared": compared,
        "mismatches": mismatches,
        "first_mismatch": first,
        "configurations": len(configs),
        "seconds": round(time.perf_counter() - t0, 2),
    }
