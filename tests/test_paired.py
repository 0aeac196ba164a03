"""One place turns pairs into deal means: ``deal_means(..., by=...)`` gives every group's
deal means at once, the very rows of :func:`deal_means` called on each group's pairs, and
:func:`summarize_pairs` of a grouped frame is each group summarised alone."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hansa_lab.stats import deal_means, paired_differences, summarize_pairs, synthetic_tables

COLUMNS = ["diff", "value_a", "value_b", "win_diff"]


def pairs_with_groups() -> pd.DataFrame:
    """Pairs of 24 deals of two player counts, out of row order, with NaN values, a
    replicate key, a key that splits a deal's rotations and a key with missing values."""
    parts = []
    for k, n in enumerate((2, 3)):
        t = synthetic_tables({"tip": ["plus2", "base", "base"][:n], "base": ["base"]},
                             n_deals=12, n_players=n, seed=5 + k, noise_sd=6.0,
                             detail=False, game_id_start=1000 * k)
        parts.append(paired_differences(t["players"], t["games"], "tip", "base"))
    p = pd.concat(parts, ignore_index=True)
    rng = np.random.default_rng(2)
    for c in ("diff", "value_a", "win_a"):
        p.loc[rng.random(len(p)) < 0.1, c] = np.nan
    p["replicate"] = p["seed"] // 4
    p["half"] = np.where(p["rotation"] > 0, "late", "first")  # splits a deal
    p["maybe"] = (p["seed"] % 3).where(p["seed"] % 3 != 1)  # NaN keys: a group of its own
    return p.sample(frac=1.0, random_state=1)


def one_group_at_a_time(p: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """:func:`deal_means` of each ``by`` group's pairs, the group's keys in front."""
    parts = []
    for _, g in p.groupby(by, sort=True, dropna=False):
        d = deal_means(g, COLUMNS)
        keys = g[by].iloc[[0] * len(d)].reset_index(drop=True)
        parts.append(pd.concat([keys, d], axis=1))
    return pd.concat(parts, ignore_index=True)


BYS = [["replicate"], ["n_players"], ["half", "replicate"], ["maybe", "n_players"],
       ["replicate", "half", "n_players"]]


@pytest.mark.parametrize("seeded", [True, False], ids=["deals", "no seed"])
@pytest.mark.parametrize("by", BYS, ids=["+".join(b) for b in BYS])
def test_grouped_deal_means_are_each_groups_deal_means(by: list[str], seeded: bool) -> None:
    p = pairs_with_groups()
    if not seeded:  # every row its own deal
        p = p.drop(columns="seed")
    got = deal_means(p, COLUMNS, by=by)
    want = one_group_at_a_time(p, by)
    pd.testing.assert_frame_equal(got, want, check_exact=True, check_dtype=False)
    assert list(got.columns) == [*by, *COLUMNS]


def test_grouped_deal_means_keep_a_deal_split_by_the_key_apart() -> None:
    """A key that differs within a deal splits it: each part is averaged on its own (the
    means over whole deals would be the ungrouped call's)."""
    p = pd.DataFrame({"seed": [0, 0, 1, 1], "half": ["a", "b", "a", "b"],
                      "diff": [1.0, 3.0, 5.0, 9.0]})
    assert deal_means(p)["diff"].tolist() == [2.0, 7.0]
    got = deal_means(p, by="half")
    assert got.to_dict("list") == {"half": ["a", "a", "b", "b"], "diff": [1.0, 5.0, 3.0, 9.0]}
    assert deal_means(p.drop(columns="seed"), by="half")["diff"].tolist() == [1.0, 5.0,
                                                                              3.0, 9.0]


@pytest.mark.parametrize("seeded", [True, False], ids=["deals", "no seed"])
@pytest.mark.parametrize("by", BYS, ids=["+".join(b) for b in BYS])
def test_summarize_pairs_by_group_is_each_group_alone(by: list[str], seeded: bool) -> None:
    p = pairs_with_groups()
    if not seeded:
        p = p.drop(columns="seed")
    got = summarize_pairs(p, "tip", "base", by=by, ci=0.9)
    parts = []
    for _, g in p.groupby(by, sort=True, dropna=False):
        row = summarize_pairs(g, "tip", "base", by=[], ci=0.9)
        parts.append(pd.concat([g[by].iloc[:1].reset_index(drop=True), row], axis=1))
    want = pd.concat(parts, ignore_index=True)
    assert len(got) == p.groupby(by, dropna=False).ngroups > 1
    assert (got["n_deals"] < got["n_pairs"]).any() == seeded  # deals of several pairs
    assert got["mean_a"].notna().all()  # the means over pairs leave the NaN values out
    pd.testing.assert_frame_equal(got, want, check_exact=True, check_dtype=False)


def test_summarize_pairs_of_no_pairs_is_empty() -> None:
    p = pairs_with_groups().iloc[:0]
    assert summarize_pairs(p, "tip", "base", by="replicate").empty
