"""hansa_lab.stats and hansa_lab.stats.plots on data where the right answer is known:
synthetic tables (:mod:`hansa_lab.stats.synthetic`), hand-made frames, simulated
Plackett–Luce placements and normal paired differences; plus a handful of fast random
games for the end-to-end paths. (The docstring examples run in test_docstrings.)"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from hansa_lab import stats
from hansa_lab.engine.state import GameConfig
from hansa_lab.sim.logs import SCHEMA, concat_rows, record_game, to_frame
from hansa_lab.stats import plots
from hansa_lab.stats.synthetic import DTYPES, synthetic_tables
from hansa_lab.studies.planning import runner_batches


def _tables(*parts: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    return {k: pd.concat([p[k] for p in parts], ignore_index=True) for k in parts[0]}


def test_stats_imports_neither_the_runner_nor_matplotlib() -> None:
    """stats sits below sim (layers): importing it loads no hansa_lab.sim/viz/tools
    module, and matplotlib only when stats.plots is asked for; ``import hansa_lab``
    loads no stats."""
    import subprocess
    import sys

    code = ("import sys, hansa_lab; light = 'hansa_lab.stats' not in sys.modules; "
            "from hansa_lab import stats; "
            "mods = sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['hansa_lab', 'sim'], ['hansa_lab', 'viz'], ['hansa_lab', 'tools'])); "
            "mpl = 'matplotlib' in sys.modules; stats.plots; "
            "print(light, mods, mpl, 'matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "True [] False True"


# ------------------------------------------------------------------ distributions


def test_norm_cdf_matches_erf() -> None:
    x = np.linspace(-8, 8, 1601)
    exact = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x])
    assert np.max(np.abs(stats.norm_cdf(x) - exact)) < 1e-7


def test_chi2_and_t_tails() -> None:
    for x in (0.1, 1.0, 4.0, 13.0):  # df = 2: exp(-x/2) exactly
        assert stats.chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)
    assert stats.chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert stats.chi2_sf(9.487729, 4) == pytest.approx(0.05, abs=1e-6)
    assert stats.chi2_sf(0.0, 3) == 1.0
    for t in (0.3, 1.0, 6.0):  # df = 1: Cauchy
        assert stats.t_sf(t, 1) == pytest.approx(1 - 2 / math.pi * math.atan(t), rel=1e-9)
    assert stats.t_sf(2.228139, 10) == pytest.approx(0.05, abs=1e-6)
    assert stats.t_sf(2.0, 1e7) == pytest.approx(2 * (1 - 0.5 * math.erfc(-2 / math.sqrt(2))),
                                             abs=1e-6)


def test_t_quantile_inverts_t_sf() -> None:
    # published two-sided 95% critical values (the tables' three decimals)
    for df, value in ((1, 12.706), (2, 4.303), (3, 3.182), (10, 2.228), (30, 2.042),
                      (60, 2.000), (120, 1.980)):
        assert stats.t_quantile(0.975, df) == pytest.approx(value, abs=5e-4)
    for df in (1, 2.5, 7, 40, 1000):
        for p in (0.6, 0.9, 0.975, 0.9995):
            assert stats.t_sf(stats.t_quantile(p, df), df) == pytest.approx(2 * (1 - p),
                                                                             rel=1e-7)
    assert stats.t_quantile(0.025, 5) == -stats.t_quantile(0.975, 5)
    assert stats.t_quantile(0.975, 10**7) == pytest.approx(stats.z_quantile(0.95), abs=1e-6)
    with pytest.raises(ValueError):
        stats.t_quantile(0.975, 0)


def test_one_wilson_interval_for_numbers_and_arrays() -> None:
    lo, hi = stats.wilson_interval([0, 3.5, 50, 100, 81], [10, 7, 100, 100, 263])
    for i, (k, n) in enumerate([(0, 10), (3.5, 7), (50, 100), (100, 100), (81, 263)]):
        one = stats.wilson_interval(k, n)
        assert isinstance(one[0], float) and (lo[i], hi[i]) == pytest.approx(one)
    # Wilson (1927) / Newcombe (1998) example
    assert (lo[4], hi[4]) == (pytest.approx(0.2553, abs=1e-4), pytest.approx(0.3662, abs=1e-4))
    assert lo[0] == 0 and hi[0] == pytest.approx(0.2775, abs=1e-4) and hi[3] == 1
    assert math.isnan(stats.wilson_interval(0, 0)[0])
    narrow = stats.wilson_interval(50, 100, ci=0.5)
    assert narrow[0] > lo[2] and narrow[1] < hi[2]


def test_mean_interval_and_clustered_se() -> None:
    mean, lo, hi = stats.mean_interval(np.array([1.0, 2.0, 3.0, 4.0]))
    half = 3.182446 * np.std([1, 2, 3, 4], ddof=1) / 2
    assert mean == 2.5 and (lo, hi) == (pytest.approx(2.5 - half), pytest.approx(2.5 + half))
    assert math.isnan(stats.mean_interval([7.0])[1]) and math.isnan(stats.mean_interval([])[0])
    x = np.array([1.0, 2.0, 3.0, 10.0, 11.0, 12.0])
    # one row per cluster: sd/√n; two clusters of three: the cluster sums' spread
    assert stats.clustered_se(x, np.arange(6)) == pytest.approx(x.std(ddof=1) / math.sqrt(6))
    resid = np.array([x[:3].sum(), x[3:].sum()]) - 3 * x.mean()
    assert stats.clustered_se(x, [0, 0, 0, 1, 1, 1]) == pytest.approx(
        math.sqrt(2 * (resid ** 2).sum()) / 6)
    assert math.isnan(stats.clustered_se(x, np.zeros(6)))


def test_synthetic_tables_have_the_run_tables_dtypes() -> None:
    assert {k: SCHEMA[k] for k in DTYPES} == DTYPES
    for detail in (True, False):
        t = synthetic_tables({"tip": ["a", "b"], "base": ["b"]}, n_deals=2, n_players=2,
                             detail=detail)
        for table, df in t.items():
            assert list(df.columns) == list(SCHEMA[table])
            assert df.dtypes.astype(str).to_dict() == SCHEMA[table], table


# ------------------------------------------------------------------ summaries


def test_bootstrap_ci_normal_mean() -> None:
    x = np.random.default_rng(0).normal(10, 2, 400)
    est, lo, hi = stats.bootstrap_ci(x, n_boot=4000)
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    assert est == pytest.approx(x.mean())
    assert lo == pytest.approx(est - half, abs=0.1 * half)
    assert hi == pytest.approx(est + half, abs=0.1 * half)
    assert stats.bootstrap_ci(x, n_boot=300, seed=5) == stats.bootstrap_ci(x, n_boot=300, seed=5)
    # a statistic without axis= works too (loop)
    med = stats.bootstrap_ci(x, stat=lambda v: float(np.median(v)), n_boot=200)
    assert med[1] < med[0] < med[2]


def test_win_rates_split_ties() -> None:
    p = pd.DataFrame({"strategy": ["a", "b", "a", "b", "a", "b"],
                      "win_share": [0.5, 0.5, 1.0, 0.0, 0.0, 1.0]})
    w = stats.win_rates(p)
    assert w["wins"].tolist() == [1.5, 1.5]
    assert w["rate"].tolist() == [0.5, 0.5]
    assert (w["lo"] < 0.5).all() and (w["hi"] > 0.5).all()


def test_mean_scores_and_differences_cover_truth() -> None:
    t = synthetic_tables(["plus4", "base"], n_deals=300, n_players=2, base=100, luck_sd=6,
                         noise_sd=3, detail=False)
    m = stats.mean_scores(t["players"]).set_index("strategy")
    assert m.loc["plus4", "mean"] - m.loc["base", "mean"] == pytest.approx(4, abs=1.0)
    # one player of each strategy per game: exactly mean ± t·sd/√n
    for s in ("base", "plus4"):
        half = stats.t_quantile(0.975, 599) * m.loc[s, "sd"] / math.sqrt(m.loc[s, "n"])
        assert m.loc[s, "n"] == m.loc[s, "games"] == 600
        assert (m.loc[s, "lo"], m.loc[s, "hi"]) == (
            pytest.approx(m.loc[s, "mean"] - half), pytest.approx(m.loc[s, "mean"] + half))
    d = stats.score_differences(t["players"], "base", n_boot=1000)
    assert d["strategy"].tolist() == ["plus4"]
    assert d["lo"][0] < 4 < d["hi"][0]
    with pytest.raises(ValueError, match="reference"):
        stats.score_differences(t["players"], "nope")


def test_mean_scores_cluster_by_game() -> None:
    # two seats of one strategy per game whose scores always add up to 30: the game
    # means do not vary, so neither does the mean (the seats are not independent)
    p = pd.DataFrame({"experiment": "", "arm": "", "game_id": np.repeat(np.arange(4), 2),
                      "strategy": "s", "total": [10, 20, 5, 25, 14, 16, 0, 30]})
    m = stats.mean_scores(p).iloc[0]
    assert (m["n"], m["games"], m["mean"]) == (8, 4, 15.0)
    assert m["lo"] == pytest.approx(15) and m["hi"] == pytest.approx(15)
    assert m["sd"] > 9  # treated as 8 independent scores the interval would be ±8
    one = stats.mean_scores(p[p["game_id"] == 0]).iloc[0]
    assert one["games"] == 1 and math.isnan(one["lo"])


# ------------------------------------------------------------------ pairing


def _tip_tables(n_deals: int = 200, **kw: object) -> dict[str, pd.DataFrame]:
    args: dict[str, object] = {"base": 100.0, "luck_sd": 8.0, "noise_sd": 2.0,
                               "detail": False, **kw}
    return synthetic_tables({"tip": ["plus3", "base", "base"], "base": ["base"]},
                            n_deals=n_deals, n_players=3, **args)  # type: ignore[arg-type]


def test_paired_differences_match_rotation_modulo_base_period() -> None:
    t = _tip_tables(n_deals=4, noise_sd=0.0)
    d = stats.paired_differences(t["players"], t["games"], "tip", "base")
    # the all-same base plays one game per deal: each serves the three tip rotations
    assert len(d) == 12
    assert (d["rotation_b"] == 0).all()
    assert (d["seat"] == d["rotation"]).all()  # the tip sits in seat = rotation
    assert d.groupby("seed")["game_id_b"].nunique().eq(1).all()
    assert (d["strategy_a"] == "plus3").all() and (d["diff"] == 3).all()
    # the same, naming the strategy, or with seed/rotation already on the players
    by_name = stats.paired_differences(t["players"], t["games"], "tip", "base", focal="plus3")
    pd.testing.assert_frame_equal(by_name, d)
    merged = stats.with_games(t["players"], t["games"])
    pd.testing.assert_frame_equal(stats.paired_differences(merged, None, "tip", "base"), d)
    # focal=1: the strategy at line-up position 1 ("base") — both base seats of a game
    opp = stats.paired_differences(t["players"], t["games"], "tip", "base", focal=1)
    assert len(opp) == 24 and (opp["strategy_a"] == "base").all() and (opp["diff"] == 0).all()
    assert len(stats.paired_differences(t["players"], t["games"], "tip", "base", focal=None)) == 36


def test_paired_differences_errors_and_unmatched() -> None:
    t = _tip_tables(n_deals=3)
    with pytest.raises(ValueError, match="no arm 'x'"):
        stats.paired_differences(t["players"], t["games"], "tip", "x")
    with pytest.raises(ValueError, match="games table"):
        stats.paired_differences(t["players"], None, "tip", "base")
    keep = ~((t["players"]["arm"] == "base") & (t["players"]["game_id"] == t["games"].loc[
        t["games"]["arm"] == "base", "game_id"].iloc[0]))
    with pytest.warns(UserWarning, match="3 of 9 focal rows"):
        d = stats.paired_differences(t["players"][keep], t["games"], "tip", "base")
    assert len(d) == 6


def test_paired_comparison_known_effect_and_variance_reduction() -> None:
    t = _tip_tables(n_deals=400)
    r = stats.paired_comparison(t["players"], t["games"], "tip", "base")
    assert len(r) == 1
    row = r.iloc[0]
    assert row["n_pairs"] == 1200 and row["n_deals"] == 400
    assert row["diff_lo"] < 3 < row["diff_hi"]
    assert row["diff"] == pytest.approx(3, abs=0.4)
    # paired variance 2·(noise² + rounding) vs unpaired 2·(luck² + noise² + rounding)
    expected = (4 + 1 / 12) / (64 + 4 + 1 / 12)
    assert row["var_ratio"] == pytest.approx(expected, abs=0.03)
    assert row["variance_removed"] == pytest.approx(1 - expected, abs=0.03)
    assert row["se_paired"] < row["se_unpaired"]
    assert row["p_value"] < 1e-6
    assert row["win_diff_lo"] < row["win_diff"] < row["win_diff_hi"]
    assert row["win_a"] - row["win_b"] == pytest.approx(row["win_diff"])


def test_paired_comparison_is_a_t_interval_over_deals() -> None:
    t = _tip_tables(n_deals=5)
    pairs = stats.paired_differences(t["players"], t["games"], "tip", "base")
    per_deal = pairs.groupby("seed")[["diff", "win_diff"]].mean()
    assert len(pairs) == 15 and len(per_deal) == 5
    r = stats.paired_comparison(t["players"], t["games"], "tip", "base").iloc[0]
    q = 2.776445  # t quantile, 4 degrees of freedom
    d = per_deal["diff"]
    half = q * d.std(ddof=1) / math.sqrt(5)
    assert (r["n_pairs"], r["n_deals"]) == (15, 5)
    assert r["diff"] == pytest.approx(d.mean())
    assert (r["diff_lo"], r["diff_hi"]) == (pytest.approx(d.mean() - half, rel=1e-6),
                                            pytest.approx(d.mean() + half, rel=1e-6))
    assert r["se_paired"] == pytest.approx(d.std(ddof=1) / math.sqrt(5))
    assert r["p_value"] == pytest.approx(stats.t_sf(d.mean() / r["se_paired"], 4))
    w = per_deal["win_diff"]
    whalf = q * w.std(ddof=1) / math.sqrt(5)
    assert r["win_diff_lo"] == pytest.approx(max(w.mean() - whalf, -1.0))
    assert r["win_diff_hi"] == pytest.approx(min(w.mean() + whalf, 1.0))
    assert stats.deal_means(pairs)["diff"].tolist() == pytest.approx(d.tolist())


def test_paired_win_interval_stays_within_its_range() -> None:
    # two deals: t has one degree of freedom (12.7), the win interval is cut to [-1, 1]
    t = synthetic_tables({"tip": ["plus9", "base"], "base": ["base"]}, n_deals=2,
                         n_players=2, luck_sd=1.0, noise_sd=20.0, seed=4, detail=False)
    r = stats.paired_comparison(t["players"], t["games"], "tip", "base").iloc[0]
    assert r["n_deals"] == 2
    assert -1.0 <= r["win_diff_lo"] <= r["win_diff"] <= r["win_diff_hi"] <= 1.0
    assert r["diff_hi"] - r["diff_lo"] > 0


def test_paired_comparison_null_and_identical_arms() -> None:
    t = synthetic_tables({"same": ["base", "other"], "base": ["base", "other"]}, n_deals=300,
                         n_players=2, base=100, detail=False)
    r = stats.paired_comparison(t["players"], t["games"], "same", "base").iloc[0]
    assert r["diff_lo"] < 0 < r["diff_hi"] and r["p_value"] > 0.001
    t0 = synthetic_tables({"same": ["base"], "base": ["base"]}, n_deals=20, n_players=2,
                          noise_sd=0.0)
    r0 = stats.paired_comparison(t0["players"], t0["games"], "same", "base").iloc[0]
    assert r0["diff"] == 0 and r0["se_paired"] == 0 and r0["p_value"] == 1.0


def test_paired_comparison_one_row_per_condition() -> None:
    t = _tables(
        synthetic_tables({"tip": ["plus2", "base"], "base": ["base"]}, n_deals=50,
                         n_players=2),
        synthetic_tables({"tip": ["plus2", "base", "base"], "base": ["base"]}, n_deals=50,
                         n_players=3, game_id_start=10_000),
    )
    r = stats.paired_comparison(t["players"], t["games"], "tip", "base")
    assert r["n_players"].tolist() == [2, 3]
    assert r["n_pairs"].tolist() == [100, 150]
    pooled = stats.paired_comparison(t["players"], t["games"], "tip", "base", by=[])
    assert len(pooled) == 1 and pooled["n_pairs"][0] == 250


def test_holm() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted 0.005, 0.01, 0.03, 0.04 → ×4, ×3, ×2, ×1 = 0.02, 0.03, 0.06, 0.04 → monotone
    assert stats.holm(p).tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.04, 0.01]).tolist() == pytest.approx([0.04, 0.02])
    assert stats.holm([0.9, 0.8]).tolist() == [1.0, 1.0]
    assert stats.holm([0.6, 0.5, 0.01]).tolist() == pytest.approx([1.0, 1.0, 0.03])
    out = stats.holm([np.nan, 0.01, 0.02])
    assert np.isnan(out[0]) and out[1:].tolist() == pytest.approx([0.02, 0.02])
    assert stats.holm([]).size == 0


def test_compare_arms_family() -> None:
    t = synthetic_tables({"good": ["plus3", "base"], "null1": ["base", "base2"],
                          "null2": ["base2", "base"], "base": ["base"]}, n_deals=150,
                         n_players=2, base=100, noise_sd=2.0, detail=False)
    c = stats.compare_arms(t["players"], t["games"], "base")
    assert c["arm_a"].tolist() == ["good", "null1", "null2"]
    assert c["significant"].tolist() == [True, False, False]
    assert (c["p_holm"] >= c["p_value"]).all()
    assert c["p_holm"].tolist() == pytest.approx(stats.holm(c["p_value"]).tolist())
    with pytest.raises(ValueError, match="no arm to compare"):
        stats.compare_arms(t["players"], t["games"], "base", arms=[])


# ------------------------------------------------------------------ Plackett–Luce


def _pl_players(log_strength: dict[str, float], n_games: int, n_players: int,
                seed: int) -> pd.DataFrame:
    """Placements drawn from the Plackett–Luce model (Gumbel trick)."""
    rng = np.random.default_rng(seed)
    names = list(log_strength)
    ls = np.array([log_strength[n] for n in names])
    comp = rng.integers(0, len(names), size=(n_games, n_players))
    u = ls[comp] + rng.gumbel(size=comp.shape)
    rank = (-u).argsort(axis=1).argsort(axis=1) + 1
    return pd.DataFrame({
        "experiment": "", "arm": "", "game_id": np.repeat(np.arange(n_games), n_players),
        "seat": np.tile(np.arange(n_players), n_games),
        "strategy": np.array(names)[comp.ravel()], "rank": rank.ravel(),
    })


def test_plackett_luce_recovers_strengths() -> None:
    truth = {"a": 0.8, "b": 0.2, "c": -0.3, "d": -0.7}
    p = _pl_players(truth, 3000, 4, seed=1)
    r = stats.plackett_luce(p, n_boot=300).set_index("strategy")
    centred = {k: v - np.mean(list(truth.values())) for k, v in truth.items()}
    for k, v in centred.items():
        assert r.loc[k, "log_strength"] == pytest.approx(v, abs=0.1)
    covered = sum(r.loc[k, "lo"] <= v <= r.loc[k, "hi"] for k, v in centred.items())
    assert covered >= 3
    assert r["log_strength"].mean() == pytest.approx(0, abs=1e-9)
    assert r["strength"].sum() == pytest.approx(1)
    assert r.loc["a", "elo"] == pytest.approx(r.loc["a", "log_strength"] * 400 / math.log(10))
    assert r.attrs["iterations"] < 1000
    ref = stats.plackett_luce(p, n_boot=0, ref="d").set_index("strategy")
    assert ref.loc["d", "log_strength"] == 0
    assert ref.loc["a", "log_strength"] == pytest.approx(
        r.loc["a", "log_strength"] - r.loc["d", "log_strength"], abs=1e-6)


def test_plackett_luce_two_players_is_bradley_terry() -> None:
    # a beats b in 30 of 40 two-player games: MLE log(γa/γb) = log(30/10)
    n = 40
    rank_a = np.r_[np.ones(30, int), np.full(10, 2)]
    p = pd.DataFrame({"experiment": "", "arm": "", "game_id": np.repeat(np.arange(n), 2),
                      "seat": np.tile([0, 1], n), "strategy": np.tile(["a", "b"], n),
                      "rank": np.column_stack([rank_a, 3 - rank_a]).ravel()})
    r = stats.plackett_luce(p, n_boot=0, prior=0.0).set_index("strategy")
    assert r.loc["a", "log_strength"] - r.loc["b", "log_strength"] == pytest.approx(
        math.log(3), abs=1e-6)
    # the weak prior shrinks a little towards equal strength
    shrunk = stats.plackett_luce(p, n_boot=0).set_index("strategy")
    gap = shrunk.loc["a", "log_strength"] - shrunk.loc["b", "log_strength"]
    assert 0.9 * math.log(3) < gap < math.log(3)


def test_plackett_luce_ties_and_unrated_items() -> None:
    p = _pl_players({"a": 0.5, "b": 0.0, "c": -0.5}, 400, 3, seed=2)
    strict = stats.plackett_luce(p, n_boot=0)
    rnd = stats.plackett_luce(p, n_boot=0, ties="random")
    assert strict["log_strength"].tolist() == pytest.approx(rnd["log_strength"].tolist())
    tied = p.copy()
    tied.loc[tied["rank"] == 2, "rank"] = 1  # first two tie in every game
    br = stats.plackett_luce(tied, n_boot=50).set_index("strategy")
    assert br.loc["a", "log_strength"] > br.loc["c", "log_strength"]
    # a strategy only ever playing against itself cannot be rated
    solo = pd.DataFrame({"experiment": "", "arm": "x", "game_id": [0, 0], "seat": [0, 1],
                         "strategy": ["z", "z"], "rank": [1, 2]})
    r = stats.plackett_luce(pd.concat([p, solo], ignore_index=True), n_boot=20)
    assert np.isnan(r.set_index("strategy").loc["z", "log_strength"])
    with pytest.raises(ValueError, match="ties"):
        stats.plackett_luce(p, ties="nope")


# ------------------------------------------------------------------ seats


def test_seat_advantage_known_bonus() -> None:
    t = synthetic_tables(["base"], n_deals=300, n_players=4, seat_bonus=[4, 0, 0, 0],
                         detail=False)
    s = stats.seat_advantage(t["players"], t["games"])
    assert s["seat"].tolist() == [0, 1, 2, 3]
    assert s["win_rate"][0] > 0.33 and s["p_wins"][0] < 1e-6 and s["p_score"][0] < 1e-6
    assert s["test"][0] == "chi2" and (s["fair"] == 0.25).all()
    assert s["win_rate"].sum() == pytest.approx(1)
    fair = synthetic_tables(["base"], n_deals=300, n_players=4, seed=3, detail=False)
    f = stats.seat_advantage(fair["players"], fair["games"])
    assert f["p_wins"][0] > 0.001
    assert ((f["win_lo"] < 0.25) & (f["win_hi"] > 0.25)).sum() >= 3


def _seat_frame(wins_by_game: list[int], k: int = 3) -> pd.DataFrame:
    rows = []
    for g, w in enumerate(wins_by_game):
        for seat in range(k):
            rows.append(("", "", g, seat, float(seat == w), (k - seat) + 10 * (seat == w),
                         k, "base_3p"))
    return pd.DataFrame(rows, columns=["experiment", "arm", "game_id", "seat", "win_share",
                                       "total", "n_players", "side"])


def test_seat_advantage_tests_by_hand() -> None:
    # 20 games: seat 0 wins 10, seats 1 and 2 five each: chi2 = 2.5 on 2 df
    s = stats.seat_advantage(_seat_frame([0] * 10 + [1] * 5 + [2] * 5))
    assert s["chi2"][0] == pytest.approx(2.5)
    assert s["p_wins"][0] == pytest.approx(math.exp(-1.25))
    assert s["games"][0] == 20
    # Friedman: seat 0 always top scorer, then 1, then 2: Q = games·(k − 1)
    s0 = stats.seat_advantage(_seat_frame([0] * 20))
    assert s0["friedman"][0] == pytest.approx(40)
    # few games: Monte Carlo test (expected count < 5)
    small = stats.seat_advantage(_seat_frame([0, 0, 0, 1, 2, 0]))
    assert small["test"][0] == "mc" and 0 < small["p_wins"][0] <= 1
    assert stats.seat_advantage(_seat_frame([0, 1, 2]), test="chi2")["p_wins"][0] == 1.0


# ------------------------------------------------------------------ game quality


def _turn_frame(game: int, proj: list[list[int]], rounds: list[int]) -> pd.DataFrame:
    """One row per player per turn: proj[turn][seat]."""
    rows = []
    for i, (vals, r) in enumerate(zip(proj, rounds, strict=True)):
        for seat, v in enumerate(vals):
            rows.append(("", "", game, r, i + 1, seat, v))
    return pd.DataFrame(rows, columns=["experiment", "arm", "game_id", "round", "turn", "seat",
                                       "projected"])


def test_lead_changes_by_hand() -> None:
    g0 = _turn_frame(0, [[0, 0], [2, 0], [2, 2], [2, 3], [5, 3], [5, 5], [5, 4]],
                     [1, 1, 2, 2, 3, 3, 4])  # 0 leads, tie, 1 leads, 0 leads, tie, 0 again
    g1 = _turn_frame(1, [[0, 0, 0], [0, 1, 0], [0, 1, 2]], [1, 1, 1])
    lc = stats.lead_changes(pd.concat([g0, g1], ignore_index=True))
    assert lc["lead_changes"].tolist() == [2, 1]


def test_leader_wins_by_hand() -> None:
    turns = pd.concat([
        _turn_frame(0, [[1, 0], [1, 2], [3, 3]], [1, 2, 3]),  # leaders: 0, 1, both
        _turn_frame(1, [[1, 0], [2, 0]], [1, 2]),  # leader 0 twice, game over after round 2
    ], ignore_index=True)
    players = pd.DataFrame({"experiment": "", "arm": "", "game_id": [0, 0, 1, 1],
                            "seat": [0, 1, 0, 1], "win": [True, False, True, False]})
    lw = stats.leader_wins(turns, players).set_index("round")
    assert lw["games"].tolist() == [2, 2, 1]
    assert lw["leader_wins"].tolist() == [2.0, 1.0, 0.5]


def test_game_quality_synthetic() -> None:
    t = synthetic_tables(["base", "plus2"], n_deals=20, n_players=3, rounds=6, wander=0.0,
                         end_reasons={"cities": 1.0})
    q = stats.game_quality(t["games"], t["players"], t["turns"])
    assert q.summary["games"].tolist() == [60]
    assert q.summary["lead_changes_mean"][0] == 0  # linear paths: the lead never changes
    assert q.summary["rounds_mean"][0] == 6
    assert q.leader_wins.set_index("round")["rate"][6] == 1.0
    assert q.end_reasons[["end_reason", "share"]].values.tolist() == [["cities", 1.0]]
    per = q.per_game.merge(t["players"].groupby("game_id")["total"].agg(["max", "min"]),
                           on="game_id")
    assert (per["spread"] == per["max"] - per["min"]).all()
    assert (per["margin"] >= 0).all()
    wandering = synthetic_tables(["base"], n_deals=20, n_players=3, rounds=6, wander=30.0)
    q2 = stats.game_quality(wandering["games"], wandering["players"], wandering["turns"])
    assert q2.summary["lead_changes_mean"][0] > 0
    pooled = stats.game_quality(t["games"], t["players"], t["turns"], by=[])
    assert list(pooled.summary.columns[:2]) == ["games", "rounds_mean"]
    assert pooled.summary["games"].tolist() == [60] and len(pooled.leader_wins) == 6
    no_turns = stats.game_quality(t["games"], t["players"])
    assert "lead_changes" not in no_turns.per_game and no_turns.leader_wins.empty


def _random_games(n: int, n_players: int = 3) -> dict[str, pd.DataFrame]:
    parts = [record_game(GameConfig(n_players, seed=s), ["random"] * n_players, game_id=s)
             for s in range(n)]
    return {table: to_frame(table, concat_rows([p[table] for p in parts]))
            for table in ("games", "players", "turns", "events")}


def test_real_games_end_to_end(tmp_path: object) -> None:
    t = _random_games(3)
    q = stats.game_quality(t["games"], t["players"], t["turns"])
    assert q.per_game["lead_changes"].ge(0).all()
    # the last snapshot's projected score is the final score
    last = t["turns"][t["turns"]["turn"] == t["turns"].groupby("game_id")["turn"]
                      .transform("max")]
    m = last.merge(t["players"], on=["experiment", "arm", "game_id", "seat"])
    assert (m["projected"] == m["total"]).all()
    s = stats.seat_advantage(t["players"], t["games"])
    assert s["n"].tolist() == [3, 3, 3]
    assert len(stats.plackett_luce(t["players"], n_boot=10)) == 1
    for fig in (plots.plot_ability_timing(t["events"], t["players"]),
                plots.plot_trajectories(t["turns"], t["players"]),
                plots.plot_score_breakdown(t["players"])):
        assert isinstance(fig, Figure)


# ------------------------------------------------------------------ group-sequential


def test_bounds_match_published_values() -> None:
    t = [0.2, 0.4, 0.6, 0.8, 1.0]  # gsDesign / rpact, two-sided α = 0.05, 5 equal looks
    assert stats.group_sequential_bounds(t, 0.05, "obf").tolist() == pytest.approx(
        [4.8769, 3.3569, 2.6803, 2.2898, 2.0310], abs=2e-3)
    assert stats.group_sequential_bounds(t, 0.05, "pocock").tolist() == pytest.approx(
        [2.4380, 2.4268, 2.4101, 2.3966, 2.3859], abs=2e-3)
    assert stats.group_sequential_bounds([1.0], 0.01).tolist() == pytest.approx([2.5758], abs=1e-3)
    with pytest.raises(ValueError, match="increase"):
        stats.group_sequential_bounds([0.5, 0.4])
    with pytest.raises(ValueError, match="spending"):
        stats.alpha_spent([0.5], 0.05, "nope")


@pytest.mark.parametrize("spending", ["obf", "pocock"])
def test_bounds_spend_alpha_as_designed(spending: str) -> None:
    """Brownian motion at uneven looks: the simulated chance of having crossed by look k
    is the alpha spent by then."""
    t = np.array([0.1, 0.25, 0.55, 0.9, 1.0])
    c = stats.group_sequential_bounds(t, 0.05, spending)
    rng = np.random.default_rng(0)
    z = (rng.normal(size=(200_000, len(t))) * np.sqrt(np.diff(np.r_[0, t]))).cumsum(1)
    crossed = np.maximum.accumulate(np.abs(z / np.sqrt(t)) >= c, axis=1).mean(axis=0)
    assert crossed == pytest.approx(stats.alpha_spent(t, 0.05, spending), abs=0.0015)


def test_planned_pairs() -> None:
    fixed = stats.planned_pairs(2.0, 10.0, n_looks=1)
    assert fixed == math.ceil(((1.959964 + 0.841621) * 10 / 2.0) ** 2)
    obf = stats.planned_pairs(2.0, 10.0, n_looks=5) / fixed
    pocock = stats.planned_pairs(2.0, 10.0, n_looks=5, spending="pocock") / fixed
    assert 1.015 < obf < 1.035  # Jennison & Turnbull: R ≈ 1.026
    assert 1.17 < pocock < 1.25
    with pytest.raises(ValueError):
        stats.planned_pairs(0.0, 1.0)


def _normal_batches(mean: float, sd: float, seed: int) -> Callable[[int], np.ndarray]:
    rng = np.random.default_rng(seed)
    return lambda n: rng.normal(mean, sd, n)


def test_sequential_decides_large_effects_early() -> None:
    res = stats.sequential_compare(_normal_batches(4.0, 10.0, 0), effect=2.0, max_pairs=2000,
                               batch_size=100)
    assert res.decision == "A better" and res.n_pairs < 2000 and res.lo > 0
    neg = stats.sequential_compare(_normal_batches(-4.0, 10.0, 1), effect=2.0, max_pairs=2000,
                               batch_size=100)
    assert neg.decision == "B better" and neg.hi < 0
    assert list(res.looks.columns[:3]) == ["look", "n", "t"]
    assert res.looks["alpha_spent"].is_monotonic_increasing
    assert "A better after" in str(res)


def test_sequential_no_difference_and_budget() -> None:
    eq = stats.sequential_compare(_normal_batches(0.0, 10.0, 2), effect=3.0, max_pairs=3000,
                              batch_size=200)
    assert eq.decision == "no difference" and -3 < eq.lo < eq.hi < 3
    small = stats.sequential_compare(_normal_batches(0.0, 10.0, 3), effect=0.2, max_pairs=500,
                                 batch_size=100)
    assert small.decision == "budget exhausted" and small.n_pairs == 500
    assert small.looks["t"].iloc[-1] == 1.0
    # identical arms: every paired difference is 0
    same = stats.sequential_compare(lambda n: np.zeros(n), effect=1.0, max_pairs=100,
                                batch_size=20)
    assert same.decision == "no difference" and same.n_pairs == 20


def test_sequential_error_rate_near_alpha() -> None:
    decisions = [stats.sequential_compare(_normal_batches(0.0, 10.0, 100 + i), effect=1.0,
                                      max_pairs=800, batch_size=100).decision
                 for i in range(300)]
    wrong = sum(d in ("A better", "B better") for d in decisions) / len(decisions)
    assert 0.01 <= wrong <= 0.09  # α = 0.05 (3000 repetitions gave 0.050)


@pytest.mark.slow
def test_sequential_power_mode_error_and_power() -> None:
    def run(mean: float, i: int) -> stats.SequentialResult:
        return stats.sequential_compare(_normal_batches(mean, 10.0, 500 + i), effect=2.0,
                                    power=0.8, max_pairs=5000, batch_size=100)

    null = [run(0.0, i).decision for i in range(200)]
    assert sum(d != "no difference" for d in null) / 200 <= 0.09
    alt = [run(2.0, i) for i in range(200)]
    power = sum(r.decision == "A better" for r in alt) / 200
    assert 0.7 <= power <= 0.9
    assert max(r.max_pairs for r in alt) < 5000  # the planned size, not the budget


def test_sequential_accepts_frames_and_tables() -> None:
    seen: list[dict[str, object]] = []
    deal = [0]

    def batch(deals: int) -> tuple[pd.DataFrame, pd.DataFrame]:
        t = synthetic_tables({"tip": ["plus3", "base"], "base": ["base"]}, n_deals=deals,
                             n_players=2, base=100, noise_sd=1.0, seed=deal[0],
                             seed_start=deal[0], game_id_start=10 * deal[0], detail=False)
        deal[0] += deals
        return t["players"], t["games"]

    res = stats.sequential_compare(batch, effect=1.0, arm_a="tip", arm_b="base", max_pairs=400,
                               batch_size=20, on_look=seen.append)
    assert res.decision == "A better" and len(seen) == len(res.looks)
    # the unit is the deal: its two rotations are averaged into one difference
    assert res.n_pairs == deal[0] and res.differences.mean() == pytest.approx(3, abs=0.5)
    frame = stats.sequential_compare(lambda n: pd.DataFrame({"diff": np.full(n, 5.0) +
                                                         np.arange(n) % 3}),
                                 effect=1.0, max_pairs=100, batch_size=30)
    assert frame.decision == "A better"
    with pytest.raises(ValueError, match="arm_a"):
        stats.sequential_compare(batch, effect=1.0)


def test_sequential_drives_the_runner() -> None:
    run = runner_batches({"tip": ["random:establish=false", "random"], "base": ["random"]},
                           n_players=2)
    res = stats.sequential_compare(run, effect=50.0, arm_a="tip", arm_b="base", max_pairs=4,
                               batch_size=2, min_pairs=2)
    assert res.decision in ("A better", "B better", "no difference", "budget exhausted")
    assert res.n_pairs in (2, 4) and len(res.differences) == res.n_pairs
    assert res.looks["n"].tolist()[0] == 2


# ------------------------------------------------------------------ plots


def test_plots_return_figures_and_save(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "nested" / "dir"
    t = synthetic_tables({"tip": ["plus3", "base"], "base": ["base"]}, n_deals=30,
                         n_players=2, wander=10.0)
    t3 = synthetic_tables(["plus3", "base", "base"], n_deals=20, n_players=3,
                          game_id_start=5000)
    both = _tables(t, t3)
    ratings = stats.plackett_luce(both["players"], n_boot=50)
    cmp = stats.compare_arms(t["players"], t["games"], "base")
    seq = stats.sequential_compare(_normal_batches(1.0, 5.0, 0), effect=1.0, max_pairs=600,
                               batch_size=100)
    figs = {
        "breakdown": plots.plot_score_breakdown(both["players"]),
        "abilities": plots.plot_ability_timing(both["events"], both["players"], time="round"),
        "trajectories": plots.plot_trajectories(both["turns"], both["players"]),
        "seats": plots.plot_seat_advantage(stats.seat_advantage(both["players"], both["games"])),
        "ends": plots.plot_end_reasons(both["games"]),
        "ratings": plots.plot_ratings(ratings),
        "compare": plots.plot_comparison(cmp),
        "leader": plots.plot_leader_wins(both["turns"], both["players"], both["games"]),
        "sequential": plots.plot_sequential(seq),
    }
    for name, fig in figs.items():
        assert isinstance(fig, Figure), name
        assert fig.get_suptitle() or any(ax.get_title() for ax in fig.axes), name
    # one panel per player count on one shared scale; the total and every category,
    # labelled in the game's words
    bd = figs["breakdown"]
    assert [ax.get_title() for ax in bd.axes] == ["2 players", "3 players"]
    assert bd.axes[0].get_shared_y_axes().joined(bd.axes[0], bd.axes[1])
    assert [t.get_text().replace("\n", " ") for t in bd.axes[0].get_xticklabels()] == [
        "total", "prestige track", "abilities", "bonus markers",
        "Coellen / special prestige", "city control", "network"]
    path = out / "ratings.png"
    plots.plot_ratings(ratings, save=path)
    assert path.stat().st_size > 1000
    plots.plot_end_reasons(both["games"], by=[], save=out / "ends.pdf")
    assert (out / "ends.pdf").exists()
    with pytest.raises(ValueError, match="scale"):
        plots.plot_ratings(ratings, scale="nope")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no stray warnings from the plots
        plots.plot_comparison(cmp)


# ------------------------------------------------------------------ tables people read


def test_result_frames_show_their_essential_columns_readably() -> None:
    """The issue's case: compare_arms returned 25 columns and pandas hid the p-values and
    intervals behind "…"; counts printed as 2.000. The frame keeps every column and
    displays the essential ones: percentages as percentages, counts as integers, an
    interval in its estimate's cell, p-values as format_p gives them, <NA> for missing."""
    t = synthetic_tables({"tip": ["plus3", "base"], "same": ["base"], "base": ["base"]},
                         n_deals=20, n_players=2, noise_sd=1.0, seed=5)
    c = stats.compare_arms(t["players"], t["games"], "base")
    assert len(c.full.columns) == 25 and "p_win_holm" in c.columns  # all there
    shown = c.shown
    # the score test's p-value and the flag beside the score difference; win share after
    assert list(shown.columns) == ["arm_a", "arm_b", "n_deals", "diff", "p_holm",
                                   "significant", "win_diff"]
    text = repr(c)
    assert "..." not in text and "…" not in text and "more columns in .full" in text
    assert shown["n_deals"].tolist() == ["20", "20"]
    assert shown["win_diff"][0].endswith("%]") and "%" in shown["win_diff"][0].split()[0]
    assert shown["p_holm"][0] == stats.format_p(float(c["p_holm"][0]))
    assert isinstance(c[["arm_a", "p_holm"]], pd.DataFrame)
    seats = stats.seat_advantage(t["players"], t["games"])
    assert seats.shown["win_rate"][0].count("%") == 3 and seats.shown["fair"][0] == "50.0%"
    balance = stats.balance_table(t["players"], t["games"])
    assert (balance.shown["lead_changes"].isna()).all()  # no turns table: <NA>, not NaN
    assert "<NA>" in repr(balance)
