"""Move analysis: what each choice of a position is worth, by playing the game on many times.

For the player deciding in a position, :func:`analyse_moves` plays ``n`` continuations of
the game after each candidate action with a chosen line-up and reports the candidate's
expected final score and win probability with intervals. The continuations are paired
across candidates: continuation ``j`` of every candidate uses the same strategy streams
(seed ``seed + j``) and the same order of the face-down bonus markers, so the differences
between candidates are not blurred by luck (common random numbers). The bonus-marker bag
is hidden information: by default each continuation re-deals its remaining order
(``redeal=True``), so the analysis does not profit from knowing the real draws.

:func:`continuations` is the what-if as a distribution (``n`` continuations from a
position, every seat's final score), and :func:`costly_decisions` walks a recorded game
and lists the decisions that cost the deciding player the most against the best
candidate found.

Cost: every candidate × continuation is a game played to its end, so use cheap line-ups
(``random``) or few candidates (``top_k``) with the Python engine.

>>> from hansa_lab.engine.state import GameConfig, new_game
>>> table = analyse_moves(new_game(GameConfig(3, seed=2)), "random", n=4, top_k=3)
>>> list(table.columns[:4]), len(table)
(['action', 'move', 'n', 'mean_score'], 3)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from hansa_lab.engine.actions import Action, format_action
from hansa_lab.engine.observe import determinise
from hansa_lab.engine.rng import MASK, Rng, mix64
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import final_scores, ranking
from hansa_lab.engine.state import GameConfig, State
from hansa_lab.play import DEFAULT_ENGINE, play_on, states_of
from hansa_lab.stats.intervals import t_quantile, wilson_interval
from hansa_lab.strategies import Strategy, make_strategy
from hansa_lab.strategies.lineup import parse_lineup

__all__ = ["analyse_moves", "continuation_summary", "continuations", "costly_decisions",
           "redeal"]


#: mixed into a continuation's seed to give its re-deal a stream of its own
_REDEAL_STREAM = 0x72656465616C  # "redeal"


def redeal(state: State, key: int | str) -> State:
    """A copy of ``state`` whose face-down bonus markers are in a fresh order drawn from
    ``key`` (what the players cannot know); everything else unchanged. The one
    determinisation of the Python engine
    (:func:`~hansa_lab.engine.observe.determinise`), on a stream derived from ``key``
    (an integer, or text hashed to one)."""
    if isinstance(key, str):
        key = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
    return determinise(state, Rng(mix64((key ^ _REDEAL_STREAM) & MASK)))


def _outcome(state: State, lineup: Sequence[str | Strategy], seed: int,
             redeal_key: int | None) -> tuple[list[int], list[float]]:
    start = redeal(state, redeal_key) if redeal_key is not None else state
    final = (play_on(start, lineup, seed=seed, engine=DEFAULT_ENGINE).final
             if not start.is_over else start)
    ranks = ranking(final)
    n_first = ranks.count(1)
    return final_scores(final), [1.0 / n_first if r == 1 else 0.0 for r in ranks]


def continuations(state: State, strategies: str | Sequence[str | Strategy], n: int = 20,
                  *, seed: int = 0, redeal_bag: bool = True) -> pd.DataFrame:
    """``n`` continuations of the game from ``state`` with a line-up: one row per
    continuation and seat (``continuation, seat, score, win_share``) — the what-if as a
    distribution. Continuation ``j`` uses seed ``seed + j`` (and a re-dealt bag)."""
    lineup = parse_lineup(strategies, state.n_players)
    rows = []
    for j in range(n):
        key = seed + j if redeal_bag else None
        scores, wins = _outcome(state, lineup, seed + j, key)
        rows += [(j, p, scores[p], wins[p]) for p in range(state.n_players)]
    return pd.DataFrame(rows, columns=["continuation", "seat", "score", "win_share"])


def continuation_summary(dist: pd.DataFrame, ci: float = 0.95) -> pd.DataFrame:
    """Per seat, the final scores of :func:`continuations`: ``n``, ``mean_score`` with its
    t interval ``score_lo``/``score_hi``, ``median``, ``min``, ``max`` and ``win_rate``
    with its Wilson interval ``win_lo``/``win_hi``."""
    rows = []
    for seat, g in dist.groupby("seat", sort=True):
        x = g["score"].to_numpy(dtype=float)
        n = len(x)
        half = (t_quantile(0.5 + ci / 2, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
                if n > 1 else math.nan)
        lo, hi = wilson_interval(float(g["win_share"].sum()), n, ci)
        rows.append({"seat": int(seat), "n": n, "mean_score": float(x.mean()),
                     "score_lo": float(x.mean()) - half, "score_hi": float(x.mean()) + half,
                     "median": float(np.median(x)), "min": float(x.min()),
                     "max": float(x.max()), "win_rate": float(g["win_share"].mean()),
                     "win_lo": lo, "win_hi": hi})
    return pd.DataFrame(rows)


def _candidates(state: State, lineup: Sequence[str | Strategy], top_k: int | None,
                candidates: Sequence[Action] | None, actual: Action | None,
                rank_by: str | Strategy | None) -> list[Action]:
    legal = legal_actions(state)
    if candidates is not None:
        chosen = list(candidates)
    elif top_k is None or top_k >= len(legal):
        chosen = legal
    else:
        # ranked by a strategy's own evaluation: ``rank_by``, else the deciding seat's
        # strategy when it values positions, else greedy's evaluation
        player = state.current_player
        ranker = make_strategy(rank_by if rank_by is not None else lineup[player])
        value = getattr(ranker, "value", None)
        if not callable(value):
            value = make_strategy("greedy").value  # type: ignore[attr-defined]
        scored = sorted(range(len(legal)), key=lambda i: (
            -value(apply(state, legal[i], check=False), player), i))
        chosen = [legal[i] for i in scored[:top_k]]
    if actual is not None and actual not in chosen:
        chosen.append(actual)
    illegal = [a for a in chosen if a not in legal]
    if illegal:
        raise ValueError(f"not legal in this position: {format_action(state.board, illegal[0])}")
    return chosen


def analyse_moves(
    state: State,
    strategies: str | Sequence[str | Strategy],
    n: int = 20,
    *,
    seed: int = 0,
    top_k: int | None = None,
    candidates: Sequence[Action] | None = None,
    actual: Action | None = None,
    rank_by: str | Strategy | None = None,
    redeal_bag: bool = True,
    ci: float = 0.95,
) -> pd.DataFrame:
    """Each candidate action of the player deciding in ``state``, valued by ``n`` paired
    continuations with the line-up ``strategies``.

    Candidates: ``candidates``, else every legal action, or the ``top_k`` best by a
    strategy's own evaluation (``rank_by``; default the deciding seat's strategy when it
    values positions, else ``greedy``); ``actual`` (the move really played) is always
    included and marked.

    One row per candidate, best expected score first: ``action`` (text), ``move`` (the
    :class:`Action`), ``n``,
    ``mean_score`` with its t interval ``score_lo``/``score_hi``, ``win_rate`` (win
    shares) with its Wilson interval ``win_lo``/``win_hi``, ``vs_best`` — the paired
    mean difference to the best candidate (0 for the best) with its t interval
    ``vs_best_lo``/``vs_best_hi`` — and ``actual``."""
    if state.is_over:
        raise ValueError("the game is over: there is no decision to analyse")
    if n < 2:
        raise ValueError(f"n must be at least 2 continuations, got {n}")
    lineup = parse_lineup(strategies, state.n_players)
    player = state.current_player
    chosen = _candidates(state, lineup, top_k, candidates, actual, rank_by)
    scores = np.zeros((len(chosen), n))
    wins = np.zeros((len(chosen), n))
    for i, a in enumerate(chosen):
        after = apply(state, a)
        for j in range(n):
            key = seed + j if redeal_bag else None
            s, w = _outcome(after, lineup, seed + j, key)
            scores[i, j], wins[i, j] = s[player], w[player]
    q = t_quantile(0.5 + ci / 2, n - 1)
    means = scores.mean(axis=1)
    best = int(np.argmax(means))
    rows: list[dict[str, Any]] = []
    for i, a in enumerate(chosen):
        sd = float(scores[i].std(ddof=1))
        d = scores[i] - scores[best]
        d_half = q * float(d.std(ddof=1)) / math.sqrt(n)
        w_lo, w_hi = wilson_interval(float(wins[i].sum()), n, ci)
        rows.append({
            "action": format_action(state.board, a), "move": a, "n": n,
            "mean_score": float(means[i]),
            "score_lo": float(means[i]) - q * sd / math.sqrt(n),
            "score_hi": float(means[i]) + q * sd / math.sqrt(n),
            "win_rate": float(wins[i].mean()), "win_lo": w_lo, "win_hi": w_hi,
            "vs_best": float(d.mean()), "vs_best_lo": float(d.mean()) - d_half,
            "vs_best_hi": float(d.mean()) + d_half,
            "actual": a == actual,
        })
    out = pd.DataFrame(rows).sort_values("mean_score", ascending=False, kind="stable")
    return out.reset_index(drop=True)


def costly_decisions(
    config: GameConfig,
    actions: Sequence[Action],
    strategies: str | Sequence[str | Strategy],
    *,
    seat: int | None = None,
    n: int = 8,
    top_k: int = 4,
    every: int = 1,
    seed: int = 0,
    limit: int | None = None,
) -> pd.DataFrame:
    """The decisions of a recorded game (``config``, ``actions``) that cost the deciding
    player the most: at every ``every``-th position where ``seat`` (default: any seat)
    chooses among several actions, :func:`analyse_moves` with the ``top_k`` candidates
    and the actual move; ``cost`` = best candidate's expected score − the actual move's
    (paired, with its t interval ``cost_lo``/``cost_hi``). Rows sorted by cost, the
    largest first (``limit`` of them); ``position`` is the index of the state before the
    action (the viewer's position)."""
    states = states_of(config, list(actions))
    rows = []
    for i, action in enumerate(actions):
        s = states[i]
        if (seat is not None and s.current_player != seat) or i % every:
            continue
        if len(legal_actions(s)) < 2:
            continue
        table = analyse_moves(s, strategies, n, seed=seed + 1000 * i, top_k=top_k,
                              actual=action)
        mine = table[table["actual"]].iloc[0]
        top = table.iloc[0]
        rows.append({"position": i, "seat": s.current_player, "round": s.round,
                     "actual": mine["action"], "best": top["action"],
                     "cost": -float(mine["vs_best"]), "cost_lo": -float(mine["vs_best_hi"]),
                     "cost_hi": -float(mine["vs_best_lo"]),
                     "actual_score": float(mine["mean_score"]),
                     "best_score": float(top["mean_score"])})
    out = pd.DataFrame(rows, columns=["position", "seat", "round", "actual", "best", "cost",
                                      "cost_lo", "cost_hi", "actual_score", "best_score"])
    out = out.sort_values("cost", ascending=False, kind="stable").reset_index(drop=True)
    return out if limit is None else out.head(limit)
