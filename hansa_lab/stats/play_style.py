"""How a population plays, in the terms experienced players use: when the third action
comes, how many reach five actions, whether City Keys, Coellen and a full Bank are
pursued, how long games last and what the winner scores. A table that plays like good
human tables should show an early third action, Coellen taken now and then, City Keys
developed by many players and winners above 50 points.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from hansa_lab.engine.board import load_board
from hansa_lab.engine.effects import ACTIONS_VALUES
from hansa_lab.stats.intervals import wilson_interval
from hansa_lab.stats.tables import GAME_KEYS, By, as_list

__all__ = ["game_lengths", "play_style"]

#: the ``turns`` columns of the Actions, City Keys and Bank levels
_ACTIONS, _KEYS, _BANK = "lv_actions", "lv_keys", "lv_bank"
#: the score parts a winner's main point source is chosen from (``players`` columns;
#: ``special`` is Coellen's space, ``track`` the prestige track)
POINT_SOURCES = ("network", "control", "abilities", "special", "track")
#: the first Actions level worth five actions on the printed track (2,3,3,4,4,5: level 5)
FIVE_ACTIONS_LEVEL = next(i for i, v in enumerate(ACTIONS_VALUES) if v >= 5)


def play_style(games: pd.DataFrame, players: pd.DataFrame, turns: pd.DataFrame,
               events: pd.DataFrame, by: By | None = None,
               ci: float = 0.95) -> pd.DataFrame:
    """One row per group (``by``; default: all games) with:

    - ``games``, ``players``; ``rounds_median``, ``rounds_max``, ``over_60_rounds``
      (games longer than 60 rounds);
    - ``third_action_round_median``: the round in which a player first had 3 actions
      (its first Actions development), median over the players who got there;
      ``third_action_by_round5``: share of players with 3 actions by the end of round 5;
      ``five_actions``: share of players who reached 5 actions (Actions level
      :data:`FIVE_ACTIONS_LEVEL`, the printed track's last space);
    - ``keys_developed``: share of players who developed City Keys at least once (with
      ``keys_lo``/``keys_hi``, Wilson); ``keys_level3``: share who developed it three
      times or more (City Keys worth 3 or 4); ``full_bank``: share with a full Bank;
    - ``coellen_games``: share of games in which a special-prestige space (Coellen, or
      the board's equivalent) was taken (with ``coellen_lo``/``coellen_hi``);
      ``coellen_top_games``: share in which one of its two most valuable spaces (9 and
      11 points on the printed boards) was taken;
    - ``winner_score_mean``, ``score_mean``: the winners' and all players' mean score;
      ``last_score_mean``: the mean score of each game's last-placed player;
    - ``winner_main_source``: the most common main point source of the winners (the
      largest of a winner's :data:`POINT_SOURCES` points) and ``winner_main_share``, the
      share of winners whose main source it is (winners win by different means when it
      is well below 1).

    Needs the full logs (``turns`` and ``events``)."""
    keys = as_list(by)
    g = games.copy()
    g["_all"] = "all"
    gk = keys or ["_all"]
    last = turns.sort_values("turn").groupby([*GAME_KEYS, "seat"], sort=False).tail(1)
    per_player = players[[*GAME_KEYS, "seat", "total", "win", "rank",
                          *POINT_SOURCES]].merge(
        last[[*GAME_KEYS, "seat", _ACTIONS, _KEYS, _BANK]], on=[*GAME_KEYS, "seat"],
        how="left")
    third = turns[turns[_ACTIONS] >= 1].groupby([*GAME_KEYS, "seat"])["round"].min()
    per_player = per_player.merge(third.rename("third_round").reset_index(),
                                  on=[*GAME_KEYS, "seat"], how="left")
    extra = [k for k in gk if k not in GAME_KEYS]
    per_player = per_player.merge(g[[*GAME_KEYS, *extra]], on=GAME_KEYS, how="left")
    # each game's most valuable special-prestige space taken (none: NaN)
    best = events[events["kind"] == "special"].groupby(GAME_KEYS)["value"].max()
    columns = list(dict.fromkeys([*GAME_KEYS, *extra, "rounds", "side"]))
    per_game = g[columns].merge(best.rename("best_space").reset_index(), on=GAME_KEYS,
                                how="left")
    taken = per_game["best_space"]
    per_game["coellen"] = taken.notna()
    # 0 for a game without one: below every board's spaces
    per_game["coellen_top"] = (taken.fillna(0) >= per_game["side"].map(
        _second_best_space)).astype(bool)
    worst = per_player.groupby(GAME_KEYS)["rank"].transform("max")
    per_player["last"] = per_player["rank"] == worst
    rows = []
    for key, pg in per_game.groupby(gk, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        mask = np.ones(len(per_player), dtype=bool)
        for col, value in zip(gk, key, strict=True):
            mask &= (per_player[col] == value).to_numpy()
        pp = per_player[mask]
        n_players, n_games = len(pp), len(pg)
        keys_n = int((pp[_KEYS] >= 1).sum())
        main = pp.loc[pp["win"], list(POINT_SOURCES)].idxmax(axis=1).value_counts()
        coellen_n = int(pg["coellen"].sum())
        k_lo, k_hi = wilson_interval(keys_n, n_players, ci)
        c_lo, c_hi = wilson_interval(coellen_n, n_games, ci)
        row = dict(zip(gk, key, strict=True))
        row.update({
            "games": n_games, "players": n_players,
            "rounds_median": float(pg["rounds"].median()),
            "rounds_max": int(pg["rounds"].max()),
            "over_60_rounds": int((pg["rounds"] > 60).sum()),
            "third_action_round_median": float(pp["third_round"].median()),
            "third_action_by_round5": float((pp["third_round"] <= 5).mean()),
            "five_actions": float((pp[_ACTIONS] >= FIVE_ACTIONS_LEVEL).mean()),
            "keys_developed": keys_n / n_players if n_players else float("nan"),
            "keys_lo": k_lo, "keys_hi": k_hi,
            "keys_level3": float((pp[_KEYS] >= 3).mean()),
            "full_bank": float((pp[_BANK] >= 3).mean()),
            "coellen_games": coellen_n / n_games if n_games else float("nan"),
            "coellen_lo": c_lo, "coellen_hi": c_hi,
            "coellen_top_games": float(pg["coellen_top"].mean()),
            "winner_score_mean": float(pp.loc[pp["win"], "total"].mean()),
            "score_mean": float(pp["total"].mean()),
            "last_score_mean": float(pp.loc[pp["last"], "total"].mean()),
            "winner_main_source": str(main.index[0]) if len(main) else "",
            "winner_main_share": float(main.iloc[0] / main.sum()) if len(main)
            else float("nan"),
        })
        rows.append(row)
    out = pd.DataFrame(rows)
    return out.drop(columns=["_all"]) if "_all" in out else out


@functools.cache
def _second_best_space(side: str) -> int:
    """The points of the second most valuable special-prestige space of a board side."""
    return sorted(points for points, _ in load_board(side).special_spaces)[-2]


def game_lengths(games: pd.DataFrame, by: By | None = None, limit: int = 60,
                 ci: float = 0.95) -> pd.DataFrame:
    """How long games last, one row per group (``by``; default: board side and player
    count): ``games``; ``rounds_median``, ``rounds_p90``, ``rounds_max``; ``over_limit``
    (games longer than ``limit`` rounds) with its share and Wilson interval
    (``over_lo``/``over_hi``: with none seen in n games the upper bound says how large
    the share could still be); ``stalled`` (games the runner flagged); and the share of
    each end reason (``end_prestige``, ``end_cities``, ``end_markers``, ``end_cap``).
    Needs only the ``games`` table, so summary logs suffice."""
    keys = as_list(by) if by is not None else ["side", "n_players"]
    rows = []
    for key, g in games.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        n = len(g)
        over = int((g["rounds"] > limit).sum())
        lo, hi = wilson_interval(over, n, ci)
        row = dict(zip(keys, key, strict=True))
        row.update({
            "games": n, "rounds_median": float(g["rounds"].median()),
            "rounds_p90": float(g["rounds"].quantile(0.9)),
            "rounds_max": int(g["rounds"].max()), "over_limit": over,
            "over_share": over / n, "over_lo": lo, "over_hi": hi,
            "stalled": int(g["stalled"].sum()) if "stalled" in g else 0,
        })
        reasons = g["end_reason"].fillna("cap").value_counts(normalize=True)
        for reason in ("prestige", "cities", "markers", "cap"):
            row[f"end_{reason}"] = float(reasons.get(reason, 0.0))
        rows.append(row)
    return pd.DataFrame(rows)
