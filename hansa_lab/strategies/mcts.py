"""``mcts``: Monte Carlo tree search over the player's own turn, built on :func:`rules.apply`.

Design
======

A full-game rollout costs ~600 actions and is far too slow in pure Python, so the search
looks only to the end of the **planning horizon** and scores the positions there with the
documented evaluation :func:`~.evaluation.evaluate` (the same one ``greedy`` uses):

* **Horizon.** The tree holds the positions where the searching player decides, from the
  root to the end of its turn (when it is searching a sub-decision inside another
  player's turn, e.g. a relocation, until control goes back to that player). A
  sub-decision of an opponent *inside* the searching player's turn (relocating a
  displaced piece) is answered by the opponent's one-step best reply on its own
  evaluation, and the search continues after it.
* **Expansion.** Expanding a node applies every legal action once and scores the result
  with greedy's one-step value: the evaluation of the position, an action that opens a
  decision of the same player (a Move, a move-3/remove-3 marker) is worth its best first
  step, an action that completes a route is worth the best way of establishing it at
  once. Only the ``top_k`` best children are kept (progressive widening over them with
  ``widening``); Move steps that lead to the same position (same piece type leaving the
  same route for the same route) are tried once.
* **Selection** is UCT over the kept children, with each node's values rescaled to
  [0, 1] (so ``exploration`` does not depend on the evaluation's scale).
* **Backup.** Within the horizon every decision is the searching player's own, so a
  node's value is the *maximum* over its children (max-backup). A horizon position is
  worth its evaluation, or with ``rollout_depth > 0`` the *mean* over visits of a
  truncated rollout: ``rollout_depth`` further actions by all players, each picking the
  best of ``rollout_sample`` randomly sampled legal actions (an establishment whenever
  one is legal) on its own evaluation, then the evaluation.
* **Value.** ``evaluate(state, me, weights)`` (which already subtracts ``opponents`` ×
  the best opponent's projected score) minus ``rival`` × the best opponent's own
  evaluation.
* **Finishing the turn** (``finish_turn``, off by default). Each newly expanded node
  also plays out the rest of the turn with the rollout policy above (own decisions only);
  the value reached is a floor under the node's value (a line the player can really
  play, so max-backup stays sound).
* **Hidden information.** The search is shown the seat's view (the bag's draw order
  hidden) and plays on one determinisation of it per decision
  (:func:`~hansa_lab.engine.observe.determinise`, drawn from the seat's stream): the
  order in which its look-aheads draw replacement markers is a guess, never the real one.
* **Choice.** The root child with the highest value (ties broken by the random stream).
  With ``explore > 0`` it behaves like greedy when nothing improves the position: with
  that probability it plays a random action other than ``end``/``stop``/``decline``
  (keeps all-search tables from waiting for each other forever).

Budget and reproducibility
==========================

``iterations`` is the reproducible budget: the search uses randomness only from the
``rng`` passed to :meth:`MCTS.choose` (tie-breaks, rollout samples, ``explore``), so a
game is reproducible from (configuration, seed, actions) and from the strategy specs.
``time_limit`` (seconds per decision, ``0`` = off) additionally stops the search when the
time is up; the result then depends on the machine's speed and load. A decision with a
single legal action is played without search; the search stops early once every
branch of the (pruned) tree is fully evaluated.

Strength against ``greedy``
===========================

Measured with :func:`hansa_lab.tools.bench.bench_mcts_vs_greedy`: 4 players, base board,
game ``g`` is ``GameConfig(4, seed=first_seed + g)`` with one ``mcts`` in seat ``g % 4``
against three ``greedy``; a win shared by k tied players counts 1/k; the score difference is mcts's
final score minus the mean of its three opponents'.

The documented budget is the default: ``iterations=30`` (with ``exploration=10``,
``top_k=6``, no rollouts). ``tests/test_mcts.py`` asserts it (marked ``slow``): a Wilson
95 % lower bound of the win rate > 0.25, an exact binomial p < 0.01 and a mean score
difference > 0, on 16 games (seeds 0-15) in the bounded slow tier (``make test``) and on
32 (seeds 0-31) in the full one (``HANSA_LAB_SLOW=full``, ``make test-full``); it prints
the figures it asserts.

=======================  =====  ========  ===============  =========  ============  ======
run                      games  win rate  Wilson 95 %      p          score diff    s/game
=======================  =====  ========  ===============  =========  ============  ======
seeds 1000-1099 (fresh)  100    0.740     [0.646, 0.816]   1.3e-24    +14.4 ± 1.1   9.0
=======================  =====  ========  ===============  =========  ============  ======

(``bench_mcts_vs_greedy(n_games=100, first_seed=1000)``; p: one-sided exact binomial test
against 0.25; score diff: mean ± standard error; s/game: mean wall time of a whole game,
all four players included, games run in two worker processes (``n_jobs=2``) on a 2-core
machine shared with other jobs (max 36 s per game). Seeds 0-39 were also used to choose
``exploration`` and ``top_k``; seeds 1000-1099 were not.)
Mcts makes ~115 searched decisions per game, 31 ms each on average (p90 85 ms, max
0.3 s; the search stops early once the pruned tree is solved: 24 iterations on average).

Other budgets and settings (40 games each; win rate, score diff, s/game):

* seeds 1000-1039: ``iterations=0`` (the root expansion alone: greedy's one-step choice
  without its random exploration) 0.325, -1.0 (p = 0.18: no margin; the search makes
  it); ``iterations=10`` 0.75, +14.8, 2.9 s; ``30`` 0.75, +15.1, 4.7 s; ``60`` 0.725,
  +13.0, 6.4 s; ``finish_turn=true`` at 10 / 30 iterations 0.59 / 0.825 (no clear effect).
* seeds 0-39, ``iterations=30``: ``exploration`` 0.3 / 0.7 / 1.4 / 2.5 / 5 / 10 / 30 →
  0.525 / 0.55 / 0.65 / 0.725 / 0.75 / 0.90 / 0.875; at ``exploration=10``, ``top_k``
  4 / 6 / 8 → 0.70 / 0.90 / 0.65; at ``exploration=0.7``, ``rollout_depth=8`` 0.525 at
  twice the time and ``rival=0.5`` 0.60 at three times the time.

A large ``exploration`` works best because of max-backup: a child already expanded is
valued with more of the turn played than its unexpanded siblings (valued one step
ahead), so a greedy selection keeps deepening the first child it expanded; a large
constant searches the ``top_k`` candidates and their follow-ups evenly.

>>> make_strategy("mcts:iterations=10").spec
'mcts:iterations=10'
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar

from hansa_lab.engine.actions import Action
from hansa_lab.engine.limits import Limit, strategy_limits
from hansa_lab.engine.observe import determinise
from hansa_lab.engine.rng import Rng
from hansa_lab.engine.rules import apply, apply_in_place, legal_actions
from hansa_lab.engine.state import State
from hansa_lab.strategies.base import Strategy, make_strategy, register, search_box
from hansa_lab.strategies.evaluation import EvalCache, Weights, evaluate
from hansa_lab.strategies.lookahead import OPENS_DECISION, establish_value, filled_route

__all__ = ["MCTS", "make_strategy"]

#: Action kinds whose equivalent variants (same piece type, same routes) are tried once.
_SHIFTS = ("move_piece", "shift")
#: Actions that pass rather than act (never picked by ``explore``).
_PASSIVE = ("end", "stop", "decline")


class _Node:
    """A position where the searching player decides (``kids`` empty: a horizon leaf)."""

    __slots__ = (
        "acts", "floor", "kids", "n", "nk", "q", "qk", "samples", "solved", "state", "total",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        self.acts: list[Action] = []  # kept candidate actions, best one-step value first
        self.kids: list[_Node | None] = []  # child nodes (None until visited)
        self.qk: list[float] = []  # value of each candidate (its one-step value until visited)
        self.nk: list[int] = []  # visits of each candidate
        self.n = 0
        self.q = float("-inf")
        self.solved = False  # value is exact: nothing left to search below
        self.samples = 0  # horizon leaf: rollouts averaged into ``q``
        self.total = 0.0
        self.floor = float("-inf")  # value of a played-out rest of the turn (a lower bound)


def _is_open(node: _Node | None) -> bool:
    """Whether a child still needs search (not visited yet, or not solved)."""
    return node is None or not node.solved


@register("mcts")
class MCTS(Strategy):
    """Monte Carlo tree search over the own turn with evaluation at the horizon (see the
    module documentation). Parameters:

    ``iterations``      search iterations per decision (the reproducible budget)
    ``time_limit``      seconds per decision, 0 = no limit (not reproducible)
    ``exploration``     UCT constant on values rescaled to [0, 1] per node
    ``top_k``           children kept per node, by greedy's one-step value
    ``widening``        progressive widening: a node visited n times may try the best
                        ceil(widening · √(n+1)) of its ``top_k`` children (0 = all)
    ``rollout_depth``   actions played past the horizon before evaluating (0 = none)
    ``rollout_sample``  legal actions sampled per rollout step (the best one is played)
    ``finish_turn``     also play out the rest of the turn from each new node
    ``rival``           weight of the best opponent's evaluation, subtracted
    ``explore``         probability of a random active action when nothing improves
    the :class:`~.evaluation.Weights` fields: the evaluation's weights.
    """

    trusted: ClassVar[bool] = True

    defaults: ClassVar[dict[str, Any]] = {
        "iterations": 30,
        "time_limit": 0.0,
        "exploration": 10.0,
        "top_k": 6,
        "widening": 0.0,
        "rollout_depth": 0,
        "rollout_sample": 6,
        "finish_turn": False,
        "rival": 0.0,
        "explore": 0.0,
        **Weights().__dict__,
    }
    limits: ClassVar[dict[str, Limit]] = strategy_limits("mcts")
    ranges: ClassVar[dict[str, tuple[float, float]]] = search_box(limits, "patience", "fade")
    iterations: int
    time_limit: float
    exploration: float
    top_k: int
    widening: float
    rollout_depth: int
    rollout_sample: int
    finish_turn: bool
    rival: float
    explore: float

    def setup(self) -> None:
        checks = (
            ("iterations", self.iterations >= 0),
            ("time_limit", self.time_limit >= 0),
            ("exploration", self.exploration >= 0),
            ("top_k", self.top_k >= 1),
            ("widening", self.widening >= 0),
            ("rollout_depth", self.rollout_depth >= 0),
            ("rollout_sample", self.rollout_sample >= 1),
            ("explore", 0 <= self.explore <= 1),
        )
        for name, ok in checks:
            if not ok:
                raise ValueError(
                    f"strategy {self.name!r}: parameter {name!r} out of range "
                    f"({self._params[name]!r})"
                )
        self.weights = Weights(**{k: self._params[k] for k in Weights.names()})
        self._caches: dict[int, EvalCache] = {}
        self._me = 0
        self._rng = Rng(0)
        self._expanded = 0
        #: figures of the last search: iterations run, nodes expanded, seconds
        self.last_search: dict[str, float] = {}

    # ------------------------------------------------------------------ values
    def _eval(self, s: State, p: int) -> float:
        cache = self._caches.get(p)
        if cache is None:
            cache = self._caches[p] = EvalCache()
        return evaluate(s, p, self.weights, cache)

    def _value(self, state: State) -> float:
        """The searching player's value of a position (higher is better)."""
        me = self._me
        v = self._eval(state, me)
        if self.rival and state.n_players > 1:
            v -= self.rival * max(self._eval(state, o) for o in range(state.n_players)
                                  if o != me)
        return v

    def _in_turn(self, s: State) -> bool:
        """Still inside the horizon (the searching player's turn, or its sub-decision)?"""
        return s.end_reason is None and (s.active == self._me or s.current_player == self._me)

    def _mine(self, s: State) -> bool:
        return s.end_reason is None and s.current_player == self._me

    def _reply(self, s: State) -> State:
        """Answer opponents' sub-decisions inside the searching player's turn with their
        one-step best reply (first in legal order on ties); returns a new state."""
        while self._in_turn(s) and not self._mine(s):
            s = apply(s, self._best_reply(s, legal_actions(s)), check=False)
        return s

    def _best_reply(self, s: State, candidates: list[Action]) -> Action:
        """The candidate with the best one-step value for the player deciding in ``s``
        (the first in order on ties)."""
        if len(candidates) == 1:
            return candidates[0]
        p = s.current_player
        best, best_v = candidates[0], float("-inf")
        for a in candidates:
            v = self._eval(apply(s, a, check=False), p)
            if v > best_v:
                best, best_v = a, v
        return best

    # ------------------------------------------------------------------ tree
    def _expand(
        self, state: State, deep: bool = True, legal: list[Action] | None = None
    ) -> _Node:
        """A node for ``state`` (the searching player decides) with the ``top_k`` children
        by one-step value, among ``legal`` (default: every legal action). ``deep``: an
        action opening a decision of the same player is valued by its best first step
        (its child node is built at once)."""
        node = _Node(state)
        self._expanded += 1
        scored: list[tuple[float, int, Action, _Node | None]] = []
        seen: set[tuple[int, int, bool, int]] = set()
        b = state.board
        for i, a in enumerate(legal_actions(state) if legal is None else legal):
            if a.kind in _SHIFTS:
                key = (b.post_route[a.a], state.posts[a.a], b.post_merchant_only[a.a], a.b)
                if key in seen:
                    continue
                seen.add(key)
            nxt = apply(state, a, check=False)
            kid: _Node | None = None
            if deep and a.kind in OPENS_DECISION and nxt.pending and self._mine(nxt):
                kid = self._expand(nxt, deep=False)
                v = kid.q
            else:
                v = self._value(nxt)
                r = filled_route(nxt, a, self._me)
                if r >= 0:
                    v = max(v, establish_value(nxt, r, self._me, self._value))
            scored.append((v, -i, a, kid))
        scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
        del scored[max(1, self.top_k) :]
        node.acts = [x[2] for x in scored]
        node.qk = [x[0] for x in scored]
        node.kids = [x[3] for x in scored]
        node.nk = [0] * len(scored)
        node.q = node.qk[0]
        return node

    def _select(self, node: _Node) -> int:
        """UCT over the children the node may try, solved ones skipped (when all the
        widening allows are solved, the next unsolved one is tried); -1 if none."""
        kids = node.kids
        k = len(node.acts)
        if self.widening > 0:
            k = min(k, max(1, math.ceil(self.widening * math.sqrt(node.n + 1))))
        open_ = [i for i in range(k) if _is_open(kids[i])]
        if not open_:
            return next((i for i in range(k, len(kids)) if _is_open(kids[i])), -1)
        qs = node.qk
        lo = min(qs[i] for i in open_)
        hi = max(qs[i] for i in open_)
        span = hi - lo if hi > lo else 1.0
        logn = math.log(node.n + 1)
        c = self.exploration
        best, best_u = -1, float("-inf")
        for i in open_:
            u = (qs[i] - lo) / span + c * math.sqrt(logn / (node.nk[i] + 1))
            if u > best_u:
                best, best_u = i, u
        return best

    def _leaf(self, state: State) -> _Node:
        """A horizon leaf: worth its evaluation, or the mean of truncated rollouts."""
        leaf = _Node(state)
        if self.rollout_depth == 0 or state.end_reason is not None:
            leaf.q = self._value(state)
            leaf.solved = True
        else:
            self._sample(leaf)
        return leaf

    def _sample(self, leaf: _Node) -> None:
        leaf.total += self._rollout(leaf.state)
        leaf.samples += 1
        leaf.q = leaf.total / leaf.samples

    def _rollout(self, state: State) -> float:
        """``rollout_depth`` actions by everybody, each the best of ``rollout_sample``
        sampled legal actions on the deciding player's evaluation (an establishment
        whenever one is legal), then the searching player's value."""
        s = state.clone()
        rng = self._rng
        m = self.rollout_sample
        for _ in range(self.rollout_depth):
            if s.end_reason is not None:
                break
            legal = legal_actions(s)
            if len(legal) > 1:
                pool = [a for a in legal if a.kind == "establish"]
                if not pool:
                    pool = rng.sample(legal, m) if len(legal) > m else legal
                best = self._best_reply(s, pool)
            else:
                best = legal[0]
            apply_in_place(s, best, check=False)
        return self._value(s)

    def _finish_turn(self, state: State) -> float:
        """Play out the rest of the searching player's turn, each own decision the best of
        ``rollout_sample`` sampled legal actions (an establishment whenever one is legal),
        opponents' sub-decisions by their one-step best reply; the value reached (a line
        the player can really play, so a lower bound of the node's value)."""
        s = state.clone()
        rng = self._rng
        m = self.rollout_sample
        for _ in range(100):  # a turn is far shorter; guards against surprises
            s = self._reply(s)
            if not self._mine(s):
                break
            legal = legal_actions(s)
            pool = [a for a in legal if a.kind == "establish"]
            if not pool:
                pool = rng.sample(legal, m) if len(legal) > m else legal
            best, best_v = pool[0], float("-inf")
            for a in pool:
                v = self._value(apply(s, a, check=False))
                if v > best_v:
                    best, best_v = a, v
            apply_in_place(s, best, check=False)
        return self._value(s)

    def _iterate(self, root: _Node) -> None:
        """One iteration: select down the tree, expand one child, back up."""
        path: list[tuple[_Node, int]] = []
        node = root
        while True:
            i = self._select(node)
            if i < 0:  # everything below is solved (only possible at the root)
                node.solved = True
                return
            path.append((node, i))
            kid = node.kids[i]
            if kid is None:
                nxt = self._reply(apply(node.state, node.acts[i], check=False))
                if self._mine(nxt):
                    kid = self._expand(nxt)
                    if self.finish_turn:
                        kid.floor = self._finish_turn(nxt)
                        kid.q = max(kid.q, kid.floor)
                else:
                    kid = self._leaf(nxt)
                node.kids[i] = kid
                break
            if not kid.acts:  # horizon leaf
                self._sample(kid)
                break
            node = kid
        for nd, j in reversed(path):
            nd.n += 1
            nd.nk[j] += 1
            k = nd.kids[j]
            assert k is not None
            nd.qk[j] = k.q
            nd.q = max(max(nd.qk), nd.floor)
            nd.solved = all(x is not None and x.solved for x in nd.kids)

    def choose(self, state: State, legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        t0 = time.perf_counter()
        self._me = state.current_player
        self._rng = rng
        self._expanded = 0
        state = determinise(state, rng)  # a possible draw order: the real one is hidden
        root = self._expand(state, legal=legal)
        done = 0
        if len(root.acts) > 1:
            for done in range(1, self.iterations + 1):  # noqa: B007 - count is reported
                self._iterate(root)
                if root.solved or (
                    self.time_limit and time.perf_counter() - t0 >= self.time_limit
                ):
                    break
        best_v = max(root.qk)
        best = [a for a, q in zip(root.acts, root.qk, strict=True) if q >= best_v - 1e-9]
        choice = best[0] if len(best) == 1 else rng.choice(best)
        if self.explore and best_v <= self._value(state) + 1e-9:
            active = [a for a in legal if a.kind not in _PASSIVE]
            if active and rng.random() < self.explore:
                choice = rng.choice(active)
        self.last_search = {
            "iterations": done,
            "expanded": self._expanded,
            "seconds": time.perf_counter() - t0,
        }
        return choice
