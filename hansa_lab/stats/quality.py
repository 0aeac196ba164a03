"""Game quality: length, end-reason mix, lead changes, final score spread and how often
the leader at round k wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from hansa_lab.stats.intervals import wilson_interval
from hansa_lab.stats.tables import GAME_KEYS, By, as_list, codes, varying, with_games

__all__ = [
    "GameQuality",
    "end_reason_mix",
    "game_quality",
    "lead_changes",
    "leader_wins",
]


def _leader_table(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game and turn: the round and the unique leader's seat by ``projected``
    (-1 when the lead is tied)."""
    t = turns[[*GAME_KEYS, "round", "turn", "seat", "projected"]]
    game = codes(t, GAME_KEYS)
    frame = pd.DataFrame({"game": game, "turn": t["turn"].to_numpy(np.int64),
                          "round": t["round"].to_numpy(np.int64),
                          "seat": t["seat"].to_numpy(np.int64),
                          "proj": t["projected"].to_numpy(np.int64)})
    top = frame.groupby(["game", "turn"], sort=True)["proj"].transform("max")
    at = frame[frame["proj"].to_numpy() == top.to_numpy()]
    agg = at.groupby(["game", "turn"], sort=True).agg(
        round=("round", "first"), n_top=("seat", "size"), seat=("seat", "first"))
    agg["leader"] = np.where(agg["n_top"] == 1, agg["seat"], -1)
    return agg.reset_index()[["game", "turn", "round", "leader"]]


def lead_changes(turns: pd.DataFrame) -> pd.DataFrame:
    """Lead changes per game: how often the player with the highest ``projected`` score
    (the final score if the game ended now) changes from one turn to the next.

    The leader after each turn is the unique argmax of ``projected``; while the lead is
    tied there is no leader, and the lead changes when a player other than the last
    unique leader takes it alone (a tie and back is no change). Columns: the game
    keys, ``lead_changes``.

    >>> turns = pd.DataFrame({"experiment": "", "arm": "", "game_id": 0, "round": 1,
    ...     "turn": [1, 1, 2, 2, 3, 3, 4, 4], "seat": [0, 1] * 4,
    ...     "projected": [0, 0, 3, 1, 3, 3, 3, 5]})
    >>> lead_changes(turns)
      experiment arm  game_id  lead_changes
    0                       0             1
    """
    lead = _leader_table(turns)
    lead = lead[lead["leader"] >= 0]
    same_game = lead["game"].to_numpy()[1:] == lead["game"].to_numpy()[:-1]
    changed = np.r_[False, same_game & (np.diff(lead["leader"].to_numpy()) != 0)]
    per = pd.Series(changed, index=lead["game"]).groupby(level=0).sum()
    keys = turns[GAME_KEYS].drop_duplicates().reset_index(drop=True)
    keys["lead_changes"] = per.reindex(range(len(keys)), fill_value=0).to_numpy(np.int64)
    return keys


def leader_wins(
    turns: pd.DataFrame,
    players: pd.DataFrame,
    games: pd.DataFrame | None = None,
    by: By | None = None,
    ci: float = 0.95,
) -> pd.DataFrame:
    """How often the leader at the end of round k wins the game, per k.

    The leaders after the last turn of round k are the players with the highest
    ``projected`` score; a game counts ``win`` averaged over its leaders (1 if the
    single leader ends among the winners, 1/2 if one of two tied leaders does, ...).
    Only games that reached round k count for k. ``by``: grouping columns of
    ``games`` (default: ``n_players`` and the ``arm`` when several). Columns: ``by``,
    ``round``, ``games``, ``leader_wins``, ``rate``, ``lo``, ``hi`` (Wilson).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=5, n_players=2, rounds=3)
    >>> leader_wins(t["turns"], t["players"], t["games"])[["round", "games", "rate"]]
       round  games  rate
    0      1      5   1.0
    1      2      5   1.0
    2      3      5   1.0
    """
    t = turns[[*GAME_KEYS, "round", "turn", "seat", "projected"]]
    last = t.groupby([*GAME_KEYS, "round"], sort=False)["turn"].transform("max")
    t = t[t["turn"].to_numpy() == last.to_numpy()]
    top = t.groupby([*GAME_KEYS, "round"], sort=False)["projected"].transform("max")
    lead = t[t["projected"].to_numpy() == top.to_numpy()]
    lead = lead.merge(players[[*GAME_KEYS, "seat", "win"]], on=[*GAME_KEYS, "seat"],
                      how="left")
    per_game = lead.groupby([*GAME_KEYS, "round"], sort=False)["win"].mean().reset_index()
    if by is None:
        g = with_games(per_game, games, ["n_players"]) if games is not None else per_game
        keys = [*varying(g, ["arm"]), *(["n_players"] if "n_players" in g.columns else [])]
    else:
        keys = as_list(by)
        g = with_games(per_game, games, [k for k in keys if k not in per_game.columns])
    out = (g.groupby([*keys, "round"], sort=True)["win"].agg(games="size", leader_wins="sum")
           .reset_index())
    out["games"] = out["games"].astype(np.int64)
    out["leader_wins"] = out["leader_wins"].astype(float)
    out["rate"] = out["leader_wins"] / out["games"]
    out["lo"], out["hi"] = wilson_interval(out["leader_wins"], out["games"], ci)
    return out


def end_reason_mix(games: pd.DataFrame, by: By | None = None,
                   ci: float = 0.95) -> pd.DataFrame:
    """Share of games per end reason, per group (default: the ``arm`` when several
    arms, and ``n_players``). Columns: ``by``, ``end_reason``, ``games``, ``share``,
    ``lo``, ``hi`` (Wilson), ``total`` (games in the group).

    >>> g = pd.DataFrame({"n_players": 3, "arm": "a",
    ...                   "end_reason": ["prestige"] * 3 + ["cities"]})
    >>> end_reason_mix(g)[["n_players", "end_reason", "games", "share"]]
       n_players end_reason  games  share
    0          3     cities      1   0.25
    1          3   prestige      3   0.75
    """
    keys = [*varying(games, ["arm"]), "n_players"] if by is None else as_list(by)
    counts = games.groupby([*keys, "end_reason"], sort=True).size().rename("games").reset_index()
    total = counts.groupby(keys)["games"].transform("sum") if keys else counts["games"].sum()
    counts["games"] = counts["games"].astype(np.int64)
    counts["total"] = np.asarray(total, dtype=np.int64)
    counts["share"] = counts["games"] / counts["total"]
    counts["lo"], counts["hi"] = wilson_interval(counts["games"], counts["total"], ci)
    return counts[[*keys, "end_reason", "games", "share", "lo", "hi", "total"]]


@dataclass
class GameQuality:
    """The tables of :func:`game_quality`."""

    #: one row per game: length, end reason, lead changes, score spread and margin
    per_game: pd.DataFrame
    #: per group: means of the per-game measures
    summary: pd.DataFrame
    #: per group and end reason: share of games (:func:`end_reason_mix`)
    end_reasons: pd.DataFrame
    #: per group and round k: how often the leader at round k wins (:func:`leader_wins`)
    leader_wins: pd.DataFrame = field(default_factory=pd.DataFrame)


def game_quality(
    games: pd.DataFrame,
    players: pd.DataFrame,
    turns: pd.DataFrame | None = None,
    by: By | None = None,
    ci: float = 0.95,
) -> GameQuality:
    """Game-quality measures: length, end-reason mix, lead changes, final score spread,
    and how often the leader at round k wins.

    ``per_game`` (one row per game): ``rounds``, ``turns``, ``actions``,
    ``end_reason``, ``n_winners``, ``spread`` (highest − lowest final score),
    ``margin`` (winner − runner-up by score; 0 for ties), ``score_sd`` (sd of the
    final scores) and, with ``turns``, ``lead_changes`` (:func:`lead_changes`).
    ``summary`` (per group: ``by``, default the ``arm`` when several, and
    ``n_players``): ``games`` and the means of those measures (``tie_rate``: share of
    games with tied winners). ``end_reasons``: :func:`end_reason_mix`.
    ``leader_wins``: :func:`leader_wins` (empty without ``turns``).

    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> t = synthetic_tables(["base"], n_deals=10, n_players=4, rounds=8, wander=0.0)
    >>> q = game_quality(t["games"], t["players"], t["turns"])
    >>> q.summary[["n_players", "games", "rounds_mean", "lead_changes_mean"]]
       n_players  games  rounds_mean  lead_changes_mean
    0          4     10          8.0                0.0
    >>> float(q.leader_wins.rate.iloc[-1])  # the leader after the last round won
    1.0
    """
    keys = [*varying(games, ["arm"]), "n_players"] if by is None else as_list(by)
    cols = list(dict.fromkeys([*GAME_KEYS, *keys, "rounds", "turns", "actions",
                               "end_reason", "n_winners"]))
    per = games[cols].copy()
    totals = players.groupby(GAME_KEYS, sort=False)["total"]
    ordered = players[[*GAME_KEYS, "total"]].sort_values(
        [*GAME_KEYS, "total"], ascending=[True] * len(GAME_KEYS) + [False])
    pos = ordered.groupby(GAME_KEYS, sort=False).cumcount().to_numpy()
    first = ordered[pos == 0].set_index(GAME_KEYS)["total"]
    second = ordered[pos == 1].set_index(GAME_KEYS)["total"]
    scores = pd.DataFrame({"spread": totals.max() - totals.min(), "score_sd": totals.std()})
    scores["margin"] = (first - second).reindex(scores.index)
    per = per.merge(scores.reset_index(), on=GAME_KEYS, how="left")
    measures = ["rounds", "turns", "actions", "spread", "margin", "score_sd"]
    if turns is not None and len(turns):
        per = per.merge(lead_changes(turns), on=GAME_KEYS, how="left")
        measures.append("lead_changes")
    gkeys = keys or ["_all"]
    grouped = per.assign(_all="all").groupby(gkeys, sort=True, dropna=False)
    summary = grouped.size().rename("games").reset_index()
    for m in measures:
        summary[f"{m}_mean"] = grouped[m].mean().to_numpy(float)
    summary["rounds_sd"] = grouped["rounds"].std().to_numpy(float)
    summary["tie_rate"] = grouped["n_winners"].apply(lambda s: float((s > 1).mean())).to_numpy()
    if not keys:
        summary = summary.drop(columns="_all")
    lw = (leader_wins(turns, players, games, by=keys, ci=ci)
          if turns is not None and len(turns) else pd.DataFrame())
    return GameQuality(per_game=per, summary=summary,
                       end_reasons=end_reason_mix(games, by=keys, ci=ci), leader_wins=lw)
