"""Which of several rule variants is most balanced, with honest uncertainty.

The question (:data:`~hansa_lab.stats.answers.PRIMARY` ``["best_variant"]``): *which
variant of a sweep makes the seats most balanced?* Its primary measure is the **size of
the first seat's advantage**, ``|a|`` with ``a`` = seat 0's win share minus its fair share
``1 / players`` — the measure the ``variant_effect`` answers compare with the printed
rules, here compared across the variants. Seat 0 moves first; it is the seat the rules
favour, and the seat the start-supply staircase exists to compensate. The largest gap of
any seat (``seat_gap``) is shown beside it, with its interval, as a secondary measure.

The method: multiple comparisons with the best
    Every variant ``i`` gets a Wilson interval for seat 0's win share at the level
    ``1 - alpha / (k * looks)`` (Bonferroni over the ``k`` variants and the ``looks`` at
    the data of a sequential run), shifted by the fair share: the *simultaneous* interval
    ``[L_i, U_i]`` of its advantage. With probability at least ``1 - alpha`` every
    variant's interval holds its true advantage at once, and then the interval of
    ``|a_i|`` (``[0, max(|L_i|, |U_i|)]`` when it straddles 0, else
    ``[min, max]`` of ``|L_i|, |U_i|``) holds ``|a_i|``. A variant belongs to the **best
    set** unless the lower end of its ``|a|`` interval lies above the smallest upper end
    of any variant: then it is worse than some variant for certain. When all the
    intervals hold, the truly most balanced variant ``b`` has ``lower_b <= |a_b| <= |a_j|
    <= upper_j`` for every ``j``, so it is in the set: the set holds the most balanced
    variant with probability at least 95%. Measured by simulation
    (``tests/test_best_variant.py``: 2,000 simulated sweeps per case, 30, 150 and 600
    games per variant; 5 variants at 3 players with the best 2 percentage points ahead,
    5 equal variants 10 points off the fair share, 2 equal variants): the set held the
    true best (with ties: the first of the tied) in 99.9-100% of sweeps — the Bonferroni
    split is conservative — while the estimated best alone was the true one in only
    21-54% of them.

The words (:data:`~hansa_lab.stats.answers.WORDS`): a set of one variant is **best**; the
members of a larger set **cannot be told apart from the best**; the others are **worse
than the best**; with fewer than :data:`~hansa_lab.stats.answers.MIN_DEALS` games in a
variant every word is **too few games to tell**. The sweep's answer line abstains —
**cannot tell yet** — when the set holds every variant, and says how many more games per
variant would separate the estimated best from the runner-up: the games at which the two
simultaneous intervals of ``|a|`` would stop overlapping with 80% power, if the true
advantages were the estimated ones (no number when the two estimates are equal; then the
games that would tell whether the next member is worse).

Games are treated as independent (each deal is one game in a table of one strategy; a
mixed line-up's rotations of one deal are not, and its intervals are then somewhat
narrow). Variants of a sweep are played on the same deals; the method does not use that
pairing, which only makes it conservative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from hansa_lab.stats.answers import (
    FINDINGS,
    MIN_DEALS,
    PRIMARY,
    Answer,
    answers_frame,
    seat_name,
)
from hansa_lab.stats.intervals import wilson_interval, z_quantile

__all__ = ["BestSet", "MostBalanced", "best_set", "games_to_separate", "group_rows",
           "most_balanced_of", "plan_games_per_variant", "simultaneous_level"]

#: The power of "more games would tell" and of the plan.
POWER = 0.8
#: The most games per variant a "more games" statement names; beyond it the two
#: variants are too close to separate in any run worth playing.
MAX_MORE_GAMES = 1_000_000


@dataclass(frozen=True)
class BestSet:
    """The multiple comparison with the best of ``k`` variants (arrays in the variants'
    order): the simultaneous intervals of the advantage ``a`` (``lo``/``hi``) and of its
    size ``|a|`` (``size_lo``/``size_hi``), and which variants are in the best set."""

    advantage: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    size_lo: np.ndarray
    size_hi: np.ndarray
    in_set: np.ndarray
    #: the estimated best: the smallest ``|a|`` (first one on ties)
    leader: int
    #: the level of each variant's interval (``1 - alpha / (k * looks)``)
    level: float


def _size_interval(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The interval of ``|a|`` from an interval ``[lo, hi]`` of ``a``."""
    straddles = (lo <= 0) & (hi >= 0)
    low = np.where(straddles, 0.0, np.minimum(np.abs(lo), np.abs(hi)))
    high = np.maximum(np.abs(lo), np.abs(hi))
    return low, high


def simultaneous_level(k: int, ci: float = 0.95, looks: int = 1) -> float:
    """Each variant's interval level so that all ``k`` hold at once at every one of
    ``looks`` looks with probability at least ``ci`` (Bonferroni)."""
    return 1 - (1 - ci) / (max(1, k) * max(1, looks))


def best_set(wins: Any, games: Any, fair: Any, ci: float = 0.95, looks: int = 1,
             level: float | None = None) -> BestSet:
    """The best set of variants with ``wins`` of seat 0 (win shares summed: ties count as
    shares) in ``games`` each, against the fair share ``fair`` (see the module text).
    Vectorised over leading axes: arrays of shape ``(..., k)`` give a set per row
    (``leader`` then is the first row's). ``level``: each interval's level instead of the
    Bonferroni split of ``ci``.

    >>> s = best_set([100, 60, 110], [300, 300, 300], 1 / 3)
    >>> s.in_set.tolist(), s.leader
    ([True, False, True], 0)
    """
    w = np.asarray(wins, dtype=float)
    n = np.asarray(games, dtype=float)
    f = np.broadcast_to(np.asarray(fair, dtype=float), w.shape)
    k = w.shape[-1]
    level = simultaneous_level(k, ci, looks) if level is None else level
    p_lo, p_hi = wilson_interval(w, n, level)
    lo, hi = np.asarray(p_lo) - f, np.asarray(p_hi) - f
    size_lo, size_hi = _size_interval(lo, hi)
    in_set = size_lo <= size_hi.min(axis=-1, keepdims=True)
    advantage = w / n - f
    first = np.abs(advantage).reshape(-1, k)[0]
    return BestSet(advantage, lo, hi, size_lo, size_hi, in_set, int(np.argmin(first)), level)


def _spread(win_rate: float) -> float:
    """The standard deviation of one game's win share, from a rate shrunk towards 1/2
    (never 0, so a variant that never won still has a spread)."""
    p = min(max(win_rate, 0.02), 0.98)
    return math.sqrt(p * (1 - p))


def games_to_separate(size_gap: float, spread_a: float, spread_b: float, k: int,
                      ci: float = 0.95, looks: int = 1, power: float = POWER) -> float:
    """Games per variant at which the simultaneous intervals of ``|a|`` of two variants
    whose sizes differ by ``size_gap`` stop overlapping with probability ``power``
    (the win shares' spreads ``spread_a``, ``spread_b``); inf for a gap of 0.

    >>> round(games_to_separate(0.05, 0.47, 0.47, k=5))
    3554
    """
    if not size_gap > 0:
        return math.inf
    z = z_quantile(simultaneous_level(k, ci, looks))
    z_power = z_quantile(2 * power - 1)
    root = z * (spread_a + spread_b) + z_power * math.hypot(spread_a, spread_b)
    return (root / size_gap) ** 2


def plan_games_per_variant(n_variants: int, n_players: int, difference: float,
                           ci: float = 0.95, looks: int = 1, power: float = POWER) -> int:
    """Games per variant that tell apart (with ``power``) two variants whose first-seat
    advantages differ in size by ``difference`` (a win share, 0.05 = 5 percentage
    points), at the sweep's simultaneous level; the spread of a win share at the fair
    share ``1 / n_players``.

    >>> plan_games_per_variant(5, 3, 0.05)
    3576
    """
    if not 0 < difference < 1:
        raise ValueError(f"difference must be a win share between 0 and 1, got {difference}")
    s = _spread(1 / n_players)
    return math.ceil(games_to_separate(difference, s, s, n_variants, ci, looks, power))


def _leave_level(i: int, wins: np.ndarray, games: np.ndarray, fair: np.ndarray) -> float:
    """The unadjusted p-value of "variant ``i`` is worse than the best": the smallest
    error rate of each interval at which it leaves the best set (1 when it never does);
    times the variants and looks (Bonferroni, at most 1) it is the adjusted one."""
    def out(alpha: float) -> bool:
        return not bool(best_set(wins, games, fair, level=1 - alpha).in_set[i])

    lo, hi = 1e-12, 1 - 1e-9
    if not out(hi):
        return 1.0
    if out(lo):
        return lo
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if out(mid) else (mid, hi)
    return hi


def _pct(x: float) -> str:
    """A win-share difference in percent, signed (never "-0.0%")."""
    return f"{round(100 * x, 1) + 0.0:+.1f}%"


def _games(n: int) -> str:
    return f"{n:,} game{'s' if n != 1 else ''}"


@dataclass(frozen=True)
class MostBalanced:
    """The answer to "which variant is most balanced?" for one sweep (one arm and player
    count): ``answer`` (the sweep's line), ``variants`` (one answer per variant, in the
    sweep's order) and ``table`` (one row per variant, what the answers say)."""

    answer: Answer
    variants: tuple[Answer, ...]
    table: pd.DataFrame
    #: the group the sweep belongs to (e.g. {"arm": "greedy", "n_players": 3})
    group: dict[str, Any] = field(default_factory=dict)

    @property
    def best_set(self) -> list[str]:
        """The variants that cannot be told apart from the best (one: the best)."""
        return [a.details["variant"] for a in self.variants if a.details["in_best_set"]]

    def frame(self) -> pd.DataFrame:
        """The answers (the sweep's line first) as rows, as ``answers.csv`` holds them."""
        return answers_frame([self.answer, *self.variants])

    def __str__(self) -> str:
        return self.answer.text


def _question(n_players: int | None, population: str) -> str:
    players = f"{n_players}-player " if n_players else ""
    who = f" among {population} players" if population else ""
    return f"which variant makes {players}games most balanced{who}?"


def most_balanced_of(table: pd.DataFrame, *, variant: str = "options", ci: float = 0.95,
                     looks: int = 1, population: str = "",
                     group: dict[str, Any] | None = None) -> MostBalanced:
    """The most balanced variant of one sweep from its rows of
    :func:`~hansa_lab.stats.balance_table` (columns ``variant``, ``games``, ``fair``,
    ``first_seat_wins``, ``seat_gap``, ``gap_lo``, ``gap_hi``, ``n_players`` when
    known): the best set, a word per variant and the sweep's line (module text).
    ``looks``: how many times a sequential run has looked at the data (``compare
    --until-decided``), so the level is split over them too.

    >>> from hansa_lab.stats.balance import balance_table
    >>> from hansa_lab.stats.synthetic import synthetic_tables
    >>> import pandas as pd
    >>> parts = [synthetic_tables(["base"], n_deals=400, n_players=3, seat_bonus=bonus,
    ...                           game_id_start=1000 * i)
    ...          for i, bonus in enumerate([[12, 0, 0], [0, 0, 0], [12, 0, 0]])]
    >>> for i, t in enumerate(parts):
    ...     t["games"]["options"] = f"v{i}"
    >>> table = balance_table(pd.concat([t["players"] for t in parts]),
    ...                       pd.concat([t["games"] for t in parts]))
    >>> m = most_balanced_of(table)
    >>> m.best_set, m.answer.word, [a.word for a in m.variants]
    (['v1'], 'best', ['worse than the best', 'best', 'worse than the best'])
    """
    rows = table[table["games"] > 0].reset_index(drop=True)
    if len(rows) < 2:
        raise ValueError("a comparison of variants needs at least two variants with games, "
                         f"got {len(rows)}")
    names = [str(v) for v in rows[variant]]
    games = rows["games"].to_numpy(float)
    wins = rows["first_seat_wins"].to_numpy(float)
    fair = rows["fair"].to_numpy(float)
    k = len(rows)
    s = best_set(wins, games, fair, ci, looks)
    sizes = np.abs(s.advantage)
    order = np.argsort(sizes, kind="stable")
    leader, runner = int(order[0]), int(order[1])
    n_players = (int(rows["n_players"].iloc[0]) if "n_players" in rows
                 else round(1 / fair[0]) if len(set(fair)) == 1 else None)
    n_now = int(games.min())
    too_few = n_now < MIN_DEALS  # no answer rests on fewer games (answers.MIN_DEALS)
    if too_few:
        s = replace(s, in_set=np.ones_like(s.in_set))
    decided = int(s.in_set.sum()) == 1
    everyone = bool(s.in_set.all())
    needed = games_to_separate(float(sizes[runner] - sizes[leader]),
                               _spread(float(wins[leader] / games[leader])),
                               _spread(float(wins[runner] / games[runner])), k, ci, looks)
    more = 0 if decided else (-1 if needed > MAX_MORE_GAMES
                              else max(1, math.ceil(needed) - n_now))
    # too close to separate: the games that would tell whether the next member is worse
    nearest = None
    if more == -1:
        for j in (int(x) for x in order[2:]):
            if not s.in_set[j]:
                continue
            n_j = games_to_separate(float(sizes[j] - sizes[leader]),
                                    _spread(float(wins[leader] / games[leader])),
                                    _spread(float(wins[j] / games[j])), k, ci, looks)
            if n_j <= MAX_MORE_GAMES:
                nearest = (names[j], max(1, math.ceil(n_j) - n_now))
                break
    detectable = games_to_separate(1.0, _spread(float(fair[0])), _spread(float(fair[0])),
                                   k, ci, looks)
    detectable = math.sqrt(detectable / n_now) if n_now else math.nan
    measure, test = PRIMARY["best_variant"]
    family = (f"Bonferroni over {k} variants" +
              (f" and {looks} looks" if looks > 1 else ""))
    test_text = f"{test} (simultaneous Wilson intervals, {family})"
    question = _question(n_players, population)
    first = seat_name(0)
    answers = []
    for i, name in enumerate(names):
        word = ("too few games to tell" if too_few else
                "best" if decided and s.in_set[i] else
                "cannot be told apart from the best" if s.in_set[i] else "worse than the best")
        p_raw = math.nan if (decided and s.in_set[i]) or too_few else _leave_level(
            i, wins, games, fair)
        p_adj = min(1.0, p_raw * k * looks) if math.isfinite(p_raw) else math.nan
        gap_lo, gap_hi = float(rows["gap_lo"].iloc[i]), float(rows["gap_hi"].iloc[i])
        text = (f"{name}: {first} wins {wins[i] / games[i]:.1%} of {_games(int(games[i]))} "
                f"(fair share {fair[i]:.1%}), advantage {_pct(s.advantage[i])} "
                f"[{_pct(s.lo[i])}, {_pct(s.hi[i])}] — {word}")
        answers.append(Answer(
            kind="best_variant", question=question, population=population,
            measure=f"{first}: win share minus its fair share", unit="win share",
            estimate=float(s.advantage[i]), lo=float(s.lo[i]), hi=float(s.hi[i]), ci=ci,
            test=test_text, p_raw=p_raw, p_adjusted=p_adj, family=family, word=word,  # type: ignore[arg-type]
            detectable=detectable, more_games=more, games=int(games[i]),
            deals=int(rows["deals"].iloc[i]) if "deals" in rows else int(games[i]),
            filled=word in FINDINGS, text=text,
            details={"variant": name, "in_best_set": bool(s.in_set[i]),
                     "size_lo": float(s.size_lo[i]), "size_hi": float(s.size_hi[i]),
                     "first_seat_win": float(wins[i] / games[i]), "fair": float(fair[i]),
                     "seat_gap": float(rows["seat_gap"].iloc[i]), "gap_lo": gap_lo,
                     "gap_hi": gap_hi, "level": s.level}))
    members = [names[i] for i in range(k) if s.in_set[i]]
    others = [names[i] for i in range(k) if not s.in_set[i]]
    size = f"{_games(n_now)} per variant" if games.min() == games.max() else \
        f"{_games(n_now)} or more per variant"
    who = f", {population} players" if population else ""
    how = f"simultaneous 95% intervals, {size}{who}"
    if more > 0:
        more_text = (f"about {more:,} more games per variant would separate "
                     f"{names[leader]} from {names[runner]} (if their advantages are as "
                     "estimated)")
    else:
        more_text = (f"{names[leader]} and {names[runner]} are so close that no practical "
                     "number of games would separate them")
        if nearest is not None:
            more_text += (f"; about {nearest[1]:,} more games per variant would tell whether "
                          f"{nearest[0]} is worse (if the advantages are as estimated)")
    if too_few:
        more = max(more, MIN_DEALS - n_now)
        word = "too few games to tell"
        text = (f"Too few games to tell which variant is most balanced: {_games(n_now)} per "
                f"variant, and no answer rests on fewer than {MIN_DEALS} ({how}).")
    elif decided:
        word, text = "best", (
            f"Most balanced: {names[leader]} — {first} advantage {_pct(s.advantage[leader])} "
            f"[{_pct(s.lo[leader])}, {_pct(s.hi[leader])}]; "
            + ("the other variant is" if k == 2 else f"the other {k - 1} variants are")
            + f" worse ({how}).")
    elif everyone:
        word = "cannot tell yet"
        text = (f"Cannot tell yet which variant is most balanced: every variant is within "
                f"reach of the best ({first} advantage from {_pct(float(s.advantage.min()))}"
                f" to {_pct(float(s.advantage.max()))}; {how}); {more_text}.")
    else:
        word = "cannot be told apart from the best"
        text = (f"Most balanced: one of {', '.join(members)} (they cannot be told apart); "
                f"worse: {', '.join(others)} ({how}); {more_text}.")
    overall = Answer(
        kind="best_variant", question=question, population=population,
        measure=measure, unit="win share", estimate=float(s.advantage[leader]),
        lo=float(s.lo[leader]), hi=float(s.hi[leader]), ci=ci, test=test_text,
        p_raw=math.nan, p_adjusted=math.nan, family=family, word=word,  # type: ignore[arg-type]
        detectable=detectable, more_games=more, games=int(games.sum()), deals=n_now,
        filled=decided, text=text,
        details={"variant": "(all)", "best_set": members, "leader": names[leader],
                 "runner_up": names[runner], "variants": names, "level": s.level,
                 "in_best_set": decided})
    shown = pd.DataFrame({
        "variant": names, "games": games.astype(int),
        "first_seat_adv": s.advantage, "adv_lo": s.lo, "adv_hi": s.hi,
        "seat_gap": rows["seat_gap"].to_numpy(float),
        "gap_lo": rows["gap_lo"].to_numpy(float), "gap_hi": rows["gap_hi"].to_numpy(float),
        "p_worse": [a.p_adjusted for a in answers],
        "answer": [a.word for a in answers]})
    return MostBalanced(overall, tuple(answers), shown, dict(group or {}))


def group_rows(table: pd.DataFrame, by: Sequence[str]) -> list[tuple[dict[str, Any],
                                                                      pd.DataFrame]]:
    """The sweeps of a balance table: one (group values, rows) per ``by`` group."""
    keys = [k for k in by if k in table.columns]
    if not keys:
        return [({}, table)]
    return [(dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)), g)
            for key, g in table.groupby(keys, sort=True, dropna=False)]
