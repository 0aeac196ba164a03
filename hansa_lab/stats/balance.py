"""A balance objective per rule variant (or any group of games): how fair the seats are, whether
one strategy dominates, how long games last and how they end — and the choice of the most
balanced variant whose games stay within a length band.

:func:`balance_table` gives one row per group (default: the ``options`` — a sweep's
variant names — the ``arm`` and ``n_players`` when they vary):

- ``first_seat_adv`` — the first seat's (seat 0) win share minus its fair share 1/n, with
  the Wilson interval of the win share shifted the same way (``adv_lo``/``adv_hi``);
- ``seat_gap`` — the largest distance of any seat's win rate from the fair share (the
  objective: 0 is perfectly balanced seats);
- ``strategy_spread`` — highest minus lowest win rate of the strategies in the group
  (NaN with a single strategy: nothing can dominate);
- ``rounds`` with its t interval (``rounds_lo``/``rounds_hi``);
- ``end_prestige``, ``end_cities``, ``end_markers``, ``end_other`` — shares of the end
  reasons (``other``: the action cap);
- ``lead_changes`` — mean lead changes per game (NaN without the ``turns`` table).

:func:`most_balanced` picks the row with the smallest ``seat_gap`` among those whose mean
length lies in a band of rounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from hansa_lab.stats.display import ReadableFrame, View, readable
from hansa_lab.stats.intervals import mean_interval, wilson_interval
from hansa_lab.stats.quality import lead_changes
from hansa_lab.stats.tables import GAME_KEYS, By, as_list, varying

__all__ = ["balance_table", "most_balanced"]

_REASONS = ("prestige", "cities", "markers")


def balance_table(
    players: pd.DataFrame,
    games: pd.DataFrame,
    turns: pd.DataFrame | None = None,
    by: By | None = None,
    ci: float = 0.95,
) -> pd.DataFrame:
    """The balance measures of every group of games (see the module text).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=200, n_players=3, seat_bonus=[8, 0, 0])
    >>> b = balance_table(t["players"], t["games"])
    >>> bool(b.first_seat_adv[0] > 0.1), bool(b.adv_lo[0] > 0), int(b.games[0])
    (True, True, 200)
    """
    keys = (varying(games, ["options", "arm", "n_players"]) if by is None else as_list(by))
    g = games[list(dict.fromkeys([*GAME_KEYS, *keys, "n_players", "rounds", "end_reason"]))]
    if turns is not None and len(turns):
        g = g.merge(lead_changes(turns), on=GAME_KEYS, how="left")
    p = players[[*GAME_KEYS, "seat", "strategy", "win_share"]].merge(
        g[[*GAME_KEYS, *[k for k in keys if k not in GAME_KEYS], "n_players"]
          ].loc[:, lambda d: ~d.columns.duplicated()],
        on=GAME_KEYS, how="inner")
    rows = []
    game_groups = g.groupby(keys, sort=True, dropna=False) if keys else [((), g)]
    player_groups = dict(iter(p.groupby(keys, sort=True, dropna=False))) if keys else {(): p}
    for key, gg in game_groups:
        pp = player_groups[key]
        key = key if isinstance(key, tuple) else (key,)
        n = len(gg)
        fair = float((1 / gg["n_players"]).mean())
        seat0 = pp[pp["seat"] == 0]["win_share"]
        wins0 = float(seat0.sum())
        lo, hi = wilson_interval(wins0, len(seat0), ci)
        rate0 = wins0 / len(seat0) if len(seat0) else math.nan
        per_seat = pp.groupby("seat")["win_share"].mean()
        per_strategy = pp.groupby("strategy")["win_share"].mean()
        mean, r_lo, r_hi = mean_interval(gg["rounds"].to_numpy(float), ci)
        reasons = gg["end_reason"].astype(str)
        row: dict[str, object] = dict(zip(keys, key, strict=True))
        row.update({
            "games": n, "fair": fair,
            "first_seat_win": rate0, "first_seat_adv": rate0 - fair,
            "adv_lo": lo - fair, "adv_hi": hi - fair,
            "seat_gap": float((per_seat - fair).abs().max()),
            "strategy_spread": (float(per_strategy.max() - per_strategy.min())
                                if len(per_strategy) > 1 else math.nan),
            "rounds": mean, "rounds_lo": r_lo, "rounds_hi": r_hi,
            **{f"end_{r}": float((reasons == r).mean()) for r in _REASONS},
            "end_other": float((~reasons.isin(_REASONS)).mean()),
            "lead_changes": (float(gg["lead_changes"].mean()) if "lead_changes" in gg
                             else math.nan),
        })
        rows.append(row)
    return readable(pd.DataFrame(rows), View(
        columns=(*keys, "games", "first_seat_adv", "seat_gap", "strategy_spread", "rounds",
                 "end_prestige", "end_cities", "end_markers", "end_other", "lead_changes"),
        percent=("first_seat_adv", "seat_gap", "strategy_spread", "end_prestige",
                 "end_cities", "end_markers", "end_other"),
        intervals=(("first_seat_adv", "adv_lo", "adv_hi"),)))


def most_balanced(table: pd.DataFrame, rounds: tuple[float, float] | None = None,
                  by: Sequence[str] = ()) -> pd.DataFrame:
    """The rows of :func:`balance_table` with the smallest ``seat_gap`` (per ``by``
    group, e.g. ``["n_players"]``) among those whose mean length ``rounds`` lies within
    the band ``(lo, hi)`` (inclusive; None: no band). Groups without a row in the band
    are left out.

    >>> t = pd.DataFrame({"options": ["a", "b", "c"], "seat_gap": [0.02, 0.01, 0.05],
    ...                   "rounds": [14.0, 30.0, 15.0]})
    >>> most_balanced(t, rounds=(10, 20))["options"].tolist()
    ['a']
    """
    ok = table.full if isinstance(table, ReadableFrame) else table
    if rounds is not None:
        lo, hi = rounds
        ok = table[(table["rounds"] >= lo) & (table["rounds"] <= hi)]
    if ok.empty:
        return ok
    keys = list(by)
    if not keys:
        best = ok.loc[[ok["seat_gap"].idxmin()]].reset_index(drop=True)
    else:
        at = ok.groupby(keys, sort=True, dropna=False)["seat_gap"].idxmin()
        best = ok.loc[np.asarray(at)].reset_index(drop=True)
    return readable(best, table._view) if isinstance(table, ReadableFrame) else best
