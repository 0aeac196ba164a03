"""Synthetic game tables with a known truth, for examples, tests and trying out analyses.

:func:`synthetic_tables` builds ``games`` / ``players`` / ``turns`` / ``events`` frames
with the columns and dtypes of the run tables (:data:`hansa_lab.sim.logs.SCHEMA`; this
module declares them itself, as statistics may not import the runner, and a test checks
the two agree), laid out like a real run
(deals, seat rotations, arms paired on the same deals), but with scores drawn from a
simple model whose parameters are the right answers:

``total = base + skill[strategy] + seat_bonus[seat] + luck + noise`` (rounded, at least 0)

- ``luck`` ~ N(0, ``luck_sd``) is drawn per (deal, seat) and is the **same in every
  rotation and arm** (common random numbers: what pairing on seeds cancels);
- ``noise`` ~ N(0, ``noise_sd``) is drawn per player-game, independently in each arm.

So in a paired comparison of the focal seat the true mean difference is
``skill[tip] - skill[base]``; the paired differences have variance ``2 * noise_sd**2``
against ``2 * (luck_sd**2 + noise_sd**2)`` unpaired. Ranks follow the totals (equal
totals tie and share the win). Per-turn ``projected`` scores rise linearly to the final
total, plus a Brownian bridge of size ``wander`` (0: the leader never changes).

>>> t = synthetic_tables({"tip": ["a", "b"], "base": ["b", "b"]}, n_deals=3, n_players=2)
>>> len(t["games"]), len(t["players"]), sorted(set(t["games"].arm))
(9, 18, ['base', 'tip'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from hansa_lab.engine.board import ABILITIES
from hansa_lab.engine.scoring import CATEGORIES
from hansa_lab.stats.tables import lineup_period

#: Side of the base board per player count (as the engine names it).
_SIDES = {2: "base_3p", 3: "base_3p", 4: "base_45p", 5: "base_45p"}

_KEYS = "experiment:string arm:string game_id:int64"
_COLUMNS = {
    "games": f"{_KEYS} seed:int64 rotation:int16 board:string side:string edition:string "
             "n_players:int8 options:string lineup:string end_reason:string rounds:int32 "
             "turns:int32 actions:int32 winners:string n_winners:int8 wall_time:float64 "
             "cpu_time:float64 quiet_rounds:int32 stalled:bool",
    "players": f"{_KEYS} seat:int8 strategy:string strategy_name:string "
               "strategy_params:string total:int32 "
               + " ".join(f"{c}:int32" for c in CATEGORIES)
               + " rank:int8 win:bool win_share:float64 tb_actions_developed:int8 "
               "tb_network:int32",
    "turns": f"{_KEYS} round:int32 turn:int32 acting_seat:int8 seat:int8 is_acting:bool "
             "actions_used:int16 prestige:int32 projected:int32 "
             + " ".join(f"proj_{c}:int32" for c in CATEGORIES) + " "
             + " ".join(f"lv_{a}:int8" for a in ABILITIES)
             + " supply_t:int16 supply_m:int16 stock_t:int16 stock_m:int16 posts:int16 "
             "kontors:int16 markers_held:int8 markers_used:int8",
    "events": f"{_KEYS} action_index:int32 round:int32 turn:int32 seat:int8 kind:string "
              "other_seat:int8 route:int16 city:string detail:string value:int32",
}
#: The columns and dtypes of the tables built here, in order (those of the run tables).
DTYPES: dict[str, dict[str, str]] = {
    table: dict(col.split(":") for col in spec.split()) for table, spec in _COLUMNS.items()
}


def _frame(table: str, rows: list[tuple] | dict[str, np.ndarray]) -> pd.DataFrame:
    """A table from row tuples (in column order) or columns, with its declared dtypes."""
    dtypes = DTYPES[table]
    cols: dict[str, Any] = rows if isinstance(rows, dict) else (
        dict(zip(dtypes, map(list, zip(*rows, strict=True)), strict=True)) if rows else {})
    return pd.DataFrame({c: pd.array(cols.get(c, []), dtype=d) if d == "string"
                         else np.asarray(cols.get(c, []), dtype=d)
                         for c, d in dtypes.items()})


def synthetic_tables(
    arms: Mapping[str, Sequence[str]] | Sequence[str] = ("a", "b", "b", "b"),
    n_deals: int = 25,
    n_players: int = 4,
    *,
    skill: Mapping[str, float] | None = None,
    seat_bonus: Sequence[float] | None = None,
    base: float = 50.0,
    luck_sd: float = 8.0,
    noise_sd: float = 3.0,
    wander: float = 0.0,
    rounds: int = 12,
    end_reasons: Mapping[str, float] | None = None,
    seed: int = 0,
    experiment: str = "synthetic",
    edition: str = "bigbox",
    game_id_start: int = 0,
    seed_start: int = 0,
    detail: bool = True,
) -> dict[str, pd.DataFrame]:
    """Tables of ``n_deals`` deals per arm, each played in the line-up's distinct seat
    rotations as the runner does (``n_players`` of them when no strategy repeats, one
    for an all-same line-up; see the module doc).

    ``arms``: arm name → line-up (index 0 = the focal strategy; a shorter line-up
    repeats), or one line-up (a single arm named ``"a"``). ``skill``: mean score
    bonus per strategy name (default 0; strategies named like ``"plus3"`` get +3).
    ``seat_bonus``: added per seat. ``rounds``: every game lasts this many rounds.
    ``end_reasons``: reason → probability (default prestige 0.6, cities 0.3, markers 0.1).
    ``game_id_start`` / ``seed_start`` offset ids and seeds, to concatenate several calls.
    ``detail=False`` leaves the ``turns`` and ``events`` tables empty (faster).

    >>> t = synthetic_tables(["x", "y"], n_deals=50, n_players=2, skill={"x": 5.0})
    >>> p = t["players"]
    >>> diff = p[p.strategy == "x"].total.mean() - p[p.strategy == "y"].total.mean()
    >>> bool(3 < diff < 7)
    True
    """
    if not isinstance(arms, Mapping):
        arms = {"a": list(arms)}
    skill = dict(skill or {})
    bonus = np.zeros(n_players) if seat_bonus is None else np.asarray(seat_bonus, float)
    reasons = dict(end_reasons or {"prestige": 0.6, "cities": 0.3, "markers": 0.1})
    rng = np.random.default_rng(seed)
    n = n_players
    # common random numbers: luck per (deal, seat), the same in every rotation and arm
    luck = rng.normal(0.0, luck_sd, size=(n_deals, n))
    reason_names = list(reasons)
    reason_p = np.array(list(reasons.values()), float)
    reason_draw = rng.choice(len(reason_names), size=(n_deals, n), p=reason_p / reason_p.sum())
    turns_per_game = rounds * n
    games: list[tuple] = []
    players: list[tuple] = []
    turn_parts: list[dict[str, np.ndarray]] = []
    events: list[tuple] = []
    gid = game_id_start
    for arm, lineup in arms.items():
        line = [lineup[i % len(lineup)] for i in range(n)]
        period = lineup_period(line)
        # per rotation: the seats' strategies, their names and their mean scores
        strats = [[line[(p - k) % n] for p in range(n)] for k in range(period)]
        names = [[x.split(":")[0] for x in strat] for strat in strats]
        means = [np.array([base + skill.get(x, _named_skill(x)) for x in strat]) + bonus
                 for strat in strats]
        for d in range(n_deals):
            for k in range(period):
                strat, name = strats[k], names[k]
                raw = means[k] + luck[d] + rng.normal(0.0, noise_sd, n)
                total = np.maximum(np.rint(raw), 0).astype(int)
                order = -total
                ranks = 1 + (order[None, :] < order[:, None]).sum(axis=1)
                winners = [p for p in range(n) if ranks[p] == 1]
                cats = _split(total, rng)
                reason = reason_names[reason_draw[d, k]]
                games.append((
                    experiment, arm, gid, seed_start + d, k, "base", _SIDES.get(n, "base_45p"),
                    edition, n, "{}", ",".join(strat), reason, rounds, turns_per_game,
                    3 * turns_per_game, ",".join(map(str, winners)), len(winners), 0.0, 0.0,
                    0, False,  # quiet_rounds, stalled: synthetic games never stall
                ))
                for p in range(n):
                    players.append((
                        experiment, arm, gid, p, strat[p], name[p],
                        "{}", int(total[p]), *map(int, cats[p]), int(ranks[p]),
                        bool(ranks[p] == 1), (1 / len(winners)) if ranks[p] == 1 else 0.0,
                        0, 0,
                    ))
                if detail:
                    turn_parts.append(_turns(experiment, arm, gid, total, cats, rounds,
                                             wander, rng))
                    events.extend(_develop_events(experiment, arm, gid, n, rounds, rng))
                gid += 1
    turns = (_frame("turns", {c: np.concatenate([t[c] for t in turn_parts])
                              for c in turn_parts[0]}) if turn_parts else _frame("turns", []))
    return {
        "games": _frame("games", games),
        "players": _frame("players", players),
        "turns": turns,
        "events": _frame("events", events),
    }


def _named_skill(name: str) -> float:
    """``"plus3"`` → 3.0, ``"minus2"`` → -2.0, anything else 0."""
    for prefix, sign in (("plus", 1.0), ("minus", -1.0)):
        if name.startswith(prefix):
            try:
                return sign * float(name[len(prefix):])
            except ValueError:
                return 0.0
    return 0.0


def _split(total: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Split each total over the six score categories (rows sum to the totals)."""
    share = {"track": 0.35, "abilities": 0.1, "markers": 0.1, "special": 0.05,
             "control": 0.25, "network": 0.15}
    weights = np.array([share.get(c, 0.0) for c in CATEGORIES])
    weights = weights / weights.sum()
    # one draw per row (the same random stream as one multinomial call per row)
    return rng.multinomial(np.asarray(total, dtype=np.int64), weights).astype(int)


def _turns(experiment: str, arm: str, gid: int, total: np.ndarray, cats: np.ndarray,
           rounds: int, wander: float, rng: np.random.Generator) -> dict[str, np.ndarray]:
    n = len(total)
    t = rounds * n
    frac = np.arange(1, t + 1) / t  # after each turn
    # Brownian bridge per player: 0 at the start and at the end
    steps = rng.normal(0.0, 1.0, size=(t, n)).cumsum(axis=0) / np.sqrt(t)
    bridge = steps - frac[:, None] * steps[-1]
    proj = np.rint(frac[:, None] * total[None, :] + wander * bridge).astype(int)
    proj = np.maximum(proj, 0)
    proj[-1] = total
    turn = np.arange(1, t + 1)
    cols: dict[str, np.ndarray] = {
        "experiment": np.full(t * n, experiment, dtype=object),
        "arm": np.full(t * n, arm, dtype=object),
        "game_id": np.full(t * n, gid),
        "round": np.repeat((turn - 1) // n + 1, n),
        "turn": np.repeat(turn, n),
        "acting_seat": np.repeat((turn - 1) % n, n),
        "seat": np.tile(np.arange(n), t),
    }
    cols["is_acting"] = cols["seat"] == cols["acting_seat"]
    cols["actions_used"] = np.where(cols["is_acting"], 2, 0)
    share = cats / np.maximum(total, 1)[:, None]  # category mix of the final score
    flat = proj.reshape(-1)
    cols["projected"] = flat
    for i, c in enumerate(CATEGORIES):
        cols[f"proj_{c}"] = np.rint(flat * np.tile(share[:, i], t)).astype(int)
    cols["prestige"] = cols["proj_track"]
    for a in ABILITIES:
        cols[f"lv_{a}"] = np.zeros(t * n, dtype=int)
    for c in ("supply_t", "supply_m", "stock_t", "stock_m", "posts", "kontors",
              "markers_held", "markers_used"):
        cols[c] = np.zeros(t * n, dtype=int)
    return cols


def _develop_events(experiment: str, arm: str, gid: int, n: int, rounds: int,
                    rng: np.random.Generator) -> list[tuple]:
    """A few ``develop`` events per player: levels 1..L of some abilities at sorted turns."""
    t = rounds * n
    levels = rng.integers(0, 4, size=(n, len(ABILITIES)))
    when = np.sort(rng.integers(1, t + 1, size=(n, len(ABILITIES), 3)), axis=2)
    seat, ab, lv = np.nonzero(np.arange(3)[None, None, :] < levels[:, :, None])
    turn = when[seat, ab, lv]
    return [(experiment, arm, gid, 0, (int(tu) - 1) // n + 1, int(tu), int(p), "develop", -1,
             -1, "", ABILITIES[a], int(v) + 1)
            for p, a, v, tu in zip(seat, ab, lv, turn, strict=True)]
