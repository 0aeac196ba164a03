"""Rule variants against the unchanged game: paired differences of the measures a
designer balances (score level, first-seat win share, the focal strategy's win share,
game length), deal by deal.

A sweep (``[variants]`` or ``[sweep]`` in an experiment file) plays every variant on the
same deals and seat rotations as the base variant, so a variant's game and the base
variant's game with the same arm, condition, seed and rotation differ only by the rule
change (common random numbers). The games table needs a ``variant`` column
(:meth:`hansa_lab.sim.results.Results.variants` adds it from the run's manifest).

Measures, one value per game (:data:`MEASURES`): ``score`` — the mean final score of all
seats; ``first_seat_win`` — the win share of seat 0 (the first player), in percentage
points; ``focal_win`` — the win share of the arm's focal strategy (line-up position 0), in
percentage points, for arms whose line-up mixes strategies; ``rounds`` — the game's length.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from hansa_lab.stats.answers import PRIMARY, Answer, Secondary, amount, p_phrase, plural
from hansa_lab.stats.display import View, readable
from hansa_lab.stats.intervals import t_quantile
from hansa_lab.stats.paired import deal_t_test
from hansa_lab.stats.tables import GAME_KEYS, varying
from hansa_lab.stats.verdicts import PairedQuestion, paired_answers

__all__ = ["MEASURES", "NEVER_IN_PLAY", "NEVER_IN_PLAY_TEXT", "PRIMARY_MEASURE",
           "variant_answers", "variant_comparison", "variant_sentence", "variant_values"]

#: measure -> (unit of its difference, half-width the planning figure aims at)
MEASURES: dict[str, tuple[str, float]] = {
    "score": ("points", 1.0),
    "first_seat_win": ("pct points", 2.0),
    "focal_win": ("pct points", 2.0),
    "rounds": ("rounds", 0.5),
}
#: the columns that match a variant's game with the base variant's game
_MATCH = ["experiment", "arm", "n_players", "board", "side", "edition", "seed", "rotation"]
#: The word of a variant whose games all ended exactly as the base variant's ...
NEVER_IN_PLAY = "never came into play"
#: ... and how its sentence begins.
NEVER_IN_PLAY_TEXT = "this rule never came into play in these games"


def variant_values(players: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """One row per game: the match columns, ``variant``, the value of every measure
    (``focal_win`` is NaN in arms whose line-up is one strategy repeated) and
    ``outcome``, the game's result as text (every seat's score and win share, and the
    rounds): equal outcomes on every deal mean the rule never changed a game."""
    g = games[[*GAME_KEYS, *[c for c in _MATCH if c not in GAME_KEYS], "variant", "rounds"]]
    p = players[[*GAME_KEYS, "seat", "total", "win_share"]].merge(
        g[[*GAME_KEYS, "rotation", "n_players"]], on=GAME_KEYS, how="inner")
    score = p.groupby(GAME_KEYS, sort=False)["total"].mean().rename("score")
    first = p[p["seat"] == 0].set_index(GAME_KEYS)["win_share"].rename("first_seat_win") * 100
    focal_seat = p["rotation"].astype(np.int64) % p["n_players"].astype(np.int64)
    focal = (p[p["seat"].astype(np.int64) == focal_seat].set_index(GAME_KEYS)["win_share"]
             .rename("focal_win") * 100)
    ordered = p.sort_values("seat", kind="stable")
    outcome = ordered.groupby(GAME_KEYS, sort=False)[["total", "win_share"]].agg(tuple)
    outcome = (outcome["total"].astype(str) + "/" + outcome["win_share"].astype(str)
               ).rename("outcome")
    out = g.set_index(GAME_KEYS).join([score, first, focal, outcome], how="left").reset_index()
    out["outcome"] = out["outcome"] + "/" + out["rounds"].astype(str)
    mixed = out.groupby(["experiment", "arm"])["rotation"].transform("max") > 0
    out.loc[~mixed, "focal_win"] = np.nan
    out["rounds"] = out["rounds"].astype(float)
    return out


def _summary(diffs: pd.DataFrame, ci: float) -> dict[str, float]:
    """t interval and test over the deals of one group of paired game differences."""
    deal = diffs.groupby(["experiment", "n_players", "board", "side", "edition", "seed"],
                         sort=True)[["diff", "value_a", "value_b"]].mean()
    g = len(deal)
    mean, se, p = deal_t_test(deal["diff"].to_numpy(dtype=float))
    q = t_quantile(0.5 + ci / 2, g - 1) if g > 1 else math.nan
    return {"n": len(diffs), "deals": g, "mean": float(diffs["value_a"].mean()),
            "base_mean": float(diffs["value_b"].mean()), "diff": mean, "diff_lo": mean - q * se,
            "diff_hi": mean + q * se, "se": se, "p_value": p}


def variant_comparison(
    players: pd.DataFrame,
    games: pd.DataFrame,
    base: str,
    *,
    measures: Sequence[str] = tuple(MEASURES),
    alpha: float = 0.05,
    ci: float = 0.95,
) -> pd.DataFrame:
    """Every variant of ``games["variant"]`` against the ``base`` variant, per arm, measure
    and the conditions that vary (player count, board side, edition), paired by game.

    **Pairing and unit.** A variant's game is matched with the base variant's game with
    the same experiment, arm, condition (``n_players, board, side, edition``), ``seed``
    and ``rotation``; the differences are averaged per deal (seed), the independent unit,
    and the interval is the t interval over deals (``mean ± t·sd/√deals``, deals − 1
    degrees of freedom) with its paired t-test; Holm's adjustment runs over all the rows
    of a measure. Columns: the varying conditions, ``arm``, ``measure``, ``unit``,
    ``variant``, ``base_variant``, ``n`` (matched games), ``deals``, ``mean`` and
    ``base_mean`` (the measure in each), ``diff`` with ``diff_lo``/``diff_hi``, ``se``,
    ``p_value``, ``p_holm``, ``verdict`` (the words of
    :func:`~hansa_lab.stats.verdicts.paired_answers`: ``raises``, ``lowers``, ``no clear
    effect``, ``smaller than the margin``, ``too few games to tell``, or
    :data:`NEVER_IN_PLAY` when every paired game ended exactly as under the base variant
    — same scores, winner and length — so the rule changed nothing), ``filled``,
    ``more_deals``, ``identical`` and ``text``. Each measure is its own question (Holm over
    the variants); the *variant's effect* is the first seat's win share
    (:func:`variant_answers`), the other measures are secondary to it.

    >>> games = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": range(12),
    ...     "n_players": 2, "board": "base", "side": "base_3p", "edition": "bigbox",
    ...     "seed": [*range(6)] * 2, "rotation": 0, "variant": ["v"] * 6 + ["default"] * 6,
    ...     "rounds": [12, 13, 12, 14, 13, 12, 10, 11, 10, 11, 11, 10]})
    >>> players = pd.DataFrame({"experiment": "x", "arm": "a", "seat": [0, 1] * 12,
    ...     "game_id": np.repeat(range(12), 2), "total": 50.0, "win_share": [1.0, 0.0] * 12})
    >>> r = variant_comparison(players, games, "default", measures=["rounds"])
    >>> r[["variant", "measure", "deals", "diff", "verdict"]]
      variant measure deals  diff verdict
    0       v  rounds     6  +2.2  raises
    >>> round(float(r["diff"].iloc[0]), 4)  # the display rounds; the data does not
    2.1667
    """
    if "variant" not in games.columns:
        raise ValueError("the games table needs a variant column (Results.variants adds it)")
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise ValueError(f"unknown measures {unknown}; known: {', '.join(MEASURES)}")
    values = variant_values(players, games)
    if base not in set(values["variant"]):
        raise ValueError(f"no games of the base variant {base!r} (variants: "
                         f"{', '.join(map(str, pd.unique(values['variant'])))})")
    b = values[values["variant"] == base]
    conds = varying(values, ["n_players", "side", "edition"])
    rows: list[dict[str, object]] = []
    for variant in pd.unique(values["variant"]):
        if variant == base:
            continue
        a = values[values["variant"] == variant]
        m = a.merge(b, on=_MATCH, suffixes=("_a", "_b"))
        m["same"] = m["outcome_a"] == m["outcome_b"]
        for measure in measures:
            d = m[[*_MATCH, f"{measure}_a", f"{measure}_b", "same"]].dropna()
            d = d.rename(columns={f"{measure}_a": "value_a", f"{measure}_b": "value_b"})
            d["diff"] = d["value_a"] - d["value_b"]
            for key, part in d.groupby(["arm", *conds], sort=True):
                key = key if isinstance(key, tuple) else (key,)
                rows.append({**dict(zip(["arm", *conds], key, strict=True)),
                             "measure": measure, "unit": MEASURES[measure][0],
                             "variant": variant, "base_variant": base,
                             **_summary(part, ci), "identical": bool(part["same"].all())})
    cols = [*conds, "arm", "measure", "unit", "variant", "base_variant", "n", "deals", "mean",
            "base_mean", "diff", "diff_lo", "diff_hi", "se", "p_value", "p_holm", "verdict",
            "filled", "more_deals", "identical", "text"]
    if not rows:
        return pd.DataFrame(columns=cols)
    out = pd.DataFrame(rows)
    parts = []
    for measure, part in out.groupby("measure", sort=False):
        unit, half = MEASURES[str(measure)]
        same = part["identical"].to_numpy(bool)
        answers = paired_answers(
            [PairedQuestion(arm=str(v), base=str(b), diff=float(d), lo=float(lo),
                            hi=float(hi), deals=int(n), p_raw=float(pv), se=float(se),
                            games=int(g))
             for v, b, d, lo, hi, n, pv, se, g in zip(
                 part["variant"], part["base_variant"], part["diff"], part["diff_lo"],
                 part["diff_hi"], part["deals"], part["p_value"], part["se"], part["n"],
                 strict=True)],
            kind="variant_effect", alpha=alpha, half_width=half, unit=unit, ci=ci,
            words=("raises", "lowers"),
            bound=100.0 if unit == "pct points" else None)
        words = [NEVER_IN_PLAY if s else a.word for s, a in zip(same, answers, strict=True)]
        texts = [f"{NEVER_IN_PLAY_TEXT}: all {n} paired games ended exactly as under "
                 f"{b} (every seat's score, the winner and the length)" if s else a.text
                 for s, n, b, a in zip(same, part["n"], part["base_variant"], answers,
                                       strict=True)]
        part = part.assign(p_holm=[a.p_adjusted for a in answers], verdict=words,
                           filled=[a.filled and not s for s, a in zip(same, answers,
                                                                      strict=True)],
                           more_deals=np.where(same, 0, [a.more_games for a in answers]),
                           text=texts)
        parts.append(part)
    order = {m: i for i, m in enumerate(measures)}
    res = pd.concat(parts, ignore_index=True)
    res = res.sort_values(["measure", *conds, "arm"], key=lambda s: s.map(order)
                          if s.name == "measure" else s, kind="stable")
    return readable(res[cols].reset_index(drop=True), View(
        columns=(*conds, "arm", "measure", "variant", "deals", "diff", "p_holm",
                 "verdict"), unit="unit", per_unit=("diff",),
        percent_units=(("pct points", 1.0),)))


#: the measure that decides a variant's effect; the others are secondary to it
PRIMARY_MEASURE = "first_seat_win"


def variant_sentence(row: Any) -> str:
    """The line a person reads for one row of :func:`variant_comparison`: the answer's
    sentence for the primary measure (:data:`PRIMARY_MEASURE`) and for a rule that never
    came into play; for a secondary measure its estimate, interval and raw p, labelled
    secondary and without a decision word.

    >>> row = {"measure": "rounds", "unit": "rounds", "diff": 0.46, "diff_lo": 0.1,
    ...        "diff_hi": 0.8, "p_value": 0.003, "deals": 40, "base_variant": "default",
    ...        "verdict": "raises", "text": "raises: ..."}
    >>> variant_sentence(row)
    'secondary, does not decide: +0.5 rounds [+0.1, +0.8] vs default, p = 0.003 (40 deals)'
    """
    fields: dict[str, Any] = row if isinstance(row, dict) else row._asdict()
    get = fields.__getitem__
    if get("measure") == PRIMARY_MEASURE or get("verdict") == NEVER_IN_PLAY:
        return str(get("text"))
    lo, hi = float(get("diff_lo")), float(get("diff_hi"))
    interval = (f" [{lo:+.1f}, {hi:+.1f}]" if math.isfinite(lo) and math.isfinite(hi)
                else "")
    return ("secondary, does not decide: "
            f"{amount(float(get('diff')), str(get('unit')))}{interval} vs "
            f"{get('base_variant')}, {p_phrase(float(get('p_value')), '')} "
            f"({plural(int(get('deals')), 'deal')})")


def variant_answers(table: pd.DataFrame) -> list[Answer]:
    """The ``variant_effect`` answer of each variant (per arm and condition) of a
    :func:`variant_comparison` table: the primary measure is the change in the first
    seat's win share (its advantage over the fair share, which the variant does not
    change), Holm over the variants; the other measures of the same variant ride along as
    secondary and never decide. Rows without a ``first_seat_win`` measure give none."""
    full = pd.DataFrame(getattr(table, "full", table))
    if full.empty:
        return []
    keys = [c for c in ("n_players", "side", "edition", "arm") if c in full.columns]
    out = []
    primary = full[full["measure"] == "first_seat_win"]
    for r in primary.to_dict("records"):
        same = np.ones(len(full), dtype=bool)
        for k in [*keys, "variant"]:
            same &= (full[k] == r[k]).to_numpy()
        others = full[same & (full["measure"] != "first_seat_win").to_numpy()]
        secondary = tuple(Secondary(str(o["measure"]), str(o["unit"]), float(o["diff"]),
                                    float(o["diff_lo"]), float(o["diff_hi"]),
                                    float(o["p_value"])) for o in others.to_dict("records"))
        where = ", ".join(f"{r[k]}" for k in keys)
        word = r["verdict"]
        m = int(primary["p_holm"].notna().sum())
        out.append(Answer(
            kind="variant_effect",
            question=f"does variant {r['variant']} change the first seat's advantage "
                     f"against {r['base_variant']} ({where})?",
            population=str(r.get("arm", "")), measure=PRIMARY["variant_effect"][0],
            unit="pct points", estimate=float(r["diff"]), lo=float(r["diff_lo"]),
            hi=float(r["diff_hi"]), ci=0.95, test=PRIMARY["variant_effect"][1],
            p_raw=float(r["p_value"]), p_adjusted=float(r["p_holm"]),
            family=f"Holm over {m} variant{'s' if m != 1 else ''}", word=word,
            detectable=math.nan, more_games=int(r["more_deals"]), games=int(r["n"]),
            deals=int(r["deals"]), filled=bool(r["filled"]), text=str(r["text"]),
            secondary=secondary,
            details={"variant": r["variant"], "base": r["base_variant"], "where": where}))
    return out
