"""Player audits: one player's self-play tables profiled seat by seat, and the seats whose
behaviour differs from the others' by more than the rules make it differ.

The unit is a player-game (one seat of one game). :func:`seat_records` turns the logs
(``players``, ``games``, ``events``) into one row per player-game with the audited measures
(:data:`MEASURES`): the round of the third action (the first Actions development; a player
that never takes it counts the game's last round + 1), developments of each ability,
Kontors, routes established, the score by category and the win share.

The seat test (:func:`seat_contrasts`). In a self-play table every seat holds the same
player, so without a seat effect a seat's value minus the mean of the other seats' values
*in the same game* averages 0. Per seat and measure that within-game contrast is averaged
over games (games independent; a t interval and two-sided t test), and the p-values of all
seats × measures are Holm-adjusted together (family-wise error ≤ ``alpha``). One seat that
plays worse makes every other seat look better than the pooled rest, so the test steps
down: per measure the significant seat farthest from the median seat is the *source*; it
is left out and the remaining seats are tested among themselves (Bonferroni over the whole
family) until none differs. Only sources can be flagged.

The rules make seats differ too: the start supply grows with the seat (RULES.md: seat k,
1-based, starts with 4 + k traders) and seat 0 moves first. What that causes is measured
on a reference population's self-play (``greedy`` by default) on other deals: a seat is
*flagged* on a measure only when (1) it is a source (its contrast differs, Holm) **and** (2) it
differs from the same seat's contrast among the reference players (a difference of
independent means, Welch t, Holm over the same family). A significant contrast that the
reference shows as well is reported as "by rule", not flagged. Without a reference only (1)
is applied and the report says so.

>>> from hansa_lab.stats.audit import synthetic_records
>>> planted = synthetic_records(n_games=300, n_players=4, bad_seat=2, seed=1)
>>> flags = seat_flags(planted)
>>> sorted(set(flags.loc[flags.flagged, "seat"]))
[2]
>>> clean = synthetic_records(n_games=300, n_players=4, bad_seat=None, seed=1)
>>> bool(seat_flags(clean).flagged.any())
False
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from hansa_lab.engine.board import ABILITIES
from hansa_lab.engine.scoring import CATEGORIES
from hansa_lab.stats.intervals import t_quantile, t_sf, wilson_interval
from hansa_lab.stats.paired import holm

__all__ = ["ALPHA", "MEASURES", "PROBE_WORDS", "AuditReport", "audit_report", "end_reasons",
           "format_audit", "predecessor_table", "probe_sentences", "probe_table",
           "seat_contrasts", "seat_flags", "seat_profile", "seat_records", "synthetic_records"]

#: The family-wise error rate of the flags (Holm over every seat × measure).
ALPHA = 0.05

#: The audited measures of a player-game, in report order, with what they mean.
MEASURES: dict[str, str] = {
    "third_action_round": "round of the first Actions development (3 actions a turn); "
                          "never taken: the game's last round + 1",
    **{f"dev_{a}": f"{a} developments" for a in ABILITIES},
    "kontors": "Kontors placed (extra Kontors included)",
    "routes": "trade routes established",
    **{f"score_{c}": f"final score: {c}" for c in CATEGORIES},
    "score_total": "final score",
    "win": "win share (1 / winners for a winner, else 0)",
}


def seat_records(players: pd.DataFrame, games: pd.DataFrame,
                 events: pd.DataFrame) -> pd.DataFrame:
    """One row per player-game: ``game_id``, ``seat`` and every measure of
    :data:`MEASURES` (``third_action_reached`` too: the Actions development was taken).
    Needs full logs (the ``events`` table)."""
    keys = ["game_id", "seat"]
    out = players[keys].copy()
    out["seat"] = out["seat"].astype(int)
    ev = events.dropna(subset=["seat"]).copy()
    ev["seat"] = ev["seat"].astype(int)
    dev = ev[ev["kind"] == "develop"]
    counts = dev.groupby([*keys, "detail"]).size().unstack("detail", fill_value=0)
    for ability in ABILITIES:
        col = counts[ability] if ability in counts.columns else pd.Series(dtype=float)
        out[f"dev_{ability}"] = _lookup(out, col)
    first = dev[(dev["detail"] == "actions")].groupby(keys)["round"].min()
    reached = _lookup(out, first, fill=math.nan)
    last_round = out["game_id"].map(games.set_index("game_id")["rounds"]).astype(float)
    out["third_action_reached"] = reached.notna()
    out["third_action_round"] = reached.fillna(last_round + 1)
    out["kontors"] = _lookup(out, ev[ev["kind"] == "kontor"].groupby(keys).size())
    out["routes"] = _lookup(out, ev[ev["kind"] == "establish"].groupby(keys).size())
    for c in CATEGORIES:
        out[f"score_{c}"] = players[c].to_numpy(float)
    out["score_total"] = players["total"].to_numpy(float)
    out["win"] = players["win_share"].to_numpy(float)
    return out.reset_index(drop=True)


def _lookup(rows: pd.DataFrame, by_key: pd.Series, fill: float = 0.0) -> pd.Series:
    """``by_key`` (indexed by game_id, seat) for each row of ``rows``; ``fill`` elsewhere."""
    index = pd.MultiIndex.from_frame(rows[["game_id", "seat"]])
    values = pd.Series(by_key.reindex(index).to_numpy(float), index=rows.index)
    return values if math.isnan(fill) else values.fillna(fill)


def _measures(records: pd.DataFrame) -> list[str]:
    return [m for m in MEASURES if m in records.columns]


def seat_profile(records: pd.DataFrame, ci: float = 0.95) -> pd.DataFrame:
    """Per seat and measure: ``n``, ``mean`` and its interval ``lo``/``hi`` (Wilson for
    ``win``, t for the others); for ``third_action_round`` also the ``median`` and the
    share of players that took the development (``reached``)."""
    rows = []
    for seat, g in records.groupby("seat", sort=True):
        n = len(g)
        for m in _measures(records):
            x = g[m].to_numpy(float)
            mean = float(x.mean())
            if m == "win":
                lo, hi = wilson_interval(float(x.sum()), n, ci)
            elif n > 1:
                half = t_quantile(0.5 + ci / 2, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
                lo, hi = mean - half, mean + half
            else:
                lo = hi = math.nan
            row = {"seat": int(seat), "measure": m, "n": n, "mean": mean, "lo": lo, "hi": hi}
            if m == "third_action_round":
                row["median"] = float(np.median(x))
                if "third_action_reached" in g.columns:
                    row["reached"] = float(g["third_action_reached"].mean())
            rows.append(row)
    return pd.DataFrame(rows)


def _contrasts(records: pd.DataFrame,
               exclude: dict[str, set[int]] | None = None) -> dict[tuple[int, str], np.ndarray]:
    """Per (seat, measure): each game's value of the seat minus the mean of the other
    seats; ``exclude`` (measure → seats) leaves those seats out of the comparison."""
    out: dict[tuple[int, str], np.ndarray] = {}
    for m in _measures(records):
        table = records.pivot_table(index="game_id", columns="seat", values=m,
                                    aggfunc="first").dropna()
        left_out = (exclude or {}).get(m, set())
        table = table[[s for s in table.columns if int(s) not in left_out]]
        values = table.to_numpy(float)
        k = values.shape[1]
        if k < 2:
            continue
        others = (values.sum(axis=1, keepdims=True) - values) / (k - 1)
        for j, seat in enumerate(table.columns):
            out[(int(seat), m)] = values[:, j] - others[:, j]
    return out


def _mean_se(d: np.ndarray) -> tuple[float, float, int]:
    n = len(d)
    if n < 2:
        return (float(d.mean()) if n else math.nan), math.nan, n
    return float(d.mean()), float(d.std(ddof=1)) / math.sqrt(n), n


def _welch(m1: float, se1: float, n1: int, m2: float, se2: float,
           n2: int) -> tuple[float, float, float]:
    """The difference ``m1 - m2`` of two independent means, its standard error and
    Welch–Satterthwaite degrees of freedom."""
    se = math.hypot(se1, se2)
    den = (se1 ** 4 / (n1 - 1) if n1 > 1 else math.inf) + \
        (se2 ** 4 / (n2 - 1) if n2 > 1 else math.inf)
    df = se ** 4 / den if den > 0 and math.isfinite(den) else math.nan
    return m1 - m2, se, df


def _p_value(diff: float, se: float, df: float) -> float:
    """Two-sided t p-value; NaN (left out of the family) where nothing varies."""
    if not (math.isfinite(se) and se > 0 and df > 0):
        return math.nan
    return t_sf(diff / se, df)


def seat_contrasts(records: pd.DataFrame, ci: float = 0.95) -> pd.DataFrame:
    """Per seat and measure, the within-game contrast seat − mean of the other seats:
    ``diff`` with its t interval ``lo``/``hi``, ``games`` and the raw two-sided ``p``."""
    rows = []
    for (seat, m), d in _contrasts(records).items():
        diff, se, n = _mean_se(d)
        half = t_quantile(0.5 + ci / 2, n - 1) * se if n > 1 and math.isfinite(se) \
            else math.nan
        rows.append({"seat": seat, "measure": m, "games": n, "diff": diff,
                     "lo": diff - half, "hi": diff + half, "se": se,
                     "p": _p_value(diff, se, n - 1)})
    return pd.DataFrame(rows)


def seat_flags(records: pd.DataFrame, reference: pd.DataFrame | None = None,
               alpha: float = ALPHA, ci: float = 0.95) -> pd.DataFrame:
    """The seat test of the module doc, one row per seat × measure: the contrast
    (``diff``, ``lo``, ``hi``, ``p``, ``p_holm``), the reference's contrast
    (``ref_diff``) and the test of the two (``p_beyond``, ``p_beyond_holm``; NaN without a
    reference), ``differs`` (contrast significant after Holm), ``source`` (the difference is
    this seat's own, not the mirror of another seat's: :func:`_attribute`; ``p_step`` its
    adjusted p-value at the step it was found), ``by_rule``
    (a source that differs no more than among the reference players) and ``flagged``."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    table = seat_contrasts(records, ci)
    if table.empty:
        raise ValueError("no seat contrast to test: the records need two seats or more")
    table["p_holm"] = holm(table["p"])
    table["source"], table["p_step"] = _attribute(records, table, alpha)
    ref = _contrasts(reference) if reference is not None else {}
    ref_diff, p_beyond = [], []
    for _, r in table.iterrows():
        d = ref.get((int(r["seat"]), str(r["measure"])))
        if d is None or len(d) < 2:
            ref_diff.append(math.nan)
            p_beyond.append(math.nan)
            continue
        mean_r, se_r, n_r = _mean_se(d)
        diff, se, df = _welch(r["diff"], r["se"], int(r["games"]), mean_r, se_r, n_r)
        ref_diff.append(mean_r)
        p_beyond.append(_p_value(diff, se, df))
    table["ref_diff"] = ref_diff
    table["p_beyond"] = p_beyond
    table["p_beyond_holm"] = holm(table["p_beyond"])
    table["differs"] = table["p_holm"] <= alpha
    if reference is None:
        table["by_rule"] = False
        table["flagged"] = table["source"]
    else:
        beyond = table["p_beyond_holm"] <= alpha
        table["by_rule"] = table["source"] & ~beyond
        table["flagged"] = table["source"] & beyond
    return table


def _attribute(records: pd.DataFrame, table: pd.DataFrame,
               alpha: float) -> tuple[list[bool], list[float]]:
    """Which significant contrasts are the seat's own (``source``): one seat that plays
    worse makes every other seat look better than the pooled rest, so per measure the
    significant seat whose mean lies farthest from the median of the seats' means is taken
    as a source, left out, and the remaining seats are tested again among themselves
    (Bonferroni over the whole family, so the family-wise error stays at ``alpha``) until
    none differs. Also the adjusted p-value at the step each source was found."""
    family = int(table["p"].notna().sum())
    means = records.groupby("seat")[_measures(records)].mean()
    sources: dict[str, set[int]] = {}
    found: dict[tuple[int, str], float] = {}
    current = table.assign(adjusted=table["p_holm"])
    for _ in range(int(table["seat"].nunique())):
        hits = current[current["adjusted"] <= alpha]
        if hits.empty:
            break
        for m, h in hits.groupby("measure"):
            remaining = [s for s in means.index if int(s) not in sources.get(str(m), set())]
            centre = float(np.median(means.loc[remaining, m]))
            far = max(h["seat"], key=lambda s: abs(float(means.loc[s, m]) - centre))
            sources.setdefault(str(m), set()).add(int(far))
            found[(int(far), str(m))] = float(h.loc[h["seat"] == far, "adjusted"].iloc[0])
        rows = []
        for (seat, m), d in _contrasts(records, sources).items():
            if m in set(hits["measure"]):
                diff, se, n = _mean_se(d)
                rows.append({"seat": seat, "measure": m,
                             "adjusted": min(1.0, _p_value(diff, se, n - 1) * family)})
        current = pd.DataFrame(rows, columns=["seat", "measure", "adjusted"])
    keys = [(int(r.seat), str(r.measure)) for r in table.itertuples()]
    return [k in found for k in keys], [found.get(k, math.nan) for k in keys]


def end_reasons(games: pd.DataFrame, ci: float = 0.95) -> pd.DataFrame:
    """Share of games per end reason with its Wilson interval."""
    n = len(games)
    counts = games["end_reason"].value_counts().sort_index()
    lo, hi = wilson_interval(counts.to_numpy(float), np.full(len(counts), n), ci)
    return pd.DataFrame({"end_reason": counts.index.astype(str), "games": counts.to_numpy(),
                         "share": counts.to_numpy() / n if n else math.nan,
                         "lo": lo, "hi": hi})


def _focal_rows(players: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``players`` of the line-up's position 0 (the audited seat of a match
    whose seats rotate): in each game the seat equal to its ``rotation``."""
    focal = players["game_id"].map(games.set_index("game_id")["rotation"]).astype(int)
    return players[players["seat"].astype(int) == focal]


def predecessor_table(tables_by_board: dict[str, tuple[pd.DataFrame, pd.DataFrame]],
                      ci: float = 0.95) -> pd.DataFrame:
    """Per board (``players``, ``games`` tables of a line-up whose position 0 is the player
    and the others its predecessor, seats rotated): the player's win share with its Wilson
    interval, and ``fair`` (1 / seats)."""
    rows = []
    for board, (players, games) in tables_by_board.items():
        own = _focal_rows(players, games)
        n = len(own)
        wins = float(own["win_share"].sum())
        lo, hi = wilson_interval(wins, n, ci)
        rows.append({"board": board, "games": n, "win_share": wins / n if n else math.nan,
                     "lo": lo, "hi": hi,
                     "fair": 1 / int(games["n_players"].iloc[0]) if n else math.nan})
    return pd.DataFrame(rows)


#: A probe's words for one seat (:func:`probe_table`).
PROBE_WORDS = {
    "player": "the player's: the probe's seat difference differs from the self-play one",
    "seat": "the seat's: the probe does as much worse (or better) there",
    "none": "no seat difference in either",
    "unclear": "cannot tell at this size",
}


def probe_table(players: pd.DataFrame, games: pd.DataFrame, flags: pd.DataFrame,
                alpha: float = ALPHA, ci: float = 0.95) -> pd.DataFrame:
    """Is a seat the player does badly (or well) in hard (or easy) for a better player
    too? ``players``/``games``: the probe's games, one probe seat (line-up position 0)
    against the audited player in the others, seats rotated; ``flags``: the self-play seat
    test (:func:`seat_flags`), whose ``win`` contrasts are compared.

    Per seat: the probe's games there (``games``), its win share (``win_share``, Wilson
    ``lo``/``hi``), ``probe_diff``: its win share in the seat minus its win share in the
    other seats (independent games; t interval ``probe_lo``/``probe_hi``, Welch),
    ``self_diff``: the seat's within-game win contrast in self-play (``self_source``: the
    seat test found it the seat's own, not the mirror of another seat's), and the test of
    the two (``p``: Welch t of ``probe_diff - self_diff``; ``p_holm`` over the seats). If every
    player in a seat were handicapped alike, the two would agree; a probe that gives up
    far less in the seat than the player does (``p_holm`` <= ``alpha``) shows the
    self-play difference is the player's way of playing it (``word`` "player"); a
    probe difference as far from 0 as the self-play one, of the same sign and not told
    apart from it, is the seat's ("seat"); neither differing from 0 is "none"; else
    "unclear" (:data:`PROBE_WORDS`)."""
    own = _focal_rows(players, games)
    wins = own.set_index(own["seat"].astype(int))["win_share"].astype(float)
    self_win = flags[flags["measure"] == "win"].set_index("seat")
    rows = []
    for seat in sorted(set(wins.index)):
        here = wins.loc[[seat]].to_numpy(float)
        there = wins.drop(index=seat).to_numpy(float)
        m1, se1, n1 = _mean_se(here)
        m2, se2, n2 = _mean_se(there)
        d, se, df = _welch(m1, se1, n1, m2, se2, n2)
        q = t_quantile(0.5 + ci / 2, df) if math.isfinite(df) else math.nan
        lo_w, hi_w = wilson_interval(float(here.sum()), n1, ci)
        row = {"seat": int(seat), "games": n1, "win_share": m1, "lo": lo_w, "hi": hi_w,
               "probe_diff": d, "probe_lo": d - q * se, "probe_hi": d + q * se,
               "probe_p": _p_value(d, se, df)}
        if seat in self_win.index:
            c = self_win.loc[seat]
            diff, se_b, df_b = _welch(d, se, n1 + n2, float(c["diff"]), float(c["se"]),
                                      int(c["games"]))
            row.update(self_diff=float(c["diff"]), self_lo=float(c["lo"]),
                       self_hi=float(c["hi"]), self_p=float(c["p"]),
                       self_source=bool(c.get("source", False)),
                       p=_p_value(diff, se_b, df_b))
        else:
            row.update(self_diff=math.nan, self_lo=math.nan, self_hi=math.nan,
                       self_p=math.nan, self_source=False, p=math.nan)
        rows.append(row)
    table = pd.DataFrame(rows)
    if table.empty:
        raise ValueError("no probe game to read: the probe's tables are empty")
    table["p_holm"] = holm(table["p"])
    table["probe_p_holm"] = holm(table["probe_p"])
    table["self_p_holm"] = holm(table["self_p"])
    table["word"] = [_probe_word(r, alpha) for r in table.to_dict("records")]
    return table


def _probe_word(row: dict[str, float], alpha: float) -> str:
    """The word of one row of :func:`probe_table` (:data:`PROBE_WORDS`)."""
    def small(key: str) -> bool:
        return math.isfinite(row[key]) and row[key] <= alpha

    if small("p_holm"):
        return "player"
    if small("probe_p_holm"):
        same_sign = math.copysign(1, row["probe_diff"]) == math.copysign(1, row["self_diff"])
        return "seat" if same_sign and math.isfinite(row["self_diff"]) else "unclear"
    return "none" if not small("self_p_holm") else "unclear"


@dataclass
class AuditReport:
    """What an audit found: the per-seat profile, the seat tests, the end reasons and
    (optionally) the results against the predecessor and a probe's by seat
    (:func:`probe_table`)."""

    player: str
    reference: str | None
    games: int
    profile: pd.DataFrame
    flags: pd.DataFrame
    ends: pd.DataFrame
    predecessor: pd.DataFrame | None = None
    predecessor_name: str | None = None
    probe: pd.DataFrame | None = None
    probe_name: str | None = None
    alpha: float = ALPHA
    notes: list[str] = field(default_factory=list)

    @property
    def flagged_seats(self) -> list[int]:
        """Seats with at least one flagged measure."""
        return sorted({int(s) for s in self.flags.loc[self.flags["flagged"], "seat"]})

    def verdict(self) -> str:
        """One line: the flagged seats and their measures, or that none is flagged."""
        if not self.flagged_seats:
            return (f"no flagged seat: no seat of {self.player} differs from the others "
                    f"beyond the rules (Holm, family-wise {self.alpha:.0%})")
        parts = []
        for seat in self.flagged_seats:
            ms = self.flags[(self.flags["seat"] == seat) & self.flags["flagged"]]["measure"]
            parts.append(f"seat {seat} ({', '.join(ms)})")
        return f"flagged: {'; '.join(parts)}"


def audit_report(player: str, records: pd.DataFrame, games: pd.DataFrame,
                 reference: pd.DataFrame | None = None, reference_name: str | None = None,
                 alpha: float = ALPHA, ci: float = 0.95) -> AuditReport:
    """Profile, test and summarise the seat records of ``player``'s self-play
    (``reference``: the reference population's records, on other deals)."""
    return AuditReport(player=player, reference=reference_name if reference is not None
                       else None, games=int(games["game_id"].nunique()),
                       profile=seat_profile(records, ci),
                       flags=seat_flags(records, reference, alpha, ci),
                       ends=end_reasons(games, ci), alpha=alpha)


def _cell(mean: float, lo: float, hi: float, pct: bool) -> str:
    if not math.isfinite(mean):
        return "-"
    if pct:
        return f"{mean:.1%} [{lo:.0%},{hi:.0%}]" if math.isfinite(lo) else f"{mean:.1%}"
    half = (hi - lo) / 2 if math.isfinite(lo) else math.nan
    return f"{mean:.2f}±{half:.2f}" if math.isfinite(half) else f"{mean:.2f}"


def format_audit(report: AuditReport) -> str:
    """The audit as text within 100 columns: per-seat means with intervals (the
    measures with a flagged seat marked ``*``, by rule ``r``), end reasons, the flags and
    the verdict line."""
    prof = report.profile
    seats = sorted(prof["seat"].unique())
    head = f"{'measure':<19}" + "".join(f"{'seat ' + str(s):>16} " for s in seats)
    lines = [f"audit of {report.player}: {report.games} self-play games, per seat "
             "(mean ± 95% half-width; win: Wilson)", head]
    mark = {}
    for _, r in report.flags.iterrows():
        key = (int(r["seat"]), r["measure"])
        mark[key] = "*" if r["flagged"] else ("r" if r["by_rule"] else " ")
    for m in MEASURES:
        rows = prof[prof["measure"] == m].set_index("seat")
        if rows.empty:
            continue
        cells = []
        for s in seats:
            r = rows.loc[s]
            cells.append(_cell(r["mean"], r["lo"], r["hi"], m == "win").rjust(16)
                         + mark.get((int(s), m), " "))
        lines.append(f"{m:<19}" + "".join(cells))
    third = prof[prof["measure"] == "third_action_round"].set_index("seat")
    if "median" in third.columns:
        lines.append(f"{'  median round':<19}" + "".join(
            f"{third.loc[s, 'median']:>16.1f} " for s in seats))
    if "reached" in third.columns:
        lines.append(f"{'  taken':<19}" + "".join(
            f"{third.loc[s, 'reached']:>16.0%} " for s in seats))
    ref = (f"more than the seat does among {report.reference}"
           if report.reference else "(no reference: rule-made differences not separated)")
    lines += [*textwrap.wrap("* flagged: differs from the other seats (Holm step-down) " + ref,
                             100, subsequent_indent="  "),
              "r by rule: it differs from the others, but not shown to differ more than "
              "among the reference",
              "", "end reasons: " + "; ".join(
                  f"{r.end_reason} {r.share:.0%} [{r.lo:.0%}, {r.hi:.0%}]"
                  for r in report.ends.itertuples())]
    flagged = report.flags[report.flags["flagged"] | report.flags["by_rule"]]
    if not flagged.empty:
        lines += ["", f"{'seat':>4} {'measure':<21}{'seat - others [95% CI]':>28}"
                      f"{'p step':>9}{'reference':>11}{'p beyond':>10}  verdict"]
        for r in flagged.sort_values(["seat", "measure"]).itertuples():
            ci = f"{r.diff:+.2f} [{r.lo:+.2f}, {r.hi:+.2f}]"
            beyond = f"{r.p_beyond_holm:.3g}" if math.isfinite(r.p_beyond_holm) else "-"
            refd = f"{r.ref_diff:+.2f}" if math.isfinite(r.ref_diff) else "-"
            lines.append(f"{r.seat:>4} {r.measure:<21}{ci:>28}{r.p_step:>9.3g}{refd:>11}"
                         f"{beyond:>10}  {'flagged' if r.flagged else 'by rule'}")
    if report.predecessor is not None and not report.predecessor.empty:
        lines += ["", f"one {report.player} against {report.predecessor_name} in the other "
                      "seats (seats rotated), win share [Wilson 95%]:"]
        for r in report.predecessor.itertuples():
            lines.append(f"  {r.board:<12} {r.win_share:6.1%} [{r.lo:.1%}, {r.hi:.1%}] of "
                         f"{r.games} games (fair {r.fair:.0%})")
    if report.probe is not None and not report.probe.empty:
        lines += ["", *_probe_lines(report)]
    lines += [*report.notes, ""]
    lines += textwrap.wrap(report.verdict(), 100, subsequent_indent="  ")
    for sentence in probe_sentences(report):
        lines += textwrap.wrap(sentence, 100, subsequent_indent="  ")
    return "\n".join(lines)


def _probe_lines(report: AuditReport) -> list[str]:
    probe = report.probe
    assert probe is not None
    lines = [*textwrap.wrap(
        f"probe: one {report.probe_name} against {report.player} in the other seats (seats "
        "rotated): its win share by seat [Wilson 95%], its seat minus its other seats [t "
        "95%], the same contrast in self-play, and whose the difference is (Welch t of the "
        "two, Holm over the seats)", 100),
             f"{'seat':>4} {'games':>6} {'probe wins':>22} {'probe: seat - others':>24} "
             f"{'self-play':>9} {'p Holm':>8}  whose"]
    for r in probe.itertuples():
        share = f"{r.win_share:.1%} [{r.lo:.0%}, {r.hi:.0%}]"
        diff = f"{r.probe_diff:+.1%} [{r.probe_lo:+.0%}, {r.probe_hi:+.0%}]"
        own = f"{r.self_diff:+.1%}" if math.isfinite(r.self_diff) else "-"
        p = f"{r.p_holm:.3g}" if math.isfinite(r.p_holm) else "-"
        lines.append(f"{r.seat:>4} {r.games:>6} {share:>22} {diff:>24} {own:>9} {p:>8}  "
                     f"{r.word}")
    return lines


def probe_sentences(report: AuditReport) -> list[str]:
    """One sentence per seat whose self-play win share differs from the others' (a
    source of the seat test's ``win`` differences: the mirror seats are left out), saying
    what the probe found there; none without a probe."""
    probe = report.probe
    if probe is None or probe.empty:
        return []
    out = []
    for r in probe.itertuples():
        if not r.self_source:
            continue
        found = (f"seat {r.seat} wins {r.self_diff:+.1%} [{r.self_lo:+.1%}, "
                 f"{r.self_hi:+.1%}] against the other seats in {report.player}'s self-play; "
                 f"one {report.probe_name} there wins {r.probe_diff:+.1%} "
                 f"[{r.probe_lo:+.1%}, {r.probe_hi:+.1%}] against its own other seats")
        if r.word == "player":
            out.append(f"{found}: the difference is {report.player}'s, not the seat's "
                       f"(p = {r.p_holm:.2g}, Holm).")
        elif r.word == "seat":
            out.append(f"{found}: the seat is as hard for the probe (not told apart, "
                       f"p = {r.p_holm:.2g}).")
        else:
            out.append(f"{found}: cannot tell whose the difference is at this size.")
    return out


def synthetic_records(n_games: int, n_players: int = 4, bad_seat: int | None = None,
                      seed: int = 0, supply_effect: float = 0.0) -> pd.DataFrame:
    """Seat records of made-up self-play games for tests and examples: every seat draws
    from the same distributions, except ``bad_seat`` (if any), which takes its third action
    6 rounds later, scores 8 points less and wins a third as often; ``supply_effect``
    adds that many points per seat index to every seat's track score (a rule-made seat
    difference a reference population shows as well)."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n_games):
        strength = rng.normal(0.0, 1.0, n_players)
        if bad_seat is not None:
            strength[bad_seat] -= 1.5
        winner = int(np.argmax(strength + rng.gumbel(0.0, 0.3, n_players)))
        for s in range(n_players):
            bad = s == bad_seat
            track = rng.normal(14 - (4 if bad else 0), 3) + supply_effect * s
            row = {"game_id": g, "seat": s,
                   "third_action_round": float(rng.integers(2, 5) + (6 if bad else 0)),
                   "third_action_reached": True,
                   **{f"dev_{a}": float(rng.poisson(1.2)) for a in ABILITIES},
                   "kontors": float(rng.poisson(7)), "routes": float(rng.poisson(14)),
                   **{f"score_{c}": 0.0 for c in CATEGORIES},
                   "win": float(s == winner)}
            row["score_track"] = track
            row["score_network"] = rng.normal(5 - (4 if bad else 0), 2)
            row["score_control"] = rng.normal(9, 2)
            row["score_total"] = row["score_track"] + row["score_network"] + \
                row["score_control"]
            rows.append(row)
    return pd.DataFrame(rows)
