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

import numpy as np
import pandas as pd

from hansa_lab.stats.display import View, readable
from hansa_lab.stats.intervals import t_quantile
from hansa_lab.stats.paired import deal_t_test, holm
from hansa_lab.stats.tables import GAME_KEYS, varying
from hansa_lab.stats.verdicts import comparison_verdicts

__all__ = ["MEASURES", "NEVER_IN_PLAY", "variant_comparison", "variant_values"]

#: measure -> (unit of its difference, half-width the planning figure aims at)
MEASURES: dict[str, tuple[str, float]] = {
    "score": ("points", 1.0),
    "first_seat_win": ("pct points", 2.0),
    "focal_win": ("pct points", 2.0),
    "rounds": ("rounds", 0.5),
}
#: the columns that match a variant's game with the base variant's game
_MATCH = ["experiment", "arm", "n_players", "board", "side", "edition", "seed", "rotation"]
_WORDS = {"helps": "raises", "hurts": "lowers", "no clear effect": "no clear change",
          "too few games to tell": "too few games to tell"}
#: The verdict of a variant whose games all ended exactly as the base variant's.
NEVER_IN_PLAY = "this rule never came into play in these games"


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
    ``p_value``, ``p_holm``, ``verdict`` (``raises``, ``lowers``, ``no clear change``,
    ``too few games to tell``, or :data:`NEVER_IN_PLAY` when every paired game ended
    exactly as under the base variant — same scores, winner and length — so the rule
    changed nothing), ``more_deals``, ``identical`` and ``text``.

    >>> games = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": range(8),
    ...     "n_players": 2, "board": "base", "side": "base_3p", "edition": "bigbox",
    ...     "seed": [0, 1, 2, 3] * 2, "rotation": 0, "variant": ["v"] * 4 + ["default"] * 4,
    ...     "rounds": [12, 13, 12, 14, 10, 11, 10, 11]})
    >>> players = pd.DataFrame({"experiment": "x", "arm": "a", "game_id": np.repeat(range(8), 2),
    ...     "seat": [0, 1] * 8, "total": 50.0, "win_share": [1.0, 0.0] * 8})
    >>> r = variant_comparison(players, games, "default", measures=["rounds"])
    >>> r[["variant", "measure", "deals", "diff", "verdict"]]
      variant measure deals  diff verdict
    0       v  rounds     4  +2.2  raises
    >>> float(r["diff"].iloc[0])  # the display rounds; the data does not
    2.25
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
            "more_deals", "identical", "text"]
    if not rows:
        return pd.DataFrame(columns=cols)
    out = pd.DataFrame(rows)
    parts = []
    for measure, part in out.groupby("measure", sort=False):
        unit, half = MEASURES[str(measure)]
        asked = pd.DataFrame({
            "arm": part["variant"].to_numpy(), "base_arm": part["base_variant"].to_numpy(),
            "score_diff": part["diff"].to_numpy(), "diff_lo": part["diff_lo"].to_numpy(),
            "diff_hi": part["diff_hi"].to_numpy(), "deals": part["deals"].to_numpy(),
            "p_value": part["p_value"].to_numpy(), "se": part["se"].to_numpy()})
        v = comparison_verdicts(asked, alpha=alpha, half_width=half, unit=unit, ci=ci,
                                bound=100.0 if unit == "pct points" else None)
        same = part["identical"].to_numpy(bool)
        texts = [f"{NEVER_IN_PLAY}: all {n} paired games ended exactly as under "
                 f"{b} (every seat's score, the winner and the length)" if s else _reword(t)
                 for s, n, b, t in zip(same, part["n"], part["base_variant"], v["text"],
                                       strict=True)]
        part = part.assign(p_holm=holm(part["p_value"].to_numpy(float)),
                           verdict=np.where(same, NEVER_IN_PLAY,
                                            v["verdict"].map(_WORDS).to_numpy()),
                           more_deals=np.where(same, 0, v["more_deals"].to_numpy()),
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


def _reword(text: str) -> str:
    """A verdict sentence of :func:`comparison_verdicts` in a rule change's words."""
    for old, new in _WORDS.items():
        if text.startswith(old):
            return new + text[len(old):]
    return text
