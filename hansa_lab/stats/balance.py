"""A balance objective per rule variant (or any group of games): how fair the seats are, whether
one strategy dominates, how long games last and how they end — and the choice of the most
balanced variant whose games stay within a length band.

:func:`balance_table` gives one row per group (default: the ``options`` — a sweep's
variant names — the ``arm`` and ``n_players`` when they vary):

- ``first_seat_adv`` — the first seat's (seat 0) win share minus its fair share 1/n, with
  the Wilson interval of the win share shifted the same way (``adv_lo``/``adv_hi``);
- ``first_seat_wins`` — seat 0's wins (tied wins count as shares), what
  :func:`hansa_lab.stats.best.most_balanced_of` compares;
- ``seat_gap`` — the largest distance of any seat's win rate from the fair share (0 is
  perfectly balanced seats), with an interval (``gap_lo``/``gap_hi``): every seat's
  Wilson interval at ``1 - alpha / players`` (Bonferroni over the seats), so that all
  hold at once with probability ``ci``, gives an interval of each seat's distance from
  the fair share, and the largest lower and upper ends bound the gap;
- ``strategy_spread`` — highest minus lowest win rate of the strategies in the group
  (NaN with a single strategy: nothing can dominate);
- ``rounds`` with its t interval (``rounds_lo``/``rounds_hi``);
- ``end_prestige``, ``end_cities``, ``end_markers``, ``end_other`` — shares of the end
  reasons (``other``: the action cap);
- ``lead_changes`` — mean lead changes per game (NaN without the ``turns`` table).

:func:`most_balanced` answers "which variant is most balanced?" per sweep (arm and player
count) among the variants whose mean length lies in a band of rounds: the set of variants
that cannot be told apart from the best by the size of the first seat's advantage
(:mod:`hansa_lab.stats.best`), with a word per variant and an answer line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from hansa_lab.stats.answers import Answer, answers_frame
from hansa_lab.stats.best import MostBalanced, group_rows, most_balanced_of
from hansa_lab.stats.display import ReadableFrame, View, readable
from hansa_lab.stats.intervals import mean_interval, wilson_interval
from hansa_lab.stats.quality import lead_changes
from hansa_lab.stats.tables import GAME_KEYS, By, as_list, varying

__all__ = ["BalanceAnswers", "balance_table", "most_balanced", "variant_view",
           "with_balance_intervals"]

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
        seat_n = pp.groupby("seat")["win_share"].size()
        seat_lo, seat_hi = wilson_interval(per_seat.to_numpy() * seat_n.to_numpy(),
                                           seat_n.to_numpy(),
                                           1 - (1 - ci) / max(1, len(per_seat)))
        gap_lo, gap_hi = _largest_distance(np.asarray(seat_lo) - fair,
                                           np.asarray(seat_hi) - fair)
        per_strategy = pp.groupby("strategy")["win_share"].mean()
        mean, r_lo, r_hi = mean_interval(gg["rounds"].to_numpy(float), ci)
        reasons = gg["end_reason"].astype(str)
        row: dict[str, object] = dict(zip(keys, key, strict=True))
        row.update({
            "games": n, "fair": fair, "first_seat_wins": wins0,
            "first_seat_win": rate0, "first_seat_adv": rate0 - fair,
            "adv_lo": lo - fair, "adv_hi": hi - fair,
            "seat_gap": float((per_seat - fair).abs().max()),
            "gap_lo": gap_lo, "gap_hi": gap_hi,
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
        intervals=(("first_seat_adv", "adv_lo", "adv_hi"), ("seat_gap", "gap_lo", "gap_hi"))))


def _largest_distance(lo: np.ndarray, hi: np.ndarray) -> tuple[float, float]:
    """The interval of the largest ``|d_s|`` from intervals ``[lo_s, hi_s]`` of each
    ``d_s`` that hold at once."""
    if not len(lo):
        return math.nan, math.nan
    straddles = (lo <= 0) & (hi >= 0)
    low = np.where(straddles, 0.0, np.minimum(np.abs(lo), np.abs(hi)))
    return float(low.max()), float(np.maximum(np.abs(lo), np.abs(hi)).max())


def most_balanced(table: pd.DataFrame, rounds: tuple[float, float] | None = None,
                  by: Sequence[str] = (), *, ci: float = 0.95, looks: int = 1,
                  population: str = "", variant: str = "options") -> BalanceAnswers:
    """Which variant of each sweep (per ``by`` group, e.g. ``["arm", "n_players"]``) is
    most balanced, among the rows of :func:`balance_table` whose mean length ``rounds``
    lies within the band ``(lo, hi)`` (inclusive; None: no band): the best set by the size
    of the first seat's advantage, a word per variant and the sweep's answer line
    (:func:`hansa_lab.stats.best.most_balanced_of`). It abstains ("cannot tell yet") when
    no variant can be told apart from the best. Groups with fewer than two variants in
    the band are left out (and named in ``left_out``).

    >>> t = pd.DataFrame({"options": ["a", "b", "c"], "games": [8, 8, 8],
    ...                   "fair": [1 / 3] * 3, "first_seat_wins": [3.0, 4.0, 2.0],
    ...                   "seat_gap": [0.1, 0.2, 0.1], "gap_lo": [0.0] * 3,
    ...                   "gap_hi": [0.5] * 3, "rounds": [14.0, 30.0, 15.0]})
    >>> m = most_balanced(t, rounds=(10, 20))
    >>> m.answer.word, m.best_set
    ('cannot tell yet', ['a', 'c'])
    """
    full = table.full if isinstance(table, ReadableFrame) else table
    ok = full
    if rounds is not None:
        lo, hi = rounds
        ok = full[(full["rounds"] >= lo) & (full["rounds"] <= hi)]
    sweeps, left_out = [], []
    for group, rows in group_rows(ok, by):
        if (rows["games"] > 0).sum() < 2:
            left_out.append(", ".join(f"{k} {v}" for k, v in group.items()) or "all")
            continue
        sweeps.append(most_balanced_of(rows, variant=variant, ci=ci, looks=looks,
                                       population=population or _population(rows, group),
                                       group=group))
    if rounds is not None:
        outside = sorted(set(map(str, full[variant])) - set(map(str, ok[variant])))
    else:
        outside = []
    return BalanceAnswers(tuple(sweeps), tuple(left_out), tuple(outside), rounds)


def _population(rows: pd.DataFrame, group: dict[str, object]) -> str:
    """Who played a sweep, when the caller does not say: its arm's name."""
    arm = group.get("arm", rows["arm"].iloc[0] if "arm" in rows and
                    rows["arm"].nunique() == 1 else None)
    return str(arm) if arm is not None else ""


@dataclass(frozen=True)
class BalanceAnswers:
    """:func:`most_balanced`'s answer: one :class:`~hansa_lab.stats.best.MostBalanced` per
    sweep (arm and player count). ``answer`` is the answer line of the only sweep;
    ``table`` the variants' rows of every sweep; printed, the answer lines."""

    sweeps: tuple[MostBalanced, ...]
    #: groups left out: fewer than two variants (in the length band)
    left_out: tuple[str, ...] = ()
    #: variants whose mean length lies outside the band
    outside_band: tuple[str, ...] = ()
    rounds: tuple[float, float] | None = None

    @property
    def empty(self) -> bool:
        """No sweep could be answered (no two variants in the band)."""
        return not self.sweeps

    @property
    def answer(self) -> Answer:
        """The answer line of the sweep (of the first, with several: see ``answers``)."""
        if not self.sweeps:
            raise ValueError("no sweep has two variants to compare"
                             + (f" within {self.rounds} rounds" if self.rounds else ""))
        return self.sweeps[0].answer

    @property
    def answers(self) -> list[Answer]:
        """Every sweep's answer line, then every variant's answer."""
        return [s.answer for s in self.sweeps] + [a for s in self.sweeps for a in s.variants]

    @property
    def best_set(self) -> list[str]:
        """The first sweep's variants that cannot be told apart from the best."""
        return self.sweeps[0].best_set if self.sweeps else []

    @property
    def table(self) -> pd.DataFrame:
        """One row per variant of every sweep (the group's columns first)."""
        parts = [s.table.assign(**s.group)[[*s.group, *s.table.columns]]
                 for s in self.sweeps]
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()

    def frame(self) -> pd.DataFrame:
        """The answers as rows (the CSV's)."""
        return answers_frame(self.answers)

    def lines(self) -> list[str]:
        """The answer lines, one per sweep, with its group and what was left out."""
        out = []
        for s in self.sweeps:
            head = ", ".join(f"{k} {v}" for k, v in s.group.items())
            out.append(f"{head}: {s.answer.text}" if head else s.answer.text)
        if self.outside_band and self.rounds is not None:
            out.append(f"left out (mean length outside {self.rounds[0]:g}-"
                       f"{self.rounds[1]:g} rounds): {', '.join(self.outside_band)}")
        if self.left_out:
            out.append(f"not compared (fewer than two variants): {'; '.join(self.left_out)}")
        return out or ["no sweep has two variants to compare"]

    def __str__(self) -> str:
        from hansa_lab.stats.terminal import wrap_text

        return "\n".join(wrap_text(line) for line in self.lines())

    def _repr_html_(self) -> str:
        from html import escape

        from hansa_lab.stats.display import table_html

        lines = "".join(f"<p><b>{escape(line)}</b></p>" for line in self.lines())
        return lines + (table_html(variant_view(self.table)) if self.sweeps else "")


def variant_view(table: pd.DataFrame) -> ReadableFrame:
    """The variants' rows of a :class:`BalanceAnswers` in the display style: the first
    seat's advantage and the seat gap with their intervals, the p-value of "worse than
    the best" and the word."""
    first, gap = "seat 0 (first player) advantage", "seat gap"
    shown = table.rename(columns={"first_seat_adv": first, "adv_lo": f"{first}_lo",
                                  "adv_hi": f"{first}_hi", "seat_gap": gap,
                                  "gap_lo": f"{gap}_lo", "gap_hi": f"{gap}_hi"})
    return readable(shown, View(
        columns=tuple(c for c in ("arm", "n_players", "variant", "games", first, gap,
                                  "p_worse", "answer") if c in shown.columns),
        percent=(first, gap), signed=(first,),
        intervals=((first, f"{first}_lo", f"{first}_hi"), (gap, f"{gap}_lo", f"{gap}_hi"))))


def with_balance_intervals(shown: pd.DataFrame, balance: pd.DataFrame) -> pd.DataFrame:
    """A sweep's printed balance table (``first_seat_adv`` and ``seat_gap`` already as
    text) with their 95% intervals after them, and the first seat named as such."""
    out = shown.copy()
    full = balance.full if isinstance(balance, ReadableFrame) else balance

    def pct(v: float, sign: str = "") -> str:
        return "-" if math.isnan(v) else f"{round(100 * v, 1) + 0.0:{sign}.1f}"

    if "first_seat_adv" in out:
        out["first_seat_adv"] = [
            f"{pct(v, '+')}% [{pct(lo, '+')}, {pct(hi, '+')}]" if not math.isnan(v) else "-"
            for v, lo, hi in zip(full["first_seat_adv"], full["adv_lo"], full["adv_hi"],
                                 strict=True)]
        out = out.rename(columns={"first_seat_adv": "seat 0 (first player) advantage"})
    if "seat_gap" in out and "gap_lo" in full:
        out["seat_gap"] = [f"{text} [{pct(lo)}, {pct(hi)}]" if text != "-" else text
                           for text, lo, hi in zip(out["seat_gap"], full["gap_lo"],
                                                   full["gap_hi"], strict=True)]
    return out
