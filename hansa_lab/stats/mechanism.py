"""Why the first seat wins: who gets to the abilities first, and when the lead appears.

:func:`first_seat_mechanism` reads the ``events`` and ``turns`` tables of a run (played
with ``log = "full"``) of one player count and board, and traces three things:

- **first developments** (:func:`first_developments`): per game and ability (Actions,
  Bank, Privilege by default), the seat that develops it first (the earliest
  ``develop`` event, by action) and the round; per seat, the share of games in which it
  was first, with a Wilson interval against its fair share 1/seats, the median round,
  and how often that first seat went on to win;
- **first routes to the ability cities** (:func:`first_ability_routes`): per game and
  ability city (the city whose Kontor develops that ability), the seat that
  establishes the first route touching it — the route that makes the first
  development possible — and the round, summarised the same way;
- **the score gap by round** (:func:`score_gap_by_round`): each seat's projected score
  (``projected``: the score if the game ended then) at the end of every round, minus
  the mean of the other seats' projected scores, averaged over the games still running
  in that round, with a t interval (games are independent; the seats of one game are
  compared within the game).

The shares count games in which someone did it (a game where nobody develops Bank does
not count for Bank; ``games_without`` says how many). Figures:
:func:`hansa_lab.stats.plots_mechanism.plot_first_seat_mechanism`.

>>> from hansa_lab.stats.mechanism import first_developments
>>> ev = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": [0, 0, 1, 1],
...     "action_index": [3, 7, 2, 5], "round": [1, 2, 1, 1], "seat": [1, 0, 0, 1],
...     "kind": "develop", "detail": "actions", "city": "Göttingen", "route": pd.NA})
>>> first_developments(ev, abilities=("actions",))[["game_id", "seat", "round"]]
   game_id  seat  round
0        0     1      1
1        1     0      1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from hansa_lab.engine.board import ABILITIES, load_board
from hansa_lab.stats.intervals import mean_interval, wilson_interval
from hansa_lab.stats.tables import GAME_KEYS

__all__ = [
    "MECHANISM_ABILITIES",
    "FirstSeatMechanism",
    "first_ability_routes",
    "first_developments",
    "first_seat_mechanism",
    "first_shares",
    "score_gap_by_round",
]

#: The abilities whose first development the study traces by default.
MECHANISM_ABILITIES = ("actions", "bank", "privilege")


def _check_columns(df: pd.DataFrame, table: str, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"the {table} table lacks the columns {missing} (the study needs a run "
                         f"with log = \"full\")")


def _check_abilities(abilities: Sequence[str]) -> None:
    unknown = [a for a in abilities if a not in ABILITIES]
    if unknown or not abilities:
        raise ValueError(f"unknown abilities {unknown}; abilities: {', '.join(ABILITIES)}"
                         if unknown else "name at least one ability")


def _earliest(rows: pd.DataFrame, item: str) -> pd.DataFrame:
    """The earliest row (by action) of every game and ``item`` value."""
    ordered = rows.sort_values([*GAME_KEYS, item, "action_index"], kind="stable")
    first = ordered.drop_duplicates([*GAME_KEYS, item], keep="first")
    return first[[*GAME_KEYS, item, "seat", "round"]].astype({"seat": int, "round": int})


def first_developments(events: pd.DataFrame,
                       abilities: Sequence[str] = MECHANISM_ABILITIES) -> pd.DataFrame:
    """Per game and ability: the seat that developed it first and the round.

    Columns: the game keys, ``ability``, ``seat``, ``round``; no row for an ability
    nobody developed in that game. Bonus-marker developments count too (they are
    ``develop`` events without a city)."""
    _check_columns(events, "events", [*GAME_KEYS, "action_index", "round", "seat", "kind",
                                      "detail"])
    _check_abilities(abilities)
    dev = events[(events["kind"] == "develop") & events["detail"].isin(list(abilities))]
    out = _earliest(dev.rename(columns={"detail": "ability"}), "ability")
    return out.reset_index(drop=True)


def first_ability_routes(events: pd.DataFrame, games: pd.DataFrame,
                         abilities: Sequence[str] = MECHANISM_ABILITIES) -> pd.DataFrame:
    """Per game and ability city: the seat that established the first route touching it.

    ``games`` gives each game's board and player count (the ability cities and the
    routes' ends come from the board). Columns: the game keys, ``ability``, ``city``,
    ``seat``, ``round``; a board with two cities for an ability has a row for each."""
    _check_columns(events, "events", [*GAME_KEYS, "action_index", "round", "seat", "kind",
                                      "route"])
    _check_columns(games, "games", [*GAME_KEYS, "board", "n_players"])
    _check_abilities(abilities)
    est = events[events["kind"] == "establish"].merge(
        games[[*GAME_KEYS, "board", "n_players"]], on=GAME_KEYS, how="left")
    parts = []
    for (board_name, n), rows in est.groupby(["board", "n_players"], sort=True):
        board = load_board(str(board_name), n_players=int(n))
        for ability in abilities:
            for city in board.ability_cities.get(ABILITIES.index(ability), ()):
                touching = [r for r, ends in enumerate(board.route_cities) if city in ends]
                hit = rows[rows["route"].astype("Int64").isin(touching)]
                if hit.empty:
                    continue
                first = _earliest(hit.assign(city=board.city_names[city]), "city")
                parts.append(first.assign(ability=ability))
    cols = [*GAME_KEYS, "ability", "city", "seat", "round"]
    if not parts:
        return pd.DataFrame(columns=cols)
    return pd.concat(parts, ignore_index=True)[cols]


def first_shares(firsts: pd.DataFrame, players: pd.DataFrame, item: str,
                 *, n_games: int | None = None, ci: float = 0.95) -> pd.DataFrame:
    """Per ``item`` value (an ability, a city) and seat: how often that seat was first.

    ``firsts``: one row per game and item (:func:`first_developments`,
    :func:`first_ability_routes`); ``players``: the seats and their ``win_share``.
    Columns: ``item``, ``seat``, ``games`` (games in which someone was first),
    ``first`` (games this seat was first), ``share`` with its Wilson interval
    ``share_lo``/``share_hi``, ``fair`` (1/seats), ``median_round`` (of this seat's
    firsts), ``first_win_rate`` (the win share of this seat in the games it was first)
    and ``games_without`` (of ``n_games``, the games in which nobody was).

    >>> f = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": [0, 1, 2, 3],
    ...                   "ability": "actions", "seat": [0, 0, 0, 1], "round": [2, 2, 3, 4]})
    >>> p = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": np.repeat([0, 1, 2, 3], 2),
    ...                   "seat": [0, 1] * 4, "win_share": [1, 0, 0, 1, 1, 0, 1, 0]})
    >>> s = first_shares(f, p, "ability")
    >>> s[["seat", "first", "share", "median_round", "first_win_rate"]]
       seat  first  share  median_round  first_win_rate
    0     0      3   0.75           2.0        0.666667
    1     1      1   0.25           4.0        0.000000
    """
    _check_columns(players, "players", [*GAME_KEYS, "seat", "win_share"])
    seats = sorted(int(s) for s in players["seat"].unique())
    total = n_games if n_games is not None else int(players[GAME_KEYS].drop_duplicates().shape[0])
    won = firsts.merge(players[[*GAME_KEYS, "seat", "win_share"]], on=[*GAME_KEYS, "seat"],
                       how="left")
    rows = []
    for value, g in won.groupby(item, sort=False):
        games = len(g)
        for seat in seats:
            mine = g[g["seat"] == seat]
            lo, hi = wilson_interval(len(mine), games, ci)
            rows.append({item: value, "seat": seat, "games": games, "first": len(mine),
                         "share": len(mine) / games, "share_lo": lo, "share_hi": hi,
                         "fair": 1 / len(seats),
                         "median_round": float(mine["round"].median()) if len(mine) else np.nan,
                         "first_win_rate": (float(mine["win_share"].mean()) if len(mine)
                                            else np.nan),
                         "games_without": total - games})
    return pd.DataFrame(rows)


def score_gap_by_round(turns: pd.DataFrame, *, ci: float = 0.95) -> pd.DataFrame:
    """Per round and seat: the mean lead of the seat's projected score over the mean of
    the other seats' at the end of that round, with a t interval over the games still
    running (``games``).

    >>> t = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": [0, 0, 1, 1],
    ...                   "round": 1, "turn": 2, "seat": [0, 1, 0, 1],
    ...                   "projected": [5, 3, 4, 4]})
    >>> score_gap_by_round(t)[["round", "seat", "gap", "games"]]
       round  seat  gap  games
    0      1     0  1.0      2
    1      1     1 -1.0      2
    """
    _check_columns(turns, "turns", [*GAME_KEYS, "round", "turn", "seat", "projected"])
    last = turns.sort_values([*GAME_KEYS, "round", "turn"], kind="stable")
    last = last.drop_duplicates([*GAME_KEYS, "round", "seat"], keep="last")
    table = last.pivot_table(index=[*GAME_KEYS, "round"], columns="seat", values="projected",
                             aggfunc="first", observed=True)
    n_seats = table.shape[1]
    if n_seats < 2:
        raise ValueError("the score gap needs at least two seats")
    values = table.to_numpy(float)
    others = (values.sum(axis=1, keepdims=True) - values) / (n_seats - 1)
    gap = pd.DataFrame(values - others, index=table.index, columns=table.columns)
    rows = []
    for rnd, g in gap.groupby(level="round", sort=True):
        for seat in gap.columns:
            mean, lo, hi = mean_interval(g[seat].dropna().to_numpy(), ci)
            rows.append({"round": int(rnd), "seat": int(seat), "gap": mean, "gap_lo": lo,
                         "gap_hi": hi, "games": int(g[seat].notna().sum())})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class FirstSeatMechanism:
    """What :func:`first_seat_mechanism` found: the tables and the sentences."""

    #: per game and ability: the first seat to develop it (:func:`first_developments`)
    developments: pd.DataFrame
    #: per game and ability city: the first seat to establish a route touching it
    routes: pd.DataFrame
    #: per ability and seat: the share of games that seat developed it first
    development_shares: pd.DataFrame
    #: per ability city and seat: the share of games that seat reached it first
    route_shares: pd.DataFrame
    #: per round and seat: the projected-score lead over the other seats' mean
    gap: pd.DataFrame
    #: the seat win rates of the games studied (seat, win_rate with its Wilson interval)
    seats: pd.DataFrame
    #: the findings in words, one per line
    lines: list[str] = field(default_factory=list)


def _share_line(label: str, shares: pd.DataFrame, seat: int = 0) -> str:
    r = shares[shares["seat"] == seat].iloc[0]
    best = shares.loc[shares["share"].idxmax()]
    if r["share_lo"] > r["fair"]:
        how = "more often than its fair share"
    elif r["share_hi"] < r["fair"]:
        how = "less often than its fair share"
    else:
        how = "not clearly off its fair share"
    text = (f"{label}: seat {seat} first in {r['share']:.0%} [{r['share_lo']:.0%}, "
            f"{r['share_hi']:.0%}] of {int(r['games'])} games ({how}, fair {r['fair']:.0%})")
    if int(best["seat"]) != seat:
        text += f"; seat {int(best['seat'])} most often ({best['share']:.0%})"
    if np.isfinite(r["median_round"]):
        text += (f"; median round {r['median_round']:g}; when first, seat {seat} wins "
                 f"{r['first_win_rate']:.0%}")
    return text


def first_seat_mechanism(
    games: pd.DataFrame,
    players: pd.DataFrame,
    events: pd.DataFrame,
    turns: pd.DataFrame,
    *,
    abilities: Sequence[str] = MECHANISM_ABILITIES,
    gap_rounds: Sequence[int] = (3, 8, 14, 20),
    ci: float = 0.95,
) -> FirstSeatMechanism:
    """Trace why the first seat wins (if it does) in one player count and board: who
    develops ``abilities`` first and when, who reaches their cities first, and how the
    score gap opens by round (the module's three tables), with a line per finding.

    The run must hold one player count and one board (a seat means something else at
    another table size) and be logged with ``log = "full"`` (events and turns).
    ``gap_rounds``: the rounds the sentences quote the seats' score gap at (the table has
    every round). See the module docstring for what each table counts."""
    _check_columns(games, "games", [*GAME_KEYS, "board", "n_players"])
    for col in ("n_players", "board"):
        if games[col].nunique() > 1:
            raise ValueError(f"the games have several {col} values "
                             f"({sorted(map(str, games[col].unique()))}); study one at a time")
    if games.empty:
        raise ValueError("no games to study")
    n_games = len(games)
    dev = first_developments(events, abilities)
    routes = first_ability_routes(events, games, abilities)
    dev_shares = first_shares(dev, players, "ability", n_games=n_games, ci=ci)
    route_shares = first_shares(routes, players, "city", n_games=n_games, ci=ci)
    if not route_shares.empty:
        ability_of = routes.drop_duplicates("city").set_index("city")["ability"]
        route_shares.insert(1, "ability", route_shares["city"].map(ability_of))
    gap = score_gap_by_round(turns, ci=ci)
    per = players.groupby("seat", sort=True)["win_share"].agg(["sum", "size"]).reset_index()
    lo, hi = wilson_interval(per["sum"].to_numpy(float), per["size"].to_numpy(float), ci)
    seats = pd.DataFrame({"seat": per["seat"].astype(int), "games": per["size"],
                          "win_rate": per["sum"] / per["size"], "win_lo": lo, "win_hi": hi,
                          "fair": 1 / len(per)})
    s0 = seats.iloc[0]
    lines = [f"seat 0 wins {s0['win_rate']:.0%} [{s0['win_lo']:.0%}, {s0['win_hi']:.0%}] of "
             f"{n_games} games (fair {s0['fair']:.0%})"]
    for ability in abilities:
        part = dev_shares[dev_shares["ability"] == ability]
        if not part.empty:
            lines.append(_share_line(f"first {ability.capitalize()} development", part))
    for city in route_shares["city"].unique() if not route_shares.empty else []:
        part = route_shares[route_shares["city"] == city]
        ability = part["ability"].iloc[0]
        lines.append(_share_line(f"first route to {city} ({ability})", part))
    quoted = []
    for rnd in gap_rounds:
        r = gap[(gap["round"] == rnd) & (gap["seat"] == 0)]
        if not r.empty and r["games"].iloc[0] >= 2:
            x = r.iloc[0]
            quoted.append(f"round {rnd}: {x['gap']:+.1f} [{x['gap_lo']:+.1f}, "
                          f"{x['gap_hi']:+.1f}] ({int(x['games'])} games)")
    if quoted:
        lines.append("seat 0's projected score minus the others' mean: " + "; ".join(quoted))
    return FirstSeatMechanism(dev, routes, dev_shares, route_shares, gap, seats, lines)
